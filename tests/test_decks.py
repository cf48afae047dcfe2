"""Decks as data (uno_sim/game/decks.py): kinds, their checks, the built-in decks, rule-file
decks and the face table. Pure Python and numpy: nothing here compiles the engine.

The classic deck's face table must be today's card arithmetic (uno_sim/game/cards.py) face
by face, so that the deck model can replace it without changing a single game."""

from __future__ import annotations

import dataclasses
import tomllib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks_strategy import random_deck_tables, random_decks, random_kinds
from uno_sim.game import cards
from uno_sim.game.decks import (
    CLASSIC, DECK_NAMES, LEAD_ROLES, MODERN, NO_MERCY, ROLE_DRAW_TWO, ROLE_NONE, ROLE_REVERSE, ROLE_SKIP,
    ROLE_WILD, ROLE_WILD_DRAW_FOUR, SKIP_ALL, Deck, DeckError, FaceTable, Kind, build_deck, builtin_deck,
    check_deck_fits, deck_from_kinds, deck_from_toml, kind_from_table,
)
from uno_sim.game.errors import BadInput
from uno_sim.game.rules import RulesError

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ classic = cards.py

@pytest.mark.parametrize("zero_points", [0, 10])
def test_classic_faces_are_todays_card_arithmetic(zero_points):
    t = CLASSIC.faces(zero_points)
    assert t.n_faces == cards.N_FACES == 54
    assert t.texts == cards.FACE_TEXTS
    for f in range(cards.N_FACES):
        assert t.texts[f] == cards.face_text(f)
        assert t.face(cards.face_text(f)) == f == cards.parse_face(t.texts[f])
        assert t.points[f] == cards.face_points(f, zero_points), t.texts[f]
        assert t.copies[f] == cards.copies(f), t.texts[f]
        if f < cards.WILD:
            assert t.color[f] == f // cards.N_SYMBOLS
            symbol = f % cards.N_SYMBOLS
            assert t.number[f] == (symbol if symbol < 10 else -1)
        else:
            assert t.color[f] == -1 and t.number[f] == -1
    assert np.array_equal(t.cards(), cards.deck())
    assert t.size == CLASSIC.size == cards.DECK_SIZE == 108
    assert t.n_colored_kinds == cards.N_SYMBOLS


def test_classic_action_faces_sit_where_cards_py_puts_them():
    t = CLASSIC.faces()
    for c, letter in enumerate(cards.COLORS):
        skip, reverse, draw_two = (c * cards.N_SYMBOLS + s for s in (cards.SKIP, cards.REVERSE, cards.DRAW_TWO))
        assert (t.texts[skip], t.skip[skip], t.draw[skip], t.reverse[skip]) == (letter + "S", 1, 0, 0)
        assert (t.texts[reverse], t.reverse[reverse], t.skip[reverse], t.draw[reverse]) == (letter + "R", 1, 0, 0)
        assert (t.texts[draw_two], t.draw[draw_two], t.skip[draw_two], t.reverse[draw_two]) == (letter + "D", 2, 0, 0)
    w, w4 = cards.WILD, cards.WILD_DRAW_FOUR
    assert (t.texts[w], t.draw[w], t.restricted[w]) == ("W", 0, 0)
    assert (t.texts[w4], t.draw[w4], t.restricted[w4]) == ("W4", 4, 1)
    for name in ("discard_color", "roulette", "swap_hands", "shuffle_hands"):
        assert not getattr(t, name).any()


def test_colours_are_those_of_cards_py():
    from uno_sim.game.decks import COLORS

    assert COLORS == cards.COLORS


def test_classic_roles_and_lead_faces():
    t = CLASSIC.faces()
    by_role = {role: [t.texts[f] for f in t.faces_with_role(role)] for role in
               (ROLE_SKIP, ROLE_REVERSE, ROLE_DRAW_TWO, ROLE_WILD, ROLE_WILD_DRAW_FOUR)}
    assert by_role == {ROLE_SKIP: ["RS", "YS", "GS", "BS"], ROLE_REVERSE: ["RR", "YR", "GR", "BR"],
                       ROLE_DRAW_TWO: ["RD", "YD", "GD", "BD"], ROLE_WILD: ["W"], ROLE_WILD_DRAW_FOUR: ["W4"]}
    # an official lead card goes back only when it is a Wild Draw Four
    assert [t.texts[f] for f in range(t.n_faces) if not t.lead[f]] == ["W4"]


