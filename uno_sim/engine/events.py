"""The trace as the engine writes it: events of int64 words after O_TRACE (docs/RULES.md,
"The trace"; layout.EV_*), each a code, its length and its fields, written only while tracing.
"""

from .jit import njit, njit_typed

from .access import (
    deck_size,
    hand,
    n_faces,
)
from .sides import (
    two_sided,
)
from .sigs import G, I, VOID
from .state import (
    O_CAPACITY,
    O_OWNER,
    O_PLAYED_CARD,
    O_HSIZE,
    O_PILE,
    O_PLAYED,
    S_COLOR,
    S_NPILE,
    S_OVERFLOW,
    S_SIDE,
    S_TPOS,
    S_TRACING,
)


@njit_typed(VOID(G, I), cache=True)
def emit(g, x):
    pos = g[S_TPOS]
    if pos < g[O_CAPACITY]:
        g[pos] = x
        g[S_TPOS] = pos + 1
    else:
        g[S_OVERFLOW] = 1


@njit(cache=True)
def ev_open(g, code):
    pos = g[S_TPOS]
    emit(g, code)
    emit(g, 0)
    return pos


@njit(cache=True)
def ev_close(g, pos):
    if g[S_OVERFLOW] == 0:
        g[pos + 1] = g[S_TPOS] - pos - 2


@njit_typed(VOID(G, I, I, I, I, I), cache=True)
def ev(g, code, n, a, b, c):
    """An event with n (0-3) fixed fields a, b, c."""
    if g[S_TRACING]:
        pos = ev_open(g, code)
        if n > 0:
            emit(g, a)
        if n > 1:
            emit(g, b)
        if n > 2:
            emit(g, c)
        ev_close(g, pos)


@njit(cache=True)
def emit_hand(g, q):
    """Seat q's hand in an event: its size, then its cards (faces in face order; the physical
    cards, in card order, of a two-sided deck)."""
    emit(g, g[O_HSIZE + q])
    emit_held(g, q)


@njit(cache=True)
def emit_held(g, q):
    """Seat q's cards: faces in face order, or a two-sided deck's physical cards in card order."""
    if two_sided(g):
        for c in range(deck_size(g)):
            if g[O_OWNER + c] == q:
                emit(g, c)
        return
    for f in range(n_faces(g)):
        for _ in range(g[hand(q) + f]):
            emit(g, f)


@njit(cache=True, inline="always")
def played_card(g, i):
    """The card put down for O_PLAYED + i, as events list it (its physical card on a two-sided
    deck, else its face)."""
    if two_sided(g):
        return g[O_PLAYED_CARD + i]
    return g[O_PLAYED + i]


@njit(cache=True, inline="always")
def shown_color(g):
    """The colour in force as events carry it: 0-3, plus 4 on a two-sided deck's dark side (the
    side's own letters, P T O V)."""
    return g[S_COLOR] + 4 * g[S_SIDE]


@njit(cache=True)
def emit_pile(g):
    """The draw pile, top first."""
    for i in range(g[S_NPILE] - 1, -1, -1):
        emit(g, g[O_PILE + i])
