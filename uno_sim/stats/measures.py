"""Metrics: each a `Measure` (value, interval, what a test needs), and the tidy tables.

Summary table (`summary.csv`): one row per metric, columns
`variant, metric, value, ci_low, ci_high, games`, where `games` is the number of games
simulated for the variant. Intervals are 95%:
- rates: Wilson score interval;
- means: normal approximation, mean +- z * s / sqrt(n), s the sample standard deviation;
- medians: exact from the histogram; interval from binomial order statistics
  (distribution-free, coverage >= 95%; NaN when fewer than 6 games).
Which metrics, in which order, and how each is computed: the metric table (game/metrics.py);
docs/METRICS.md explains every one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from ..engine import layout as L
from ..game.metrics import METRICS, SPREAD, Metric
from .aggregate import DISTRIBUTIONS, Aggregate
from .histogram import IntHistogram
from .intervals import CONFIDENCE, wilson_interval

if TYPE_CHECKING:  # pandas where a frame is made: importing this module loads no pandas
    import pandas as pd

SUMMARY_COLUMNS = ["variant", "metric", "value", "ci_low", "ci_high", "games"]


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
    # The metric as a ratio of per-game totals, for paired comparisons (stats/paired.py):
    # (numerator, denominator), each ((quantity, coefficient), ...) over paired.quantity_names;
    # None: no paired form (order statistics, maxima, plain figures).
    per_game: tuple | None = None


ONE = (("one", 1.0),)  # the denominator of a per-game rate or mean: every game


def per_game(*quantities: str, over: tuple = ONE) -> tuple:
    """A Measure's `per_game`: the sum of these per-game quantities over `over`'s."""
    return (tuple((q, 1.0) for q in quantities), over)


def rate_measure(name: str, successes: int, trials: int, confidence: float = CONFIDENCE,
                 paired: tuple | None = None) -> Measure:
    """A rate successes / trials with its Wilson interval (`paired`: its `per_game` form)."""
    low, high = wilson_interval(successes, trials, confidence)
    value = successes / trials if trials else math.nan
    return Measure(name, "rate", value, low, high, successes=int(successes), trials=int(trials), per_game=paired)


def mean_measure(name: str, hist: IntHistogram, confidence: float = CONFIDENCE,
                 paired: tuple | None = None) -> Measure:
    """The mean of a histogram with its normal-approximation interval (`paired`: its
    `per_game` form)."""
    mean, low, high = hist.mean_interval(confidence)
    return Measure(name, "mean", mean, low, high, n=hist.n, var=hist.variance(), hist=hist, per_game=paired)


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
    two_sided: bool = False,
) -> list[Measure]:
    """Every metric of one variant, in report order: the entries of the metric table
    (game/metrics.py) a run of this aggregate reports, each computed as its `source` says
    (`two_sided`: the deck's, UNO Flip's, metrics too)."""
    teams = agg.teams if teams is None else teams
    labels = None if bot_labels is None else list(bot_labels)
    if labels is not None and len(labels) != agg.players:
        raise ValueError(f"{len(labels)} bot labels for {agg.players} seats")
    out: list[Measure] = []
    for entry in METRICS:
        if entry.when == "skill" or (entry.when == "bots" and labels is None) or (entry.when == "teams" and not teams):
            continue
        if entry.when == "two_sided" and not two_sided:
            continue
        out.extend(_computed(entry, agg, labels, teams, confidence))
    return out


def _computed(entry: Metric, agg: Aggregate, labels: list[str] | None, teams: int,
              confidence: float) -> list[Measure]:
    """The measures of one table entry (a family's: one per seat, bot or team)."""
    n, source, q = agg.games, entry.source, entry.quantity
    seats = [f"seat_{seat}" for seat in range(agg.players)]

    def rate(name: str, successes: int, trials: int = n, paired: tuple | None = None) -> Measure:
        return rate_measure(name, successes, trials, confidence, paired)

    if source == "seat_wins":
        return [rate(entry.named(s), int(agg.wins[s]), paired=per_game(seats[s])) for s in range(agg.players)]
    if source == "first_seat_edge":
        fair = 1.0 / agg.players
        seat0 = rate_measure(entry.name, int(agg.wins[0]), n, confidence)
        return [Measure(entry.name, "edge", seat0.value - fair, seat0.low - fair, seat0.high - fair,
                        successes=seat0.successes, trials=n, offset=fair, per_game=per_game(seats[0]))]
    if source == "bot_wins":
        out = []
        for label in dict.fromkeys(labels):  # first-slot order, each once
            slots = [s for s, other in enumerate(labels) if other == label]
            out.append(rate(entry.named(label), int(agg.bot_wins[slots].sum()),
                            paired=per_game(*(f"slot_{s}" for s in slots))))
        return out
    if source == "team_wins":
        return [rate(entry.named(t), int(agg.wins[t::teams].sum()), paired=per_game(*seats[t::teams]))
                for t in range(teams)]
    if source == "no_winner":
        return [rate(entry.name, agg.no_winner, paired=(ONE + tuple((s, -1.0) for s in seats), ONE))]
    if source == "reason":
        return [rate(entry.name, int(agg.reasons[L.REASONS.index(q)]), paired=per_game(f"reason_{q}"))]
    if source == "happened":  # the share of games where it happened
        return [rate(entry.name, agg.hists[q].count_above(0), paired=per_game(f"{q}>0"))]
    if source == "ratio":
        successes, _ = agg.hists[q].sums()
        trials, _ = agg.hists[entry.over].sums()
        return [rate(entry.name, successes, trials, paired=per_game(q, over=per_game(entry.over)[0]))]
    if source == "mean":
        paired = per_game(q, over=per_game(entry.over)[0] if entry.over else ONE)
        return [mean_measure(entry.name, agg.distribution(q), confidence, paired)]
    if source in SPREAD:
        return spread_measures(q, agg.distribution(q), confidence, (source,))
    raise ValueError(f"metric {entry.name}: unknown source {source!r}")


def _row(variant: str, metric: str, value: float, low: float, high: float, games: int) -> dict:
    return {"variant": variant, "metric": metric, "value": value, "ci_low": low, "ci_high": high, "games": games}


def summarize(
    agg: Aggregate,
    variant: str,
    bot_labels: Iterable[str] | None = None,
    teams: int | None = None,
    confidence: float = CONFIDENCE,
    two_sided: bool = False,
) -> pd.DataFrame:
    """The tidy summary table of one variant (see the module docstring)."""
    return summary_frame(measures(agg, bot_labels, teams, confidence, two_sided), variant, agg.games)


def summary_frame(ms: list[Measure], variant: str, games: int) -> pd.DataFrame:
    """The tidy summary rows of a list of measures (`games`: the games or matches behind them)."""
    import pandas as pd

    rows = [_row(variant, m.name, m.value, m.low, m.high, games) for m in ms]
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def distributions_frame(agg: Aggregate, variant: str) -> pd.DataFrame:
    """Tidy histograms: `variant, quantity, value, count, share` (observed values only;
    share = count / games observed for that quantity)."""
    import pandas as pd

    rows = []
    for quantity in DISTRIBUTIONS:
        hist = agg.distribution(quantity)
        total = hist.n
        for value, count in hist.items():
            rows.append({"variant": variant, "quantity": quantity, "value": value, "count": count,
                         "share": count / total})
    return pd.DataFrame(rows, columns=DISTRIBUTION_COLUMNS)


DISTRIBUTION_COLUMNS = ["variant", "quantity", "value", "count", "share"]


def metric(frame: pd.DataFrame, name: str) -> pd.Series:
    """The row of one metric (first variant) as a Series: value, ci_low, ci_high, games."""
    hit = frame.loc[frame["metric"] == name]
    if hit.empty:
        raise KeyError(name)
    return hit.iloc[0]


def write_csv(frame: pd.DataFrame, path) -> None:
    """Write a tidy table; floats with 12 significant digits, so equal inputs give equal bytes."""
    frame.to_csv(path, index=False, float_format="%.12g", lineterminator="\n")
