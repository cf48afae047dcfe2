"""The chunk runner shared by runs, comparisons, sweeps, matches and tournaments: chunk plans,
executors (this process's worker threads, or a Dask cluster: uno_sim.running.cluster),
checkpoints, progress.

A *unit* is one variant's games (or matches): a picklable *work* object that plays chunks
of it, and a `consume` callback that folds each chunk's partial aggregate in. Every game is
seeded from (run key, game index), so the numbers never depend on how the games are cut
into chunks, on the thread count or on the machine that played a chunk.

Chunk plans:
- adaptive (threads, no checkpoint): the engine is compiled or loaded before the first
  chunk (warmup.py, not timed); a small first chunk starts the threads, a second measures
  the rate, later chunks aim at CHUNK_SECONDS each (bounded by the unit's `chunk_size`,
  which bounds the memory of the per-game rows);
- fixed (on a cluster, or with a checkpoint): chunks of `fixed_chunk(work, total)` items,
  a function of the unit alone, so a checkpoint names the same chunks on any executor and a
  resumed run plays exactly the chunks that are missing.

Executors take a chunk (`submit(work, first, n)`) and hand back a job: `wait(timeout)`,
`outcome()` -> (partial aggregate, per-game rows or None). Threads hand back the rows and
the aggregate is built here, while the next chunks play; a cluster hands back only the
aggregate (`play`, below, runs on its workers). Several units share one pipeline, so a sweep
or comparison keeps every worker busy across its variants; results are consumed in order.

`run_chunks` runs one pipeline with a `Scheduler`: restore what the checkpoints hold, keep
`in_flight` chunks submitted, wait for the oldest (telling the pipeline's progress, a
running.progress.Progress, how far it is), consume it, finish each unit once it is whole.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import deque
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

from . import interrupts
from .progress import SILENT, ChunkProgress, Progress

WARMUP_CHUNK = 2048
PROBE_CHUNK = 8192
CHUNK_SECONDS = 0.5
IN_FLIGHT = 2
TICK = 0.2  # seconds between progress updates (and signal checks) while a chunk plays
# Fixed plans: about FIXED_CHUNKS chunks a unit, within [work.fixed_min, work.fixed_max] items.
FIXED_CHUNKS = 16


def available_threads() -> int:
    """Cores this process may run on: the most worker threads worth starting."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class Work(Protocol):
    """What a unit's chunks are: picklable (a cluster ships it to its workers)."""

    what: str  # "games" or "matches"
    cap: int  # most items held as rows at once (memory)
    fixed_min: int
    fixed_max: int

    def start(self, first: int, n: int, threads: int, stop=None): ...  # a job whose result() is the rows

    def reduce(self, rows): ...  # the partial aggregate of these rows

    def empty(self): ...  # an aggregate of nothing (has merge)


class Job(Protocol):
    def wait(self, timeout: float | None) -> bool: ...

    def outcome(self) -> tuple[Any, Any]: ...


