"""The benchmark behind `uno-sim bench` (and `make bench`): games per second for a fixed set of
presets, player counts and thread counts, beside the previous figures (benchmarks.json) and
the targets; uno_sim.running.bench plays and times them. `prepare_bench` checks everything
first (counts, the files to write, the baseline there), so that nothing is played for a run
that could not be written; the plan then plays in steps, so that a caller can show each table
as soon as it is ready."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import check_count


@dataclass
class BenchPlan:
    """A checked benchmark: `run_cases()`, then `run_timings()`, then `write(...)` with `machine()`."""

    games: int
    repeats: int
    write_path: Path | None = None  # a Markdown file; benchmarks.json goes beside it

    @property
    def json_path(self) -> Path | None:
        """benchmarks.json beside the Markdown file: the baseline read, and the figures written."""
        return self.write_path.with_name("benchmarks.json") if self.write_path is not None else None

    def run_cases(self) -> list[Any]:
        """Games per second of every case (running.bench.BenchRow), the median of `repeats` runs."""
        from ..running.bench import run_benchmarks

        return run_benchmarks(self.games, self.repeats, self.json_path, expert=True)

    def run_timings(self, cold: bool = True) -> list[Any]:
        """The kernel alone, start-up, describe-only commands and (`cold`) a cold compile
        (running.bench.TimingRow)."""
        from ..running.bench import run_timings

        return run_timings(self.games, self.repeats, self.json_path, cold=cold)

    def machine(self) -> dict:
        """The CPU, its cores and the versions that the figures depend on."""
        from ..running.bench import machine

        return machine()

    def write(self, rows: list[Any], info: dict, timings: list[Any] = ()) -> None:
        """The Markdown file, benchmarks.json beside it (and README.md's table there)."""
        from ..running.bench import write_results

        write_results(rows, info, self.repeats, self.write_path, self.json_path, timings)


def prepare_bench(games: int = 1_000_000, repeats: int = 3, write: Path | None = None) -> BenchPlan:
    """A checked benchmark; with `write`, that file and benchmarks.json beside it must be
    writable, and a benchmarks.json there must be one (its figures are the baseline)."""
    from ..output.files import check_out_file
    from ..running.bench import check_baseline

    check_count("--games", games)
    check_count("--repeats", repeats, maximum=100)
    plan = BenchPlan(games, repeats, write)
    if write is not None:  # checked before the benchmark runs
        check_out_file(write, "--write")
        check_out_file(plan.json_path, "--write")
        check_baseline(plan.json_path)
    return plan
