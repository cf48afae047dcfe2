"""The rounds of a race (`uno-sim design`): the grid points still in the race play the same
games (the same seed and game indices, so the same deals), those after the games of the
rounds before, and each chunk's record rows are turned into the per-game values the race's
statistics pair (stats/racing.py).

A round is played in blocks of at most `block_games(points)` games per point, each block one
pipeline over the points (running/chunks.py), so the per-game values held at once stay small
whatever the budget. Threads only: a cluster sends back each chunk's aggregate, not its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .chunks import Threads, Unit, run_chunks
from .interrupts import Interrupted
from .games import GameWork, warm_up_for
from .progress import SILENT, Progress

BLOCK_VALUES = 1 << 21  # per-game rows held at once in a block, over every point


def block_games(points: int) -> int:
    """Games per point in one block: BLOCK_VALUES over the points, within 4,096 .. 262,144."""
    return max(4096, min(262_144, BLOCK_VALUES // max(points, 1)))


@dataclass
class OffsetWork:
    """A unit's games `offset + first` ...: chunk work over the games after the rounds before
    (the chunk runner numbers a unit's items from 0)."""

    inner: GameWork
    offset: int

    what = "games"
    cap = GameWork.cap
    fixed_min = GameWork.fixed_min
    fixed_max = GameWork.fixed_max

    def start(self, first: int, n: int, threads: int, stop=None):
        return self.inner.start(self.offset + first, n, threads, stop)

    def empty(self):
        return self.inner.empty()

    def reduce(self, rows):
        return self.inner.reduce(rows)


class _BlockProgress:
    """One round's bar, told by the pipelines of its blocks (each counting from 0)."""

    def __init__(self, bar, done_before: int) -> None:
        self.bar, self.done_before = bar, done_before

    def chunks(self, total: int, label: str, unit: str) -> "_BlockProgress":
        return self

    def starting(self, *args):  # pragma: no cover - the engine is started once, before the race
        from contextlib import nullcontext

        return nullcontext()

    def update(self, done: int, seconds_left: float | None, description: str) -> None:
        self.bar.update(self.done_before + done, None, description)

    def close(self) -> None:
        pass


class RacePlayer:
    """Plays rounds of a race on this process's threads: `works[i]` are grid point i's
    streams of games (its own games, and the skill games when the race needs them), each with
    its description; `values(i, s, rows)` turns the record rows of point i's stream s into
    per-game values (a 2-D int64 array, one row per game)."""

    def __init__(self, works: list[list[GameWork]], descriptions: list[list[str]],
                 values: Callable[[int, int, np.ndarray], np.ndarray], workers: int | None = None,
                 progress: Progress = SILENT) -> None:
        self.works, self.descriptions, self.values = works, descriptions, values
        self.executor = Threads(workers)
        self.progress = progress
        self.started = False

    def play_round(self, alive: list[int], first_game: int, games: int, label: str,
                   fold: Callable[[list[np.ndarray]], None]) -> None:
        """Play games first_game .. first_game + games - 1 of every stream at every point of
        `alive`, a block at a time; `fold(values)` gets each block's per-game values, one
        array per alive point (same order; its streams' columns side by side), rows in game
        order."""
        if not self.started:
            warm_up_for(self.executor, [w for point in self.works for w in point], self.progress)
            self.started = True
        streams = sum(len(self.works[i]) for i in alive)
        bar = self.progress.chunks(games * streams, label, "games")
        try:
            size = block_games(streams)
            for lo in range(0, games, size):
                n = min(size, games - lo)
                parts = {(i, s): [] for i in alive for s in range(len(self.works[i]))}

                def consume(i: int, s: int) -> Callable:
                    def fold_chunk(first: int, count: int, partial, rows) -> None:
                        parts[(i, s)].append((first, self.values(i, s, rows)))
                    return fold_chunk

                units = [Unit(OffsetWork(work, first_game + lo), n, consume(i, s), self.descriptions[i][s])
                         for i in alive for s, work in enumerate(self.works[i])]
                try:
                    run_chunks(units, self.executor, _BlockProgress(bar, lo * streams))
                except Interrupted as exc:  # its pipeline counted this block's games: count the round's
                    exc.done = lo * streams + (exc.done or 0)
                    raise
                fold([np.column_stack([_in_order(parts[(i, s)]) for s in range(len(self.works[i]))]) for i in alive])
        finally:
            bar.close()


def _in_order(chunks: list[tuple[int, np.ndarray]]) -> np.ndarray:
    """A unit's chunks' values, in game order."""
    return np.concatenate([v for _, v in sorted(chunks, key=lambda item: item[0])])