def test_lead_faces_of_other_decks_go_by_text():
    t = NO_MERCY.faces()
    stays = {t.texts[f] for f in range(t.n_faces) if t.lead[f]}
    assert stays == {c + s for c in "RYGB" for s in "0123456789SRD"}  # no W in no-mercy: every wild goes back
    t = MODERN.faces()
    assert {t.texts[f] for f in range(t.n_faces) if not t.lead[f]} == {"W4", "WSH", "WX"}
    # a coloured kind written W has no role; only the wild W is the lead Wild
    odd = Deck((Kind("W", True, 1), Kind("WA", False, 1)))
    assert not odd.faces().role.any() and not odd.faces().lead.any()


def test_face_table_columns_are_read_only_int64():
    t = CLASSIC.faces()
    for name in FaceTable.COLUMNS:
        column = getattr(t, name)
        assert column.dtype == np.int64 and column.shape == (t.n_faces,), name
        with pytest.raises(ValueError):
            column[0] = 1
    assert CLASSIC.faces() is CLASSIC.faces()  # cached per deck and zero_points


def test_zero_points_must_be_a_whole_number():
    with pytest.raises(DeckError, match="zero_points"):
        CLASSIC.faces(-1)
    with pytest.raises(DeckError, match="zero_points"):
        CLASSIC.faces(True)


# ------------------------------------------------------------------ the built-in decks

def kinds_summary(deck):
    return [(k.text, k.colored, k.copies) for k in deck.kinds]


def test_classic_kinds():
    assert kinds_summary(CLASSIC) == (
        [("0", True, 1)] + [(str(n), True, 2) for n in range(1, 10)]
        + [("S", True, 2), ("R", True, 2), ("D", True, 2), ("W", False, 4), ("W4", False, 4)]
    )
    assert CLASSIC.kind("S").skip == 1 and CLASSIC.kind("R").reverse and CLASSIC.kind("D").draw == 2
    w4 = CLASSIC.kind("W4")
    assert (w4.draw, w4.restricted) == (4, True)
    assert CLASSIC.kind("W") == Kind("W", False, 4)


def test_no_mercy_kinds():
    assert NO_MERCY.size == 168
    assert kinds_summary(NO_MERCY) == (
        [(str(n), True, 2) for n in range(10)]
        + [("D", True, 3), ("D4", True, 2), ("S", True, 3), ("E", True, 2), ("R", True, 3), ("A", True, 3)]
        + [("WR4", False, 8), ("W6", False, 4), ("W10", False, 4), ("WC", False, 8)]
    )
    k = NO_MERCY.kind
    assert (k("D").draw, k("D4").draw, k("S").skip, k("E").skip) == (2, 4, 1, SKIP_ALL)
    assert k("R").reverse and k("A").discard_color
    assert (k("WR4").draw, k("WR4").reverse, k("W6").draw, k("W10").draw) == (4, True, 6, 10)
    assert k("WC").roulette
    assert "W" not in NO_MERCY and not any(kind.restricted for kind in NO_MERCY.kinds)
    t = NO_MERCY.faces(0)
    assert t.n_faces == 4 * 16 + 4 and t.size == 168
    for f in range(t.n_faces):
        kind = NO_MERCY.kinds[t.kind[f]]
        expected = 50 if not kind.colored else (20 if kind.number is None else kind.number)
        assert t.points[f] == expected, t.texts[f]


def test_modern_kinds():
    assert MODERN.size == 112
    assert MODERN.kinds[:15] == CLASSIC.kinds
    assert kinds_summary(MODERN)[15:] == [("WSH", False, 1), ("WX", False, 3)]
    assert MODERN.kind("WSH").shuffle_hands
    assert MODERN.kind("WX") == Kind("WX", False, 3)  # a plain Wild
    t = MODERN.faces()
    assert t.texts[:54] == cards.FACE_TEXTS and t.texts[54:] == ("WSH", "WX")
    assert list(t.points[54:]) == [50, 50]


