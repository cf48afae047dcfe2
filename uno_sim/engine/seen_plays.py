"""What the table saw of each seat's turns since its hand last changed in a way the table
could not follow (O_SEEN, laid out in state.py): the search's `infer=plays` and
`infer=history` check their deals against it (bots/search.py plays_as_seen).

Between two such changes a hand loses the cards its player puts down and gains one unknown
card at each one-card draw it keeps, so the hand it held at each of these turns is the hand it
holds now plus the cards it played since, less one card for each draw since: a deal of the
hidden hands can be checked against every one of them. The turns are kept as a chain: a turn
is added only when the hand size it found is the one the last turn left (else a card left or
joined the hand unseen, and the chain starts again); any other card the hand takes, or a new
hand, forgets the chain (forget_plays, called by hand_effects.hand_taken and the swaps; a draw
forgets it too, and note_draw then puts it back with the draw added).
"""

from .jit import njit

from ..game.knobs import K
from . import layout as L
from .access import hand_effect, is_wild, number_of
from .sides import face_of
from .state import (
    O_DISC,
    O_HSIZE,
    O_PLACE,
    O_REC,
    O_SEEN,
    SEEN_COLOR,
    SEEN_DREW_KEPT_KIND,
    SEEN_DREW_PLAYED_KIND,
    SEEN_KIND,
    SEEN_PLAYED_KIND,
    SEEN_DEPTH,
    SEEN_DIR,
    SEEN_FACE,
    SEEN_NAMED,
    SEEN_NDISC,
    SEEN_NEXT_LACKS,
    SEEN_NEXT_SIZE,
    SEEN_SEAT,
    SEEN_SHUFFLES,
    SEEN_SIZE,
    SEEN_TOP,
    SEEN_WIDTH,
    S_COLOR,
    S_ENDED,
    S_NDISC,
)


@njit(cache=True, inline="always")
def seen_count(q):
    """Index of the number of seat q's turns kept."""
    return O_SEEN + q * SEEN_SEAT


@njit(cache=True, inline="always")
def seen_play(q, k):
    """Index of seat q's k-th turn kept (0: the oldest); its entries at + SEEN_*."""
    return O_SEEN + q * SEEN_SEAT + 1 + k * SEEN_WIDTH


@njit(cache=True, inline="always")
def forget_plays(g, q):
    """q's hand changed in a way the table could not follow: its turns tell nothing more."""
    g[seen_count(q)] = 0


@njit(cache=True)
def plain_play(g, p, f, before):
    """p's play of the one card f, onto a discard pile of `before` cards, left p holding the
    hand it chose from less f: the card alone joined the pile (no Discard All, no reshuffle),
    no hand effect, 7-swap, 0-rotation or Wild swap, p still in the round."""
    v = number_of(g, f)
    return not (g[S_ENDED] or g[O_PLACE + p] != 0 or hand_effect(g, f) or (g[K.wild_swap] != 0 and is_wild(g, f))
                or g[S_NDISC] != before + 1 or face_of(g, g[O_DISC + before]) != f
                or (v == 7 and g[K.seven_swap] != 0) or (v == 0 and g[K.zero_rotate] != 0))


@njit(cache=True)
def keep_turn(g, p, m, kind, f, color, top, size_before, direction, next_size, next_lacks):
    """Add p's turn to its m turns kept, unless the last of them left a hand of another size
    than this turn found (size_before): then a card left or joined the hand unseen in between,
    and the chain starts again with this turn."""
    if m > 0 and g[seen_play(p, m - 1) + SEEN_SIZE] != size_before:
        m = 0
    if m == SEEN_DEPTH:  # the oldest turn makes room
        for i in range(seen_play(p, 0), seen_play(p, SEEN_DEPTH - 1)):
            g[i] = g[i + SEEN_WIDTH]
        m -= 1
    e = seen_play(p, m)
    g[e + SEEN_KIND] = kind
    g[e + SEEN_FACE] = f
    g[e + SEEN_TOP] = top
    g[e + SEEN_COLOR] = color
    g[e + SEEN_NAMED] = g[S_COLOR]
    g[e + SEEN_SIZE] = g[O_HSIZE + p]
    g[e + SEEN_NDISC] = g[S_NDISC]
    g[e + SEEN_DIR] = direction
    g[e + SEEN_NEXT_SIZE] = next_size
    g[e + SEEN_NEXT_LACKS] = next_lacks
    g[e + SEEN_SHUFFLES] = g[O_REC + L.COL_RESHUFFLES]
    g[seen_count(p)] = m + 1


@njit(cache=True)
def note_play(g, p, f, color, top, before, direction, next_size, next_lacks):
    """Keep what every player saw of p's play of f on colour / top on an ordinary turn, with
    the direction, the next player's hand size and O_LACKS entry as they were before it.
    Only a plain_play; any other play forgets p's turns."""
    if not plain_play(g, p, f, before):
        forget_plays(g, p)
        return
    keep_turn(g, p, g[seen_count(p)], SEEN_PLAYED_KIND, f, color, top, g[O_HSIZE + p] + 1, direction, next_size,
              next_lacks)


@njit(cache=True)
def note_draw(g, p, m, played, color, top, direction, next_size, next_lacks):
    """p drew one card on an ordinary turn (which forgot its turns, hand_effects.hand_taken)
    and kept it, or played it (`played`: a plain_play); m: its turns kept before the draw.
    Kept as a turn: pro draws only without a legal card but wild ones (the search checks what
    pro would have done), and the hand it drew to is the hand it holds now, less the card
    drawn when it kept it."""
    if g[S_ENDED] or g[O_PLACE + p] != 0:
        return
    size = g[O_HSIZE + p]
    keep_turn(g, p, m, SEEN_DREW_PLAYED_KIND if played else SEEN_DREW_KEPT_KIND, -1, color, top,
              size if played else size - 1, direction, next_size, next_lacks)
