"""Rule validation (messages name the knob), presets with `extends`, --set parsing, bot specs."""

import numpy as np
import pytest

from uno_sim.game import presets as P
from uno_sim.game.bots import DEFAULT_ROLLOUTS, Bot, BotError, pack_bots, parse_bots
from uno_sim.engine import layout as L
from uno_sim.game.knobs import K
from uno_sim.game.rules import Rules, RulesError


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "changes, knob",
    [
        ({"players": 6, "teams": 4}, "teams"),
        ({"players": 4, "teams": 3}, "teams"),
        ({"teams": 1}, "teams"),
        ({"players": 10, "hand_size": 11}, "hand_size"),
        ({"players": 2, "hand_size": 54}, "hand_size"),
        ({"hand_size": 0}, "hand_size"),
        ({"deflect": True}, "deflect"),
        ({"draw_rule": "until_playable", "play_drawn": "none"}, "until_playable"),
        ({"stack_by_value": True, "stack_draw_two": True}, "stack_by_value"),
        ({"stack_by_value": True, "stack_draw_four": True}, "stack_by_value"),
        ({"stack_by_value": True, "stack_four_on_two": True}, "stack_by_value"),
        ({"stack_by_value": True, "stack_two_on_four": True}, "stack_by_value"),
        ({"stack_by_value": True, "stack_draw_two": True, "deflect": True}, "stack_by_value"),
        ({"must_play_drawn": True, "play_drawn": "numbers"}, "must_play_drawn"),
        ({"must_play_drawn": True, "play_drawn": "none"}, "must_play_drawn"),
        ({"players": 1}, "players"),
        ({"players": 11}, "players"),
        ({"uno_catch": 1.5}, "uno_catch"),
        ({"max_turns": 0}, "max_turns"),
        ({"wd4_rule": "sometimes"}, "wd4_rule"),
        ({"jump_in": "yes"}, "jump_in"),
        ({"match_scoring": "chips"}, "match_rounds"),
        ({"match_rounds": -1}, "match_rounds"),
        ({"match_rounds": 10_001}, "match_rounds"),
    ],
)
def test_invalid_combinations_name_the_knob(changes, knob):
    with pytest.raises(RulesError, match=knob):
        Rules(**changes)


def test_valid_edge_cases():
    assert Rules(players=10, hand_size=10).hand_size == 10  # 10 * 10 + 1 <= 108
    assert Rules(players=2, hand_size=53).players == 2  # 2 * 53 + 1 = 107
    assert Rules(players=6, teams=3).teams == 3
    assert Rules(deflect=True, stack_draw_two=True).deflect
    assert Rules(draw_rule="until_playable", play_drawn="numbers").draw_rule == "until_playable"
    assert Rules(stack_by_value=True, must_play_drawn=True, draw_rule="until_playable").stack_by_value


def test_overrides_parse_values_and_name_bad_ones():
    r = Rules().with_overrides(["jump_in=true", "hand_size=5", "uno_catch=0.5", "wd4_rule=free"])
    assert (r.jump_in, r.hand_size, r.uno_catch, r.wd4_rule) == (True, 5, 0.5, "free")
    with pytest.raises(RulesError, match="unknown knob 'jump'"):
        Rules().with_overrides(["jump=true"])
    with pytest.raises(RulesError, match="'hand_size'"):
        Rules().with_overrides(["hand_size=seven"])
    with pytest.raises(RulesError, match="'jump_in'"):
        Rules().with_overrides(["jump_in=maybe"])
    with pytest.raises(RulesError, match="'hand_size'"):
        Rules().with_overrides(["hand_size=7.5"])
    with pytest.raises(RulesError, match="multi_play"):
        Rules().with_overrides(["multi_play=all"])
    with pytest.raises(RulesError, match="KNOB=VALUE"):
        Rules().with_overrides(["jump_in"])


def test_pack_layout():
    ints = Rules(players=5, wd4_rule="free", jump_in=True, uno_catch=0.25).pack()
    assert ints.dtype == np.int64 and len(ints) == len(K)
    assert ints[K.players] == 5 and ints[K.wd4_rule] == 2 and ints[K.jump_in] == 1
    assert ints[K.uno_catch] == L.ONE // 4  # a probability in fixed point


# ---------------------------------------------------------------- shipped presets


def test_shipped_presets():
    assert {"standard", "stacking", "nostacking"} <= set(P.preset_names())
    standard = P.load("standard")
    assert standard == Rules()  # the standard preset is exactly the official defaults
    assert P.load("nostacking") == standard
    stacking = P.load("stacking")
    assert stacking.stack_draw_two and stacking.stack_draw_four
    assert stacking.replace(stack_draw_two=False, stack_draw_four=False) == standard
    for name in P.preset_names():
        assert P.description(P.find(name)), f"{name} has no description"


