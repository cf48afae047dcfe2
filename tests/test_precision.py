"""Precision targets: the targets' spelling, the schedule of looks, the coverage of the
intervals reported after stopping (by simulation), and run / compare played to a target
(the same numbers as a fixed run of the games it took, any worker count, bad input)."""

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest

import uno_sim
from uno_sim import cli, stats
from uno_sim.api.precision import play_looks


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- targets and looks


@pytest.mark.parametrize("text, metric, half", [("mean_turns=0.1", "mean_turns", 0.1),
                                                ("first_player_edge=0.002", "first_player_edge", 0.002),
                                                ("first_player_edge=0.3pp", "first_player_edge", 0.003),
                                                (" win_rate_seat_0 = 1e-3 ", "win_rate_seat_0", 0.001)])
def test_targets_are_metric_equals_half_width(text, metric, half):
    target = stats.parse_target(text)
    assert target.metric == metric and target.half_width == pytest.approx(half, rel=1e-12)


def test_a_target_in_percentage_points_is_shown_in_them():
    target = stats.parse_target("first_player_edge=0.3pp")
    assert str(target) == "first_player_edge=0.3pp" and target.show(0.00237) == "0.237 pp"
    assert stats.parse_target(str(target)) == target
    plain = stats.parse_target("first_player_edge=0.003")
    assert str(plain) == "first_player_edge=0.003" and plain.show(0.00237) == "0.00237"


@pytest.mark.parametrize("text", ["mean_turns", "mean_turns=", "mean_turns=0", "mean_turns=-1", "=0.1",
                                  "mean_turns=abc", "mean_turns=nan", "mean_turns=inf"])
def test_malformed_targets_are_refused(text):
    with pytest.raises(ValueError, match="precision target"):
        stats.parse_target(text)


def test_looks_double_up_to_the_cap_and_share_the_error_rate():
    assert stats.look_schedule(100_000, 10_000) == [10_000, 20_000, 40_000, 80_000, 100_000]
    assert stats.look_schedule(80_000, 10_000) == [10_000, 20_000, 40_000, 80_000]
    assert stats.look_schedule(5_000, 10_000) == [5_000]
    assert len(stats.look_schedule(stats.DEFAULT_CAP)) == 11
    assert stats.look_confidence(5) == pytest.approx(0.99)
    assert stats.look_confidence(1) == pytest.approx(0.95)


# ---------------------------------------------------------------- coverage by simulation


@dataclass
class _Plan:
    games: int


class _Counts:
    """Stands in for an aggregate: successes and games of a Bernoulli quantity."""

    def __init__(self, successes: int, games: int) -> None:
        self.successes, self.games = successes, games

    def merge(self, other: "_Counts") -> None:
        self.successes += other.successes
        self.games += other.games


def _bernoulli_looks(rng, p: float, target: float, cap: int, first: int, monkeypatch):
    """One precision run of a Bernoulli(p) rate through api.precision.play_looks; the
    reported Wilson interval at the looks' level."""
    monkeypatch.setattr(stats.precision, "FIRST_LOOK", first)

    def play(plans, start):
        n = plans[0].games
        agg = _Counts(int(rng.binomial(n, p)), n)
        result = SimpleNamespace(aggregate=agg, games=n, seconds=0.0, confidence=stats.CONFIDENCE)
        return SimpleNamespace(runs=[SimpleNamespace(result=result, skill_result=None)], pairing=None,
                               skill_pairing=None)

    def widths(played):
        r = played.runs[0].result
        low, high = stats.wilson_interval(r.aggregate.successes, r.aggregate.games, r.confidence)
        return {"rate": stats.half_width(low, high)}

    played, outcome = play_looks([_Plan(0)], [stats.Target("rate", target)], cap, widths, play)
    r = played.runs[0].result
    return stats.wilson_interval(r.aggregate.successes, r.aggregate.games, r.confidence), outcome


def test_intervals_reported_after_stopping_cover_at_least_95_percent(monkeypatch):
    # 1,000 repetitions of a rate near 0.5 (where the width barely depends on the estimate)
    # and of a rare one (where stopping on a narrow Wilson interval favours estimates near 0,
    # the case a naive rule gets wrong), each stopped at its first narrow look; the targets
    # are about the expected half-width at 6,400 games, so runs stop at different looks
    rng = np.random.default_rng(2026)
    for p, target in ((0.45, 0.0172), (0.03, 0.0059)):
        hits, games = 0, []
        for _ in range(1000):
            (low, high), outcome = _bernoulli_looks(rng, p, target, cap=51_200, first=200, monkeypatch=monkeypatch)
            hits += low <= p <= high
            games.append(outcome.games)
            assert outcome.met == (outcome.games < 51_200 or outcome.widths["rate"] <= target)
        assert hits / 1000 >= 0.95, (p, hits)
        assert len(set(games)) > 1  # the stopping look varies: the test exercises early stops


