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
from .spaces import as_action

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


class PolicyError(BadInput):
    """A `python:` policy that failed while playing (raised, exited, or answered something
    that is not a legal action); the message names its seat and the bot."""


def _policy_file(target: str) -> "Path | None":
    """The file a `python:TARGET` bot's module is read from: path/to/file.py, or the module's
    own file (None when it has none, a built-in or a namespace package)."""
    import importlib.util
    from pathlib import Path

    where = target.rpartition(":")[0]
    if where.endswith(".py"):
        return Path(where)
    try:
        spec = importlib.util.find_spec(where)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    return Path(origin) if origin and Path(origin).is_file() else None


def policy_source(target: str) -> str:
    """What identifies a `python:TARGET` policy's code beside its name (for a checkpoint): the
    SHA-256 of the file it is read from ("" when there is none). Modules the file imports are
    not read."""
    import hashlib

    path = _policy_file(target)
    if path is None or not path.is_file():
        return ""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_policy(target: str, seat: str = ""):
    """The policy a `python:TARGET` bot names, as `act(observation, mask) -> action`.

    TARGET is MODULE:CALLABLE (an importable module) or path/to/file.py:CALLABLE. The callable
    is `policy(observation, legal_actions)`: the observation (int64[N_OBS], docs/BOTS.md) and
    the legal actions as a list of ints, returning one of them. A class is made once (no
    arguments) and its `policy` method called (or the object itself, when it has none).
    Anything wrong is a BadInput naming it; what the module prints while it loads goes to
    standard error (standard output is the command's own). `seat` names the seat in the
    errors of play ("seat 1")."""
    import contextlib
    import importlib
    import importlib.util
    import inspect
    import sys
    from pathlib import Path

    spec_text = f"python:{target}"
    where, _, name = target.rpartition(":")
    with contextlib.redirect_stdout(sys.stderr):
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
        except (Exception, SystemExit) as e:  # the user's module failed to import: one line naming it
            raise BadInput(f"{spec_text}: cannot load {where} ({_failure(e)})") from None
        found = getattr(module, name, None)
        if found is None:
            raise BadInput(f"{spec_text}: {where} has no {name!r}")
        if inspect.isclass(found):
            try:
                found = found()
            except (Exception, SystemExit) as e:
                raise BadInput(f"{spec_text}: cannot make a {name} ({_failure(e)})") from None
            found = getattr(found, "policy", found)
    if not callable(found):
        raise BadInput(f"{spec_text}: {name!r} is not callable")
    return PolicySeat(found, f"{seat} ({spec_text})" if seat else spec_text)


def _failure(e: BaseException) -> str:
    """An exception of the user's code in words: `ValueError: boom`, `sys.exit(3)`."""
    if isinstance(e, SystemExit):
        return f"sys.exit({e.code!r})" if e.code is not None else "sys.exit()"
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


class PolicySeat:
    """A `policy(observation, legal_actions)` as `act(observation, mask)`. The policy gets its
    own copy of the legal actions (what it does to the list changes nothing); a policy that
    raises or calls sys.exit, or answers anything but one of the legal actions as an integer
    (a Python or numpy integer: not 2.5, "2" or True) is a PolicyError naming its `label`
    ("seat 1 (python:agent.py:play)") and the question."""

    def __init__(self, policy, label: str) -> None:
        self.policy = policy
        self.label = label

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask).tolist()
        try:
            action = self.policy(observation, list(legal))
        except (Exception, SystemExit) as e:  # (KeyboardInterrupt: a signal, handled as one)
            raise PolicyError(f"{self.label} {'called' if isinstance(e, SystemExit) else 'raised'} "
                              f"{_failure(e)} (question {self._question(observation)!r})") from None
        index = as_action(action)
        if index is None or index not in legal:
            kind = "" if index is not None else f" (a {type(action).__name__}, not an integer)"
            raise PolicyError(f"{self.label} answered {action!r}{kind} to the question "
                              f"{self._question(observation)!r}, not one of the legal actions {legal}")
        return index

    @staticmethod
    def _question(observation: np.ndarray) -> str:
        return L.QUESTIONS[int(observation[L.OB_QUESTION])]
