"""Decks as data: card kinds, the built-in decks, decks from rule files, and the face table.

A deck is an ordered list of card **kinds**. A kind is either coloured (one face in each
colour R, Y, G, B, with `copies` cards of each) or wild (one colourless face, `copies` cards
in all), and its effects are built from a fixed set of fields:

    text           coloured: a digit 0-9, or 1-3 characters of A-Z and 0-9 starting with a
                   letter (the face reads colour letter + text: "R7", "GS", "BD4");
                   wild: 1-4 characters of A-Z and 0-9 starting with W ("W", "W4", "WR4")
    colored        true / false
    copies         0-16 (per colour for a coloured kind, in all for a wild one)
    points         0-1000; by default a number card counts its number (a 0 counts the rule
                   set's `zero_points`), a coloured action 20, a wild 50. A points value that
                   is given always wins, also for a 0.
    number         0-9: a number card
    draw           0-50: the next player draws that many and loses the turn
    skip           0, 1 or "all" (every other player loses the turn)
    reverse        direction flips
    restricted     wild only: legal only as the Wild Draw Four rule allows; may be challenged
    discard_color  coloured only: the player also puts down all their cards of that colour
    roulette       wild only: the next player names a colour and turns up cards until one
                   of that colour appears
    swap_hands     the player swaps hands with another player of their choice
    shuffle_hands  every hand is gathered, shuffled and dealt out again
    flip           everything turns over to the other side (two-sided decks only, below)
    draw_color     wild only: the player names a colour; the next player turns up cards until
                   one of that colour appears, takes them all and loses the turn

Rules decided here (each is checked, and a broken one raises a `DeckError` whose one-line
message names the kind by its text, the field and the problem, prefixed by the rule file
when there is one):

- Numbers. A coloured kind whose text is a digit is the number kind of that digit: its
  `number` is that digit whether or not it is written. A `number` that disagrees with the
  digit text, a `number` on a coloured kind whose text is not a digit, and a `number` on a
  wild kind are errors. A number kind has no effects (`draw` 0, `skip` 0, every flag false).
- Effects that exclude each other: `draw` with `roulette` or with `skip`; `roulette` with
  `skip`; `draw_color` with `draw`, `roulette` or `skip`; `restricted` without `draw` or
  `draw_color`; `restricted`, `roulette` or `draw_color` on a coloured kind; `discard_color`
  on a wild kind; `flip` on a kind of a one-sided deck (Deck checks it). A coloured kind with no effects at all is a plain
  coloured action (it matches by colour or by the same text); a wild kind with no effects
  is a plain Wild.
- Types are strict: whole numbers must be TOML integers (not booleans, not 2.0), flags must
  be true or false, `skip` must be 0, 1 or the string "all", texts use capital letters.
- Texts are unique in a deck, across coloured and wild kinds.
- Kinds are compared as written: a kind with `points = 20` spelled out and one relying on
  the default of 20 are different values, but decks are named by what they mean (below).

The built-in decks:

- `classic` (108 cards): numbers 0 (1 copy per colour) and 1-9 (2 each), S (skip, 2),
  R (reverse, 2), D (draw 2, 2); wilds W (4) and W4 (draw 4, restricted, 4).
- `no-mercy` (168 cards): numbers 0-9 (2 each per colour), D (draw 2, 3), D4 (coloured draw
  4, 2), S (skip, 3), E (skip everyone, 2), R (reverse, 3), A (discard all of its colour, 3);
  wilds WR4 (reverse and draw 4, not restricted, 8), W6 (draw 6, 4), W10 (draw 10, 4),
  WC (colour roulette, 8). Default points throughout.
- `modern` (112 cards): classic, then WSH (shuffle hands, 1 copy) and WX (a plain Wild, 3
  copies, until a rule file gives it effects).

A rule file's `[deck]` table has three keys, all optional: `base` (classic, the default,
no-mercy or modern), `remove` (a list of texts of base kinds to drop) and `kinds` (an array
of tables, one per kind, with the fields above; `text`, `colored` and `copies` are required,
the others default to no effect and default points). A kind in `kinds` whose text is a kind
of the base replaces that kind in its place, whole (fields left out take their defaults,
not the base kind's values); a new text is added after the base kinds, in file order.
Removing a text the base does not have is an error naming it, except a text of one of the
built-in decks: that kind is simply not there, so one file works on any base (remove WX
from classic is a no-op, from modern it drops WX). A text both removed and given in `kinds`
is an error (give it in `kinds` alone to replace the kind). Any other key, in `[deck]` or
in a kind, is an error naming it.

A deck is named `classic`, `no-mercy` or `modern` when its kinds mean exactly that built-in
deck (same order, same fields, points spelled out or not), and `custom` otherwise.

Two-sided decks (UNO Flip; engine/sides.py plays them):
`TwoSidedDeck(light, dark)`, each side a `Deck` with `side` "light" (colours R Y G B) or
"dark" (P T O V), texts unique within a side, both sides with the same number of cards (a
physical card is one light face and one dark face, paired at each deal). Only a side may hold
a `flip` kind. The built-in `flip` deck (`FLIP`, 112 cards a side): light numbers 1-9, D1,
R, S, F, wilds W and W2; dark numbers 1-9, D5, R, E, F, wilds W and WDC (draw_color). A rule
file writes one as `base = "flip"` with `light` and `dark` arrays of kind tables in place of
`kinds`, and `remove` entries "light:TEXT" / "dark:TEXT". The knob `deck` names the built-in
`flip`; a rule set holds any other two-sided deck as its custom deck.

Deck and rules together (checked by `check_deck_fits`, which the rules layer calls with its
numbers): the deck must hold at least `players * hand_size + 1` cards; `first_card = number`
needs a number card in the deck (a number kind with at least one copy), `first_card =
official` a card that can lead (a number card or a kind S, R, D or W: `leads`), else every
round would end void; `mercy_limit` is 0 (off) or greater than `hand_size`.

Faces: each coloured kind gives one face per colour and each wild kind one face. Faces are
numbered colour-major over the coloured kinds in deck order (face = colour * number of
coloured kinds + the kind's place among the coloured kinds), then the wild kinds in deck
order. For the classic deck this is the numbering of cards.py: R0..R9 RS RR RD = 0..12,
then Y, G, B, then W = 52 and W4 = 53. `Deck.faces()` gives the per-face columns as int64
arrays (`FaceTable`).

Roles by text: the classic rule knobs name kinds by their text, whatever effects a deck
gives them: S (Skip: deflecting answers, lead Skip), R (Reverse: deflecting answers, lead
Reverse), D (Draw Two: `stack_draw_two`, lead Draw Two), W (Wild: lead Wild, Wild swap) and
W4 (Wild Draw Four: `stack_draw_four`). S, R and D are always coloured kinds (a wild text
starts with W); W and W4 are roles of wild kinds only, so a coloured kind written W or W4
has no role. A lead card (official first card) is accepted when it is a number card or of
a kind S, R, D or W; any other goes back into the pile.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping

from .errors import RulesError

COLORS = ("R", "Y", "G", "B")  # colour letters in index order (the same as cards.py)
N_COLORS = len(COLORS)

SKIP_ALL = "all"
SKIP_CODES = {0: 0, 1: 1, SKIP_ALL: 2}  # the face table's skip column: 2 means "all"

MAX_COPIES = 16
MAX_POINTS = 1000
MAX_DRAW = 50
ACTION_POINTS = 20
WILD_POINTS = 50

FLAG_FIELDS = ("reverse", "restricted", "discard_color", "roulette", "swap_hands", "shuffle_hands")
# The flags of two-sided decks (UNO Flip): not face-table columns (the engine does not play
# them yet), and written out (as_dict, to_table) only when true, so that every deck without
# them reads exactly as before they existed.
TWO_SIDED_FLAGS = ("flip", "draw_color")
EFFECT_FIELDS = ("draw", "skip") + FLAG_FIELDS + TWO_SIDED_FLAGS
FIELDS = ("text", "colored", "copies", "points", "number") + EFFECT_FIELDS
REQUIRED_FIELDS = ("text", "colored", "copies")
DECK_KEYS = ("base", "remove", "kinds", "light", "dark")

DECK_NAMES = ("classic", "no-mercy", "modern")  # the built-in one-sided decks (the knob `deck`)
TWO_SIDED_NAMES = ("flip",)  # the built-in two-sided decks (UNO Flip)
SIDES = ("light", "dark")
SIDE_COLORS = {"light": COLORS, "dark": ("P", "T", "O", "V")}  # pink, teal, orange, violet
# Texts that lead on a two-sided deck's light side besides numbers and S, R, D, W (SPEC 11.4).
TWO_SIDED_LEAD_TEXTS = ("D1", "D5", "E", "F")
CUSTOM = "custom"

# Roles by text (the face table's `role` column).
ROLE_NONE, ROLE_SKIP, ROLE_REVERSE, ROLE_DRAW_TWO, ROLE_WILD, ROLE_WILD_DRAW_FOUR = range(6)
ROLE_TEXTS = {"S": ROLE_SKIP, "R": ROLE_REVERSE, "D": ROLE_DRAW_TWO, "W": ROLE_WILD, "W4": ROLE_WILD_DRAW_FOUR}
LEAD_ROLES = (ROLE_SKIP, ROLE_REVERSE, ROLE_DRAW_TWO, ROLE_WILD)

_COLORED_TEXT = re.compile(r"[0-9]|[A-Z][A-Z0-9]{0,2}")
_WILD_TEXT = re.compile(r"W[A-Z0-9]{0,3}")
_DIGIT = re.compile(r"[0-9]")


class DeckError(RulesError):
    """A bad deck or card kind; the message names the kind (by its text) and the problem."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind_problem(k: "Kind") -> str | None:
    """What is wrong with a kind, or None. Types first, then ranges, then combinations."""
    if not isinstance(k.colored, bool):
        return f"colored must be true or false (got {k.colored!r})"
    if not isinstance(k.text, str):
        return f"text must be a string (got {k.text!r})"
    if k.colored and not _COLORED_TEXT.fullmatch(k.text):
        return ("a coloured kind's text must be a digit 0-9, or 1-3 characters of A-Z and 0-9 "
                "starting with a letter")
    if not k.colored and not _WILD_TEXT.fullmatch(k.text):
        return "a wild kind's text must be 1-4 characters of A-Z and 0-9 starting with W"
    if not (_is_int(k.copies) and 0 <= k.copies <= MAX_COPIES):
        return f"copies must be a whole number from 0 to {MAX_COPIES} (got {k.copies!r})"
    if k.points is not None and not (_is_int(k.points) and 0 <= k.points <= MAX_POINTS):
        return f"points must be a whole number from 0 to {MAX_POINTS} (got {k.points!r})"
    if k.number is not None and not (_is_int(k.number) and 0 <= k.number <= 9):
        return f"number must be a whole number from 0 to 9 (got {k.number!r})"
    if not (_is_int(k.draw) and 0 <= k.draw <= MAX_DRAW):
        return f"draw must be a whole number from 0 to {MAX_DRAW} (got {k.draw!r})"
    if not ((_is_int(k.skip) and k.skip in (0, 1)) or k.skip == SKIP_ALL):
        return f"skip must be 0, 1 or \"all\" (got {k.skip!r})"
    for name in FLAG_FIELDS + TWO_SIDED_FLAGS:
        if not isinstance(getattr(k, name), bool):
            return f"{name} must be true or false (got {getattr(k, name)!r})"
    if not k.colored:
        if k.number is not None:
            return "a wild kind cannot have a number"
        if k.discard_color:
            return "a wild kind cannot have discard_color (it has no colour of its own)"
    else:
        if k.restricted:
            return "a coloured kind cannot be restricted (only wild kinds are)"
        if k.roulette:
            return "a coloured kind cannot have roulette (only wild kinds can)"
        digit = _DIGIT.fullmatch(k.text) is not None
        if k.number is not None and not digit:
            return f"number = {k.number} needs the text {str(k.number)!r} (a number kind's text is its digit)"
        if digit and k.number is not None and k.number != int(k.text):
            return f"text {k.text!r} is the number {k.text}, but number = {k.number} is given"
        if digit:
            effects = [name for name in EFFECT_FIELDS if getattr(k, name)]
            if effects:
                return f"a number kind has no effects ({effects[0]} = {getattr(k, effects[0])!r} is given)"
        if k.draw_color:
            return "a coloured kind cannot have draw_color (only wild kinds can)"
    if k.draw and k.roulette:
        return "draw and roulette cannot go together"
    if k.draw and k.skip:
        return "draw and skip cannot go together (a draw already makes the victim lose the turn)"
    if k.roulette and k.skip:
        return "roulette and skip cannot go together (roulette already makes the victim lose the turn)"
    if k.draw_color and k.draw:
        return "draw_color and draw cannot go together"
    if k.draw_color and k.roulette:
        return "draw_color and roulette cannot go together"
    if k.draw_color and k.skip:
        return "draw_color and skip cannot go together (draw_color already makes the victim lose the turn)"
    if k.restricted and not (k.draw or k.draw_color):
        return "restricted needs draw or draw_color (it is a Wild Draw Four's restriction)"
    return None


