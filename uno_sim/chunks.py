"""The chunk runner shared by runs and matches: chunk sizes, a pipeline of chunks on the
worker threads, and the progress bar.

Games (or matches) are played in chunks by the engine on worker threads. Every game is
seeded from (run key, game index), so the numbers never depend on the chunk sizes chosen
here. The engine is compiled or loaded before the first chunk (warmup.py, not timed); a small
first chunk starts the threads, a second measures the rate, and later chunks aim at CHUNK_SECONDS each (bounded by `chunk_size`, which bounds memory).
IN_FLIGHT chunks are queued at once, so the workers never wait for the Python side
(aggregating, writing) nor for each other at the end of a chunk; results are consumed in
order.
"""

from __future__ import annotations

import os
import time
from collections import deque
from typing import Callable, Protocol

from . import interrupts

PROGRESS_MIN_SECONDS = 1.0  # show a progress bar only when the rest is expected to take longer
PLAIN_MIN_SECONDS = 3.0  # without a terminal: a line only for runs expected to take longer
PLAIN_QUARTER_SECONDS = 10.0  # and one per quarter for runs this long
WARMUP_CHUNK = 2048
PROBE_CHUNK = 8192
CHUNK_SECONDS = 0.5
IN_FLIGHT = 2


def available_threads() -> int:
    """Cores this process may run on: the most worker threads worth starting."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class Job(Protocol):
    def result(self): ...


class Chunker:
    """Chunk sizes for a run: warm-up, probe, then about CHUNK_SECONDS each. `take` plans the
    next chunk, `record` notes one played (chunks may be planned before earlier ones finish)."""

    def __init__(self, total: int, chunk_size: int) -> None:
        self.total = total
        self.chunk_size = chunk_size
        self.planned = 0  # items handed out by take()
        self.done = 0  # items recorded as played
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
        self.done += n
        self.recorded += 1

    def seconds_left(self) -> float | None:
        if self.rate is None:
            return None
        return (self.total - self.done) / self.rate


class Progress:
    """How far a run is, on stderr: on a terminal a rich progress bar, started once the rest
    of the run is expected to take more than PROGRESS_MIN_SECONDS and advanced once per
    chunk; otherwise (a pipe or a file) plain lines: one when a run expected to take more than
    PLAIN_MIN_SECONDS starts and, for one of more than PLAIN_QUARTER_SECONDS, one a quarter."""

    def __init__(self, total: int, enabled: bool, description: str, unit: str = "games") -> None:
        self.total = total
        self.description = description
        self.unit = unit
        self.bar = None
        self.task = None
        self.enabled = enabled
        self.terminal = False
        self.plain_started = False
        self.quarters = 0  # quarters reported in plain lines
        if enabled:
            from .progress import stderr_console

            self.console = stderr_console()
            self.terminal = self.console.is_terminal

    def update(self, done: int, seconds_left: float | None) -> None:
        if not self.enabled:
            return
        if not self.terminal:
            self._plain(done, seconds_left)
            return
        if self.bar is None:
            if seconds_left is None or seconds_left < PROGRESS_MIN_SECONDS:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress as Bar,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Bar(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.description, total=self.total)
        self.bar.update(self.task, completed=done)

    def _plain(self, done: int, seconds_left: float | None) -> None:
        from .progress import plain_line

        if not self.plain_started:
            if seconds_left is None or seconds_left < PLAIN_MIN_SECONDS:
                return
            self.plain_started = True
            self.quarters = 4 * done // self.total if seconds_left >= PLAIN_QUARTER_SECONDS else 4
            plain_line(f"{self.description}: {self.total:,} {self.unit}, about {seconds_left:,.0f} s to go")
            return
        quarter = 4 * done // self.total
        if quarter > self.quarters and quarter < 4:
            self.quarters = quarter
            plain_line(f"{self.description}: {25 * quarter}% ({done:,} of {self.total:,} {self.unit})")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def run_chunks(
    total: int,
    chunk_size: int,
    start: Callable[[int, int], Job],
    consume: Callable[[int, int, object], None],
    progress: bool = True,
    description: str = "simulating",
) -> None:
    """Play items 0..total-1 in chunks: `start(first, n)` queues a chunk on the workers and
    returns a job whose `result()` waits for it; `consume(first, n, result)` is called for
    each chunk in order while the next ones play."""
    chunks = Chunker(total, chunk_size)
    unit = "matches" if description == "matches" else "games"
    bar = Progress(total, progress, description, unit)
    pending: deque = deque()
    what = f"games of {description}" if description != "matches" else "matches"

    def start_next() -> None:
        first, n = chunks.take()
        if n > 0:
            pending.append((first, n, start(first, n)))

    with interrupts.guarded():
        try:
            _play(chunks, bar, pending, start_next, consume, what)
        finally:
            for _, _, job in pending:  # an error or a signal: let the queued chunks finish (or stop)
                job.result()
            bar.close()


def _play(chunks: Chunker, bar: Progress, pending: deque, start_next, consume, what: str) -> None:
    t0 = time.perf_counter()
    for _ in range(IN_FLIGHT):
        start_next()
    while pending:
        first, n, job = pending.popleft()
        result = job.result()
        interrupts.check(chunks.done, chunks.total, what)  # a signal stopped the kernels: rows are partial
        now = time.perf_counter()
        chunks.record(n, now - t0)  # from the previous chunk's end: this chunk's share of time
        t0 = now
        start_next()
        consume(first, n, result)
        bar.update(chunks.done, chunks.seconds_left())
