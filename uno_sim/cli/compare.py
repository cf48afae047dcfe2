"""`uno-sim compare A B ...`: the same games under several rule sets, with differences."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import api
from . import options as O
from .output import finish, out_folder, write_result
from .render import print_compare
from .notes import note_checkpoint, note_checkpoint_done, note_workers


def compare(
    presets: Annotated[
        list[str],
        typer.Argument(metavar="PRESET...", show_default=False,
                       help="Two or more presets or rule files; the first is the baseline."),
    ],
    games: Annotated[int, typer.Option("--games", help="Games per variant.")] = 1_000_000,
    players: O.Players = None,
    bots: O.Bots = None,
    seed: O.Seed = 0,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="KNOB=VALUE", show_default=False,
                     help="Override a rule knob in every variant (repeatable)."),
    ] = None,
    workers: O.Workers = None,
    out: O.Out = None,
    force: O.Force = False,
    skill: O.Skill = False,
    per_game: Annotated[bool, typer.Option("--per-game", help="Also write OUT/games-VARIANT.csv per variant.")] = False,
    parquet: Annotated[bool, typer.Option("--parquet", help="Also write OUT/games-VARIANT.parquet (needs pyarrow).")] = False,
    rotate_seats: O.RotateSeats = False,
    all_metrics: Annotated[
        bool, typer.Option("--all-metrics", help="Also show the metrics that are 0, n/a or a rate of 100% in every variant.")
    ] = False,
    as_json: O.Json = False,
    cluster: O.Cluster = None,
    checkpoint: O.Checkpoint = None,
) -> None:
    """Play the same games under each preset and show the differences to the first.

    A headline of the significant differences, a side-by-side table with 95% intervals and
    Holm-corrected significance; OUT/compare.csv, OUT/differences.csv, OUT/distributions.csv,
    charts (differences.png first) and OUT/report.html (one page with all of it).
    """
    api.check_per_game(per_game or parquet, cluster, checkpoint)
    plan = api.prepare_compare(presets, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                               workers=workers, rotate_seats=rotate_seats, cluster=cluster, checkpoint=checkpoint,
                               skill=skill)
    api.check_parquet(parquet)
    names = [p.name for p in plan.plans]
    folder = out_folder(out, "-".join(dict.fromkeys(names)), "compare", force)
    note_workers(workers, cluster)
    note_checkpoint(plan.checkpoint)

    def play(files):
        def per_game_paths(name: str):
            return (files.path_for(folder / f"games-{name}.csv") if per_game else None,
                    files.path_for(folder / f"games-{name}.parquet") if parquet else None)

        return plan.execute(progress=True, per_game_paths=per_game_paths)

    result, written = write_result(folder, force, play)
    finish(result, written, as_json, lambda r: print_compare(r, all_metrics))
    note_checkpoint_done(plan.checkpoint)
