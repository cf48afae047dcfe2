"""Bot decisions, dispatched on the bot code of the seat (g[O_BOTS + seat]).

Only the `random` bot (SPEC 4, pinned) is implemented so far; the Python side rejects the
other names before a kernel runs. Decisions draw from the game's own generator and never
change the cards.
"""

from numba import njit

from ..cards import WILD_DRAW_FOUR
from . import layout as L
from .rng import chance, randint
from .rules_check import N_CANDIDATES, candidate, hand, holds_forbidding_card, legal_answer, legal_turn_card
from .state import O_PARAMS, O_PLACE, S_PLAYERS


@njit(cache=True, inline="always")
def param(g, p, k):
    """Seat p's bot parameter k (fixed point, see state.fixed_point)."""
    return g[O_PARAMS + p * L.N_BOT_PARAMS + k]


@njit(cache=True)
def choose_turn_card(g, p, color, top):
    """Face to play on an ordinary turn, or -1 to draw."""
    h = hand(p)
    # A bluff: a Wild Draw Four held against wd4_rule, played with bluff_prob (0 by default).
    if (
        g[L.R_CHALLENGE] != 0
        and g[h + WILD_DRAW_FOUR] > 0
        and param(g, p, L.BP_BLUFF_PROB) > 0
        and legal_turn_card(g, p, WILD_DRAW_FOUR, color, top, True)
        and holds_forbidding_card(g, p, color, top)
        and chance(g, param(g, p, L.BP_BLUFF_PROB))
    ):
        return WILD_DRAW_FOUR
    total = 0
    for i in range(N_CANDIDATES):
        f = candidate(i, color, top)
        if f >= 0 and legal_turn_card(g, p, f, color, top, False):
            total += g[h + f]
    if total == 0:
        return -1
    r = randint(g, total)
    for i in range(N_CANDIDATES):
        f = candidate(i, color, top)
        if f >= 0 and legal_turn_card(g, p, f, color, top, False):
            r -= g[h + f]
            if r < 0:
                return f
    return -1


@njit(cache=True)
def choose_answer(g, p, color, top, pkind):
    """Face answering a pending penalty, or -1 to accept it."""
    h = hand(p)
    total = 0
    for i in range(N_CANDIDATES):
        f = candidate(i, color, top)
        if f >= 0 and legal_answer(g, p, f, color, top, pkind):
            total += g[h + f]
    if total == 0:
        return -1
    r = randint(g, total)
    for i in range(N_CANDIDATES):
        f = candidate(i, color, top)
        if f >= 0 and legal_answer(g, p, f, color, top, pkind):
            r -= g[h + f]
            if r < 0:
                return f
    return -1


@njit(cache=True, inline="always")
def choose_color(g, p):
    return randint(g, 4)


@njit(cache=True, inline="always")
def plays_drawn_card(g, p, f):
    return True


@njit(cache=True, inline="always")
def wants_challenge(g, p, target):
    return chance(g, param(g, p, L.BP_CHALLENGE_PROB))


@njit(cache=True, inline="always")
def forgets_uno(g, p):
    return chance(g, param(g, p, L.BP_FORGET_UNO))


@njit(cache=True, inline="always")
def wants_jump_in(g, p, f):
    return chance(g, param(g, p, L.BP_JUMP_IN_PROB))


@njit(cache=True)
def choose_swap_target(g, p):
    """Uniform among the other players still in the round."""
    n = g[S_PLAYERS]
    others = 0
    for q in range(n):
        if q != p and g[O_PLACE + q] == 0:
            others += 1
    r = randint(g, others)
    for q in range(n):
        if q != p and g[O_PLACE + q] == 0:
            if r == 0:
                return q
            r -= 1
    return -1


@njit(cache=True, inline="always")
def extra_cards(g, p, f):
    """Multi-play: further cards to put down after face f (appended at O_PLAYED); random adds none."""
    return 0
