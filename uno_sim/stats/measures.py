"""Metrics: each a `Measure` (value, interval, what a test needs), and the tidy tables.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from ..engine import layout as L
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


# The values a metric of each kind can take (every mean and quantile here is of counts or
# points, never negative; an edge is a rate minus the fair share 1/players): what a
# precision target or a design constraint on it may sensibly ask (api/precision.py, api/designs.py).
KIND_RANGES = {"rate": (0.0, 1.0), "edge": (-1.0, 1.0), "mean": (0.0, math.inf), "quantile": (0.0, math.inf)}


def range_text(kind: str) -> str:
    """`0 to 1` / `-1 to 1` / `0 and more`: the range of a kind, as a fraction (rates in pp too)."""
    low, high = KIND_RANGES[kind]
    if math.isinf(high):
        return f"{low:g} and more"
    return f"{low:g} to {high:g} ({100 * low:+g} to {100 * high:+g} pp)" if kind == "edge" else \
        f"{low:g} to {high:g} ({100 * low:g} to {100 * high:g} pp)"


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
) -> list[Measure]:
    """Every metric of one variant, in report order (names: docs/METRICS.md)."""
    n = agg.games
    teams = agg.teams if teams is None else teams
    out: list[Measure] = []
    h = agg.hists

    def rate(name: str, successes: int, trials: int = n, paired: tuple | None = None) -> None:
        out.append(rate_measure(name, successes, trials, confidence, paired))

    def above_zero(name: str, quantity: str) -> None:  # the share of games where it happened
        rate(name, h[quantity].count_above(0), paired=per_game(f"{quantity}>0"))

    def mean(name: str, quantity: str) -> None:
        paired = {"winner_points": per_game("winner_points", over=per_game("has_winner")[0]),
                  "loser_points": per_game("loser_points", over=per_game("losers")[0])}.get(quantity,
                                                                                         per_game(quantity))
        out.append(mean_measure(name, agg.distribution(quantity), confidence, paired))

    # Who wins.
    seats = [f"seat_{seat}" for seat in range(agg.players)]
    for seat in range(agg.players):
        rate(f"win_rate_seat_{seat}", int(agg.wins[seat]), paired=per_game(seats[seat]))
    fair = 1.0 / agg.players
    seat0 = rate_measure("first_player_edge", int(agg.wins[0]), n, confidence)
    out.append(Measure("first_player_edge", "edge", seat0.value - fair, seat0.low - fair, seat0.high - fair,
                       successes=seat0.successes, trials=n, offset=fair, per_game=per_game(seats[0])))
    if bot_labels is not None:
        labels = list(bot_labels)
        if len(labels) != agg.players:
            raise ValueError(f"{len(labels)} bot labels for {agg.players} seats")
        for label in dict.fromkeys(labels):  # first-slot order, each once
            slots = [s for s, other in enumerate(labels) if other == label]
            rate(f"win_rate_bot_{label}", int(agg.bot_wins[slots].sum()),
                 paired=per_game(*(f"slot_{s}" for s in slots)))
    if teams:
        for team in range(teams):
            rate(f"win_rate_team_{team}", int(agg.wins[team::teams].sum()), paired=per_game(*seats[team::teams]))
    rate("no_winner_rate", agg.no_winner, paired=(ONE + tuple((s, -1.0) for s in seats), ONE))
    for index, reason in enumerate(L.REASONS):
        if reason != "out":
            rate(f"{reason}_rate", int(agg.reasons[index]), paired=per_game(f"reason_{reason}"))
    # How long.
    for quantity in ("turns", "plays", "draws"):
        mean(f"mean_{quantity}", quantity)
        out.extend(spread_measures(quantity, agg.hists[quantity], confidence))
    # Points (games with a winner).
    for quantity in ("winner_points", "loser_points"):
        mean(f"mean_{quantity}", quantity)
        out.extend(spread_measures(quantity, agg.distribution(quantity), confidence))
    # Pile, penalties, stacking.
    above_zero("reshuffle_rate", "reshuffles")
    mean("mean_reshuffles", "reshuffles")
    mean("mean_max_pending", "max_pending")
    out.extend(spread_measures("max_pending", h["max_pending"], confidence, ("median", "p90", "maximum")))
    mean("mean_penalty_drawn", "penalty_drawn")
    above_zero("stack_rate", "stacks")
    mean("mean_stacks", "stacks")
    # Challenges, jump-ins, 7-0, UNO.
    above_zero("challenge_rate", "challenges")
    mean("mean_challenges", "challenges")
    challenges, _ = h["challenges"].sums()
    won, _ = h["challenges_won"].sums()
    rate("challenge_success_rate", won, challenges, paired=per_game("challenges_won", over=per_game("challenges")[0]))
    above_zero("jump_in_rate", "jumps")
    mean("mean_jumps", "jumps")
    above_zero("swap_rate", "swaps")
    mean("mean_swaps", "swaps")
    above_zero("rotation_rate", "rotations")
    mean("mean_rotations", "rotations")
    mean("mean_uno_caught", "uno_caught")
    # The rule sheets' remaining house rules (a sum jump-in is also a jump-in, above).
    above_zero("sum_jump_rate", "sum_jumps")
    mean("mean_sum_jumps", "sum_jumps")
    above_zero("hand_sum_win_rate", "hand_sum_wins")
    above_zero("wild_swap_rate", "wild_swaps")
    mean("mean_uno_catchers", "uno_catchers")
    # Decks (the mercy rule, roulette, shuffling hands).
    above_zero("knockout_rate", "knockouts")
    mean("mean_knockouts", "knockouts")
    above_zero("mercy_win_rate", "mercy_win")
    mean("mean_roulette_cards", "roulette_cards")
    above_zero("hand_shuffle_rate", "hand_shuffles")
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
