"""The `uno-sim bench` command: games per second for a fixed set of cases (uno_sim/bench.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .cli import _check_count, _stdout, app


@app.command()
def bench(
    games: int = typer.Option(1_000_000, "--games", help="Games per run."),
    repeats: int = typer.Option(3, "--repeats", help="Runs per case; the median is reported."),
    write: Optional[Path] = typer.Option(
        None, "--write", help="Write this Markdown file (and benchmarks.json beside it) with the table."
    ),
) -> None:
    """Throughput in games per second for fixed presets, player counts and thread counts."""
    from .bench import machine, run_benchmarks, write_results
    from .bots import IMPLEMENTED

    _check_count("--games", games)
    _check_count("--repeats", repeats)
    json_path = write.with_name("benchmarks.json") if write is not None else None
    rows = run_benchmarks(games, repeats, json_path, expert="expert" in IMPLEMENTED)
    info = machine()
    table = Table(title=f"uno-sim bench: {info['cpu']}, {info['cores']} cores", header_style="bold")
    for col in ("preset", "players", "bots", "threads", "games/s", "baseline", "target"):
        table.add_column(col, justify="left" if col in ("preset", "bots") else "right")
    for r in rows:
        table.add_row(
            r.preset, str(r.players), r.bots, str(r.workers), f"{r.games_per_second:,.0f}",
            f"{r.baseline:,.0f}" if r.baseline else "-", f"{r.target:,.0f}" if r.target else "-",
        )
    _stdout().print(table)
    if write is not None:
        write_results(rows, info, repeats, write, json_path)
        _stdout().print(f"wrote {write} and {json_path}")
