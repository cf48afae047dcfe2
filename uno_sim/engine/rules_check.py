"""Card legality under the rules in the game array: matching, Wild Draw Four rule, answers.

Pure reads of g; every function here is a question, none changes state.
"""

import numpy as np

from .jit import njit

from ..game.knobs import K
from .access import (
    MAX_COLORED_KINDS,
    MAX_WILD_KINDS,
    N_COLORS,
    ROLE_DRAW_TWO,
    ROLE_REVERSE,
    ROLE_SKIP,
    ROLE_WILD_DRAW_FOUR,
    color_of,
    colored_faces,
    discards_color,
    draw_of,
    flips,
    colored_kinds,
    face_at,
    hand,
    hsize,
    is_number,
    is_wild,
    n_candidates,
    n_faces,
    number_of,
    restricted,
    role_face,
    role_of,
    slot_of,
    wild_kinds,
)
from .state import S_PDRAW, S_SET_COLORS, S_SET_NUMS


@njit(cache=True, inline="always")
def candidate(g, i, color, top):
    """The i-th face that could match (colour, top), in candidate order: the faces of the
    current colour (one per coloured kind), the top card's kind in the other colours (in colour
    order; none when the top card is wild), then every wild face; -1 when there is none for
    this i. There are n_candidates(g) of them (classic deck: 13 + 3 + 2 = 18)."""
    nck = colored_kinds(g)
    if i < nck:
        return face_at(g, color, i)
    if i < nck + N_COLORS - 1:
        if is_wild(g, top):
            return -1
        c = i - nck
        if c >= color:
            c += 1
        return face_at(g, c, slot_of(g, top))
    j = i - nck - (N_COLORS - 1)
    if j < wild_kinds(g):
        return colored_faces(g) + j
    return -1


# Index of the lowest set bit of a mask below 2**32 (a de Bruijn sequence: one multiplication
# and a table look-up, the same in compiled code and plain Python). The candidates fit:
# decks.MAX_CANDIDATES <= 32.
_DE_BRUIJN = 0x077CB531
_LOWEST_BIT = np.zeros(32, dtype=np.int64)
for _i in range(32):
    _LOWEST_BIT[((_DE_BRUIJN << _i) >> 27) & 31] = _i


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """The index of the lowest set bit of mask (0 < mask < 2**32)."""
    return _LOWEST_BIT[(((mask & -mask) * _DE_BRUIJN) >> 27) & 31]


@njit(cache=True, inline="always")
def held_candidates(g, p, color, top):
    """Bit i set for each candidate index i (see `candidate`) whose face p holds: a decision
    that looks at the held candidates only (lowest_bit, in candidate order) skips the faces
    p lacks without a branch apiece, which the processor would mispredict. Written out in
    candidate order rather than through `candidate`, so that the current colour's counts
    are read as one block."""
    h = hand(p)
    nck = colored_kinds(g)
    base = h + face_at(g, color, 0)
    mask = 0
    for i in range(MAX_COLORED_KINDS):  # the loop form of access.py, "Loops over a deck's faces"
        if i == nck:
            break
        mask |= min(g[base + i], 1) << i
    i = nck
    if not is_wild(g, top):
        s = slot_of(g, top)
        for c in range(N_COLORS):
            if c != color:
                mask |= min(g[h + face_at(g, c, s)], 1) << i
                i += 1
    i = nck + N_COLORS - 1
    first = colored_faces(g)
    nw = wild_kinds(g)
    for j in range(MAX_WILD_KINDS):
        if j == nw:
            break
        mask |= min(g[h + first + j], 1) << (i + j)
    return mask


@njit(cache=True, inline="always")
def matches(g, f, color, top):
    """A coloured face of the current colour, or of the same kind as a coloured top card
    (wilds excluded)."""
    c = color_of(g, f)
    if c < 0:
        return False
    return c == color or (not is_wild(g, top) and slot_of(g, f) == slot_of(g, top))


@njit(cache=True)
def set_matches(g, f):
    """A sum set is in force (sum_jump_in) and coloured face f has the colour or the number of
    one of its cards. False when no set is in force."""
    colors = g[S_SET_COLORS]
    if colors == 0 or is_wild(g, f):
        return False
    n = number_of(g, f)
    return ((colors >> color_of(g, f)) & 1) != 0 or (n >= 0 and ((g[S_SET_NUMS] >> n) & 1) != 0)


@njit(cache=True, inline="always")
def turn_candidates(g):
    """How many candidate indices an ordinary turn must look at: those of `candidate`, or
    every face while a sum set is in force (any card of the set may be followed)."""
    return n_faces(g) if g[S_SET_COLORS] != 0 else n_candidates(g)


@njit(cache=True, inline="always")
def turn_candidate(g, i, color, top):
    """The i-th face that could be legal on an ordinary turn (see turn_candidates); -1: none."""
    if g[S_SET_COLORS] != 0:
        return i
    return candidate(g, i, color, top)


@njit(cache=True)
def holds_forbidding_card(g, p, color, top):
    """True when p holds a card that makes a restricted card (Wild Draw Four) a bluff under
    wd4_rule."""
    rule = g[K.wd4_rule]
    if rule == 2:  # free
        return False
    nck = colored_kinds(g)
    h = hand(p) + face_at(g, color, 0)
    for s in range(MAX_COLORED_KINDS):
        if s == nck:
            break
        if g[h + s] > 0:
            return True
    if rule == 1 and not is_wild(g, top):  # no_match: also a card of the top's kind
        s = slot_of(g, top)
        for c in range(N_COLORS):
            if g[hand(p) + face_at(g, c, s)] > 0:
                return True
    return False


