"""The 54 card faces, their text forms and points, and the 108-card deck (docs/RULES.md, "Cards").

Face index = colour * 13 + symbol for coloured cards (symbols 0-9 numbers, 10 Skip,
11 Reverse, 12 Draw Two), 52 = Wild, 53 = Wild Draw Four. The engine takes these
constants, and face_points compiled, through engine/access.py, so the kernel and the reports
share one numbering and one points rule.
"""

from __future__ import annotations

import numpy as np

COLORS = ("R", "Y", "G", "B")
N_COLORS = 4
N_SYMBOLS = 13
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
WILD, WILD_DRAW_FOUR = 52, 53
N_FACES = 54
DECK_SIZE = 108

_SYMBOL_TEXT = [str(n) for n in range(10)] + ["S", "R", "D"]


def face_text(face: int) -> str:
    """Text form of a face index: R0..B9, RS, RR, RD, W, W4."""
    if face == WILD:
        return "W"
    if face == WILD_DRAW_FOUR:
        return "W4"
    if not 0 <= face < WILD:
        raise ValueError(f"no card face {face}")
    return COLORS[face // N_SYMBOLS] + _SYMBOL_TEXT[face % N_SYMBOLS]


FACE_TEXTS = tuple(face_text(f) for f in range(N_FACES))
_FACE_BY_TEXT = {t: f for f, t in enumerate(FACE_TEXTS)}


def parse_face(text: str) -> int:
    """Face index of a text form (inverse of face_text)."""
    try:
        return _FACE_BY_TEXT[text]
    except KeyError:
        raise ValueError(f"unknown card {text!r}") from None


def face_points(face: int, zero_points: int = 0) -> int:
    """Points of a face: numbers their value (0 counts zero_points), actions 20, wilds 50.
    The engine compiles this very function (engine/access.py): plain integer arithmetic only."""
    if face >= WILD:
        return 50
    symbol = face % N_SYMBOLS
    if symbol >= SKIP:
        return 20
    return zero_points if symbol == 0 else symbol


def copies(face: int) -> int:
    """How many physical cards of a face the deck holds."""
    if face >= WILD:
        return 4
    return 1 if face % N_SYMBOLS == 0 else 2


def deck() -> np.ndarray:
    """The 108 cards as face indices, in face order."""
    return np.repeat(np.arange(N_FACES, dtype=np.int64), [copies(f) for f in range(N_FACES)])
