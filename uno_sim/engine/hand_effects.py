"""The card moves of the mercy rule and of the hand-changing kinds (docs/RULES.md, "The mercy
rule" and "Roulette, shuffling hands, swapping hands"): setting a knocked-out player's cards
aside, their points, and gathering and dealing out every hand. No tracing and no drawing here:
play.py writes the events, draws the roulette cards and ends the round around these moves.

A knocked-out player leaves the turn order like a player who went out under `last_standing`
(a non-zero place in O_PLACE, one fewer in S_NACTIVE), so every "still in the round" test of
the engine passes over them; S_KNOCKED remembers who they are for the score.
"""

from .jit import njit

from ..game.knobs import K
from . import layout as L
from .access import HAND_WIDTH, hand, hsize, n_faces
from .rng import shuffle
from .seats import step
from .sides import face_of, held_cards, release_hand, to_hand, two_sided
from .table_view import hand_changed
from .sumsets import stale
from .state import O_ASIDE, O_HSIZE, O_PLACE, O_REC, O_WORK_HANDS, S_KNOCKED, S_NACTIVE, S_NASIDE, S_NEXT_PLACE, S_PLAYERS


@njit(cache=True)
def hand_taken(g, q):
    """q's hand changed in a way the table could not follow (it took cards, or got a new hand):
    what was seen of it is forgotten (table_view.hand_changed) and its sum sets are stale."""
    hand_changed(g, q)
    stale(g, q)


@njit(cache=True)
def over_limit(g, q):
    """Seat q, still in the round, holds mercy_limit cards or more (the mercy rule is on)."""
    return g[K.mercy_limit] > 0 and g[O_PLACE + q] == 0 and hsize(g, q) >= g[K.mercy_limit]


@njit(cache=True)
def set_aside(g, q):
    """Knock q out: their cards go to the set-aside pile (they join the next reshuffle), they
    take the worst place still free (the free places are always next_place .. next_place +
    active - 1: going out takes the best, a knockout the worst) and leave the turn order."""
    h = hand(q)
    m = g[S_NASIDE]
    if two_sided(g):  # the physical cards, in card order
        m += held_cards(g, q, O_ASIDE + m)
        release_hand(g, q)
        for f in range(HAND_WIDTH):
            g[h + f] = 0
    else:
        for f in range(n_faces(g)):
            for _ in range(g[h + f]):
                g[O_ASIDE + m] = f
                m += 1
            g[h + f] = 0
    g[S_NASIDE] = m
    g[O_HSIZE + q] = 0
    stale(g, q)
    g[O_PLACE + q] = g[S_NEXT_PLACE] + g[S_NACTIVE] - 1
    g[S_NACTIVE] -= 1
    g[S_KNOCKED] |= 1 << q
    g[O_REC + L.COL_KNOCKOUTS] += 1


@njit(cache=True)
def last_in(g):
    """The one seat still in the round (-1 if none)."""
    for q in range(g[S_PLAYERS]):
        if g[O_PLACE + q] == 0:
            return q
    return -1


@njit(cache=True)
def mercy_scores(g):
    """A knocked-out player's points are mercy_points (their cards, 0, were set aside)."""
    for q in range(g[S_PLAYERS]):
        if (g[S_KNOCKED] >> q) & 1:
            g[O_REC + L.COL_POINTS + q] = g[K.mercy_points]
            g[O_REC + L.COL_CARDS + q] = 0


@njit(cache=True)
def shuffle_and_deal(g, p):
    """Shuffle hands: every card held by a player still in is gathered, shuffled and dealt one
    at a time, starting with the player after p in the direction of play, round the table
    until none is left. The cards are listed in seat and face order before the shuffle."""
    n = g[S_PLAYERS]
    m = 0
    sided = two_sided(g)
    for q in range(n):
        if g[O_PLACE + q] == 0:
            h = hand(q)
            if sided:  # the physical cards, in seat and card order
                m += held_cards(g, q, O_WORK_HANDS + m)
                release_hand(g, q)
            else:
                for f in range(n_faces(g)):
                    for _ in range(g[h + f]):
                        g[O_WORK_HANDS + m] = f
                        m += 1
            for f in range(HAND_WIDTH):
                g[h + f] = 0
            g[O_HSIZE + q] = 0
            hand_taken(g, q)  # a new hand: nothing is known of it
    shuffle(g, O_WORK_HANDS, m)
    q = p
    for i in range(m):
        q = step(g, q, 1)
        card = g[O_WORK_HANDS + i]
        g[hand(q) + face_of(g, card)] += 1
        g[O_HSIZE + q] += 1
        if sided:
            to_hand(g, q, card)