@njit(cache=True)
def bluff_card(g, p, color, top):
    """The face p would bluff with on this ordinary turn, or -1: a restricted wild face it holds
    that wd4_rule forbids now (p holds a card that forbids it, and `challenge` is on, so the play
    is legal as a bluff). Where several qualify: the Wild Draw Four, else the first restricted
    wild face of the side in play in face order (the `flip` deck's W2 on the light side, WDC on
    the dark side). A question only: it draws no random number, so on a deck whose only
    restricted wild is the Wild Draw Four a bot's bluff check draws as it always did."""
    if g[K.challenge] == 0 or not holds_forbidding_card(g, p, color, top):
        return -1
    w4 = role_face(g, ROLE_WILD_DRAW_FOUR, 0)  # NO_FACE (never held) in a deck without W4
    if g[hand(p) + w4] > 0 and legal_turn_card(g, p, w4, color, top, True):
        return w4
    for f in range(colored_faces(g), n_faces(g)):
        if restricted(g, f) and legal_turn_card(g, p, f, color, top, True):
            return f
    return -1


@njit(cache=True, inline="always")
def legal_turn_card(g, p, f, color, top, allow_bluff):
    """Can p put down face f on an ordinary turn (no penalty pending)?"""
    if g[hand(p) + f] == 0:
        return False
    if g[K.number_finish] and finish_forbids(g, p, f):
        return False
    if is_wild(g, f):
        if not restricted(g, f):
            return True
        if allow_bluff and g[K.challenge]:
            return True
        return not holds_forbidding_card(g, p, color, top)
    return matches(g, f, color, top) or set_matches(g, f)


@njit(cache=True)
def legal_answer(g, p, f, color, top, pkind):
    """Can p answer a pending penalty whose last draw card has role pkind (ROLE_DRAW_TWO or
    ROLE_WILD_DRAW_FOUR) with face f? The stacking knobs name the kinds D, W4, and for
    deflect S and R, by text: their roles."""
    if g[hand(p) + f] == 0:
        return False
    if g[K.number_finish] and finish_forbids(g, p, f):
        return False  # an answer is never a number card: not p's last card, nor a Discard All taking the rest
    if g[K.stack_by_value]:
        return answers_by_value(g, f)
    role = role_of(g, f)
    if role == ROLE_WILD_DRAW_FOUR:
        return ((pkind == ROLE_WILD_DRAW_FOUR and g[K.stack_draw_four] != 0)
                or (pkind == ROLE_DRAW_TWO and g[K.stack_four_on_two] != 0))
    if not matches(g, f, color, top):
        return False
    if role == ROLE_DRAW_TWO:
        return ((pkind == ROLE_DRAW_TWO and g[K.stack_draw_two] != 0)
                or (pkind == ROLE_WILD_DRAW_FOUR and g[K.stack_two_on_four] != 0))
    if role == ROLE_SKIP or role == ROLE_REVERSE:
        return pkind == ROLE_DRAW_TWO and g[K.deflect] != 0
    return False


@njit(cache=True, inline="always")
def answers_by_value(g, f):
    """stack_by_value (docs/RULES.md, "Cards of other decks"): any card whose draw value is at
    least the chain's last one answers, whatever its colour, kind or wd4_rule; never a Flip card
    (a flip answers no penalty, even on a kind with a draw)."""
    return draw_of(g, f) > 0 and draw_of(g, f) >= g[S_PDRAW] and not flips(g, f)


@njit(cache=True)
def color_held(g, p, c):
    """Cards of colour c in p's hand."""
    nck = colored_kinds(g)
    h = hand(p) + face_at(g, c, 0)
    t = 0
    for s in range(MAX_COLORED_KINDS):
        if s == nck:
            break
        t += g[h + s]
    return t


@njit(cache=True)
def finish_forbids(g, p, f):
    """number_finish: f is no number card and putting it down would empty p's hand (its last
    card; or a Discard All that takes every other card p holds down with it)."""
    if is_number(g, f):
        return False
    n = hsize(g, p)
    if n == 1:
        return True
    return discards_color(g, f) and color_held(g, p, color_of(g, f)) == n


@njit(cache=True, inline="always")
def playable_drawn(g, p, f, color, top):
    """A drawn card that could be played without a bluff (docs/RULES.md, "Drawing and the draw
    pile"): not under number_finish when it would empty p's hand (a Discard All taking every
    other card down with it), so draw_rule = until_playable draws on past it."""
    if g[K.number_finish] and finish_forbids(g, p, f):
        return False
    if is_wild(g, f):
        return not restricted(g, f) or not holds_forbidding_card(g, p, color, top)
    return matches(g, f, color, top) or set_matches(g, f)


@njit(cache=True)
def play_drawn_allows(g, f):
    mode = g[K.play_drawn]
    if mode == 0:
        return True
    if mode == 1:
        return is_number(g, f)
    return False


@njit(cache=True)
def d2_stacks(g):
    """A Draw Two goes onto a pending penalty instead of taking effect at once."""
    return g[K.stack_draw_two] != 0 or g[K.stack_four_on_two] != 0 or g[K.deflect] != 0


@njit(cache=True)
def d4_stacks(g):
    return g[K.stack_draw_four] != 0 or g[K.stack_two_on_four] != 0


@njit(cache=True)
def challenge_possible(g):
    return g[K.challenge] != 0 and g[K.wd4_rule] != 2
