"""Small reads of the game array, defined once for the whole engine: a seat's hand, its size
and bot parameters, and the deck's face table.

The deck is data in g (engine/state.py, from game/decks.py's face table): every question
about a card is a read of its column, through the accessors below. The engine never computes
a face from another by arithmetic on the classic numbering: the coloured face of colour c and
kind slot s is `face_at(g, c, s)`, a wild face is one of `colored_faces(g)` ..
`n_faces(g) - 1`. The roles (decks.ROLE_*) name the kinds the classic rule knobs speak of by
text (S, R, D, W, W4); `role_face(g, role, c)` is the face of a role in colour c (a wild
role's face for every c), NO_FACE when the deck has none. All are inlined (one load each).

A game whose deck has the classic deck's shape (`deck_family`: the facts CLASSIC_SHAPE lists are
those of the classic deck) is played by kernels compiled for its own pointer type
(sigs.ClassicGame), where `classic(g)` is the constant True: the accessors of those facts
answer from constants instead of loads, so LLVM unrolls the loops over a colour's faces and
drops the code of the effects the deck lacks (about a fifth of the standard games' run time).
"""

from numba.extending import overload

from .deck_shape import (  # noqa: F401  (deck_family re-exported)
    CLASSIC_CANDIDATES, CLASSIC_COLORED_FACES, CLASSIC_COLORED_KINDS, CLASSIC_FACES, CLASSIC_RESTRICTED_FACE,
    CLASSIC_ROLE_FACES, CLASSIC_WILD_KINDS, deck_family)
from .jit import njit
from .sigs import ClassicGame

from ..game.decks import (  # noqa: F401  (re-exported: the engine reads the roles from here)
    MAX_COLORED_KINDS,
    MAX_FACES,
    MAX_WILD_KINDS,
    N_COLORS,
    ROLE_DRAW_TWO,
    ROLE_NONE,
    ROLE_REVERSE,
    ROLE_SKIP,
    ROLE_WILD,
    ROLE_WILD_DRAW_FOUR,
)
from .layout import N_BOT_PARAMS
from .state import (  # noqa: F401  (re-exported)
    F_DRAWS,
    F_HAND_EFFECT,
    F_NUMBER,
    F_RESTRICTED,
    F_REVERSES,
    F_SKIPS,
    F_WILD,
    HAND_WIDTH,
    N_NUMBERS,
    NO_FACE,
    O_DECK,
    O_F_COLOR,
    O_F_COPIES,
    O_F_DISCARD_COLOR,
    O_F_DRAW,
    O_F_FLAGS,
    O_FACE,
    O_F_LEAD,
    O_F_NUMBER,
    O_F_POINTS,
    O_F_RESTRICTED,
    O_F_REVERSE,
    O_F_ROLE,
    O_F_SKIP,
    O_F_SLOT,
    O_HANDS,
    O_HSIZE,
    O_MOST_COPIES,
    O_N_CANDIDATES,
    O_N_COLORED,
    O_N_COLORED_FACES,
    O_N_FACES,
    O_N_WILD,
    O_NUMBER_FACE,
    O_PARAMS,
    O_ROLE_FACE,
    O_SAME_COPIES,
    O_ZERO_CARDS,
)


# ---------------------------------------------------------------- the classic shape


def classic(g):
    """Whether g's deck has the classic shape: in compiled code a constant of g's pointer type
    (sigs.ClassicGame); for an array, False (the face table answers)."""
    return False


@overload(classic, inline="always")
def _classic_compiled(g):
    if isinstance(g, ClassicGame):
        return lambda g: True
    return lambda g: False


# ---------------------------------------------------------------- seats


@njit(cache=True, inline="always")
def hand(p):
    """Offset of seat p's count vector in g (HAND_WIDTH counts: the faces, then NO_FACE)."""
    return O_HANDS + p * HAND_WIDTH


@njit(cache=True, inline="always")
def hsize(g, p):
    """Cards in seat p's hand."""
    return g[O_HSIZE + p]


