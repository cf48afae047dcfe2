"""Integer histograms with exact sums: the only per-game state a run keeps."""

from __future__ import annotations

import math

import numpy as np

from .intervals import CONFIDENCE, binom_cdf, binom_ppf, mean_interval

# A histogram wider than this is a bug upstream (values are card or turn counts).
MAX_HIST_RANGE = 1 << 24


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