@dataclass(frozen=True)
class Kind:
    """One card kind. Constructing it validates it (a `DeckError` names the kind and the
    problem); a coloured kind with a digit text gets that digit as its `number`."""

    text: str
    colored: bool
    copies: int
    points: int | None = None  # None: the default (number, 20 for a coloured action, 50 for a wild)
    number: int | None = None
    draw: int = 0
    skip: int | str = 0  # 0, 1 or "all"
    reverse: bool = False
    restricted: bool = False
    discard_color: bool = False
    roulette: bool = False
    swap_hands: bool = False
    shuffle_hands: bool = False
    flip: bool = False
    draw_color: bool = False

    def __post_init__(self) -> None:
        problem = _kind_problem(self)
        if problem:
            raise DeckError(f"deck kind {self.text!r}: {problem}")
        if self.colored and self.number is None and _DIGIT.fullmatch(self.text):
            object.__setattr__(self, "number", int(self.text))

    @property
    def is_number(self) -> bool:
        return self.number is not None

    @property
    def cards(self) -> int:
        """Physical cards of this kind in a deck: copies in each colour, or copies in all."""
        return self.copies * (N_COLORS if self.colored else 1)

    def points_for(self, zero_points: int = 0) -> int:
        """The points a card of this kind counts under a rule set's `zero_points`."""
        if self.points is not None:
            return self.points
        return default_points(self, zero_points)

    @property
    def skip_code(self) -> int:
        """skip as a number: 0, 1, or 2 for "all"."""
        return SKIP_CODES[self.skip]

    def as_dict(self, zero_points: int = 0) -> dict[str, Any]:
        """Every field, points worked out under `zero_points` (`number` only for a number
        kind, `flip` and `draw_color` only when true): the form a trace's deal event lists."""
        out = {name: getattr(self, name) for name in FIELDS}
        out["points"] = self.points_for(zero_points)
        if self.number is None:
            del out["number"]
        for name in TWO_SIDED_FLAGS:
            if not out[name]:
                del out[name]
        return out

    def describe(self) -> str:
        """What a card of this kind does, in words (`uno-sim show`, `uno-sim decks`)."""
        if self.is_number:
            return f"number {self.number}"
        words = []
        if self.reverse:
            words.append("reverse")
        if self.skip == SKIP_ALL:
            words.append("skip everyone (the player goes again)")
        elif self.skip:
            words.append("skip")
        if self.draw:
            words.append(f"draw {self.draw}")
        if self.restricted:
            words.append("only as the Wild Draw Four rule allows (challengeable)")
        if self.discard_color:
            words.append("discard all of its colour")
        if self.roulette:
            words.append("colour roulette")
        if self.swap_hands:
            words.append("swap hands")
        if self.shuffle_hands:
            words.append("shuffle hands")
        if self.draw_color:
            words.append("draw until the named colour")
        if self.flip:
            words.append("flip (everything turns over)")
        if not self.colored:
            words.insert(0, "wild")
        return ", ".join(words) if words else "no effect (matches colour or text)"

    def to_table(self) -> dict[str, Any]:
        """The shortest rule-file table for this kind: text, colored, copies and the fields
        that differ from their defaults (a number implied by a digit text is left out)."""
        out: dict[str, Any] = {"text": self.text, "colored": self.colored, "copies": self.copies}
        if self.points is not None:
            out["points"] = self.points
        for f in dataclasses.fields(self):
            if f.name in EFFECT_FIELDS and getattr(self, f.name) != f.default:
                out[f.name] = getattr(self, f.name)
        return out


