"""The classic deck's 54 faces by name: the numbering, text forms, points and copies of
decks.CLASSIC's face table (docs/RULES.md, "Cards"), for the code that speaks of the classic
cards (the trace, the tests, the rulebook).

The face table (game/decks.py) is the one home of the card model: coloured faces colour-major
(colour * 13 + symbol, symbols 0-9 numbers, 10 Skip, 11 Reverse, 12 Draw Two), then 52 Wild
and 53 Wild Draw Four. Everything here is read from it; the engine reads the same table
from its game array (engine/state.py, engine/access.py), so kernel, trace and reports number
the faces alike.
"""

from __future__ import annotations

import numpy as np

from .decks import CLASSIC, COLORS, N_COLORS, ROLE_DRAW_TWO, ROLE_REVERSE, ROLE_SKIP, ROLE_WILD, ROLE_WILD_DRAW_FOUR  # noqa: F401

_TABLE = CLASSIC.faces()

N_SYMBOLS = _TABLE.n_colored_kinds  # faces per colour
N_FACES = _TABLE.n_faces
DECK_SIZE = _TABLE.size
FACE_TEXTS = _TABLE.texts


def _role_face(role: int) -> int:
    return int(_TABLE.faces_with_role(role)[0])


# the symbols of the actions (their face in colour 0) and the two wild faces
SKIP, REVERSE, DRAW_TWO = (_role_face(r) for r in (ROLE_SKIP, ROLE_REVERSE, ROLE_DRAW_TWO))
WILD, WILD_DRAW_FOUR = _role_face(ROLE_WILD), _role_face(ROLE_WILD_DRAW_FOUR)


def face_text(face: int) -> str:
    """Text form of a face index: R0..B9, RS, RR, RD, W, W4."""
    if not 0 <= face < N_FACES:
        raise ValueError(f"no card face {face}")
    return FACE_TEXTS[face]


def parse_face(text: str) -> int:
    """Face index of a text form (inverse of face_text)."""
    try:
        return _TABLE.face(text)
    except ValueError:
        raise ValueError(f"unknown card {text!r}") from None


def face_points(face: int, zero_points: int = 0) -> int:
    """Points of a face: numbers their value (0 counts zero_points), actions 20, wilds 50."""
    return int(CLASSIC.faces(zero_points).points[face])


def copies(face: int) -> int:
    """How many physical cards of a face the deck holds."""
    return int(_TABLE.copies[face])


def deck() -> np.ndarray:
    """The 108 cards as face indices, in face order."""
    return _TABLE.cards()
