"""Two-sided decks (UNO Flip): physical cards, the side in play, turning everything over.

A two-sided deck's card is a pair of faces, one per side (docs/RULES.md, "Two-sided decks").
The engine keeps playing on faces: the deck block of state.py is the face table of the side in
play, the other side's waits at O_OTHER_SIDE, and a hand is still a count vector over the faces
in play. Beside that, every physical card has a number 0 .. deck_size - 1 (card i's light face is
the i-th card of the light side in face order; its dark face is drawn at the deal: the pairing),
and the piles and the trace hold card numbers. O_CARD_FACE / O_CARD_OTHER give a card's face on
the side in play / the other side, O_OWNER the seat holding it (-1: a pile, or out of play).

A one-sided deck's cards are its faces (card = face): every function here is asked only when
`two_sided(g)`, and `face_of` returns the card itself otherwise, so one-sided games read and
draw exactly what they did before two-sided decks existed. `two_sided(g)` is decided by the type
of the game pointer (unowned.py): a constant in compiled code, so the engine compiled for
one-sided games carries none of the two-sided code (it cost the one-sided kernels about a tenth
of their speed when it was a flag read at run time).
"""

from numba import types
from numba.extending import overload

from .jit import njit
from .sigs import TwoSidedGame

from .access import deck_size, hand
from .rng import randint, shuffle
from .state import (
    FACE_COLUMNS,
    HAND_WIDTH,
    O_CARD_FACE,
    O_CARD_OTHER,
    O_CARDS,
    O_DECK,
    O_DECK_END,
    O_DISC,
    O_FACE,
    O_OTHER_SIDE,
    O_OWNER,
    O_PILE,
    O_TWO_SIDED,
    PLAYED_FACE,
    S_NDISC,
    S_NPILE,
    S_PLAYERS,
    S_SIDE,
)

OTHER = O_OTHER_SIDE - O_DECK  # a deck-block offset + OTHER: the same entry of the other side
FACE_OFFSETS = tuple(O_FACE[name] for name in FACE_COLUMNS)


def two_sided(g):
    """Whether the game in g has a two-sided deck: in compiled code a constant of g's pointer type
    (sigs.TwoSidedGame); for an array (a game array read from Python, or without the compiler),
    its flag."""
    return g[O_TWO_SIDED] != 0


@overload(two_sided, inline="always")
def _two_sided_compiled(g):
    if isinstance(g, TwoSidedGame):
        return lambda g: True
    if isinstance(g, types.CPointer):
        return lambda g: False
    return lambda g: g[O_TWO_SIDED] != 0


@njit(cache=True, inline="always")
def face_of(g, card):
    """The face a card in a pile shows on the side in play (a one-sided deck's card is its face)."""
    if two_sided(g):
        return g[O_CARD_FACE + card]
    return card


@njit(cache=True)
def new_deck(g):
    """The draw pile before the shuffle: every physical card once, light side up, and the pairing
    drawn: the dark faces (the dark side's cards in face order) in a uniformly random order."""
    size = deck_size(g)
    for i in range(size):
        g[O_PILE + i] = i
        g[O_CARD_FACE + i] = g[O_CARDS + i]
        g[O_CARD_OTHER + i] = g[O_CARDS + OTHER + i]
        g[O_OWNER + i] = -1
    shuffle(g, O_CARD_OTHER, size)


@njit(cache=True, inline="always")
def to_hand(g, p, card):
    """Physical card `card` joins p's hand (the caller counts its face)."""
    g[O_OWNER + card] = p


@njit(cache=True)
def take_card(g, p, f):
    """The physical card p puts down for face f: one of p's cards showing f, picked uniformly
    (the random bot plays uniformly among the legal physical cards)."""
    size = deck_size(g)
    n = 0
    for c in range(size):
        if g[O_OWNER + c] == p and g[O_CARD_FACE + c] == f:
            n += 1
    r = randint(g, n) if n > 1 else 0
    for c in range(size):
        if g[O_OWNER + c] == p and g[O_CARD_FACE + c] == f:
            if r == 0:
                g[O_OWNER + c] = -1
                return c
            r -= 1
    return -1  # (p holds no card showing f: never, the hands count the cards held)


@njit(cache=True)
def swap_owners(g, a, b):
    """Seats a and b exchange every card (a 7-swap, a swap-hands card)."""
    for c in range(deck_size(g)):
        q = g[O_OWNER + c]
        if q == a:
            g[O_OWNER + c] = b
        elif q == b:
            g[O_OWNER + c] = a


@njit(cache=True)
def release_hand(g, q):
    """Seat q's cards leave its hand (a hand-sum claim, a knockout): no owner any more."""
    for c in range(deck_size(g)):
        if g[O_OWNER + c] == q:
            g[O_OWNER + c] = -1


@njit(cache=True)
def recount_hands(g):
    """Every hand's counts over the faces now in play, from the cards each seat holds."""
    for q in range(g[S_PLAYERS]):
        h = hand(q)
        for f in range(HAND_WIDTH):
            g[h + f] = 0
    for c in range(deck_size(g)):
        q = g[O_OWNER + c]
        if q >= 0:
            g[hand(q) + g[O_CARD_FACE + c]] += 1


@njit(cache=True)
def reverse_block(g, at, n):
    for i in range(n // 2):
        t = g[at + i]
        g[at + i] = g[at + n - 1 - i]
        g[at + n - 1 - i] = t


@njit(cache=True)
def keep_played_face(g, f):
    """Copy face f's columns to PLAYED_FACE on both sides: what the steps after a flip read of
    the card played (SPEC: they use the face that was played, not the face now on top)."""
    for o in FACE_OFFSETS:
        g[o + PLAYED_FACE] = g[o + f]
        g[o + OTHER + PLAYED_FACE] = g[o + f]


@njit(cache=True)
def turn_over(g, whole_discard):
    """Everything turns over: the side in play changes, the face tables change places, each
    card's faces swap, every hand is recounted on the new side, the draw pile's order reverses,
    and the discard pile's too when it turns over as a whole (flip_discard = whole; `top`: each
    card turns in place). Returns the new side."""
    for i in range(O_DECK, O_DECK_END):
        t = g[i]
        g[i] = g[i + OTHER]
        g[i + OTHER] = t
    for c in range(deck_size(g)):
        t = g[O_CARD_FACE + c]
        g[O_CARD_FACE + c] = g[O_CARD_OTHER + c]
        g[O_CARD_OTHER + c] = t
    recount_hands(g)
    reverse_block(g, O_PILE, g[S_NPILE])
    if whole_discard:
        reverse_block(g, O_DISC, g[S_NDISC])
    g[S_SIDE] = 1 - g[S_SIDE]
    return g[S_SIDE]


@njit(cache=True)
def swap_sides(g):
    """The face tables of the two sides change places (the deck block and O_OTHER_SIDE)."""
    for i in range(O_DECK, O_DECK_END):
        t = g[i]
        g[i] = g[i + OTHER]
        g[i + OTHER] = t


@njit(cache=True)
def light_side_up(g):
    """Before a new deal: the light side's tables back in play (a round that ended dark)."""
    if two_sided(g) and g[S_SIDE] != 0:
        swap_sides(g)
        g[S_SIDE] = 0


@njit(cache=True)
def held_cards(g, q, out):
    """The physical cards seat q holds, in card order, written at g[out...]; returns how many."""
    n = 0
    for c in range(deck_size(g)):
        if g[O_OWNER + c] == q:
            g[out + n] = c
            n += 1
    return n