def default_points(kind: Kind, zero_points: int = 0) -> int:
    """Default points of a kind: a number its number (0 counts zero_points), a coloured
    action 20, a wild 50."""
    if not kind.colored:
        return WILD_POINTS
    if kind.number is None:
        return ACTION_POINTS
    return zero_points if kind.number == 0 else kind.number


def _canonical(kind: Kind) -> Kind:
    """The kind with `points` left to the default wherever spelling it out changes nothing
    (not for a 0, whose default depends on the rule set)."""
    if kind.points is not None and kind.number != 0 and kind.points == default_points(kind):
        return dataclasses.replace(kind, points=None)
    return kind


def _number(text: str, copies: int) -> Kind:
    return Kind(text, True, copies)


_BUILTIN_KINDS: dict[str, tuple[Kind, ...]] = {}
_BUILTIN_KINDS["classic"] = (
    _number("0", 1), *(_number(str(n), 2) for n in range(1, 10)),
    Kind("S", True, 2, skip=1), Kind("R", True, 2, reverse=True), Kind("D", True, 2, draw=2),
    Kind("W", False, 4), Kind("W4", False, 4, draw=4, restricted=True),
)
_BUILTIN_KINDS["no-mercy"] = (
    *(_number(str(n), 2) for n in range(10)),
    Kind("D", True, 3, draw=2), Kind("D4", True, 2, draw=4), Kind("S", True, 3, skip=1),
    Kind("E", True, 2, skip=SKIP_ALL), Kind("R", True, 3, reverse=True), Kind("A", True, 3, discard_color=True),
    Kind("WR4", False, 8, draw=4, reverse=True), Kind("W6", False, 4, draw=6), Kind("W10", False, 4, draw=10),
    Kind("WC", False, 8, roulette=True),
)
_BUILTIN_KINDS["modern"] = _BUILTIN_KINDS["classic"] + (
    Kind("WSH", False, 1, shuffle_hands=True), Kind("WX", False, 3),
)
_BUILTIN_CANONICAL = {name: tuple(map(_canonical, kinds)) for name, kinds in _BUILTIN_KINDS.items()}
_BUILTIN_TEXTS = frozenset(k.text for kinds in _BUILTIN_KINDS.values() for k in kinds)


