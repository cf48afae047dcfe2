"""`uno-sim compare A B ...`: the same games under several rule sets, with differences."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import api
from . import options as O
from .command import play_and_write
from .render import print_compare


@O.shared_options
def compare(
    presets: Annotated[
        list[str],
        typer.Argument(metavar="PRESET...", show_default=False,
                       help="Two or more presets or rule files; the first is the baseline."),
    ],
    *,
    games: O.GamesPerVariant = 1_000_000,
    players, bots, seed,
    set_: O.OverridesInEveryVariant = None,
    workers, out, force, skill,
    per_game: O.PerGameVariants = False,
    parquet: O.ParquetVariants = False,
    rotate_seats,
    all_metrics: Annotated[
        bool, typer.Option("--all-metrics", help="Also show the metrics that are 0, n/a or a rate of 100% in every variant.")
    ] = False,
    as_json, cluster, checkpoint,
    unpaired: Annotated[
        bool, typer.Option("--unpaired", help="Analyse the variants as independent samples (two-proportion z, Welch "
                           "t) instead of pair by pair on the same deals (paired t, McNemar; narrower intervals).")
    ] = False,
    precision: O.Precision = None,
    max_games: O.MaxGames = None,
) -> None:
    """Play the same games under each preset and show the differences to the first.

    A headline of the significant differences, a side-by-side table with 95% intervals and
    Holm-corrected significance, each difference computed from the pairs of games dealt alike
    (differences.csv names the test of every row); OUT/compare.csv, OUT/differences.csv, OUT/distributions.csv,
    charts (differences.png first) and OUT/report.html (one page with all of it).
    """
    def prepare():
        O.check_games_or_precision(precision)
        return api.prepare_compare(presets, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                                   workers=workers, rotate_seats=rotate_seats, cluster=cluster,
                                   checkpoint=checkpoint, skill=skill, paired=not unpaired, precision=precision,
                                   max_games=max_games)

    def play(plan, per_game_files):  # OUT/games-VARIANT.csv, OUT/games-VARIANT.parquet
        return plan.execute(progress=True, per_game_paths=lambda name: per_game_files(f"games-{name}"))

    play_and_write("compare", prepare, folder_name=lambda plan: "-".join(dict.fromkeys(p.name for p in plan.plans)),
                   show=lambda result: print_compare(result, all_metrics), out=out, force=force, workers=workers,
                   cluster=cluster, checkpoint=checkpoint, as_json=as_json, per_game=per_game, parquet=parquet,
                   play=play)
