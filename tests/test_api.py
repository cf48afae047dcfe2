"""The Python API: the same results as the command line, as DataFrames and figures."""

import matplotlib.figure
import pandas as pd
import pytest

import uno_sim
from uno_sim import cli


def test_run_gives_the_summary_the_command_writes(tmp_path, capsys):
    res = uno_sim.run("stacking", games=3000, players=5, seed=7, overrides={"jump_in": True}, workers=1)
    assert list(res.summary.columns) == ["variant", "metric", "value", "ci_low", "ci_high", "games"]
    assert res.rules.players == 5 and res.rules.jump_in and res.rules.stack_draw_two
    assert cli.run_cli(["run", "stacking", "--games", "3000", "--players", "5", "--seed", "7", "--set",
                        "jump_in=true", "--out", str(tmp_path / "o")]) == 0
    written = pd.read_csv(tmp_path / "o" / "summary.csv")
    pd.testing.assert_frame_equal(res.summary.reset_index(drop=True), written, check_dtype=False, rtol=1e-11)
    dist = pd.read_csv(tmp_path / "o" / "distributions.csv")
    assert list(res.distributions.columns) == list(dist.columns) and len(res.distributions) == len(dist)


def test_per_game_rows_and_figures():
    res = uno_sim.run("standard", games=500, seed=3, per_game=True)
    games = res.games
    assert len(games) == 500 and list(games["game"]) == list(range(500))
    assert games["turns"].mean() == pytest.approx(res.summary.set_index("metric").loc["mean_turns", "value"])
    for fig in (res.plot_win_rates(), res.plot_game_length(), res.plot_winner_points(), res.plot_bot_win_rates()):
        assert isinstance(fig, matplotlib.figure.Figure) and fig.axes
    assert uno_sim.run("standard", games=50).games is None


def test_compare_sweep_match():
    cmp = uno_sim.compare(["standard", "stacking"], games=2000, seed=1)
    assert cmp.names == ["standard", "stacking"]
    assert set(cmp.summary["variant"]) == {"standard", "stacking"}
    diff = cmp.differences.set_index("metric")
    assert diff.loc["stack_rate", "diff"] > 0 and bool(diff.loc["stack_rate", "significant"])
    assert isinstance(cmp.plot_max_pending(), matplotlib.figure.Figure)

    sw = uno_sim.sweep("standard", {"players": [2, 3], "jump_in": [False, True]}, games=300)
    assert len(sw.points) == 4
    grid = sw.summary[["players", "jump_in"]].drop_duplicates()
    assert sorted(map(tuple, grid.values.tolist())) == [(2, "false"), (2, "true"), (3, "false"), (3, "true")]

    m = uno_sim.match("standard", matches=30, target=100, seed=2)
    assert set(m.summary["games"]) == {30}
    assert isinstance(m.plot_rounds(), matplotlib.figure.Figure)


def test_rules_values_and_bad_input():
    rules = uno_sim.Rules(players=3, hand_size=9)
    res = uno_sim.run(rules, games=200, overrides=["jump_in=true"])
    assert res.rules == rules.replace(jump_in=True) and res.name == "custom"
    with pytest.raises(uno_sim.BadInput, match="unknown preset 'nope'"):
        uno_sim.run("nope")
    with pytest.raises(uno_sim.BadInput, match="--games"):
        uno_sim.run("standard", games=0)
    with pytest.raises(uno_sim.BadInput, match="hand_size"):
        uno_sim.run("standard", overrides={"hand_size": 200})
    with pytest.raises(uno_sim.BadInput, match="at least two"):
        uno_sim.compare(["standard"])


def test_the_api_functions_stay_functions_whatever_is_imported():
    """No module shares a name with a public function: importing every module of the package
    (as a tournament or --skill run does) must not turn `uno_sim.tournament` or
    `uno_sim.api.run` into a module."""
    import importlib
    import pkgutil

    import uno_sim.api

    for info in pkgutil.walk_packages(uno_sim.__path__, "uno_sim."):
        if ".engine" not in info.name and not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    for name in ("run", "compare", "sweep", "match", "tournament"):
        assert callable(getattr(uno_sim, name)) and not isinstance(getattr(uno_sim, name), type(uno_sim)), name
        assert callable(getattr(uno_sim.api, name)) and not isinstance(getattr(uno_sim.api, name), type(uno_sim)), name
