"""`uno-sim tournament --bots A,B,... --presets P,Q,...`: every table of the bots under each rule set."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import api
from . import options as O
from .output import out_folder, print_written, write_result
from .render import print_tournament
from .notes import note_workers


def tournament(
    bots: Annotated[
        str,
        typer.Option("--bots", metavar="B1,B2,...",
                     help="Two or more distinct bots (parameters after colons, e.g. expert:challenge_prob=0)."),
    ] = "random,greedy,expert,bluffer",
    presets: Annotated[
        str,
        typer.Option("--presets", metavar="P1,P2,...",
                     help="Presets or TOML rule files, separated by commas; each is played in full."),
    ] = "standard",
    deals: Annotated[
        int,
        typer.Option("--deals", help="Deals per table; each is played once per seat rotation (PLAYERS games)."),
    ] = 1000,
    players: O.Players = None,
    seed: O.Seed = 0,
    set_: O.Overrides = None,
    workers: O.Workers = None,
    out: O.Out = None,
    force: O.Force = False,
) -> None:
    """Play every table of the bots on common deals with rotated seats, under each rule set.

    Tables: every multiset of PLAYERS bots with two or more different bots (a pair design when
    there are too many). Per rule set: win rates by table, Luce ratings with 95% intervals and
    the skill index (the best bot's win rate against the worst, minus 1/n). OUT/tournament.csv,
    OUT/ratings.csv, OUT/skill.csv, OUT/ratings.png and OUT/skill_index.png.
    """
    plan = api.prepare_tournament(presets, bots=bots, deals=deals, players=players, seed=seed, overrides=set_,
                                  workers=workers)
    folder = out_folder(out, "-".join(name for name, _ in plan.rule_sets), "tournament", force)
    note_workers(workers)
    result, written = write_result(folder, force, lambda files: plan.execute(progress=True))
    print_tournament(result)
    print_written(written)
