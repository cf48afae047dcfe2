"""`uno-sim match PRESET`: whole matches to a target score."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from . import options as O
from .output import finish, out_folder, write_result
from .render import print_match
from .notes import note_checkpoint, note_checkpoint_done, note_workers


def match(
    preset: O.Preset,
    matches: Annotated[int, typer.Option("--matches", help="Number of matches to play.")] = 10_000,
    target: Annotated[
        Optional[int], typer.Option("--target", show_default=False,
                                    help="Score that ends a match (default: the preset's, 500).")
    ] = None,
    players: O.Players = None,
    bots: O.Bots = None,
    seed: O.Seed = 0,
    set_: O.Overrides = None,
    workers: O.Workers = None,
    out: O.Out = None,
    force: O.Force = False,
    rotate_seats: Annotated[
        bool,
        typer.Option("--rotate-seats",
                     help="Change the seating every PLAYERS rounds, through every seating up to rotation and "
                          "reflection (with 4 players: each partner pairing for 4 rounds); scores and match win "
                          "rates per player (the i-th bot), so the results are seat-fair."),
    ] = False,
    as_json: O.Json = False,
    cluster: O.Cluster = None,
    checkpoint: O.Checkpoint = None,
) -> None:
    """Play whole matches to --target: a headline, OUT/match.csv, a rounds chart and
    OUT/report.html (one page with all of it)."""
    plan = api.prepare_match(preset, matches=matches, target=target, players=players, bots=bots, seed=seed,
                             overrides=set_, workers=workers, rotate_seats=rotate_seats, progress=True,
                             cluster=cluster, checkpoint=checkpoint, pilot=False)
    folder = out_folder(out, plan.name, "match", force)  # a bad --out fails before the pilot plays
    plan.run_pilot(progress=True)
    note_workers(workers, cluster)
    note_checkpoint(plan.checkpoint)
    result, written = write_result(folder, force, lambda files: plan.execute(progress=True))
    finish(result, written, as_json, print_match)
    note_checkpoint_done(plan.checkpoint)
