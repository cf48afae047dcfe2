"""`uno-sim design [PRESET] --vary KNOB=... --minimize METRIC --constraint ...`: race a grid of
rule sets for the best one that meets the constraints."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from . import options as O
from .command import play_and_write
from .render import print_design


@O.shared_options
def design(
    preset: O.OptionalPreset = None,
    *,
    vary: Annotated[
        Optional[list[str]],
        typer.Option("--vary", metavar="KNOB=V1,V2,...|KNOB=A..B", show_default=False,
                     help="A knob to vary and its values, as for `uno-sim sweep` (preset=A,B,... varies the rule "
                          "set itself). Repeat --vary for a grid of every combination."),
    ] = None,
    minimize: Annotated[
        Optional[str], typer.Option("--minimize", metavar="METRIC", show_default=False,
                                    help="The metric to make as small as possible (a rate or a mean, e.g. mean_turns).")
    ] = None,
    maximize: Annotated[
        Optional[str], typer.Option("--maximize", metavar="METRIC", show_default=False,
                                    help="The metric to make as large as possible (instead of --minimize).")
    ] = None,
    constraint: Annotated[
        Optional[list[str]],
        typer.Option("--constraint", metavar="\"METRIC<VALUE\"", show_default=False,
                     help="A condition every acceptable rule set meets: METRIC<VALUE, METRIC>VALUE or "
                          "abs(METRIC)<VALUE; rates as fractions or with pp, e.g. \"abs(first_player_edge)<0.5pp\" "
                          "(repeatable)."),
    ] = None,
    max_games: Annotated[
        int, typer.Option("--max-games", help="The whole race's budget of games, over every point and round.")
    ] = api.DEFAULT_MAX_GAMES,
    round_games: Annotated[
        Optional[int], typer.Option("--round-games", show_default=False,
                                    help="Games a point plays in the first round; each later round doubles a "
                                         "point's games (default: about max-games / (8 x points)).")
    ] = None,
    tolerance: Annotated[
        Optional[str], typer.Option("--tolerance", metavar="VALUE", show_default=False,
                                    help="Stop with a tie when every point left is this close to the leader "
                                         "(default 0.5pp for a rate, 1% of the best first-round value for a mean).")
    ] = None,
    players, bots, seed, set_, workers, out, force, as_json,
) -> None:
    """Race a grid of rule sets for the one that minimises (or maximises) a metric and meets
    the constraints.

    Every point left plays the same games each round; points that break a constraint, or that
    the leader beats, are dropped with 95% confidence over the whole race. A headline and the
    standings, OUT/standings.csv (every point, the winner first), OUT/race.csv (every point at
    every round), OUT/race.png and OUT/report.html.
    """
    def prepare():
        return api.prepare_design(preset, vary or [], minimize=minimize, maximize=maximize, constraints=constraint,
                                  max_games=max_games, round_games=round_games, tolerance=tolerance,
                                  players=players, bots=bots, seed=seed, overrides=set_, workers=workers)

    play_and_write("design", prepare, folder_name=lambda plan: f"{plan.preset}-{'-'.join(plan.knobs)}",
                   show=print_design, out=out, force=force, workers=workers, as_json=as_json)
