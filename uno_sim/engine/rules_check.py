"""Card legality under the rules in the game array: matching, Wild Draw Four rule, answers.

Pure reads of g; every function here is a question, none changes state.
"""

import numpy as np

from .jit import njit

from ..game.knobs import K
from .access import DRAW_TWO, N_FACES, REVERSE, SKIP, WILD, WILD_DRAW_FOUR, hand, hsize, is_number
from .state import S_SET_COLORS, S_SET_NUMS

N_CANDIDATES = 18  # 13 faces of the current colour, 3 of the top symbol, Wild, Wild Draw Four


@njit(cache=True, inline="always")
def candidate(i, color, top):
    """The i-th face that could match (colour, top); -1 when there is none for this i."""
    if i < 13:
        return color * 13 + i
    if i < 16:
        if top >= WILD:
            return -1
        c = i - 13
        if c >= color:
            c += 1
        return c * 13 + top % 13
    if i == 16:
        return WILD
    return WILD_DRAW_FOUR


# Index of the lowest set bit of a mask below 2**27 (a de Bruijn sequence: one multiplication
# and a table look-up, the same in compiled code and plain Python).
_DE_BRUIJN = 0x077CB531
_LOWEST_BIT = np.zeros(32, dtype=np.int64)
for _i in range(32):
    _LOWEST_BIT[((_DE_BRUIJN << _i) >> 27) & 31] = _i


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """The index of the lowest set bit of mask (0 < mask < 2**27)."""
    return _LOWEST_BIT[(((mask & -mask) * _DE_BRUIJN) >> 27) & 31]


@njit(cache=True, inline="always")
def held_candidates(g, p, color, top):
    """Bit i set for each candidate index i (see `candidate`) whose face p holds: a decision
    that looks at the held candidates only (lowest_bit, in candidate order) skips the faces
    p lacks without a branch apiece, which the processor would mispredict. Written out in
    candidate order rather than through `candidate`, so that the current colour's 13 counts
    are read as one block."""
    h = hand(p)
    base = h + color * 13
    mask = 0
    for i in range(13):
        mask |= min(g[base + i], 1) << i
    if top < WILD:
        s = top % 13
        i = 13
        for c in range(4):
            if c != color:
                mask |= min(g[h + c * 13 + s], 1) << i
                i += 1
    mask |= min(g[h + WILD], 1) << 16
    mask |= min(g[h + WILD_DRAW_FOUR], 1) << 17
    return mask


@njit(cache=True, inline="always")
def matches(f, color, top):
    """Same colour as current, or same symbol as a coloured top card (wilds excluded)."""
    if f >= WILD:
        return False
    return f // 13 == color or (top < WILD and f % 13 == top % 13)


@njit(cache=True)
def set_matches(g, f):
    """A sum set is in force (sum_jump_in) and coloured face f has the colour or the number of
    one of its cards. False when no set is in force."""
    colors = g[S_SET_COLORS]
    if colors == 0 or f >= WILD:
        return False
    s = f % 13
    return ((colors >> (f // 13)) & 1) != 0 or (s < 10 and ((g[S_SET_NUMS] >> s) & 1) != 0)


@njit(cache=True, inline="always")
def turn_candidates(g):
    """How many candidate indices an ordinary turn must look at: the 18 of `candidate`, or
    every face while a sum set is in force (any card of the set may be followed)."""
    return N_FACES if g[S_SET_COLORS] != 0 else N_CANDIDATES


@njit(cache=True, inline="always")
def turn_candidate(g, i, color, top):
    """The i-th face that could be legal on an ordinary turn (see turn_candidates); -1: none."""
    if g[S_SET_COLORS] != 0:
        return i
    return candidate(i, color, top)


@njit(cache=True)
def holds_forbidding_card(g, p, color, top):
    """True when p holds a card that makes a Wild Draw Four a bluff under wd4_rule."""
    rule = g[K.wd4_rule]
    if rule == 2:  # free
        return False
    h = hand(p) + color * 13
    for s in range(13):
        if g[h + s] > 0:
            return True
    if rule == 1 and top < WILD:  # no_match: also a card with the top's symbol
        s = top % 13
        for c in range(4):
            if g[hand(p) + c * 13 + s] > 0:
                return True
    return False


@njit(cache=True, inline="always")
def legal_turn_card(g, p, f, color, top, allow_bluff):
    """Can p put down face f on an ordinary turn (no penalty pending)?"""
    if g[hand(p) + f] == 0:
        return False
    if g[K.number_finish] and hsize(g, p) == 1 and not is_number(f):
        return False
    if f == WILD:
        return True
    if f == WILD_DRAW_FOUR:
        if allow_bluff and g[K.challenge]:
            return True
        return not holds_forbidding_card(g, p, color, top)
    return matches(f, color, top) or set_matches(g, f)


@njit(cache=True)
def legal_answer(g, p, f, color, top, pkind):
    """Can p answer a pending penalty whose last draw card is pkind (2 or 4) with face f?"""
    if g[hand(p) + f] == 0:
        return False
    if g[K.number_finish] and hsize(g, p) == 1:
        return False  # an answer is never a number card
    if f == WILD_DRAW_FOUR:
        return (pkind == 4 and g[K.stack_draw_four] != 0) or (pkind == 2 and g[K.stack_four_on_two] != 0)
    if f == WILD or not matches(f, color, top):
        return False
    s = f % 13
    if s == DRAW_TWO:
        return (pkind == 2 and g[K.stack_draw_two] != 0) or (pkind == 4 and g[K.stack_two_on_four] != 0)
    if s == SKIP or s == REVERSE:
        return pkind == 2 and g[K.deflect] != 0
    return False


@njit(cache=True)
def playable_drawn(g, p, f, color, top):
    """A drawn card that could be played without a bluff (docs/RULES.md, "Drawing and the draw pile")."""
    if f == WILD:
        return True
    if f == WILD_DRAW_FOUR:
        return not holds_forbidding_card(g, p, color, top)
    return matches(f, color, top) or set_matches(g, f)


@njit(cache=True)
def play_drawn_allows(g, f):
    mode = g[K.play_drawn]
    if mode == 0:
        return True
    if mode == 1:
        return is_number(f)
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
