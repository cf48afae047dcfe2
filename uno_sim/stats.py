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
from scipy import special  # scipy.stats costs ~1 s of start-up; these are its kernels

from .engine import binning
from .engine import layout as L

CONFIDENCE = 0.95
SUMMARY_COLUMNS = ["variant", "metric", "value", "ci_low", "ci_high", "games"]

# Integer columns of the record kept as histograms over all games.
HIST_COLUMNS: dict[str, int] = {
    name: L.RECORD_COLUMN[name]
    for name in ("turns", "plays", "draws", "reshuffles", "max_pending", "challenges", "challenges_won", "jumps",
                 "swaps", "rotations", "uno_caught", "penalty_drawn", "stacks", "sum_jumps", "hand_sum_wins",
                 "wild_swaps", "uno_catchers")
}
_HIST_COLUMN_INDEX = np.array(list(HIST_COLUMNS.values()), dtype=np.int64)

# A histogram wider than this is a bug upstream (values are card or turn counts).
MAX_HIST_RANGE = 1 << 24


def z_value(confidence: float = CONFIDENCE) -> float:
    """Two-sided standard normal quantile, e.g. 1.959963984540054 for 95%."""
    return float(special.ndtri(0.5 + confidence / 2.0))


def normal_sf(z: float) -> float:
    """Upper tail of the standard normal, P(Z > z)."""
    return float(special.ndtr(-z))


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(B <= k), B ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    return 1.0 if k >= n else float(special.bdtr(k, n, p))


