"""Paired comparisons: the paired intervals and tests against published values and scipy,
the streamed cross moments against a direct per-game computation of the same games,
identical numbers for any worker count, chunking and checkpoint, and the command line."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import uno_sim
from uno_sim import cli, stats
from uno_sim.running.checkpoint import from_arrays, to_arrays
from uno_sim.stats.paired import CrossMoments


def test_newcombe_paired_interval_matches_the_published_example():
    # Fagerland, Lydersen and Laake, Statistical Analysis of Contingency Tables (2017), chapter 8:
    # complete response before and after consolidation therapy (Cavo et al. 2012), the table
    # [[59, 6], [16, 80]]: Newcombe's square-and-add interval of p1+ - p+1 is -0.1186 to -0.0046.
    # Here the rows are the baseline, so other - base is the mirror image.
    low, high = stats.newcombe_paired_interval(59, 6, 16, 80)
    assert (low, high) == pytest.approx((0.0046, 0.1186), abs=5e-5)


def test_newcombe_paired_interval_without_correlation_is_the_unpaired_one():
    # both * neither - base_only * other_only = 0: phi is 0, and the interval is Newcombe's for
    # two independent samples of the same size
    both, base_only, other_only, neither = 10, 20, 30, 60
    assert both * neither == base_only * other_only
    paired = stats.newcombe_paired_interval(both, base_only, other_only, neither)
    n = both + base_only + other_only + neither
    assert paired == pytest.approx(stats.newcombe_interval(both + base_only, n, both + other_only, n), abs=1e-12)


def test_positive_correlation_narrows_the_paired_interval():
    # the same margins (40 of 100, 45 of 100), the events together far more often than by chance
    together = stats.newcombe_paired_interval(38, 2, 7, 53)
    apart = stats.newcombe_interval(40, 100, 45, 100)
    assert together[1] - together[0] < 0.5 * (apart[1] - apart[0])


@pytest.mark.parametrize("b, c", [(6, 16), (0, 5), (40, 41), (1200, 1300)])
def test_mcnemar_exact_is_the_binomial_test_of_the_discordant_pairs(b, c):
    assert stats.mcnemar_exact(b, c) == pytest.approx(sps.binomtest(b, b + c, 0.5).pvalue, rel=1e-9)
    assert math.isnan(stats.mcnemar_exact(0, 0))


def test_cross_moments_merge_exactly_whatever_the_split():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 900, size=(5000, 6))
    b = rng.integers(0, 900, size=(5000, 4))
    whole = CrossMoments(6, 4)
    whole.add(x, b)
    parts = CrossMoments(6, 4)
    for lo, hi in [(0, 1), (1, 1234), (1234, 4999), (4999, 5000)]:
        piece = CrossMoments(6, 4)
        piece.add(x[lo:hi], b[lo:hi])
        parts.merge(piece)
    assert parts.games == whole.games == 5000
    for name in ("sums", "gram", "cross"):
        assert np.array_equal(getattr(parts, name), getattr(whole, name))
    assert np.array_equal(whole.cross, x.T @ b) and np.array_equal(whole.gram, x.T @ x)


@pytest.fixture(scope="module")
def paired_small():
    """stacking against nostacking on 3,000 deals, paired, with every game's row kept."""
    return uno_sim.compare(["stacking", "nostacking"], games=3000, seed=11, per_game=True)


def _row(cmp, metric):
    return cmp.differences.set_index("metric").loc[metric]