def test_builtin_decks_are_named_by_what_they_hold():
    assert [builtin_deck(n).name for n in DECK_NAMES] == list(DECK_NAMES)
    assert Deck(CLASSIC.kinds).name == "classic"
    # spelling out a default points value changes nothing...
    spelled = tuple(dataclasses.replace(k, points=k.points_for(0)) if k.text != "0" else k for k in CLASSIC.kinds)
    assert Deck(spelled).name == "classic"
    # ...but any real change makes it custom, and so does the order
    assert Deck(CLASSIC.kinds[:-1]).name == "custom"
    assert Deck(CLASSIC.kinds[1:] + CLASSIC.kinds[:1]).name == "custom"
    assert Deck(tuple(dataclasses.replace(k, points=0) for k in CLASSIC.kinds)).name == "custom"
    with pytest.raises(DeckError, match="unknown deck 'nomercy'.*no-mercy"):
        builtin_deck("nomercy")


# ------------------------------------------------------------------ readings

def test_a_digit_text_is_the_number_kind_of_that_digit():
    assert Kind("7", True, 2).number == 7
    assert Kind("7", True, 2, number=7) == Kind("7", True, 2)
    assert Kind("7", True, 2).points_for(0) == 7
    assert Kind("0", True, 1).points_for(0) == 0 and Kind("0", True, 1).points_for(10) == 10


def test_explicit_points_win_also_for_a_zero():
    assert Kind("0", True, 1, points=0).points_for(10) == 0
    assert Kind("0", True, 1, points=5).points_for(0) == 5
    assert Kind("S", True, 2, skip=1, points=30).points_for(10) == 30
    assert Kind("WX", False, 3, points=0).points_for(0) == 0
    deck = Deck((Kind("0", True, 1, points=3), Kind("1", True, 1), Kind("X", True, 1), Kind("W", False, 1)))
    assert list(deck.faces(10).points) == [3, 1, 20] * 4 + [50]


def test_a_coloured_kind_without_effects_is_a_plain_action():
    k = Kind("X", True, 1)
    assert k.number is None and k.points_for(0) == 20


# ------------------------------------------------------------------ invalid kinds

BAD_KINDS = [
    # (fields, words the message must hold)
    (dict(text="5", colored=True, copies=2, draw=2), "number kind has no effects"),
    (dict(text="5", colored=True, copies=2, skip=1), "number kind has no effects"),
    (dict(text="5", colored=True, copies=2, reverse=True), "number kind has no effects"),
    (dict(text="5", colored=True, copies=2, discard_color=True), "number kind has no effects"),
    (dict(text="5", colored=True, copies=2, swap_hands=True), "number kind has no effects"),
    (dict(text="5", colored=True, copies=2, shuffle_hands=True), "number kind has no effects"),
    (dict(text="5", colored=True, copies=2, number=4), "is the number 5, but number = 4"),
    (dict(text="X", colored=True, copies=2, number=4), "number = 4 needs the text '4'"),
    (dict(text="WN", colored=False, copies=2, number=4), "wild kind cannot have a number"),
    (dict(text="WD", colored=False, copies=2, draw=2, roulette=True), "draw and roulette"),
    (dict(text="WD", colored=False, copies=2, draw=2, skip=1), "draw and skip"),
    (dict(text="DS", colored=True, copies=2, draw=2, skip="all"), "draw and skip"),
    (dict(text="WC", colored=False, copies=2, roulette=True, skip=1), "roulette and skip"),
    (dict(text="WR", colored=False, copies=2, restricted=True), "restricted needs draw"),
    (dict(text="D", colored=True, copies=2, draw=2, restricted=True), "coloured kind cannot be restricted"),
    (dict(text="C", colored=True, copies=2, roulette=True), "coloured kind cannot have roulette"),
    (dict(text="WA", colored=False, copies=2, discard_color=True), "wild kind cannot have discard_color"),
    # text format
    (dict(text="ABCD", colored=True, copies=1), "coloured kind's text"),
    (dict(text="1A", colored=True, copies=1), "coloured kind's text"),
    (dict(text="10", colored=True, copies=1), "coloured kind's text"),
    (dict(text="s", colored=True, copies=1), "coloured kind's text"),
    (dict(text="", colored=True, copies=1), "coloured kind's text"),
    (dict(text="R-", colored=True, copies=1), "coloured kind's text"),
    (dict(text="X", colored=False, copies=1), "wild kind's text"),
    (dict(text="WABCD", colored=False, copies=1), "wild kind's text"),
    (dict(text="W_", colored=False, copies=1), "wild kind's text"),
    (dict(text="w4", colored=False, copies=1), "wild kind's text"),
    # bounds
    (dict(text="X", colored=True, copies=17), "copies must be a whole number from 0 to 16"),
    (dict(text="X", colored=True, copies=-1), "copies must be"),
    (dict(text="X", colored=True, copies=1, points=1001), "points must be a whole number from 0 to 1000"),
    (dict(text="X", colored=True, copies=1, points=-5), "points must be"),
    (dict(text="X", colored=True, copies=1, draw=51), "draw must be a whole number from 0 to 50"),
    (dict(text="X", colored=True, copies=1, draw=-1), "draw must be"),
    (dict(text="X", colored=True, copies=1, skip=2), "skip must be 0, 1 or \"all\""),
    (dict(text="X", colored=True, copies=1, skip="All"), "skip must be"),
    (dict(text="X", colored=True, copies=1, skip=-1), "skip must be"),
    (dict(text="X", colored=True, copies=1, number=10), "number must be a whole number from 0 to 9"),
    # types
    (dict(text="X", colored="yes", copies=1), "colored must be true or false"),
    (dict(text="X", colored=1, copies=1), "colored must be true or false"),
    (dict(text="X", colored=True, copies="2"), "copies must be"),
    (dict(text="X", colored=True, copies=2.0), "copies must be"),
    (dict(text="X", colored=True, copies=True), "copies must be"),
    (dict(text="X", colored=True, copies=1, points="20"), "points must be"),
    (dict(text="X", colored=True, copies=1, draw=2.0), "draw must be"),
    (dict(text="X", colored=True, copies=1, draw=True), "draw must be"),
    (dict(text="X", colored=True, copies=1, skip=True), "skip must be"),
    (dict(text="X", colored=True, copies=1, skip=1.0), "skip must be"),
    (dict(text="X", colored=True, copies=1, reverse=1), "reverse must be true or false"),
    (dict(text="X", colored=True, copies=1, swap_hands="true"), "swap_hands must be true or false"),
    (dict(text="W", colored=False, copies=1, shuffle_hands=0), "shuffle_hands must be true or false"),
    (dict(text="W", colored=False, copies=1, restricted=None), "restricted must be true or false"),
    (dict(text="WD", colored=False, copies=1, draw=2, roulette="no"), "roulette must be true or false"),
    (dict(text="X", colored=True, copies=1, discard_color=[]), "discard_color must be true or false"),
]


