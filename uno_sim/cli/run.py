"""`uno-sim run PRESET`: simulate one rule set; summary, distributions, charts."""

from __future__ import annotations

from .. import api
from . import options as O
from .command import play_and_write
from .render import print_run


@O.shared_options
def run(preset, *, games: O.Games = 100_000, players, bots, seed, set_, workers, out, force,
        per_game: O.PerGame = False, parquet: O.Parquet = False, rotate_seats, as_json, cluster, checkpoint,
        precision: O.Precision = None, max_games: O.MaxGames = None) -> None:
    """Simulate a preset: a headline and summary; OUT/summary.csv, OUT/distributions.csv,
    charts and OUT/report.html (one page with all of it). With --precision, as many games as
    the named intervals need."""
    def prepare():
        O.check_games_or_precision(precision)
        return api.prepare_run(preset, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                               workers=workers, rotate_seats=rotate_seats, cluster=cluster, checkpoint=checkpoint,
                               precision=precision, max_games=max_games)

    def play(plan, per_game_files):
        csv, parquet_path = per_game_files("games")  # OUT/games.csv, OUT/games.parquet
        return plan.execute(progress=True, per_game_csv=csv, per_game_parquet=parquet_path)

    play_and_write("run", prepare, folder_name=lambda plan: plan.name, show=print_run, out=out, force=force,
                   workers=workers, cluster=cluster, checkpoint=checkpoint, as_json=as_json, per_game=per_game,
                   parquet=parquet, play=play)
