"""Throughput benchmark: games per second for a fixed set of presets, player counts and
thread counts, each the median of several whole runs (JIT cache warm), beside a baseline
(the previous run's figures, kept in benchmarks.json) and the issue's targets.
"""

from __future__ import annotations

import json
import platform
import statistics
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..game.bots import parse_bots
from ..game.presets import load as load_preset

# (preset, players, bots, workers, target games/s or None)
CASES = [
    ("standard", 4, "random", 1, 400_000),
    ("standard", 4, "random", 2, 700_000),
    ("standard", 2, "random", 2, None),
    ("standard", 7, "random", 2, None),
    ("standard", 10, "random", 2, None),
    ("stacking", 4, "random", 2, None),
    ("house", 4, "random", 2, 450_000),
    ("no-mercy", 4, "random", 2, 150_000),  # its games are about 80 turns long
]
EXPERT_CASE = ("standard", 4, "expert", 2, 400_000)


@dataclass
class TimingRow:
    """A whole-command or kernel figure: `value` in `unit` (s: lower is better)."""

    name: str
    value: float
    unit: str
    runs: list[float]
    target: float | None = None
    baseline: float | None = None

    @property
    def key(self) -> str:
        return self.name


@dataclass
class BenchRow:
    preset: str
    players: int
    bots: str
    workers: int
    games: int
    games_per_second: float
    runs: list[float]
    target: float | None = None
    baseline: float | None = None

    @property
    def key(self) -> str:
        return f"{self.preset}/{self.players}p/{self.bots}/{self.workers}w"


def run_case(preset: str, players: int, bots: str, workers: int, games: int, repeats: int) -> list[float]:
    from .games import simulate

    rules = load_preset(preset, players=players)
    seat_bots = parse_bots(bots, players)
    simulate(rules, seat_bots, 4096, seed=0, workers=workers)  # warm the JIT cache
    rates = []
    for repeat in range(repeats):
        result = simulate(rules, seat_bots, games, seed=repeat, workers=workers)
        rates.append(result.games_per_second)
    return rates


def check_baseline(path: Path | None) -> dict[str, float]:
    """The baseline figures by case key from a benchmarks.json ({} when there is none); a file
    that is not one is an OutputError naming it (checked before a benchmark runs)."""
    from ..output.files import OutputError

    if path is None or not path.is_file():
        return {}
    try:
        return {row["key"]: float(row["games_per_second"]) for row in json.loads(path.read_text())["rows"]}
    except (OSError, ValueError, KeyError, TypeError):
        raise OutputError(f"--write: {path} exists and is not a uno-sim benchmarks.json; move it away") from None


def run_benchmarks(games: int, repeats: int, baseline_path: Path | None, expert: bool = False) -> list[BenchRow]:
    baseline = check_baseline(baseline_path)
    cases = list(CASES)
    if expert:
        cases.append(EXPERT_CASE)
    rows = []
    for preset, players, bots, workers, target in cases:
        rates = run_case(preset, players, bots, workers, games, repeats)
        row = BenchRow(preset, players, bots, workers, games, statistics.median(rates), rates, target)
        row.baseline = baseline.get(row.key)
        rows.append(row)
    return rows


def kernel_rate(games: int, workers: int = 2) -> float:
    """Games per second inside the compiled loop only (standard rules, 4 random bots): the
    engine's chunks back to back, no aggregation, no Python per chunk beyond the call."""
    import time

    from ..game.bots import pack_bots
    from ..engine.batch import run_chunk, run_key

    rules = load_preset("standard")
    codes, params = pack_bots(parse_bots("random", 4))
    packed, key = rules.pack(), run_key(0)
    run_chunk(packed, codes, params, key, 0, 4096, workers=workers)  # warm
    t0 = time.perf_counter()
    run_chunk(packed, codes, params, key, 0, games, workers=workers)
    return games / (time.perf_counter() - t0)


