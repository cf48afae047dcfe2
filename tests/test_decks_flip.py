"""Two-sided decks (UNO Flip) as data (uno_sim/game/decks.py): the kind fields `flip` and
`draw_color` and their checks, the two-sided deck, the pinned built-in deck `flip`, and rule
files with `[[deck.light]]` / `[[deck.dark]]`. The engine does not play them yet: nothing
here compiles it.

The one-sided decks must read exactly as before these fields existed: their dicts (a trace's
`deal` kinds), rule-file tables and descriptions are compared with the values the code gave
before (tests/golden/one_sided_decks.json, written by the code of main before this change).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from uno_sim.game.decks import (
    BUILTIN_DECKS, FLAG_FIELDS, DeckError, Deck, FaceTable, Kind, deck_from_toml, kind_from_table,
)

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


def test_the_face_table_has_no_two_sided_columns():
    # the engine's face table (engine/state.py reads these columns) is unchanged
    assert FLAG_FIELDS == ("reverse", "restricted", "discard_color", "roulette", "swap_hands", "shuffle_hands")
    assert FaceTable.COLUMNS == ("color", "kind", "number", "draw", "skip", "reverse", "restricted",
                                 "discard_color", "roulette", "swap_hands", "shuffle_hands", "points", "copies",
                                 "role", "lead")


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
