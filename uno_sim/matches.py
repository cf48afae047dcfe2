"""Matches to a target (docs/RULES.md, "Matches"): orchestration, streaming aggregation and the tidy summary.

The rounds of a match are played inside the engine (engine/match.py); this module runs
matches in chunks, keeps counters and histograms (never the rows), and builds the tidy
`match.csv` table: `variant, metric, value, ci_low, ci_high, games` where `games` is the
number of matches. Metric names: `match_win_rate_seat_{i}` (or `match_win_rate_team_{k}`),
`match_win_rate_bot_{label}`, `undecided_rate`, `mean_rounds`, `median_rounds`,
`p10_rounds`, `p90_rounds`, `maximum_rounds`, `mean_margin`, `median_margin`, `comeback_rate`,
`first_dealer_win_rate`, `mean_turns_per_round`, `no_winner_round_rate`,
`round_win_rate_seat_{i}`; with seats rotated `match_win_rate_player_{i}` and
`round_win_rate_player_{i}` instead of the per-seat and per-team rates.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import stats
from .bots import Bot, pack_bots
from .engine import layout as L
from .rules import Rules
from .chunks import available_threads, run_chunks


@dataclass
class MatchAggregate:
    players: int
    teams: int = 0
    rotate: bool = False  # seats rotated: the sides are the players
    matches: int = 0
    wins: np.ndarray = field(default=None)  # per side; undecided matches count nowhere
    round_wins: np.ndarray = field(default=None)  # per seat, or per player with seats rotated
    first_dealer_wins: int = 0
    comebacks: int = 0
    rounds: stats.IntHistogram = field(default_factory=stats.IntHistogram)
    margins: stats.IntHistogram = field(default_factory=stats.IntHistogram)
    total_rounds: int = 0
    total_turns: int = 0
    no_winner_rounds: int = 0

    def __post_init__(self) -> None:
        self.sides = self.teams if self.side_name == "team" else self.players
        self.wins = np.zeros(self.sides, dtype=np.int64)
        self.round_wins = np.zeros(self.players, dtype=np.int64)

    @property
    def side_name(self) -> str:
        return "player" if self.rotate else "team" if self.teams else "seat"

    def add(self, rows: np.ndarray) -> None:
        self.matches += len(rows)
        winners = rows[:, L.M_WINNER]
        decided = winners >= 0
        self.wins += np.bincount(winners[decided], minlength=self.sides)[: self.sides]
        self.round_wins += rows[:, L.M_ROUND_WINS : L.M_ROUND_WINS + self.players].sum(axis=0)
        dealer_side = rows[:, L.M_FIRST_DEALER]
        if self.side_name == "team":
            dealer_side = dealer_side % self.teams
        self.first_dealer_wins += int(np.count_nonzero(decided & (winners == dealer_side)))
        self.comebacks += int(rows[:, L.M_COMEBACK].sum())
        self.rounds.add(rows[:, L.M_ROUNDS])
        self.margins.add(rows[decided, L.M_MARGIN])
        self.total_rounds += int(rows[:, L.M_ROUNDS].sum())
        self.total_turns += int(rows[:, L.M_TURNS].sum())
        self.no_winner_rounds += int(rows[:, L.M_NO_WINNER_ROUNDS].sum())

    @property
    def decided(self) -> int:
        return int(self.wins.sum())


@dataclass
class MatchResult:
    rules: Rules
    bots: list[Bot]
    matches: int
    seed: int
    workers: int
    aggregate: MatchAggregate
    seconds: float

    @property
    def rotate_seats(self) -> bool:
        return self.aggregate.rotate

    def summary(self, variant: str) -> pd.DataFrame:
        return summarize_matches(self.aggregate, variant, [b.label for b in self.bots])


def simulate_matches(
    rules: Rules,
    bots: list[Bot],
    matches: int,
    seed: int,
    workers: int | None = None,
    chunk_size: int = 16384,
    progress: bool = True,
    rotate_seats: bool = False,
) -> MatchResult:
    """Play `matches` matches to `rules.target`; match i is seeded from (seed, i).

    `rotate_seats`: the seating changes every `players` rounds through every seating up to
    rotation and reflection (engine/match.py, player_at); results are per player (bot slot)."""
    from .engine.batch import run_key, start_matches
    from .engine.match import seating_classes

    if matches < 1:
        raise ValueError(f"matches must be at least 1 (got {matches})")
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots for {rules.players} players")
    workers = min(workers or available_threads(), available_threads())
    packed = rules.pack()
    codes, params = pack_bots(bots)
    key = run_key(seed)
    agg = MatchAggregate(players=rules.players, teams=rules.teams, rotate=rotate_seats)
    seatings = seating_classes(rules.players) if rotate_seats else None
    began = time.perf_counter()
    run_chunks(
        matches,
        chunk_size,
        lambda first, n: start_matches(packed, codes, params, key, first, n, seatings, workers=workers),
        lambda first, n, rows: agg.add(rows),
        progress,
        "matches",
    )
    return MatchResult(rules, list(bots), matches, seed, workers, agg, time.perf_counter() - began)


def match_measures(agg: MatchAggregate, bot_labels: list[str]) -> list[stats.Measure]:
    """Every match metric, in report order (names in the module docstring), built by the same
    measure functions as the per-game metrics of a run."""
    n = agg.matches
    out: list[stats.Measure] = []
    for s in range(agg.sides):
        out.append(stats.rate_measure(f"match_win_rate_{agg.side_name}_{s}", int(agg.wins[s]), n))
    if agg.side_name != "team":  # the sides are bot slots
        by_label: dict[str, list[int]] = {}
        for slot, label in enumerate(bot_labels):
            by_label.setdefault(label, []).append(slot)
        for label, slots in by_label.items():
            out.append(stats.rate_measure(f"match_win_rate_bot_{label}", int(agg.wins[slots].sum()), n * len(slots)))
    out.append(stats.rate_measure("undecided_rate", n - agg.decided, n))
    out.append(stats.mean_measure("mean_rounds", agg.rounds))
    out.extend(stats.spread_measures("rounds", agg.rounds))
    if agg.margins.n:
        out.append(stats.mean_measure("mean_margin", agg.margins))
        out.extend(stats.spread_measures("margin", agg.margins, quantiles=("median",)))
    out.append(stats.rate_measure("comeback_rate", agg.comebacks, agg.decided))
    out.append(stats.rate_measure("first_dealer_win_rate", agg.first_dealer_wins, agg.decided))
    ratio = agg.total_turns / agg.total_rounds
    out.append(stats.Measure("mean_turns_per_round", "value", ratio, float("nan"), float("nan")))
    out.append(stats.rate_measure("no_winner_round_rate", agg.no_winner_rounds, agg.total_rounds))
    who = "player" if agg.rotate else "seat"
    for i in range(agg.players):
        out.append(stats.rate_measure(f"round_win_rate_{who}_{i}", int(agg.round_wins[i]), agg.total_rounds))
    return out


def summarize_matches(agg: MatchAggregate, variant: str, bot_labels: list[str]) -> pd.DataFrame:
    """The tidy `match.csv` table (`games` = matches)."""
    return stats.summary_frame(match_measures(agg, bot_labels), variant, agg.matches)