def command_seconds(args: list[str], repeats: int, env: dict | None = None) -> list[float]:
    """Wall seconds of whole `uno-sim` commands (a fresh process each, output discarded)."""
    import os
    import subprocess
    import sys
    import tempfile
    import time

    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            full = [a.replace("{tmp}", tmp) for a in args]
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "uno_sim", *full], cwd=tmp, env={**os.environ, **(env or {})},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - t0)
    return times


def run_timings(games: int, repeats: int, baseline_path: Path | None, cold: bool = True) -> list[TimingRow]:
    """Kernel-only throughput, warm start, describe-only commands and (with `cold`) a cold compile."""
    import tempfile

    baseline = {}
    if baseline_path is not None and baseline_path.is_file():
        baseline = {t["key"]: t["value"] for t in json.loads(baseline_path.read_text()).get("timings", [])}
    rows = []
    kernel = [kernel_rate(games) for _ in range(repeats)]
    rows.append(TimingRow("kernel only: standard 4p, 2 threads", statistics.median(kernel), "games/s", kernel, 700_000))
    small = ["run", "standard", "--games", "1000", "--out", "{tmp}/o"]
    for name, args, target in [
        ("warm start: run standard --games 1000", small, 1.0),
        ("presets", ["presets"], 0.3),
        ("show standard", ["show", "standard"], 0.3),
        ("--help", ["--help"], 0.3),
    ]:
        runs = command_seconds(args, repeats)
        rows.append(TimingRow(name, statistics.median(runs), "s", runs, target))
    if cold:
        with tempfile.TemporaryDirectory() as cache:
            runs = command_seconds(small, 1, env={"NUMBA_CACHE_DIR": cache})
        rows.append(TimingRow("cold compile: run standard --games 1000", runs[0], "s", runs, 25.0))
    for row in rows:
        row.baseline = baseline.get(row.key)
    return rows


def machine() -> dict:
    import numba
    import numpy

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def markdown(rows: list[BenchRow], info: dict, repeats: int, timings: list[TimingRow] = ()) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"`make bench` ({info['date']}): {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
        f"numba {info['numba']}, numpy {info['numpy']}. Whole `simulate` runs with a warm JIT cache, "
        f"median of {repeats}; baseline = the previous `make bench` on record (benchmarks.json).",
        "",
        "| preset | players | bots | threads | games | games/s (median) | baseline | target |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        base = f"{r.baseline:,.0f}" if r.baseline else "-"
        target = f"{r.target:,.0f}" if r.target else "-"
        lines.append(
            f"| {r.preset} | {r.players} | {r.bots} | {r.workers} | {r.games:,} | {r.games_per_second:,.0f} | {base} | {target} |"
        )
    if timings:
        lines += ["", "| figure | value (median) | baseline | target |", "|---|---:|---:|---:|"]
        for t in timings:
            def fmt(x):
                return "-" if x is None else (f"{x:,.0f} games/s" if t.unit == "games/s" else f"{x:.2f} s")
            lines.append(f"| {t.name} | {fmt(t.value)} | {fmt(t.baseline)} | {fmt(t.target)} |")
    return "\n".join(lines) + "\n"


README_MARKERS = ("<!-- bench:start -->", "<!-- bench:end -->")


def write_results(rows: list[BenchRow], info: dict, repeats: int, md_path: Path, json_path: Path,
                  timings: list[TimingRow] = ()) -> None:
    """BENCHMARKS.md, benchmarks.json, and the table in README.md beside them (between the
    bench markers, when the README has them)."""
    text = markdown(rows, info, repeats, timings)
    md_path.write_text(text, encoding="utf-8")
    readme = md_path.with_name("README.md")
    if readme.is_file():
        body = readme.read_text(encoding="utf-8")
        start, end = README_MARKERS
        if start in body and end in body:
            head, rest = body.split(start, 1)
            _, tail = rest.split(end, 1)
            table = text.split("\n", 2)[2].strip()
            readme.write_text(f"{head}{start}\n{table}\n{end}{tail}", encoding="utf-8")
    data = {"machine": info, "rows": [asdict(r) | {"key": r.key} for r in rows],
            "timings": [asdict(t) | {"key": t.key} for t in timings]}
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
