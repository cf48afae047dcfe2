"""`uno-sim sweep PRESET --vary KNOB=...`: one run per value (or grid point)."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import api
from . import options as O
from .output import finish, out_folder, write_result
from .render import print_sweep
from .workers import note_workers


def sweep(
    preset: O.Preset,
    vary: Annotated[
        list[str],
        typer.Option("--vary", metavar="KNOB=V1,V2,...|KNOB=A..B", show_default=False,
                     help="A knob to vary and its values, e.g. players=2..10 or jump_in=false,true; "
                          "repeat --vary for a grid of every combination."),
    ],
    games: Annotated[int, typer.Option("--games", help="Games per value (grid point).")] = 100_000,
    players: O.Players = None,
    bots: O.Bots = None,
    seed: O.Seed = 0,
    set_: O.Overrides = None,
    workers: O.Workers = None,
    out: O.Out = None,
    force: O.Force = False,
    skill: O.Skill = False,
    as_json: O.Json = False,
) -> None:
    """Simulate a preset once per value of the varied knob(s).

    A headline and a table, OUT/sweep.csv, with one varied knob OUT/sweep.png, and
    OUT/report.html (one page with all of it).
    """
    plan = api.prepare_sweep(preset, vary, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                             workers=workers, skill=skill)
    folder = out_folder(out, f"{plan.preset}-{'-'.join(plan.knobs)}", "sweep", force)
    note_workers(workers)
    result, written = write_result(folder, force, lambda files: plan.execute(progress=True))
    finish(result, written, as_json, print_sweep)
