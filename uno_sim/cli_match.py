"""The `uno-sim match` command (SPEC 5, issue 7): matches to a target score.

Registered on the main app by cli.py; uses its shared options, validation and output habits
(everything validated before a round is played; files written all-or-nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .bots import describe, parse_bots
from .cli import (
    BotsOpt,
    InputError,
    OutOpt,
    PlayersOpt,
    PresetArg,
    SeedOpt,
    SetOpt,
    WorkersOpt,
    _check_count,
    _load_rules,
    _note_workers,
    _num,
    _pct,
    _stdout,
    app,
    default_out_dir,
)
from .files import OutputFolder, check_out_dir


@app.command()
def match(
    preset: str = PresetArg,
    matches: int = typer.Option(10_000, "--matches", help="Number of matches to play."),
    target: Optional[int] = typer.Option(None, "--target", help="Score that ends a match (default: the preset's, 500)."),
    players: Optional[int] = PlayersOpt,
    bots: Optional[str] = BotsOpt,
    seed: int = SeedOpt,
    set_: Optional[list[str]] = SetOpt,
    workers: Optional[int] = WorkersOpt,
    out: Optional[Path] = OutOpt,
    rotate_seats: bool = typer.Option(
        False,
        "--rotate-seats",
        help="Change the seating every PLAYERS rounds, through every seating up to rotation and "
        "reflection (with 4 players: each partner pairing for 4 rounds); scores and match win "
        "rates per player (the i-th bot), so the results are seat-fair.",
    ),
) -> None:
    """Play whole matches to --target (SPEC 5); write OUT/match.csv and a rounds chart."""
    from .match_charts import rounds_chart
    from .matches import simulate_matches
    from .stats import write_csv

    _check_count("--matches", matches)
    _check_count("--workers", workers)
    _check_count("--seed", seed, minimum=0)
    _check_count("--target", target)
    overrides = list(set_ or [])
    if target is not None:
        overrides.append(f"target={target}")
    rules = _load_rules(preset, overrides, players)
    seat_bots = parse_bots(bots, rules.players)
    out_dir = out if out is not None else default_out_dir(preset, "match")
    check_out_dir(out_dir)
    _note_workers(workers)

    csv_path = out_dir / "match.csv"
    chart_path = out_dir / "rounds_per_match.png"
    with OutputFolder(out_dir) as files:
        tmp_csv = files.path_for(csv_path)
        tmp_chart = files.path_for(chart_path)
        result = simulate_matches(rules, seat_bots, matches, seed, workers=workers, rotate_seats=rotate_seats)
        summary = result.summary(preset)
        write_csv(summary, tmp_csv)
        rounds_chart(result, preset, describe(seat_bots), tmp_chart)

    _print_match(preset, rules, seat_bots, result, summary)
    console = _stdout()
    for path in (csv_path, chart_path):
        console.print(f"wrote {path}")


def _print_match(preset, rules, seat_bots, result, summary) -> None:
    console = _stdout()
    title = (
        f"{preset}: matches to {rules.target} ({rules.match_scoring}, next dealer {rules.next_dealer}), "
        f"{rules.players} players, bots {describe(seat_bots)}, {result.matches:,} matches, seed {result.seed}"
    )
    if result.rotate_seats:
        title += f", seats rotated every {rules.players} rounds"
    table = Table(title=title, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    for _, row in summary.iterrows():
        name = row["metric"]
        fmt = _pct if "rate" in name else _num
        interval = "" if row["ci_low"] != row["ci_low"] else f"{fmt(row['ci_low'])} - {fmt(row['ci_high'])}"
        label = name
        if name.startswith("match_win_rate_player_"):
            label += f" ({seat_bots[int(name.rsplit('_', 1)[1])].label})"
        table.add_row(label, fmt(row["value"]), interval)
    console.print(table)
    console.print(f"{result.matches:,} matches in {result.seconds:.1f} s ({result.workers} thread(s))")


__all__ = ["match", "InputError"]
