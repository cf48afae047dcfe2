"""Tournaments played: every table of bots on common deals with rotated seats (the ratings and
the skill index are fitted by stats/ratings.py).

A tournament takes k distinct bots and plays, under each rule set, every *table*: a multiset
of n bots (n players) with at least two different bots in it (a table of one bot tells
nothing about who is better). Each table plays the same `deals` deals (deal d is seeded from
the run key and d, as everywhere in uno-sim), each deal once per seat rotation (game i = deal
i // n with bot slot b in seat (b + i) % n, engine/batch.py), so every bot sits in every seat
of every deal. When the multisets number more than MAX_TABLES (many players and bots), the
design is the *pair* design instead: for every pair of bots (a, b) and every split m = 1..n-1,
the table of m seats a and n - m seats b. Both designs hold the skill-index table (the best
bot with n - 1 copies of the worst) and treat every bot alike (docs/METRICS.md).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine import layout as L
from ..game.bots import SKILL_BOT, Bot, pack_bots
from ..game.rules import Rules
from ..stats.ratings import (RATING_COLUMNS, SKILL_COLUMNS, TABLE_COLUMNS, PresetGames, fit_ratings,
                             NO_SKILL, rating_covariance, rating_rows, skill_row, table_rows, top_pair)
from .chunks import Threads, Unit, available_threads, run_chunks
from .interrupts import Interrupted
from .progress import SILENT, Progress, ProgressLike, as_progress

MAX_TABLES = 250
MAX_BOTS = 12


# ---------------------------------------------------------------- design


def table_design(bots: int, players: int) -> tuple[list[tuple[int, ...]], str]:
    """(tables, design): each table a sorted tuple of bot indices, one per seat slot.
    "all": every multiset of `players` bots with two or more different bots; "pairs" (when
    that is more than MAX_TABLES): every pair of bots in every split of the seats."""
    if bots < 2:
        raise ValueError("a tournament needs at least two bots")
    tables = [t for t in itertools.combinations_with_replacement(range(bots), players) if len(set(t)) > 1]
    if len(tables) <= MAX_TABLES:
        return tables, "all"
    pairs = [(a,) * m + (b,) * (players - m)
             for a, b in itertools.combinations(range(bots), 2) for m in range(1, players)]
    return pairs, "pairs"


# ---------------------------------------------------------------- playing


def play_preset(name: str, rules: Rules, bots: list[Bot], tables: list[tuple[int, ...]], deals: int, key: int,
                workers: int, progress: Progress = SILENT) -> PresetGames:
    """Play every table of one rule set on the common deals 0..deals-1 with rotated seats."""
    from .games import GameWork, python_part, warm_up_for

    n = rules.players
    games = deals * n
    packed = rules.pack()
    winners = np.full((len(tables), games), -1, dtype=np.int8)
    executor = Threads(workers)
    units = []
    for t, table in enumerate(tables):
        seated = [bots[b] for b in table]
        codes, params = pack_bots(seated)
        work = GameWork(packed, codes, params, key, True, n, rules.teams, rules.cards, python_part(rules, seated))
        out = winners[t]

        def consume(first: int, count: int, partial, records, out=out) -> None:
            out[first : first + count] = records[:, L.COL_WINNER_BOT]

        units.append(Unit(work, games, consume, f"{name}: table {t + 1}/{len(tables)}"))
    # the kernels its tables' bots need, started (compiled or loaded) before the clock starts
    warm_up_for(executor, [unit.work for unit in units], progress)
    began = time.perf_counter()
    # one pipeline (and one progress bar, plain lines without a terminal) over the rule set's tables
    run_chunks(units, executor, progress, label=f"{name}: {len(tables)} tables")
    return PresetGames(name, rules, tables, winners, time.perf_counter() - began)


# ---------------------------------------------------------------- the whole tournament


@dataclass
class TournamentResult:
    bots: list[Bot]
    design: str
    deals: int
    seed: int
    presets: list[PresetGames] = field(default_factory=list)
    _fits: list | None = field(default=None, repr=False, compare=False)  # fits(), once

    @property
    def labels(self) -> list[str]:
        return [b.label for b in self.bots]

    def tables_frame(self) -> pd.DataFrame:
        rows = [row for pg in self.presets for row in table_rows(pg, self.labels)]
        return pd.DataFrame(rows, columns=TABLE_COLUMNS)

    def fits(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each rule set's (ratings, their covariance), fitted once."""
        if self._fits is None:
            self._fits = []
            for pg in self.presets:
                theta = fit_ratings(pg, len(self.bots))
                self._fits.append((theta, rating_covariance(pg, theta)))
        return self._fits

    def analyse(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(ratings, skill): the rows of ratings.csv and skill.csv."""
        ratings, skill = [], []
        for pg, (theta, cov) in zip(self.presets, self.fits()):
            ratings.extend(rating_rows(pg, self.labels, theta, cov))
            skill.append(skill_row(pg, self.labels, theta, cov))
        return (pd.DataFrame(ratings, columns=RATING_COLUMNS),
                pd.DataFrame(skill, columns=SKILL_COLUMNS + ["wins"]).drop(columns="wins"))

    def leaders(self) -> dict[str, tuple[str, str, bool]]:
        """Per rule set: (the highest rated bot, the runner-up, whether the ratings tell them
        apart at 95%), for the headline."""
        out = {}
        for pg, (theta, cov) in zip(self.presets, self.fits()):
            best, second, apart = top_pair(theta, cov)
            out[pg.name] = (self.labels[best], self.labels[second], apart)
        return out

    @property
    def games(self) -> int:
        return int(sum(pg.winners.size for pg in self.presets))

    @property
    def seconds(self) -> float:
        return sum(pg.seconds for pg in self.presets)


def play_tournament(rule_sets: list[tuple[str, Rules]], bots: list[Bot], deals: int, seed: int,
                    workers: int | None = None, progress: ProgressLike = None) -> TournamentResult:
    """Every table of `bots` under each rule set (`progress`: told how far each rule set's
    tables are; running/progress.py, True: on standard error)."""
    from ..engine.keys import run_key

    progress = as_progress(progress)
    workers = min(workers or available_threads(), available_threads())
    key = run_key(seed)
    players = {rules.players for _, rules in rule_sets}
    designs = {p: table_design(len(bots), p) for p in players}
    result = TournamentResult(list(bots), ", ".join(sorted({d for _, d in designs.values()})), deals, seed)
    total = sum(len(designs[rules.players][0]) * deals * rules.players for _, rules in rule_sets)
    for name, rules in rule_sets:
        tables, _ = designs[rules.players]
        try:
            result.presets.append(play_preset(name, rules, bots, tables, deals, key, workers, progress))
        except Interrupted as exc:  # its pipeline counted its own rule set's games: count the whole tournament's
            exc.done = result.games + (exc.done or 0)
            exc.total, exc.what = total, f"games of the tournament ({len(rule_sets)} rule sets)"
            raise
    return result


# ---------------------------------------------------------------- the skill index beside a run


def skill_bots(rules: Rules, best: str = SKILL_BOT) -> list[Bot]:
    """The table of the skill games: one `best` (the skill bot, pro) against players - 1
    random bots."""
    return [Bot(best)] + [Bot(NO_SKILL)] * (rules.players - 1)


def skill_run(rules: Rules, games: int, seed: int, description: str = "skill index", start: int = 0):
    """`compare/sweep --skill`: `games` games of skill_bots with rotated seats (the same deals
    as the main games) as a games.GameRun, played beside the main games in their pipeline."""
    from .games import GameRun

    return GameRun(rules, skill_bots(rules), games, seed, description=description, rotate_seats=True, beside=True,
                   start=start)


