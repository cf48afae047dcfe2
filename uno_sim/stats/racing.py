"""The statistics of a race over a grid of rule sets (`uno-sim design`).

Every grid point plays the same games (the same seed and game indices, so the same deals), so
each metric is compared on per-game pairs. A metric is the ratio of two per-game integer
columns, numerator y and denominator d (d = 1 for a rate or a mean over all games; for
`mean_winner_points`, d = 1 when the game has a winner). `skill_index` is read from each
point's skill games (one pro against random bots, seats rotated), which share their deals
across the points too. `Moments` keeps, per metric, the exact
integer sums of y and d of every point and their cross products over the same games, so they
merge exactly (any chunking, any thread count gives the same race). From them:

- a point's estimate is sum(y) / sum(d) (minus the fair share for the first-player edge); its
  variance is the delta method's, Var(u) / n with u = (y - R d) / mean(d) per game;
- the paired difference of two points is the difference of their estimates, with variance
  Var(u_a - u_b) / n from the same per-game u's (for rates this is the variance of McNemar's
  paired test): a normal interval;
- a single rate's interval is Wilson's (as in summary.csv), at the race's level.

Multiplicity: every interval the race looks at is a member of one Bonferroni family of
`race_looks` = rounds x (points x constraints + point pairs) intervals (each point's
constraint intervals, and the difference of every pair of points, since the leader a point is
compared with is chosen from the data; at each round that can be played within the budget),
each at level 1 - alpha / looks. With probability at least 1 - alpha all of them cover at once; on
that event no feasible point is dropped as infeasible and no point is dropped unless a
feasible point beats it. The schedule of games per round is fixed in advance (it does not
depend on the data), so looking after every round does not break this.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import special

from ..engine import layout as L
from ..game.metrics import METRICS, Metric
from .intervals import wilson_interval

ALPHA = 0.05  # the race's error rate: all its intervals cover at once with probability >= 95%

@dataclass(frozen=True)
class RaceMetric:
    """A metric the race can pair: `kind` rate, edge (a rate minus the fair share 1/players)
    or mean; `ratio`: its denominator is a per-game count, not 1 (mean_winner_points,
    challenge_success_rate)."""

    name: str
    kind: str
    columns: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]  # record rows -> (y, d), int64
    ratio: bool = False
    skill: bool = False  # read from the skill games (one pro against random bots, seats rotated)

    def offset(self, players: int) -> float:
        """What is subtracted from the ratio: the fair share for the first-player edge."""
        return 1.0 / players if self.kind == "edge" else 0.0

    @property
    def is_rate(self) -> bool:
        return self.kind in ("rate", "edge")


def _ones(rows: np.ndarray) -> np.ndarray:
    return np.ones(len(rows), dtype=np.int64)


def _flag(values: np.ndarray) -> np.ndarray:
    return values.astype(np.int64)


def _race_metric(entry: Metric, name: str, value) -> RaceMetric:
    """The race's form of one table entry (`value`: a family member's seat)."""
    col, source, kind = L.RECORD_COLUMN, entry.source, entry.kind

    def rate(flag: Callable[[np.ndarray], np.ndarray], skill: bool = False) -> RaceMetric:
        return RaceMetric(name, kind, lambda r: (_flag(flag(r)), _ones(r)), skill=skill)

    if source == "seat_wins":
        return rate(lambda r: r[:, L.COL_WINNER] == value)
    if source == "first_seat_edge":
        return rate(lambda r: r[:, L.COL_WINNER] == 0)
    if source == "no_winner":
        return rate(lambda r: r[:, L.COL_WINNER] < 0)
    if source == "reason":
        index = L.REASONS.index(entry.quantity)
        return rate(lambda r: r[:, L.COL_REASON] == index)
    if source == "happened":
        c = col[entry.quantity]
        return rate(lambda r: r[:, c] > 0)
    if source == "skill":  # the skill bot (slot 0) won a skill game, whose deals every point shares too
        return rate(lambda r: r[:, L.COL_WINNER_BOT] == 0, skill=True)
    if source == "mean" and not entry.over:
        c = col[entry.quantity]
        return RaceMetric(name, kind, lambda r: (r[:, c].astype(np.int64), _ones(r)))
    if source == "mean" and entry.over == "has_winner":  # over the games with a winner
        c = col[entry.quantity]
        return RaceMetric(name, kind, lambda r: (np.where(r[:, L.COL_WINNER] >= 0, r[:, c], 0).astype(np.int64),
                                                 _flag(r[:, L.COL_WINNER] >= 0)), ratio=True)
    if source == "ratio":
        y, d = col[entry.quantity], col[entry.over]
        return RaceMetric(name, kind, lambda r: (r[:, y].astype(np.int64), r[:, d].astype(np.int64)), ratio=True)
    raise ValueError(f"metric {entry.name} is marked raceable but the race has no per-game form for it")


def _catalog() -> dict[str, RaceMetric]:
    """Every metric the metric table marks raceable (families for up to MAX_PLAYERS seats)."""
    out: dict[str, RaceMetric] = {}
    for entry in METRICS:
        if entry.design:
            for value in (range(L.MAX_PLAYERS) if entry.family else [None]):
                name = entry.named(value) if entry.family else entry.name
                out[name] = _race_metric(entry, name, value)
    return out


RACE_METRICS: dict[str, RaceMetric] = _catalog()


def race_streams(metrics) -> list[bool]:
    """The streams of games a race plays at each point, as `RaceMetric.skill` flags in order:
    the point's own games when a metric reads them, then its skill games when one reads those
    (a race on skill_index alone plays the skill games only)."""
    flags = {RACE_METRICS[m].skill for m in metrics}
    return [skill for skill in (False, True) if skill in flags]


# ---------------------------------------------------------------- constraints

_CONSTRAINT = re.compile(r"^\s*(abs\(\s*(?P<abs>[A-Za-z0-9_]+)\s*\)|(?P<name>[A-Za-z0-9_]+))\s*"
                         r"(?P<op><=?|>=?)\s*(?P<value>[-+]?[0-9.eE+-]+)\s*(?P<pp>pp)?\s*$")


@dataclass(frozen=True)
class Constraint:
    """`metric < bound`, `metric > bound`, or on the metric's absolute value (`absolute`).
    Rates are fractions (0.005 is half a percentage point); `<=` reads as `<`."""

    metric: str
    op: str  # "<" or ">"
    bound: float
    absolute: bool = False
    text: str = ""

    def __str__(self) -> str:
        return self.text or f"{'abs(' + self.metric + ')' if self.absolute else self.metric}{self.op}{self.bound:g}"

    def verdict(self, low: float, high: float) -> str:
        """From the metric's interval: "met" (the whole interval satisfies the constraint),
        "broken" (none of it does) or "open"."""
        if not (low == low and high == high):
            return "open"
        b = self.bound
        if not self.absolute:
            if self.op == "<":
                return "met" if high < b else "broken" if low >= b else "open"
            return "met" if low > b else "broken" if high <= b else "open"
        if self.op == "<":  # |m| < b
            if -b < low and high < b:
                return "met"
            return "broken" if low >= b or high <= -b else "open"
        if low > b or high < -b:  # |m| > b
            return "met"
        return "broken" if -b <= low and high <= b else "open"


def parse_constraint(text: str) -> Constraint:
    """"METRIC<VALUE", "METRIC>VALUE", "abs(METRIC)<VALUE" (a `pp` suffix: percentage points
    of a rate). ValueError naming what is wrong; the metric is checked by the caller."""
    match = _CONSTRAINT.match(text or "")
    if not match:
        raise ValueError(f"bad constraint {text!r}: expected METRIC<VALUE, METRIC>VALUE or abs(METRIC)<VALUE "
                         "(e.g. \"abs(first_player_edge)<0.5pp\", \"mean_turns<45\")")
    try:
        value = float(match["value"])
    except ValueError:
        raise ValueError(f"bad constraint {text!r}: {match['value']!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"bad constraint {text!r}: the bound must be a finite number")
    if match["pp"]:
        value /= 100.0
    metric = match["abs"] or match["name"]
    absolute = match["abs"] is not None
    if absolute and value <= 0 and match["op"].startswith("<"):
        raise ValueError(f"bad constraint {text!r}: an absolute value is never below {value:g}")
    return Constraint(metric, match["op"][0], value, absolute, " ".join(text.split()))


def _allowed(c: Constraint) -> list[tuple[float, float]]:
    """The values of c's metric that meet c, as open intervals."""
    b = c.bound
    if not c.absolute:
        return [(-math.inf, b)] if c.op == "<" else [(b, math.inf)]
    if c.op == "<":
        return [(-b, b)]
    return [(-math.inf, -b), (b, math.inf)] if b >= 0 else [(-math.inf, math.inf)]


