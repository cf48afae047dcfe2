"""Matches with Python seats as match record rows: what `match` plays when a seat is `python:...`
(running/matches.py hands such chunks here).

A match is the engine's own: engine/match.py's begin_match seeds it and draws the first
dealer, before_round seats each round (seats rotated: every seat gets its player's bot), and
after_round scores the round and decides whether the match goes on and who deals next, as in
the compiled matches. Only the rounds are played from here: each round starts from the
generator state and dealer the match reached and is stepped like a game of `run` (each step
resumes the round at the start of the turn it stopped in, engine/stepping.py
play_round_to_question), so the compiled bots play the other seats at engine speed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import layout as L
from ..engine.match import HISTORY_ROUNDS, after_round, before_round, begin_match, player_at
from ..engine.state import N_GAME, O_CAPACITY, O_EXT_OUT, O_EXT_SEATS, O_EXT_SNAP, O_EXT_TAPE, O_RNG
from ..game.bots import Bot
from ..game.rules import Rules
from .policies import load_policy
from .table import Table, _compiled_entry


class RoundTable(Table):
    """A Table whose game array carries a match from round to round: `play_round(dealer)`
    plays the next round from the generator state the array holds, the Python seats being
    those set in its O_EXT_SEATS. A longer tape moves the whole game (seating, generator)
    into the bigger array, not just the configuration."""

    def __init__(self, rules: Rules, bots: Sequence[str], python_seats: Sequence[int]) -> None:
        super().__init__(rules, bots=bots, python_seats=python_seats)
        from ..engine.stepping import round_kernel

        self._start = np.zeros(4, dtype=np.int64)  # the generator as the round began
        self._dealer = np.int64(0)
        play_round_to_question = round_kernel(self.rules.cards.two_sided)
        entry = _compiled_entry(play_round_to_question, self._g, self._start, self._dealer)
        self._play_step = lambda g, key, game, tracing: entry(g, self._start, self._dealer, tracing)
        self._kernel = lambda g, key, game, tracing: play_round_to_question(g, self._start, self._dealer,
                                                                             np.int64(tracing))

    @property
    def config(self) -> np.ndarray:
        """The configuration block: its bot slots are the match's players."""
        return self._config

    def _array(self, tape: int, trace: int) -> np.ndarray:
        g = super()._array(tape, trace)
        current = getattr(self, "_g", None)
        if current is not None:
            kept = g[O_CAPACITY], g[O_EXT_OUT], g[O_EXT_SNAP], g[O_EXT_TAPE]
            g[:N_GAME] = current[:N_GAME]
            g[O_CAPACITY], g[O_EXT_OUT], g[O_EXT_SNAP], g[O_EXT_TAPE] = kept
        return g

    def play_round(self, dealer: int) -> None:
        """Play the next round with `dealer` dealing, up to the first question of a Python seat."""
        self._start[:] = self._g[O_RNG : O_RNG + 4]
        self._dealer = np.int64(dealer)
        self.length = 0
        self._play()


class PythonMatches:
    """Matches of a run whose players include Python policies, played one at a time in this
    thread, one match record row each (layout.M_*): the same first dealers, seatings, scoring
    and ends as the compiled matches (engine/match.py). `seatings`: the seating classes to
    rotate through (match.seating_classes), or None for fixed seats."""

    def __init__(self, rules: Rules, bots: Sequence[Bot], key: int, seatings: np.ndarray | None) -> None:
        self.players = n = rules.players
        self.key = np.uint64(key)
        self.policies = [load_policy(b.python, f"seat {i}") if b.python else None for i, b in enumerate(bots)]
        self.table = RoundTable(rules, [b.label if not b.python else "random" for b in bots],
                                [p for p in range(n) if bots[p].python])
        self.seatings = np.zeros((0, n), dtype=np.int64) if seatings is None else seatings
        self.history = np.zeros((HISTORY_ROUNDS, L.MAX_PLAYERS), dtype=np.int64)
        self.dealers = np.zeros(HISTORY_ROUNDS, dtype=np.int64)
        self.seated = np.zeros((HISTORY_ROUNDS, L.MAX_PLAYERS), dtype=np.int64)

    def records(self, first: int, n: int, stopped=None) -> np.ndarray:
        """The match record rows of matches first .. first+n-1; `stopped()`, asked before every
        decision, ends the chunk early (the rows of the matches not finished left zero)."""
        out = np.zeros((n, L.N_MATCH_COLS), dtype=np.int64)
        for i in range(n):
            if not self.play(first + i, out[i], stopped):
                out[i] = 0
                break
        return out

    def _players(self, match: int, rnd: int) -> list[int]:
        """The player in each seat in round `rnd`."""
        if self.seatings.shape[0] == 0:
            return list(range(self.players))
        return [int(player_at(self.seatings, match, rnd, s)) for s in range(self.players)]

    def play(self, match: int, out: np.ndarray, stopped=None) -> bool:
        """Match number `match` of the run into the record row `out`; False when `stopped()`
        cut it short."""
        table = self.table
        match = np.int64(match)
        dealer = begin_match(table._g, self.key, match, self.seatings, out, self.history)
        rnd = np.int64(0)
        while dealer >= 0:
            before_round(table._g, table.config, self.seatings, match, rnd, dealer, self.dealers, self.seated)
            seats = [self.policies[p] for p in self._players(match, rnd)]
            table._g[O_EXT_SEATS] = sum(1 << s for s, policy in enumerate(seats) if policy is not None)
            table.play_round(dealer)
            while not table.done:
                if stopped is not None and stopped():
                    return False
                table.step(seats[table.seat](table.observation, table._mask))
            dealer = after_round(table._g, self.seatings, match, rnd, dealer, out, self.history)
            rnd += 1
        return True
