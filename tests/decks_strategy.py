"""Hypothesis strategies for decks (uno_sim/game/decks.py), for the deck tests and, later,
the engine's property tests.

    from decks_strategy import random_decks
    @given(random_decks(min_cards=29, number_cards=True))   # 4 players * 7 cards + 1

- `random_kinds(colored=None)`: one valid kind anywhere within the bounds (texts, copies 0-16,
  points 0-1000, draw 0-50, skip 0/1/all, and every allowed combination of flags).
- `random_decks(...)`: a valid deck: now and then a built-in deck, otherwise random kinds
  with unique texts, padded (more copies, then more number kinds) to at least `min_cards`.
- `engine_decks(min_cards, number_cards)`: a valid deck within the engine's limits
  (`check_engine_limits`: coloured and wild kinds, deck size), for a table of players.
- `two_sided_engine_decks(min_cards, ...)`: a valid two-sided deck (UNO Flip) within the
  engine's limits: two random sides of the same size, with Flip kinds (coloured or wild) and
  Wild Draw Colour kinds among them.
- `random_deck_tables()`: a rule file's `[deck]` table (a built-in base, some texts removed,
  some kinds replaced, some added) together with the deck it must give, worked out here
  independently of `build_deck`.
"""

from __future__ import annotations

import dataclasses
import string

from hypothesis import strategies as st

from uno_sim.game.decks import (
    BUILTIN_DECKS, DECK_NAMES, FLIP, MAX_COLORED_KINDS, MAX_COPIES, MAX_DECK_SIZE, MAX_DRAW, MAX_POINTS,
    MAX_WILD_KINDS, SKIP_ALL, Deck, Kind, TwoSidedDeck, check_engine_limits, leads,
)

_ALNUM = string.ascii_uppercase + string.digits

copies = st.integers(0, MAX_COPIES)
points = st.one_of(st.none(), st.integers(0, MAX_POINTS))
# draw is mostly 0 or a small number, sometimes anything in range
draws = st.one_of(st.just(0), st.integers(1, 10), st.integers(0, MAX_DRAW))
skips = st.sampled_from([0, 1, SKIP_ALL])


def action_texts() -> st.SearchStrategy[str]:
    """Texts of coloured action kinds: 1-3 of A-Z 0-9, a letter first."""
    return st.builds(lambda a, b: a + b, st.sampled_from(string.ascii_uppercase), st.text(_ALNUM, max_size=2))


def wild_texts() -> st.SearchStrategy[str]:
    """Texts of wild kinds: W then 0-3 of A-Z 0-9."""
    return st.builds(lambda b: "W" + b, st.text(_ALNUM, max_size=3))


@st.composite
def number_kinds(draw, digit: int | None = None) -> Kind:
    d = draw(st.integers(0, 9)) if digit is None else digit
    explicit = draw(st.booleans())  # `number` written out (it must then equal the digit)
    return Kind(str(d), True, draw(copies), points=draw(points), number=d if explicit else None)


@st.composite
def action_kinds(draw) -> Kind:
    d = draw(draws)
    return Kind(
        draw(action_texts()), True, draw(copies), points=draw(points), draw=d,
        skip=0 if d else draw(skips), reverse=draw(st.booleans()), discard_color=draw(st.booleans()),
        swap_hands=draw(st.booleans()), shuffle_hands=draw(st.booleans()),
    )


@st.composite
def wild_kinds(draw) -> Kind:
    d = draw(draws)
    skip = 0 if d else draw(skips)
    roulette = not d and not skip and draw(st.booleans())
    return Kind(
        draw(wild_texts()), False, draw(copies), points=draw(points), draw=d, skip=skip,
        reverse=draw(st.booleans()), restricted=bool(d) and draw(st.booleans()), roulette=roulette,
        swap_hands=draw(st.booleans()), shuffle_hands=draw(st.booleans()),
    )


def random_kinds(colored: bool | None = None) -> st.SearchStrategy[Kind]:
    """One valid kind: coloured (number or action), wild, or either."""
    colored_kinds = st.one_of(number_kinds(), action_kinds())
    if colored is None:
        return st.one_of(colored_kinds, wild_kinds())
    return colored_kinds if colored else wild_kinds()


