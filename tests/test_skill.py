"""The skill index re-measured with the pro bot: the skill games seat pro against random
bots, `compare --skill` draws the index of every variant (skill_index.png, in report.html),
and tools/skill_table.py's table of every preset."""

import base64
import sys
from pathlib import Path

import pandas as pd
import pytest

import uno_sim
from uno_sim import api, cli
from uno_sim.api.common import load_rules
from uno_sim.game.bots import SKILL_BOT
from uno_sim.running.tournaments import skill_bots

ROOT = Path(__file__).resolve().parent.parent


def test_the_skill_bot_is_pro_against_random_bots():
    assert SKILL_BOT == "pro"
    assert [b.name for b in skill_bots(load_rules("standard")[1])] == ["pro", "random", "random", "random"]
    assert [b.name for b in skill_bots(load_rules("standard", None, 2)[1], "expert")] == ["expert", "random"]


def test_the_skill_games_are_pro_against_random_on_rotated_seats():
    """The skill index of compare --skill is exactly pro's win rate minus 1/4 in `run` of
    pro + 3 random with rotated seats on the same seed (and not the expert's)."""
    games, seed = 2400, 7
    cmp = api.compare(["standard", "stacking"], games=games, seed=seed, skill=True, workers=1)
    skill = cmp.summary[cmp.summary["metric"] == "skill_index"].set_index("variant")["value"]
    for preset in ("standard", "stacking"):
        rates = {}
        for bot in ("pro", "expert"):
            played = api.run(preset, games=games, seed=seed, bots=f"{bot},random,random,random", rotate_seats=True,
                             workers=2)
            rates[bot] = played.summary.set_index("metric").loc[f"win_rate_bot_{bot}", "value"]
        assert skill[preset] == pytest.approx(rates["pro"] - 0.25, abs=1e-12)
        assert skill[preset] != pytest.approx(rates["expert"] - 0.25, abs=1e-12)


def test_compare_skill_writes_the_sorted_skill_chart_and_shows_it_in_the_report(capsys, tmp_path):
    out = tmp_path / "o"
    code = cli.run_cli(["compare", "standard", "stacking", "seven-zero", "--games", "1500", "--seed", "3", "--skill",
                        "--out", str(out)])
    capsys.readouterr()
    assert code == 0
    png = (out / "skill_index.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'alt="skill_index chart"' in html and base64.b64encode(png).decode() in html

    cmp = api.compare(["standard", "stacking", "seven-zero"], games=1500, seed=3, skill=True)
    fig = cmp.plot_skill()
    ax = fig.axes[0]
    summary = cmp.summary[cmp.summary["metric"] == "skill_index"].set_index("variant")["value"]
    labels = [t.get_text() for t in ax.get_yticklabels()]  # bottom to top
    assert labels == sorted(summary.index, key=lambda v: summary[v])  # the highest on top
    assert "pro against random bots" in fig.axes[0].get_title()


def test_a_compare_without_skill_games_draws_no_skill_chart(capsys, tmp_path):
    cmp = api.compare(["standard", "stacking"], games=500, seed=1)
    assert "skill_index" not in cmp.chart_names()
    with pytest.raises(uno_sim.BadInput, match="without the skill games"):
        cmp.plot_skill()


def _tool():
    sys.path.insert(0, str(ROOT / "tools"))  # a doc tool, not shipped
    import skill_table

    return skill_table


def test_the_skill_table_tool_measures_and_tabulates_before_and_after():
    tool = _tool()
    before = tool.measure("expert", games=800, seed=2, presets=["standard", "seven-zero"], progress=False)
    after = tool.measure("pro", games=800, seed=2, presets=["standard", "seven-zero"], progress=False)
    assert list(before.columns) == tool.COLUMNS
    # each row is the bot's win rate minus 1/n of `run` with rotated seats on the same seed
    for frame, bot in ((before, "expert"), (after, "pro")):
        for row in frame.itertuples():
            played = api.run(row.variant, games=800, seed=2, bots=f"{bot},random,random,random", rotate_seats=True)
            rate = played.summary.set_index("metric").loc[f"win_rate_bot_{bot}", "value"]
            assert row.value == pytest.approx(rate - 0.25, abs=1e-12)
            assert row.ci_low < row.value < row.ci_high and row.games == 800 and row.players == 4

    table = tool.before_after(before, after)
    assert list(table["value_after"]) == sorted(after["value"], reverse=True)
    for row in table.itertuples():
        assert row.difference == pytest.approx(row.value_after - row.value_before)
        assert row.diff_low < row.difference < row.diff_high
        assert row.significant == (row.diff_low > 0 or row.diff_high < 0)
    text = tool.markdown(table)
    lines = text.splitlines()
    assert lines[0].startswith("| preset | players | expert [95% interval] | pro [95% interval] |")
    assert len(lines) == 2 + 2 and [line.split("|")[1].strip() for line in lines[2:]] == list(table["variant"])
    first = table.iloc[0]
    assert f"{100 * first['value_after']:+.2f} [{100 * first['ci_low_after']:+.2f}, " in lines[2]


def test_the_difference_interval_is_the_two_sample_one():
    tool = _tool()
    row = {"variant": "x", "players": 4, "games": 10_000, "ci_low": 0.0, "ci_high": 0.0}
    before = pd.DataFrame([row | {"bot": "expert", "wins": 3000, "value": 0.05}])
    after = pd.DataFrame([row | {"bot": "pro", "wins": 3300, "value": 0.08}])
    t = tool.before_after(before, after).iloc[0]
    se = (0.3 * 0.7 / 10_000 + 0.33 * 0.67 / 10_000) ** 0.5  # by hand
    assert t["difference"] == pytest.approx(0.03)
    assert t["diff_high"] - t["difference"] == pytest.approx(1.959964 * se, rel=1e-6)
    assert bool(t["significant"])
