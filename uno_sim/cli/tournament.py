"""`uno-sim tournament --bots A,B,... --presets P,Q,...`: every table of the bots under each rule set."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import api
from ..game.bots import TOURNAMENT_BOTS
from . import options as O
from .command import play_and_write
from .render import print_tournament


@O.shared_options
def tournament(
    *,
    bots: O.DistinctBots = TOURNAMENT_BOTS,
    presets: Annotated[
        str,
        typer.Option("--presets", metavar="P1,P2,...",
                     help="Presets or TOML rule files, separated by commas; each is played in full."),
    ] = "standard",
    deals: Annotated[
        int,
        typer.Option("--deals", help="Deals per table (at least 30); each is played once per seat rotation "
                                     "(PLAYERS games)."),
    ] = 1000,
    players, seed, set_, workers, out, force, as_json,
) -> None:
    """Play every table of the bots on common deals with rotated seats, under each rule set.

    Tables: every multiset of PLAYERS bots with two or more different bots (a pair design when
    there are too many). Per rule set: win rates by table, Luce ratings with 95% intervals and
    the skill index (the best bot's win rate against the worst, minus 1/n; the worst is random
    by definition when it plays, and a best or worst bot the ratings cannot tell apart from the
    next gives no index). A headline and the tables; OUT/tournament.csv, OUT/ratings.csv,
    OUT/skill.csv, OUT/ratings.png, OUT/skill_index.png and OUT/report.html (one page with all of it).
    """
    def prepare():
        return api.prepare_tournament(presets, bots=bots, deals=deals, players=players, seed=seed, overrides=set_,
                                      workers=workers)

    play_and_write("tournament", prepare, folder_name=lambda plan: "-".join(name for name, _ in plan.rule_sets),
                   show=print_tournament, out=out, force=force, workers=workers, as_json=as_json)
