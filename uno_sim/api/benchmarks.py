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

from .common import InputError, check_count


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
    writable (in a folder that exists: it is not created), and a benchmarks.json there must
    be one (its figures are the baseline)."""
    from ..output.files import check_out_file
    from ..running.bench import check_baseline

    check_count("--games", games)
    check_count("--repeats", repeats, maximum=100)
    plan = BenchPlan(games, repeats, write)
    if write is not None:  # checked before the benchmark runs
        check_out_file(write, "--write", make_folder=False)
        check_out_file(plan.json_path, "--write", make_folder=False)
        check_baseline(plan.json_path)
    return plan


@dataclass
class PairedBenchPlan:
    """A checked paired benchmark (`uno-sim bench --vs COMMIT`): `run(note)`, then `write(rows)`.
    The builds are made (the baseline extracted) by `prepare_paired_bench`."""

    baseline: Any  # running.bench_pairs.Build
    current: Any
    cases: list[Any]  # running.bench_pairs.Case
    pairs: int
    games: int
    write_path: Path | None = None
    info: dict | None = None

    def run(self, note=lambda _: None) -> list[Any]:
        """The pairs of every case (running.bench_pairs.PairRow); the load before and after noted."""
        import os

        from ..running.bench import machine
        from ..running.bench_pairs import run_pairs

        load = lambda: " ".join(f"{x:.2f}" for x in os.getloadavg())  # noqa: E731
        self.info = machine() | {"pairs": self.pairs, "games": self.games, "load_before": load()}
        rows = run_pairs(self.cases, self.baseline, self.current, self.pairs, self.games, note=note)
        self.info["load_after"] = load()
        return rows

    def write(self, rows: list[Any]) -> None:
        """The paired table in the Markdown file (its section replaced, the rest kept)."""
        from ..running.bench_pairs import markdown_section, write_section

        write_section(self.write_path, markdown_section(rows, self.baseline, self.current, self.info))


def _bench_cases() -> dict[str, Any]:
    """The cases of `uno-sim bench` (running.bench_pairs.Case) by key."""
    from ..running.bench import CASES, EXPERT_CASE
    from ..running.bench_pairs import Case

    cases = [Case(p, n, b, w) for p, n, b, w, _ in [*CASES, EXPERT_CASE]]
    return {case.key: case for case in cases}


def bench_case_keys() -> list[str]:
    """The cases of `uno-sim bench` by key (preset/players p/bots/threads w)."""
    return list(_bench_cases())


def prepare_paired_bench(commit: str, pairs: int = 4, games: int = 1_000_000, cases: list[str] | None = None,
                         write: Path | None = None, note=lambda _: None) -> PairedBenchPlan:
    """This tree against `commit` (a git revision of the checkout it runs from): checks the
    counts, the cases (keys of `bench_case_keys()`; all of them by default) and the file to
    write, then makes the baseline's tree under .bench/ (or reuses it)."""
    from ..output.files import check_out_file
    from ..running.bench_pairs import baseline_build, check_pairs, current_build, resolve_commit, tree_root

    check_pairs(pairs)
    check_count("--games", games)
    known = _bench_cases()
    chosen = list(dict.fromkeys(cases)) if cases else list(known)
    for key in chosen:
        if key not in known:
            raise InputError(f"--case: {key!r} is not a bench case; the cases: {', '.join(known)}")
    if write is not None:
        check_out_file(write, "--write", make_folder=False)
    root = tree_root()
    full = resolve_commit(root, commit)
    return PairedBenchPlan(baseline_build(root, full, note), current_build(root), [known[k] for k in chosen],
                           pairs, games, write)