@dataclass(frozen=True)
class Deck:
    """An ordered tuple of kinds with unique texts. `name` is the built-in deck the kinds
    mean exactly (classic, no-mercy, modern), or custom. `side` ("light" or "dark") makes it
    one side of a two-sided deck (TwoSidedDeck): only then may its kinds `flip`, and its
    colour letters are the side's."""

    kinds: tuple[Kind, ...]
    side: str | None = None

    two_sided: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if self.side is not None and self.side not in SIDES:
            raise DeckError(f"a deck's side is light or dark (got {self.side!r})")
        kinds = tuple(self.kinds)
        object.__setattr__(self, "kinds", kinds)
        seen: set[str] = set()
        for kind in kinds:
            if not isinstance(kind, Kind):
                raise DeckError(f"a deck holds card kinds, not {kind!r}")
            if kind.text in seen:
                raise DeckError(f"deck kind {kind.text!r}: duplicate text (each kind's text is unique in a deck)")
            if kind.flip and self.side is None:
                raise DeckError(f"deck kind {kind.text!r}: flip needs a two-sided deck (base = \"flip\", "
                                "[[deck.light]] / [[deck.dark]]); a one-sided deck has no other side to turn to")
            seen.add(kind.text)

    @property
    def knob_value(self) -> str:
        """What the knob `deck` of a rule set playing this deck reads: the built-in deck's name,
        or custom."""
        return self.name

    @property
    def colors(self) -> tuple[str, ...]:
        """The colour letters of this deck's faces, in index order."""
        return SIDE_COLORS[self.side or "light"]

    @property
    def name(self) -> str:
        if self.side is not None:
            return f"{self.side} side"
        canonical = tuple(map(_canonical, self.kinds))
        for name, kinds in _BUILTIN_CANONICAL.items():
            if canonical == kinds:
                return name
        return CUSTOM

    @property
    def size(self) -> int:
        """Physical cards in the deck."""
        return sum(k.cards for k in self.kinds)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(k.text for k in self.kinds)

    def kind(self, text: str) -> Kind:
        """The kind with this text (a DeckError when there is none)."""
        for k in self.kinds:
            if k.text == text:
                return k
        raise DeckError(f"the {self.name} deck has no kind {text!r} (kinds: {', '.join(self.texts)})")

    def __contains__(self, text: object) -> bool:
        return any(k.text == text for k in self.kinds)

    @property
    def colored_kinds(self) -> tuple[Kind, ...]:
        return tuple(k for k in self.kinds if k.colored)

    @property
    def wild_kinds(self) -> tuple[Kind, ...]:
        return tuple(k for k in self.kinds if not k.colored)

    @property
    def number_cards(self) -> int:
        """Physical number cards in the deck."""
        return sum(k.cards for k in self.kinds if k.is_number)

    def faces(self, zero_points: int = 0) -> "FaceTable":
        """The face table under a rule set's `zero_points` (cached; its arrays are read-only)."""
        if not (_is_int(zero_points) and 0 <= zero_points <= MAX_POINTS):
            raise DeckError(f"zero_points must be a whole number from 0 to {MAX_POINTS} (got {zero_points!r})")
        return _face_table(self, zero_points)

    def to_table(self) -> dict[str, Any] | None:
        """A rule file's `[deck]` table that builds exactly this deck (kinds in the same
        order): a built-in base, the base kinds it lacks removed, every kind written out
        (a kind of the base replaces it in its place, the others follow). None when no base
        gives this order (a deck made in Python in an order no rule file makes)."""
        for base in DECK_NAMES:
            base_texts = [k.text for k in _BUILTIN_KINDS[base]]
            table: dict[str, Any] = {"base": base}
            remove = [t for t in base_texts if t not in self]
            if remove:
                table["remove"] = remove
            table["kinds"] = [k.to_table() for k in self.kinds]
            try:
                if deck_from_toml(table).kinds == self.kinds:
                    return table
            except DeckError:
                continue
        return None

    def as_list(self, zero_points: int = 0) -> list[dict[str, Any]]:
        """The kinds as plain dicts (every field, points worked out): a trace's deck list."""
        return [k.as_dict(zero_points) for k in self.kinds]


