"""Comparison statistics (hand-computed cases), the extra metrics, and the compare / sweep
commands (bad input, determinism, a preset against itself)."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from uno_sim import cli, stats
from uno_sim.engine import layout as L
from uno_sim.stats import (
    Aggregate,
    IntHistogram,
    mann_whitney,
    newcombe_interval,
    two_proportion_z,
    welch_t,
    wilson_interval,
)

from test_stats import fake_records


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- tests, by hand


def test_two_proportion_z_hand_computed():
    # 45/100 vs 60/100: pooled p = 105/200 = 0.525;
    # se = sqrt(0.525 * 0.475 * (1/100 + 1/100)) = sqrt(0.0049875) = 0.0706222344591...
    # z = (0.60 - 0.45) / se = 2.12397697621...; p = 2 * (1 - Phi(z)) = 0.0336720688...
    z, p = two_proportion_z(45, 100, 60, 100)
    assert z == pytest.approx(2.123976976214366, abs=1e-12)
    assert p == pytest.approx(0.033672068856345834, abs=1e-12)
    z2, p2 = two_proportion_z(60, 100, 45, 100)
    assert z2 == pytest.approx(-z) and p2 == pytest.approx(p)
    assert all(math.isnan(v) for v in two_proportion_z(0, 50, 0, 80))  # no variation: no test
    assert all(math.isnan(v) for v in two_proportion_z(3, 0, 1, 10))


def test_welch_t_hand_computed():
    # a = 1..5: mean 3, s^2 = 2.5; b = 2, 4, ..., 12: mean 7, s^2 = 14.
    # se = sqrt(2.5/5 + 14/6) = sqrt(2.8333...) = 1.68325082306...; t = 4 / se = 2.37635410314...
    # df = 2.8333^2 / (0.5^2/4 + 2.3333^2/5) = 8.02777 / 1.15139 = 6.97225572979...
    t, df, p, low, high = welch_t(5, 3.0, 2.5, 6, 7.0, 14.0)
    assert t == pytest.approx(2.3763541031440183, abs=1e-12)
    assert df == pytest.approx(6.9722557297949335, abs=1e-10)
    half = sps.t.ppf(0.975, df) * 1.6832508230603465
    assert (low, high) == pytest.approx((4 - half, 4 + half), abs=1e-12)
    reference = sps.ttest_ind([2, 4, 6, 8, 10, 12], [1, 2, 3, 4, 5], equal_var=False)
    assert p == pytest.approx(reference.pvalue, abs=1e-12)
    assert p == pytest.approx(0.04928433820673053, abs=1e-12)
    assert all(math.isnan(v) for v in welch_t(1, 3.0, math.nan, 6, 7.0, 14.0))


def test_newcombe_interval_from_wilson():
    # Newcombe's method 10: the two Wilson intervals combined in quadrature.
    l1, u1 = wilson_interval(45, 100)
    l2, u2 = wilson_interval(60, 100)
    low, high = newcombe_interval(45, 100, 60, 100)
    assert low == pytest.approx(0.15 - math.sqrt((0.60 - l2) ** 2 + (u1 - 0.45) ** 2), abs=1e-12)
    assert high == pytest.approx(0.15 + math.sqrt((u2 - 0.60) ** 2 + (0.45 - l1) ** 2), abs=1e-12)
    assert low < 0.15 < high and low > 0  # significant at 5% here, like the z test


def test_mann_whitney_on_histograms_matches_scipy():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 30, size=400)
    b = rng.integers(2, 33, size=500)  # many ties, shifted
    ha, hb = IntHistogram(), IntHistogram()
    ha.add(a)
    hb.add(b)
    u, p = mann_whitney(ha, hb)
    reference = sps.mannwhitneyu(b, a, method="asymptotic", use_continuity=True)
    assert u == pytest.approx(reference.statistic)
    assert p == pytest.approx(reference.pvalue, rel=1e-9)
    same = IntHistogram()
    same.add(np.full(10, 4))
    assert math.isnan(mann_whitney(same, same)[1])


def test_quantile_interval_order_statistics():
    h = IntHistogram()
    h.add(np.arange(1, 101))
    # q = 0.1, n = 100: X_(10); ranks from Binomial(100, 0.1): 2.5% quantile 5, 97.5% quantile 16 (+1)
    assert h.quantile_interval(0.1) == (10.0, 5.0, 17.0)
    assert h.quantile_interval(0.9)[0] == 90.0
    assert h.maximum == 100.0
    assert h.variance() == pytest.approx(np.var(np.arange(1, 101), ddof=1))
    small = IntHistogram()
    small.add(np.array([1, 2, 3]))
    assert math.isnan(small.quantile_interval(0.1)[1])


# ---------------------------------------------------------------- measures


def test_new_metrics_against_pandas():
    players = 4
    rec = fake_records(4000, players, seed=11)
    rng = np.random.default_rng(5)
    rec[:, L.COL_POINTS : L.COL_POINTS + players] = rng.integers(0, 60, size=(4000, players))
    for column in (L.COL_JUMPS, L.COL_SWAPS, L.COL_ROTATIONS, L.COL_STACKS, L.COL_PENALTY_DRAWN):
        rec[:, column] = rng.integers(0, 3, size=4000)
    rec[:, L.COL_CHALLENGES_WON] = rec[:, L.COL_CHALLENGES] * rng.integers(0, 2, size=4000)
    agg = Aggregate(players=players)
    agg.add(rec)
    table = stats.summarize(agg, "v", ["random"] * players)
    value = dict(zip(table["metric"], table["value"]))
    winner = rec[:, L.COL_WINNER]
    assert value["first_player_edge"] == pytest.approx((winner == 0).mean() - 0.25)
    row = table.set_index("metric").loc["first_player_edge"]
    seat0 = table.set_index("metric").loc["win_rate_seat_0"]
    assert row["ci_low"] == pytest.approx(seat0["ci_low"] - 0.25)
    turns = rec[:, L.COL_TURNS]
    assert value["maximum_turns"] == turns.max()
    assert value["p10_turns"] == np.sort(turns)[math.ceil(0.1 * len(turns)) - 1]
    assert value["p90_turns"] == np.sort(turns)[math.ceil(0.9 * len(turns)) - 1]
    won = rec[winner >= 0]
    points = won[:, L.COL_POINTS : L.COL_POINTS + players]
    mask = np.arange(players)[None, :] != won[:, L.COL_WINNER][:, None]
    assert value["mean_loser_points"] == pytest.approx(points[mask].mean())
    assert value["mean_jumps"] == pytest.approx(rec[:, L.COL_JUMPS].mean())
    assert value["jump_in_rate"] == pytest.approx((rec[:, L.COL_JUMPS] > 0).mean())
    assert value["mean_swaps"] == pytest.approx(rec[:, L.COL_SWAPS].mean())
    assert value["mean_rotations"] == pytest.approx(rec[:, L.COL_ROTATIONS].mean())
    assert value["stack_rate"] == pytest.approx((rec[:, L.COL_STACKS] > 0).mean())
    assert value["challenge_success_rate"] == pytest.approx(
        rec[:, L.COL_CHALLENGES_WON].sum() / rec[:, L.COL_CHALLENGES].sum()
    )
    dist = stats.distributions_frame(agg, "v")
    assert list(dist.columns) == ["variant", "quantity", "value", "count", "share"]
    assert dist.groupby("quantity")["share"].sum().to_numpy() == pytest.approx(1.0)
    assert dist.loc[dist["quantity"] == "turns", "count"].sum() == 4000


def test_loser_points_with_teams():
    rec = fake_records(500, 4, seed=2)
    rec[:, L.COL_POINTS : L.COL_POINTS + 4] = np.arange(1, 5)  # seat i holds i + 1 points
    agg = Aggregate(players=4, teams=2)
    agg.add(rec)
    winner = rec[:, L.COL_WINNER]
    expected = [p for w in winner[winner >= 0] for p in ((2, 4) if w % 2 == 0 else (1, 3))]
    assert agg.loser_points.n == len(expected)
    assert agg.loser_points.sums()[0] == sum(expected)


def test_differences_of_identical_samples_are_zero_and_not_significant():
    agg = Aggregate(players=4)
    agg.add(fake_records(3000, 4, seed=1))
    ms = stats.measures(agg, ["random"] * 4)
    diffs = stats.differences([("a", ms), ("b", ms)])
    assert len(diffs) == len(ms)
    assert (diffs["diff"].fillna(0) == 0).all()
    assert not diffs["significant"].any()
    testable = diffs[diffs["test"] != ""]
    assert (testable["p_value"].dropna() > 0.99).all()


def test_differences_detect_a_real_shift():
    a, b = Aggregate(players=4), Aggregate(players=4)
    ra, rb = fake_records(3000, 4, seed=1), fake_records(3000, 4, seed=2)
    rb[:, L.COL_TURNS] += 10
    a.add(ra)
    b.add(rb)
    diffs = stats.differences([("a", stats.measures(a)), ("b", stats.measures(b))]).set_index("metric")
    assert diffs.loc["mean_turns", "diff"] == pytest.approx(10 + rb[:, L.COL_TURNS].mean() - 10 - ra[:, L.COL_TURNS].mean())
    assert diffs.loc["mean_turns", "significant"] and diffs.loc["mean_turns", "test"] == "Welch t"
    assert diffs.loc["median_turns", "diff"] > 0 and diffs.loc["median_turns", "test"] == ""
    assert diffs.loc["win_rate_seat_0", "test"] == "two-proportion z"


def test_a_quantile_row_carries_no_test_and_holm_counts_each_test_once():
    """Only the upper half of the game lengths grows: p10 is unchanged. A test of the whole
    distribution must not mark that row (it marked "+0.00 ***"), nor count thrice in Holm."""
    a, b = Aggregate(players=4), Aggregate(players=4)
    ra = fake_records(4000, 4, seed=1)
    rb = ra.copy()
    long = rb[:, L.COL_TURNS] > np.median(rb[:, L.COL_TURNS])
    rb[long, L.COL_TURNS] += 30
    a.add(ra)
    b.add(rb)
    diffs = stats.differences([("a", stats.measures(a)), ("b", stats.measures(b))]).set_index("metric")
    assert diffs.loc["p10_turns", "diff"] == 0 and diffs.loc["p90_turns", "diff"] == 30
    assert mann_whitney(a.distribution("turns"), b.distribution("turns"))[1] < 1e-6  # the distributions differ
    for metric in ("median_turns", "p10_turns", "p90_turns", "maximum_turns"):
        row = diffs.loc[metric]
        assert math.isnan(row["p_value"]) and math.isnan(row["p_adjusted"]) and not row["significant"], metric
        assert row["test"] == "", metric
    assert diffs.loc["mean_turns", "significant"]  # the shift is the mean row's question
    tested = diffs[diffs["p_value"].notna()]
    assert set(tested["test"]) <= {"two-proportion z", "Welch t"}
    assert not tested.index.str.startswith(("median_", "p10_", "p90_", "maximum_")).any()
    # Holm over exactly these m tests (seat 0's win rate and the first player's edge are one
    # test): the smallest p is multiplied by m
    m = len(tested) - 1
    smallest = tested["p_value"].idxmin()
    assert diffs.loc[smallest, "p_adjusted"] == pytest.approx(min(1.0, m * diffs.loc[smallest, "p_value"]))


def test_seat_0_win_rate_and_first_player_edge_are_one_test_in_holms_family():
    """Same player count: the edge is seat 0's win rate minus the same 1/n, one question; it
    used to enter Holm's family twice, making every other adjusted p-value larger."""
    a, b = Aggregate(players=4), Aggregate(players=4)
    ra, rb = fake_records(4000, 4, seed=1), fake_records(4000, 4, seed=2)
    rb[:150, L.COL_WINNER] = 0  # seat 0 wins more often in b
    rb[:150, L.COL_REASON] = L.REASON.out
    rb[:, L.COL_TURNS] += 4  # and games are a little longer
    a.add(ra)
    b.add(rb)
    diffs = stats.differences([("a", stats.measures(a)), ("b", stats.measures(b))]).set_index("metric")
    seat0, edge = diffs.loc["win_rate_seat_0"], diffs.loc["first_player_edge"]
    assert seat0["p_value"] == pytest.approx(edge["p_value"]) and 1e-12 < edge["p_value"] < 0.01
    family = diffs[diffs["p_value"].notna()].drop(index="win_rate_seat_0")
    expected = stats.holm(family["p_value"].to_numpy())
    assert family["p_adjusted"].tolist() == pytest.approx(expected.tolist(), rel=1e-12)
    assert seat0["p_adjusted"] == edge["p_adjusted"] and seat0["significant"] == edge["significant"]


