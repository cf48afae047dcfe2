"""Python orchestration of a run: chunks, threads, progress bar, streaming aggregation.

Games are played in chunks by `engine.batch.run_chunk` (on `workers` threads). Each game is
seeded from (run key, game index), so the numbers do not depend on the chunk size or the
thread count. Only counters and histograms are kept (`stats.Aggregate`); with
`per_game_path` the SPEC 6 per-game CSV is streamed chunk by chunk as well.
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import stats
from .bots import Bot, pack_bots
from .records import records_frame
from .rules import Rules

# Show a progress bar only when the run is expected to take longer than this.
PROGRESS_MIN_SECONDS = 1.0
# Chunk sizes: a small first chunk absorbs the compile / cache load, a second measures the
# rate; later chunks aim at CHUNK_SECONDS each (bounded by chunk_size, which bounds memory).
# Results do not depend on the chunk sizes.
WARMUP_CHUNK = 2048
PROBE_CHUNK = 8192
CHUNK_SECONDS = 0.5
IN_FLIGHT = 2  # chunks queued on the workers at once


def available_threads() -> int:
    """Cores this process may run on: the most worker threads worth starting."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@dataclass
class RunResult:
    rules: Rules
    bots: list[Bot]
    games: int
    seed: int
    workers: int
    aggregate: stats.Aggregate
    seconds: float
    per_game_path: Path | None = None
    rotate_seats: bool = False

    @property
    def bot_labels(self) -> list[str]:
        return [bot.label for bot in self.bots]

    def summary(self, variant: str) -> pd.DataFrame:
        return stats.summarize(self.aggregate, variant, self.bot_labels, teams=self.rules.teams)

    def measures(self) -> list[stats.Measure]:
        return stats.measures(self.aggregate, self.bot_labels, teams=self.rules.teams)

    def distributions(self, variant: str) -> pd.DataFrame:
        return stats.distributions_frame(self.aggregate, variant)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")


class _Chunker:
    """Chunk sizes for a run: warm-up, probe, then about CHUNK_SECONDS each. `take` plans the
    next chunk, `record` notes one played (chunks may be planned before earlier ones finish)."""

    def __init__(self, games: int, chunk_size: int) -> None:
        self.games = games
        self.chunk_size = chunk_size
        self.planned = 0  # games handed out by take()
        self.done = 0  # games recorded as played
        self.taken = 0
        self.recorded = 0
        self.rate: float | None = None  # games per second, measured after the warm-up

    def take(self) -> tuple[int, int]:
        """(first game, size) of the next chunk; size 0 once every game is planned."""
        if self.taken == 0:
            size = WARMUP_CHUNK
        elif self.rate is None:
            size = PROBE_CHUNK
        else:
            size = max(PROBE_CHUNK, int(self.rate * CHUNK_SECONDS))
        start = self.planned
        size = min(size, self.chunk_size, self.games - start)
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
        return (self.games - self.done) / self.rate


class _Progress:
    """A rich progress bar (on stderr, only on a terminal), started once the rest of the run
    is expected to take more than PROGRESS_MIN_SECONDS; advanced once per chunk."""

    def __init__(self, games: int, enabled: bool, description: str) -> None:
        self.games = games
        self.description = description
        self.bar = None
        self.task = None
        self.enabled = False
        if enabled:
            from rich.console import Console

            self.console = Console(stderr=True)
            self.enabled = self.console.is_terminal

    def update(self, done: int, seconds_left: float | None) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            if seconds_left is None or seconds_left < PROGRESS_MIN_SECONDS:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.description, total=self.games)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


class _ParquetStream:
    """Per-game rows appended chunk by chunk to one Parquet file (one row group a chunk)."""

    def __init__(self, path: str | os.PathLike) -> None:
        import pyarrow.parquet as pq

        self._pq = pq
        self.path = path
        self.writer = None

    def write(self, frame: pd.DataFrame) -> None:
        import pyarrow as pa

        table = pa.Table.from_pandas(frame, preserve_index=False)
        if self.writer is None:
            self.writer = self._pq.ParquetWriter(self.path, table.schema)
        self.writer.write_table(table)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


def parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def simulate(
    rules: Rules,
    bots: list[Bot],
    games: int,
    seed: int,
    workers: int | None = None,
    chunk_size: int = 65536,
    progress: bool = True,
    per_game_path: str | os.PathLike | None = None,
    description: str = "simulating",
    parquet_path: str | os.PathLike | None = None,
    rotate_seats: bool = False,
) -> RunResult:
    """Play `games` games and aggregate them; optionally stream the per-game CSV and/or
    Parquet file (SPEC 6 columns; Parquet needs pyarrow, the `parquet` extra).

    `workers`: threads playing games (default: all available; more than available is capped).
    `per_game_path` / `parquet_path` are written directly; callers wanting atomicity pass
    temporary paths.
    `rotate_seats`: game i is deal i // players played with the bots rotated by i % players
    (bot slot b in seat (b + i) % players); per-bot win rates follow the bots, not the seats.
    """
    from .engine.batch import run_key, start_chunk

    if games < 1:
        raise ValueError(f"games must be at least 1 (got {games})")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1 (got {chunk_size})")
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots for {rules.players} players")
    limit = available_threads()
    if workers is None:
        workers = limit
    if workers < 1:
        raise ValueError(f"workers must be at least 1 (got {workers})")
    workers = min(workers, limit)

    packed = rules.pack()
    codes, params = pack_bots(bots)
    key = run_key(seed)
    agg = stats.Aggregate(players=rules.players, teams=rules.teams, rotate=rotate_seats)
    bar = _Progress(games, progress, description)
    out = None
    parquet = None
    pending: deque = deque()
    began = time.perf_counter()
    try:
        if per_game_path is not None:
            out = open(per_game_path, "w", encoding="utf-8", newline="")
        if parquet_path is not None:
            parquet = _ParquetStream(parquet_path)
        # Pipelined: IN_FLIGHT chunks are queued on the worker threads, so the workers never
        # wait, neither for the Python side (aggregating, writing) nor for each other at the
        # end of a chunk; the chunks are still aggregated in order.
        chunks = _Chunker(games, chunk_size)

        def start_next() -> None:
            start, n = chunks.take()
            if n > 0:
                job = start_chunk(packed, codes, params, key, start, n, rotate=rotate_seats, workers=workers)
                pending.append((start, n, job))

        t0 = time.perf_counter()
        for _ in range(IN_FLIGHT):
            start_next()
        while pending:
            start, n, job = pending.popleft()
            records = job.result()
            now = time.perf_counter()
            chunks.record(n, now - t0)  # from the previous chunk's end: this chunk's share of time
            t0 = now
            start_next()
            agg.add(records)
            if out is not None:
                records_frame(records, rules.players, start).to_csv(
                    out, header=start == 0, index=False, lineterminator="\n"
                )
            if parquet is not None:
                parquet.write(records_frame(records, rules.players, start))
            bar.update(chunks.done, chunks.seconds_left())
    finally:
        for _, _, job in pending:  # an error while aggregating: let the queued chunks finish
            job.result()
        bar.close()
        if out is not None:
            out.close()
        if parquet is not None:
            parquet.close()
    seconds = time.perf_counter() - began
    return RunResult(
        rules=rules,
        bots=list(bots),
        games=games,
        seed=seed,
        workers=workers,
        aggregate=agg,
        seconds=seconds,
        per_game_path=Path(per_game_path) if per_game_path is not None else None,
        rotate_seats=rotate_seats,
    )

