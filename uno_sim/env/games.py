"""Games with Python seats as record rows: what `run`, `compare` and `tournament` play when a
seat is `python:...` (running/games.py hands such chunks here)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import layout as L
from ..engine.state import O_REC
from ..game.bots import Bot
from ..game.rules import Rules
from .policies import load_policy
from .table import Table


class PythonGames:
    """Games of a run whose bot slots include Python policies, played one at a time in this
    thread: the same deals and seats as the compiled chunks (game i is deal i, or with seats
    rotated deal i // n with rotation i % n, bot slot b at seat (b + r) % n), one record row
    each."""

    def __init__(self, rules: Rules, bots: Sequence[Bot], seed_key: int, rotate: bool) -> None:
        self.players = rules.players
        self.rotate = rotate
        self.policies = [load_policy(b.python, f"seat {i}") if b.python else None for i, b in enumerate(bots)]
        self.tables = []
        for r in range(self.players if rotate else 1):
            seated = [bots[(s - r) % self.players] for s in range(self.players)]
            python = [s for s in range(self.players) if seated[s].python]
            table = Table(rules, bots=[b.label if not b.python else "random" for b in seated], python_seats=python)
            table.key = np.uint64(seed_key)
            self.tables.append((table, [self.policies[(s - r) % self.players] for s in range(self.players)]))

    def records(self, first: int, n: int, stopped=None) -> np.ndarray:
        """The record rows of games first .. first+n-1; `stopped()`, asked before every
        decision, ends the chunk early (the rows of the games not finished left zero)."""
        out = np.zeros((n, L.N_COLS), dtype=np.int64)
        for i in range(n):
            game = first + i
            r = game % self.players if self.rotate else 0
            table, seats = self.tables[r]
            table.reset(game // self.players if self.rotate else game)
            while not table.done:
                if stopped is not None and stopped():
                    return out
                table.step(seats[table.seat](table.observation, table._mask))
            out[i] = table._g[O_REC : O_REC + L.N_COLS]
            w = out[i, L.COL_WINNER]
            out[i, L.COL_WINNER_BOT] = (w - r + self.players) % self.players if w >= 0 else -1
        return out
