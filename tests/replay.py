"""Trace games with the engine and replay them in the independent checker (trace_checker.py)."""

import json

from hypothesis import strategies as st

from decks_strategy import engine_decks, two_sided_engine_decks
from trace_checker import check_trace_lines
from uno_sim.game.bots import Bot
from uno_sim.game.knobs import KNOBS
from uno_sim.engine.batch import run_key
from uno_sim.game.rules import Rules
from uno_sim.running.trace import trace_one


def replay(rules: Rules, games: int, seed: int = 1, bots=None, deck=None):
    """Trace `games` games (with `deck` when given: trace_one's `deck` keyword), replay them;
    returns (reports, engine records)."""
    bots = bots or [Bot("random")] * rules.players
    key = run_key(seed)
    lines, records = [], []
    extra = {} if deck is None else {"deck": deck}
    for game in range(games):
        events, record = trace_one(rules, bots, key, game, **extra)
        lines.extend(json.dumps(e) for e in events)
        records.append(record)
    return check_trace_lines(lines), records


def assert_clean(rules: Rules, games: int, seed: int = 1, bots=None, deck=None):
    reports, records = replay(rules, games, seed, bots, deck)
    assert len(reports) == games
    problems = [(r.game, v) for r in reports for v in r.violations]
    assert not problems, problems[:5]
    for report, record in zip(reports, records):
        assert report.record == record


# The house rules of the rule sheets' "other ways to play" (sum jump-in, hand-sum win, Wild swap,
# UNO catchers), added after the first variants: their presets have replays of their own in
# test_seed_replay.py, and traces written before them lack these knobs (test_trace_checker.py
# fills in the defaults). rule_sets below draws them like every other knob.
SEED_KNOBS = ("sum_jump_in", "sum_jump_win_only", "hand_sum_win", "wild_swap", "uno_catchers")
SEED_PRESETS = ("sum-jump-in", "hand-sum", "wild-swap", "uno-catchers")


# Every knob of the table is drawn: booleans and words from their values, numbers from a range
# that keeps games short and valid (a new knob joins without being listed here).
_NUMBER_RANGES = {
    "hand_size": None,  # depends on players, drawn below
    "uno_penalty": st.integers(0, 4),
    "challenge_extra": st.integers(0, 3),
    "uno_catch": st.sampled_from([0.0, 0.5, 1.0]),
    "zero_points": st.sampled_from([0, 10]),
    "max_turns": st.sampled_from([30, 5000]),
    "target": st.just(500),
    "match_rounds": st.sampled_from([0, 10]),
    "teams": None,  # depends on players
    "players": None,
    # SPEC 10's knobs (drawn once the knob table lists them)
    "mercy_limit": None,  # 0 or above hand_size, drawn below
    "mercy_points": st.sampled_from([0, 250]),
}


@st.composite
def rule_sets(draw, keep_default=()):
    """A rule set (dict) drawing every knob of the table, but those in keep_default and the
    deck (classic: the checker replays classic traces; random decks come separately)."""
    values = {}
    for knob in KNOBS:
        if knob.name in keep_default or knob.name == "deck":
            values[knob.name] = knob.default
        elif knob.values is bool:
            values[knob.name] = draw(st.booleans())
        elif knob.choices:
            values[knob.name] = draw(st.sampled_from(knob.choices))
        elif _NUMBER_RANGES.get(knob.name) is not None:
            values[knob.name] = draw(_NUMBER_RANGES[knob.name])
        else:
            assert knob.name in _NUMBER_RANGES, f"knob {knob.name}: add a range to _NUMBER_RANGES"
    values["players"] = draw(st.integers(2, 10))
    values["hand_size"] = draw(st.integers(1, min(12, 107 // values["players"])))
    values["teams"] = draw(st.sampled_from([0] + [k for k in range(2, values["players"] + 1) if values["players"] % k == 0]))
    if any(k.name == "mercy_limit" for k in KNOBS) and "mercy_limit" not in keep_default:
        # 0 (off) or above hand_size; not with teams
        values["mercy_limit"] = 0 if values["teams"] or draw(st.booleans()) else draw(
            st.integers(values["hand_size"] + 1, values["hand_size"] + 20))
    return values


@st.composite
def rule_sets_with_decks(draw, keep_default=()):
    """(rule set, deck): a rule set as rule_sets draws it and a random deck valid for it
    (at least players * hand_size + 1 cards, number cards under first_card = number, a card
    that can lead under first_card = official, within
    the engine's limits), for the engine's replays once it plays every kind (SPEC 10)."""
    values = draw(rule_sets(keep_default))
    deck = draw(engine_decks(min_cards=values["players"] * values["hand_size"] + 1,
                             number_cards=values["first_card"] == "number",
                             lead_card=values["first_card"] == "official"))
    return values, deck


@st.composite
def rule_sets_with_two_sided_decks(draw, keep_default=()):
    """(rule set, two-sided deck): as rule_sets_with_decks, the deck a random two-sided one."""
    values = draw(rule_sets(keep_default))
    deck = draw(two_sided_engine_decks(min_cards=values["players"] * values["hand_size"] + 1,
                                       number_cards=values["first_card"] == "number",
                                       lead_card=values["first_card"] == "official"))
    return values, deck


