"""`uno-sim match PRESET`: whole matches to a target score."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from . import options as O
from .command import play_and_write
from .render import print_match


@O.shared_options
def match(
    preset,
    *,
    matches: Annotated[int, typer.Option("--matches", help="Number of matches to play.")] = 10_000,
    target: Annotated[
        Optional[int], typer.Option("--target", show_default=False,
                                    help="Score that ends a match (default: the preset's, 500).")
    ] = None,
    players, bots, seed, set_, workers, out, force,
    rotate_seats: O.RotateSeatsInMatches = False,
    as_json, cluster, checkpoint,
) -> None:
    """Play whole matches to --target: a headline, OUT/match.csv, a rounds chart and
    OUT/report.html (one page with all of it). A python:... bot plays its seat from Python,
    one match at a time; the compiled bots play the other seats."""
    def prepare():  # the pilot plays once the folder is checked (a bad --out fails before it)
        return api.prepare_match(preset, matches=matches, target=target, players=players, bots=bots, seed=seed,
                                 overrides=set_, workers=workers, rotate_seats=rotate_seats, progress=True,
                                 cluster=cluster, checkpoint=checkpoint, pilot=False)

    play_and_write("match", prepare, folder_name=lambda plan: plan.name, show=print_match, out=out, force=force,
                   workers=workers, cluster=cluster, checkpoint=checkpoint, as_json=as_json, pilot=True)
