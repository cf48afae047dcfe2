"""Paired benchmark (`uno-sim bench --vs COMMIT`): this tree against an earlier commit, on
the same machine in the same minutes.

Figures stored from an earlier `make bench` are not comparable with today's: the shared
machine's speed drifts 15-30 % between runs, so a 25 % loss reads as noise. Here both builds
play every case in turn, in fresh processes, pair after pair (the baseline first in pairs 1,
3, 5, ..., this tree first in pairs 2, 4, ..., so that a drift in the load favours neither),
and each pair gives one ratio current / baseline of the games per second (and one of the
games per CPU second). The per-row summary is the median and range of those ratios and a t
interval of their geometric mean (scipy): significant when the interval excludes 1.

The baseline is the commit's tree (`git archive`) under `.bench/<commit>/src`, made once and
reused; it shares the current build's numba cache folder, where compiled code is filed by the
engine's sources (a commit with another engine compiles its own once; one with the same engine
loads). Both builds run the same small script with the same interpreter, each with its own
PYTHONPATH; the script uses only
`uno_sim.api.prepare_run(preset, games=, players=, bots=, seed=, workers=).execute()` and the
result's `games_per_second`, which 7104022 and the commits after it offer (checked: 7104022
and d4c25b3; an older commit without that API gets every case reported as not played, with
the error). A case whose preset or bots a build does not know is reported as such.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..game.errors import InputError

CACHE_FOLDER = ".bench"  # under the current tree's root
MIN_PAIRS, MAX_PAIRS = 2, 50
WARM_GAMES = 4096
SECTION = ("<!-- bench-vs:start -->", "<!-- bench-vs:end -->")

# Run in each build's own process: one case, the run's figures as JSON on the last line.
RUNNER = """\
import json, sys, time
t0 = time.perf_counter()
from uno_sim import api
preset, players, bots, workers, games, seed = sys.argv[1:7]
plan = api.prepare_run(preset, games=int(games), players=int(players), bots=bots, seed=int(seed), workers=int(workers))
cpu = time.process_time()
result = plan.execute().result
cpu = time.process_time() - cpu
print(json.dumps({"games_per_second": result.games_per_second, "seconds": result.seconds, "cpu": cpu,
                  "process": time.perf_counter() - t0}))
"""


@dataclass(frozen=True)
class Build:
    """A tree of uno-sim to time: `root` holds its `uno_sim` package."""

    label: str
    root: Path
    numba_cache: Path

    def env(self) -> dict[str, str]:
        """Its own package and numba cache; bytecode written (by the warm-up), so that neither
        build's wall time includes compiling Python."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        return env | {"PYTHONPATH": str(self.root), "NUMBA_CACHE_DIR": str(self.numba_cache)}


@dataclass(frozen=True)
class Case:
    preset: str
    players: int
    bots: str
    workers: int

    @property
    def key(self) -> str:
        return f"{self.preset}/{self.players}p/{self.bots}/{self.workers}w"


@dataclass
class Sample:
    """One timed run of one build: games/s as the run reports it (the games only, start-up
    excluded), the wall seconds of the whole process, and the games per CPU second of the run
    (every thread's CPU time while it played: what other processes on a busy machine disturb
    least, since waiting for a core costs no CPU time)."""

    games_per_second: float
    wall: float
    games_per_cpu_second: float | None = None


@dataclass
class RatioSummary:
    ratios: list[float]
    median: float
    low: float  # smallest and largest ratio
    high: float
    geo_mean: float
    ci_low: float  # 95 % t interval of the geometric mean ratio
    ci_high: float
    p_value: float  # one-sample t test of the log ratios against 0
    faster: int  # pairs in which current was faster

    @property
    def significant(self) -> bool:
        return not (self.ci_low <= 1.0 <= self.ci_high)


@dataclass
class PairRow:
    """One case: (baseline, current) samples of every pair, or why it could not be played."""

    case: Case
    pairs: list[tuple[Sample, Sample]] = field(default_factory=list)
    error: str | None = None

    def ratios(self) -> list[float]:
        return [cur.games_per_second / base.games_per_second for base, cur in self.pairs]

    def cpu_ratios(self) -> list[float]:
        """Current / baseline games per CPU second (above 1: current does a game with less work)."""
        return [cur.games_per_cpu_second / base.games_per_cpu_second for base, cur in self.pairs
                if cur.games_per_cpu_second and base.games_per_cpu_second]

    def cpu_summary(self) -> RatioSummary | None:
        ratios = self.cpu_ratios()
        return summarize(ratios) if len(ratios) == len(self.pairs) and ratios else None

    def wall_ratios(self) -> list[float]:
        return [cur.wall / base.wall for base, cur in self.pairs]

    def wall_median(self) -> float:
        import statistics

        return statistics.median(self.wall_ratios())

    def summary(self) -> RatioSummary | None:
        return summarize(self.ratios()) if self.pairs else None


Runner = Callable[[Build, Case, int, int], Sample]  # (build, case, games, seed) -> Sample