def _pad(kinds: list[Kind], min_cards: int, number_cards: bool, lead_card: bool = False) -> list[Kind]:
    """Raise copies (coloured kinds first), then add number kinds, until the deck is big enough;
    `number_cards`: a number card in it; `lead_card`: a card that can lead (first_card = official)."""
    kinds = list(kinds)
    if (number_cards and not any(k.is_number and k.copies for k in kinds)) or (
            lead_card and not any(leads(k) and k.copies for k in kinds)):
        i = next((i for i, k in enumerate(kinds) if k.is_number), None)
        if i is None:
            free = next(d for d in map(str, range(10)) if d not in {k.text for k in kinds})
            kinds.append(Kind(free, True, 1))
        else:
            kinds[i] = dataclasses.replace(kinds[i], copies=1)
    order = sorted(range(len(kinds)), key=lambda i: not kinds[i].colored)
    for i in order:
        short = min_cards - sum(k.cards for k in kinds)
        if short <= 0:
            return kinds
        k = kinds[i]
        per_copy = 4 if k.colored else 1
        more = min(MAX_COPIES - k.copies, -(-short // per_copy))
        kinds[i] = dataclasses.replace(k, copies=k.copies + more)
    for d in map(str, range(10)):
        if sum(k.cards for k in kinds) >= min_cards:
            break
        if d not in {k.text for k in kinds}:
            kinds.append(Kind(d, True, MAX_COPIES))
    if sum(k.cards for k in kinds) < min_cards:
        raise ValueError(f"random_decks cannot reach {min_cards} cards")
    return kinds


@st.composite
def random_decks(draw, min_cards: int = 0, number_cards: bool = False, max_kinds: int = 24,
                 builtin: bool = True) -> Deck:
    """A valid deck of at least `min_cards` cards (with number cards when `number_cards`):
    sometimes a built-in one (when `builtin` and it is big enough), otherwise random kinds."""
    if builtin and draw(st.integers(0, 7)) == 0:
        choice = draw(st.sampled_from(DECK_NAMES))
        deck = BUILTIN_DECKS[choice]
        if deck.size >= min_cards:
            return deck
    kinds = draw(st.lists(random_kinds(), min_size=1, max_size=max_kinds, unique_by=lambda k: k.text))
    return Deck(tuple(_pad(kinds, min_cards, number_cards)))


@st.composite
def engine_decks(draw, min_cards: int = 0, number_cards: bool = False, lead_card: bool = False) -> Deck:
    """A valid deck of at least `min_cards` cards (number cards when `number_cards`, a card
    that can lead when `lead_card`) that the
    engine can hold: at most MAX_COLORED_KINDS coloured and MAX_WILD_KINDS wild kinds and
    MAX_DECK_SIZE cards. Sometimes a built-in deck, otherwise random kinds of every sort."""
    if draw(st.integers(0, 5)) == 0:
        deck = BUILTIN_DECKS[draw(st.sampled_from(DECK_NAMES))]
        if deck.size >= min_cards and (deck.number_cards or not number_cards):
            return deck
    # padding may add number kinds (at most 10), so leave room for them among the coloured kinds
    unique = dict(unique_by=lambda k: k.text)
    colored = draw(st.lists(random_kinds(colored=True), max_size=MAX_COLORED_KINDS - 10, **unique))
    wild = draw(st.lists(random_kinds(colored=False), max_size=MAX_WILD_KINDS, **unique)
                .filter(lambda ks: not {k.text for k in ks} & {k.text for k in colored}))
    kinds = colored + wild
    if not kinds:
        kinds = [Kind("1", True, 1)]
    while sum(k.cards for k in kinds) > MAX_DECK_SIZE:  # the largest kind gives up copies
        i = max(range(len(kinds)), key=lambda j: kinds[j].cards)
        kinds[i] = dataclasses.replace(kinds[i], copies=kinds[i].copies // 2)
    deck = Deck(tuple(_pad(kinds, min_cards, number_cards, lead_card)))
    check_engine_limits(deck)
    return deck


@st.composite
def _side(draw, min_cards: int, lead_card: bool, number_cards: bool) -> list[Kind]:
    """One side's kinds: an engine deck's, some Flip kinds (coloured, now and then wild, some with
    other effects), a Wild Draw Colour now and then; room left for the padding to equal sizes."""
    kinds = list(draw(engine_decks(min_cards, number_cards, lead_card)).kinds)
    texts = {k.text for k in kinds}
    colored = sum(k.colored for k in kinds)
    wild = len(kinds) - colored
    extra = []
    if colored < MAX_COLORED_KINDS and "F" not in texts:
        d = draw(st.sampled_from([0, 0, 1, 2]))
        extra.append(Kind("F", True, draw(st.integers(1, 3)), points=20, flip=True, draw=d,
                          skip=0 if d else draw(st.sampled_from([0, 0, 1])), reverse=draw(st.booleans())))
    if wild < MAX_WILD_KINDS - 3 and "WFL" not in texts and draw(st.booleans()):
        extra.append(Kind("WFL", False, draw(st.integers(1, 3)), points=40, flip=True))
        wild += 1
    if wild < MAX_WILD_KINDS - 2 and "WDC" not in texts and draw(st.booleans()):
        extra.append(Kind("WDC", False, draw(st.integers(1, 4)), points=60, draw_color=True,
                          restricted=draw(st.booleans())))
    return kinds + extra


def _pad_to(kinds: list[Kind], size: int) -> list[Kind]:
    """Plain wild kinds (1 card a copy) until the side holds `size` cards."""
    kinds = list(kinds)
    taken = {k.text for k in kinds}
    i = 0
    while sum(k.cards for k in kinds) < size:
        short = size - sum(k.cards for k in kinds)
        while f"WP{i}" in taken:  # (the side's own kinds may have a text of this form)
            i += 1
        kinds.append(Kind(f"WP{i}", False, min(MAX_COPIES, short)))
        taken.add(f"WP{i}")
    return kinds


@st.composite
def two_sided_engine_decks(draw, min_cards: int = 0, number_cards: bool = False,
                           lead_card: bool = False) -> TwoSidedDeck:
    """A valid two-sided deck the engine can hold (see the module docstring); sometimes `flip`."""
    if draw(st.integers(0, 4)) == 0 and FLIP.size >= min_cards:
        return FLIP
    while True:
        light = draw(_side(min_cards, lead_card, number_cards))
        dark = draw(_side(min_cards, False, False))
        size = max(sum(k.cards for k in light), sum(k.cards for k in dark))
        light, dark = _pad_to(light, size), _pad_to(dark, size)
        if size <= MAX_DECK_SIZE and all(sum(not k.colored for k in side) <= MAX_WILD_KINDS for side in (light, dark)):
            deck = TwoSidedDeck(tuple(light), tuple(dark))
            check_engine_limits(deck)
            return deck


@st.composite
def random_deck_tables(draw) -> tuple[dict, Deck]:
    """A `[deck]` table and the deck it describes (worked out here, not by build_deck)."""
    base_name = draw(st.sampled_from(DECK_NAMES))
    base = BUILTIN_DECKS[base_name]
    texts = list(base.texts)
    removed = draw(st.lists(st.sampled_from(texts), unique=True, max_size=len(texts)))
    kept = [t for t in texts if t not in removed]
    replaced = draw(st.lists(st.sampled_from(kept), unique=True, max_size=len(kept))) if kept else []
    replacements = {}
    for text in replaced:  # a new kind with the same text (so the same colouredness rules)
        old = base.kind(text)
        if old.is_number:
            replacements[text] = draw(number_kinds(int(text)))
        else:
            strategy = action_kinds() if old.colored else wild_kinds()
            replacements[text] = dataclasses.replace(draw(strategy), text=text)
    taken = set(texts)
    added = draw(st.lists(
        st.one_of(action_kinds(), wild_kinds()).filter(lambda k: k.text not in taken),
        max_size=6, unique_by=lambda k: k.text,
    ))
    expected = Deck(tuple(replacements.get(t, base.kind(t)) for t in kept) + tuple(added))
    # the file lists replacements in any order, interleaved with the added kinds, whose
    # order among themselves is the order they are added in
    kinds = [replacements[t].to_table() for t in draw(st.permutations(replaced))]
    at = 0
    for kind in added:
        at = draw(st.integers(at, len(kinds)))
        kinds.insert(at, kind.to_table())
        at += 1
    table: dict = {}
    if base_name != "classic" or draw(st.booleans()):
        table["base"] = base_name
    if removed or draw(st.booleans()):
        table["remove"] = removed
    if kinds or draw(st.booleans()):
        table["kinds"] = kinds
    return table, expected
