"""Matches (docs/RULES.md, "Matches") played in chunks: the chunk work of whole matches and
the result of a match run.

The rounds of a match are played inside the engine (engine/match.py), or with a `python:...`
player round by round from Python between the engine's own match steps (env/matches.py); this
module hands the matches to the chunk runner (chunks.py) and folds each chunk into the match statistics of
stats/matches.py (`MatchAggregate`), which also builds the tidy `match.csv` table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd

from ..game.bots import Bot, pack_bots
from ..game.decks import CLASSIC, Deck
from ..game.rules import Rules
from ..stats.matches import MatchAggregate, summarize_matches
from .chunks import Threads, Unit, check_seats, run_chunks
from .games import PYTHON_WHERE, PythonChunk, python_part
from .progress import ProgressLike, as_progress
from .warmup import Startup, deck_kind

@dataclass
class MatchResult:
    rules: Rules
    bots: list[Bot]
    matches: int
    seed: int
    workers: int
    aggregate: MatchAggregate
    seconds: float
    where: str = ""  # what played the matches: "2 thread(s)", a Dask cluster
    resumed: int = 0  # matches taken from a checkpoint rather than played
    startup: Startup = field(default_factory=Startup)  # starting the engine first (not in `seconds`)

    @property
    def rotate_seats(self) -> bool:
        return self.aggregate.rotate

    def summary(self, variant: str) -> pd.DataFrame:
        return summarize_matches(self.aggregate, variant, [b.label for b in self.bots])


@dataclass
class MatchWork:
    """Whole matches as chunk work (chunks.Work), picklable for a cluster's workers."""

    packed: np.ndarray
    codes: np.ndarray
    params: np.ndarray
    key: int
    players: int
    teams: int
    rotate: bool
    scoring: str
    fixed_rounds: int
    deck: Deck = CLASSIC  # the deck played (Rules.cards)
    python: tuple = ()  # with a `python:...` player: (rules, bots), the matches played by env/matches.py

    what = "matches"
    cap = 16384
    fixed_min = 2048
    fixed_max = 32768

    def start(self, first: int, n: int, threads: int, stop=None):
        if self.python:
            return PythonChunk(lambda stopped: self.python_matches().records(first, n, stopped), stop)
        from ..engine.batch import start_matches

        return start_matches(self.packed, self.codes, self.params, self.key, first, n,
                             _seatings(self.players) if self.rotate else None, workers=threads, stop=stop,
                             deck=self.deck)

    def python_matches(self):
        """The table with Python seats (env/matches.py), made once: the policies load once a run."""
        from ..env.matches import PythonMatches

        if getattr(self, "_matches", None) is None:
            rules, bots = self.python
            self._matches = PythonMatches(rules, bots, self.key, _seatings(self.players) if self.rotate else None)
        return self._matches

    def empty(self) -> MatchAggregate:
        return MatchAggregate(players=self.players, teams=self.teams, rotate=self.rotate, scoring=self.scoring,
                              fixed_rounds=self.fixed_rounds)

    def reduce(self, rows) -> MatchAggregate:
        agg = self.empty()
        agg.add(rows)
        return agg


@lru_cache(maxsize=4)
def _seatings(players: int) -> np.ndarray:
    """The seating classes rotated through (made where the matches are played: up to 181,440
    rows for 10 players, not worth shipping to a cluster's workers)."""
    from ..engine.match import seating_classes

    return seating_classes(players)


def match_work(rules: Rules, bots: list[Bot], seed: int, rotate_seats: bool = False) -> MatchWork:
    from ..engine.keys import run_key

    codes, params = pack_bots(bots)
    return MatchWork(rules.pack(), codes, params, run_key(seed), rules.players, rules.teams, bool(rotate_seats),
                     rules.match_scoring, rules.match_rounds, rules.cards, python_part(rules, bots))


def simulate_matches(rules: Rules, bots: list[Bot], matches: int, seed: int, *, workers: int | None = None,
                     chunk_size: int = 16384, progress: ProgressLike = None, rotate_seats: bool = False,
                     executor=None, store=None) -> MatchResult:
    """Play `matches` matches to `rules.target`; match i is seeded from (seed, i).

    `rotate_seats`: the seating changes every `players` rounds through every seating up to
    rotation and reflection (engine/match.py, player_at); results are per player (bot slot).
    `executor`: where to play instead of this process's threads (a cluster.DaskExecutor);
    `store`: a checkpoint.UnitStore recording every finished chunk; `progress`: told how far
    the matches are (running/progress.py; True: on standard error)."""
    check_seats(rules, bots, "matches", matches, chunk_size)
    progress = as_progress(progress)
    executor = executor or Threads(workers)
    work = match_work(rules, bots, seed, rotate_seats)
    agg = work.empty()
    unit = Unit(work, matches, lambda first, n, partial, rows: agg.merge(partial), "matches", chunk_size, store)
    startup = executor.warm_up(deck_kind("matches", rules.cards.two_sided), progress)  # before the clock starts
    run_chunks([unit], executor, progress)
    where = PYTHON_WHERE if python_part(rules, bots) else executor.where
    return MatchResult(rules, list(bots), matches, seed, getattr(executor, "workers", 0), agg, unit.seconds,
                       where, unit.restored, startup)