def test_a_cap_before_the_target_is_reported(monkeypatch):
    (low, high), outcome = _bernoulli_looks(np.random.default_rng(1), 0.5, 1e-4, cap=5_000, first=1_000,
                                            monkeypatch=monkeypatch)
    assert not outcome.met and outcome.games == 5_000 and outcome.taken == 4
    assert "cap of 5,000 games came before the target" in outcome.sentence()


# ---------------------------------------------------------------- run and compare


def test_a_precision_run_has_the_numbers_of_a_run_of_the_games_it_took():
    res = uno_sim.run("standard", precision=["mean_turns=0.4"], seed=4, workers=2)
    out = res.precision
    assert out.met and res.result.games == out.games == out.looks[out.taken - 1]
    assert out.taken >= 2  # not met at the first look: the looks were exercised
    assert out.confidence == pytest.approx(1 - 0.05 / len(out.looks))
    row = res.summary.set_index("metric").loc["mean_turns"]
    assert (row["ci_high"] - row["ci_low"]) / 2 <= 0.4
    fixed = uno_sim.run("standard", games=out.games, seed=4).summary.set_index("metric")
    assert row["value"] == fixed.loc["mean_turns", "value"]
    hist = res.result.aggregate.hists["turns"]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(hist.mean_interval(out.confidence)[1:], rel=1e-12)
    one = uno_sim.run("standard", precision=["mean_turns=0.4"], seed=4, workers=1)
    assert one.precision == out and one.summary.equals(res.summary)
    assert res.headline[0].startswith(f"The answer took {out.games:,} games")
    assert res.to_dict()["precision"]["games"] == out.games


def test_a_precision_compare_narrows_every_difference():
    cmp = uno_sim.compare(["standard", "wild-swap"], precision=["mean_turns=0.8", "first_player_edge=1.5pp"],
                          max_games=80_000, seed=2)
    out = cmp.precision
    rows = cmp.differences.set_index("metric")
    for metric, target in (("mean_turns", 0.8), ("first_player_edge", 0.015)):
        half = (rows.loc[metric, "diff_ci_high"] - rows.loc[metric, "diff_ci_low"]) / 2
        assert half == pytest.approx(out.widths[metric], rel=1e-12)
        assert (half <= target) == out.met or not out.met
    assert all(r.result.games == out.games for r in cmp.runs)
    assert rows.loc["mean_turns", "test"] == "paired t"
    assert "--precision mean_turns=0.8" in cmp.command and "--max-games 80000" in cmp.command


def test_a_precision_sweep_plays_every_point_until_all_are_narrow():
    sw = uno_sim.sweep("standard", {"players": [3, 5]}, precision=["mean_turns=0.6"], seed=1)
    out = sw.precision
    assert out.met and out.taken >= 2
    rows = sw.summary.loc[sw.summary["metric"] == "mean_turns"]
    halves = (rows["ci_high"] - rows["ci_low"]) / 2
    assert (halves <= 0.6).all() and halves.max() == pytest.approx(out.widths["mean_turns"], rel=1e-12)
    assert (rows["games"] == out.games).all()  # every point on the same deals, the same games
    fixed = uno_sim.sweep("standard", {"players": [3, 5]}, games=out.games, seed=1).summary
    assert list(fixed.loc[fixed["metric"] == "mean_turns", "value"]) == list(rows["value"])
    assert "--precision mean_turns=0.6" in sw.command and sw.to_dict()["precision"]["met"]


@pytest.mark.parametrize("args, needle", [
    (["--precision", "mean_turns"], "is not METRIC=HALF_WIDTH"),
    (["--precision", "mean_turns=-2"], "above 0"),
    (["--precision", "mean_turn=1"], "did you mean 'mean_turns'"),
    (["--precision", "maximum_turns=1"], "has no interval"),
    (["--precision", "mean_turns=1", "--precision", "mean_turns=2"], "twice"),
    (["--precision", "mean_turns=1", "--games", "5000"], "--games and --precision"),
    (["--max-games", "5000"], "--max-games caps a --precision run"),
    (["--precision", "mean_turns=1", "--max-games", "-3"], "--max-games"),
    (["--precision", "mean_turns=1", "--checkpoint", "CP"], "--checkpoint"),
    (["--precision", "mean_turns=1", "--per-game"], "--per-game"),
    (["--precision", "first_player_edge=2"], "more than any interval of first_player_edge (-1..1) can have"),
    (["--precision", "first_player_edge=101pp"], "more than any interval of first_player_edge"),
    (["--precision", "no_winner_rate=0.6"], "more than any interval of no_winner_rate (0..1) can have"),
])
def test_bad_precision_input_is_one_line_and_status_2(capsys, tmp_path, args, needle):
    args = [str(tmp_path / "cp") if a == "CP" else a for a in args]
    for command in (["run", "standard"], ["compare", "standard", "stacking"],
                    ["sweep", "standard", "--vary", "players=3,4"]):
        if command[0] == "sweep" and "--per-game" in args:
            continue  # (sweep has no per-game rows)
        out_dir = tmp_path / f"out-{command[0]}"
        code, out, err = invoke(capsys, *command, *args, "--out", out_dir)
        assert code == 2, (command, err)
        assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert not out_dir.exists()