@pytest.mark.parametrize("fields, words", BAD_KINDS, ids=[f"{i}-{f['text']}" for i, (f, _) in enumerate(BAD_KINDS)])
def test_an_invalid_kind_is_rejected_naming_it(fields, words):
    with pytest.raises(DeckError) as err:
        Kind(**fields)
    message = str(err.value)
    assert message.startswith(f"deck kind {fields['text']!r}: ") and words in message, message
    assert "\n" not in message
    # the same in a rule file: the file comes first
    with pytest.raises(DeckError) as err:
        deck_from_toml({"kinds": [fields]}, "rule file 'mine.toml'")
    assert str(err.value) == f"rule file 'mine.toml': {message}"


def test_deck_errors_are_rule_errors_and_bad_input():
    assert issubclass(DeckError, RulesError) and issubclass(DeckError, BadInput)


def test_a_text_of_the_wrong_type_is_named_by_position():
    with pytest.raises(DeckError, match=r"^deck kind 5: text must be a string \(got 5\)$"):
        Kind(5, True, 1)
    with pytest.raises(DeckError, match=r"^f: deck kind 5: text must be a string"):
        deck_from_toml({"kinds": [{"text": 5, "colored": True, "copies": 1}]}, "f")
    with pytest.raises(DeckError, match=r"^deck kind #2: 'text' is required$"):
        deck_from_toml({"kinds": [{"text": "X", "colored": True, "copies": 1}, {"colored": True, "copies": 1}]})


@pytest.mark.parametrize("missing", ["text", "colored", "copies"])
def test_text_colored_and_copies_are_required_in_a_rule_file(missing):
    entry = {"text": "E", "colored": True, "copies": 1, "skip": "all"}
    del entry[missing]
    with pytest.raises(DeckError, match=f"{missing!r} is required"):
        deck_from_toml({"kinds": [entry]}, "rule file 'x.toml'")


