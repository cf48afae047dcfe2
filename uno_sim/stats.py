"""Streaming aggregation of per-game records and the tidy summary table.

The aggregator keeps integer counters and integer histograms only, never the rows, so a run
of 10^8 games needs a few kilobytes. Everything it holds is an exact integer, so the summary
is the same whatever the chunking, thread count or merge order.

Summary table (`summary.csv`): one row per metric, columns
`variant, metric, value, ci_low, ci_high, games`, where `games` is the number of games
simulated for the variant. Intervals are 95%:
- rates: Wilson score interval;
- means: normal approximation, mean +- z * s / sqrt(n), s the sample standard deviation;
- medians: exact from the histogram; interval from binomial order statistics
  (distribution-free, coverage >= 95%; NaN when fewer than 6 games).
See docs/METRICS.md for every metric.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
import pandas as pd
from scipy.stats import binom, norm

from .engine import layout as L

CONFIDENCE = 0.95
SUMMARY_COLUMNS = ["variant", "metric", "value", "ci_low", "ci_high", "games"]

# Integer columns of the record kept as histograms over all games.
HIST_COLUMNS: dict[str, int] = {
    "turns": L.COL_TURNS,
    "plays": L.COL_PLAYS,
    "draws": L.COL_DRAWS,
    "reshuffles": L.COL_RESHUFFLES,
    "max_pending": L.COL_MAX_PENDING,
    "challenges": L.COL_CHALLENGES,
}

# A histogram wider than this is a bug upstream (values are card or turn counts).
MAX_HIST_RANGE = 1 << 24


def z_value(confidence: float = CONFIDENCE) -> float:
    """Two-sided standard normal quantile, e.g. 1.959963984540054 for 95%."""
    return float(norm.ppf(0.5 + confidence / 2.0))


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion successes / n (NaN, NaN when n = 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    z = z_value(confidence)
    p = successes / n
    z2n = z * z / n
    denom = 1.0 + z2n
    center = (p + z2n / 2.0) / denom
    half = (z / denom) * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n))
    low = 0.0 if successes == 0 else max(0.0, center - half)
    high = 1.0 if successes == n else min(1.0, center + half)
    return (low, high)


def mean_interval(n: int, total: int | float, total_sq: int | float, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(mean, low, high) from the count, sum and sum of squares; normal approximation."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    if n < 2:
        return (mean, math.nan, math.nan)
    if isinstance(total, int) and isinstance(total_sq, int):
        var = (n * total_sq - total * total) / (n * (n - 1))  # exact integer numerator
    else:
        var = (total_sq - total * total / n) / (n - 1)
    half = z_value(confidence) * math.sqrt(max(var, 0.0) / n)
    return (mean, mean - half, mean + half)


class IntHistogram:
    """Counts of integer values, growing as needed in both directions; exact sums."""

    def __init__(self) -> None:
        self.offset = 0  # value of counts[0]
        self.counts = np.zeros(0, dtype=np.int64)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def _values(self) -> np.ndarray:
        return np.arange(self.offset, self.offset + len(self.counts), dtype=np.int64)

    def _ensure(self, low: int, high: int) -> None:
        if len(self.counts) == 0:
            if high - low >= MAX_HIST_RANGE:
                raise ValueError(f"histogram range {low}..{high} is implausibly wide")
            self.offset = low
            self.counts = np.zeros(high - low + 1, dtype=np.int64)
            return
        cur_low, cur_high = self.offset, self.offset + len(self.counts) - 1
        new_low, new_high = min(low, cur_low), max(high, cur_high)
        if (new_low, new_high) == (cur_low, cur_high):
            return
        if new_high - new_low >= MAX_HIST_RANGE:
            raise ValueError(f"histogram range {new_low}..{new_high} is implausibly wide")
        grown = np.zeros(new_high - new_low + 1, dtype=np.int64)
        grown[cur_low - new_low : cur_low - new_low + len(self.counts)] = self.counts
        self.offset, self.counts = new_low, grown

    def add(self, values: np.ndarray) -> None:
        values = np.asarray(values, dtype=np.int64)
        if values.size == 0:
            return
        low, high = int(values.min()), int(values.max())
        self._ensure(low, high)
        start = low - self.offset
        binned = np.bincount(values - low, minlength=high - low + 1)
        self.counts[start : start + len(binned)] += binned

    def merge(self, other: "IntHistogram") -> None:
        if len(other.counts) == 0:
            return
        self._ensure(other.offset, other.offset + len(other.counts) - 1)
        start = other.offset - self.offset
        self.counts[start : start + len(other.counts)] += other.counts

    def count(self, value: int) -> int:
        i = value - self.offset
        return int(self.counts[i]) if 0 <= i < len(self.counts) else 0

    def count_above(self, value: int) -> int:
        """Number of observations strictly greater than value."""
        i = max(value + 1 - self.offset, 0)
        return int(self.counts[i:].sum())

    def sums(self) -> tuple[int, int]:
        """(sum, sum of squares) as exact Python ints."""
        values = [int(v) for v in self._values()]
        counts = [int(c) for c in self.counts]
        total = sum(v * c for v, c in zip(values, counts))
        total_sq = sum(v * v * c for v, c in zip(values, counts))
        return total, total_sq

    def order_statistic(self, rank: int) -> int:
        """The rank-th smallest observation, rank 1-based."""
        n = self.n
        if not 1 <= rank <= n:
            raise ValueError(f"rank {rank} outside 1..{n}")
        cumulative = np.cumsum(self.counts)
        return int(self.offset + np.searchsorted(cumulative, rank, side="left"))

    def mean_interval(self, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
        total, total_sq = self.sums()
        return mean_interval(self.n, total, total_sq, confidence)

    def median_interval(self, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
        """(median, low, high): exact median; order-statistic interval with coverage >= confidence."""
        n = self.n
        if n == 0:
            return (math.nan, math.nan, math.nan)
        if n % 2:
            median = float(self.order_statistic((n + 1) // 2))
        else:
            median = (self.order_statistic(n // 2) + self.order_statistic(n // 2 + 1)) / 2.0
        # Largest l with P(B <= l - 1) <= alpha/2, B ~ Binomial(n, 1/2): [X_(l), X_(n+1-l)].
        alpha = 1.0 - confidence
        rank = int(binom.ppf(alpha / 2.0, n, 0.5))
        if rank >= 1 and binom.cdf(rank - 1, n, 0.5) > alpha / 2.0:
            rank -= 1
        if rank < 1:
            return (median, math.nan, math.nan)
        return (median, float(self.order_statistic(rank)), float(self.order_statistic(n + 1 - rank)))


@dataclass
class Aggregate:
    """Everything a summary needs, streamed chunk by chunk from record arrays."""

    players: int
    games: int = 0
    wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    reasons: np.ndarray = field(default=None)  # type: ignore[assignment]
    hists: dict[str, IntHistogram] = field(default_factory=dict)
    winner_points: IntHistogram = field(default_factory=IntHistogram)

    def __post_init__(self) -> None:
        if self.wins is None:
            self.wins = np.zeros(self.players, dtype=np.int64)
        if self.reasons is None:
            self.reasons = np.zeros(len(L.REASONS), dtype=np.int64)
        for name in HIST_COLUMNS:
            self.hists.setdefault(name, IntHistogram())

    def add(self, records: np.ndarray) -> None:
        """Fold in a block of records (int64[n, N_COLS])."""
        records = np.asarray(records)
        if records.ndim != 2 or records.shape[1] != L.N_COLS:
            raise ValueError(f"records must have shape (n, {L.N_COLS}), got {records.shape}")
        if len(records) == 0:
            return
        winner = records[:, L.COL_WINNER]
        if winner.min() < -1 or winner.max() >= self.players:
            raise ValueError("record winner outside -1..players-1")
        has_winner = winner >= 0
        self.games += len(records)
        self.wins += np.bincount(winner[has_winner], minlength=self.players)[: self.players]
        reason = records[:, L.COL_REASON]
        if reason.min() < 0 or reason.max() >= len(L.REASONS):
            raise ValueError("record reason outside the known reasons")
        self.reasons += np.bincount(reason, minlength=len(L.REASONS))
        for name, column in HIST_COLUMNS.items():
            self.hists[name].add(records[:, column])
        self.winner_points.add(records[has_winner, L.COL_WINNER_POINTS])

    def merge(self, other: "Aggregate") -> None:
        if other.players != self.players:
            raise ValueError("cannot merge aggregates with different player counts")
        self.games += other.games
        self.wins += other.wins
        self.reasons += other.reasons
        for name in HIST_COLUMNS:
            self.hists[name].merge(other.hists[name])
        self.winner_points.merge(other.winner_points)

    @property
    def no_winner(self) -> int:
        return self.games - int(self.wins.sum())


def _row(variant: str, metric: str, value: float, low: float, high: float, games: int) -> dict:
    return {"variant": variant, "metric": metric, "value": value, "ci_low": low, "ci_high": high, "games": games}


def summarize(
    agg: Aggregate,
    variant: str,
    bot_labels: Iterable[str] | None = None,
    teams: int = 0,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """The tidy summary table of one variant (see the module docstring)."""
    n = agg.games
    rows: list[dict] = []

    def rate(metric: str, successes: int) -> None:
        low, high = wilson_interval(successes, n, confidence)
        rows.append(_row(variant, metric, successes / n if n else math.nan, low, high, n))

    def triple(metric: str, values: tuple[float, float, float]) -> None:
        rows.append(_row(variant, metric, *values, n))

    for seat in range(agg.players):
        rate(f"win_rate_seat_{seat}", int(agg.wins[seat]))
    if bot_labels is not None:
        labels = list(bot_labels)
        if len(labels) != agg.players:
            raise ValueError(f"{len(labels)} bot labels for {agg.players} seats")
        for label in dict.fromkeys(labels):  # first-seat order, each once
            seats = [s for s, other in enumerate(labels) if other == label]
            rate(f"win_rate_bot_{label}", int(agg.wins[seats].sum()))
    if teams:
        for team in range(teams):
            rate(f"win_rate_team_{team}", int(agg.wins[team::teams].sum()))
    rate("no_winner_rate", agg.no_winner)
    for index, reason in enumerate(L.REASONS):
        if reason != "out":
            rate(f"{reason}_rate", int(agg.reasons[index]))
    turns = agg.hists["turns"]
    triple("mean_turns", turns.mean_interval(confidence))
    triple("median_turns", turns.median_interval(confidence))
    triple("mean_plays", agg.hists["plays"].mean_interval(confidence))
    triple("mean_draws", agg.hists["draws"].mean_interval(confidence))
    triple("mean_winner_points", agg.winner_points.mean_interval(confidence))
    triple("median_winner_points", agg.winner_points.median_interval(confidence))
    rate("reshuffle_rate", agg.hists["reshuffles"].count_above(0))
    triple("mean_reshuffles", agg.hists["reshuffles"].mean_interval(confidence))
    triple("mean_max_pending", agg.hists["max_pending"].mean_interval(confidence))
    rate("challenge_rate", agg.hists["challenges"].count_above(0))
    triple("mean_challenges", agg.hists["challenges"].mean_interval(confidence))
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def metric(frame: pd.DataFrame, name: str) -> pd.Series:
    """The row of one metric (first variant) as a Series: value, ci_low, ci_high, games."""
    hit = frame.loc[frame["metric"] == name]
    if hit.empty:
        raise KeyError(name)
    return hit.iloc[0]


def write_csv(frame: pd.DataFrame, path) -> None:
    """Write a tidy table; floats with 12 significant digits, so equal inputs give equal bytes."""
    frame.to_csv(path, index=False, float_format="%.12g", lineterminator="\n")