def summarize(ratios: Sequence[float]) -> RatioSummary:
    """Median, range, and the t interval (95 %) and p-value of the geometric mean of paired ratios."""
    import statistics

    from scipy import stats

    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    if len(set(logs)) > 1:
        test = stats.ttest_1samp(logs, 0.0)
        ci = test.confidence_interval(0.95)
        lo, hi, p = math.exp(ci.low), math.exp(ci.high), float(test.pvalue)
    else:  # no spread: no interval to draw
        lo = hi = math.exp(mean)
        p = 1.0 if mean == 0 else 0.0
    return RatioSummary(list(ratios), statistics.median(ratios), min(ratios), max(ratios), math.exp(mean),
                        lo, hi, p, sum(r > 1 for r in ratios))


def check_pairs(pairs: int) -> None:
    if isinstance(pairs, bool) or not isinstance(pairs, int) or not MIN_PAIRS <= pairs <= MAX_PAIRS:
        raise InputError(f"--pairs must be a whole number from {MIN_PAIRS} to {MAX_PAIRS} (got {pairs!r})")


def pair_order(pairs: int) -> list[tuple[str, str]]:
    """Which build runs first in each pair: baseline first in even pairs, current in odd ones."""
    return [("baseline", "current") if i % 2 == 0 else ("current", "baseline") for i in range(pairs)]


# ---------------------------------------------------------------- the two builds
def tree_root() -> Path:
    """The folder holding the uno_sim package being run (a git checkout, for --vs)."""
    return Path(__file__).resolve().parent.parent.parent


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)


