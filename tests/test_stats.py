"""Intervals, histograms and the streaming aggregator (no engine needed)."""

import math

import numpy as np
import pandas as pd
import pytest

from uno_sim import stats
from uno_sim.engine import layout as L
from uno_sim.stats import Aggregate, IntHistogram, mean_interval, summarize, wilson_interval


# ---------------------------------------------------------------- Wilson


def test_wilson_hand_computed():
    # x = 30, n = 100, z = 1.959963984540054:
    # center = (0.3 + z^2/200) / (1 + z^2/100) = 0.3073986996...
    # half   = z / (1 + z^2/100) * sqrt(0.3*0.7/100 + z^2/40000) = 0.0884498466...
    low, high = wilson_interval(30, 100)
    assert low == pytest.approx(0.2189488529493276, abs=1e-12)
    assert high == pytest.approx(0.3958485463334667, abs=1e-12)


@pytest.mark.parametrize(
    "x, n, low, high",
    [  # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_published_values(x, n, low, high):
    got = wilson_interval(x, n)
    assert got[0] == pytest.approx(low, abs=1e-4)
    assert got[1] == pytest.approx(high, abs=1e-4)


def test_wilson_edges():
    assert wilson_interval(0, 50)[0] == 0.0
    assert wilson_interval(50, 50)[1] == 1.0
    z = 1.959963984540054
    assert wilson_interval(0, 50)[1] == pytest.approx(z * z / (50 + z * z))
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_z_value_from_scipy():
    assert stats.z_value() == pytest.approx(1.959963984540054, abs=1e-12)


# ---------------------------------------------------------------- means


def test_mean_interval_matches_direct_formula():
    x = np.array([3, 5, 8, 13, 21, 34], dtype=np.int64)
    mean, low, high = mean_interval(len(x), int(x.sum()), int((x * x).sum()))
    half = 1.959963984540054 * x.std(ddof=1) / math.sqrt(len(x))
    assert mean == pytest.approx(x.mean())
    assert low == pytest.approx(x.mean() - half)
    assert high == pytest.approx(x.mean() + half)


def test_mean_interval_small_n():
    assert math.isnan(mean_interval(0, 0, 0)[0])
    mean, low, high = mean_interval(1, 7, 49)
    assert mean == 7 and math.isnan(low) and math.isnan(high)


# ---------------------------------------------------------------- histograms


def test_histogram_grows_both_ways_and_sums_exactly():
    h = IntHistogram()
    h.add(np.array([5, 7, 7]))
    h.add(np.array([-3, 12]))
    h.add(np.array([], dtype=np.int64))
    assert h.n == 5
    assert h.count(7) == 2 and h.count(-3) == 1 and h.count(100) == 0
    assert h.sums() == (5 + 7 + 7 - 3 + 12, 25 + 49 + 49 + 9 + 144)
    assert h.count_above(6) == 3
    assert [h.order_statistic(r) for r in range(1, 6)] == [-3, 5, 7, 7, 12]


def test_histogram_median_exact():
    h = IntHistogram()
    h.add(np.array([1, 2, 3, 4]))
    assert h.median_interval()[0] == 2.5
    h.add(np.array([100]))
    assert h.median_interval()[0] == 3.0


def test_median_interval_order_statistics():
    # n = 100: the distribution-free 95% interval is [X(40), X(61)] (standard tables).
    h = IntHistogram()
    h.add(np.arange(1, 101))
    median, low, high = h.median_interval()
    assert (median, low, high) == (50.5, 40.0, 61.0)
    tiny = IntHistogram()
    tiny.add(np.array([1, 2, 3, 4, 5]))  # fewer than 6: no 95% interval exists
    assert tiny.median_interval()[0] == 3 and math.isnan(tiny.median_interval()[1])


def test_histogram_merge_equals_single():
    rng = np.random.default_rng(1)
    values = rng.integers(-20, 300, size=1000)
    whole, a, b = IntHistogram(), IntHistogram(), IntHistogram()
    whole.add(values)
    a.add(values[:300])
    b.add(values[300:])
    a.merge(b)
    assert a.offset == whole.offset and np.array_equal(a.counts, whole.counts)
    assert a.median_interval() == whole.median_interval()
    assert a.sums() == (int(values.sum()), int((values * values).sum()))


# ---------------------------------------------------------------- aggregator


def fake_records(n, players, seed=0):
    rng = np.random.default_rng(seed)
    rec = np.zeros((n, L.N_COLS), dtype=np.int64)
    winner = rng.integers(-1, players, size=n)
    rec[:, L.COL_WINNER] = winner
    rec[:, L.COL_REASON] = np.where(winner >= 0, L.REASON.out, rng.integers(1, 4, size=n))
    rec[:, L.COL_TURNS] = rng.integers(1, 200, size=n)
    rec[:, L.COL_PLAYS] = rng.integers(0, 150, size=n)
    rec[:, L.COL_DRAWS] = rng.integers(0, 80, size=n)
    rec[:, L.COL_RESHUFFLES] = rng.integers(0, 3, size=n)
    rec[:, L.COL_MAX_PENDING] = rng.integers(0, 12, size=n)
    rec[:, L.COL_CHALLENGES] = rng.integers(0, 2, size=n)
    rec[:, L.COL_WINNER_POINTS] = np.where(winner >= 0, rng.integers(0, 400, size=n), 0)
    return rec


def test_summary_independent_of_chunking():
    rec = fake_records(5000, 4)
    whole = Aggregate(players=4)
    whole.add(rec)
    pieces = Aggregate(players=4)
    for lo in range(0, 5000, 777):
        pieces.add(rec[lo : lo + 777])
    merged = Aggregate(players=4)
    left, right = Aggregate(players=4), Aggregate(players=4)
    left.add(rec[:1234])
    right.add(rec[1234:])
    merged.merge(right)
    merged.merge(left)
    labels = ["random"] * 4
    a = summarize(whole, "v", labels)
    pd.testing.assert_frame_equal(a, summarize(pieces, "v", labels))
    pd.testing.assert_frame_equal(a, summarize(merged, "v", labels))


def test_summary_values_against_pandas():
    players = 3
    rec = fake_records(3000, players, seed=7)
    agg = Aggregate(players=players)
    agg.add(rec)
    table = summarize(agg, "demo", ["random", "random:forget_uno=0.3", "random"])
    assert list(table.columns) == ["variant", "metric", "value", "ci_low", "ci_high", "games"]
    assert (table["variant"] == "demo").all() and (table["games"] == 3000).all()
    value = dict(zip(table["metric"], table["value"]))
    winner = rec[:, L.COL_WINNER]
    seat_sum = sum(value[f"win_rate_seat_{i}"] for i in range(players))
    assert seat_sum + value["no_winner_rate"] == pytest.approx(1.0, abs=1e-12)
    assert value["win_rate_bot_random"] == pytest.approx(np.isin(winner, [0, 2]).mean())
    assert value["win_rate_bot_random:forget_uno=0.3"] == pytest.approx((winner == 1).mean())
    assert value["mean_turns"] == pytest.approx(rec[:, L.COL_TURNS].mean())
    assert value["median_turns"] == np.median(rec[:, L.COL_TURNS])
    assert value["mean_winner_points"] == pytest.approx(rec[winner >= 0, L.COL_WINNER_POINTS].mean())
    assert value["reshuffle_rate"] == pytest.approx((rec[:, L.COL_RESHUFFLES] > 0).mean())
    assert value["challenge_rate"] == pytest.approx((rec[:, L.COL_CHALLENGES] > 0).mean())
    assert value["mean_max_pending"] == pytest.approx(rec[:, L.COL_MAX_PENDING].mean())
    for reason in ("void", "stall", "cap"):
        share = (rec[:, L.COL_REASON] == L.REASONS.index(reason)).mean()
        assert value[f"{reason}_rate"] == pytest.approx(share)
    required = {
        "no_winner_rate", "mean_turns", "median_turns", "mean_plays", "mean_draws",
        "mean_winner_points", "reshuffle_rate", "mean_max_pending", "challenge_rate",
    }
    assert required <= set(table["metric"])
    rows = table.set_index("metric").dropna(subset=["ci_low", "ci_high"])  # maximum_*: no interval
    assert (rows["ci_low"] <= rows["value"]).all() and (rows["value"] <= rows["ci_high"]).all()


def test_team_win_rates():
    rec = fake_records(1000, 4, seed=3)
    agg = Aggregate(players=4)
    agg.add(rec)
    value = dict(zip(*summarize(agg, "t", teams=2)[["metric", "value"]].T.values))
    winner = rec[:, L.COL_WINNER]
    assert value["win_rate_team_0"] == pytest.approx(np.isin(winner, [0, 2]).mean())
    assert value["win_rate_team_1"] == pytest.approx(np.isin(winner, [1, 3]).mean())


def test_aggregate_rejects_bad_records():
    agg = Aggregate(players=2)
    rec = fake_records(10, 4)
    rec[:, L.COL_WINNER] = 3
    with pytest.raises(ValueError):
        agg.add(rec)
    with pytest.raises(ValueError):
        agg.add(np.zeros((3, 5), dtype=np.int64))


def test_write_csv_is_deterministic(tmp_path):
    agg = Aggregate(players=4)
    agg.add(fake_records(500, 4))
    table = summarize(agg, "v", ["random"] * 4)
    stats.write_csv(table, tmp_path / "a.csv")
    stats.write_csv(table, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    back = pd.read_csv(tmp_path / "a.csv")
    assert list(back.columns) == stats.SUMMARY_COLUMNS
