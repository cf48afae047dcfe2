"""The classic deck's shape: which decks the kernels compiled for it play, and the facts those
kernels take as constants (engine/access.py answers from them where `classic(g)`).

Plain Python over the deck's block (engine/state.py): choosing a kernel needs no compiler, so
a run decides which kernel to load before numba is imported.
"""

from functools import lru_cache

import numpy as np

from ..game import decks
from ..game.decks import N_COLORS
from .state import (FACE_COLUMN_WIDTH, F_RESTRICTED, N_ROLES, O_DECK, O_F_FLAGS, O_FACE, O_N_CANDIDATES, O_N_COLORED,
                    O_N_COLORED_FACES, O_N_FACES, O_N_WILD, O_ROLE_FACE, deck_block)

_CLASSIC_BLOCK = deck_block(decks.CLASSIC, 0)

# The deck block's parts (offset, width) that engine/access.py's accessors answer from constants in a
# game of the classic shape: a deck is of that shape when these equal the classic deck's.
CLASSIC_SHAPE = ((O_N_FACES, 1), (O_N_COLORED, 1), (O_N_COLORED_FACES, 1), (O_N_WILD, 1), (O_N_CANDIDATES, 1),
                 (O_ROLE_FACE, N_ROLES * N_COLORS), (O_F_FLAGS, FACE_COLUMN_WIDTH))
CLASSIC_SHAPE += tuple((O_FACE[name], FACE_COLUMN_WIDTH) for name in decks.FLAG_FIELDS + decks.TWO_SIDED_FLAGS)


def _classic_part(offset, width=1):
    return _CLASSIC_BLOCK[offset - O_DECK : offset - O_DECK + width]


CLASSIC_FACES = int(_classic_part(O_N_FACES)[0])
CLASSIC_COLORED_KINDS = int(_classic_part(O_N_COLORED)[0])
CLASSIC_COLORED_FACES = int(_classic_part(O_N_COLORED_FACES)[0])
CLASSIC_WILD_KINDS = int(_classic_part(O_N_WILD)[0])
CLASSIC_CANDIDATES = int(_classic_part(O_N_CANDIDATES)[0])
CLASSIC_ROLE_FACES = _classic_part(O_ROLE_FACE, N_ROLES * N_COLORS).copy()
(CLASSIC_RESTRICTED_FACE,) = np.flatnonzero(_classic_part(O_F_FLAGS, FACE_COLUMN_WIDTH) & F_RESTRICTED)


@lru_cache(maxsize=64)
def deck_family(deck) -> str:
    """Which kernels play the deck: "two-sided", "classic" (a one-sided deck of the classic shape,
    CLASSIC_SHAPE) or "one-sided"."""
    if deck.two_sided:
        return "two-sided"
    block = deck_block(deck, 0)
    same = all(np.array_equal(block[o - O_DECK : o - O_DECK + w], _classic_part(o, w)) for o, w in CLASSIC_SHAPE)
    return "classic" if same else "one-sided"
