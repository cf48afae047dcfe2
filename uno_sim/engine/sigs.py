"""Explicit numba signatures for engine functions that callers pass constants to.

numba compiles a separate specialization of a jitted function for every distinct literal
argument a caller passes (`draw_cards(g, p, 2, ...)` and `draw_cards(g, p, 4, ...)` were two
compilations, each linked again into every caller). Declaring the signature makes the
function compile once, with plain int64 / boolean arguments; it cost about a fifth of a cold
compile. Such functions are declared with `jit.njit_typed(signature)`, which compiles them
only when a caller is compiled. The game `g` is a raw int64 pointer (see unowned.py), of type G
for a one-sided deck and G2 for a two-sided one.

jit.njit now makes every engine function's constant arguments plain for its compiled callers; a
declared signature still fixes the types where callers pass different kinds (a bool where an
int64 is meant would be a second version): a compiled caller always asks for the declared types.
"""

from numba import types
from numba.core.datamodel.models import PointerModel
from numba.extending import register_model


class TwoSidedGame(types.CPointer):
    """The game pointer of a game with a two-sided deck (UNO Flip): its own numba type, so that
    every engine function is compiled once for one-sided games, where `sides.two_sided(g)` is
    the constant False and the two-sided code folds away, and once for two-sided games (True).
    The two are separate compiled kernels; nothing converts one pointer type into the other."""

    def __init__(self, dtype):
        super().__init__(dtype)
        self.name = f"two-sided {dtype}*"


register_model(TwoSidedGame)(PointerModel)


class ClassicGame(types.CPointer):
    """The game pointer of a game whose deck has the classic deck's shape (access.CLASSIC_SHAPE:
    13 coloured and 2 wild kinds in the classic order, none of the rarer effects): its own numba
    type, so that the games kernels compiled for it answer the deck's sizes and the faces' kinds
    from constants (access.classic_shape) instead of reading the face table; LLVM then unrolls
    the loops over a colour's faces and removes the rarer effects' code."""

    def __init__(self, dtype):
        super().__init__(dtype)
        self.name = f"classic {dtype}*"


register_model(ClassicGame)(PointerModel)

G = types.CPointer(types.int64)  # a one-sided game (the declared signatures name this one)
G2 = TwoSidedGame(types.int64)  # a two-sided game (a declared function gets it in place of G)
GC = ClassicGame(types.int64)  # a game with the classic deck's shape (the games kernels only)
I = types.int64
B = types.boolean
VOID = types.void