def _can_meet(group: list[Constraint]) -> bool:
    """Is there a value that meets every constraint of the group (all on one metric)?"""
    sets = [(-math.inf, math.inf)]
    for c in group:
        sets = [(max(lo, a), min(hi, b)) for lo, hi in sets for a, b in _allowed(c) if max(lo, a) < min(hi, b)]
    return bool(sets)


def contradiction(constraints: list[Constraint]) -> list[Constraint] | None:
    """Constraints on one metric that no value can meet together (a pair when a pair already
    cannot, else all of that metric's), or None when each metric's can all hold."""
    by_metric: dict[str, list[Constraint]] = {}
    for c in constraints:
        by_metric.setdefault(c.metric, []).append(c)
    for group in by_metric.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if not _can_meet([a, b]):
                    return [a, b]
        if not _can_meet(group):
            return group
    return None


# ---------------------------------------------------------------- moments


class Moments:
    """Exact integer sums of one metric's per-game (y, d) at every point, and their cross
    products over the games two points both played (int64: exact, so merge order and
    chunking never change a figure)."""

    def __init__(self, points: int) -> None:
        self.points = points
        self.games = np.zeros(points, dtype=np.int64)
        self.sums = np.zeros(2 * points, dtype=np.int64)  # [y_0..y_P-1, d_0..d_P-1]
        self.cross = np.zeros((2 * points, 2 * points), dtype=np.int64)

    def _columns(self, alive: list[int]) -> np.ndarray:
        idx = np.asarray(alive, dtype=np.int64)
        return np.concatenate([idx, idx + self.points])

    def add(self, alive: list[int], ys: list[np.ndarray], ds: list[np.ndarray]) -> None:
        """Fold in the same games played at each of the `alive` points (ys[i], ds[i]: the
        per-game values at point alive[i], in game order)."""
        z = np.column_stack(list(ys) + list(ds)).astype(np.int64)
        cols = self._columns(alive)
        self.games[np.asarray(alive)] += len(z)
        self.sums[cols] += z.sum(axis=0)
        self.cross[np.ix_(cols, cols)] += z.T @ z

    def merge(self, other: "Moments") -> None:
        self.games += other.games
        self.sums += other.sums
        self.cross += other.cross


