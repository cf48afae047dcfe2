"""The moves the rules are made of: the top card, the round's end, drawing (with the
reshuffle and the mercy rule's knockout after a draw), putting a card down, naming the colour.
"""

from .jit import njit, njit_typed

from ..game.knobs import K
from . import layout as L
from .access import (
    color_of,
    hand,
    hsize,
)
from .events import emit, emit_pile, ev, ev_close, ev_open, shown_color
from .hand_effects import hand_taken, last_in, over_limit, set_aside
from .rng import shuffle
from .rules_check import (
    playable_drawn,
)
from .seats import step
from .sides import (
    face_of,
    take_card,
    to_hand,
    two_sided,
)
from .sigs import B, G, I, VOID
from .sumsets import stale
from .state import (
    O_ASIDE,
    O_DISC,
    O_HSIZE,
    O_PILE,
    O_PLACE,
    O_REC,
    S_ACTIVITY,
    S_COLOR,
    S_COLOR_POS,
    S_DIR,
    S_DRAW_OPEN,
    S_DRAW_WROTE,
    S_BY_COLOR,
    S_COLOR_EXTRA,
    S_ENDED,
    S_LAST_DRAWN,
    S_LAST_DRAWN_CARD,
    S_NACTIVE,
    S_NASIDE,
    S_NDISC,
    S_NEXT,
    S_NEXT_PLACE,
    S_NPILE,
    S_OVERFLOW,
    S_PLAYERS,
    S_SET_COLORS,
    S_TPOS,
    S_TRACING,
)


@njit(cache=True, inline="always")
def top_card(g):
    """The face in play of the discard pile's top card."""
    return face_of(g, g[O_DISC + g[S_NDISC] - 1])


@njit_typed(VOID(G, I, I), cache=True)
def end_round(g, reason, winner):
    g[S_ENDED] = 1
    g[O_REC + L.COL_REASON] = reason
    g[O_REC + L.COL_WINNER] = winner


@njit(cache=True)
def last_one_left(g):
    """last_standing: one player is left; they place last and the round ends (winner: place 1)."""
    first = 0
    for q in range(g[S_PLAYERS]):
        if g[O_PLACE + q] == 0:
            g[O_PLACE + q] = g[S_NEXT_PLACE]
        elif g[O_PLACE + q] == 1:
            first = q
    end_round(g, L.REASON.out, first)


# ---------------------------------------------------------------- drawing


@njit(cache=True)
def reshuffle(g):
    """Discard pile except its top, plus the cards set aside by the mercy rule, becomes the new
    draw pile, shuffled."""
    nd = g[S_NDISC]
    top = g[O_DISC + nd - 1]
    for i in range(nd - 1):
        g[O_PILE + i] = g[O_DISC + i]
    m = nd - 1
    for i in range(g[S_NASIDE]):
        g[O_PILE + m + i] = g[O_ASIDE + i]
    m += g[S_NASIDE]
    g[S_NASIDE] = 0
    g[S_NPILE] = m
    g[O_DISC] = top
    g[S_NDISC] = 1
    shuffle(g, O_PILE, m)
    g[O_REC + L.COL_RESHUFFLES] += 1
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_RESHUFFLE)
        emit_pile(g)
        ev_close(g, pos)


@njit(cache=True)
def close_draw_event(g):
    if g[S_DRAW_OPEN] >= 0:
        ev_close(g, g[S_DRAW_OPEN])
        g[S_DRAW_OPEN] = -1


@njit_typed(I(G, I, I, I, B), cache=True)
def draw_cards(g, p, n, why, until_playable):
    """One draw obligation of p: n cards, or (until_playable) up to the first playable card.

    Returns the number of cards drawn; the last face drawn is g[S_LAST_DRAWN] (-1 if none).
    Reshuffles when a card is owed and the pile is empty; under empty_pile = void ends the round.
    """
    tracing = g[S_TRACING]
    g[S_DRAW_OPEN] = -1
    g[S_DRAW_WROTE] = 0
    g[S_LAST_DRAWN] = -1
    h = hand(p)
    drawn = 0
    # roulette and draw_color victims turn up cards until the colour in force appears (wild
    # faces never count); a failed challenger of a draw_color card then draws S_COLOR_EXTRA more
    by_color = why == L.WHY.roulette or why == L.WHY.draw_color or g[S_BY_COLOR] != 0
    while until_playable or drawn < n:
        if g[S_NPILE] == 0:
            if drawn > 0 and over_limit(g, p):  # mercy rule: knocked out after this part, the rest ends
                break
            if g[K.empty_pile] == 1:
                close_draw_event(g)
                end_round(g, L.REASON.void, -1)
                break
            if g[S_NDISC] + g[S_NASIDE] < 2:
                break
            close_draw_event(g)
            reshuffle(g)
        card = g[O_PILE + g[S_NPILE] - 1]
        f = face_of(g, card)
        g[S_NPILE] -= 1
        g[h + f] += 1
        g[O_HSIZE + p] += 1
        if two_sided(g):
            to_hand(g, p, card)
            g[S_LAST_DRAWN_CARD] = card
        drawn += 1
        g[S_LAST_DRAWN] = f
        if tracing:
            if g[S_DRAW_OPEN] < 0:
                g[S_DRAW_OPEN] = ev_open(g, L.EV_DRAW)
                g[S_DRAW_WROTE] = 1
                emit(g, p)
                emit(g, why)
            emit(g, card)
        if until_playable and playable_drawn(g, p, f, g[S_COLOR], top_card(g)):
            break
        if by_color and color_of(g, f) == g[S_COLOR]:  # the named colour turned up
            if g[S_COLOR_EXTRA] == 0:
                break
            by_color = False  # a failed challenger: the extra cards after the colour
            n = drawn + g[S_COLOR_EXTRA]
            g[S_COLOR_EXTRA] = 0
    close_draw_event(g)
    if drawn > 0:
        g[O_REC + L.COL_DRAWS] += drawn
        g[S_ACTIVITY] = 1
        hand_taken(g, p)  # the cards taken may be of any colour
    if tracing and g[S_DRAW_WROTE] == 0 and g[S_ENDED] == 0:
        ev(g, L.EV_DRAW, 2, p, why, 0)  # nothing could be drawn: an empty draw event
    if drawn > 0 and over_limit(g, p):
        knock_out(g, p)
    return drawn


