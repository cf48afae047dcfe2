"""The rule designer (`uno-sim design`, uno_sim.design): the race's statistics against direct
per-game computations, its constraints, its bad input, and whole races (same race for any
thread count; the files; every drop explained)."""

from __future__ import annotations

import json
import re
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

import uno_sim
from uno_sim import cli
from uno_sim.stats import racing


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- statistics


def _correlated(n: int, seed: int = 3):
    """Three points' per-game values sharing a per-deal part (as the same deals do)."""
    rng = np.random.default_rng(seed)
    base = rng.poisson(40, n)
    return [base + rng.poisson(2, n), base + rng.poisson(3, n), base // 2 + rng.poisson(1, n)]


def test_paired_variance_equals_the_per_game_differences_variance():
    n = 6000
    ys = _correlated(n)
    ones = [np.ones(n, dtype=np.int64)] * 3
    m = racing.Moments(3)
    for lo, hi in ((0, 1000), (1000, 4500), (4500, n)):  # chunked: the moments merge exactly
        m.add([0, 1, 2], [y[lo:hi] for y in ys], [d[lo:hi] for d in ones])
    e = racing.estimates(m, [0, 1, 2], [0.0, 0.0, 0.0])
    assert np.allclose(e.value, [y.mean() for y in ys], rtol=0, atol=1e-12)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        d = ys[i] - ys[j]
        diff, low, high = e.difference(i, j, 1.0)
        assert diff == pytest.approx(d.mean(), abs=1e-12)
        assert (high - low) / 2 == pytest.approx(d.std(ddof=1) / math.sqrt(n), rel=1e-9)
    # pairing is what narrows it: the independent interval is wider for these correlated values
    diff, low, high = e.difference(0, 1, 1.0)
    independent = math.sqrt(ys[0].var(ddof=1) / n + ys[1].var(ddof=1) / n)
    assert (high - low) / 2 < 0.5 * independent


def test_moments_do_not_depend_on_how_the_games_are_split():
    n = 3000
    ys = _correlated(n)
    ones = [np.ones(n, dtype=np.int64)] * 3
    whole, parts = racing.Moments(3), racing.Moments(3)
    whole.add([0, 1, 2], ys, ones)
    for lo in range(0, n, 700):
        piece = racing.Moments(3)
        piece.add([0, 1, 2], [y[lo:lo + 700] for y in ys], [d[lo:lo + 700] for d in ones])
        parts.merge(piece)
    assert np.array_equal(whole.sums, parts.sums) and np.array_equal(whole.cross, parts.cross)


def test_ratio_metric_variance_matches_the_games_it_is_over():
    """mean_winner_points is a mean over games with a winner: the delta method's paired
    variance agrees with the direct one over those games."""
    n = 20000
    rng = np.random.default_rng(5)
    a, b, _ = _correlated(n)
    won = rng.random(n) < 0.8
    m = racing.Moments(2)
    m.add([0, 1], [np.where(won, a, 0), np.where(won, b, 0)], [won.astype(np.int64)] * 2)
    e = racing.estimates(m, [0, 1], [0.0, 0.0])
    assert e.value[0] == pytest.approx(a[won].mean(), rel=1e-12)
    diff, low, high = e.difference(0, 1, 1.0)
    d = (a - b)[won]
    assert diff == pytest.approx(d.mean(), rel=1e-12)
    assert (high - low) / 2 == pytest.approx(d.std(ddof=1) / math.sqrt(won.sum()), rel=0.01)


def test_points_that_did_not_play_the_same_games_are_not_compared():
    m = racing.Moments(2)
    m.add([0], [np.arange(10)], [np.ones(10, dtype=np.int64)])
    with pytest.raises(ValueError):
        racing.estimates(m, [0, 1], [0.0, 0.0])


def test_race_z_is_the_bonferroni_quantile():
    looks = racing.race_looks(8, 24, 2)
    assert looks == 8 * (24 * 2 + 24 * 23 // 2)
    assert racing.race_z(looks) == pytest.approx(scipy_stats.norm.ppf(1 - 0.05 / (2 * looks)), rel=1e-10)


def test_schedule_doubles_and_fits_the_budget_for_one_point():
    cumulative = racing.schedule(2_000_000, 24, 10_000)
    assert cumulative[0] == 10_000
    assert all(b == 2 * a for a, b in zip(cumulative, cumulative[1:]))
    # one point alone after round 1 can play every round listed, and not one more
    spent = 24 * 10_000 + sum(cumulative[:-1])
    assert spent <= 2_000_000 < spent + cumulative[-1]


@pytest.mark.parametrize("text, metric, op, bound, absolute", [
    ("abs(first_player_edge)<0.5pp", "first_player_edge", "<", 0.005, True),
    ("mean_turns<45", "mean_turns", "<", 45.0, False),
    (" skill_index > 5pp ", "skill_index", ">", 0.05, False),
    ("no_winner_rate<=0.01", "no_winner_rate", "<", 0.01, False),
])
def test_constraints_parse(text, metric, op, bound, absolute):
    c = racing.parse_constraint(text)
    assert (c.metric, c.op, c.absolute) == (metric, op, absolute)
    assert c.bound == pytest.approx(bound)


@pytest.mark.parametrize("text", ["mean_turns", "mean_turns<<4", "abs(first_player_edge)<0", "<4", "mean_turns<nan",
                                  "abs(mean_turns<4"])
def test_malformed_constraints_are_refused(text):
    with pytest.raises(ValueError):
        racing.parse_constraint(text)


@pytest.mark.parametrize("text, low, high, verdict", [
    ("mean_turns<45", 40.0, 44.0, "met"), ("mean_turns<45", 46.0, 48.0, "broken"), ("mean_turns<45", 44.0, 46.0, "open"),
    ("mean_turns>45", 46.0, 48.0, "met"), ("mean_turns>45", 40.0, 45.0, "broken"),
    ("abs(first_player_edge)<0.01", -0.005, 0.008, "met"), ("abs(first_player_edge)<0.01", 0.012, 0.02, "broken"),
    ("abs(first_player_edge)<0.01", -0.03, -0.011, "broken"), ("abs(first_player_edge)<0.01", 0.005, 0.015, "open"),
    ("mean_turns<45", math.nan, math.nan, "open"),
])
def test_constraint_verdicts_from_an_interval(text, low, high, verdict):
    assert racing.parse_constraint(text).verdict(low, high) == verdict


def test_race_metrics_give_the_summary_values_of_the_same_games():
    """Each raced metric, as the ratio of its per-game sums, equals summary.csv's value of
    the same games (two independent paths: the race's columns and stats.Aggregate)."""
    res = uno_sim.run("house", games=3000, seed=11, per_game=False, workers=1)
    from uno_sim.engine.batch import run_chunk
    from uno_sim.game.bots import pack_bots
    from uno_sim.engine.keys import run_key

    codes, params = pack_bots(res.bots)
    rows = run_chunk(res.rules.pack(), codes, params, run_key(11), 0, 3000, deck=res.rules.cards)
    summary = res.summary.set_index("metric")["value"]
    checked = 0
    for name, spec in racing.RACE_METRICS.items():
        if spec.skill or name not in summary.index or summary[name] != summary[name]:
            continue
        y, d = spec.columns(rows)
        if d.sum() == 0:
            continue
        assert y.sum() / d.sum() - spec.offset(res.rules.players) == pytest.approx(summary[name], abs=1e-12), name
        checked += 1
    assert checked >= 30


# ---------------------------------------------------------------- bad input

BAD = [
    (["--minimize", "mean_turnz"], "did you mean 'mean_turns'"),
    (["--minimize", "mean_turns", "--maximize", "mean_turns"], "exactly one of --minimize"),
    ([], "exactly one of --minimize"),
    (["--minimize", "mean_turns", "--constraint", "mean_turns<<4"], "bad constraint"),
    (["--minimize", "mean_turns", "--constraint", "abs(first_player_edgy)<0.5pp"], "unknown metric"),
    (["--minimize", "mean_turns", "--constraint", "mean_turns<40pp"], "pp (percentage points) is for rates"),
    (["--minimize", "median_turns"], "cannot be raced"),
    (["--minimize", "mean_turns", "--max-games", "1500"], "too small for one round"),
    (["--minimize", "mean_turns", "--max-games", "-5"], "--max-games"),
    (["--minimize", "mean_turns", "--round-games", "10"], "--round-games"),
    (["--minimize", "mean_turns", "--tolerance", "-1"], "--tolerance"),
    (["--minimize", "mean_turns", "--set", "hand_size=7"], "conflicts"),
    (["--minimize", "mean_turns", "--constraint", "mean_turns<30", "--constraint", "mean_turns>40"],
     "--constraint 'mean_turns<30' and 'mean_turns>40' cannot both hold"),
    (["--maximize", "mean_turns", "--constraint", "abs(first_player_edge)<1pp", "--constraint", "mean_turns>3",
      "--constraint", "first_player_edge>0.02"], "cannot both hold: no value of first_player_edge"),
    # a bound outside the metric's range decides nothing (first_player_edge<2 read as 200 pp)
    (["--minimize", "mean_turns", "--constraint", "first_player_edge<2"],
     "2 is outside the range of first_player_edge, -1..1"),
    (["--minimize", "mean_turns", "--constraint", "abs(first_player_edge)>2"], "outside the absolute values of"),
    (["--minimize", "mean_turns", "--constraint", "no_winner_rate>1.5"], "1.5 is outside the range of no_winner_rate"),
    (["--minimize", "mean_turns", "--constraint", "mean_turns>-1"], "-1 is outside the range of mean_turns, 0..inf"),
]


@pytest.mark.parametrize("extra, needle", BAD, ids=[" ".join(a) or "no objective" for a, _ in BAD])
def test_bad_input_is_one_line_exit_2_nothing_written(capsys, tmp_path, extra, needle):
    out = tmp_path / "out"
    code, stdout, err = invoke(capsys, "design", "standard", "--vary", "hand_size=5,7", *extra, "--out", out)
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert not out.exists()


@pytest.mark.parametrize("texts, clash", [
    (["mean_turns<30", "mean_turns>40"], [0, 1]),
    (["mean_turns<30", "mean_turns>30"], [0, 1]),  # (<= reads as <: open bounds)
    (["mean_turns<=30", "mean_turns>=30"], [0, 1]),
    (["abs(first_player_edge)<1pp", "first_player_edge>1pp"], [0, 1]),
    (["abs(first_player_edge)<1pp", "first_player_edge<-0.01"], [0, 1]),
    (["abs(first_player_edge)<1pp", "abs(first_player_edge)>2pp"], [0, 1]),
    (["no_winner_rate<0.1", "mean_turns>40", "no_winner_rate>0.2"], [0, 2]),
    # each pair can hold, all three cannot: |x| > 1 leaves x < -1 or x > 1
    (["abs(first_player_edge)>1pp", "first_player_edge<0.5pp", "first_player_edge>-0.5pp"], [0, 1, 2]),
    (["mean_turns<40", "mean_turns>30"], None),
    (["mean_turns<30.001", "mean_turns>30"], None),
    (["abs(first_player_edge)>1pp", "first_player_edge<0.5pp"], None),
    (["abs(first_player_edge)>-1", "first_player_edge<0"], None),
    (["mean_turns<30", "mean_draws>40"], None),
])
def test_constraints_that_cannot_all_hold_are_found(texts, clash):
    from uno_sim.stats.racing import contradiction, parse_constraint

    constraints = [parse_constraint(t) for t in texts]
    found = contradiction(constraints)
    assert found == (None if clash is None else [constraints[i] for i in clash])


def test_contradictory_constraints_are_refused_before_any_game():
    """`mean_turns<30` with `mean_turns>40` played the whole budget, then said no point met
    them; it is refused while preparing."""
    with pytest.raises(uno_sim.BadInput, match="cannot both hold: no value of mean_turns meets them"):
        uno_sim.api.prepare_design("standard", {"hand_size": [5, 7]}, minimize="mean_turns",
                                   constraints=["mean_turns<30", "mean_turns>40"])


def test_python_api_names_its_parameters():
    with pytest.raises(uno_sim.BadInput, match="max_games"):
        uno_sim.design("standard", {"hand_size": [5, 7]}, minimize="mean_turns", max_games=100)


# ---------------------------------------------------------------- races

GRID = ["--vary", "hand_size=3,5,7,9", "--vary", "stack_draw_two=false,true"]
RACE = ["design", "standard", *GRID, "--minimize", "mean_turns", "--constraint", "abs(first_player_edge)<3pp",
        "--max-games", "120000", "--round-games", "2000", "--seed", "5"]


def test_the_same_race_on_one_or_two_threads(capsys, tmp_path, monkeypatch):
    for name, value in (("TTY_COMPATIBLE", "1"), ("COLUMNS", "100")):
        monkeypatch.setenv(name, value)  # drawn as on a terminal: redirected, tables are whole
    frames = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        code, stdout, err = invoke(capsys, *RACE, "--workers", workers, "--out", out)
        stdout = re.sub(r"\x1b\[[0-9;]*m", "", stdout)  # the terminal's bold
        assert code == 0, err
        assert {"standings.csv", "race.csv", "race.png", "report.html"} <= {p.name for p in out.iterdir()}
        frames.append(((out / "standings.csv").read_bytes(), (out / "race.csv").read_bytes()))
        page = (out / "report.html").read_text(encoding="utf-8")
        assert "<title>uno-sim design: standard</title>" in page and "standings: smallest mean_turns" in page
        assert 'alt="race chart"' in page and "rounds of the race" in page
        # the terminal's tables fit 100 columns; the reasons are in the CSV and the report
        drawn = [line for line in stdout.splitlines() if line[:1] in "┏┃┡│└"]
        assert drawn and max(len(line) for line in drawn) <= 100
        assert "beaten in round" in stdout and "why dropped" in page
    assert frames[0] == frames[1]


def test_a_skill_index_race_is_the_same_on_one_or_two_threads():
    """skill_index is raced on each point's skill games (one pro against random bots)."""
    runs = [uno_sim.design(None, {"preset": ["standard", "stacking"]}, maximize="skill_index",
                           constraints=["mean_turns<80"], max_games=16_000, round_games=2000, seed=3, workers=w)
            for w in (1, 2)]
    a, b = (r.standings for r in runs)
    pd.testing.assert_frame_equal(a, b)
    assert runs[0].games_used == int((runs[0].rounds["points"] * runs[0].rounds["games_per_point"].diff().fillna(
        runs[0].rounds["games_per_point"])).sum()) * 2  # each point's games and as many skill games
    assert (a["skill_index_ci_low"] < a["skill_index"]).all() and (a["skill_index"] < a["skill_index_ci_high"]).all()


def test_skill_index_alone_or_as_a_constraint_is_raced(capsys, tmp_path):
    """A race whose every metric is skill_index plays only the skill games (it failed with
    "need at least one array to concatenate": the points' own games had no metric to feed)."""
    alone = uno_sim.design("standard", {"hand_size": [5, 7]}, maximize="skill_index",
                           max_games=8_000, round_games=2000, seed=3)
    s = alone.standings
    assert sorted(s["point"]) == sorted(alone.point_names)
    assert (s["skill_index_ci_low"] < s["skill_index"]).all() and (s["skill_index"] < s["skill_index_ci_high"]).all()
    # one stream a point: the games used are the points' games, not twice them
    assert alone.games_used == int((alone.rounds["points"] * alone.rounds["games_per_point"].diff().fillna(
        alone.rounds["games_per_point"])).sum())
    # skill_index as the only constraint beside an objective of the points' own games
    code, out, err = invoke(capsys, "design", "standard", "--vary", "hand_size=5..7", "--minimize", "mean_turns",
                            "--constraint", "skill_index>0.01", "--max-games", 12_000, "--round-games", 2000,
                            "--out", tmp_path / "d")
    assert code == 0, err
    assert "unexpected failure" not in err and (tmp_path / "d" / "standings.csv").exists()
    code, out, err = invoke(capsys, "design", "standard", "--vary", "hand_size=5..7", "--maximize", "skill_index",
                            "--max-games", 8_000, "--round-games", 2000, "--out", tmp_path / "e")
    assert code == 0, err
    assert "skill_index" in out and (tmp_path / "e" / "race.csv").exists()


def test_a_race_explains_every_drop_and_stays_in_budget(tmp_path):
    d = uno_sim.design("standard", {"hand_size": [3, 5, 7, 9], "stack_draw_two": [False, True]},
                       minimize="mean_turns", constraints=["abs(first_player_edge)<3pp"], max_games=120_000,
                       round_games=2000, seed=5)
    s = d.standings
    assert len(s) == 8 and sorted(s["point"]) == sorted(d.point_names)
    assert d.games_used <= 120_000
    assert d.games_used == int((d.rounds["points"] * d.rounds["games_per_point"].diff().fillna(
        d.rounds["games_per_point"])).sum())
    dropped = s[s["standing"].str.startswith("dropped")]
    assert (dropped["reason"].str.len() > 0).all()
    assert (s.loc[~s["standing"].str.startswith("dropped"), "reason"] == "").all()
    # a point dropped as beaten was worse than its leader with confidence; one dropped as
    # infeasible broke the constraint with confidence
    for _, r in dropped.iterrows():
        if r["reason"].startswith("beaten"):
            assert r["vs_leader_ci_low"] > 0
        else:
            assert r["first_player_edge_ci_low"] >= 0.03 or r["first_player_edge_ci_high"] <= -0.03
    if d.winner is not None:
        w = s.iloc[0]
        assert w["standing"] == "winner" and w["point"] == d.winner
        assert d.full_grid_games == 8 * w["games"]
    assert d.headline[0].startswith(("Winner", "No grid point"))
    data = d.to_dict()
    json.dumps(data, allow_nan=False)
    assert data["games_used"] == d.games_used


def test_an_impossible_constraint_leaves_no_winner(tmp_path):
    d = uno_sim.design("standard", {"hand_size": [5, 7]}, minimize="mean_turns", constraints=["mean_turns<2"],
                       max_games=20_000, round_games=2000, seed=1)
    assert d.winner is None and d.outcome == "no feasible point"
    assert (d.standings["reason"].str.startswith("infeasible")).all()
    assert d.headline[0].startswith("No grid point meets the constraints")


# ---------------------------------------------------------------- the race's error control, by simulation


class SyntheticGames:
    """Plays a race's rounds with synthetic games of known truth: per game, turns share a
    deal effect across the points (as the same deals do) plus each point's own noise, and
    seat 0 wins with each point's probability. Columns as the race reads them: mean_turns'
    (y, d), then first_player_edge's."""

    def __init__(self, means, win_probs, seed):
        self.means, self.win_probs, self.seed = np.asarray(means), np.asarray(win_probs), seed

    def play_round(self, alive, first_game, games, label, fold):
        rng = np.random.default_rng([self.seed, first_game])
        deal = rng.normal(0.0, 8.0, games)
        ones = np.ones(games, dtype=np.int64)
        fold([np.column_stack([np.rint(self.means[i] + deal + rng.normal(0.0, 6.0, games)).astype(np.int64), ones,
                               (rng.random(games) < self.win_probs[i]).astype(np.int64), ones]) for i in alive])


def _synthetic_races(means, win_probs, repetitions):
    from uno_sim.api.races import run_race
    from uno_sim.running.progress import SILENT

    plan = uno_sim.api.prepare_design("standard", {"hand_size": [3, 4, 5, 6, 7, 8], "stack_draw_two": [False, True]},
                                      minimize="mean_turns", constraints=["abs(first_player_edge)<2pp"],
                                      max_games=400_000, round_games=1000, seed=0)
    assert len(plan.points) == len(means) and plan.plans[0].rules.players == 4
    for rep in range(repetitions):
        yield plan, run_race(plan, SILENT, player=lambda race, rep=rep: SyntheticGames(means, win_probs, rep))


def test_the_race_keeps_its_95_percent_guarantee_by_simulation():
    """150 races of 12 points of known truth. An error: the best feasible point dropped, a
    feasible point dropped as infeasible, or a point dropped as beaten by one that is not
    better. Bonferroni over the whole race promises errors in at most 5% of races."""
    fair, unfair = 0.25 + 0.01, 0.25 + 0.05  # first-player edge +1 pp (feasible), +5 pp (not)
    means = [29.0, 30.0, 30.3, 31.0, 33.0, 36.0, 40.0, 29.5, 30.0, 32.0, 34.0, 45.0]
    probs = [unfair, fair, fair, fair, fair, fair, fair, unfair, fair, fair, fair, fair]
    feasible = [p == fair for p in probs]
    best = min(mu for mu, ok in zip(means, feasible) if ok)
    errors = decided = 0
    for plan, found in _synthetic_races(means, probs, 150):
        s = found["standings"].set_index("point")
        wrong = False
        for i, name in enumerate(plan.names):
            reason = s.loc[name, "reason"]
            if reason.startswith("infeasible") and feasible[i]:
                wrong = True
            if reason.startswith("beaten"):
                leader = plan.names.index(s.loc[name, "leader"])
                if not (feasible[leader] and means[leader] < means[i]):
                    wrong = True
        errors += wrong
        decided += found["winner"] is not None and means[plan.names.index(found["winner"])] <= best + 0.3
    assert errors <= 0.05 * 150
    # and it mostly ends at the best feasible point (30.0, twice in the grid) or at 30.3, within
    # the tie tolerance (1% of the best) of it; the other races ran out of budget before those
    # were shown to meet the constraint (not an error: then the headline says it is not settled)
    assert decided >= 0.85 * 150


def test_a_race_of_equal_points_drops_none_as_beaten_by_simulation():
    means = [35.0] * 12
    probs = [0.25] * 12
    dropped = 0
    for plan, found in _synthetic_races(means, probs, 100):
        dropped += (found["standings"]["reason"] != "").any()
    assert dropped <= 0.05 * 100


def test_a_rate_no_game_tells_apart_still_has_an_interval():
    n = 1000
    same = np.zeros(n, dtype=np.int64)
    m = racing.Moments(2)
    m.add([0, 1], [same, same], [np.ones(n, dtype=np.int64)] * 2)
    diff, low, high = racing.estimates(m, [0, 1], [0.0, 0.0], binary=True).difference(0, 1, 2.0)
    assert diff == 0.0 and high == pytest.approx(2.0 / n) and low == pytest.approx(-2.0 / n)


def test_the_tie_tolerance_of_a_mean_names_its_unit(monkeypatch):
    """The headline's "tie tolerance" of a mean objective says what it counts ("0.339 turns"),
    not a bare number; a rate's is in pp."""
    from uno_sim.api import races

    real = races.run_race
    monkeypatch.setattr(races, "run_race", lambda plan, progress: real(
        plan, progress, player=lambda race: SyntheticGames([35.0] * 12, [0.25] * 12, 0)))
    plan = uno_sim.api.prepare_design("standard", {"hand_size": [3, 4, 5, 6, 7, 8], "stack_draw_two": [False, True]},
                                      minimize="mean_turns", constraints=["abs(first_player_edge)<2pp"],
                                      max_games=400_000, round_games=1000, seed=0)
    (line,) = [line for line in plan.execute().headline if "tie tolerance" in line]
    assert re.search(r"tie tolerance \d[\d,.]* turns\)", line), line


def test_the_race_charts_legend_covers_no_bar_label_and_no_curve(monkeypatch):
    """race.png: the legend of the rounds' bars overlapped the last bar's label (the number of
    points kept); it sits above the bars now, clear of every label and of the upper chart."""
    from uno_sim.api import races

    real = races.run_race
    means = [35.0] * 12  # no point dropped: every bar as tall as the first, its label up by the legend
    monkeypatch.setattr(races, "run_race", lambda plan, progress: real(
        plan, progress, player=lambda race: SyntheticGames(means, [0.25] * 12, 0)))
    plan = uno_sim.api.prepare_design("standard", {"hand_size": [3, 4, 5, 6, 7, 8], "stack_draw_two": [False, True]},
                                      minimize="mean_turns", constraints=["abs(first_player_edge)<2pp"],
                                      max_games=400_000, round_games=1000, seed=0)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = plan.execute().plot()
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    top, bottom = fig.axes[:2]
    legend = bottom.get_legend().get_window_extent(renderer)
    labels = [t.get_window_extent(renderer) for t in bottom.texts]
    assert labels and not [b for b in labels if b.overlaps(legend)]
    assert not top.get_window_extent(renderer).overlaps(legend)