@dataclass
class Estimates:
    """A metric at a set of points that all played the same `n` games: `value` per point and
    the covariance `cov` of the estimates (delta method over the per-game pairs)."""

    points: list[int]
    n: int
    value: np.ndarray
    cov: np.ndarray
    successes: np.ndarray  # sum(y) (a rate's successes)
    trials: np.ndarray  # sum(d)
    binary: bool = False  # a rate over all games: per-game values 0 or 1

    def interval(self, i: int, z: float, metric: RaceMetric, offset: float) -> tuple[float, float]:
        """Point i's interval (index into `points`): Wilson for a plain rate, normal otherwise."""
        if metric.is_rate and not metric.ratio:
            confidence = 1.0 - 2.0 * float(special.ndtr(-z))
            low, high = wilson_interval(int(self.successes[i]), int(self.trials[i]), confidence)
            return low - offset, high - offset
        half = z * math.sqrt(max(self.cov[i, i], 0.0))
        return self.value[i] - half, self.value[i] + half

    def difference(self, i: int, j: int, z: float) -> tuple[float, float, float]:
        """(point i - point j, low, high): the paired difference and its normal interval. For
        a rate, the variance is at least that of half a discordant game each way (1 / n^2):
        with no game that the two points score differently, the interval is not of width 0."""
        diff = self.value[i] - self.value[j]
        var = self.cov[i, i] + self.cov[j, j] - 2.0 * self.cov[i, j]
        if self.binary:
            var = max(var, 1.0 / (self.n * self.n))
        half = z * math.sqrt(max(var, 0.0))
        return diff, diff - half, diff + half