def test_load_preset_applies_set_and_players_last():
    r = P.load("stacking", ["hand_size=5", "deflect=true"], players=3)
    assert (r.players, r.hand_size, r.deflect, r.stack_draw_two) == (3, 5, True, True)
    with pytest.raises(RulesError, match="deflect"):
        P.load("standard", ["deflect=true"])
    with pytest.raises(RulesError, match="hand_size"):
        P.load("standard", ["hand_size=20"], players=6)
    with pytest.raises(RulesError, match="unknown preset 'nope'"):
        P.load("nope")


# ---------------------------------------------------------------- `extends`, with presets of our own


@pytest.fixture
def scenarios(tmp_path, monkeypatch):
    monkeypatch.setattr(P, "PRESETS", tmp_path)

    def write(name, text):
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")

    return write


def test_extends_chain_merges_in_order(scenarios):
    scenarios("base", 'description = "b"\n[rules]\nhand_size = 5\njump_in = true\n')
    scenarios("mid", 'description = "m"\nextends = "base"\n[rules]\nhand_size = 6\n')
    scenarios("top", 'description = "t"\nextends = "mid"\n[rules]\nseven_swap = true\n')
    r = P.load("top")
    assert (r.hand_size, r.jump_in, r.seven_swap) == (6, True, True)
    assert P.preset_names() == ["base", "mid", "top"]


def test_extends_errors(scenarios):
    scenarios("loop_a", 'extends = "loop_b"\n[rules]\n')
    scenarios("loop_b", 'extends = "loop_a"\n[rules]\n')
    with pytest.raises(RulesError, match="extends itself"):
        P.load("loop_a")
    scenarios("orphan", 'extends = "missing"\n[rules]\n')
    with pytest.raises(RulesError, match="unknown preset 'missing'"):
        P.load("orphan")
    scenarios("typo", '[rules]\njumpin = true\n')
    with pytest.raises(RulesError, match="preset 'typo'.*'jumpin'"):
        P.load("typo")
    scenarios("badval", '[rules]\nhand_size = "many"\n')
    with pytest.raises(RulesError, match="hand_size"):
        P.load("badval")
    scenarios("broken", "[rules\n")
    with pytest.raises(RulesError, match="broken"):
        P.load("broken")


# ---------------------------------------------------------------- bot specs


def test_parse_bots_defaults_and_broadcast():
    assert [b.name for b in parse_bots(None, 3)] == ["random"] * 3
    bots = parse_bots("random:forget_uno=0.3", 4)
    assert len(bots) == 4 and all(b.params == {"forget_uno": 0.3} for b in bots)
    bots = parse_bots("random, random:forget_uno=0.1:jump_in_prob=0.5", 2)
    assert bots[0] == Bot("random") and bots[1].params == {"forget_uno": 0.1, "jump_in_prob": 0.5}
    assert bots[1].label == "random:forget_uno=0.1:jump_in_prob=0.5"
    assert Bot("random", {"jump_in_prob": 1.0}).label == "random"  # defaults are not shown


def test_pack_bots_defaults():
    codes, params = pack_bots(parse_bots("random,random:challenge_prob=0.25", 2))
    assert codes.dtype == np.int64 and list(codes) == [L.BOT.random, L.BOT.random]
    assert params.shape == (2, L.N_BOT_PARAMS) and params.dtype == np.int64  # fixed point
    # forget_uno, challenge, bluff, jump_in (fixed point), then search's rollouts, rollout_policy (pro), objective (win),
    # sees (fair), endgame (2: search once a hand holds 2 cards), infer (history); packed for every bot, read by search only
    assert list(params[0]) == [0, 0, 0, L.ONE, DEFAULT_ROLLOUTS, 3, 0, 0, 2, 2]
    assert params[1, L.BP.challenge_prob] == L.ONE // 4


@pytest.mark.parametrize(
    "spec, players, needle",
    [
        ("alien", 4, "unknown bot 'alien'"),
        ("random,greedy,expert", 2, "3 bots for 2 players"),
        ("bluffer:bluff_prob=2", 4, "'bluff_prob'"),
        ("random,random", 3, "2 bots for 3 players"),
        ("random,,random", 3, "missing bot name"),
        ("random:forget=0.1", 4, "unknown parameter 'forget'"),
        ("random:forget_uno=1.5", 4, "'forget_uno'"),
        ("random:forget_uno=-0.1", 4, "'forget_uno'"),
        ("random:forget_uno=nan", 4, "'forget_uno'"),
        ("random:forget_uno=lots", 4, "'forget_uno'"),
        ("random:forget_uno", 4, "PARAM=VALUE"),
        ("random:forget_uno=0.1:forget_uno=0.2", 4, "twice"),
    ],
)
def test_bad_bot_specs(spec, players, needle):
    with pytest.raises(BotError, match=needle):
        parse_bots(spec, players)
    assert issubclass(BotError, ValueError)