@njit(cache=True, inline="always")
def param(g, p, k):
    """Seat p's bot parameter k (layout.BP; fixed point, see layout.fixed_point)."""
    return g[O_PARAMS + p * N_BOT_PARAMS + k]


# ---------------------------------------------------------------- the deck's sizes


@njit(cache=True, inline="always")
def _deck_fact(g, offset, classic_value):
    """g[offset], a fact of the deck block; in a game of the classic shape the classic deck's
    value, a constant (classic_value)."""
    if classic(g):
        return classic_value
    return g[offset]


@njit(cache=True, inline="always")
def _rarer_effect(g, column, f):
    """Face f has the effect of the face-table column: never in a game of the classic shape."""
    if classic(g):
        return False
    return g[column + f] != 0


@njit(cache=True, inline="always")
def deck_size(g):
    """Physical cards in the deck."""
    return g[O_DECK]


@njit(cache=True, inline="always")
def n_faces(g):
    """Faces of the deck: 0 .. n_faces - 1 (coloured faces first, then the wild faces)."""
    return _deck_fact(g, O_N_FACES, CLASSIC_FACES)


@njit(cache=True, inline="always")
def colored_kinds(g):
    """Coloured kinds: the faces of one colour."""
    return _deck_fact(g, O_N_COLORED, CLASSIC_COLORED_KINDS)


@njit(cache=True, inline="always")
def colored_faces(g):
    """Coloured faces (N_COLORS * colored_kinds): the first wild face."""
    return _deck_fact(g, O_N_COLORED_FACES, CLASSIC_COLORED_FACES)


@njit(cache=True, inline="always")
def wild_kinds(g):
    return _deck_fact(g, O_N_WILD, CLASSIC_WILD_KINDS)


@njit(cache=True, inline="always")
def n_candidates(g):
    """Legal-move candidates of an ordinary position (rules_check.candidate)."""
    return _deck_fact(g, O_N_CANDIDATES, CLASSIC_CANDIDATES)


@njit(cache=True, inline="always")
def zero_cards(g):
    """Physical 0s in the deck."""
    return g[O_ZERO_CARDS]


# ---------------------------------------------------------------- faces


@njit(cache=True, inline="always")
def face_at(g, c, s):
    """The coloured face of colour c and kind slot s (0 <= s < colored_kinds)."""
    return c * colored_kinds(g) + s


@njit(cache=True, inline="always")
def color_of(g, f):
    """Colour 0..3 of face f; -1 for a wild face."""
    return g[O_F_COLOR + f]


@njit(cache=True, inline="always")
def flags_of(g, f):
    """The yes/no facts of face f as bits: F_NUMBER, F_WILD, F_SKIPS, F_REVERSES, F_DRAWS,
    F_RESTRICTED (one read for a decision that asks several)."""
    return g[O_F_FLAGS + f]


@njit(cache=True, inline="always")
def is_wild(g, f):
    if classic(g):
        return CLASSIC_COLORED_FACES <= f < CLASSIC_FACES
    return (g[O_F_FLAGS + f] & F_WILD) != 0


@njit(cache=True, inline="always")
def slot_of(g, f):
    """The place of f's kind among the coloured kinds (two coloured faces are of one kind when
    their slots are equal); -1 for a wild face."""
    return g[O_F_SLOT + f]


@njit(cache=True, inline="always")
def number_of(g, f):
    """0-9 for a number card, -1 for any other face."""
    return g[O_F_NUMBER + f]


@njit(cache=True, inline="always")
def is_number(g, f):
    return (g[O_F_FLAGS + f] & F_NUMBER) != 0


@njit(cache=True, inline="always")
def draw_of(g, f):
    """Cards the victim of face f draws (0: no draw card)."""
    return g[O_F_DRAW + f]


@njit(cache=True, inline="always")
def skip_of(g, f):
    """0, 1 (the next player loses the turn), 2 (every other player)."""
    return g[O_F_SKIP + f]


@njit(cache=True, inline="always")
def reverses(g, f):
    return (g[O_F_FLAGS + f] & F_REVERSES) != 0


