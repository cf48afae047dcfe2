"""Throughput benchmark: games per second for a fixed set of presets, player counts and
thread counts, each the median of several whole runs (JIT cache warm), beside a baseline
(the previous run's figures, kept in benchmarks.json) and the issue's targets.

Those stored figures come from another run on a machine whose speed drifts 15-30 % between
runs: they locate the order of magnitude, and are no evidence of a speed change. A change to
the engine shows its speed with the paired mode (running/bench_pairs.py, `bench --vs COMMIT`).
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
    ("flip", 4, "random", 2, None),  # two-sided cards (a baseline before them has no such preset)
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

    def text(self, x: float | None) -> str:
        """A value of this figure for a table: "-" when absent, seconds or a rate with its unit."""
        if x is None:
            return "-"
        return f"{x:.2f} s" if self.unit == "s" else f"{x:,.0f} {self.unit}"


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
    rows += env_rates(repeats)
    for row in rows:
        row.baseline = baseline.get(row.key)
    return rows


# ---------------------------------------------------------------- the Python environments
ENV_SECONDS = 3.0  # each timed stretch of the environments' games
ENV_PLAYERS = 2  # RLCard's uno env seats two players


def _per_second(play_game, seconds: float = ENV_SECONDS) -> tuple[float, float]:
    """(games/s, decisions/s) of `play_game()` (which returns its decisions) over `seconds`."""
    import time

    play_game()  # warm
    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += play_game()
        games += 1
    elapsed = time.perf_counter() - t0
    return games / elapsed, steps / elapsed


def _gym_game(seed: int):
    from ..env import RandomBot, gym_env

    env = gym_env("standard", ENV_PLAYERS, opponents="expert")
    env.reset(seed=0)
    policy = RandomBot(seed)

    def play() -> int:
        obs, info = env.reset()
        steps, done = 0, False
        while not done:
            obs, _, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
            steps += 1
            done = terminated or truncated
        return steps
    return play


def _aec_game(seed: int):
    from ..env import RandomBot, uno_env

    env = uno_env("standard", ENV_PLAYERS)
    env.reset(seed=0)
    policy = RandomBot(seed)

    def play() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(policy(obs["observation"], obs["action_mask"]))
            steps += 1
        return steps
    return play


def _rlcard_game(seed: int):
    import random

    import rlcard

    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(seed)

    def play() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps
    return play


def env_rates(repeats: int) -> list[TimingRow]:
    """Games and decisions per second of uno_sim.env's environments (standard, 2 players, the
    Python seats played by uno_sim.env.RandomBot, the random bot's choices) beside RLCard's
    `uno` environment (uniform over its legal actions, which offer drawing only when no card
    can be played, as the random bot draws) in the same run:
    the Gymnasium environment against compiled `expert` opponents, the PettingZoo AEC
    environment with every seat Python. Rows are left out when pettingzoo / gymnasium (the `rl`
    extra) or rlcard (installed only for this comparison) is missing; the targets (the AEC
    environment at least 2x RLCard's decisions per second, the Gymnasium environment at least
    5x its games per second) need RLCard's row."""
    import importlib.util

    def median(maker) -> tuple[float, float, list, list]:
        runs = [_per_second(maker(r)) for r in range(repeats)]
        games, steps = [g for g, _ in runs], [s for _, s in runs]
        return statistics.median(games), statistics.median(steps), games, steps

    have = {name: importlib.util.find_spec(name) is not None for name in ("gymnasium", "pettingzoo", "rlcard")}
    rows: list[TimingRow] = []
    rl = None
    if have["rlcard"]:
        rl = median(_rlcard_game)
        rows.append(TimingRow(f"RLCard uno env, {ENV_PLAYERS}p, random legal actions: games", rl[0], "games/s", rl[2]))
        rows.append(TimingRow(f"RLCard uno env, {ENV_PLAYERS}p, random legal actions: decisions", rl[1], "steps/s",
                              rl[3]))
    if have["gymnasium"]:
        gym = median(_gym_game)
        rows.append(TimingRow(f"gym_env standard {ENV_PLAYERS}p vs expert, random bot: games", gym[0],
                              "games/s", gym[2], 5 * rl[0] if rl else None))
        rows.append(TimingRow(f"gym_env standard {ENV_PLAYERS}p vs expert, random bot: decisions", gym[1],
                              "steps/s", gym[3]))
    if have["gymnasium"] and have["pettingzoo"]:
        aec = median(_aec_game)
        rows.append(TimingRow(f"uno_env (AEC) standard {ENV_PLAYERS}p, random bot: games", aec[0],
                              "games/s", aec[2]))
        rows.append(TimingRow(f"uno_env (AEC) standard {ENV_PLAYERS}p, random bot: decisions", aec[1],
                              "steps/s", aec[3], 2 * rl[1] if rl else None))
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
        f"median of {repeats}; baseline = the previous `make bench` on record (benchmarks.json). "
        "Figures from different runs are not comparable (this machine's speed drifts 15-30 % between "
        "runs): a speed change is shown by the paired table (`make bench-vs BASE=<commit>`).",
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
            lines.append(f"| {t.name} | {t.text(t.value)} | {t.text(t.baseline)} | {t.text(t.target)} |")
    return "\n".join(lines) + "\n"


README_MARKERS = ("<!-- bench:start -->", "<!-- bench:end -->")


def write_results(rows: list[BenchRow], info: dict, repeats: int, md_path: Path, json_path: Path,
                  timings: list[TimingRow] = ()) -> None:
    """BENCHMARKS.md, benchmarks.json, and the table in README.md beside them (between the
    bench markers, when the README has them). A paired table already in BENCHMARKS.md is kept."""
    from .bench_pairs import split_section

    text = markdown(rows, info, repeats, timings)
    kept = split_section(md_path.read_text(encoding="utf-8"))[1] if md_path.is_file() else ""
    md_path.write_text(text + ("\n" + kept if kept else ""), encoding="utf-8")
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