def test_paired_mean_difference_is_the_t_interval_of_the_per_game_differences(paired_small):
    base, other = (r.games for r in paired_small.runs)
    d = other["turns"].to_numpy() - base["turns"].to_numpy()
    n = len(d)
    half = sps.t.ppf(0.975, n - 1) * d.std(ddof=1) / math.sqrt(n)
    row = _row(paired_small, "mean_turns")
    assert row["test"] == "paired t"
    assert row["diff"] == pytest.approx(d.mean(), abs=1e-9)
    assert (row["diff_ci_low"], row["diff_ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
    assert row["p_value"] == pytest.approx(sps.ttest_rel(other["turns"], base["turns"]).pvalue, rel=1e-6)


def test_paired_rate_difference_uses_the_table_of_the_same_deals(paired_small):
    base, other = (r.games for r in paired_small.runs)
    x, y = base["winner"].to_numpy() == 0, other["winner"].to_numpy() == 0
    table = (int((x & y).sum()), int((x & ~y).sum()), int((~x & y).sum()), int((~x & ~y).sum()))
    for metric in ("win_rate_seat_0", "first_player_edge"):
        row = _row(paired_small, metric)
        assert row["test"].startswith("McNemar exact")
        assert (row["diff_ci_low"], row["diff_ci_high"]) == pytest.approx(stats.newcombe_paired_interval(*table),
                                                                          abs=1e-12)
        assert row["p_value"] == pytest.approx(sps.binomtest(table[1], table[1] + table[2]).pvalue, rel=1e-9)


def test_paired_ratio_of_totals_is_the_delta_method_of_the_per_game_pairs(paired_small):
    # mean_winner_points: winner points over the games with a winner, deal by deal
    frames = [r.games for r in paired_small.runs]
    parts = []
    for f in frames:
        w = (f["winner"].to_numpy() >= 0).astype(float)
        y = np.where(w > 0, f["winner_points"].to_numpy(), 0).astype(float)
        ratio = y.sum() / w.sum()
        parts.append((ratio, (y - ratio * w) / w.mean()))
    (r0, u0), (r1, u1) = parts
    se = (u1 - u0).std(ddof=1) / math.sqrt(len(u0))
    row = _row(paired_small, "mean_winner_points")
    assert row["test"] == "paired z (delta method)"
    assert row["diff"] == pytest.approx(r1 - r0, rel=1e-12)
    assert row["diff_ci_high"] - row["diff_ci_low"] == pytest.approx(2 * 1.959963984540054 * se, rel=1e-9)


def test_order_statistics_keep_the_unpaired_analysis(paired_small):
    row = _row(paired_small, "median_turns")
    assert row["test"] == "" and math.isnan(row["p_value"])


def test_unpaired_is_todays_analysis_and_paired_is_narrower_for_correlated_metrics(paired_small):
    unpaired = uno_sim.compare(["stacking", "nostacking"], games=3000, seed=11, paired=False)
    assert not unpaired.paired and paired_small.paired
    u, p = unpaired.differences.set_index("metric"), paired_small.differences.set_index("metric")
    assert u.loc["mean_turns", "test"] == "Welch t"
    assert u.loc["win_rate_seat_0", "test"] == "two-proportion z"
    pd.testing.assert_series_equal(u["diff"], p["diff"])  # the same games, only the analysis differs
    for metric in ("mean_turns", "mean_draws", "win_rate_seat_0"):
        assert (p.loc[metric, "diff_ci_high"] - p.loc[metric, "diff_ci_low"]
                < 0.9 * (u.loc[metric, "diff_ci_high"] - u.loc[metric, "diff_ci_low"])), metric


def test_paired_numbers_do_not_depend_on_workers_or_checkpoint(tmp_path):
    kwargs = dict(games=20_000, seed=5, skill=True)
    one = uno_sim.compare(["standard", "wild-swap"], workers=1, **kwargs).differences
    two = uno_sim.compare(["standard", "wild-swap"], workers=2, **kwargs).differences
    kept = uno_sim.compare(["standard", "wild-swap"], checkpoint=tmp_path / "cp", **kwargs).differences
    again = uno_sim.compare(["standard", "wild-swap"], checkpoint=tmp_path / "cp", **kwargs).differences  # restored
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, kept)
    pd.testing.assert_frame_equal(one, again)
    skill = one.set_index("metric").loc["skill_index"]
    assert skill["test"].startswith("McNemar exact")


def test_paired_aggregates_round_trip_through_checkpoint_arrays(paired_small):
    pairing = paired_small.pairing
    back = from_arrays(stats.PairedAggregate([stats.Aggregate(players=a.players, teams=a.teams) for a in pairing.parts]),
                       to_arrays(pairing))
    assert back.games == pairing.games == 3000
    for mine, theirs in zip(back.moments, pairing.moments):
        for name in ("sums", "gram", "cross"):
            assert np.array_equal(getattr(mine, name), getattr(theirs, name))
    assert np.array_equal(back.parts[1].wins, pairing.parts[1].wins)


def test_cli_differences_csv_names_the_test_of_every_row(capsys, tmp_path):
    for flag, out in (([], tmp_path / "paired"), (["--unpaired"], tmp_path / "unpaired")):
        code = cli.run_cli(["compare", "standard", "stacking", "--games", "2000", "--out", str(out), *flag])
        capsys.readouterr()
        assert code == 0
    paired = pd.read_csv(tmp_path / "paired" / "differences.csv").set_index("metric")
    unpaired = pd.read_csv(tmp_path / "unpaired" / "differences.csv").set_index("metric")
    assert paired.loc["mean_turns", "test"] == "paired t"
    assert unpaired.loc["mean_turns", "test"] == "Welch t"
    assert paired.loc["first_player_edge", "test"].startswith("McNemar exact")