def test_an_unknown_field_is_rejected_with_a_hint():
    with pytest.raises(DeckError) as err:
        deck_from_toml({"kinds": [{"text": "E", "colored": True, "copies": 1, "skp": "all"}]}, "rule file 'x.toml'")
    assert str(err.value).startswith("rule file 'x.toml': deck kind 'E': unknown field 'skp' (did you mean 'skip'?)")
    with pytest.raises(DeckError, match="deck kind 'E': unknown field 'colour'"):
        kind_from_table({"text": "E", "colour": True, "copies": 1})
    with pytest.raises(DeckError, match="deck kind #1 must be a table"):
        deck_from_toml({"kinds": ["E"]})


def test_a_duplicate_text_is_rejected_naming_it():
    with pytest.raises(DeckError, match="deck kind 'S': duplicate text"):
        Deck((Kind("S", True, 1, skip=1), Kind("S", True, 2, skip=1)))
    with pytest.raises(DeckError, match="deck kind 'WQ': duplicate text"):
        Deck((Kind("WQ", False, 1), Kind("7", True, 2), Kind("WQ", False, 1)))
    with pytest.raises(DeckError, match="^rule file 'x.toml': deck kind 'E': duplicate text"):
        deck_from_toml({"kinds": [{"text": "E", "colored": True, "copies": 1}] * 2}, "rule file 'x.toml'")
    with pytest.raises(DeckError, match="deck kind '3': duplicate text"):
        deck_from_kinds([{"text": "3", "colored": True, "copies": 1}] * 2)


def test_a_deck_holds_only_kinds():
    with pytest.raises(DeckError, match="card kinds"):
        Deck(("S",))


# ------------------------------------------------------------------ rule files

EXAMPLE_RULE_FILE = '''
extends = "standard"
[deck]
base = "classic"               # classic (default), no-mercy, modern
remove = ["WX"]                # texts of base kinds to drop (optional)
[[deck.kinds]]
text = "W6"                    # a Wild Draw Six
colored = false
copies = 4
draw = 6
[[deck.kinds]]
text = "E"                     # a coloured Skip Everyone, 1 per colour
colored = true
copies = 1
skip = "all"
'''

W6 = Kind("W6", False, 4, draw=6)
E = Kind("E", True, 1, skip=SKIP_ALL)


def test_the_example_rule_file_on_classic():
    """WX is no classic kind: removing it is a no-op (it is a kind of a built-in deck, so a
    file can switch its base). The deck is classic plus W6 and E."""
    deck = deck_from_toml(tomllib.loads(EXAMPLE_RULE_FILE)["deck"], "rule file 'example.toml'")
    assert deck.kinds == CLASSIC.kinds + (W6, E)
    assert deck.name == "custom" and deck.size == 108 + 4 + 4
    t = deck.faces()
    assert t.n_colored_kinds == 14 and t.n_faces == 14 * 4 + 3
    assert t.texts[:14] == tuple("R" + s for s in "0123456789SRDE")
    assert t.texts[-3:] == ("W", "W4", "W6")
    e = t.face("GE")
    assert (t.color[e], t.skip[e], t.copies[e], t.points[e]) == (2, 2, 1, 20)
    w6 = t.face("W6")
    assert (t.color[w6], t.draw[w6], t.restricted[w6], t.copies[w6], t.points[w6], t.role[w6]) == (-1, 6, 0, 4, 50, ROLE_NONE)


def test_the_example_rule_file_on_modern_drops_wx():
    table = tomllib.loads(EXAMPLE_RULE_FILE.replace('base = "classic"', 'base = "modern"'))["deck"]
    deck = deck_from_toml(table)
    assert deck.kinds == MODERN.kinds[:-1] + (W6, E)
    assert deck.size == 112 - 3 + 8


def test_removing_a_text_no_deck_has_is_an_error_naming_it():
    with pytest.raises(DeckError) as err:
        deck_from_toml({"remove": ["WXX"]}, "rule file 'x.toml'")
    assert str(err.value).startswith("rule file 'x.toml': deck remove: the classic deck has no kind 'WXX'")
    with pytest.raises(DeckError, match="no kind 'Q'"):
        build_deck("no-mercy", ["Q"])


