"""Traces exported by the engine replay cleanly in the independent checker (tests/trace_checker.py),
and the records the checker computes equal the engine's own SPEC 6 records."""

import inspect
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import assert_clean, rule_sets, rule_sets_with_decks, rule_sets_with_two_sided_decks
from trace_checker import DeckFaces
from uno_sim.game.bots import Bot
from uno_sim.game.decks import Deck, check_deck_fits, check_engine_limits
from uno_sim.running.trace import trace_one
from uno_sim.game.presets import load as load_preset, preset_names
from uno_sim.game.rules import Rules, RulesError


def test_one_thousand_standard_games_replay_cleanly():
    assert_clean(Rules(), 1000)


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_replays_cleanly(name):
    rules = load_preset(name)
    assert_clean(rules, 60, seed=3)
    if rules.players != 6:
        assert_clean(rules.replace(players=6), 30, seed=4)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("name", ["no-mercy", "modern"])
def test_the_decks_of_other_kinds_replay_cleanly_with_every_bot(name, players):
    """SPEC 10's decks with random bots and with the strategy bots that play their kinds."""
    rules = load_preset(name).replace(players=players)
    assert_clean(rules, 150, seed=players)
    bots = [Bot(b, {}) for b in ("expert", "greedy", "bluffer", "random", "expert", "greedy")[:players]]
    assert_clean(rules, 60, seed=players + 10, bots=bots)


def test_number_finish_refuses_a_discard_all_that_would_empty_the_hand():
    """number_finish judges a Discard All as the card put down last (10.2 step 2): a player
    whose only cards are a Discard All and others of its colour may not play it, so with no
    other legal card they draw (the random bot too), and may not jump in with it. No Mercy's
    deck has Discard All cards; small hands make the position common."""
    rules = load_preset("no-mercy").replace(number_finish=True, hand_size=3, jump_in=True)
    assert_clean(rules, 300, seed=8)


@pytest.mark.parametrize(
    "knobs",
    [
        dict(players=2),
        dict(players=10, hand_size=10),
        dict(stack_draw_two=True, stack_draw_four=True, stack_four_on_two=True, stack_two_on_four=True, deflect=True),
        dict(players=2, stack_draw_two=True, deflect=True),
        dict(jump_in=True, stack_draw_two=True, seven_swap=True, zero_rotate=True),
        dict(draw_rule="until_playable", play_drawn="numbers", number_finish=True),
        dict(empty_pile="void", players=10, hand_size=10),
        dict(mode="last_standing", players=5),
        dict(mode="last_standing", teams=2, players=6, jump_in=True),
        dict(teams=3, players=6),
        dict(first_card="number", lead_reverse="left", lead_draw_two_skips=False),
        dict(wd4_rule="no_match", zero_points=10, last_card_penalty=False),
        dict(max_turns=20),
        dict(players=10, hand_size=10, draw_rule="until_playable"),
    ],
    ids=lambda k: ",".join(f"{a}={b}" for a, b in k.items()),
)
def test_rule_combinations_replay_cleanly(knobs):
    assert_clean(Rules(**knobs), 40, seed=5)


def test_forgetful_and_challenging_bots_replay_cleanly():
    bots = [
        Bot("random", {"forget_uno": 0.5, "challenge_prob": 0.5, "bluff_prob": 0.3}),
        Bot("random", {"jump_in_prob": 0.5, "challenge_prob": 1.0}),
        Bot("random", {"forget_uno": 1.0}),
        Bot("random", {"bluff_prob": 1.0}),
    ]
    assert_clean(Rules(uno_catch=0.5, jump_in=True), 100, seed=6, bots=bots)
    assert_clean(Rules(stack_draw_four=True, stack_draw_two=True), 100, seed=7, bots=bots)
    assert_clean(Rules(challenge_win_plays=False, wd4_rule="no_match"), 100, seed=8, bots=bots)


@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "40")), deadline=None, derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"),
          suppress_health_check=[HealthCheck.too_slow])
@given(knobs=rule_sets(), seed=st.integers(0, 2**31))
def test_random_valid_rule_sets_replay_cleanly(knobs, seed):
    try:
        rules = Rules(**knobs)
    except RulesError:
        return  # an invalid combination (rejected with a message naming the knob)
    bots = [Bot("random", {"forget_uno": 0.2, "challenge_prob": 0.3, "bluff_prob": 0.2})] * rules.players
    assert_clean(rules, 5, seed=seed % 1000, bots=bots)


@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "100")), deadline=None,
          derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"), suppress_health_check=[HealthCheck.too_slow])
@given(case=rule_sets_with_decks())
def test_rule_sets_with_decks_draw_valid_decks(case):
    """Every drawn deck is valid by decks.py (kinds, engine limits, the fit with the rule set)
    and by SPEC 10.1 as the independent checker reads it."""
    knobs, deck = case
    players, hand_size = knobs["players"], knobs["hand_size"]
    assert Deck(deck.kinds) == deck
    check_engine_limits(deck)
    check_deck_fits(deck, players, hand_size, knobs["first_card"], knobs.get("mercy_limit", 0))
    faces = DeckFaces(deck.as_list(knobs["zero_points"]), knobs["zero_points"])
    assert faces.problems == []
    assert faces.size == deck.size >= players * hand_size + 1
    assert faces.has_number or knobs["first_card"] != "number"


_ENGINE_PLAYS_DECKS = "deck" in inspect.signature(trace_one).parameters


@pytest.mark.skipif(not _ENGINE_PLAYS_DECKS, reason="the engine on this branch traces the classic deck only "
                    "(running.trace.trace_one has no `deck`; SPEC 10 kinds and events are not implemented yet)")
@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "40")), deadline=None,
          derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"), suppress_health_check=[HealthCheck.too_slow])
@given(case=rule_sets_with_decks(), seed=st.integers(0, 2**31))
def test_random_rule_sets_with_random_decks_replay_cleanly(case, seed):
    knobs, deck = case
    try:
        rules = Rules(**knobs)
    except RulesError:
        return  # an invalid combination (rejected with a message naming the knob)
    bots = [Bot("random", {"forget_uno": 0.2, "challenge_prob": 0.3, "bluff_prob": 0.2})] * rules.players
    assert_clean(rules, 3, seed=seed % 1000, bots=bots, deck=deck)


@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "30")), deadline=None,
          derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"), suppress_health_check=[HealthCheck.too_slow])
@given(case=rule_sets_with_two_sided_decks(), seed=st.integers(0, 2**31))
def test_random_rule_sets_with_random_two_sided_decks_replay_cleanly(case, seed):
    """Two-sided decks (UNO Flip): random sides with Flip kinds (coloured, wild, with other
    effects) and Wild Draw Colour kinds, under every knob, replayed by the checker."""
    knobs, deck = case
    try:
        rules = Rules(**knobs).with_deck(deck)
    except RulesError:
        return  # an invalid combination (rejected with a message naming the knob)
    bots = [Bot("random", {"forget_uno": 0.2, "challenge_prob": 0.3, "bluff_prob": 0.2})] * rules.players
    assert_clean(rules, 3, seed=seed % 1000, bots=bots)