def binom_ppf(q: float, n: int, p: float) -> int:
    """Smallest k with P(B <= k) >= q, B ~ Binomial(n, p), for 0 < q < 1 (as scipy.stats.binom.ppf:
    the continuous inverse bdtrik, then one step down when that already reaches q)."""
    k = min(math.ceil(float(special.bdtrik(q, n, p))), n)
    return k - 1 if k >= 1 and binom_cdf(k - 1, n, p) >= q else k


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

    def add_counts(self, low: int, counts: np.ndarray) -> None:
        """Add counts of the values low, low + 1, ... (a histogram binned elsewhere)."""
        if len(counts) == 0:
            return
        self._ensure(low, low + len(counts) - 1)
        start = low - self.offset
        self.counts[start : start + len(counts)] += counts

    def merge(self, other: "IntHistogram") -> None:
        self.add_counts(other.offset, other.counts)

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
        rank = binom_ppf(alpha / 2.0, n, 0.5)
        if rank >= 1 and binom_cdf(rank - 1, n, 0.5) > alpha / 2.0:
            rank -= 1
        if rank < 1:
            return (median, math.nan, math.nan)
        return (median, float(self.order_statistic(rank)), float(self.order_statistic(n + 1 - rank)))

    def quantile_interval(self, q: float, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
        """(X_(k), low, high) for the q-quantile, k = max(1, ceil(q n)) (the inverse of the
        empirical CDF); interval [X_(l), X_(u)] with l, u the alpha/2 and 1 - alpha/2 quantiles
        of Binomial(n, q) (u + 1), the usual distribution-free order-statistic interval;
        NaN where a rank falls outside 1..n."""
        n = self.n
        if n == 0:
            return (math.nan, math.nan, math.nan)
        if not 0.0 < q < 1.0:
            raise ValueError(f"quantile {q} outside (0, 1)")
        k = max(1, math.ceil(q * n - 1e-9))
        value = float(self.order_statistic(k))
        alpha = 1.0 - confidence
        low_rank = binom_ppf(alpha / 2.0, n, q)
        high_rank = binom_ppf(1.0 - alpha / 2.0, n, q) + 1
        if low_rank < 1 or high_rank > n:
            return (value, math.nan, math.nan)
        return (value, float(self.order_statistic(low_rank)), float(self.order_statistic(high_rank)))

    @property
    def maximum(self) -> float:
        nonzero = np.flatnonzero(self.counts)
        return float(self.offset + nonzero[-1]) if len(nonzero) else math.nan

    def variance(self) -> float:
        """Sample variance (n - 1 in the denominator), from exact integer sums."""
        n = self.n
        if n < 2:
            return math.nan
        total, total_sq = self.sums()
        return (n * total_sq - total * total) / (n * (n - 1))

    def items(self) -> list[tuple[int, int]]:
        """(value, count) for every value observed at least once, ascending."""
        nonzero = np.flatnonzero(self.counts)
        return [(int(self.offset + i), int(self.counts[i])) for i in nonzero]


@dataclass
class Aggregate:
    """Everything a summary needs, streamed chunk by chunk from record arrays.

    Memory does not grow with the number of games: counters per seat and reason, and one
    integer histogram per record column (their width is the range of values seen, a few
    hundred to a few thousand bins), so 10^8 games take well under a megabyte.
    """

    players: int
    teams: int = 0
    games: int = 0
    wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    # rotate: seats rotate (--rotate-seats); bot_wins then counts the record's COL_WINNER_BOT
    # (the winner's --bots slot), else it equals wins (slot = seat).
    rotate: bool = False
    bot_wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    reasons: np.ndarray = field(default=None)  # type: ignore[assignment]
    hists: dict[str, IntHistogram] = field(default_factory=dict)
    winner_points: IntHistogram = field(default_factory=IntHistogram)
    loser_points: IntHistogram = field(default_factory=IntHistogram)

    def __post_init__(self) -> None:
        if self.wins is None:
            self.wins = np.zeros(self.players, dtype=np.int64)
        if self.bot_wins is None:
            self.bot_wins = np.zeros(self.players, dtype=np.int64)
        if self.reasons is None:
            self.reasons = np.zeros(len(L.REASONS), dtype=np.int64)
        for name in HIST_COLUMNS:
            self.hists.setdefault(name, IntHistogram())

    def add(self, records: np.ndarray) -> None:
        """Fold in a block of records (int64[n, N_COLS])."""
        records = np.ascontiguousarray(records, dtype=np.int64)
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
        slot = records[:, L.COL_WINNER_BOT] if self.rotate else winner
        self.bot_wins += np.bincount(slot[has_winner], minlength=self.players)[: self.players]
        reason = records[:, L.COL_REASON]
        if reason.min() < 0 or reason.max() >= len(L.REASONS):
            raise ValueError("record reason outside the known reasons")
        self.reasons += np.bincount(reason, minlength=len(L.REASONS))
        lows, highs = binning.column_ranges(records, _HIST_COLUMN_INDEX)
        widths = highs - lows + 1
        starts = np.concatenate(([0], np.cumsum(widths)[:-1]))
        counts = np.zeros(int(widths.sum()), dtype=np.int64)
        binning.count_columns(records, _HIST_COLUMN_INDEX, lows, starts, counts)
        for name, low, high, start in zip(HIST_COLUMNS, lows.tolist(), highs.tolist(), starts.tolist()):
            self.hists[name].add_counts(low, counts[start : start + high - low + 1])
        winner_points, loser_points = binning.round_points(
            records, self.players, self.teams, L.COL_WINNER, L.COL_WINNER_POINTS, L.COL_POINTS
        )
        self.winner_points.add(winner_points)
        self.loser_points.add(loser_points)

    def merge(self, other: "Aggregate") -> None:
        if other.players != self.players or other.teams != self.teams:
            raise ValueError("cannot merge aggregates with different player or team counts")
        if other.rotate != self.rotate:
            raise ValueError("cannot merge aggregates with and without seat rotation")
        self.games += other.games
        self.wins += other.wins
        self.bot_wins += other.bot_wins
        self.reasons += other.reasons
        for name in HIST_COLUMNS:
            self.hists[name].merge(other.hists[name])
        self.winner_points.merge(other.winner_points)
        self.loser_points.merge(other.loser_points)

    @property
    def no_winner(self) -> int:
        return self.games - int(self.wins.sum())

    def distribution(self, quantity: str) -> IntHistogram:
        """The histogram of one per-game quantity (see DISTRIBUTIONS)."""
        if quantity == "winner_points":
            return self.winner_points
        if quantity == "loser_points":
            return self.loser_points
        return self.hists[quantity]


# Quantities written to distributions.csv (one row per observed value).
DISTRIBUTIONS = ("turns", "plays", "draws", "winner_points", "loser_points", "max_pending", "stacks")


# ---------------------------------------------------------------- measures


@dataclass(frozen=True)
class Measure:
    """One metric of one variant with what a comparison test needs.

    kind: "rate" (successes / trials; Wilson), "edge" (rate minus `offset`; Wilson shifted),
    "mean" (n, mean, var; normal approximation), "quantile" (order statistic of `hist`),
    "max" (largest value seen; no interval, no test), "value" (a plain figure, e.g. a ratio
    of totals; no interval, no test).
    """

    name: str
    kind: str
    value: float
    low: float
    high: float
    successes: int = 0
    trials: int = 0
    offset: float = 0.0
    n: int = 0
    var: float = math.nan
    hist: IntHistogram | None = None


def rate_measure(name: str, successes: int, trials: int, confidence: float = CONFIDENCE) -> Measure:
    """A rate successes / trials with its Wilson interval."""
    low, high = wilson_interval(successes, trials, confidence)
    value = successes / trials if trials else math.nan
    return Measure(name, "rate", value, low, high, successes=int(successes), trials=int(trials))


def mean_measure(name: str, hist: IntHistogram, confidence: float = CONFIDENCE) -> Measure:
    """The mean of a histogram with its normal-approximation interval."""
    mean, low, high = hist.mean_interval(confidence)
    return Measure(name, "mean", mean, low, high, n=hist.n, var=hist.variance(), hist=hist)


def spread_measures(prefix: str, hist: IntHistogram, confidence: float = CONFIDENCE,
                    quantiles: tuple = ("median", "p10", "p90", "maximum")) -> list[Measure]:
    """`median_`, `p10_`, `p90_`, `maximum_` + prefix: order statistics with their intervals."""
    out = []
    for which in quantiles:
        name = f"{which}_{prefix}"
        if which == "median":
            out.append(Measure(name, "quantile", *hist.median_interval(confidence), n=hist.n, hist=hist))
        elif which == "maximum":
            out.append(Measure(name, "max", hist.maximum, math.nan, math.nan, n=hist.n, hist=hist))
        else:
            q = int(which[1:]) / 100.0
            out.append(Measure(name, "quantile", *hist.quantile_interval(q, confidence), n=hist.n, hist=hist))
    return out


def measures(
    agg: Aggregate,
    bot_labels: Iterable[str] | None = None,
    teams: int | None = None,
    confidence: float = CONFIDENCE,
) -> list[Measure]:
    """Every metric of one variant, in report order (names: docs/METRICS.md)."""
    n = agg.games
    teams = agg.teams if teams is None else teams
    out: list[Measure] = []

    def rate(name: str, successes: int, trials: int = n) -> None:
        out.append(rate_measure(name, successes, trials, confidence))

    def mean(name: str, quantity: str) -> None:
        out.append(mean_measure(name, agg.distribution(quantity), confidence))

    # Who wins.
    for seat in range(agg.players):
        rate(f"win_rate_seat_{seat}", int(agg.wins[seat]))
    fair = 1.0 / agg.players
    seat0 = rate_measure("first_player_edge", int(agg.wins[0]), n, confidence)
    out.append(Measure("first_player_edge", "edge", seat0.value - fair, seat0.low - fair, seat0.high - fair,
                       successes=seat0.successes, trials=n, offset=fair))
    if bot_labels is not None:
        labels = list(bot_labels)
        if len(labels) != agg.players:
            raise ValueError(f"{len(labels)} bot labels for {agg.players} seats")
        for label in dict.fromkeys(labels):  # first-slot order, each once
            slots = [s for s, other in enumerate(labels) if other == label]
            rate(f"win_rate_bot_{label}", int(agg.bot_wins[slots].sum()))
    if teams:
        for team in range(teams):
            rate(f"win_rate_team_{team}", int(agg.wins[team::teams].sum()))
    rate("no_winner_rate", agg.no_winner)
    for index, reason in enumerate(L.REASONS):
        if reason != "out":
            rate(f"{reason}_rate", int(agg.reasons[index]))
    # How long.
    for quantity in ("turns", "plays", "draws"):
        mean(f"mean_{quantity}", quantity)
        out.extend(spread_measures(quantity, agg.hists[quantity], confidence))
    # Points (games with a winner).
    for quantity in ("winner_points", "loser_points"):
        mean(f"mean_{quantity}", quantity)
        out.extend(spread_measures(quantity, agg.distribution(quantity), confidence))
    # Pile, penalties, stacking.
    h = agg.hists
    rate("reshuffle_rate", h["reshuffles"].count_above(0))
    mean("mean_reshuffles", "reshuffles")
    mean("mean_max_pending", "max_pending")
    out.extend(spread_measures("max_pending", h["max_pending"], confidence, ("median", "p90", "maximum")))
    mean("mean_penalty_drawn", "penalty_drawn")
    rate("stack_rate", h["stacks"].count_above(0))
    mean("mean_stacks", "stacks")
    # Challenges, jump-ins, 7-0, UNO.
    rate("challenge_rate", h["challenges"].count_above(0))
    mean("mean_challenges", "challenges")
    challenges, _ = h["challenges"].sums()
    won, _ = h["challenges_won"].sums()
    rate("challenge_success_rate", won, challenges)
    rate("jump_in_rate", h["jumps"].count_above(0))
    mean("mean_jumps", "jumps")
    rate("swap_rate", h["swaps"].count_above(0))
    mean("mean_swaps", "swaps")
    rate("rotation_rate", h["rotations"].count_above(0))
    mean("mean_rotations", "rotations")
    mean("mean_uno_caught", "uno_caught")
    # The rule sheets' remaining house rules (a sum jump-in is also a jump-in, above).
    rate("sum_jump_rate", h["sum_jumps"].count_above(0))
    mean("mean_sum_jumps", "sum_jumps")
    rate("hand_sum_win_rate", h["hand_sum_wins"].count_above(0))
    rate("wild_swap_rate", h["wild_swaps"].count_above(0))
    mean("mean_uno_catchers", "uno_catchers")
    return out


def _row(variant: str, metric: str, value: float, low: float, high: float, games: int) -> dict:
    return {"variant": variant, "metric": metric, "value": value, "ci_low": low, "ci_high": high, "games": games}


def summarize(
    agg: Aggregate,
    variant: str,
    bot_labels: Iterable[str] | None = None,
    teams: int | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """The tidy summary table of one variant (see the module docstring)."""
    return summary_frame(measures(agg, bot_labels, teams, confidence), variant, agg.games)


def summary_frame(ms: list[Measure], variant: str, games: int) -> pd.DataFrame:
    """The tidy summary rows of a list of measures (`games`: the games or matches behind them)."""
    rows = [_row(variant, m.name, m.value, m.low, m.high, games) for m in ms]
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def distributions_frame(agg: Aggregate, variant: str) -> pd.DataFrame:
    """Tidy histograms: `variant, quantity, value, count, share` (observed values only;
    share = count / games observed for that quantity)."""
    rows = []
    for quantity in DISTRIBUTIONS:
        hist = agg.distribution(quantity)
        total = hist.n
        for value, count in hist.items():
            rows.append({"variant": variant, "quantity": quantity, "value": value, "count": count,
                         "share": count / total})
    return pd.DataFrame(rows, columns=DISTRIBUTION_COLUMNS)


DISTRIBUTION_COLUMNS = ["variant", "quantity", "value", "count", "share"]


# ---------------------------------------------------------------- tests and differences


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """Pooled two-proportion z test of p1 = p2: (z of p2 - p1, two-sided p-value).
    NaN, NaN when a sample is empty or the pooled rate is 0 or 1 (no variation to test)."""
    if n1 <= 0 or n2 <= 0:
        return (math.nan, math.nan)
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    if se == 0.0:
        return (math.nan, math.nan)
    z = (x2 / n2 - x1 / n1) / se
    return (z, 2.0 * normal_sf(abs(z)))


def newcombe_interval(x1: int, n1: int, x2: int, n2: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Interval for p2 - p1 from the two Wilson intervals (Newcombe 1998, method 10)."""
    if n1 <= 0 or n2 <= 0:
        return (math.nan, math.nan)
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, confidence)
    l2, u2 = wilson_interval(x2, n2, confidence)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def welch_t(n1: int, mean1: float, var1: float, n2: int, mean2: float, var2: float,
            confidence: float = CONFIDENCE) -> tuple[float, float, float, float, float]:
    """Welch's unequal-variance t test of mean2 - mean1:
    (t, degrees of freedom (Welch-Satterthwaite), two-sided p, CI low, CI high).
    NaN everywhere when a sample has fewer than 2 values or both variances are 0."""
    nan5 = (math.nan,) * 5
    if n1 < 2 or n2 < 2:
        return nan5
    a, b = var1 / n1, var2 / n2
    se = math.sqrt(a + b)
    if not se > 0.0:
        return nan5
    df = (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
    diff = mean2 - mean1
    t = diff / se
    p = float(2.0 * special.stdtr(df, -abs(t)))
    half = float(special.stdtrit(df, 0.5 + confidence / 2.0)) * se
    return (t, df, p, diff - half, diff + half)


def mann_whitney(h1: IntHistogram, h2: IntHistogram) -> tuple[float, float]:
    """Mann-Whitney U test on two integer histograms (ties in the same bin = equal values):
    (U of sample 2 against sample 1, two-sided p-value), normal approximation with the tie
    correction and a continuity correction (as scipy.stats.mannwhitneyu, method asymptotic).
    NaN, NaN when a sample is empty or every value is the same."""
    n1, n2 = h1.n, h2.n
    if n1 == 0 or n2 == 0:
        return (math.nan, math.nan)
    low = min(h1.offset, h2.offset)
    high = max(h1.offset + len(h1.counts), h2.offset + len(h2.counts))
    c1 = np.zeros(high - low, dtype=np.float64)
    c2 = np.zeros(high - low, dtype=np.float64)
    c1[h1.offset - low : h1.offset - low + len(h1.counts)] = h1.counts
    c2[h2.offset - low : h2.offset - low + len(h2.counts)] = h2.counts
    below1 = np.cumsum(c1) - c1  # sample-1 values strictly below each bin
    u2 = float(np.sum(c2 * (below1 + 0.5 * c1)))
    n = n1 + n2
    ties = c1 + c2
    tie_term = float(np.sum(ties**3 - ties)) / (n * (n - 1))
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term)
    if not var > 0.0:
        return (u2, math.nan)
    mu = n1 * n2 / 2.0
    z = (abs(u2 - mu) - 0.5) / math.sqrt(var)
    return (u2, min(1.0, 2.0 * normal_sf(max(z, 0.0))))


TESTS = {
    "rate": "two-proportion z",
    "edge": "two-proportion z",
    "mean": "Welch t",
    "quantile": "Mann-Whitney U",
    "max": "",
    "value": "",
}
DIFFERENCE_COLUMNS = [
    "variant", "baseline", "metric", "diff", "diff_ci_low", "diff_ci_high", "p_value", "test", "significant",
]
SIGNIFICANCE = 0.05


def difference(base: Measure, other: Measure, confidence: float = CONFIDENCE) -> dict:
    """other - base for one metric: diff, its interval, p-value and the test used."""
    if base.kind != other.kind:
        raise ValueError(f"metric {base.name}: kinds differ ({base.kind}, {other.kind})")
    diff = other.value - base.value
    low = high = p = math.nan
    kind = base.kind
    if kind in ("rate", "edge"):
        low, high = newcombe_interval(base.successes, base.trials, other.successes, other.trials, confidence)
        shift = other.offset - base.offset  # edges: (p2 - 1/n2) - (p1 - 1/n1)
        low, high = low - shift, high - shift
        if shift == 0.0:
            _, p = two_proportion_z(base.successes, base.trials, other.successes, other.trials)
        elif base.trials > 0 and other.trials > 0:  # unpooled z of H0: edges equal
            p1, p2 = base.successes / base.trials, other.successes / other.trials
            se = math.sqrt(p1 * (1 - p1) / base.trials + p2 * (1 - p2) / other.trials)
            if se > 0:
                p = 2.0 * normal_sf(abs(diff) / se)
    elif kind == "mean":
        _, _, p, low, high = welch_t(base.n, base.value, base.var, other.n, other.value, other.var, confidence)
    elif kind == "quantile" and base.hist is not None and other.hist is not None:
        _, p = mann_whitney(base.hist, other.hist)
    return {
        "diff": diff,
        "diff_ci_low": low,
        "diff_ci_high": high,
        "p_value": p,
        "test": TESTS[kind],
        "significant": bool(p == p and p < SIGNIFICANCE),
    }


def differences(variants: list[tuple[str, list[Measure]]], confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Every variant after the first against the first, metric by metric (metrics present in
    both only; e.g. seat 5 exists only with 6+ players)."""
    (base_name, base), *others = variants
    by_name = {m.name: m for m in base}
    rows = []
    for name, ms in others:
        for m in ms:
            ref = by_name.get(m.name)
            if ref is None:
                continue
            rows.append({"variant": name, "baseline": base_name, "metric": m.name} | difference(ref, m, confidence))
    return pd.DataFrame(rows, columns=DIFFERENCE_COLUMNS)


def stars(p: float) -> str:
    """Significance marker: *** p < 0.001, ** p < 0.01, * p < 0.05, blank otherwise."""
    if p != p:
        return ""
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def metric(frame: pd.DataFrame, name: str) -> pd.Series:
    """The row of one metric (first variant) as a Series: value, ci_low, ci_high, games."""
    hit = frame.loc[frame["metric"] == name]
    if hit.empty:
        raise KeyError(name)
    return hit.iloc[0]


def write_csv(frame: pd.DataFrame, path) -> None:
    """Write a tidy table; floats with 12 significant digits, so equal inputs give equal bytes."""
    frame.to_csv(path, index=False, float_format="%.12g", lineterminator="\n")
