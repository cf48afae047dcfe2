"""What the strategy bots read of a two-sided deck (UNO Flip) beyond the side in play
(docs/BOTS.md, "Two-sided decks").

A player sees its own hand on the side in play only, and every other player's hand on the
other side (the backs face outwards), and the other side of the draw pile's top card. So a
Flip card's consequences are partly known: after it, every other hand is read on the side the
player sees now, exactly; its own hand and the new top card are unknown, and are taken as
drawn from the other side's faces it has not seen (`other_pool`: the pairing of the two sides
is uniform). On the side in play the backs say nothing about the faces (the pairing again), so
pro's estimate of a hand on the side in play stays its `unseen_faces`.

Everything here is asked only when sides.two_sided(g) (one branch in each bot's turn-card
loop), so one-sided games neither read it nor slow down.
"""

import numpy as np

from ..jit import njit

from ..access import F_WILD, HAND_WIDTH, N_COLORS, deck_size, reverses, skip_of
from ..seats import step
from ..sides import OTHER
from ..state import (
    O_CARD_OTHER,
    O_F_COLOR,
    O_F_COPIES,
    O_F_DRAW,
    O_F_DRAW_COLOR,
    O_F_FLAGS,
    O_F_POINTS,
    O_F_SLOT,
    O_N_FACES,
    O_OWNER,
    O_PILE,
    S_NACTIVE,
    S_NPILE,
)


@njit(cache=True, inline="always")
def other_faces(g):
    """Faces of the other side: 0 .. other_faces - 1."""
    return g[O_N_FACES + OTHER]


@njit(cache=True)
def other_pool(g, p):
    """Copies of each face of the other side that p does not see now (the other side's copies
    less the backs of the other players' cards and of the draw pile's top card), indexed by
    face, and their total: what p's own hand and the new top card show after a flip are taken
    as drawn from these."""
    u = np.zeros(HAND_WIDTH, dtype=np.int64)
    nf = other_faces(g)
    total = 0
    for f in range(nf):
        u[f] = g[O_F_COPIES + OTHER + f]
        total += u[f]
    for c in range(deck_size(g)):
        q = g[O_OWNER + c]
        if q >= 0 and q != p:
            u[g[O_CARD_OTHER + c]] -= 1
            total -= 1
    if g[S_NPILE] > 0:
        u[g[O_CARD_OTHER + g[O_PILE + g[S_NPILE] - 1]]] -= 1
        total -= 1
    return u, total


@njit(cache=True)
def hand_after_flip(g, q):
    """Seat q's hand as it reads after a flip (the other side of its cards, which every other
    player sees): its colours as bits, its kinds (slots) as bits, its wild cards, its points,
    and its draw cards (a draw or a draw_color face)."""
    colours = 0
    slots = 0
    wilds = 0
    points = 0
    draws = 0
    for c in range(deck_size(g)):
        if g[O_OWNER + c] == q:
            f = g[O_CARD_OTHER + c]
            points += g[O_F_POINTS + OTHER + f]
            if g[O_F_DRAW + OTHER + f] > 0 or g[O_F_DRAW_COLOR + OTHER + f] != 0:
                draws += 1
            if (g[O_F_FLAGS + OTHER + f] & F_WILD) != 0:
                wilds += 1
            else:
                colours |= 1 << g[O_F_COLOR + OTHER + f]
                slots |= 1 << g[O_F_SLOT + OTHER + f]
    return colours, slots, wilds, points, draws


@njit(cache=True, inline="always")
def colours_held(colours):
    return (colours & 1) + ((colours >> 1) & 1) + ((colours >> 2) & 1) + ((colours >> 3) & 1)


@njit(cache=True)
def no_match_after_flip(g, colours, slots, wilds, pool, total):
    """Chance that a hand read after a flip as (colours, slots, wilds) (hand_after_flip) holds
    no card to follow the new top card, the top taken as drawn from `pool` (other_pool): 0 with
    a wild card; a wild top's colour is named by the flipper, taken as any of the four."""
    if wilds > 0 or total <= 0:
        return 0.0
    lacking = N_COLORS - colours_held(colours)
    none = 0.0
    for t in range(other_faces(g)):
        n = pool[t]
        if n <= 0:
            continue
        tc = g[O_F_COLOR + OTHER + t]
        if tc < 0:
            none += n * lacking / N_COLORS
        elif ((colours >> tc) & 1) == 0 and ((slots >> g[O_F_SLOT + OTHER + t]) & 1) == 0:
            none += n
    return none / total


@njit(cache=True)
def colour_share(g, pool, total):
    """The chance that two faces drawn from `pool` share a colour (wild faces share none): the
    expected fraction of p's own hand that follows the new top's colour after a flip."""
    if total <= 0:
        return 0.0
    s = 0.0
    for c in range(N_COLORS):
        n = 0
        for t in range(other_faces(g)):
            if g[O_F_COLOR + OTHER + t] == c:
                n += pool[t]
        s += (n / total) ** 2
    return s


@njit(cache=True)
def mean_points(g, pool, total):
    """Mean points of a face drawn from `pool` (the other side's points)."""
    if total <= 0:
        return 0.0
    s = 0
    for t in range(other_faces(g)):
        s += pool[t] * g[O_F_POINTS + OTHER + t]
    return s / total


@njit(cache=True)
def mover_after(g, p, f):
    """The player who moves after p's play of face f (its reverse and skip read on the side in
    play, as the steps after a flip read the face played): p itself after a skip of everyone."""
    d = -1 if reverses(g, f) and g[S_NACTIVE] > 2 else 1
    s = skip_of(g, f)
    if s == 2:
        return p
    return step(g, p, d * (1 + s))
