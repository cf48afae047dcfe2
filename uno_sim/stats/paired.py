"""Paired differences: the same deals played under two rule sets, analysed pair by pair.

A comparison plays game i of every variant on the same deal (same seed, same game index),
so the two results of a deal are correlated (the same seat often wins both, a long game
stays long). Analysing the per-game differences removes the deal's share of the variance:
the intervals narrow and the tests gain power, at no cost in games.

What is kept is mergeable and exact, so the analysis is the same whatever the chunking,
thread count, cluster or checkpoint: for each variant the sums over games of a few dozen
per-game quantities `x` (`quantity_names`), of their products `x xᵀ`, and of their products
with the baseline's quantities of the same game `x bᵀ` (`CrossMoments`), all as int64.

Every paired metric is a ratio of totals R = Σy / Σw with y and w linear in x (w = 1 for a
plain rate or mean; w = games with a winner for mean_winner_points, ...), declared on the
metric's `Measure.per_game`. Its difference D = R_v - R_b has the per-game influence
d_i = (y_v,i - R_v w_v,i)/w̄_v - (y_b,i - R_b w_b,i)/w̄_b, whose variance the moments give
exactly; for a plain mean this is the variance of the per-game differences.

Tests and intervals, named in the `test` column:
- rates (0/1 per game): Newcombe's hybrid score interval for paired proportions (Newcombe
  1998, method 10: the two Wilson intervals combined with the pairs' correlation phi) and
  McNemar's exact test (the discordant pairs, binomial with p = 1/2);
- edges (a rate minus 1/players) with different player counts: the same interval shifted, and
  a paired z test of the edges' difference;
- means: the paired t interval and test of the per-game differences;
- ratios of totals (mean_winner_points, mean_loser_points, challenge_success_rate): a paired
  z (delta method, the influence above).

To use elsewhere (any runs on the same seed and game indices, e.g. grid points raced on
shared deals): fold each chunk's record rows of every run, baseline first, into a
`PairedAggregate` (`add`, `merge`), then `paired_differences` for the tidy frame, or
`paired_difference` for one metric of one run against the baseline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..engine import layout as L
from .aggregate import HIST_COLUMNS, Aggregate
from .intervals import CONFIDENCE, binom_cdf, normal_sf, wilson_interval, z_value
from .measures import Measure
from .significance import SIGNIFICANCE

if TYPE_CHECKING:
    import pandas as pd

PAIRED_TESTS = {
    "rate": "McNemar exact (Newcombe paired interval)",
    "edge": "paired z (Newcombe paired interval)",
    "mean": "paired t",
    "ratio": "paired z (delta method)",
}


def quantity_names(players: int) -> list[str]:
    """The per-game quantities of a game of `players` seats, in column order: `one`, the
    winner's seat and bot slot as indicators, the reason the game ended, every histogram
    column's value and whether it is above 0, the winner's points, the losers' points."""
    names = ["one"]
    names += [f"seat_{s}" for s in range(players)]
    names += [f"slot_{s}" for s in range(players)]
    names += [f"reason_{r}" for r in L.REASONS]
    for column in HIST_COLUMNS:
        names += [column, f"{column}>0"]
    names += ["winner_points", "has_winner", "loser_points", "losers"]
    return names


_HIST_INDEX = np.array(list(HIST_COLUMNS.values()), dtype=np.int64)
_RECORD_COLUMNS = np.array([L.COL_WINNER, L.COL_WINNER_BOT, L.COL_REASON, L.COL_WINNER_POINTS, L.COL_POINTS],
                           dtype=np.int64)


def per_game_quantities(records: np.ndarray, players: int, teams: int, rotate: bool) -> np.ndarray:
    """int64[n, Q]: the quantities of `quantity_names(players)` of every record row (a
    compiled pass: engine/binning.py)."""
    from ..engine import binning  # (numba) here: importing the statistics loads no compiler

    records = np.ascontiguousarray(records, dtype=np.int64)
    out = np.zeros((len(records), len(quantity_names(players))), dtype=np.int64)
    binning.game_quantities(records, players, teams, bool(rotate), len(L.REASONS), _HIST_INDEX, _RECORD_COLUMNS, out)
    return out


