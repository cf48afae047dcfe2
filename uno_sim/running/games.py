"""Python orchestration of a run: the games as chunk work, streaming aggregation, per-game files.

Games are played in chunks (chunks.run_chunks) by `engine.batch.start_chunk`, on this
process's worker threads or on a Dask cluster (uno_sim.running.cluster). Each game is seeded from
(run key, game index), so the numbers do not depend on the chunk size, the thread count or
the machine. Only counters and histograms are kept (`stats.Aggregate`); with
`per_game_path` the per-game CSV is streamed chunk by chunk as well.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from concurrent.futures import Future
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import stats
from ..game.bots import Bot, pack_bots
from ..game.decks import CLASSIC, Deck
from .chunks import Threads, Unit, check_seats, run_chunks
from .progress import SILENT, Progress, ProgressLike, as_progress
from .records import records_frame
from ..game.rules import Rules
from .warmup import Startup

if TYPE_CHECKING:  # pandas where per-game rows are kept: a run loads it for its output, after playing
    import pandas as pd


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
    where: str = ""  # what played the games: "2 thread(s)", a Dask cluster
    resumed: int = 0  # games taken from a checkpoint rather than played
    startup: Startup = field(default_factory=Startup)  # starting the engine first (not in `seconds`)
    confidence: float = stats.CONFIDENCE  # of every interval (higher for a precision run's looks)

    @property
    def bot_labels(self) -> list[str]:
        return [bot.label for bot in self.bots]

    def summary(self, variant: str) -> pd.DataFrame:
        return stats.summarize(self.aggregate, variant, self.bot_labels, teams=self.rules.teams,
                               confidence=self.confidence, two_sided=self.rules.cards.two_sided)

    def measures(self) -> list[stats.Measure]:
        return stats.measures(self.aggregate, self.bot_labels, teams=self.rules.teams, confidence=self.confidence,
                              two_sided=self.rules.cards.two_sided)

    def distributions(self, variant: str) -> pd.DataFrame:
        return stats.distributions_frame(self.aggregate, variant)

    @property
    def games_per_second(self) -> float:
        """Games played (not taken from a checkpoint) per second of the run."""
        played = self.games - self.resumed
        return played / self.seconds if self.seconds > 0 and played else float("nan")


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


@dataclass
class GameWork:
    """The games of one run as chunk work (chunks.Work): small and picklable, so that a
    cluster can ship it to its workers."""

    packed: np.ndarray
    codes: np.ndarray
    params: np.ndarray
    key: int
    rotate: bool
    players: int
    teams: int
    deck: Deck = CLASSIC  # the deck played (Rules.cards)
    python: tuple = ()  # with a `python:...` bot slot: (rules, bots), the games played by env/games.py

    what = "games"
    cap = 65536  # rows held at once: 65,536 games x 38 columns x 8 bytes = 20 MB
    fixed_min = 16384
    fixed_max = 262144

    def start(self, first: int, n: int, threads: int, stop=None):
        if self.python:
            return PythonChunk(lambda stopped: self.python_games().records(first, n, stopped), stop)
        from ..engine.batch import start_chunk

        return start_chunk(self.packed, self.codes, self.params, self.key, first, n, rotate=self.rotate,
                           workers=threads, stop=stop, deck=self.deck)

    def python_games(self):
        """The tables with Python seats (env/games.py), made once (on the policy thread, by the
        first chunk): the policies load once a run."""
        from ..env.games import PythonGames

        if getattr(self, "_games", None) is None:
            rules, bots = self.python
            self._games = PythonGames(rules, bots, self.key, self.rotate)
        return self._games

    def empty(self) -> stats.Aggregate:
        return stats.Aggregate(players=self.players, teams=self.teams, rotate=self.rotate)

    def reduce(self, rows) -> stats.Aggregate:
        agg = self.empty()
        agg.add(rows)
        return agg


class PythonChunk:
    """A chunk of games (or matches) with Python seats, played by `play(stopped)` on the policy
    thread (`_PolicyThread`) after every chunk submitted before it, so that the policies are
    called in the same order as by a single thread (a Python policy holds the interpreter, so
    more threads would not help, and a policy's own state stays in order); `job` looks like
    the engine's chunk jobs (engine/threads.py: a Job of futures), so the scheduler treats both
    alike. `stopped()`, which `play` asks before every decision, turns true once a signal set
    the engine's stop flag (or `stop`) or the chunk is abandoned."""

    GRACE = 0.2  # seconds an abandoned chunk is waited for before its thread is left to itself

    def __init__(self, play, stop=None) -> None:
        from ..engine.threads import STOP, Job

        flag = STOP if stop is None else stop
        self.halted = False
        self.stopped = lambda: self.halted or flag[0] != 0
        self.play = play
        self.future: Future = Future()
        self.job = Job([self.future])
        self.thread = _policy_thread()
        self.thread.submit(self)

    def run(self) -> None:
        """Play the chunk (on the policy thread), unless it was abandoned before it began."""
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            rows = self.play(self.stopped)
        except BaseException as exc:  # (the policy's own failures are PolicyErrors by now)
            self.future.set_exception(exc)
        else:
            self.future.set_result(rows)

    def result(self) -> np.ndarray:
        return self.future.result()

    def abandon(self) -> None:
        """An error or a signal: the chunk stops at its next decision, or never begins. A
        policy that does not return within GRACE seconds (asleep, stuck) is not waited for:
        its thread (a daemon, gone with the process) is retired and later chunks get a new one."""
        self.halted = True
        self.future.cancel()
        wait_futures([self.future], timeout=self.GRACE)
        if not self.future.done():
            self.thread.retire()


class _PolicyThread:
    """The daemon thread that plays Python chunks one after another, in the order submitted.
    While a chunk plays, sys.stdout is a `_Routed` stream: what the policies print goes to
    standard error, so that the command's own output (a table, --json) stays whole."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="uno-sim-policies", daemon=True)
        self.thread.start()

    def submit(self, chunk: PythonChunk) -> None:
        self.queue.put(chunk)

    def _serve(self) -> None:
        while (chunk := self.queue.get()) is not None:
            routed = _Routed(sys.stdout, self.thread)
            sys.stdout = routed
            try:
                chunk.run()
            finally:
                routed.restore()

    def retire(self) -> None:
        """Stuck in a policy: no more chunks for this thread (it ends if the policy returns)."""
        global _policies
        self.queue.put(None)
        if _policies is self:
            _policies = None
        if isinstance(sys.stdout, _Routed) and sys.stdout.thread is self.thread:
            sys.stdout.restore()


class _Routed:
    """sys.stdout while a Python chunk plays: `thread`'s writes go to standard error, every
    other thread's to the standard output it replaced."""

    def __init__(self, stdout, thread: threading.Thread) -> None:
        self.stdout, self.thread = stdout, thread

    def _target(self):
        return sys.stderr if threading.current_thread() is self.thread else self.stdout

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def __getattr__(self, name: str):
        return getattr(self._target(), name)

    def restore(self) -> None:
        if sys.stdout is self:
            sys.stdout = self.stdout


_policies: _PolicyThread | None = None


def _policy_thread() -> _PolicyThread:
    global _policies
    if _policies is None:
        _policies = _PolicyThread()
    return _policies


# What played games (or matches) with a Python seat, for the timing line: one thread, whatever
# --workers says (PythonChunk).
PYTHON_WHERE = "one thread (a Python seat plays in this process)"


def python_part(rules: Rules, bots: list[Bot]) -> tuple:
    """GameWork.python for these bots: (rules, bots) when a slot is `python:...`, else ()."""
    return (rules, tuple(bots)) if any(b.python for b in bots) else ()


def game_work(rules: Rules, bots: list[Bot], seed: int, rotate_seats: bool = False) -> GameWork:
    from ..engine.keys import run_key

    codes, params = pack_bots(bots)
    return GameWork(rules.pack(), codes, params, run_key(seed), bool(rotate_seats), rules.players, rules.teams,
                    rules.cards, python_part(rules, bots))


class GameRun:
    """One run's games in progress: the unit to play (`unit()`), the aggregate and the
    per-game files it streams; `result()` once played. `beside`: games played beside another
    run (its skill games), not a variant of their own; `start`: the index of its first game
    (games start .. start+games-1, the later looks of a precision run)."""

    def __init__(self, rules: Rules, bots: list[Bot], games: int, seed: int, *, chunk_size: int = 65536,
                 per_game_path=None, parquet_path=None, description: str = "simulating", rotate_seats: bool = False,
                 keep_games: bool = False, store=None, beside: bool = False, start: int = 0) -> None:
        check_seats(rules, bots, "games", games, chunk_size)
        self.rules, self.bots, self.games, self.seed = rules, list(bots), games, seed
        self.rotate_seats = rotate_seats
        self.per_game_path, self.parquet_path, self.keep_games = per_game_path, parquet_path, keep_games
        self.work = game_work(rules, bots, seed, rotate_seats)
        self.agg = self.work.empty()
        self.kept: list[pd.DataFrame] = []
        self.out = None
        self.parquet = None
        self._unit = Unit(self.work, games, self.consume, description, chunk_size, store, beside, start=start)

    @property
    def needs_rows(self) -> bool:
        return self.per_game_path is not None or self.parquet_path is not None or self.keep_games

    def unit(self) -> Unit:
        return self._unit

    def consume(self, first: int, n: int, partial: stats.Aggregate, records) -> None:
        self.agg.merge(partial)
        if not self.needs_rows:
            return
        if records is None:
            raise RuntimeError("per-game rows asked for, but the chunk's rows were not kept")
        frame = records_frame(records, self.rules.players, first, self.rules.cards.two_sided)
        if self.out is not None:
            frame.to_csv(self.out, header=first == 0, index=False, lineterminator="\n")
        if self.parquet is not None:
            self.parquet.write(frame)
        if self.keep_games:
            self.kept.append(frame)

    def open(self) -> None:
        if self.per_game_path is not None:
            self.out = open(self.per_game_path, "w", encoding="utf-8", newline="")
        if self.parquet_path is not None:
            self.parquet = _ParquetStream(self.parquet_path)

    def close(self) -> None:
        if self.out is not None:
            self.out.close()
            self.out = None
        if self.parquet is not None:
            self.parquet.close()
            self.parquet = None

    def result(self, workers: int, where: str) -> RunResult:
        kept = None
        if self.keep_games:
            import pandas as pd

            kept = pd.concat(self.kept, ignore_index=True)
        return RunResult(
            rules=self.rules,
            bots=self.bots,
            games=self.games,
            seed=self.seed,
            workers=workers,
            aggregate=self.agg,
            seconds=self._unit.seconds,
            per_game_path=Path(self.per_game_path) if self.per_game_path is not None else None,
            rotate_seats=self.rotate_seats,
            games_frame=kept,
            where=PYTHON_WHERE if python_part(self.rules, self.bots) else where,
            resumed=self._unit.restored,
        )


def warm_up_for(executor, works, progress: Progress = SILENT):
    """Start (compile or load) the kernels that play `works` (GameWork): the games kernel, or
    the search bot's, or both; untimed, so that games per second count games only."""
    from .warmup import Startup, kernel_kind

    startup = Startup()
    for kind in dict.fromkeys(kernel_kind(work.codes, work.deck) for work in works):
        startup += executor.warm_up(kind, progress)
    return startup


def play_runs(runs: list[GameRun], executor=None, progress: Progress = SILENT, units: list[Unit] | None = None,
              settle=None) -> list[RunResult]:
    """Play several runs through one pipeline (a comparison's variants, a sweep's points,
    the skill games beside them); `progress` is told how far it is. `units`: what plays
    them, if not each run's own unit (running/paired.py), and `settle()` called once they
    are played, before the results are taken."""
    executor = executor or Threads()
    startup = warm_up_for(executor, [run.work for run in runs], progress)  # before the clock starts
    try:
        for run in runs:
            run.open()
        run_chunks(units if units is not None else [r.unit() for r in runs], executor, progress)
    finally:
        for run in runs:
            run.close()
    if settle is not None:
        settle()
    results = [r.result(getattr(executor, "workers", 0), executor.where) for r in runs]
    results[0].startup = startup  # (spent once, before the first)
    return results


def simulate(
    rules: Rules,
    bots: list[Bot],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    chunk_size: int = 65536,
    progress: ProgressLike = None,
    per_game_path: str | os.PathLike | None = None,
    description: str = "simulating",
    parquet_path: str | os.PathLike | None = None,
    rotate_seats: bool = False,
    keep_games: bool = False,
    executor=None,
) -> RunResult:
    """Play `games` games and aggregate them; optionally stream the per-game CSV and/or
    Parquet file (the per-game columns; Parquet needs pyarrow, the `parquet` extra).

    `workers`: threads playing games (default: all available; more than available is capped).
    `progress`: told how far the games are (running/progress.py; True: on standard error).
    `executor`: where to play instead of this process's threads (a cluster.DaskExecutor).
    `per_game_path` / `parquet_path` are written directly; callers wanting atomicity pass
    temporary paths.
    `keep_games`: also keep the per-game rows in memory (`RunResult.games_frame`).
    `seconds` times the games only: the engine's start-up (warmup.warm_up, compiling or
    loading it, here or on a cluster's workers) comes before and is `startup`.
    `rotate_seats`: game i is deal i // players played with the bots rotated by i % players
    (bot slot b in seat (b + i) % players); per-bot win rates follow the bots, not the seats.
    """
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1 (got {workers})")
    run = GameRun(rules, bots, games, seed, chunk_size=chunk_size, per_game_path=per_game_path,
                  parquet_path=parquet_path, description=description, rotate_seats=rotate_seats,
                  keep_games=keep_games)
    return play_runs([run], executor or Threads(workers), as_progress(progress))[0]