def test_removing_and_replacing_and_adding():
    deck = build_deck("classic", ["0", "W4"], [Kind("S", True, 3, skip=SKIP_ALL), Kind("Z", True, 1)])
    assert deck.texts == tuple("123456789") + ("S", "R", "D", "W", "Z")
    assert deck.kind("S") == Kind("S", True, 3, skip=SKIP_ALL)  # replaced in its place, whole
    assert deck.size == 108 - 4 - 4 + 4 + 4
    # a replacement takes the defaults for what it leaves out, not the base kind's values
    assert build_deck("classic", [], [Kind("D", True, 2)]).kind("D").draw == 0
    # a base-only table is that built-in deck
    assert deck_from_toml({}) is not None and deck_from_toml({}).name == "classic"
    assert deck_from_toml({"base": "no-mercy"}) == NO_MERCY and deck_from_toml({"base": "no-mercy"}).name == "no-mercy"
    assert build_deck(MODERN, ["WX"]).texts == MODERN.texts[:-1]


def test_contradictions_in_remove_and_kinds():
    with pytest.raises(DeckError, match="deck kind 'S': both removed and given in kinds"):
        build_deck("classic", ["S"], [Kind("S", True, 1, skip=1)])
    with pytest.raises(DeckError, match="deck kind 'WX': both removed and given"):
        deck_from_toml({"remove": ["WX"], "kinds": [{"text": "WX", "colored": False, "copies": 1}]})
    with pytest.raises(DeckError, match="'S' is listed twice"):
        build_deck("classic", ["S", "S"])
    with pytest.raises(DeckError, match="deck kind 'Z': duplicate text"):
        build_deck("classic", [], [Kind("Z", True, 1), Kind("Z", True, 2)])


@pytest.mark.parametrize("table, words", [
    ({"bse": "classic"}, "unknown key 'bse' in [deck] (did you mean 'base'?)"),
    ({"colors": 4}, "unknown key 'colors' in [deck]"),
    ({"base": "clasic"}, "deck base must be one of classic, no-mercy, modern, flip (got 'clasic')"),
    ({"base": "custom"}, "deck base must be one of"),
    ({"base": 1}, "deck base must be one of"),
    ({"remove": "WX"}, "deck remove must be a list of kind texts"),
    ({"remove": [1]}, "deck remove must be a list of kind texts"),
    ({"kinds": {"text": "E"}}, "deck kinds must be an array of tables"),
    ("classic", "'deck' must be a table"),
])
def test_a_bad_deck_table_is_rejected(table, words):
    with pytest.raises(DeckError) as err:
        deck_from_toml(table, "rule file 'x.toml'")
    assert str(err.value).startswith("rule file 'x.toml': ") and words in str(err.value), str(err.value)


def test_kind_tables_round_trip():
    for deck in (CLASSIC, NO_MERCY, MODERN):
        for kind in deck.kinds:
            assert kind_from_table(kind.to_table()) == kind
        assert deck_from_kinds(deck.as_list(10)).faces(0).points.tolist() == deck.faces(10).points.tolist()
    assert Kind("7", True, 2).to_table() == {"text": "7", "colored": True, "copies": 2}
    assert Kind("E", True, 1, skip=SKIP_ALL).to_table() == {"text": "E", "colored": True, "copies": 1, "skip": "all"}
    assert CLASSIC.kind("W4").as_dict() == {
        "text": "W4", "colored": False, "copies": 4, "points": 50, "draw": 4, "skip": 0, "reverse": False,
        "restricted": True, "discard_color": False, "roulette": False, "swap_hands": False, "shuffle_hands": False,
    }
    assert CLASSIC.kind("0").as_dict(10)["points"] == 10 and CLASSIC.kind("0").as_dict(10)["number"] == 0


# ------------------------------------------------------------------ deck and rules

def test_the_deck_must_hold_a_deal_and_a_lead_card():
    check_deck_fits(CLASSIC, players=10, hand_size=10)  # 101 <= 108
    with pytest.raises(DeckError, match=r"invalid rules: hand_size 11 is too large for 10 players with the classic deck of 108 cards"):
        check_deck_fits(CLASSIC, players=10, hand_size=11)
    check_deck_fits(NO_MERCY, players=10, hand_size=16)  # 161 <= 168
    small = Deck((Kind("1", True, 1), Kind("W", False, 2)))  # 6 cards
    check_deck_fits(small, players=2, hand_size=2)
    with pytest.raises(DeckError, match="custom deck of 6 cards"):
        check_deck_fits(small, players=2, hand_size=3)


def test_first_card_number_needs_a_number_card():
    actions = Deck((Kind("S", True, 4, skip=1), Kind("0", True, 0), Kind("W", False, 4)))
    check_deck_fits(actions, players=2, hand_size=3)
    with pytest.raises(DeckError, match="first_card = number needs number cards"):
        check_deck_fits(actions, players=2, hand_size=3, first_card="number")
    check_deck_fits(NO_MERCY, players=4, hand_size=7, first_card="number")