def _products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Σ_i a_i b_iᵀ of int64 rows, exactly (a compiled pass: engine/binning.py)."""
    out = np.zeros((a.shape[1], b.shape[1]), dtype=np.int64)
    if len(a) == 0:
        return out
    from ..engine import binning

    columns = np.flatnonzero(b.any(axis=0)).astype(np.int64)
    same = a is b
    binning.add_cross_products(np.ascontiguousarray(a), np.ascontiguousarray(b), columns, same, out)
    if same:  # the upper triangle, mirrored
        out += np.triu(out, 1).T
    return out


@dataclass
class CrossMoments:
    """One variant's per-game quantities summed over games: Σx (`sums`), Σx xᵀ (`gram`) and
    Σx bᵀ with b the baseline's quantities of the same deal (`cross`); exact integers."""

    size: int  # quantities of this variant
    base_size: int  # quantities of the baseline
    games: int = 0
    sums: np.ndarray = field(default=None)  # type: ignore[assignment]
    gram: np.ndarray = field(default=None)  # type: ignore[assignment]
    cross: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.sums is None:
            self.sums = np.zeros(self.size, dtype=np.int64)
        if self.gram is None:
            self.gram = np.zeros((self.size, self.size), dtype=np.int64)
        if self.cross is None:
            self.cross = np.zeros((self.size, self.base_size), dtype=np.int64)

    def add(self, x: np.ndarray, base: np.ndarray) -> None:
        if len(x) != len(base):
            raise ValueError("a variant's and the baseline's games must be the same deals")
        self.games += len(x)
        self.sums += x.sum(axis=0)
        gram = _products(x, x)
        self.gram += gram
        self.cross += gram if x is base else _products(x, base)

    def merge(self, other: "CrossMoments") -> None:
        if (other.size, other.base_size) != (self.size, self.base_size):
            raise ValueError("cannot merge moments of different quantities")
        self.games += other.games
        self.sums += other.sums
        self.gram += other.gram
        self.cross += other.cross


@dataclass
class PairedAggregate:
    """The games of several variants on the same deals: each variant's `Aggregate` (`parts`)
    and its `CrossMoments` with the first (`moments`; the first's own cross is its gram)."""

    parts: list[Aggregate]
    moments: list[CrossMoments] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.moments:
            base = len(quantity_names(self.parts[0].players))
            self.moments = [CrossMoments(len(quantity_names(a.players)), base) for a in self.parts]

    @property
    def games(self) -> int:
        return self.parts[0].games

    def add(self, records: list[np.ndarray]) -> None:
        """Fold in the record rows of the same games under each variant (in `parts` order)."""
        if len(records) != len(self.parts):
            raise ValueError(f"{len(records)} record blocks for {len(self.parts)} variants")
        xs = []
        for agg, rows in zip(self.parts, records):
            agg.add(rows)
            xs.append(per_game_quantities(rows, agg.players, agg.teams, agg.rotate))
        for moments, x in zip(self.moments, xs):
            moments.add(x, xs[0])

    def merge(self, other: "PairedAggregate") -> None:
        if len(other.parts) != len(self.parts):
            raise ValueError("cannot merge paired aggregates of different variant counts")
        for mine, theirs in zip(self.parts, other.parts):
            mine.merge(theirs)
        for mine, theirs in zip(self.moments, other.moments):
            mine.merge(theirs)


# ---------------------------------------------------------------- intervals and tests


