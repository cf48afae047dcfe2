"""Matches to a target (SPEC 5): orchestration, streaming aggregation and the tidy summary.

The rounds of a match are played inside the engine (engine/match.py); this module runs
matches in chunks, keeps counters and histograms (never the rows), and builds the tidy
`match.csv` table: `variant, metric, value, ci_low, ci_high, games` where `games` is the
number of matches. Metric names: `match_win_rate_seat_{i}` (or `match_win_rate_team_{k}`),
`match_win_rate_bot_{label}`, `undecided_rate`, `mean_rounds`, `median_rounds`,
`p10_rounds`, `p90_rounds`, `max_rounds`, `mean_margin`, `median_margin`, `comeback_rate`,
`first_dealer_win_rate`, `mean_turns_per_round`, `no_winner_round_rate`,
`round_win_rate_seat_{i}`.
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
from .simulate import _Chunker, _Progress, available_threads


@dataclass
class MatchAggregate:
    players: int
    sides: int
    matches: int = 0
    wins: np.ndarray = field(default=None)  # per side; undecided matches count nowhere
    round_wins: np.ndarray = field(default=None)  # per seat
    first_dealer_wins: int = 0
    comebacks: int = 0
    rounds: stats.IntHistogram = field(default_factory=stats.IntHistogram)
    margins: stats.IntHistogram = field(default_factory=stats.IntHistogram)
    total_rounds: int = 0
    total_turns: int = 0
    total_turns_sq: float = 0.0
    no_winner_rounds: int = 0

    def __post_init__(self) -> None:
        self.wins = np.zeros(self.sides, dtype=np.int64)
        self.round_wins = np.zeros(self.players, dtype=np.int64)

    def add(self, rows: np.ndarray, teams: int) -> None:
        self.matches += len(rows)
        winners = rows[:, L.M_WINNER]
        decided = winners >= 0
        self.wins += np.bincount(winners[decided], minlength=self.sides)[: self.sides]
        self.round_wins += rows[:, L.M_ROUND_WINS : L.M_ROUND_WINS + self.players].sum(axis=0)
        dealer_side = rows[:, L.M_FIRST_DEALER] if teams == 0 else rows[:, L.M_FIRST_DEALER] % teams
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

    def summary(self, variant: str) -> pd.DataFrame:
        return summarize_matches(self.aggregate, variant, [b.label for b in self.bots], self.rules.teams)


def simulate_matches(
    rules: Rules,
    bots: list[Bot],
    matches: int,
    seed: int,
    workers: int | None = None,
    chunk_size: int = 16384,
    progress: bool = True,
) -> MatchResult:
    """Play `matches` matches to `rules.target`; match i is seeded from (seed, i)."""
    import numba

    from .engine.batch import run_key, run_matches

    if matches < 1:
        raise ValueError(f"matches must be at least 1 (got {matches})")
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots for {rules.players} players")
    workers = min(workers or available_threads(), available_threads())
    numba.set_num_threads(workers)
    ri, rf = rules.pack()
    codes, params = pack_bots(bots)
    key = run_key(seed)
    sides = rules.teams or rules.players
    agg = MatchAggregate(players=rules.players, sides=sides)
    bar = _Progress(matches, progress, "matches")
    began = time.perf_counter()
    try:
        chunks = _Chunker(matches, chunk_size)
        while chunks.done < matches:
            start, n = chunks.done, chunks.next_size()
            t0 = time.perf_counter()
            agg.add(run_matches(ri, rf, codes, params, key, start, n), rules.teams)
            chunks.record(n, time.perf_counter() - t0)
            bar.update(chunks.done, chunks.seconds_left())
    finally:
        bar.close()
    return MatchResult(rules, list(bots), matches, seed, workers, agg, time.perf_counter() - began)


def summarize_matches(agg: MatchAggregate, variant: str, bot_labels: list[str], teams: int = 0) -> pd.DataFrame:
    n = agg.matches
    rows = []

    def add(metric: str, value: float, low: float, high: float) -> None:
        rows.append({"variant": variant, "metric": metric, "value": value, "ci_low": low, "ci_high": high, "games": n})

    def rate(metric: str, successes: int, trials: int) -> None:
        low, high = stats.wilson_interval(successes, trials)
        add(metric, successes / trials if trials else float("nan"), low, high)

    side_name = "team" if teams else "seat"
    for s in range(agg.sides):
        rate(f"match_win_rate_{side_name}_{s}", int(agg.wins[s]), n)
    if not teams:
        by_label: dict[str, list[int]] = {}
        for seat, label in enumerate(bot_labels):
            by_label.setdefault(label, []).append(seat)
        for label, seats in by_label.items():
            rate(f"match_win_rate_bot_{label}", int(agg.wins[seats].sum()), n * len(seats))
    rate("undecided_rate", n - agg.decided, n)
    mean, low, high = agg.rounds.mean_interval()
    add("mean_rounds", mean, low, high)
    for name, q in (("median", 0.5), ("p10", 0.1), ("p90", 0.9)):
        value, low, high = agg.rounds.quantile_interval(q)
        add(f"{name}_rounds", value, low, high)
    add("max_rounds", agg.rounds.maximum, float("nan"), float("nan"))
    if agg.margins.n:
        mean, low, high = agg.margins.mean_interval()
        add("mean_margin", mean, low, high)
        value, low, high = agg.margins.median_interval()
        add("median_margin", value, low, high)
    rate("comeback_rate", agg.comebacks, agg.decided)
    rate("first_dealer_win_rate", agg.first_dealer_wins, agg.decided)
    add("mean_turns_per_round", agg.total_turns / agg.total_rounds, float("nan"), float("nan"))
    rate("no_winner_round_rate", agg.no_winner_rounds, agg.total_rounds)
    for seat in range(agg.players):
        rate(f"round_win_rate_seat_{seat}", int(agg.round_wins[seat]), agg.total_rounds)
    return pd.DataFrame(rows, columns=stats.SUMMARY_COLUMNS)