def test_with_different_player_counts_seat_0_and_the_edge_are_two_tests():
    """3 against 4 players: seat 0's rate and the edge (rate - 1/n) ask different questions."""
    a, b = Aggregate(players=3), Aggregate(players=4)
    a.add(fake_records(3000, 3, seed=1))
    b.add(fake_records(3000, 4, seed=2))
    diffs = stats.differences([("a", stats.measures(a)), ("b", stats.measures(b))]).set_index("metric")
    tested = diffs[diffs["p_value"].notna()]
    assert {"win_rate_seat_0", "first_player_edge"} <= set(tested.index)
    assert tested["p_adjusted"].tolist() == pytest.approx(stats.holm(tested["p_value"].to_numpy()).tolist())


def test_compare_table_marks_no_quantile_row(capsys, tmp_path):
    code, out, err = invoke(capsys, "compare", "standard", "sum-jump-in", "--games", 3000, "--out", tmp_path / "o")
    assert code == 0, err
    rows = {cells[0]: cells for cells in ([c.strip() for c in line.strip("│").split("│")]
                                          for line in out.splitlines() if line.startswith("│ "))}
    quantiles = [name for name in rows if name.startswith(("median_", "p10_", "p90_"))]
    assert "p10_plays" in quantiles and "median_turns" in quantiles
    for name in quantiles:
        assert rows[name][-2:] == ["n/a", ""], rows[name]  # p (Holm), stars
    assert rows["mean_turns"][-1] == "***"
    diffs = pd.read_csv(tmp_path / "o" / "differences.csv")
    assert diffs.loc[diffs["metric"].str.startswith(("median_", "p10_", "p90_")), "p_value"].isna().all()