CLASSIC = Deck(_BUILTIN_KINDS["classic"])
NO_MERCY = Deck(_BUILTIN_KINDS["no-mercy"])
MODERN = Deck(_BUILTIN_KINDS["modern"])
BUILTIN_DECKS = {"classic": CLASSIC, "no-mercy": NO_MERCY, "modern": MODERN}


@dataclass(frozen=True)
class TwoSidedDeck:
    """A two-sided deck (UNO Flip, SPEC 11): a light side and a dark side, each a list of kinds
    (a `Deck` of that side), with the same number of cards. A physical card pairs one light
    face with one dark face; the pairing is drawn at each deal, so it is not part of the deck.
    Light colours are R Y G B, dark colours P T O V; texts are unique within a side. The sides
    may be given as Decks or as tuples of kinds."""

    light: Deck
    dark: Deck

    two_sided: ClassVar[bool] = True

    def __post_init__(self) -> None:
        for side in SIDES:
            value = getattr(self, side)
            if not (isinstance(value, Deck) and value.side == side):
                kinds = value.kinds if isinstance(value, Deck) else tuple(value)
                try:
                    object.__setattr__(self, side, Deck(kinds, side))
                except DeckError as exc:
                    raise DeckError(f"{side} side: {exc}") from None
        if self.light.size != self.dark.size:
            raise DeckError(f"a two-sided deck's sides must hold the same number of cards "
                            f"(light side {self.light.size}, dark side {self.dark.size})")

    @property
    def sides(self) -> tuple[Deck, Deck]:
        return (self.light, self.dark)

    @property
    def name(self) -> str:
        """`flip` when both sides mean exactly the built-in deck, else custom."""
        for name, sides in _TWO_SIDED_CANONICAL.items():
            if _canonical_sides(self) == sides:
                return name
        return CUSTOM

    @property
    def knob_value(self) -> str:
        """What the knob `deck` of a rule set playing this deck reads: the built-in deck's name
        (`flip`), or custom."""
        return self.name

    @property
    def size(self) -> int:
        """Physical cards (each a light face and a dark face): the cards of one side."""
        return self.light.size

    @property
    def number_cards(self) -> int:
        """Physical number cards on the light side (the side in play at the deal)."""
        return self.light.number_cards

    def as_dict(self, zero_points: int = 0) -> dict[str, list[dict[str, Any]]]:
        """{"light": [KIND, ...], "dark": [KIND, ...]}: a trace's `sides` (SPEC 11.5)."""
        return {side.side: side.as_list(zero_points) for side in self.sides}

    def to_table(self) -> dict[str, Any] | None:
        """A rule file's `[deck]` table that builds exactly this deck: base flip, the base
        kinds it lacks removed (light:TEXT, dark:TEXT), every kind written out under `light`
        and `dark`. None when no rule file gives this order."""
        table: dict[str, Any] = {"base": "flip"}
        remove = [f"{side}:{k.text}" for side in SIDES for k in getattr(FLIP, side).kinds
                  if k.text not in getattr(self, side)]
        if remove:
            table["remove"] = remove
        for side in self.sides:
            table[side.side] = [k.to_table() for k in side.kinds]
        try:
            return table if deck_from_toml(table) == self else None
        except DeckError:
            return None


# SPEC 11.3: the built-in two-sided deck, texts, counts and points pinned (112 cards a side).
FLIP = TwoSidedDeck(
    light=(*(_number(str(n), 2) for n in range(1, 10)),
           Kind("D1", True, 2, points=10, draw=1), Kind("R", True, 2, reverse=True), Kind("S", True, 2, skip=1),
           Kind("F", True, 2, flip=True),
           Kind("W", False, 4, points=40), Kind("W2", False, 4, draw=2, restricted=True)),
    dark=(*(_number(str(n), 2) for n in range(1, 10)),
          Kind("D5", True, 2, draw=5), Kind("R", True, 2, reverse=True), Kind("E", True, 2, points=30, skip=SKIP_ALL),
          Kind("F", True, 2, flip=True),
          Kind("W", False, 4, points=40), Kind("WDC", False, 4, points=60, draw_color=True, restricted=True)),
)


def _canonical_sides(deck: TwoSidedDeck) -> tuple[tuple[Kind, ...], ...]:
    """Each side's kinds with points left to their defaults where that changes nothing."""
    return tuple(tuple(map(_canonical, d.kinds)) for d in deck.sides)


_TWO_SIDED_CANONICAL = {"flip": _canonical_sides(FLIP)}
TWO_SIDED_DECKS = {"flip": FLIP}
SHOWN_DECKS = {**BUILTIN_DECKS, **TWO_SIDED_DECKS}  # every built-in deck `uno-sim decks` lists