def fixed_chunk(work: Work, total: int) -> int:
    """The chunk size of a fixed plan: a power of two near total / FIXED_CHUNKS, bounded."""
    want = max(1, -(-total // FIXED_CHUNKS))
    size = 1 << (want - 1).bit_length()
    return max(work.fixed_min, min(work.fixed_max, size))


def fixed_plan(total: int, size: int) -> list[tuple[int, int]]:
    return [(first, min(size, total - first)) for first in range(0, total, size)]


def play(work: Work, first: int, n: int, threads: int = 1, stop=None):
    """Play items first .. first+n-1 and return their aggregate: what a cluster worker does
    with a chunk. The rows are made `work.cap` at a time, the next block playing while the
    last is aggregated."""
    total = work.empty()
    blocks = iter(fixed_plan(n, work.cap))
    pending: deque = deque(work.start(first + lo, m, threads, stop) for lo, m in itertools.islice(blocks, 2))
    while pending:
        rows = pending.popleft().result()
        nxt = next(blocks, None)
        if nxt is not None:
            pending.append(work.start(first + nxt[0], nxt[1], threads, stop))
        total.merge(work.reduce(rows))
    return total


class Chunker:
    """Adaptive chunk sizes for a unit: warm-up, probe, then about CHUNK_SECONDS each. `take`
    plans the next chunk, `record` notes one played (chunks may be planned before earlier
    ones finish)."""

    def __init__(self, total: int, chunk_size: int) -> None:
        self.total = total
        self.chunk_size = chunk_size
        self.planned = 0
        self.taken = 0
        self.recorded = 0
        self.rate: float | None = None  # items per second, measured after the warm-up

    def take(self) -> tuple[int, int]:
        """(first item, size) of the next chunk; size 0 once every item is planned."""
        if self.taken == 0:
            size = WARMUP_CHUNK
        elif self.rate is None:
            size = PROBE_CHUNK
        else:
            size = max(PROBE_CHUNK, int(self.rate * CHUNK_SECONDS))
        start = self.planned
        size = min(size, self.chunk_size, self.total - start)
        self.planned += size
        self.taken += 1
        return start, size

    def record(self, n: int, seconds: float) -> None:
        if self.recorded > 0 and seconds > 0:
            self.rate = n / seconds
        self.recorded += 1


def check_seats(rules, bots, what: str, count: int, chunk_size: int) -> None:
    """ValueError unless `count` items (games or matches) in chunks of `chunk_size` of these
    bots, one a seat of the rules, make sense."""
    if count < 1:
        raise ValueError(f"{what} must be at least 1 (got {count})")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1 (got {chunk_size})")
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots for {rules.players} players")


@dataclass
class Unit:
    """One variant's items to play: `consume(first, n, partial, rows)` is called once per
    chunk, in order (rows None when the executor keeps them, or the chunk came from a
    checkpoint). `store`: a checkpoint.UnitStore recording every finished chunk."""

    work: Any
    total: int
    consume: Callable[[int, int, Any, Any], None]
    description: str = "simulating"
    chunk_size: int = 65536
    store: Any = None
    beside: bool = False  # played beside a variant (its skill games): not a variant in the progress texts
    start: int = 0  # the first item's index: items start .. start+total-1 (a precision run's later looks)
    weight: int = 1  # games an index stands for (a paired unit plays each deal under every variant)
    seconds: float = 0.0  # filled in: this unit's share of the wall time
    restored: int = 0  # filled in: items taken from the checkpoint
    left: int = 0  # filled in: items still to consume
    merged: Any = field(default=None, repr=False)


def planned_chunk(unit: Unit) -> int:
    """The fixed chunk size of a unit (also what its checkpoint records)."""
    return fixed_chunk(unit.work, unit.total)


class LocalJob:
    """A chunk playing on this process's worker threads."""

    def __init__(self, work, job) -> None:
        self.work = work
        self.job = job

    def wait(self, timeout: float | None) -> bool:
        _, running = wait_futures(self.job.job.futures, timeout=timeout)
        return not running

    def outcome(self):
        rows = self.job.result()
        return self.work.reduce(rows), rows

    def abandon(self) -> None:
        """An error or a signal: wait for the engine's chunks to end (at the kernels' stop flag,
        or whole), but not for a chunk of Python seats (running/games.py PythonChunk.abandon:
        a policy may never return)."""
        for part in getattr(self.job, "jobs", [self.job]):  # (a paired chunk: each variant's)
            if hasattr(part, "abandon"):
                part.abandon()
            else:
                wait_futures(part.job.futures)


class Threads:
    """The executor on this process's worker threads (the engine's nogil kernels)."""

    fixed = False  # adaptive chunk plans
    keeps_rows = False  # the rows come back (per-game files possible)
    in_flight = IN_FLIGHT

    def __init__(self, workers: int | None = None) -> None:
        limit = available_threads()
        self.workers = min(workers or limit, limit)

    where = ""  # (a cluster names itself here; threads are counted by `workers`)

    def warm_up(self, kind: str, progress: Progress = SILENT):
        """Compile or load the engine's kernels for `kind` here (warmup.warm_up), untimed."""
        from .warmup import warm_up

        return warm_up(kind, progress=progress)

    def submit(self, work, first: int, n: int) -> LocalJob:
        return LocalJob(work, work.start(first, n, self.workers))

    def completed(self, jobs) -> list[bool]:
        return [False for _ in jobs]

    def abandon(self, jobs, interrupted: bool) -> None:
        """An error or a signal: let the queued chunks finish (or stop at the kernels' flag)."""
        for job in jobs:
            job.abandon()

    def close(self) -> None:
        pass


def _chunks(units: list[Unit], fixed: bool, planners: dict) -> Iterator[tuple[Unit, int, int]]:
    """Every chunk still to play, unit by unit, in order (adaptive plans planned lazily)."""
    for unit in units:
        if fixed or unit.store is not None:
            done = unit.store.recorded() if unit.store is not None else set()
            for first, n in fixed_plan(unit.total, planned_chunk(unit)):
                if (unit.start + first, n) not in done:
                    yield unit, unit.start + first, n
        else:
            planner = planners[id(unit)] = Chunker(unit.total, unit.chunk_size)
            while True:
                first, n = planner.take()
                if n == 0:
                    break
                yield unit, unit.start + first, n


def _variants(units: list[Unit]) -> list[Unit]:
    """The units that are variants of their own (not played beside another)."""
    return [u for u in units if not u.beside] or units


def describe_items(units: list[Unit]) -> str:
    """What a pipeline plays, for the message of an interruption: `games of standard`,
    `games (3 variants)`, `matches`."""
    what = units[0].work.what
    variants = _variants(units)
    if len(variants) == 1:
        return f"{what} of {variants[0].description}" if what == "games" else what
    return f"{what} ({len(variants)} variants)"


def default_label(units: list[Unit]) -> str:
    """The progress text of a pipeline: its one variant's description, or `N variants`."""
    variants = _variants(units)
    return variants[0].description if len(variants) == 1 else f"{len(variants)} variants"


class Scheduler:
    """One pipeline of chunks over several units (run_chunks): `restore` consumes what the
    units' checkpoints hold, `fill` keeps `executor.in_flight` chunks submitted, `wait` waits
    for the oldest with progress updates and signal checks, `consume` folds it into its unit
    and records it, `finish` closes a unit once all its items are consumed."""

    def __init__(self, units: list[Unit], executor, progress: Progress, label: str | None) -> None:
        self.units = units
        self.executor = executor
        self.progress = progress
        self.label = label or default_label(units)
        self.total = sum(u.total * u.weight for u in units)
        self.what = describe_items(units)
        self.stores = [u.store for u in units if u.store is not None]
        self.done = 0  # items consumed (restored or played)
        self.played = 0  # items played here
        self.first_done: tuple[float, int] | None = None  # (time, items) of the first chunk played
        self.pending: deque = deque()  # (unit, first, n, job), oldest first
        self.planners: dict[int, Chunker] = {}  # adaptive plans, by id(unit)
        self.chunks: Iterator[tuple[Unit, int, int]] | None = None
        self.bar: ChunkProgress | None = None
        self.began = self.last = self.chunk_began = 0.0

    def restore(self) -> None:
        """Consume every chunk the units' checkpoints hold (in order; they are not played)."""
        for unit in self.units:
            unit.merged = unit.work.empty()
            unit.left = unit.total
            if unit.store is not None:
                for first, n, partial in unit.store.restore(unit.work):
                    unit.merged.merge(partial)
                    unit.consume(first, n, partial, None)
                    self.done += n * unit.weight
                    unit.restored += n
                    unit.left -= n

    def start(self) -> None:
        self.bar = self.progress.chunks(self.total, self.label, self.units[0].work.what)
        self.chunks = _chunks(self.units, self.executor.fixed, self.planners)
        self.began = self.last = self.chunk_began = time.perf_counter()

    def fill(self) -> None:
        """Submit chunks until `executor.in_flight` are pending (or none is left)."""
        while len(self.pending) < self.executor.in_flight:
            nxt = next(self.chunks, None)
            if nxt is None:
                return
            unit, first, n = nxt
            self.pending.append((unit, first, n, self.executor.submit(unit.work, first, n)))

    def seconds_left(self, extra: int = 0) -> float | None:
        """The rest's expected seconds at the rate of the chunks played after the first
        (`extra`: items of chunks finished but not yet consumed)."""
        if self.first_done is None or self.played + extra <= 0:
            return None
        elapsed = time.perf_counter() - self.first_done[0]
        played = self.played + extra - self.first_done[1]
        if elapsed <= 0 or played <= 0:
            return None
        return (self.total - self.done - extra) / (played / elapsed)

    def wait(self) -> None:
        """Wait for the oldest pending chunk, updating the progress (counting the chunks done
        ahead of it) and checking for signals every TICK seconds."""
        unit, _, _, job = self.pending[0]
        while not job.wait(TICK):
            interrupts.check(self.done, self.total, self.what)
            jobs = [p[3] for p in self.pending]
            ahead = sum(p[2] * p[0].weight for p, ok in zip(self.pending, self.executor.completed(jobs)) if ok)
            self.bar.update(self.done + ahead, self.seconds_left(ahead), unit.description)
        interrupts.check(self.done, self.total, self.what)  # a signal stopped the kernels: rows are partial

    def consume(self) -> None:
        """Take the oldest pending chunk's outcome (submitting the next chunks first), record
        it in the checkpoint and fold it into its unit."""
        unit, first, n, job = self.pending[0]
        partial, rows = job.outcome()
        self.pending.popleft()
        now = time.perf_counter()
        planner = self.planners.get(id(unit))
        if planner is not None:
            planner.record(n, now - self.chunk_began)
        self.chunk_began = now
        self.fill()
        if unit.store is not None:
            unit.store.save(first, n, partial)
        unit.merged.merge(partial)
        unit.consume(first, n, partial, rows)
        self.done += n * unit.weight
        self.played += n * unit.weight
        if self.first_done is None:
            self.first_done = (now, n * unit.weight)
        unit.left -= n
        if unit.left == 0:  # (the last chunk played need not be the unit's last: a resumed run)
            self.finish(unit)
        self.bar.update(self.done, self.seconds_left(), unit.description)

    def finish(self, unit: Unit) -> None:
        """A unit is whole: its checkpoint keeps it in one piece; it took the time since the
        last unit finished."""
        if unit.store is not None:
            unit.store.complete(unit.merged)
        now = time.perf_counter()
        unit.seconds = now - self.last
        self.last = now

    def run(self) -> None:
        from ..game.errors import BadInput, RunFailure

        self.restore()
        self.start()
        with interrupts.guarded():
            interrupted = False
            try:
                for unit in self.units:
                    if unit.left == 0:
                        self.finish(unit)
                self.fill()
                while self.pending:
                    self.wait()
                    self.consume()
            except interrupts.Interrupted as exc:
                interrupted = True
                if self.stores:
                    exc.hint = self.stores[0].checkpoint.resume_hint(self.kept())
                raise
            except Exception as exc:
                interrupted = True
                if self.stores and not isinstance(exc, BadInput):  # (bad input: a policy that failed)
                    text = str(exc) if isinstance(exc, RunFailure) else f"{type(exc).__name__}: {exc}"
                    raise RunFailure(f"{text}; {self.stores[0].checkpoint.resume_hint(self.kept())}") from exc
                raise
            finally:
                self.executor.abandon([p[3] for p in self.pending], interrupted)
                self.bar.close()

    def kept(self) -> int:
        """Items the checkpoints hold."""
        return sum(s.kept() for s in self.stores)


def run_chunks(units: list[Unit], executor=None, progress: Progress = SILENT, label: str | None = None) -> None:
    """Play every unit's items in chunks on `executor` (default: all this process's threads),
    consuming the chunks in order; chunks a unit's checkpoint holds are consumed first and
    not played again. A signal raises interrupts.Interrupted at a safe point (with the
    checkpoint to resume from, if any); a failed chunk raises errors.RunFailure when a
    checkpoint keeps the work done. `progress` is told how far the pipeline is; `label`
    names it (default: the one variant's description, or `N variants`)."""
    Scheduler(units, executor or Threads(), progress, label).run()
