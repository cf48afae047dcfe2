"""Statistics of simulated games, one job per module:

- intervals.py: confidence intervals (Wilson, normal approximation, order statistics, Newcombe);
- histogram.py: `IntHistogram`, exact integer histograms;
- aggregate.py: `Aggregate`, the streaming aggregation of record rows;
- measures.py: `Measure`, every metric of the metric table (game/metrics.py) computed (`measures`), the tidy summary tables;
- significance.py: differences between variants and their tests;
- paired.py: differences from the pairs of the same deals (`PairedAggregate`, `paired_differences`);
- precision.py: precision targets, the schedule of looks and their intervals' level.

The names below are the package's public surface (`from uno_sim import stats; stats.X`).
"""

from .aggregate import DISTRIBUTIONS, HIST_COLUMNS, Aggregate
from .histogram import MAX_HIST_RANGE, IntHistogram
from .intervals import (CONFIDENCE, binom_cdf, binom_ppf, mean_interval, newcombe_interval, normal_sf,
                        wilson_interval, z_value)
from .measures import (DISTRIBUTION_COLUMNS, SUMMARY_COLUMNS, Measure, distributions_frame, mean_measure, measures,
                       metric, rate_measure, spread_measures, summarize, summary_frame, write_csv)
from .paired import (PAIRED_TESTS, CrossMoments, PairedAggregate, mcnemar_exact, newcombe_paired_interval,
                     paired_difference, paired_differences, per_game_quantities, quantity_names)
from .precision import (DEFAULT_CAP, FIRST_LOOK, PrecisionOutcome, Target, half_width, look_confidence,
                        look_corrected, look_schedule, parse_target, reached)
from .significance import (DIFFERENCE_COLUMNS, SIGNIFICANCE, TESTS, difference, differences, holm, mann_whitney,
                           per_game_variance, pooled_sd, stars, two_proportion_z, welch_t)

__all__ = [
    "Aggregate", "CONFIDENCE", "CrossMoments", "PAIRED_TESTS", "PairedAggregate", "mcnemar_exact",
    "newcombe_paired_interval", "DEFAULT_CAP", "FIRST_LOOK", "PrecisionOutcome", "Target", "half_width",
    "look_confidence", "look_corrected", "look_schedule", "parse_target", "reached", "paired_difference", "paired_differences", "per_game_quantities", "quantity_names", "DIFFERENCE_COLUMNS", "DISTRIBUTIONS", "DISTRIBUTION_COLUMNS", "HIST_COLUMNS",
    "IntHistogram", "MAX_HIST_RANGE", "Measure", "SIGNIFICANCE", "SUMMARY_COLUMNS", "TESTS", "binom_cdf",
    "binom_ppf", "difference", "differences", "distributions_frame", "holm", "mann_whitney", "mean_interval",
    "mean_measure", "measures", "metric", "newcombe_interval", "normal_sf", "per_game_variance", "pooled_sd",
    "rate_measure", "spread_measures",
    "stars", "summarize", "summary_frame", "two_proportion_z", "welch_t", "wilson_interval", "write_csv", "z_value",
]