def builtin_deck(name: str) -> Deck:
    """A built-in deck by name."""
    try:
        return BUILTIN_DECKS[name] if name in BUILTIN_DECKS else TWO_SIDED_DECKS[name]
    except (KeyError, TypeError):
        raise DeckError(f"unknown deck {name!r} (built-in decks: {', '.join(DECK_NAMES + TWO_SIDED_NAMES)})") from None


def build_deck(base: str | Deck = "classic", remove: Iterable[str] = (), kinds: Iterable[Kind] = ()) -> Deck:
    """A rule file's deck: the base deck, less the `remove` texts, with each kind of `kinds`
    replacing the base kind of the same text in its place, or added at the end."""
    base_deck = base if isinstance(base, Deck) else builtin_deck(base)
    builtin_texts = _BUILTIN_TEXTS if base_deck.side is None else frozenset()  # a side names its own texts
    remove = list(remove)
    kinds = list(kinds)
    seen: set[str] = set()
    for text in remove:
        if not isinstance(text, str):
            raise DeckError(f"deck remove: {text!r} is not a kind's text")
        if text in seen:
            raise DeckError(f"deck remove: {text!r} is listed twice")
        seen.add(text)
        if text not in base_deck and text not in builtin_texts:
            raise DeckError(
                f"deck remove: the {base_deck.name} deck has no kind {text!r} "
                f"(its kinds: {', '.join(base_deck.texts)})"
            )
    given: set[str] = set()
    for kind in kinds:
        if not isinstance(kind, Kind):
            raise DeckError(f"deck kinds: {kind!r} is not a card kind")
        if kind.text in seen:
            raise DeckError(
                f"deck kind {kind.text!r}: both removed and given in kinds "
                "(give it in kinds alone to replace the base kind)"
            )
        if kind.text in given:
            raise DeckError(f"deck kind {kind.text!r}: duplicate text (each kind's text is unique in a deck)")
        given.add(kind.text)
    by_text = {k.text: k for k in kinds}
    out = [by_text.pop(k.text, k) for k in base_deck.kinds if k.text not in seen]
    out.extend(k for k in kinds if k.text in by_text)
    return Deck(tuple(out), base_deck.side)


def _where(source_name: str | None) -> str:
    return f"{source_name}: " if source_name else ""


