"""Small reads of the game array, and the card constants, defined once for the whole engine.

Every engine module takes these from here: the card numbering (from cards.py, which the
Python side shares, so kernel and reports number the faces alike), a seat's hand (its count
vector in g), its hand size and its bot parameters, and a face's points. The points are
cards.face_points compiled as it stands, so the rule is written once for both sides;
FACE_POINTS, its table with zero_points = 0, is computed in plain Python, so it needs no
compiled code (and works with NUMBA_DISABLE_JIT=1).
"""

import numpy as np

from .jit import njit

from ..game import cards
from ..game.cards import DRAW_TWO, N_COLORS, N_FACES, N_SYMBOLS, REVERSE, SKIP, WILD, WILD_DRAW_FOUR  # noqa: F401  (re-exported)
from .layout import N_BOT_PARAMS
from .state import O_HANDS, O_HSIZE, O_PARAMS

# Points of face f (docs/RULES.md, "Cards"); a 0 counts zero_points.
face_points = njit(cache=True)(cards.face_points)

# Points of each face with zero_points = 0 (a numba global: a constant in compiled code).
FACE_POINTS = np.array([cards.face_points(f, 0) for f in range(N_FACES)], dtype=np.int64)


@njit(cache=True, inline="always")
def hand(p):
    """Offset of seat p's count vector in g."""
    return O_HANDS + p * N_FACES


@njit(cache=True, inline="always")
def hsize(g, p):
    """Cards in seat p's hand."""
    return g[O_HSIZE + p]


@njit(cache=True, inline="always")
def param(g, p, k):
    """Seat p's bot parameter k (layout.BP; fixed point, see layout.fixed_point)."""
    return g[O_PARAMS + p * N_BOT_PARAMS + k]


@njit(cache=True, inline="always")
def is_number(f):
    return f < WILD and f % N_SYMBOLS < SKIP
