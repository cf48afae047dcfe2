"""`mode = last_standing` with the knobs that act when a player goes out with an action card:
traces replay cleanly in the independent checker (tests/trace_checker.py) and its records equal
the engine's. A play that empties a hand while two or more others stay in is no winning card
(SPEC 9): its penalty is pending under stacking and its victim answers or accepts on a counted
turn, so the stacking knobs, stacking by value, the no-mercy deck and the mercy rule are drawn
together with last_standing here, as are the other knobs that act around going out."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import assert_clean, rule_sets
from uno_sim.game.bots import Bot
from uno_sim.game.presets import load as load_preset
from uno_sim.game.rules import Rules, RulesError

LS = dict(mode="last_standing")
STACK_ALL = dict(stack_draw_two=True, stack_draw_four=True, stack_four_on_two=True, stack_two_on_four=True)
MIXED_BOTS = ("random", "expert", "greedy", "bluffer", "pro", "random")

# (name, rule set, games): every stacking knob alone and together, deflect, stacking by value
# (the no-mercy preset: its deck, the mercy rule, 7-0, forced play of drawn cards), and the other
# knobs that act around going out, each with stacking on
COMBINATIONS = [
    ("stacking-preset", lambda: load_preset("stacking").replace(**LS), 150),
    ("stack_draw_two", lambda: Rules(stack_draw_two=True, **LS), 150),
    ("stack_draw_four", lambda: Rules(stack_draw_four=True, **LS), 150),
    ("stack_four_on_two", lambda: Rules(stack_four_on_two=True, **LS), 150),
    ("stack_two_on_four", lambda: Rules(stack_two_on_four=True, **LS), 150),
    ("all-stacking+deflect", lambda: Rules(deflect=True, **STACK_ALL, **LS), 150),
    ("no-mercy", lambda: load_preset("no-mercy").replace(**LS), 80),
    ("no-mercy,no-mercy-rule", lambda: load_preset("no-mercy").replace(mercy_limit=0, **LS), 24),
    ("seven-zero", lambda: Rules(seven_swap=True, zero_rotate=True, **STACK_ALL, **LS), 100),
    ("jump-in", lambda: Rules(jump_in=True, deflect=True, **STACK_ALL, **LS), 100),
    ("sum-jump-in", lambda: Rules(sum_jump_in="any_color", jump_in=True, stack_draw_two=True, **LS), 100),
    ("uno-catchers", lambda: Rules(uno_catchers="each", uno_catch=0.5, stack_draw_two=True, **LS), 100),
    ("wild-swap", lambda: Rules(wild_swap=True, stack_draw_four=True, stack_four_on_two=True, **LS), 100),
    ("hand-sum", lambda: Rules(hand_sum_win=True, hand_size=5, stack_draw_two=True, **LS), 100),
    ("no-last-card-penalty", lambda: Rules(last_card_penalty=False, deflect=True, **STACK_ALL, **LS), 100),
    ("teams", lambda: Rules(teams=2, deflect=True, **STACK_ALL, **LS), 100),
]


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("name, make, games", COMBINATIONS, ids=[c[0] for c in COMBINATIONS])
def test_last_standing_with_stacking_and_its_neighbours_replays_cleanly(name, make, games, players):
    rules = make()
    if rules.teams and players % rules.teams:
        players += 1
    rules = rules.replace(players=players)
    assert_clean(rules, games, seed=players)
    forgetful = Bot("random", {"forget_uno": 0.3, "challenge_prob": 0.5})
    assert_clean(rules, games // 4, seed=players + 100, bots=[forgetful] * players)


@pytest.mark.parametrize("players", [4, 6])
def test_last_standing_with_the_strategy_bots_replays_cleanly(players):
    bots = [Bot(b, {}) for b in MIXED_BOTS[:players]]
    assert_clean(Rules(deflect=True, players=players, **STACK_ALL, **LS), 100, seed=players, bots=bots)
    assert_clean(load_preset("no-mercy").replace(players=players, **LS), 60, seed=players, bots=bots)


def test_the_issue_game_now_lets_the_victim_answer():
    """The audit's example (stacking, 5 players, last_standing, seed 8): in some game a player
    goes out with a Draw Two while two or more stay in, and its victim then answers it or
    accepts it on a counted turn (never a penalty drawn at once)."""
    import json

    from uno_sim.engine.batch import run_key
    from uno_sim.running.trace import trace_one
    from trace_checker import check_trace_lines

    rules = load_preset("stacking").replace(players=5, **LS)
    bots = [Bot("random")] * 5
    found = 0
    for game in range(60):
        events, record = trace_one(rules, bots, run_key(8), game)
        report, = check_trace_lines([json.dumps(e) for e in events])
        assert report.violations == [] and report.record == record
        for i, e in enumerate(events[:-1]):
            if e["ev"] == "out" and events[i - 1]["ev"] == "play" and events[i - 1].get("card", "")[-1:] == "D":
                after = events[i + 1]
                if after["ev"] != "end":
                    found += 1
                    assert after["ev"] == "play" or (after["ev"] == "draw" and after["why"] == "penalty")
    assert found > 0


@st.composite
def last_standing_stacking_rule_sets(draw):
    """A rule set as replay.rule_sets draws it, with mode = last_standing and stacking on: one or
    more classic stacking knobs (maybe deflect), or stacking by value."""
    values = draw(rule_sets(keep_default=("mode",)))
    values["mode"] = "last_standing"
    for knob in ("stack_draw_two", "stack_draw_four", "stack_four_on_two", "stack_two_on_four", "deflect",
                 "stack_by_value"):
        values[knob] = False
    if draw(st.booleans()):
        values["stack_by_value"] = True
    else:
        chosen = draw(st.sets(st.sampled_from(sorted(STACK_ALL)), min_size=1))
        for knob in chosen:
            values[knob] = True
        values["deflect"] = values["stack_draw_two"] and draw(st.booleans())
    values["players"] = max(values["players"], 3)
    return values


@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "40")), deadline=None,
          derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"), suppress_health_check=[HealthCheck.too_slow])
@given(knobs=last_standing_stacking_rule_sets(), seed=st.integers(0, 2**31), no_mercy=st.booleans())
def test_random_last_standing_rule_sets_with_stacking_replay_cleanly(knobs, seed, no_mercy):
    if no_mercy:
        knobs = dict(knobs, deck="no-mercy")
    try:
        rules = Rules(**knobs)
    except RulesError:
        return  # an invalid combination (rejected with a message naming the knob)
    bots = [Bot("random", {"forget_uno": 0.2, "challenge_prob": 0.3, "bluff_prob": 0.2})] * rules.players
    assert_clean(rules, 5, seed=seed % 1000, bots=bots)