def kind_from_table(table: Mapping[str, Any], source_name: str | None = None, position: int | None = None) -> Kind:
    """A kind from a rule-file table (or a trace's deck entry). `position` (1-based) names
    a kind whose text is missing or unusable."""
    where = _where(source_name)
    if not isinstance(table, Mapping):
        label = f" #{position}" if position is not None else ""
        raise DeckError(f"{where}deck kind{label} must be a table of fields (got {table!r})")
    text = table.get("text")
    label = repr(text) if isinstance(text, str) else (f"#{position}" if position is not None else "(no text)")
    for name in table:
        if name not in FIELDS:
            close = difflib.get_close_matches(str(name), FIELDS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise DeckError(f"{where}deck kind {label}: unknown field {name!r}{hint}; fields: {', '.join(FIELDS)}")
    for name in REQUIRED_FIELDS:
        if name not in table:
            raise DeckError(f"{where}deck kind {label}: {name!r} is required")
    try:
        return Kind(**dict(table))
    except DeckError as exc:
        raise DeckError(f"{where}{exc}") from None


def deck_from_kinds(items: Iterable[Mapping[str, Any]], source_name: str | None = None) -> Deck:
    """A deck from a list of kind tables (a trace's deck list), in that order."""
    kinds = [kind_from_table(item, source_name, i) for i, item in enumerate(items, 1)]
    try:
        return Deck(tuple(kinds))
    except DeckError as exc:
        raise DeckError(f"{_where(source_name)}{exc}") from None


def deck_from_toml(table: Mapping[str, Any], source_name: str | None = None) -> "Deck | TwoSidedDeck":
    """The deck a rule file's `[deck]` table describes (keys base, remove, kinds; all
    optional; base = "flip" takes light and dark in place of kinds and gives a TwoSidedDeck).
    `source_name` (e.g. "rule file 'my.toml'") prefixes every error message."""
    where = _where(source_name)
    if not isinstance(table, Mapping):
        raise DeckError(f"{where}'deck' must be a table ([deck] with base, remove and [[deck.kinds]])")
    for key in table:
        if key not in DECK_KEYS:
            close = difflib.get_close_matches(str(key), DECK_KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise DeckError(f"{where}unknown key {key!r} in [deck]{hint}; [deck] has {', '.join(DECK_KEYS)}")
    base = table.get("base", "classic")
    if base not in DECK_NAMES + TWO_SIDED_NAMES:
        raise DeckError(f"{where}deck base must be one of {', '.join(DECK_NAMES + TWO_SIDED_NAMES)} (got {base!r})")
    remove = table.get("remove", [])
    if not isinstance(remove, list) or not all(isinstance(t, str) for t in remove):
        raise DeckError(f"{where}deck remove must be a list of kind texts, like remove = [\"WX\"] (got {remove!r})")
    if base in TWO_SIDED_NAMES:
        return _two_sided_from_toml(table, remove, source_name)
    sided = [key for key in SIDES if key in table]
    if sided:
        raise DeckError(f"{where}[[deck.{sided[0]}]] is for a two-sided deck: give base = \"flip\" "
                        f"(base {base!r} is one-sided; its kinds go in [[deck.kinds]])")
    items = table.get("kinds", [])
    if not isinstance(items, list):
        raise DeckError(f"{where}deck kinds must be an array of tables ([[deck.kinds]] entries) (got {items!r})")
    kinds = [kind_from_table(item, source_name, i) for i, item in enumerate(items, 1)]
    try:
        return build_deck(base, remove, kinds)
    except DeckError as exc:
        raise DeckError(f"{where}{exc}") from None


def _two_sided_from_toml(table: Mapping[str, Any], remove: list[str], source_name: str | None) -> "TwoSidedDeck":
    """A `[deck]` table with base = "flip": `[[deck.light]]` / `[[deck.dark]]` kinds (the fields
    of [[deck.kinds]]) and `remove` naming light:TEXT or dark:TEXT."""
    where = _where(source_name)
    base = TWO_SIDED_DECKS[table["base"]]
    if "kinds" in table:
        raise DeckError(f"{where}a two-sided deck (base = {table['base']!r}) gives its kinds as [[deck.light]] and "
                        "[[deck.dark]], not [[deck.kinds]]")
    removed: dict[str, list[str]] = {side: [] for side in SIDES}
    for item in remove:
        side, sep, text = item.partition(":")
        if not sep or side not in SIDES or not text:
            raise DeckError(f"{where}deck remove: {item!r} must name a side and a kind's text, "
                            f"like \"light:{item}\" or \"dark:{item}\" (a two-sided deck)")
        removed[side].append(text)
    sides = []
    for side in SIDES:
        items = table.get(side, [])
        if not isinstance(items, list):
            raise DeckError(f"{where}deck {side} must be an array of tables ([[deck.{side}]] entries) (got {items!r})")
        try:
            kinds = [kind_from_table(item, None, i) for i, item in enumerate(items, 1)]
            sides.append(build_deck(getattr(base, side), removed[side], kinds))
        except DeckError as exc:
            raise DeckError(f"{where}{side} side: {exc}") from None
    try:
        return TwoSidedDeck(*sides)
    except DeckError as exc:
        raise DeckError(f"{where}{exc}") from None


# What the engine's game array holds (engine/state.py sizes its blocks by these): the faces of
# at most MAX_COLORED_KINDS coloured kinds and MAX_WILD_KINDS wild kinds, MAX_FACES in all, and
# at most MAX_DECK_SIZE cards. The bound on kinds keeps the legal-move candidates (the faces of
# the current colour, the top card's kind in the other three colours, every wild face:
# coloured kinds + 3 + wild kinds) within the engine's 32-bit candidate mask.
MAX_COLORED_KINDS = 20
MAX_WILD_KINDS = 8
MAX_FACES = N_COLORS * MAX_COLORED_KINDS + MAX_WILD_KINDS
MAX_CANDIDATES = MAX_COLORED_KINDS + N_COLORS - 1 + MAX_WILD_KINDS
MAX_DECK_SIZE = 432  # four classic decks; no-mercy has 168 cards
assert MAX_CANDIDATES <= 32


def check_engine_limits(deck: "Deck | TwoSidedDeck") -> None:
    """The deck fits the engine's game array (MAX_COLORED_KINDS, MAX_WILD_KINDS, MAX_DECK_SIZE);
    a DeckError names the limit. A two-sided deck: each side."""
    if deck.two_sided:
        for side in deck.sides:
            check_engine_limits(side)
        return
    colored, wild = len(deck.colored_kinds), len(deck.wild_kinds)
    if colored > MAX_COLORED_KINDS:
        raise DeckError(f"the {deck.name} deck has {colored} coloured kinds; at most {MAX_COLORED_KINDS} are allowed")
    if wild > MAX_WILD_KINDS:
        raise DeckError(f"the {deck.name} deck has {wild} wild kinds; at most {MAX_WILD_KINDS} are allowed")
    if deck.size > MAX_DECK_SIZE:
        raise DeckError(f"the {deck.name} deck has {deck.size} cards; at most {MAX_DECK_SIZE} are allowed")


def check_playable(deck: "Deck | TwoSidedDeck") -> None:
    """The engine plays the deck: it fits the game array (check_engine_limits); a DeckError
    says which limit it exceeds in one line. Shown decks (`uno-sim decks`, `show`) need not."""
    check_engine_limits(deck)


def check_deck_fits(deck: Deck, players: int, hand_size: int, first_card: str = "official", mercy_limit: int = 0) -> None:
    """The checks between a deck and the rule set's numbers; a DeckError names the knob. A
    two-sided deck is dealt and led on its light side (SPEC 11.4, 11.6)."""
    need = players * hand_size + 1
    if deck.size < need:
        raise DeckError(
            f"invalid rules: hand_size {hand_size} is too large for {players} players with the "
            f"{deck.name} deck of {deck.size} cards (players * hand_size + 1 = {need} must be <= {deck.size})"
        )
    if first_card == "number" and deck.number_cards == 0:
        raise DeckError(f"invalid rules: first_card = number needs number cards, and the {deck.name} deck has none")
    lead_kinds = deck.light.kinds if deck.two_sided else deck.kinds
    if first_card == "official" and not any(leads(k, deck.two_sided) and k.copies for k in lead_kinds):
        raise DeckError(f"invalid rules: the {deck.name} deck has no card that can be turned up as the lead card "
                        "(first_card = official keeps only a number card or a kind S, R, D or W), so every "
                        "round would end void; add one of those kinds")
    if mercy_limit != 0 and mercy_limit <= hand_size:
        raise DeckError(
            f"invalid rules: mercy_limit must be 0 (off) or greater than hand_size = {hand_size} (got {mercy_limit})"
        )


def kind_role(k: Kind) -> int:
    """The role of a kind by its text (ROLE_NONE for most kinds; W and W4 only as wild kinds)."""
    r = ROLE_TEXTS.get(k.text, ROLE_NONE)
    return r if (r in (ROLE_WILD, ROLE_WILD_DRAW_FOUR)) == (not k.colored) else ROLE_NONE


def leads(k: Kind, two_sided: bool = False) -> bool:
    """An official lead card (first_card = official) of this kind stays: a number card or a
    kind S, R, D or W (on a two-sided deck also a coloured D1, D5, E or F, SPEC 11.4); any
    other goes back into the pile."""
    return (k.is_number or kind_role(k) in LEAD_ROLES
            or (two_sided and k.colored and k.text in TWO_SIDED_LEAD_TEXTS))


@dataclass(frozen=True, eq=False)
class FaceTable:
    """A deck's faces: one entry per face in every int64 column, and the face texts.

    Coloured faces come first, colour-major (face = colour * n_colored_kinds + the kind's
    place among the coloured kinds), then one face per wild kind, in deck order."""

    texts: tuple[str, ...]
    n_colored_kinds: int
    color: Any  # 0-3, -1 for a wild face
    kind: Any  # index into Deck.kinds
    number: Any  # 0-9, -1 for a face that is no number card
    draw: Any
    skip: Any  # 0, 1, 2 = all
    reverse: Any
    restricted: Any
    discard_color: Any
    roulette: Any
    swap_hands: Any
    shuffle_hands: Any
    points: Any
    copies: Any  # physical cards of this face
    role: Any  # ROLE_* by the kind's text (ROLE_NONE for most kinds)
    lead: Any  # 1 when an official lead card of this face stays (a number, S, R, D or W)
    flip: Any  # two-sided decks: everything turns over
    draw_color: Any  # the victim turns up cards until the colour named
    lead_effect: Any  # two-sided decks: what the face does as the lead card (LEAD_*, SPEC 11.4)

    COLUMNS = ("color", "kind", "number", "draw", "skip", "reverse", "restricted", "discard_color",
               "roulette", "swap_hands", "shuffle_hands", "points", "copies", "role", "lead", "flip", "draw_color",
               "lead_effect")

    @property
    def n_faces(self) -> int:
        return len(self.texts)

    @property
    def size(self) -> int:
        """Physical cards in the deck."""
        return int(self.copies.sum())

    def cards(self):
        """Every physical card as its face index, in face order (int64)."""
        import numpy as np

        return np.repeat(np.arange(self.n_faces, dtype=np.int64), self.copies)

    def face(self, text: str) -> int:
        """The face index of a face text (inverse of `texts`)."""
        try:
            return self._index[text]
        except (KeyError, TypeError):
            raise DeckError(f"unknown card {text!r} in this deck") from None

    @functools.cached_property
    def _index(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.texts)}

    def faces_with_role(self, role: int):
        """Face indices of the kind with a role (ROLE_SKIP, ...): 4 faces, 1 or none."""
        import numpy as np

        return np.flatnonzero(self.role == role)


@functools.lru_cache(maxsize=64)
def _face_table(deck: Deck, zero_points: int) -> FaceTable:
    import numpy as np

    colored = [(i, k) for i, k in enumerate(deck.kinds) if k.colored]
    wild = [(i, k) for i, k in enumerate(deck.kinds) if not k.colored]
    rows = [(deck.colors[c] + k.text, c, i, k) for c in range(N_COLORS) for i, k in colored]
    rows += [(k.text, -1, i, k) for i, k in wild]

    def column(values: Iterable[int]):
        array = np.fromiter(values, dtype=np.int64, count=len(rows))
        array.flags.writeable = False
        return array

    roles = [kind_role(k) for _, _, _, k in rows]
    return FaceTable(
        texts=tuple(t for t, _, _, _ in rows),
        n_colored_kinds=len(colored),
        color=column(c for _, c, _, _ in rows),
        kind=column(i for _, _, i, _ in rows),
        number=column(-1 if k.number is None else k.number for *_, k in rows),
        draw=column(k.draw for *_, k in rows),
        skip=column(k.skip_code for *_, k in rows),
        **{name: column(int(getattr(k, name)) for *_, k in rows) for name in FLAG_FIELDS},
        points=column(k.points_for(zero_points) for *_, k in rows),
        copies=column(k.copies for *_, k in rows),
        role=column(roles),
        lead=column(int(leads(k, deck.side is not None)) for *_, k in rows),
        flip=column(int(k.flip) for *_, k in rows),
        draw_color=column(int(k.draw_color) for *_, k in rows),
        lead_effect=column(lead_effect(k) for *_, k in rows),
    )


# What a two-sided deck's lead card does (SPEC 11.4; the engine's play.start_two_sided): by the
# face's text on the side in play; LEAD_NONE for a number card (and for a kind that goes back).
LEAD_NONE, LEAD_SKIP, LEAD_REVERSE, LEAD_DRAW, LEAD_WILD, LEAD_DEALER, LEAD_FLIP = range(7)
_LEAD_EFFECTS = {"S": LEAD_SKIP, "R": LEAD_REVERSE, "D": LEAD_DRAW, "D1": LEAD_DRAW, "D5": LEAD_DRAW, "E": LEAD_DEALER,
                 "F": LEAD_FLIP}


def lead_effect(k: Kind) -> int:
    if not k.colored:
        return LEAD_WILD if k.text == "W" else LEAD_NONE
    return _LEAD_EFFECTS.get(k.text, LEAD_NONE)
