"""`uno-sim bench`: games per second for a fixed set of cases (uno_sim/api/benchmarks.py);
with --vs COMMIT, this tree against that commit in alternating pairs (the comparison that an
engine change must show: figures stored from other runs are not comparable)."""

from __future__ import annotations

from pathlib import Path
import sys
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import api
from . import options as O
from .render import stdout


def bench(
    games: O.GamesPerBenchRun = 1_000_000,
    repeats: Annotated[int, typer.Option("--repeats", help="Runs per case; the median is reported.")] = 3,
    timings: Annotated[bool, typer.Option("--timings/--no-timings",
                                          help="Also time the kernel alone, start-up and (--cold) a cold compile.")] = True,
    cold: Annotated[bool, typer.Option("--cold/--no-cold",
                                       help="Include a cold compile of every kernel (minutes on a slow machine).")] = True,
    write: Annotated[
        Optional[Path],
        typer.Option("--write", show_default=False,
                     help="Write this Markdown file (and benchmarks.json beside it) with the table; with --vs, "
                          "put the paired table in it (the rest of the file kept)."),
    ] = None,
    vs: Annotated[
        Optional[str],
        typer.Option("--vs", metavar="COMMIT", show_default=False,
                     help="Time this tree against COMMIT (a git revision of this checkout, 7104022 or later) in "
                          "pairs, each case a fresh process per build, order alternating; reports the ratios."),
    ] = None,
    pairs: Annotated[
        Optional[int],
        typer.Option("--pairs", show_default=False, help="With --vs: pairs per case (2 to 50; default 4)."),
    ] = None,
    case: Annotated[
        Optional[list[str]],
        typer.Option("--case", metavar="KEY", show_default=False,
                     help="With --vs: only this case, e.g. standard/4p/random/2w (repeatable; default: all)."),
    ] = None,
) -> None:
    """Games per second for fixed presets, player counts and thread counts."""
    if vs is not None:
        return paired(vs, 4 if pairs is None else pairs, games, case, write)
    if pairs is not None or case:
        raise api.InputError("--pairs and --case need --vs COMMIT")
    plan = api.prepare_bench(games, repeats, write)  # --write checked before the benchmark runs
    rows = plan.run_cases()
    info = plan.machine()
    table = Table(title=f"uno-sim bench: {info['cpu']}, {info['cores']} cores", header_style="bold")
    for col in ("preset", "players", "bots", "threads", "games/s", "baseline", "target"):
        table.add_column(col, justify="left" if col in ("preset", "bots") else "right")
    for r in rows:
        table.add_row(
            r.preset, str(r.players), r.bots, str(r.workers), f"{r.games_per_second:,.0f}",
            f"{r.baseline:,.0f}" if r.baseline else "-", f"{r.target:,.0f}" if r.target else "-",
        )
    stdout().print(table)
    figures = plan.run_timings(cold=cold) if timings else []
    if figures:
        extra = Table(title="kernel, start-up, compile and the Python environments", header_style="bold")
        for col in ("figure", "value", "baseline", "target"):
            extra.add_column(col, justify="left" if col == "figure" else "right")
        for t in figures:
            extra.add_row(t.name, t.text(t.value), t.text(t.baseline), t.text(t.target))
        stdout().print(extra)
    if write is not None:
        plan.write(rows, info, figures)
        stdout().print(f"wrote {write} and {plan.json_path}")


def paired(commit: str, pairs: int, games: int, cases: list[str] | None, write: Path | None) -> None:
    """`bench --vs COMMIT`: the paired table (running/bench_pairs.py)."""
    def note(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    plan = api.prepare_paired_bench(commit, pairs, games, cases, write, note=note)
    rows = plan.run(note)
    table = Table(title=f"uno-sim bench: {plan.current.label} / {plan.baseline.label}, games/s ratio "
                        f"(load {plan.info['load_before']} -> {plan.info['load_after']})", header_style="bold")
    for col in ("case", "ratio per pair", "median", "range", "geo. mean [95% CI]", "significant", "wall ratio",
                "per CPU second: median, geo. mean [95% CI]"):
        table.add_column(col, justify="left" if col in ("case", "ratio per pair") else "right")
    for row in rows:
        if row.error is not None:
            table.add_row(row.case.key, f"not played: {row.error}", "", "", "", "", "", "")
            continue
        s, cpu = row.summary(), row.cpu_summary()
        table.add_row(row.case.key, " ".join(f"{r:.3f}" for r in s.ratios), f"{s.median:.3f}",
                      f"{s.low:.3f}-{s.high:.3f}", f"{s.geo_mean:.3f} [{s.ci_low:.3f}, {s.ci_high:.3f}]",
                      f"yes (p={s.p_value:.2g})" if s.significant else f"no (p={s.p_value:.2g})",
                      f"{row.wall_median():.3f}",
                      f"{cpu.median:.3f}, {cpu.geo_mean:.3f} [{cpu.ci_low:.3f}, {cpu.ci_high:.3f}]" if cpu else "-")
    stdout().print(table)
    if write is not None:
        plan.write(rows)
        stdout().print(f"wrote {write}")
