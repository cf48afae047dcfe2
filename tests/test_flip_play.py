"""UNO Flip played: traces of the `flip` deck replayed by the independent checker
(tests/trace_checker.py) with 0 violations at 2, 4 and 6 players under both `flip_discard`
readings, with the random bot and the strategy bots; the record and metrics of a two-sided run;
the commands and the Python API (the search bot on Flip: tests/test_search_flip.py; Python
seats: tests/test_env_flip.py)."""

from __future__ import annotations

import csv

import pytest

from replay import assert_clean, replay
from uno_sim import cli
from uno_sim.game.bots import Bot
from uno_sim.game.decks import FLIP, Deck, Kind, TwoSidedDeck
from uno_sim.game.rules import Rules


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("flip_discard", ["whole", "top"])
def test_flip_traces_replay_with_no_violation(players, flip_discard):
    rules = Rules(deck="flip", players=players, flip_discard=flip_discard)
    assert_clean(rules, 120, seed=players)


def test_flip_traces_of_the_strategy_bots_replay_with_no_violation():
    bots = [Bot("pro"), Bot("expert"), Bot("greedy"), Bot("bluffer")]
    assert_clean(Rules(deck="flip"), 60, seed=5, bots=bots)
    assert_clean(Rules(deck="flip", flip_discard="top"), 60, seed=6, bots=[Bot("expert"), Bot("random")] * 2)


def test_flip_with_house_rules_replays_with_no_violation():
    # stacking by value (D1, W2, D5 stack; a Wild Draw Colour never), jump-in, 7-0 off (no 0s),
    # last_standing, challenges always asked by the strategy bots
    for extra in ({"stack_by_value": True}, {"jump_in": True}, {"mode": "last_standing", "stack_by_value": True},
                  {"multi_play": "identical", "jump_in": True}, {"draw_rule": "until_playable"}):
        assert_clean(Rules(deck="flip").with_overrides(extra), 40, seed=9,
                     bots=[Bot("expert"), Bot("random"), Bot("pro"), Bot("random")])


def test_a_diy_two_sided_deck_with_a_wild_flip_and_a_coloured_draw_color_side_replays():
    light = FLIP.light.kinds + (Kind("WF", False, 2, points=50, flip=True),)
    dark = FLIP.dark.kinds + (Kind("W3", False, 2, points=50, draw=3),)
    deck = TwoSidedDeck(light, dark)
    reports, _ = replay(Rules().with_deck(deck), 80, seed=4)
    assert not [v for r in reports for v in r.violations]


def test_a_run_of_flip_reports_its_metrics_and_per_game_columns(capsys, tmp_path):
    out = tmp_path / "flip"
    code, text, err = invoke(capsys, "run", "flip", "--games", 3000, "--per-game", "--out", out)
    assert code == 0, err
    with open(out / "summary.csv") as f:
        rows = {r["metric"]: r for r in csv.DictReader(f)}
    flips = float(rows["mean_flips"]["value"])
    assert f"Everything flips {flips:.2f} times a game" in " ".join(text.split())
    assert 0.1 < float(rows["dark_end_rate"]["value"]) < 0.9
    assert 1.0 < float(rows["mean_flips"]["value"]) < 6.0
    assert float(rows["mean_draw_color_cards"]["value"]) > 0.5
    with open(out / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert list(games[0])[:13] == ["game", "winner", "reason", "turns", "plays", "draws", "reshuffles", "max_pending",
                                   "challenges", "winner_points", "knockouts", "flips", "side"]
    assert {g["side"] for g in games} == {"light", "dark"}
    # the dark-end rate is the share of those games
    share = sum(g["side"] == "dark" for g in games) / len(games)
    assert abs(share - float(rows["dark_end_rate"]["value"])) < 1e-9
    # a one-sided run reports none of them
    code, text, err = invoke(capsys, "run", "standard", "--games", 1000, "--out", tmp_path / "std")
    assert code == 0 and "flip" not in (tmp_path / "std" / "summary.csv").read_text()


def test_the_knob_deck_takes_flip(capsys, tmp_path):
    code, out, err = invoke(capsys, "run", "standard", "--set", "deck=flip", "--games", 1000, "--out", tmp_path / "o")
    assert code == 0, err
    assert "mean_flips" in (tmp_path / "o" / "summary.csv").read_text()


def test_the_python_api_plays_flip():
    import uno_sim

    result = uno_sim.run(Rules().with_deck(FLIP), games=2000)
    assert "dark_end_rate" in set(result.summary["metric"])


def test_compare_says_what_a_two_sided_variant_does_beside_a_one_sided_one(capsys, tmp_path):
    code, out, err = invoke(capsys, "compare", "standard", "flip", "--games", 3000, "--out", tmp_path / "c")
    assert code == 0, err
    words = " ".join(out.split())
    assert "- under flip (a two-sided deck), everything flips" in words and "end on the dark side" in words


def test_a_shuffling_wild_played_as_a_wild_swap_keeps_the_colour():
    # (found by the larger hypothesis runs, on one-sided decks too: a DIY W that shuffles hands,
    # played as a Wild swap, named a colour after the shuffle; a Wild swap keeps the colour)
    from uno_sim.game.decks import CLASSIC

    kinds = tuple(k if k.text != "W" else Kind("W", False, 4, shuffle_hands=True) for k in CLASSIC.kinds)
    assert_clean(Rules(wild_swap=True).with_deck(Deck(kinds)), 150, seed=3)
