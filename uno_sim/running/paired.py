"""Several runs on the same deals played chunk by chunk together, so that each chunk's
aggregate also holds the per-game cross moments of every variant with the first
(stats.PairedAggregate): what a paired comparison needs, made where the rows are (this
process's threads or a cluster's worker) and kept in checkpoints like any aggregate.

A chunk plays games first .. first+n-1 under every variant; game i of every variant is
dealt from (run key, i) alike, so the rows of a chunk pair up row by row.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from .. import stats
from .chunks import Unit
from .games import GameRun, GameWork


class _Jobs:
    """The chunk jobs of every variant as one (the executor waits on all their futures)."""

    def __init__(self, jobs: list) -> None:
        self.jobs = jobs
        self.job = SimpleNamespace(futures=[f for j in jobs for f in j.job.futures])

    def result(self) -> list:
        return [j.result() for j in self.jobs]


@dataclass
class PairedWork:
    """The same games under several rule sets as chunk work (chunks.Work): picklable."""

    works: list[GameWork]

    what = "games"
    fixed_min = GameWork.fixed_min
    fixed_max = GameWork.fixed_max

    @property
    def cap(self) -> int:
        """Games held as rows at once: GameWork's memory, shared by the variants."""
        return max(1024, GameWork.cap // len(self.works))

    def start(self, first: int, n: int, threads: int, stop=None) -> _Jobs:
        return _Jobs([w.start(first, n, threads, stop) for w in self.works])

    def empty(self) -> stats.PairedAggregate:
        return stats.PairedAggregate([w.empty() for w in self.works])

    def reduce(self, rows: list) -> stats.PairedAggregate:
        agg = self.empty()
        agg.add(rows)
        return agg


class PairedRuns:
    """Game runs of the same length and seed played as one unit: each chunk's aggregates go
    to their runs (per-game files included), the cross moments are kept here (`pairing()`)."""

    def __init__(self, runs: list[GameRun], description: str, store=None) -> None:
        if len({(r.games, r.seed, r.unit().start) for r in runs}) != 1:
            raise ValueError("paired runs need the same games and seed")
        self.runs = runs
        self.work = PairedWork([r.work for r in runs])
        self.moments = self.work.empty().moments
        self._unit = Unit(self.work, runs[0].games, self.consume, description,
                          max(1024, 65536 // len(runs)), store, start=runs[0].unit().start, weight=len(runs))

    def unit(self) -> Unit:
        return self._unit

    def consume(self, first: int, n: int, partial: stats.PairedAggregate, records) -> None:
        for i, run in enumerate(self.runs):
            run.consume(first, n, partial.parts[i], None if records is None else records[i])
        for mine, theirs in zip(self.moments, partial.moments):
            mine.merge(theirs)

    def settle(self) -> None:
        """After playing: each run's share of the time, and what came from a checkpoint."""
        for run in self.runs:
            run.unit().seconds = self._unit.seconds / len(self.runs)
            run.unit().restored = self._unit.restored

    def pairing(self) -> stats.PairedAggregate:
        return stats.PairedAggregate([r.agg for r in self.runs], self.moments)
