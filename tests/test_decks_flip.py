"""Two-sided decks (UNO Flip) as data (uno_sim/game/decks.py): the kind fields `flip` and
`draw_color` and their checks, the two-sided deck, the pinned built-in deck `flip`, and rule
files with `[[deck.light]]` / `[[deck.dark]]`, and the face-table columns the engine reads for
them. Nothing here compiles the engine (tests/test_flip_play.py plays them).

The one-sided decks must read exactly as before these fields existed: their dicts (a trace's
`deal` kinds), rule-file tables and descriptions are compared with the values the code gave
before (tests/golden/one_sided_decks.json, written by the code of main before this change).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from uno_sim.game.decks import (
    BUILTIN_DECKS, FLAG_FIELDS, FLIP, SHOWN_DECKS, DeckError, Deck, FaceTable, Kind, TwoSidedDeck, deck_from_toml,
    check_playable, kind_from_table,
)
from uno_sim.game.errors import RulesError

GOLDEN = Path(__file__).parent / "golden" / "one_sided_decks.json"


# ------------------------------------------------------------------ one-sided decks unchanged

@pytest.mark.parametrize("name", ["classic", "no-mercy", "modern"])
def test_one_sided_decks_read_as_before(name):
    want = json.loads(GOLDEN.read_text())[name]
    deck = BUILTIN_DECKS[name]
    # key order matters too: a trace's deal event is written in this order
    assert [list(k.items()) for k in deck.as_list(0)] == [list(k.items()) for k in want["as_list"]]
    assert deck.as_list(10) == want["as_list10"]
    assert deck.to_table() == want["to_table"]
    assert [k.to_table() for k in deck.kinds] == want["kinds_to_table"]
    assert [k.describe() for k in deck.kinds] == want["describe"]


def test_the_face_table_carries_flip_draw_color_and_the_two_sided_lead():
    from uno_sim.game.decks import LEAD_DEALER, LEAD_DRAW, LEAD_FLIP, LEAD_NONE, LEAD_REVERSE, LEAD_SKIP, LEAD_WILD

    assert FaceTable.COLUMNS[-3:] == ("flip", "draw_color", "lead_effect")
    light, dark = (side.faces() for side in FLIP.sides)

    def column(table, name):
        return {text: int(getattr(table, name)[i]) for i, text in enumerate(table.texts)}

    assert {t for t, v in column(light, "flip").items() if v} == {"RF", "YF", "GF", "BF"}
    assert {t for t, v in column(dark, "flip").items() if v} == {"PF", "TF", "OF", "VF"}
    assert {t for t, v in column(dark, "draw_color").items() if v} == {"WDC"}
    assert not any(column(light, "draw_color").values())
    # SPEC 11.4's lead kinds: S skips, R reverses, D1/D5 draw, E gives the dealer the turn, F flips,
    # W names a colour; numbers and the restricted wilds have no lead effect (W2, WDC go back)
    lead = column(light, "lead_effect") | column(dark, "lead_effect")
    assert [lead[t] for t in ("R5", "RS", "RR", "RD1", "RF", "W", "W2")] == [
        LEAD_NONE, LEAD_SKIP, LEAD_REVERSE, LEAD_DRAW, LEAD_FLIP, LEAD_WILD, LEAD_NONE]
    assert [lead[t] for t in ("PE", "PD5", "WDC")] == [LEAD_DEALER, LEAD_DRAW, LEAD_NONE]
    assert [bool(light.lead[light.face(t)]) for t in ("RD1", "RF", "W", "W2")] == [True, True, True, False]
    assert [bool(dark.lead[dark.face(t)]) for t in ("PE", "PD5", "WDC")] == [True, True, False]
    # one-sided decks: no flip, no draw_color (the engine's path for them is the one they had)
    for deck in BUILTIN_DECKS.values():
        table = deck.faces()
        assert not table.flip.any() and not table.draw_color.any()


# ------------------------------------------------------------------ flip and draw_color on a kind

def test_the_new_fields_appear_only_when_true():
    wdc = Kind("WDC", False, 4, points=60, draw_color=True, restricted=True)
    assert wdc.as_dict()["draw_color"] is True and "flip" not in wdc.as_dict()
    assert wdc.to_table() == {"text": "WDC", "colored": False, "copies": 4, "points": 60,
                              "restricted": True, "draw_color": True}
    assert wdc.describe() == ("wild, only as the Wild Draw Four rule allows (challengeable), "
                              "draw until the named colour")
    plain = Kind("WX", False, 3)
    assert "draw_color" not in plain.as_dict() and "flip" not in plain.as_dict()
    assert plain.to_table() == {"text": "WX", "colored": False, "copies": 3}


def test_a_wild_draw_colour_may_be_restricted_in_a_one_sided_deck():
    # restricted needs draw or draw_color; draw_color is allowed in one-sided decks (a DIY card)
    deck = deck_from_toml({"base": "classic", "kinds": [
        {"text": "WDC", "colored": False, "copies": 4, "draw_color": True, "restricted": True}]})
    assert deck.kind("WDC").draw_color and deck.kind("WDC").restricted and deck.size == 112


BAD_FLIP_KINDS = [
    (dict(text="WDC", colored=False, copies=1, draw_color=True, draw=2), "draw_color and draw cannot go together"),
    (dict(text="WDC", colored=False, copies=1, draw_color=True, roulette=True), "draw_color and roulette"),
    (dict(text="WDC", colored=False, copies=1, draw_color=True, skip=1), "draw_color and skip"),
    (dict(text="WDC", colored=False, copies=1, draw_color=True, skip="all"), "draw_color and skip"),
    (dict(text="WDC", colored=False, copies=1, draw_color=True, number=3), "a wild kind cannot have a number"),
    (dict(text="C", colored=True, copies=1, draw_color=True), "a coloured kind cannot have draw_color"),
    (dict(text="5", colored=True, copies=1, draw_color=True), "a number kind has no effects (draw_color"),
    (dict(text="5", colored=True, copies=1, flip=True), "a number kind has no effects (flip"),
    (dict(text="WR", colored=False, copies=1, restricted=True), "restricted needs draw or draw_color"),
    (dict(text="WF", colored=False, copies=1, restricted=True, flip=True), "restricted needs draw or draw_color"),
    (dict(text="F", colored=True, copies=1, flip="yes"), "flip must be true or false"),
    (dict(text="WDC", colored=False, copies=1, draw_color=1), "draw_color must be true or false"),
]


@pytest.mark.parametrize("fields, words", BAD_FLIP_KINDS, ids=[f"{i}-{f['text']}" for i, (f, _) in enumerate(BAD_FLIP_KINDS)])
def test_an_invalid_flip_or_draw_colour_kind_is_one_line_naming_it(fields, words):
    with pytest.raises(DeckError) as err:
        kind_from_table(fields)
    message = str(err.value)
    assert message.startswith(f"deck kind {fields['text']!r}: ") and words in message, message
    assert "\n" not in message


@pytest.mark.parametrize("fields", [
    dict(text="F", colored=True, copies=2, flip=True),
    dict(text="WF", colored=False, copies=1, flip=True),
    dict(text="DF", colored=True, copies=1, flip=True, draw=2),
])
def test_flip_in_a_one_sided_deck_is_refused_naming_the_kind(fields):
    Kind(**fields)  # the kind itself is valid: a side of a two-sided deck may hold it
    with pytest.raises(DeckError, match=rf"^rule file 'mine.toml': deck kind '{fields['text']}': flip needs a "
                                        "two-sided deck"):
        deck_from_toml({"kinds": [fields]}, "rule file 'mine.toml'")
    with pytest.raises(DeckError, match="flip needs a two-sided deck"):
        Deck((Kind(**fields),))


# ------------------------------------------------------------------ the built-in deck `flip` (SPEC 11.3)

# (text, colored, copies, points, effects): written from SPEC 11.3, not from the code
FLIP_LIGHT = [*((str(n), True, 2, n, {}) for n in range(1, 10)),
              ("D1", True, 2, 10, {"draw": 1}), ("R", True, 2, 20, {"reverse": True}), ("S", True, 2, 20, {"skip": 1}),
              ("F", True, 2, 20, {"flip": True}), ("W", False, 4, 40, {}),
              ("W2", False, 4, 50, {"draw": 2, "restricted": True})]
FLIP_DARK = [*((str(n), True, 2, n, {}) for n in range(1, 10)),
             ("D5", True, 2, 20, {"draw": 5}), ("R", True, 2, 20, {"reverse": True}), ("E", True, 2, 30, {"skip": "all"}),
             ("F", True, 2, 20, {"flip": True}), ("W", False, 4, 40, {}),
             ("WDC", False, 4, 60, {"draw_color": True, "restricted": True})]
EFFECTS = ("draw", "skip", "reverse", "restricted", "discard_color", "roulette", "swap_hands", "shuffle_hands",
           "flip", "draw_color")


@pytest.mark.parametrize("side, want", [("light", FLIP_LIGHT), ("dark", FLIP_DARK)])
def test_the_flip_deck_is_pinned(side, want):
    deck = getattr(FLIP, side)
    assert deck.side == side and deck.texts == tuple(t for t, *_ in want)
    for (text, colored, copies, points, effects), kind in zip(want, deck.kinds):
        assert (kind.colored, kind.copies, kind.points_for(0)) == (colored, copies, points), text
        assert {f: getattr(kind, f) for f in EFFECTS if getattr(kind, f)} == effects, text
    assert deck.size == 112 and FLIP.size == 112
    assert sum(k.cards for k in deck.kinds if k.is_number) == 72  # 1-9, 2 each per colour, no 0


def test_the_flip_deck_is_named_and_has_side_colours():
    assert FLIP.name == "flip" and FLIP.two_sided and not BUILTIN_DECKS["classic"].two_sided
    assert FLIP.light.colors == ("R", "Y", "G", "B") and FLIP.dark.colors == ("P", "T", "O", "V")
    assert "flip" in SHOWN_DECKS and "flip" not in BUILTIN_DECKS  # shown, not a value of the knob deck
    assert FLIP.dark.faces().texts[:3] == ("P1", "P2", "P3")
    # the deal's `sides` as the trace checker reads them: every field, points worked out
    sides = FLIP.as_dict()
    assert sides["dark"][-1] == {"text": "WDC", "colored": False, "copies": 4, "points": 60, "draw": 0, "skip": 0,
                                 "reverse": False, "restricted": True, "discard_color": False, "roulette": False,
                                 "swap_hands": False, "shuffle_hands": False, "draw_color": True}


def test_the_sides_must_hold_the_same_number_of_cards():
    with pytest.raises(DeckError, match=r"^a two-sided deck's sides must hold the same number of cards "
                                        r"\(light side 112, dark side 108\)$"):
        TwoSidedDeck(FLIP.light, FLIP.dark.kinds[:-1])
    with pytest.raises(DeckError, match="^dark side: deck kind 'R': duplicate text"):
        TwoSidedDeck(FLIP.light, FLIP.dark.kinds + (Kind("R", True, 1),))


# ------------------------------------------------------------------ two-sided rule files

def flip_table(**extra):
    return {"base": "flip", **extra}


def test_base_flip_alone_is_the_flip_deck():
    deck = deck_from_toml(flip_table())
    assert deck == FLIP and deck.name == "flip"
    assert deck_from_toml(FLIP.to_table()) == FLIP


def test_light_and_dark_tables_replace_add_and_remove():
    deck = deck_from_toml(flip_table(
        remove=["light:W2", "dark:E"],
        light=[{"text": "W4", "colored": False, "copies": 4, "draw": 4, "restricted": True}],
        dark=[{"text": "WDC", "colored": False, "copies": 4, "points": 70, "draw_color": True, "restricted": True},
              {"text": "K", "colored": True, "copies": 2, "skip": 1}]), "rule file 'mine.toml'")
    assert deck.name == "custom" and deck.size == 112
    assert deck.light.texts[-2:] == ("W", "W4") and "W2" not in deck.light
    assert "E" not in deck.dark and deck.dark.texts[-1] == "K" and deck.dark.kind("WDC").points == 70
    assert deck_from_toml(deck.to_table()) == deck  # a rule file writes it back


@pytest.mark.parametrize("table, message", [
    (flip_table(kinds=[{"text": "Q", "colored": True, "copies": 1}]),
     "a two-sided deck (base = 'flip') gives its kinds as [[deck.light]] and [[deck.dark]], not [[deck.kinds]]"),
    ({"base": "classic", "light": []}, "[[deck.light]] is for a two-sided deck: give base = \"flip\""),
    ({"dark": [{"text": "Q", "colored": True, "copies": 1}]}, "[[deck.dark]] is for a two-sided deck"),
    (flip_table(remove=["W2"]), "deck remove: 'W2' must name a side and a kind's text, like \"light:W2\""),
    (flip_table(remove=["top:W2"]), "deck remove: 'top:W2' must name a side"),
    (flip_table(remove=["light:W4"]), "light side: deck remove: the light side deck has no kind 'W4'"),
    (flip_table(remove=["dark:E"]), "a two-sided deck's sides must hold the same number of cards (light side 112, dark side 104)"),
    (flip_table(light={"text": "Q"}), "deck light must be an array of tables ([[deck.light]] entries)"),
    (flip_table(dark=[{"text": "WDC", "colored": False, "copies": 4, "draw_color": True, "draw": 2}]),
     "dark side: deck kind 'WDC': draw_color and draw cannot go together"),
    (flip_table(light=[{"text": "Q", "colored": True, "copies": 1, "flips": True}]),
     "light side: deck kind 'Q': unknown field 'flips' (did you mean 'flip'?)"),
    (flip_table(side=[]), "unknown key 'side' in [deck]"),
    ({"base": "flop"}, "deck base must be one of classic, no-mercy, modern, flip (got 'flop')"),
])
def test_a_malformed_two_sided_deck_is_one_line(table, message):
    with pytest.raises(DeckError) as err:
        deck_from_toml(table, "rule file 'mine.toml'")
    assert str(err.value).startswith("rule file 'mine.toml': ") and message in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


def test_a_two_sided_rule_file_loads_into_rules(tmp_path):
    from uno_sim.game import presets

    path = tmp_path / "flipside.toml"
    path.write_text('[rules]\nhand_size = 7\n[deck]\nbase = "flip"\nremove = ["light:W2"]\n'
                    '[[deck.light]]\ntext = "W4"\ncolored = false\ncopies = 4\ndraw = 4\nrestricted = true\n')
    rules = presets.load(str(path), to_play=False)
    assert rules.deck == "custom" and rules.cards.two_sided and rules.cards.light.kind("W4").draw == 4
    assert rules.cards.dark == FLIP.dark
    # written out and read back
    again = tmp_path / "again.toml"
    again.write_text(presets.rule_file_text(rules))
    assert presets.load(str(again), to_play=False).cards == rules.cards


def test_a_rule_set_to_play_takes_two_sided_and_draw_color_decks(tmp_path):
    from uno_sim.game import presets

    path = tmp_path / "flipside.toml"
    path.write_text('[deck]\nbase = "flip"\n')
    rules = presets.load(str(path))  # base flip alone is the built-in deck: the knob names it
    assert rules.deck == "flip" and rules.cards == FLIP and rules.custom_deck is None
    assert presets.load("standard", {"deck": "flip"}).cards == FLIP
    assert presets.load("flip").cards == FLIP and presets.load("flip").flip_discard == "whole"
    # --set deck=classic replaces the file's deck: that rule set plays the classic deck
    assert presets.load(str(path), {"deck": "classic"}).cards == BUILTIN_DECKS["classic"]
    check_playable(BUILTIN_DECKS["no-mercy"])
    check_playable(FLIP)
    check_playable(Deck((Kind("1", True, 2), Kind("WDC", False, 1, draw_color=True))))


def test_the_rulebooks_two_sided_example_is_a_valid_deck():
    import tomllib

    text = (Path(__file__).resolve().parent.parent / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text[text.index("### Two-sided decks (UNO Flip)"):]
    assert "The knob `deck` takes `flip`" in section and "**A Flip card**" in section
    block = section[section.index("```toml") + len("```toml"):section.index("```", section.index("```toml") + 7)]
    deck = deck_from_toml(tomllib.loads(block)["deck"])
    assert deck.two_sided and deck.light.kind("W4").draw == 4 and deck.dark.kind("WDC").points == 70
