"""`uno-sim bench`: games per second for a fixed set of cases (uno_sim/api/benchmarks.py)."""

from __future__ import annotations

from pathlib import Path
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
                     help="Write this Markdown file (and benchmarks.json beside it) with the table."),
    ] = None,
) -> None:
    """Games per second for fixed presets, player counts and thread counts."""
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
