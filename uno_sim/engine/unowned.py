"""A raw pointer to the game array, so that numba's reference counting skips it.

numba increments and decrements an array's reference count, atomically, each time the
array enters or leaves a compiled function. With one game array threaded through every
engine function that was about 70% of the run time (perf). A view built with `carray`
from the data pointer (null meminfo) removed the atomics but still paid a call to
NRT_incref/NRT_decref per call and argument (7% in a later profile) and a negative-index
check on every access. A plain `int64*` has neither: indexing it is one load or store. The
engine's functions all take this pointer; the caller keeps the owning array alive
(`keep_alive`) while it is used. The array's length is kept in the game at O_CAPACITY.

A two-sided deck's game is pointed at with a pointer of its own type (sigs.TwoSidedGame,
`unowned_two_sided`), so that the engine is compiled apart for it (sides.two_sided); so is a
deck of the classic shape in the games kernels (sigs.ClassicGame, `unowned_classic`).

With NUMBA_DISABLE_JIT=1 (plain Python, for debugging) the array stands for its pointer.
"""

import numba
import numpy as np
from numba import types

from .jit import njit
from numba.extending import intrinsic

from .sigs import G, G2, GC
from .state import N_CONFIG, N_GAME, O_CAPACITY


def _pointer(pointer_type):
    """An intrinsic turning an address into a pointer of `pointer_type`."""

    def make(typingctx, address):
        def codegen(context, builder, signature, args):
            return builder.inttoptr(args[0], context.get_value_type(pointer_type))

        return pointer_type(address), codegen

    return intrinsic(make)


_int64_pointer = _pointer(G)
_two_sided_pointer = _pointer(G2)
_classic_pointer = _pointer(GC)


@intrinsic
def _pointer_like(typingctx, like, address):
    """A pointer of the same type as the pointer `like` (one-sided or two-sided game)."""
    if not isinstance(like, types.CPointer):
        return None

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[1], context.get_value_type(like))

    return like(like, address), codegen


if numba.config.DISABLE_JIT:
    def unowned(g):
        """Plain Python: the array itself (the intrinsic has no Python version)."""
        return g

    unowned_two_sided = unowned_classic = unowned

    def unowned_like(like, g):
        return g
else:
    @njit(cache=True, inline="always")
    def unowned(g):
        """A pointer to the data of the int64 array g (index it like the array; no bounds)."""
        return _int64_pointer(g.ctypes.data)

    @njit(cache=True, inline="always")
    def unowned_two_sided(g):
        """`unowned` for a game with a two-sided deck (its own pointer type: sigs.TwoSidedGame)."""
        return _two_sided_pointer(g.ctypes.data)

    @njit(cache=True, inline="always")
    def unowned_classic(g):
        """`unowned` for a game whose deck has the classic shape (sigs.ClassicGame, access.classic_shape)."""
        return _classic_pointer(g.ctypes.data)

    @njit(cache=True, inline="always")
    def unowned_like(like, g):
        """A pointer to the array g of the same type as the game pointer `like` (a scratch game
        beside the game being played: the search's rollouts, a match's copy)."""
        return _pointer_like(like, g.ctypes.data)


@njit(cache=True)
def new_game(config):
    """An owning game array with the configuration block filled in (point at it with `unowned`).

    The block is copied in a loop: numba's slice assignment (`owner[:N_CONFIG] = config`)
    costs about 1.4 s of every cold compile, the loop almost nothing."""
    owner = np.zeros(N_GAME, dtype=np.int64)
    for i in range(N_CONFIG):
        owner[i] = config[i]
    owner[O_CAPACITY] = N_GAME
    return owner


@njit(cache=True)
def keep_alive(g):
    """Use g after its unowned pointer is done with, so numba does not free it earlier."""
    return g.shape[0]