def test_mercy_limit_is_off_or_above_the_hand():
    check_deck_fits(NO_MERCY, players=4, hand_size=7, mercy_limit=0)
    check_deck_fits(NO_MERCY, players=4, hand_size=7, mercy_limit=8)
    for limit in (7, 3):
        with pytest.raises(DeckError, match=f"mercy_limit must be 0 .off. or greater than hand_size = 7 .got {limit}."):
            check_deck_fits(NO_MERCY, players=4, hand_size=7, mercy_limit=limit)


# ------------------------------------------------------------------ random decks

def check_face_table(deck: Deck, zero_points: int) -> None:
    t = deck.faces(zero_points)
    nc, nw = len(deck.colored_kinds), len(deck.wild_kinds)
    assert t.n_colored_kinds == nc and t.n_faces == 4 * nc + nw
    for name in FaceTable.COLUMNS:
        assert getattr(t, name).shape == (t.n_faces,)
    assert t.size == int(t.copies.sum()) == deck.size == len(t.cards())
    assert len(set(t.texts)) == t.n_faces
    assert set(t.color.tolist()) <= {-1, 0, 1, 2, 3}
    assert np.array_equal(t.color[: 4 * nc], np.repeat(np.arange(4), nc))
    assert (t.color[4 * nc:] == -1).all()
    for f in range(t.n_faces):
        kind = deck.kinds[t.kind[f]]
        assert t.face(t.texts[f]) == f
        assert t.texts[f] == (("RYGB"[t.color[f]] + kind.text) if kind.colored else kind.text)
        if kind.colored:
            assert t.kind[f] == [i for i, k in enumerate(deck.kinds) if k.colored][f % nc]
        assert t.number[f] == (-1 if kind.number is None else kind.number)
        assert 0 <= t.number[f] <= 9 or (t.number[f] == -1)
        assert (t.draw[f], t.skip[f], t.copies[f]) == (kind.draw, {0: 0, 1: 1, "all": 2}[kind.skip], kind.copies)
        assert t.points[f] == kind.points_for(zero_points) and 0 <= t.points[f] <= 1000
        for name in ("reverse", "restricted", "discard_color", "roulette", "swap_hands", "shuffle_hands"):
            assert t.__getattribute__(name)[f] == int(getattr(kind, name))
        assert t.lead[f] == int(kind.is_number or t.role[f] in LEAD_ROLES)


@PROPERTY
@given(random_decks(), st.sampled_from([0, 10]))
def test_random_decks_are_valid_and_their_face_tables_consistent(deck, zero_points):
    assert Deck(deck.kinds) == deck  # validates again
    for kind in deck.kinds:
        assert Kind(**dataclasses.asdict(kind)) == kind
    check_face_table(deck, zero_points)


