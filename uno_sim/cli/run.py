"""`uno-sim run PRESET`: simulate one rule set; summary, distributions, charts."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import api
from . import options as O
from .output import finish, out_folder, write_result
from .render import print_run
from .notes import note_checkpoint, note_checkpoint_done, note_workers


def run(
    preset: O.Preset,
    games: Annotated[int, typer.Option("--games", help="Number of games to simulate.")] = 100_000,
    players: O.Players = None,
    bots: O.Bots = None,
    seed: O.Seed = 0,
    set_: O.Overrides = None,
    workers: O.Workers = None,
    out: O.Out = None,
    force: O.Force = False,
    per_game: Annotated[bool, typer.Option("--per-game", help="Also write OUT/games.csv (one row per game).")] = False,
    parquet: Annotated[bool, typer.Option("--parquet", help="Also write OUT/games.parquet (needs pyarrow).")] = False,
    rotate_seats: O.RotateSeats = False,
    as_json: O.Json = False,
    cluster: O.Cluster = None,
    checkpoint: O.Checkpoint = None,
) -> None:
    """Simulate a preset: a headline and summary; OUT/summary.csv, OUT/distributions.csv,
    charts and OUT/report.html (one page with all of it)."""
    api.check_per_game(per_game or parquet, cluster, checkpoint)
    plan = api.prepare_run(preset, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                           workers=workers, rotate_seats=rotate_seats, cluster=cluster, checkpoint=checkpoint)
    api.check_parquet(parquet)
    folder = out_folder(out, plan.name, "run", force)
    note_workers(workers, cluster)
    note_checkpoint(plan.checkpoint)

    def play(files):
        return plan.execute(
            progress=True,
            per_game_csv=files.path_for(folder / "games.csv") if per_game else None,
            per_game_parquet=files.path_for(folder / "games.parquet") if parquet else None,
        )

    result, written = write_result(folder, force, play)
    finish(result, written, as_json, print_run)
    note_checkpoint_done(plan.checkpoint)
