"""Explicit numba signatures for engine functions that callers pass constants to.

numba compiles a separate specialization of a jitted function for every distinct literal
argument a caller passes (`draw_cards(g, p, 2, ...)` and `draw_cards(g, p, 4, ...)` were two
compilations, each linked again into every caller). Declaring the signature makes the
function compile once, with plain int64 / boolean arguments; it cost about a fifth of a cold
compile. Such functions are declared with `jit.njit_typed(signature)`, which compiles them
only when the cache is cold. The game `g` is a raw int64 pointer (see unowned.py).

jit.njit now makes every engine function's constant arguments plain for its compiled callers; a
declared signature still fixes the types where callers pass different kinds (a bool where an
int64 is meant would be a second version) and compiles those functions first, in order.
"""

from numba import types

G = types.CPointer(types.int64)
I = types.int64
B = types.boolean
VOID = types.void