def resolve_commit(root: Path, commit: str) -> str:
    """The full hash of `commit` in the checkout at `root`; an InputError naming it when it is none."""
    if not commit or commit.startswith("-"):
        raise InputError(f"--vs: {commit!r} is not a commit")
    try:
        done = _git(root, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    except OSError:
        raise InputError("--vs needs git on the PATH") from None
    if done.returncode != 0:
        if _git(root, "rev-parse", "--git-dir").returncode != 0:
            raise InputError(f"--vs needs a git checkout of uno-sim; {root} is not one")
        raise InputError(f"--vs: {commit!r} is not a commit of the checkout at {root}")
    return done.stdout.strip()


def current_label(root: Path) -> str:
    """HEAD's short hash, with "+changes" when uno_sim/ differs from it."""
    head = _git(root, "rev-parse", "--short", "HEAD").stdout.strip() or "current"
    dirty = _git(root, "status", "--porcelain", "--", "uno_sim").stdout.strip()
    return head + ("+changes" if dirty else "")


def current_build(root: Path) -> Build:
    cache = os.environ.get("NUMBA_CACHE_DIR") or str(root / ".numba_cache")
    return Build(current_label(root), root, Path(cache))


def baseline_build(root: Path, commit: str, note: Callable[[str], None] = lambda _: None) -> Build:
    """The tree of `commit` (a full hash) under .bench/<commit>/src: extracted with `git archive`
    the first time (marked complete by a stamp file), reused afterwards."""
    folder = root / CACHE_FOLDER / commit
    src, stamp = folder / "src", folder / "complete"
    if not stamp.is_file():
        note(f"extracting {commit[:12]} into {src}")
        import shutil

        shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", commit], capture_output=True)
        if archive.returncode != 0:
            raise InputError(f"--vs: git archive {commit[:12]} failed: {archive.stderr.decode().strip()}")
        import io

        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(src, filter="data")
        if not (src / "uno_sim" / "__init__.py").is_file():
            raise InputError(f"--vs: commit {commit[:12]} has no uno_sim package")
        stamp.write_text(commit + "\n")
    # The same cache folder as the current build's: the engine's compiled code is filed by a hash
    # of its sources (engine/jit.py, engine/cache.py), so two builds of different engines never
    # share an entry, and a baseline with the current engine's sources loads it instead of
    # compiling again (older commits file theirs by their own path, apart as well).
    return Build(commit[:7], src, current_build(root).numba_cache)


class CaseFailed(RuntimeError):
    """A build could not play a case (the last line of its error output)."""


def failure_line(stderr: str, status: int) -> str:
    """The gist of a failed run for a table cell: the exception's message (its class name and
    any list in parentheses left off), or the exit status."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if not lines:
        return f"exit status {status}"
    last = lines[-1]
    head, sep, message = last.partition(": ")
    if sep and head.replace(".", "").replace("_", "").isalnum() and " " not in head:
        last = message
    return last.split(" (", 1)[0][:120].replace("|", "/")


def run_in_subprocess(build: Build, case: Case, games: int, seed: int) -> Sample:
    """One whole run of `case` by `build` in a fresh process (the RUNNER script)."""
    args = [sys.executable, "-P", "-c", RUNNER, case.preset, str(case.players), case.bots, str(case.workers),
            str(games), str(seed)]
    t0 = time.perf_counter()
    done = subprocess.run(args, cwd=build.root, env=build.env(), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise CaseFailed(failure_line(done.stderr, done.returncode))
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = figures.get("cpu")
    return Sample(float(figures["games_per_second"]), wall, games / cpu if cpu else None)


# ---------------------------------------------------------------- playing the pairs
def run_pairs(cases: Sequence[Case], baseline: Build, current: Build, pairs: int, games: int,
              runner: Runner = run_in_subprocess, note: Callable[[str], None] = lambda _: None) -> list[PairRow]:
    """Every case: both builds warmed (a small untimed run each, compiling when their caches are
    cold), then `pairs` pairs in the order of `pair_order`, pair i with seed i for both builds."""
    builds = {"baseline": baseline, "current": current}
    rows = []
    for case in cases:
        row = PairRow(case)
        rows.append(row)
        try:
            for name in ("baseline", "current"):
                note(f"{case.key}: warming {builds[name].label}")
                runner(builds[name], case, WARM_GAMES, 0)
        except CaseFailed as failed:
            row.error = f"{builds[name].label}: {failed}"
            note(f"{case.key}: skipped ({row.error})")
            continue
        for i, order in enumerate(pair_order(pairs)):
            try:
                got = {name: runner(builds[name], case, games, i) for name in order}
            except CaseFailed as failed:
                row.error, row.pairs = f"pair {i + 1}: {failed}", []
                note(f"{case.key}: stopped ({row.error})")
                break
            row.pairs.append((got["baseline"], got["current"]))
            base, cur = got["baseline"], got["current"]
            note(f"{case.key} pair {i + 1}/{pairs}: {cur.games_per_second / base.games_per_second:.3f}")
    return rows


# ---------------------------------------------------------------- the table
def _summary_cells(s: RatioSummary) -> str:
    return (f"{' '.join(f'{r:.3f}' for r in s.ratios)} | {s.median:.3f} | {s.low:.3f}-{s.high:.3f} | "
            f"{s.geo_mean:.3f} [{s.ci_low:.3f}, {s.ci_high:.3f}] | {s.p_value:.3g} | "
            f"{'yes' if s.significant else 'no'} | {s.faster} of {len(s.ratios)}")


def markdown_section(rows: Sequence[PairRow], baseline: Build, current: Build, info: dict) -> str:
    """The paired tables, between the SECTION markers (kept when the absolute table is rewritten):
    games per second, then games per CPU second."""
    import statistics

    start, end = SECTION
    ratio_head = "| case | ratio per pair | median | range | geo. mean [95 % CI] | p | significant | current faster |"
    lines = [
        start,
        f"## Paired: {current.label} against {baseline.label}",
        "",
        f"`uno-sim bench --vs {baseline.label} --pairs {info['pairs']} --games {info['games']:,}` "
        f"({info['date']}): {info['cpu']}, {info['cores']} cores, load average {info['load_before']} before, "
        f"{info['load_after']} after. Each pair plays the case once with the baseline commit's tree and once "
        "with this one, each a whole run in a fresh process (baseline first in odd-numbered pairs, current "
        "first in even ones; both builds warmed first, untimed). Ratio = current / baseline games per second "
        "as the run reports them (the games, start-up excluded): above 1 is faster. Interval: 95 % t interval "
        "of the geometric mean ratio; significant when it excludes 1. Wall = the whole process, "
        "current / baseline (below 1 is faster).",
        "",
        ratio_head + " wall ratio (median) | baseline games/s | current games/s |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    cpu_lines = []
    for row in rows:
        if row.error is not None:
            lines.append(f"| {row.case.key} | not played: {row.error} |  |  |  |  |  |  |  |  |  |")
            continue
        base = statistics.median(b.games_per_second for b, _ in row.pairs)
        cur = statistics.median(c.games_per_second for _, c in row.pairs)
        lines.append(f"| {row.case.key} | {_summary_cells(row.summary())} | {row.wall_median():.3f} | "
                     f"{base:,.0f} | {cur:,.0f} |")
        cpu = row.cpu_summary()
        if cpu is not None:
            cpu_lines.append(f"| {row.case.key} | {_summary_cells(cpu)} |")
    if cpu_lines:
        lines += ["", "Games per CPU second of the same runs (every thread's CPU time while the games played; "
                  "waiting for a core costs none, so other processes disturb it less than the games per "
                  "second above), current / baseline:", "", ratio_head, "|---|---|---:|---:|---:|---:|---|---:|",
                  *cpu_lines]
    lines.append(end)
    return "\n".join(lines) + "\n"


def split_section(text: str) -> tuple[str, str]:
    """(the text without the paired section, the section with its markers or "")."""
    start, end = SECTION
    if start not in text or end not in text:
        return text, ""
    head, rest = text.split(start, 1)
    section, tail = rest.split(end, 1)
    return head.rstrip("\n") + "\n" + tail.lstrip("\n"), f"{start}{section}{end}\n"


def write_section(path: Path, section: str) -> None:
    """Put the paired section in `path` in place of the one there, or after its text."""
    old = path.read_text(encoding="utf-8") if path.is_file() else "# Benchmarks\n"
    rest, _ = split_section(old)
    path.write_text(rest.rstrip("\n") + "\n\n" + section, encoding="utf-8")
