"""`uno-sim sweep PRESET --vary KNOB=...`: one run per value (or grid point)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from . import options as O
from .output import finish, out_folder, write_result
from .render import print_sweep
from .notes import note_checkpoint, note_checkpoint_done, note_workers


def sweep(
    preset: Annotated[
        Optional[str],
        typer.Argument(metavar="[PRESET]", show_default=False,
                       help="A built-in preset or a path to a TOML rule file; leave it out with "
                            "--vary preset=A,B,...")] = None,
    vary: Annotated[
        Optional[list[str]],
        typer.Option("--vary", metavar="KNOB=V1,V2,...|KNOB=A..B", show_default=False,
                     help="A knob to vary and its values, e.g. players=2..10 or jump_in=false,true; "
                          "preset=standard,stacking,my.toml varies the rule set itself. Repeat --vary for "
                          "a grid of every combination."),
    ] = None,
    games: Annotated[int, typer.Option("--games", help="Games per value (grid point).")] = 100_000,
    players: O.Players = None,
    bots: O.Bots = None,
    seed: O.Seed = 0,
    set_: O.Overrides = None,
    metric: Annotated[
        Optional[list[str]],
        typer.Option("--metric", metavar="METRIC", show_default=False,
                     help="A metric to draw as a heatmap over the grid (repeatable; default mean_turns and "
                          "first_player_edge; names as in summary.csv)."),
    ] = None,
    rank_by: Annotated[
        str, typer.Option("--rank-by", metavar="METRIC",
                          help="The metric ranking the grid points in ranked.csv, smallest first.")
    ] = "mean_turns",
    fair_within: Annotated[
        float, typer.Option("--fair-within", metavar="PP",
                            help="A grid point is fair when the 95% interval of its first-player edge lies "
                                 "within +-PP percentage points; fair points rank first.")
    ] = api.DEFAULT_FAIR_WITHIN,
    top: Annotated[int, typer.Option("--top", help="Fair grid points listed on the terminal.")] = api.DEFAULT_TOP,
    workers: O.Workers = None,
    cluster: O.Cluster = None,
    checkpoint: O.Checkpoint = None,
    out: O.Out = None,
    force: O.Force = False,
    skill: O.Skill = False,
    as_json: O.Json = False,
) -> None:
    """Simulate a preset once per value of the varied knob(s), or once per grid point.

    A headline and a table, OUT/sweep.csv and OUT/report.html (one page with all of it); with
    one varied knob OUT/sweep.png; with two or more, OUT/ranked.csv (the grid points ranked, fair
    ones first) and a heatmap per --metric (OUT/heatmap-METRIC.png; small multiples for more knobs).
    """
    plan = api.prepare_sweep(preset, vary or [], games=games, players=players, bots=bots, seed=seed, overrides=set_,
                             workers=workers, metrics=metric, rank_by=rank_by, fair_within=fair_within, top=top,
                             cluster=cluster, checkpoint=checkpoint, skill=skill)
    folder = out_folder(out, f"{plan.preset}-{'-'.join(plan.knobs)}", "sweep", force)
    note_workers(workers, cluster)
    note_checkpoint(plan.checkpoint)
    result, written = write_result(folder, force, lambda files: plan.execute(progress=True))
    finish(result, written, as_json, print_sweep)
    note_checkpoint_done(plan.checkpoint)
