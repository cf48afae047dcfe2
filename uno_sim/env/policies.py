"""Python policies over the observation and the legal actions; `RandomBot` is the `random` bot.

A policy is called with the observation (int64[N_OBS], docs/BOTS.md) and the mask of legal
actions (bool[N_ACTIONS]) and returns one legal action. `RandomBot` makes every choice as the
engine's `random` bot does (docs/BOTS.md, "random"): uniform over the physical cards it may
put down (a face weighted by the copies held), drawing or accepting a penalty only when no
card may go down, always playing a playable drawn card, challenging with challenge_prob (0 by
default), jumping in with jump_in_prob (1 by default) and then uniformly over its moves (each
identical card and each distinct sum set one move, a set put down in face order), no extra
cards in a multi-play, swapping with a Wild with probability 1/2, a colour and a swap target
uniformly. It draws from its own generator, not the game's, so its games are not the `random`
bot's games, but its statistics are the same (tests/test_env_equality.py).
"""

from __future__ import annotations

import random

import numpy as np

from ..engine import layout as L
from ..game.bots import default_param
from ..game.errors import BadInput

Q = L.QUESTION


class RandomBot:
    """The `random` bot as a Python policy: `RandomBot(seed)(observation, mask)` -> action."""

    def __init__(self, seed: int | None = None, challenge_prob: float | None = None,
                 jump_in_prob: float | None = None) -> None:
        self.rng = random.Random(seed)
        self.challenge_prob = float(default_param("random", "challenge_prob") if challenge_prob is None else challenge_prob)
        self.jump_in_prob = float(default_param("random", "jump_in_prob") if jump_in_prob is None else jump_in_prob)

    def _card(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """A legal face, weighted by the copies held; A_NO when none. (Plain lists: for a
        hand's few cards they are faster than numpy's calls.)"""
        faces = mask[L.A_FACE : L.A_FACE + L.MAX_FACES].nonzero()[0].tolist()
        if not faces:
            return L.A_NO
        hand = observation[L.OB_HAND : L.OB_HAND + L.MAX_FACES].tolist()
        r = self.rng.randrange(sum(hand[f] for f in faces))
        for f in faces:
            r -= hand[f]
            if r < 0:
                return L.A_FACE + f
        raise AssertionError("unreachable: r < the copies held")

    def _jump_card(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The next card of a jump-in move, so that the move is uniform over the moves still
        possible and goes down in face order: the cards are chosen lowest face first, so the
        moves left are those whose cards still to choose are no lower than the last one chosen
        (the argument); the observation's `moves` counts them by their lowest card still to
        choose, and A_YES (the cards chosen are a move) is one more."""
        last = int(observation[L.OB_ARG])
        moves = observation[L.OB_MOVES : L.OB_MOVES + L.MAX_FACES].tolist()
        done = 1 if mask[L.A_YES] else 0
        first = max(last, 0)
        total = done + sum(moves[first:])
        if total == 0:  # not a move this bot began in face order: uniform over every move left
            first, total = 0, sum(moves)
        r = self.rng.randrange(total)
        if r < done:
            return L.A_YES
        r -= done
        for f in range(first, L.MAX_FACES):
            r -= moves[f]
            if r < 0:
                return L.A_FACE + f
        raise AssertionError("unreachable: r < the moves counted")

    def _yes(self, probability: float) -> int:
        if probability >= 1:
            return L.A_YES
        return L.A_YES if self.rng.random() < probability else L.A_NO

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        question = int(observation[L.OB_QUESTION])
        if question == Q.turn or question == Q.answer or question == Q.swap_card:
            return self._card(observation, mask)
        if question == Q.play_drawn:
            return L.A_YES
        if question == Q.extra_card:  # the random bot puts down no extra cards in a multi-play
            return L.A_NO
        if question == Q.challenge:
            return self._yes(self.challenge_prob)
        if question == Q.jump_in:
            return self._yes(self.jump_in_prob)
        if question == Q.jump_card:
            return self._jump_card(observation, mask)
        if question == Q.wild_swap:
            return self._yes(0.5)
        return self.rng.choice(np.flatnonzero(mask).tolist())  # a colour, a swap target


def uniform_policy(seed: int | None = None):
    """A policy uniform over the legal actions (not the `random` bot: it also draws by choice)."""
    rng = random.Random(seed)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        return rng.choice(np.flatnonzero(mask).tolist())
    return policy


def load_policy(target: str):
    """The policy a `python:TARGET` bot names, as `act(observation, mask) -> action`.

    TARGET is MODULE:CALLABLE (an importable module) or path/to/file.py:CALLABLE. The callable
    is `policy(observation, legal_actions)`: the observation (int64[N_OBS], docs/BOTS.md) and
    the legal actions as a list of ints, returning one of them. A class is made once (no
    arguments) and its `policy` method called (or the object itself, when it has none).
    Anything wrong is a BadInput naming it."""
    import importlib
    import importlib.util
    import inspect
    from pathlib import Path

    spec_text = f"python:{target}"
    where, _, name = target.rpartition(":")
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise BadInput(f"{spec_text}: no file {where}")
            spec = importlib.util.spec_from_file_location(f"uno_sim_policy_{path.stem}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except BadInput:
        raise
    except Exception as e:  # the user's module failed to import: one line naming it
        raise BadInput(f"{spec_text}: cannot load {where} ({type(e).__name__}: {e})") from None
    found = getattr(module, name, None)
    if found is None:
        raise BadInput(f"{spec_text}: {where} has no {name!r}")
    if inspect.isclass(found):
        try:
            found = found()
        except Exception as e:
            raise BadInput(f"{spec_text}: cannot make a {name} ({type(e).__name__}: {e})") from None
        found = getattr(found, "policy", found)
    if not callable(found):
        raise BadInput(f"{spec_text}: {name!r} is not callable")
    return PolicySeat(found, spec_text)


class PolicySeat:
    """A `policy(observation, legal_actions)` as `act(observation, mask)`; an answer that is not
    one of the legal actions is an error naming the policy and the question."""

    def __init__(self, policy, label: str) -> None:
        self.policy = policy
        self.label = label

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask).tolist()
        action = self.policy(observation, legal)
        try:
            ok = int(action) in legal
        except (TypeError, ValueError):
            ok = False
        if not ok:
            question = L.QUESTIONS[int(observation[L.OB_QUESTION])]
            raise BadInput(f"{self.label} answered {action!r} to the question {question!r}, "
                           f"not one of the legal actions {legal}")
        return int(action)