def newcombe_paired_interval(both: int, base_only: int, other_only: int, neither: int,
                             confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Interval for p_other - p_base from a paired 2x2 table (games where the event happened
    under both variants, only the baseline, only the other, neither): Newcombe's hybrid score
    interval for paired data (Newcombe 1998, Statistics in Medicine 17: 2635-2650, method
    10), the Wilson intervals of the two rates combined with the pairs' correlation phi
    (a positive one reduced by n/2, as Newcombe corrects it)."""
    n = both + base_only + other_only + neither
    if n <= 0:
        return (math.nan, math.nan)
    x1, x2 = both + base_only, both + other_only
    p1, p2 = x1 / n, x2 / n
    l1, u1 = wilson_interval(x1, n, confidence)
    l2, u2 = wilson_interval(x2, n, confidence)
    margins = float(x1) * (n - x1) * x2 * (n - x2)
    cross = both * neither - base_only * other_only
    if cross > 0:
        cross = max(cross - n / 2.0, 0.0)
    phi = cross / math.sqrt(margins) if margins > 0 else 0.0
    d = p2 - p1
    lower = (p2 - l2) ** 2 - 2.0 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2
    upper = (u2 - p2) ** 2 - 2.0 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2
    return (d - math.sqrt(max(lower, 0.0)), d + math.sqrt(max(upper, 0.0)))


def mcnemar_exact(base_only: int, other_only: int) -> float:
    """McNemar's exact two-sided p-value: under equal rates each discordant pair is equally
    likely to go either way, so the smaller count is Binomial(b + c, 1/2); NaN without
    discordant pairs (nothing to test)."""
    m = base_only + other_only
    if m == 0:
        return math.nan
    return min(1.0, 2.0 * binom_cdf(min(base_only, other_only), m, 0.5))


def _vector(names: list[str], terms) -> np.ndarray:
    index = {name: i for i, name in enumerate(names)}
    out = np.zeros(len(names))
    for name, coef in terms:
        out[index[name]] += coef
    return out


@dataclass(frozen=True)
class _Estimator:
    """A metric of one variant as the ratio Σy / Σw, y = a·x, w = c·x."""

    a: np.ndarray
    c: np.ndarray
    ratio: float  # Σy / Σw
    w_mean: float  # Σw / n

    @property
    def influence(self) -> np.ndarray:
        """e with e·x_i the game's influence on the ratio (delta method)."""
        return (self.a - self.ratio * self.c) / self.w_mean


def _estimator(m: Measure, moments: CrossMoments, players: int) -> _Estimator | None:
    if m.per_game is None or moments.games == 0:
        return None
    names = quantity_names(players)
    numerator, denominator = m.per_game[:2]
    a, c = _vector(names, numerator), _vector(names, denominator)
    total_y, total_w = float(a @ moments.sums), float(c @ moments.sums)
    if total_w <= 0:
        return None
    return _Estimator(a, c, total_y / total_w, total_w / moments.games)


def paired_variance(base: _Estimator, other: _Estimator, base_moments: CrossMoments,
                    moments: CrossMoments) -> float:
    """The sample variance of the per-game influences d_i = e_v·x_v,i - e_b·x_b,i."""
    n = moments.games
    ev, eb = other.influence, base.influence
    gram_v, gram_b = moments.gram.astype(np.float64), base_moments.gram.astype(np.float64)
    square = ev @ gram_v @ ev + eb @ gram_b @ eb - 2.0 * (ev @ moments.cross.astype(np.float64) @ eb)
    mean = (ev @ moments.sums - eb @ base_moments.sums) / n
    return max((square - n * mean * mean) / (n - 1), 0.0) if n > 1 else math.nan


def _table(base: _Estimator, other: _Estimator, base_moments: CrossMoments, moments: CrossMoments):
    """(both, base only, other only, neither) of a 0/1 quantity, or None if it is not 0/1."""
    n = moments.games
    both = int(round(other.a @ moments.cross.astype(np.float64) @ base.a))
    x1, x2 = int(round(base.a @ base_moments.sums)), int(round(other.a @ moments.sums))
    own1 = int(round(base.a @ base_moments.gram.astype(np.float64) @ base.a))
    own2 = int(round(other.a @ moments.gram.astype(np.float64) @ other.a))
    if own1 != x1 or own2 != x2:  # Σy² = Σy holds only for 0/1 values
        return None
    cells = (both, x1 - both, x2 - both, n - x1 - x2 + both)
    return cells if min(cells) >= 0 else None


def paired_difference(base: Measure, other: Measure, base_moments: CrossMoments, moments: CrossMoments,
                      base_players: int, players: int, confidence: float = CONFIDENCE) -> dict | None:
    """other - base for one metric from the pairs of the same deals: diff, its interval,
    p-value and the test used (module docstring), or None when the metric has no paired form
    (order statistics, maxima, plain figures; then the unpaired analysis applies)."""
    eb, ev = _estimator(base, base_moments, base_players), _estimator(other, moments, players)
    if eb is None or ev is None or base.kind != other.kind:
        return None
    n = moments.games
    diff = other.value - base.value
    var = paired_variance(eb, ev, base_moments, moments)
    se = math.sqrt(var / n) if var == var else math.nan
    plain = not eb.c[1:].any() and not ev.c[1:].any()  # w = 1: a per-game rate or mean
    table = _table(eb, ev, base_moments, moments) if plain and base.kind in ("rate", "edge") else None
    low = high = p = math.nan
    if table is not None:
        low, high = newcombe_paired_interval(*table, confidence)
        shift = other.offset - base.offset
        low, high = low - shift, high - shift
        if shift == 0.0:
            test, p = PAIRED_TESTS["rate"], mcnemar_exact(table[1], table[2])
        else:
            test = PAIRED_TESTS["edge"]
            p = 2.0 * normal_sf(abs(diff) / se) if se > 0 else math.nan
    elif se == 0.0:  # the same difference on every deal (often none: a rule that never came up)
        test = PAIRED_TESTS["mean" if plain and base.kind == "mean" else "ratio"]
        low = high = diff
        p = math.nan if diff == 0 else 0.0
    elif plain and base.kind == "mean":
        test = PAIRED_TESTS["mean"]
        if se > 0 and n > 1:
            from scipy import special  # here only: importing this module loads no scipy

            t = float(special.stdtrit(n - 1, 0.5 + confidence / 2.0))
            low, high = diff - t * se, diff + t * se
            p = float(2.0 * special.stdtr(n - 1, -abs(diff) / se))
    else:
        test = PAIRED_TESTS["ratio"]
        if se > 0:
            z = z_value(confidence)
            low, high = diff - z * se, diff + z * se
            p = 2.0 * normal_sf(abs(diff) / se)
    return {"diff": diff, "diff_ci_low": low, "diff_ci_high": high, "p_value": p, "p_adjusted": p, "test": test,
            "significant": bool(p == p and p < SIGNIFICANCE), "paired_sd": math.sqrt(var) if var == var else math.nan}


def source(m: Measure) -> str:
    """Which games a measure's per-game form is about: "games" (the variant's own) or
    "skill" (its skill games, the skill_index)."""
    return m.per_game[2] if m.per_game is not None and len(m.per_game) > 2 else "games"


def paired_differences(variants: list[tuple[str, list[Measure]]], pairings: dict[str, PairedAggregate],
                       confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Every variant after the first against the first, metric by metric, as
    significance.differences but paired wherever the metric has a paired form (the `test`
    column names each row's method); Holm's correction over the whole family as there.
    `pairings`: the paired aggregates by source ("games", and "skill" when the skill games
    were played), their parts in the order of `variants`."""
    from .significance import difference, finish_family

    (base_name, base), *others = variants
    by_name = {m.name: m for m in base}
    rows = []
    for v, (name, ms) in enumerate(others, start=1):
        for m in ms:
            ref = by_name.get(m.name)
            if ref is None:
                continue
            row = difference(ref, m, confidence)
            pairing = pairings.get(source(m))
            if pairing is not None:
                paired = paired_difference(ref, m, pairing.moments[0], pairing.moments[v], pairing.parts[0].players,
                                           pairing.parts[v].players, confidence)
                if paired is not None:
                    row |= {k: value for k, value in paired.items() if k != "paired_sd"}
            rows.append({"variant": name, "baseline": base_name, "metric": m.name} | row)
    return finish_family(rows)