O_F_ROULETTE, O_F_SWAP_HANDS, O_F_SHUFFLE_HANDS = O_FACE["roulette"], O_FACE["swap_hands"], O_FACE["shuffle_hands"]
O_F_FLIP, O_F_DRAW_COLOR, O_F_LEAD_EFFECT = O_FACE["flip"], O_FACE["draw_color"], O_FACE["lead_effect"]


@njit(cache=True, inline="always")
def hand_effect(g, f):
    """Face f is a roulette, swap_hands, shuffle_hands, flip or draw_color card: the rarer
    effects, each asked only after this one bit (engine/hand_effects.py, sides.py)."""
    if classic(g):
        return False
    return (g[O_F_FLAGS + f] & F_HAND_EFFECT) != 0


@njit(cache=True, inline="always")
def flips(g, f):
    """Everything turns over (two-sided decks, engine/sides.py)."""
    return _rarer_effect(g, O_F_FLIP, f)


@njit(cache=True, inline="always")
def draws_color(g, f):
    """The victim turns up cards until the colour named (Wild Draw Colour)."""
    return _rarer_effect(g, O_F_DRAW_COLOR, f)


@njit(cache=True, inline="always")
def lead_effect_of(g, f):
    """What face f does as a two-sided deck's lead card (decks.LEAD_*)."""
    return g[O_F_LEAD_EFFECT + f]


@njit(cache=True, inline="always")
def roulette(g, f):
    return _rarer_effect(g, O_F_ROULETTE, f)


@njit(cache=True, inline="always")
def swaps_hands(g, f):
    return _rarer_effect(g, O_F_SWAP_HANDS, f)


@njit(cache=True, inline="always")
def shuffles_hands(g, f):
    return _rarer_effect(g, O_F_SHUFFLE_HANDS, f)


@njit(cache=True, inline="always")
def restricted(g, f):
    """Legal only as wd4_rule allows, and may be challenged (the Wild Draw Four's rule)."""
    if classic(g):
        return f == CLASSIC_RESTRICTED_FACE
    return (g[O_F_FLAGS + f] & F_RESTRICTED) != 0


@njit(cache=True, inline="always")
def discards_color(g, f):
    """Discard All: the player's other cards of f's colour go down under it."""
    return _rarer_effect(g, O_F_DISCARD_COLOR, f)


@njit(cache=True, inline="always")
def points_of(g, f):
    """Points of face f under the rules' zero_points (the table is built with it)."""
    return g[O_F_POINTS + f]


@njit(cache=True, inline="always")
def copies_of(g, f):
    """Physical cards of face f in the deck."""
    return g[O_F_COPIES + f]


@njit(cache=True, inline="always")
def role_of(g, f):
    """The role of f's kind by its text (ROLE_SKIP ... ROLE_WILD_DRAW_FOUR), ROLE_NONE for others."""
    return g[O_F_ROLE + f]


@njit(cache=True, inline="always")
def lead_ok(g, f):
    """An official lead card of face f stays (a number, S, R, D or W)."""
    return g[O_F_LEAD + f] != 0


@njit(cache=True, inline="always")
def role_face(g, role, c):
    """The face of a role in colour c (a wild role: its face, whatever c); NO_FACE if none."""
    if classic(g):
        return CLASSIC_ROLE_FACES[role * N_COLORS + c]
    return g[O_ROLE_FACE + role * N_COLORS + c]


@njit(cache=True, inline="always")
def number_face(g, c, v):
    """The face of number v in colour c; NO_FACE when the deck has no number kind v."""
    return g[O_NUMBER_FACE + c * N_NUMBERS + v]


@njit(cache=True, inline="always")
def most_copies(g, v):
    """Copies of number v a sum set can use, in any colours (sumsets.recompute)."""
    return g[O_MOST_COPIES + v]


@njit(cache=True, inline="always")
def same_copies(g, v):
    """Copies of number v a sum set can use within one colour."""
    return g[O_SAME_COPIES + v]


@njit(cache=True, inline="always")
def set_bit(g, f):
    """The bit of number face f in a sum set's face mask (S_SET_FACES): colour * 10 + number."""
    return g[O_F_COLOR + f] * N_NUMBERS + g[O_F_NUMBER + f]
