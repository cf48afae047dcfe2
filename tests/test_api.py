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
    for fig in (res.plot_win_rates(), res.plot_game_length(), res.plot_winner_points()):
        assert isinstance(fig, matplotlib.figure.Figure) and fig.axes
    # one bot in every seat: its win rate chart would only restate the no-winner rate (the
    # command line leaves it out); asked for by name, the error says why
    with pytest.raises(uno_sim.BadInput, match="bot_win_rates needs more than one kind of bot"):
        res.plot_bot_win_rates()
    with pytest.raises(uno_sim.BadInput, match=r"unknown chart 'x'; one of win_rates, game_length"):
        res.plot("x")
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
    with pytest.raises(uno_sim.BadInput, match="^games must be at least 1"):
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


# ---------------------------------------------------------------- the notebook experience

PUBLIC_FUNCTIONS = ["run", "compare", "sweep", "design", "match", "tournament", "load_rules"]


def _documented(doc: str) -> dict[str, str]:
    """The numpy-style Parameters section: {name: its type line}."""
    import re

    section = doc.split("Parameters\n    ----------\n", 1)[1].split("\n\n", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^    (\w+) : (.*)$", section, re.M)}


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_every_public_function_documents_each_parameter_its_default_and_an_example(name):
    import ast
    import inspect

    function = getattr(uno_sim, name)
    assert name in uno_sim.__all__
    doc = inspect.getdoc(function)
    for part in ("Parameters\n----------", "Returns\n-------", "Raises\n------", "Examples\n--------\n>>> "):
        assert part in doc, (name, part)
    entries = _documented(function.__doc__)
    parameters = inspect.signature(function).parameters
    assert list(entries) == list(parameters), name  # every parameter, in order, and no other
    for parameter in parameters.values():
        line = entries[parameter.name]
        if parameter.default is inspect.Parameter.empty:
            assert "default" not in line and "optional" not in line, (name, parameter.name)
        elif parameter.default is None:
            assert line.endswith("optional"), (name, parameter.name, line)
            after = function.__doc__.split(f"    {parameter.name} : {line}\n", 1)[1].splitlines()
            body = " ".join(x for x in __import__("itertools").takewhile(lambda x: x.startswith(" " * 8), after))
            assert "None" in body, (name, parameter.name)  # what None means
        else:
            written = line.rsplit("default ", 1)[1]
            assert ast.literal_eval(written) == parameter.default, (name, parameter.name, written)


def test_a_result_has_a_short_repr_and_a_notebook_view():
    res = uno_sim.run("standard", games=300, seed=1)
    text = repr(res)
    assert text.startswith("<Run standard: ") and text.endswith(">") and len(text) < 250
    assert res.headline[0][:60] in text
    page = res._repr_html_()
    assert "<table>" in page and "win rate" in page and len(page) < 20_000
    assert res.headline[0].replace("'", "&#x27;") in page or res.headline[0] in page
    cmp = uno_sim.compare(["standard", "stacking"], games=300)
    assert repr(cmp).startswith("<Comparison standard vs stacking: ") and len(repr(cmp)) < 250
    page = cmp._repr_html_()
    assert "stacking - standard" in page and "mean_turns" in page  # the compare table


def test_lists_where_the_command_line_takes_comma_lists():
    res = uno_sim.run("standard", games=100, bots=["expert", "random", "random", "random"])
    assert [b.label for b in res.bots] == ["expert", "random", "random", "random"]
    cmp = uno_sim.compare("standard,stacking", games=100)  # one text, as the command line's list
    assert cmp.names == ["standard", "stacking"]
    sw = uno_sim.sweep("standard", {"players": "2,3"}, games=100)
    assert [point["players"] for point in sw.points] == [2, 3]
    from uno_sim import api

    plan = api.prepare_tournament(["standard", "house"], bots=["expert", "random"], deals=30)
    assert [name for name, _ in plan.rule_sets] == ["standard", "house"]
    assert [b.label for b in plan.bots] == ["expert", "random"]


@pytest.mark.parametrize("call, message", [
    (lambda: uno_sim.compare("standard"), r"^compare needs at least two presets or rule files \(got 1\)"),
    (lambda: uno_sim.sweep("standard", {"players": []}), r"^vary players has no values"),
    (lambda: uno_sim.run(bots=[]), r"^bots is an empty list"),
    (lambda: uno_sim.run(bots=["expert", "random"]), r"^bots names 2 bots for 4 players"),
    (lambda: uno_sim.match(matches=0), r"^matches must be at least 1"),
    (lambda: uno_sim.load_rules(players=11), r"^players must be at most 10"),
    (lambda: uno_sim.sweep("standard", {"hand_size": [5]}, overrides={"hand_size": 4}),
     r"^vary hand_size conflicts with overrides hand_size"),
    (lambda: uno_sim.tournament(["standard"], bots=["expert"]), r"^a tournament needs at least two bots"),
])
def test_errors_name_the_parameters_not_the_command_line_options(call, message):
    with pytest.raises(uno_sim.BadInput, match=message) as caught:
        call()
    assert "--" not in str(caught.value)


def test_the_command_line_keeps_naming_its_options(capsys):
    assert cli.run_cli(["run", "standard", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err


def test_shared_parameters_are_written_once_and_filled_into_every_docstring():
    """A parameter several API functions share (players, bots, seed, ...) is documented in one
    place (api/common.py SHARED_PARAMETERS, as is the Raises section they share) and appears,
    filled in, in each function's help."""
    import inspect
    from pathlib import Path

    from uno_sim.api.common import SHARED_PARAMETERS

    sources = "".join(p.read_text() for p in Path(uno_sim.api.__file__).parent.glob("*.py"))
    for name, text in SHARED_PARAMETERS.items():
        longest_line = max(text.splitlines(), key=len).strip()
        assert sources.count(longest_line) == 1, name  # only in SHARED_PARAMETERS
    for name in PUBLIC_FUNCTIONS:
        doc = inspect.getdoc(getattr(uno_sim, name))
        assert "$" not in doc, name
        if name in ("run", "compare", "sweep", "match", "design"):
            assert SHARED_PARAMETERS["players"].splitlines()[1].strip() in doc, name