def test_stars():
    assert [stats.stars(p) for p in (0.2, 0.04, 0.009, 0.0001, math.nan)] == ["", "*", "**", "***", ""]


# ---------------------------------------------------------------- independent samples of one preset


def test_same_preset_two_seeds_no_significant_difference_at_1_percent():
    """Two independent samples (different seeds) of one preset: no metric differs at the 1%
    level (fixed seeds, so the outcome is deterministic)."""
    from uno_sim.game.bots import parse_bots
    from uno_sim.game.presets import load as load_preset
    from uno_sim.running.games import simulate

    rules = load_preset("standard")
    bots = parse_bots(None, 4)
    a = simulate(rules, bots, 20_000, seed=1, progress=False)
    b = simulate(rules, bots, 20_000, seed=2, progress=False)
    diffs = stats.differences([("a", a.measures()), ("b", b.measures())])
    tested = diffs.dropna(subset=["p_value"])
    assert len(tested) >= 12  # the rates and means (order statistics carry no test)
    assert (tested["p_value"] >= 0.01).all(), tested.loc[tested["p_value"] < 0.01, ["metric", "p_value"]]


# ---------------------------------------------------------------- compare / sweep commands


def assert_one_error_line(err, needle):
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert needle in lines[0], err


BAD = [
    (["compare", "standard"], "at least two presets"),
    (["compare", "standard", "nope"], "unknown preset 'nope'"),
    (["compare", "standard", "stacking", "--set", "colour=red"], "unknown knob 'colour'"),
    (["compare", "standard", "stacking", "--set", "deflect=true"], "deflect"),
    (["compare", "standard", "stacking", "--games", "0"], "--games"),
    (["compare", "standard", "stacking", "--players", "11"], "--players"),
    (["compare", "standard", "stacking", "--workers", "0"], "--workers"),
    (["compare", "standard", "stacking", "--seed", "-2"], "--seed"),
    (["compare", "standard", "stacking", "--bots", "random,random"], "2 bots for 4 players"),
    (["sweep", "standard"], "--vary"),
    (["sweep", "nope", "--vary", "players=2..4"], "unknown preset 'nope'"),
    (["sweep", "standard", "--vary", "players"], "KNOB=V1,V2"),
    (["sweep", "standard", "--vary", "colour=1,2"], "unknown knob 'colour'"),
    (["sweep", "standard", "--vary", "players=5..3"], "empty"),
    (["sweep", "standard", "--vary", "players=2..11"], "players"),
    (["sweep", "standard", "--vary", "players=2..x"], "whole numbers"),
    (["sweep", "standard", "--vary", "jump_in=0..1"], "jump_in"),
    (["sweep", "standard", "--vary", "jump_in=true,maybe"], "jump_in"),
    (["sweep", "standard", "--vary", "jump_in=true,,false"], "empty value"),
    (["sweep", "standard", "--vary", "hand_size=5,5"], "twice"),
    (["sweep", "standard", "--vary", "players=2..4", "--players", "3"], "conflicts"),
    (["sweep", "standard", "--vary", "jump_in=true,false", "--set", "jump_in=true"], "conflicts"),
    (["sweep", "standard", "--vary", "players=3,4", "--bots", "random,random,random"], "3 bots for 4 players"),
    (["sweep", "standard", "--vary", "hand_size=7,12", "--players", "9"], "hand_size"),
    (["sweep", "standard", "--vary", "players=2,3", "--games", "0"], "--games"),
]