@njit_typed(I(G, I, I, I), cache=True)
def draw_penalty(g, p, n, why):
    """A Draw Two / Wild Draw Four penalty (or the lead Draw Two): counts towards max_pending."""
    drawn = draw_cards(g, p, n, why, False)
    g[O_REC + L.COL_PENALTY_DRAWN] += drawn
    if drawn > g[O_REC + L.COL_MAX_PENDING]:
        g[O_REC + L.COL_MAX_PENDING] = drawn
    return drawn


# ---------------------------------------------------------------- putting cards down, naming the colour


@njit(cache=True, inline="always")
def put_down(g, p, f):
    """p puts a card of face f on the discard pile; returns the card (a two-sided deck's
    physical card, picked among p's cards showing f; else the face)."""
    return lay_down(g, p, f, take_card(g, p, f) if two_sided(g) else f)


@njit(cache=True, inline="always")
def lay_down(g, p, f, card):
    """p puts `card`, showing face f, on the discard pile (a two-sided deck's physical card, no
    longer owned by p; else the face); returns it."""
    g[hand(p) + f] -= 1
    g[O_HSIZE + p] -= 1
    g[O_DISC + g[S_NDISC]] = card
    g[S_NDISC] += 1
    g[O_REC + L.COL_PLAYS] += 1
    g[S_ACTIVITY] = 1
    return card


@njit(cache=True, inline="always")
def cards_left(g, p):
    """After p put cards down: p's hand changed (its sum cache is stale), and a sum set's
    matching, which lasts until the next card is played, is over."""
    stale(g, p)
    g[S_SET_COLORS] = 0


@njit_typed(VOID(G, I), cache=True)
def set_color(g, c):
    """The colour named after the play event was written: the event carries it."""
    g[S_COLOR] = c
    pos = g[S_COLOR_POS]
    if g[S_TRACING] and pos >= 0 and g[S_OVERFLOW] == 0 and pos < g[S_TPOS]:
        g[pos] = shown_color(g)


# ---------------------------------------------------------------- the mercy rule


@njit_typed(VOID(G, I), cache=True)
def knock_out(g, q):
    """The mercy rule knocks q out (hand_effects.set_aside). One player left wins: under
    first_out the round ends with them as the winner; under last_standing they take the last
    free place and the player in place 1 wins."""
    cards = hsize(g, q)
    set_aside(g, q)
    ev(g, L.EV_KNOCKOUT, 3, q, cards, g[O_PLACE + q] if g[K.mode] == 1 else 0)
    if g[S_ENDED]:
        return
    if g[S_NACTIVE] > 1:
        if g[S_NEXT] == q:  # (the player whose turn it was: turn order passes over them)
            g[S_NEXT] = step(g, q, 1)
        return
    w = last_in(g)
    if w >= 0 and hsize(g, w) > 0:
        g[O_REC + L.COL_MERCY_WIN] = 1 if (g[K.mode] == 0 or g[S_NEXT_PLACE] == 1) else 0
    if g[K.mode] == 0:
        end_round(g, L.REASON.out, w)
        return
    if w >= 0:
        g[O_PLACE + w] = g[S_NEXT_PLACE]
    for q2 in range(g[S_PLAYERS]):
        if g[O_PLACE + q2] == 1:
            w = q2
    end_round(g, L.REASON.out, w)


@njit_typed(VOID(G, I), cache=True)
def knockouts(g, p):
    """After a swap, rotation, shuffle or Wild swap: every player still in holding mercy_limit
    cards or more is knocked out, in the direction of play starting from p (the player who acts)."""
    n = g[S_PLAYERS]
    q = p
    for _ in range(n):
        if g[S_NACTIVE] <= 1 or g[S_ENDED]:
            return
        if over_limit(g, q):
            knock_out(g, q)
        q = (q + g[S_DIR]) % n