@PROPERTY
@given(random_decks(min_cards=71, number_cards=True), st.integers(2, 10))
def test_random_decks_reach_the_size_asked_for(deck, players):
    assert deck.size >= 71 and deck.number_cards > 0
    check_deck_fits(deck, players=players, hand_size=70 // players, first_card="number")


@PROPERTY
@given(random_deck_tables())
def test_random_deck_tables_give_the_deck_worked_out_by_hand(case):
    table, expected = case
    deck = deck_from_toml(table, "rule file 'r.toml'")
    assert deck == expected
    assert deck_from_kinds([k.to_table() for k in deck.kinds]) == deck
    check_face_table(deck, 0)


@PROPERTY
@given(random_kinds())
def test_a_kind_round_trips_through_its_table(kind):
    assert kind_from_table(kind.to_table()) == kind
    table = kind.as_dict(10)
    again = kind_from_table(table)
    assert again.points_for(0) == kind.points_for(10)
    assert dataclasses.replace(again, points=kind.points) == kind


# ------------------------------------------------------------------ what a kind does, in words

@pytest.mark.parametrize("kind, words", [
    (Kind("7", True, 2), "number 7"),
    (Kind("S", True, 2, skip=1), "skip"),
    (Kind("E", True, 1, skip=SKIP_ALL), "skip everyone (the player goes again)"),
    (Kind("A", True, 3, discard_color=True), "discard all of its colour"),
    (Kind("Q", True, 1), "no effect (matches colour or text)"),
    (Kind("W", False, 4), "wild"),
    (Kind("WR4", False, 8, draw=4, reverse=True), "wild, reverse, draw 4"),
    (Kind("W4", False, 4, draw=4, restricted=True), "wild, draw 4, only as the Wild Draw Four rule allows (challengeable)"),
    (Kind("WC", False, 8, roulette=True), "wild, colour roulette"),
    (Kind("WS", False, 1, swap_hands=True, shuffle_hands=True), "wild, swap hands, shuffle hands"),
])
def test_a_kind_says_what_it_does(kind, words):
    assert kind.describe() == words


# ------------------------------------------------------------------ the rule set carries its deck

def test_rules_carry_a_custom_deck_named_custom():
    from uno_sim.game.rules import Rules

    six = build_deck("classic", [], [Kind("W6", False, 4, draw=6)])
    rules = Rules().with_deck(six)
    assert (rules.deck, rules.cards, rules.as_dict()["deck"]) == ("custom", six, "custom")
    assert Rules().with_deck(MODERN) == Rules(deck="modern") and Rules(deck="modern").custom_deck is None
    assert Rules().cards == CLASSIC and Rules(deck="no-mercy").cards == NO_MERCY
    # knob changes keep the deck; a new deck knob replaces it
    assert rules.with_overrides(["players=3"]).cards == six
    assert rules.replace(jump_in=True).cards == six
    assert rules.with_overrides(["deck=classic"]) == Rules()
    assert rules != Rules() and hash(rules) != hash(Rules())
    with pytest.raises(RulesError, match="deck must be 'custom' with a rule file's own deck"):
        Rules(deck="classic", custom_deck=six)
    with pytest.raises(RulesError, match="the custom deck is the built-in modern deck"):
        Rules(deck="custom", custom_deck=MODERN)
    with pytest.raises(RulesError, match="deck must be one of classic, no-mercy, modern, flip .got 'custom'."):
        Rules(deck="custom")


def test_the_deal_is_checked_against_the_deck_played():
    from uno_sim.game.rules import Rules

    assert Rules(players=10, hand_size=10).hand_size == 10  # 101 <= 108
    with pytest.raises(RulesError, match="hand_size 11 is too large for 10 players with the classic deck of 108"):
        Rules(players=10, hand_size=11)
    assert Rules(players=10, hand_size=11, deck="modern").cards.size == 112  # 111 <= 112
    assert Rules(players=10, hand_size=16, deck="no-mercy").hand_size == 16  # 161 <= 168
    no_numbers = build_deck("classic", [str(n) for n in range(10)])
    with pytest.raises(RulesError, match="first_card = number needs number cards"):
        Rules(first_card="number", players=2, hand_size=3).with_deck(no_numbers)


def test_official_first_card_needs_a_card_that_can_lead():
    """A deck whose every card goes back under first_card = official (only coloured Skip
    Everyone, only restricted draw wilds, only shuffle wilds) made every round void; it is
    refused, naming the problem. first_card = number with number cards, and a deck with a
    single kind that leads, stay valid."""
    skip_everyone = Deck((Kind("E", True, 8, skip=SKIP_ALL),))
    restricted = Deck((Kind("W4", False, 16, draw=4, restricted=True), Kind("WD6", False, 16, draw=6, restricted=True)))
    shuffles = Deck((Kind("WSH", False, 16, shuffle_hands=True), Kind("WSX", False, 16, shuffle_hands=True)))
    no_copies = Deck((Kind("E", True, 8, skip=SKIP_ALL), Kind("5", True, 0), Kind("W", False, 0)))
    for deck in (skip_everyone, restricted, shuffles, no_copies):
        with pytest.raises(DeckError, match="has no card that can be turned up as the lead card"):
            check_deck_fits(deck, players=2, hand_size=7)
    for text, fields in (("S", {"skip": 1}), ("R", {"reverse": True}), ("D", {"draw": 2}), ("5", {})):
        deck = Deck((Kind("E", True, 8, skip=SKIP_ALL), Kind(text, True, 1, **fields)))
        check_deck_fits(deck, players=2, hand_size=7)
    check_deck_fits(Deck((Kind("WSH", False, 16, shuffle_hands=True), Kind("W", False, 16))), players=2, hand_size=7)
    check_deck_fits(Deck((Kind("E", True, 8, skip=SKIP_ALL), Kind("5", True, 1))), players=2, hand_size=7,
                    first_card="number")
