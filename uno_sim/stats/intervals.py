"""Confidence intervals: Wilson for rates, the normal approximation for means, binomial order
statistics for quantiles (their kernels), Newcombe for a difference of rates. 95% by default.

scipy.special, not scipy.stats: scipy.stats costs about a second of start-up; and scipy.special
only inside the functions that evaluate a distribution, so that importing the statistics (as a
run does before it plays) does not load scipy.
"""

from __future__ import annotations

import math

CONFIDENCE = 0.95


def z_value(confidence: float = CONFIDENCE) -> float:
    """Two-sided standard normal quantile, e.g. 1.959963984540054 for 95%."""
    from scipy import special

    return float(special.ndtri(0.5 + confidence / 2.0))


def normal_sf(z: float) -> float:
    """Upper tail of the standard normal, P(Z > z)."""
    from scipy import special

    return float(special.ndtr(-z))


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(B <= k), B ~ Binomial(n, p)."""
    from scipy import special

    if k < 0:
        return 0.0
    return 1.0 if k >= n else float(special.bdtr(k, n, p))


def binom_ppf(q: float, n: int, p: float) -> int:
    """Smallest k with P(B <= k) >= q, B ~ Binomial(n, p), for 0 < q < 1 (as scipy.stats.binom.ppf:
    the continuous inverse bdtrik, then one step down when that already reaches q)."""
    from scipy import special

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


def newcombe_interval(x1: int, n1: int, x2: int, n2: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Interval for p2 - p1 from the two Wilson intervals (Newcombe 1998, method 10)."""
    if n1 <= 0 or n2 <= 0:
        return (math.nan, math.nan)
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, confidence)
    l2, u2 = wilson_interval(x2, n2, confidence)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))