@pytest.mark.parametrize("args, needle", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_compare_sweep_bad_input(capsys, tmp_path, args, needle):
    out_dir = tmp_path / "out"
    code, out, err = invoke(capsys, *args, "--out", out_dir)
    assert code == 2
    assert_one_error_line(err, needle)
    assert not out_dir.exists()
    assert list(tmp_path.iterdir()) == []


def test_compare_same_for_any_workers(capsys, tmp_path):
    outs = []
    for workers in (1, 2):
        out_dir = tmp_path / f"w{workers}"
        code, out, err = invoke(
            capsys, "compare", "stacking", "nostacking", "--games", "3000", "--seed", "7",
            "--workers", workers, "--out", out_dir,
        )
        assert code == 0, err
        assert "compare.csv" in out and "differences.csv" in out
        names = sorted(p.name for p in out_dir.iterdir())
        assert names == [
            ".uno-sim-files", "compare.csv", "differences.csv", "differences.png",
            "distributions.csv", "game_length.png", "max_pending.png", "report.html", "win_rates.png",
            "winner_points.png",
        ]
        for png in out_dir.glob("*.png"):
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        outs.append([(out_dir / n).read_bytes() for n in ("compare.csv", "differences.csv", "distributions.csv")])
    assert outs[0] == outs[1]
    table = pd.read_csv(tmp_path / "w1" / "compare.csv")
    assert list(table.columns) == ["variant", "metric", "value", "ci_low", "ci_high", "games"]
    assert list(dict.fromkeys(table["variant"])) == ["stacking", "nostacking"]
    assert (table["games"] == 3000).all()
    value = table.set_index(["variant", "metric"])["value"]
    assert value["nostacking", "stack_rate"] == 0 and value["stacking", "stack_rate"] > 0
    assert value["nostacking", "maximum_max_pending"] <= 4
    diffs = pd.read_csv(tmp_path / "w1" / "differences.csv").set_index("metric")
    assert list(diffs.columns) == ["variant", "baseline", "diff", "diff_ci_low", "diff_ci_high", "p_value",
                                   "p_adjusted", "test", "significant", "pooled_sd"]
    assert diffs.loc["stack_rate", "significant"]
    assert diffs.loc["mean_turns", "diff"] == pytest.approx(
        value["nostacking", "mean_turns"] - value["stacking", "mean_turns"]
    )


def test_compare_preset_with_itself(capsys, tmp_path):
    """With common random numbers a preset against itself plays the very same games: every
    difference is exactly 0 and nothing is significant at 1% (nor at 5%)."""
    out_dir = tmp_path / "self"
    code, out, err = invoke(capsys, "compare", "standard", "standard", "--games", "2000", "--out", out_dir)
    assert code == 0, err
    diffs = pd.read_csv(out_dir / "differences.csv")
    assert set(diffs["variant"]) == {"standard-2"} and set(diffs["baseline"]) == {"standard"}
    assert (diffs["diff"].fillna(0) == 0).all()
    assert not (diffs["p_value"] < 0.01).any()
    assert not diffs["significant"].any()
    assert "max_pending.png" not in {p.name for p in out_dir.iterdir()}  # no stacking anywhere


def test_compare_per_game_csv_and_parquet(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    out_dir = tmp_path / "pg"
    code, out, err = invoke(
        capsys, "compare", "standard", "stacking", "--games", "300", "--players", "3", "--per-game",
        "--parquet", "--out", out_dir,
    )
    assert code == 0, err
    for name in ("standard", "stacking"):
        csv = pd.read_csv(out_dir / f"games-{name}.csv")
        parquet = pd.read_parquet(out_dir / f"games-{name}.parquet")
        assert len(csv) == 300 and list(csv.columns) == list(parquet.columns)
        pd.testing.assert_frame_equal(csv, parquet, check_dtype=False)
    a = pd.read_csv(out_dir / "games-standard.csv")
    assert "cards_2" in a.columns and "cards_3" not in a.columns


def test_compare_default_out_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = invoke(capsys, "compare", "stacking", "nostacking", "--games", "200")
    assert code == 0, err
    (folder,) = (tmp_path / "reports").iterdir()
    assert folder.name.startswith("compare-stacking-nostacking-")
    assert f"wrote {folder / 'compare.csv'}" in out.replace("\n", " ") or "compare.csv" in out


def test_sweep_players(capsys, tmp_path):
    out_dir = tmp_path / "sw"
    code, out, err = invoke(capsys, "sweep", "standard", "--vary", "players=2..4", "--games", "1000",
                            "--out", out_dir)
    assert code == 0, err
    assert sorted(p.name for p in out_dir.iterdir()) == [".uno-sim-files", "report.html", "sweep.csv", "sweep.png"]
    table = pd.read_csv(out_dir / "sweep.csv")
    assert list(table.columns) == ["variant", "players", "metric", "value", "ci_low", "ci_high", "games"]
    assert sorted(set(table["players"])) == [2, 3, 4]
    seat0 = table[table["metric"] == "win_rate_seat_0"]
    assert len(seat0) == 3
    edge = table[table["metric"] == "first_player_edge"].set_index("players")["value"]
    for n, row in seat0.set_index("players").iterrows():
        assert edge[n] == pytest.approx(row["value"] - 1 / n)
    assert not (table["metric"] == "win_rate_seat_3").groupby(table["players"]).any()[2]


def test_sweep_knob_list(capsys, tmp_path):
    out_dir = tmp_path / "sw"
    code, out, err = invoke(capsys, "sweep", "standard", "--vary", "jump_in=false,true", "--games", "500",
                            "--players", "3", "--seed", "4", "--out", out_dir)
    assert code == 0, err
    table = pd.read_csv(out_dir / "sweep.csv", dtype={"jump_in": str})
    assert list(dict.fromkeys(table["jump_in"])) == ["false", "true"]
    value = table.set_index(["jump_in", "metric"])["value"]
    assert value["false", "jump_in_rate"] == 0 and value["true", "jump_in_rate"] > 0


def _table_blocks(out: str) -> list[list[list[str]]]:
    """The tables rich drew in `out`, each as its rows of cells (the header row first)."""
    blocks, current = [], None
    for line in out.splitlines():
        if line.startswith("┏"):
            current = []
            blocks.append(current)
        elif current is not None and line.startswith(("┃", "│")):
            current.append([c.strip() for c in line.strip("┃│").split("┃" if line[0] == "┃" else "│")])
        elif line.startswith("└"):
            current = None
    return blocks


def test_compare_table_is_whole_when_stdout_is_not_a_terminal(capsys, tmp_path):
    """Into a file or pipe (capsys is neither a terminal) the wide seven-variant table keeps
    every name and number: no cell cut to "st…"; too wide for 100 columns, it is drawn as the
    values side by side, then the differences, each table whole (the README says so: it was
    split into "continued, 2 of 4" parts of 100 columns)."""
    variants = ["standard", "sum-jump-in", "hand-sum", "wild-swap", "uno-catchers", "stacking-full", "number-finish"]
    code, out, err = invoke(capsys, "compare", *variants, "--games", 2000, "--out", tmp_path / "o")
    assert code == 0, err
    assert "…" not in out and "continued" not in out
    assert max(len(line) for line in out.splitlines() if line[:1] in "┏┃┡│└") > 100  # wider than a terminal part
    blocks = _table_blocks(out)
    assert len(blocks) == 2
    values = blocks[0]
    assert values[0] == ["metric", *variants]
    assert all(len(row) == len(values[0]) for row in values)
    summary = pd.read_csv(tmp_path / "o" / "compare.csv")
    turns = summary[summary["metric"] == "mean_turns"].set_index("variant")["value"]
    (row,) = [r for r in values if r[0] == "mean_turns"]
    assert row[1:] == [f"{turns[v]:.2f}" for v in variants]
    # the differences: every variant but the first, once, with the difference ± half its interval
    diff_headers = [name for block in blocks[1:] for name in block[0][1:]]
    assert diff_headers == variants[1:]
    diffs = pd.read_csv(tmp_path / "o" / "differences.csv").set_index(["variant", "metric"])
    shown = {}
    for block in blocks[1:]:
        for cells in block[1:]:
            if cells[0] == "mean_turns":
                shown.update(zip(block[0][1:], cells[1:]))
    for v in variants[1:]:
        d = diffs.loc[(v, "mean_turns")]
        assert shown[v].startswith(f"{d['diff']:+,.2f}±{(d['diff_ci_high'] - d['diff_ci_low']) / 2:,.2f}"), shown[v]
    assert "±: half the 95% interval's width" in out


def test_a_two_variant_compare_table_stays_one_table(capsys, tmp_path):
    code, out, err = invoke(capsys, "compare", "standard", "stacking", "--games", 2000, "--out", tmp_path / "o")
    assert code == 0, err
    (block,) = _table_blocks(out)
    assert block[0] == ["metric", "standard", "stacking", "stacking - standard", "p (Holm)", ""]
    assert max(len(line) for line in out.splitlines() if line[:1] in "┏┃┡│└") <= 100


def test_compare_table_on_a_terminal_keeps_its_width(monkeypatch, capsys):
    from uno_sim.cli import render

    monkeypatch.setenv("COLUMNS", "90")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    console = render.stdout()
    assert console.is_terminal and console.width == 90


# ---------------------------------------------------------------- many variants: charts and tables

MANY_PRESETS = ["standard", "stacking", "nostacking", "house", "jump-in", "seven-zero", "deflect", "draw-until",
                "free-wd4", "hand-sum", "number-finish", "quick", "stacking-full", "strict-wd4", "sum-jump-in",
                "uno-catchers", "wild-swap", "chips", "teams", "last-standing"]


@pytest.fixture(scope="module")
def twenty():
    import uno_sim

    return uno_sim.compare(MANY_PRESETS, games=300, bots="expert,random,random,random")


def test_palette_never_repeats_a_colour():
    from matplotlib.colors import to_hex

    from uno_sim.output import charts

    assert charts.palette(2) == list(charts.COLORS[:2])  # a few variants: the colours as before
    for n in (3, 10, 11, 20, 33):
        colours = [to_hex(c) for c in charts.palette(n)]
        assert len(colours) == n == len(set(colours)), n


def test_twenty_variants_draw_every_chart_without_warnings_at_sane_sizes(twenty):
    import warnings

    from matplotlib.colors import to_hex

    assert "bot_win_rates" in twenty.chart_names()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figures = {name: twenty.figure(name) for name in twenty.chart_names()}
        for name in figures:
            twenty.chart_png(name)
    assert [str(w.message) for w in caught] == []
    for name, fig in figures.items():
        width, height = fig.get_size_inches() * 120  # png_bytes' dpi
        assert 800 <= width <= 2000 and 500 <= height <= 1700, (name, width, height)
    # the seat chart: one row per variant in each seat's panel, each variant its own colour
    seats = figures["win_rates"]
    first = seats.axes[0]
    assert [t.get_text() for t in first.get_yticklabels()] == MANY_PRESETS[::-1]
    colours = {to_hex(line.get_color()) for line in first.get_lines() if len(line.get_xdata()) == 1}
    assert len(colours) == len(MANY_PRESETS)
    # the legends of overlaid curves sit right of the plots, one entry per variant
    lengths = figures["game_length"]
    (legend,) = lengths.legends
    assert len(legend.get_texts()) == len(MANY_PRESETS)
    box = legend.get_window_extent()
    for ax in lengths.axes:
        assert ax.get_window_extent().x1 <= box.x0


def test_twenty_variants_differences_as_a_matrix(twenty):
    fig = twenty.plot_differences()
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == MANY_PRESETS[1:]
    diffs = twenty.differences.set_index(["variant", "metric"])
    d = diffs.loc[("house", "mean_turns")]
    cells = {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in ax.texts}
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert cells[(MANY_PRESETS[1:].index("house"), rows.index("mean_turns"))] == f"{d['diff']:+.3g}"


def _as_on_a_terminal(monkeypatch, columns=100):
    """Standard output drawn as on a terminal of `columns` columns (rich reads TTY_COMPATIBLE
    and COLUMNS); redirected, tables are printed whole. Read it through _unstyled."""
    for name, value in (("TTY_COMPATIBLE", "1"), ("COLUMNS", str(columns))):
        monkeypatch.setenv(name, value)


def _unstyled(text: str) -> str:
    """The text without a terminal's style codes (bold)."""
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_twenty_variant_tables_fit_in_100_columns(twenty, capsys, monkeypatch):
    from uno_sim.cli import render
    _as_on_a_terminal(monkeypatch)
    from uno_sim.output.tables import table_width

    tables = twenty.tables()
    assert all(table_width(t) <= 100 for t in tables)
    render.print_compare(twenty)
    out = _unstyled(capsys.readouterr().out)
    drawn = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert max(len(line) for line in drawn) <= 100
    blocks = _table_blocks(out)
    value_columns = [name for block in blocks for name in block[0][1:]]
    assert value_columns.count("standard") == 1  # the baseline: a value column, no difference column
    assert all(value_columns.count(name) == 2 for name in MANY_PRESETS[1:])  # a value and a difference each


def test_forest_arrows_sit_on_their_variants_line(twenty):
    """With three variants the effects beyond the axis are arrows whose labels sit on the
    line of their variant within the metric's row (not between rows)."""
    from matplotlib.colors import to_hex

    from uno_sim.api import Comparison

    cmp = Comparison([twenty.runs[0], twenty.runs[1], twenty.runs[3]], "")  # standard, stacking, house
    fig = cmp.plot_differences()
    ax = fig.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    labels = [t for t in ax.texts if t.get_text()[:1] in "+-" and t.get_text()[1:2].isdigit()]
    assert labels, "no arrow drawn"
    for text in labels:
        y = text.xy[1]
        row = round(y)
        assert 0 <= row < len(rows) and abs(y - row) <= 0.4  # inside its metric's row
    # the first variant after the baseline on the upper line of a row, the second on the lower
    by_colour = {}
    for text in labels:
        by_colour.setdefault(to_hex(text.get_color()), set()).add(round(text.xy[1] - round(text.xy[1]), 3))
    offsets = [sorted(v) for v in by_colour.values()]
    assert all(len(v) == 1 for v in offsets) and len({v[0] for v in offsets}) == len(offsets)


def test_sweep_chart_plots_the_edge_it_names():
    from uno_sim.output import charts

    rows = []
    for players, edge, turns in ((2, 0.031, 40.0), (3, 0.012, 45.0), (4, -0.004, 50.0)):
        rows += [{"players": players, "metric": "first_player_edge", "value": edge, "ci_low": edge - 0.01,
                  "ci_high": edge + 0.01},
                 {"players": players, "metric": "win_rate_seat_0", "value": 1 / players + edge,
                  "ci_low": 1 / players + edge - 0.01, "ci_high": 1 / players + edge + 0.01},
                 {"players": players, "metric": "mean_turns", "value": turns, "ci_low": turns - 1,
                  "ci_high": turns + 1}]
    fig = charts.sweep(pd.DataFrame(rows), "players", "standard", "random x4", 1000, [2, 3, 4])
    top = fig.axes[0]
    plotted = [list(line.get_ydata()) for line in top.get_lines() if len(line.get_ydata()) == 3]
    assert [0.031, 0.012, -0.004] in plotted  # the edge, not seat 0's raw win rate
    low, high = top.get_ylim()
    assert low < 0 < high and high - low < 0.1  # around 0 (fair), a few points wide
    assert "largest at players = 2 (+3.10 pp)" in fig._suptitle.get_text()


def test_the_skill_index_is_shown_in_percentage_points(tmp_path):
    """skill_index is an edge (a win rate minus the fair share), shown like first_player_edge:
    the values in pp and the difference in pp, in the terminal and the report (one table
    model); it was shown as a plain number rounded to 0.1 and a difference of -0.0050."""
    from uno_sim import api
    from uno_sim.output.tables import compare_table

    cmp = api.compare(["standard", "jump-in"], games=2000, skill=True)
    table = compare_table(cmp)
    row = next(r for r in table.rows if r[0] == "skill_index")
    values = cmp.summary.set_index(["variant", "metric"])["value"]
    assert row[1] == f"{100 * values[('standard', 'skill_index')]:+.2f} pp"
    diff = cmp.differences.set_index("metric").loc["skill_index", "diff"]
    assert row[3].startswith(f"{100 * diff:+.2f}")


def test_run_no_mercy_draws_the_largest_penalty_chart(capsys, tmp_path):
    """No-mercy stacks by value (`stack_by_value`) in nearly every game, yet `run no-mercy`
    wrote no max_pending.png: only the classic stack_* knobs counted as stacking."""
    out_dir = tmp_path / "nm"
    code, _, err = invoke(capsys, "run", "no-mercy", "--games", "500", "--out", out_dir)
    assert code == 0, err
    summary = pd.read_csv(out_dir / "summary.csv").set_index("metric")
    assert summary.loc["stack_rate", "value"] > 0.5
    assert "max_pending.png" in {p.name for p in out_dir.iterdir()}


@pytest.mark.parametrize("preset", ["standard", "stacking", "deflect", "no-mercy", "stacking-full", "house",
                                    "nostacking", "last-standing"])
def test_rules_stack_exactly_when_games_can_stack(preset):
    """`Rules.stacks`, the one answer to "is stacking on" (the max_pending chart asks it), is
    true exactly when random bots, who answer a pending penalty whenever they can, stack."""
    from uno_sim import api

    res = api.run(preset, games=400, seed=2)
    stacked = res.summary.set_index("metric").loc["stack_rate", "value"] > 0
    assert res.rules.stacks == stacked
    assert ("max_pending" in res.chart_names()) == stacked
