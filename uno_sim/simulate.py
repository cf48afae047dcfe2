"""Python orchestration of a run: chunks, threads, progress bar, streaming aggregation.

Games are played in chunks (chunks.run_chunks) by `engine.batch.start_chunk` on `workers`
threads. Each game is seeded from (run key, game index), so the numbers do not depend on the
chunk size or the thread count. Only counters and histograms are kept (`stats.Aggregate`); with
`per_game_path` the per-game CSV is streamed chunk by chunk as well.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import stats
from .bots import Bot, pack_bots
from .chunks import available_threads, run_chunks
from .records import records_frame
from .rules import Rules
from .warmup import Startup

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
    games_frame: pd.DataFrame | None = None  # per-game rows, when kept
    startup: Startup = field(default_factory=Startup)  # starting the engine first (not in `seconds`)

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
    keep_games: bool = False,
) -> RunResult:
    """Play `games` games and aggregate them; optionally stream the per-game CSV and/or
    Parquet file (the per-game columns; Parquet needs pyarrow, the `parquet` extra).

    `workers`: threads playing games (default: all available; more than available is capped).
    `per_game_path` / `parquet_path` are written directly; callers wanting atomicity pass
    temporary paths.
    `keep_games`: also keep the per-game rows in memory (`RunResult.games_frame`).
    `seconds` times the games only: the engine's start-up (warmup.warm_up, compiling or
    loading it) comes before and is `startup`.
    `rotate_seats`: game i is deal i // players played with the bots rotated by i % players
    (bot slot b in seat (b + i) % players); per-bot win rates follow the bots, not the seats.
    """
    from .warmup import warm_up

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
    startup = warm_up("games", progress=progress)  # before the clock starts: games/s count games only
    from .engine.batch import run_key, start_chunk

    packed = rules.pack()
    codes, params = pack_bots(bots)
    key = run_key(seed)
    agg = stats.Aggregate(players=rules.players, teams=rules.teams, rotate=rotate_seats)
    out = None
    parquet = None
    kept: list[pd.DataFrame] = []
    began = time.perf_counter()

    def start(first: int, n: int):
        return start_chunk(packed, codes, params, key, first, n, rotate=rotate_seats, workers=workers)

    def consume(first: int, n: int, records) -> None:
        agg.add(records)
        if out is not None:
            records_frame(records, rules.players, first).to_csv(out, header=first == 0, index=False, lineterminator="\n")
        if parquet is not None:
            parquet.write(records_frame(records, rules.players, first))
        if keep_games:
            kept.append(records_frame(records, rules.players, first))

    try:
        if per_game_path is not None:
            out = open(per_game_path, "w", encoding="utf-8", newline="")
        if parquet_path is not None:
            parquet = _ParquetStream(parquet_path)
        run_chunks(games, chunk_size, start, consume, progress, description)
    finally:
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
        games_frame=pd.concat(kept, ignore_index=True) if keep_games else None,
        startup=startup,
    )

