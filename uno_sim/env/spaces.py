"""What the environments share: the rewards of a finished game, the observation's bounds,
the observation as named fields, an answer read as an action."""

from __future__ import annotations

import operator

import numpy as np

from ..engine import layout as L
from ..game.errors import BadInput
from ..game.knobs import KERNEL_NAMES
from ..game.packing import ONE

REWARDS = ("win", "points")
OBS_LOW = -1
OBS_HIGH = ONE  # the largest entry: a rule's probability 1 (uno_catch) as the engine reads it, 2**32


def as_action(action) -> int | None:
    """`action` as an int when it is an integer (a Python or numpy integer, anything with
    __index__), else None: a float (2.9), a string ("2") or a bool (True) is no action, never
    truncated to one."""
    if type(action) is int:
        return action
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise BadInput(f"unknown reward {reward!r} (known: {', '.join(REWARDS)})")
    return reward


def rewards(record: dict, players: int, reward: str) -> list[float]:
    """Each seat's reward for a finished game. `win`: 1 for the winner, -1 for every other seat
    (0 for all when nobody won). `points`: the winner's points (winner_points) for the winner,
    minus the points left in its hand for every other seat (0 for all when nobody won)."""
    winner = record["winner"]
    if winner < 0:
        return [0.0] * players
    if reward == "win":
        return [1.0 if q == winner else -1.0 for q in range(players)]
    return [float(record["winner_points"]) if q == winner else -float(record[f"points_{q}"]) for q in range(players)]


def describe(observation: np.ndarray) -> dict:
    """The observation as named fields (for reading and printing, not for a training loop):
    per-seat lists start with the observer and go round in seat order. Faces are numbers: of
    the side in play, but in `pile_back` and `backs` (two-sided decks: the faces of the other
    side, `backs` one dict a seat, the observer's own empty)."""
    o = np.asarray(observation)
    n = int(o[L.OB_PLAYERS])
    out = {name: int(o[offset]) for name, offset, size in L.OBS.blocks if size == 1}
    out["question"] = L.QUESTIONS[out["question"]]
    out["hand"] = {int(f): int(o[L.OB_HAND + f]) for f in np.flatnonzero(o[L.OB_HAND : L.OB_HAND + L.MAX_FACES])}
    out["discard"] = {int(f): int(o[L.OB_DISCARD + f])
                      for f in np.flatnonzero(o[L.OB_DISCARD : L.OB_DISCARD + L.MAX_FACES])}
    out["moves"] = {int(f): int(o[L.OB_MOVES + f]) for f in np.flatnonzero(o[L.OB_MOVES : L.OB_MOVES + L.MAX_FACES])}
    for name, offset in (("hand_sizes", L.OB_SIZES), ("places", L.OB_PLACES), ("voids", L.OB_VOIDS)):
        out[name] = [int(v) for v in o[offset : offset + n]]
    out["rules"] = {name: int(o[L.OB_RULES + i]) for i, name in enumerate(KERNEL_NAMES)}
    backs = o[L.OB_BACKS : L.OB_BACKS + n * L.MAX_FACES].reshape(n, L.MAX_FACES)
    out["backs"] = [{int(f): int(row[f]) for f in np.flatnonzero(row)} for row in backs]
    return out
