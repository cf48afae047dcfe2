"""Differences between variants: each metric of a variant minus the baseline's, with its
interval, a p-value and the test used (two-proportion z for rates, Welch's t for means).

A p-value belongs to the row whose question its test answers, and each test is one member of
Holm's family. Medians, percentiles and maxima get none: the Mann-Whitney U test (kept here,
`mann_whitney`) asks whether a whole distribution shifted, not whether its 10th percentile
did, so attached to those rows it marked "+0.00 ***" and was counted three times; the shift
of a distribution is the mean row's question (Welch's t)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .histogram import IntHistogram
from .intervals import CONFIDENCE, newcombe_interval, normal_sf
from .measures import Measure

if TYPE_CHECKING:  # pandas (and scipy) only where used: importing the statistics loads neither
    import pandas as pd

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
    from scipy import special

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
    "quantile": "",  # an order statistic: difference only (see the module's docstring)
    "max": "",
    "value": "",
}
DIFFERENCE_COLUMNS = [
    "variant", "baseline", "metric", "diff", "diff_ci_low", "diff_ci_high", "p_value", "p_adjusted", "test",
    "significant", "pooled_sd",
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
    return {
        "diff": diff,
        "diff_ci_low": low,
        "diff_ci_high": high,
        "p_value": p,
        "p_adjusted": p,  # until holm() sees the whole family (differences())
        "test": TESTS[kind],
        "significant": bool(p == p and p < SIGNIFICANCE),
        "pooled_sd": pooled_sd(base, other),
    }


def per_game_variance(m: Measure) -> float:
    """The variance of the per-game values behind a measure: p (1 - p) for a rate (an edge:
    of the seat's rate), the sample variance for a mean or an order statistic; NaN else."""
    if m.kind in ("rate", "edge"):
        if m.trials <= 0:
            return math.nan
        p = m.successes / m.trials
        return p * (1.0 - p)
    if m.kind == "mean":
        return m.var
    if m.kind == "quantile" and m.hist is not None:
        return m.hist.variance()
    return math.nan


def pooled_sd(base: Measure, other: Measure) -> float:
    """sqrt of the mean of the two per-game variances: the scale of a standardised difference
    (diff / pooled_sd, Cohen's d); NaN when there is no variation to scale by."""
    v = (per_game_variance(base) + per_game_variance(other)) / 2.0
    return math.sqrt(v) if v > 0 else math.nan


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
    return finish_family(rows)


def finish_family(rows: list[dict]) -> pd.DataFrame:
    """The differences frame of these rows with Holm's correction over the family (a test
    repeated by its twin row counted once) and `significant` from the adjusted p-values."""
    import pandas as pd

    frame = pd.DataFrame(rows, columns=DIFFERENCE_COLUMNS)
    twins = same_test_rows(frame)
    family = frame["p_value"].to_numpy(dtype=float).copy()
    family[list(twins)] = np.nan  # a twin's test is already in the family once
    frame["p_adjusted"] = holm(family)
    for row, twin in twins.items():
        frame.loc[row, "p_adjusted"] = frame.loc[twin, "p_adjusted"]
    frame["significant"] = frame["p_adjusted"] < SIGNIFICANCE  # NaN compares False
    return frame


# metric -> the metric whose test is the very same one when the variants have the same player
# count: the first player's edge is seat 0's win rate minus 1/n, so with equal n both rows ask
# one question and give one p-value (docs/METRICS.md)
SAME_TEST = {"win_rate_seat_0": "first_player_edge"}


def same_test_rows(frame: pd.DataFrame) -> dict[int, int]:
    """{row: twin row} of the differences whose test repeats another row's (SAME_TEST, same
    variant, equal p-values, so equal player counts); Holm counts the pair once and the
    row takes its twin's adjusted p-value."""
    index = {(v, m): i for i, (v, m) in enumerate(zip(frame["variant"], frame["metric"]))}
    twins = {}
    for (variant, metric), i in index.items():
        j = index.get((variant, SAME_TEST.get(metric)))
        if j is None:
            continue
        p, q = frame.at[i, "p_value"], frame.at[j, "p_value"]
        if p == p and q == q and math.isclose(p, q, rel_tol=1e-9, abs_tol=1e-300):
            twins[i] = j
    return twins


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (NaN entries are not tests: they
    stay NaN and do not count): the i-th smallest of m becomes max over j <= i of
    min(1, (m - j + 1) p_(j)). Rejecting where the adjusted value is below alpha keeps the
    chance of any false rejection in the family below alpha (Holm 1979)."""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    m = len(tested)
    if m == 0:
        return out
    order = tested[np.argsort(p[tested], kind="stable")]
    scaled = (m - np.arange(m)) * p[order]
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out


def stars(p: float) -> str:
    """Significance marker: *** p < 0.001, ** p < 0.01, * p < 0.05, blank otherwise."""
    if p != p:
        return ""
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""
