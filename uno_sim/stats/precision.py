"""Precision targets: play until named intervals are narrow enough, without breaking them.

Stopping when an interval happens to be narrow, and reporting that interval, looks at the
data many times; a 95% interval checked at every look covers less than 95% of the time.
The correction used here (a Bonferroni bound over a fixed schedule of looks):

- the looks are fixed before any game is played: `first`, 2 `first`, 4 `first`, ... games,
  and the cap (`look_schedule`), K looks in all;
- at every look each interval is computed at level 1 - alpha / K (`look_confidence`), and
  the games stop at the first look where every named interval's half-width, (high - low) / 2,
  is at most its target;
- the reported intervals are those of the look where the games stopped, at that level.

Whatever the stopping rule, the chance that a metric's interval misses its true value at the
look where the games stopped is at most the chance that it misses at some look, at most
K alpha / K = alpha: every reported interval keeps (at least) its 95% coverage. The price is
width: with K = 11 looks an interval is about 1.45 times as wide as a fixed-size 95% one at
the same games (z 2.84 instead of 1.96), which the schedule's doubling partly repays by
never overshooting the games needed by more than a factor of 2. p-values are multiplied by K
alike, so a difference called significant stays significant at 5%.

The same seed gives the same looks, the same stop and the same numbers on any worker count:
the schedule does not depend on timing and each look's aggregate is exact.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .intervals import CONFIDENCE
from .significance import SIGNIFICANCE

FIRST_LOOK = 10_000  # games at the first look (fewer if the cap is lower)
DEFAULT_CAP = 10_000_000  # games at the last look when no cap is given

_TARGET = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=\s*([0-9.eE+-]+)\s*(pp)?\s*$")


@dataclass(frozen=True)
class Target:
    """An interval to narrow: a metric and the half-width wanted (rates as fractions)."""

    metric: str
    half_width: float
    pp: bool = False  # given in percentage points: shown in them too

    def __str__(self) -> str:
        return f"{self.metric}={100 * self.half_width:g}pp" if self.pp else f"{self.metric}={self.half_width:g}"

    def show(self, width: float) -> str:
        """A half-width in the target's own units."""
        if self.pp:
            return _show(100 * width, 100 * self.half_width) + " pp"
        return _show(width, self.half_width)


def parse_target(text: str) -> Target:
    """`METRIC=HALF_WIDTH`: a fraction for rates (`first_player_edge=0.002`) or percentage
    points with `pp` (`first_player_edge=0.2pp`); ValueError naming the problem."""
    m = _TARGET.match(str(text))
    if not m:
        raise ValueError(f"precision target {text!r} is not METRIC=HALF_WIDTH (e.g. mean_turns=0.1)")
    try:
        value = float(m[2])
    except ValueError:
        raise ValueError(f"precision target {text!r}: {m[2]!r} is not a number") from None
    if m[3]:
        value /= 100.0
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"precision target {text!r}: the half-width must be above 0")
    return Target(m[1], value, bool(m[3]))


def look_schedule(cap: int, first: int | None = None) -> list[int]:
    """The game counts at which the intervals are looked at: first (default FIRST_LOOK),
    2 first, 4 first, ..., below the cap, then the cap."""
    first = FIRST_LOOK if first is None else first
    if cap < 1 or first < 1:
        raise ValueError("the cap and the first look must be at least 1 game")
    looks = []
    n = min(first, cap)
    while n < cap:
        looks.append(n)
        n *= 2
    return looks + [cap]


def look_confidence(looks: int, confidence: float = CONFIDENCE) -> float:
    """The level of each look's intervals so that all `looks` together keep `confidence`."""
    return 1.0 - (1.0 - confidence) / looks


def half_width(low: float, high: float) -> float:
    """Half an interval's width (NaN when it has no interval)."""
    return (high - low) / 2.0


def reached(widths: dict[str, float], targets: list[Target]) -> bool:
    """Every target's interval at most its half-width (a missing or NaN width is not)."""
    return all(widths.get(t.metric, math.nan) <= t.half_width for t in targets)


@dataclass(frozen=True)
class PrecisionOutcome:
    """How a precision run went: its targets, the looks planned and taken, the level of each
    interval, the half-widths reached (the worst over a comparison's variants), and whether
    every target was met before the cap."""

    targets: tuple[Target, ...]
    looks: tuple[int, ...]  # the schedule
    taken: int  # looks taken (the last at `games`)
    games: int
    confidence: float  # of each reported interval
    widths: dict
    met: bool

    @property
    def cap(self) -> int:
        return self.looks[-1]

    def to_dict(self) -> dict:
        return {"targets": {t.metric: t.half_width for t in self.targets}, "met": self.met, "games": self.games,
                "cap": self.cap, "looks": list(self.looks[: self.taken]), "looks_planned": len(self.looks),
                "interval_level": self.confidence, "half_widths": dict(self.widths)}

    def sentence(self) -> str:
        """The headline's sentence on the games the answer took."""
        widths = ", ".join(f"{t.metric} ±{t.show(self.widths.get(t.metric, math.nan))}"
                           f" (target ±{t.show(t.half_width)})" for t in self.targets)
        level = (f"each interval at {100 * self.confidence:.2f}% so that stopping at the first narrow enough of "
                 f"{len(self.looks)} planned looks keeps 95% coverage")
        if self.met:
            return f"The answer took {self.games:,} games ({self.taken} looks): {widths}; {level}."
        return (f"The cap of {self.games:,} games came before the target: {widths}; {level}. "
                "Raise --max-games for a narrower answer.")


def look_corrected(differences, looks: int):
    """A differences frame whose p-values are multiplied by the number of looks (Bonferroni,
    capped at 1; Holm's adjusted values alike, which is Holm's of the multiplied ones), and
    `significant` from them."""
    frame = differences.copy()
    for column in ("p_value", "p_adjusted"):
        frame[column] = (frame[column] * looks).clip(upper=1.0)
    frame["significant"] = frame["p_adjusted"] < SIGNIFICANCE
    return frame


def _show(value: float, scale: float) -> str:
    if value != value:
        return "n/a"
    digits = max(2, 2 - int(math.floor(math.log10(scale))) if scale > 0 else 2)
    return f"{value:.{digits}f}"
