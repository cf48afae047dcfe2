"""`uno-sim sweep PRESET --vary KNOB=...`: one run per value (or grid point)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from . import options as O
from .command import play_and_write
from .render import print_sweep


@O.shared_options
def sweep(
    preset: O.OptionalPreset = None,
    *,
    vary: Annotated[
        Optional[list[str]],
        typer.Option("--vary", metavar="KNOB=V1,V2,...|KNOB=A..B", show_default=False,
                     help="A knob to vary and its values, e.g. players=2..10 or jump_in=false,true; "
                          "preset=standard,stacking,my.toml varies the rule set itself. Repeat --vary for "
                          "a grid of every combination."),
    ] = None,
    games: O.GamesPerPoint = 100_000,
    players, bots, seed, set_,
    metric: Annotated[
        Optional[list[str]],
        typer.Option("--metric", metavar="METRIC", show_default=False,
                     help="A metric to draw as a heatmap over the grid (repeatable; default mean_turns and "
                          "first_player_edge; names as in summary.csv)."),
    ] = None,
    rank_by: Annotated[
        str, typer.Option("--rank-by", metavar="METRIC",
                          help="The metric ranking the grid points in ranked.csv, smallest first (skill_index, "
                               "with --skill, largest first).")
    ] = "mean_turns",
    fair_within: Annotated[
        float, typer.Option("--fair-within", metavar="PP",
                            help="A grid point is fair when the 95% interval of its first-player edge lies "
                                 "within +-PP percentage points; fair points rank first.")
    ] = api.DEFAULT_FAIR_WITHIN,
    top: Annotated[int, typer.Option("--top", help="Fair grid points listed on the terminal.")] = api.DEFAULT_TOP,
    workers, cluster, checkpoint, out, force, skill, as_json,
    precision: O.PrecisionPerPoint = None,
    max_games: O.MaxGames = None,
) -> None:
    """Simulate a preset once per value of the varied knob(s), or once per grid point.

    A headline and a table, OUT/sweep.csv and OUT/report.html (one page with all of it); with
    one varied knob OUT/sweep.png; with two or more, OUT/ranked.csv (the grid points ranked, fair
    ones first) and a heatmap per --metric (OUT/heatmap-METRIC.png; small multiples for more knobs).
    """
    def prepare():
        O.check_games_or_precision(precision)
        return api.prepare_sweep(preset, vary or [], games=games, players=players, bots=bots, seed=seed,
                                 overrides=set_, workers=workers, metrics=metric, rank_by=rank_by,
                                 fair_within=fair_within, top=top, cluster=cluster, checkpoint=checkpoint, skill=skill,
                                 precision=precision, max_games=max_games)

    play_and_write("sweep", prepare, folder_name=lambda plan: f"{plan.preset}-{'-'.join(plan.knobs)}",
                   show=print_sweep, out=out, force=force, workers=workers, cluster=cluster, checkpoint=checkpoint,
                   as_json=as_json)