def estimates(m: Moments, alive: list[int], offsets: list[float], binary: bool = False) -> Estimates:
    """The metric at the `alive` points, which must have played the same games (`binary`: a
    rate over all games)."""
    counts = m.games[np.asarray(alive)]
    if len(set(counts.tolist())) != 1:
        raise ValueError("the points compared did not play the same games")
    n = int(counts[0])
    k = len(alive)
    cols = m._columns(alive)
    s = m.sums[cols].astype(np.float64)
    q = m.cross[np.ix_(cols, cols)].astype(np.float64)
    y, d = s[:k], s[k:]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = y / d
        dbar = d / n
        c = np.zeros((2 * k, k))
        c[np.arange(k), np.arange(k)] = 1.0 / dbar
        c[k + np.arange(k), np.arange(k)] = -ratio / dbar
    mu = s / n
    sigma = (q - n * np.outer(mu, mu)) / (n - 1) if n > 1 else np.full_like(q, np.nan)
    c = np.nan_to_num(c, nan=0.0, posinf=0.0, neginf=0.0)
    cov = c.T @ sigma @ c / n
    cov[~np.isfinite(ratio), :] = np.nan
    cov[:, ~np.isfinite(ratio)] = np.nan
    return Estimates(list(alive), n, ratio - np.asarray(offsets), cov, m.sums[cols[:k]].copy(),
                     m.sums[cols[k:]].copy(), binary)


# ---------------------------------------------------------------- the race's plan


def schedule(budget: int, points: int, first: int) -> list[int]:
    """Cumulative games per point after each round that one surviving point could still
    reach within `budget`: first, 2 first, 4 first, ... (each round doubles the games of the
    points left; fixed in advance, so it never depends on the data)."""
    out = [first]
    spent = points * first
    while spent + out[-1] <= budget:  # the next round: as many new games as played so far, at one point at least
        spent += out[-1]
        out.append(2 * out[-1])
    return out


def race_looks(rounds: int, points: int, constraints: int) -> int:
    """The Bonferroni family's size: every round, every point's constraint intervals and the
    difference of every pair of points (the leader is picked from the data, so a point's
    comparison with it may be any pair's)."""
    return rounds * (points * constraints + points * (points - 1) // 2)


def race_z(looks: int, alpha: float = ALPHA) -> float:
    """The two-sided normal quantile of each interval of a family of `looks` at level 1 - alpha."""
    return float(-special.ndtri(alpha / (2.0 * looks)))


def beaten(diff_low: float, diff_high: float, minimize: bool) -> bool:
    """Whether the interval of a paired difference (point - leader) shows the point worse
    than the leader with confidence."""
    return diff_low > 0 if minimize else diff_high < 0


def tie_within(diffs: list[tuple[float, float]], tolerance: float) -> bool:
    """Every difference's interval within +-tolerance (a tie at that tolerance)."""
    return all(-tolerance <= low and high <= tolerance for low, high in diffs)
