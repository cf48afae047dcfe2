"""A raw pointer to the game array, so that numba's reference counting skips it.

numba increments and decrements an array's reference count, atomically, each time the
array enters or leaves a compiled function. With one game array threaded through every
engine function that was about 70% of the run time (perf). A view built with `carray`
from the data pointer (null meminfo) removed the atomics but still paid a call to
NRT_incref/NRT_decref per call and argument (7% in a later profile) and a negative-index
check on every access. A plain `int64*` has neither: indexing it is one load or store. The
engine's functions all take this pointer; the caller keeps the owning array alive
(`keep_alive`) while it is used. The array's length is kept in the game at O_CAPACITY.

With NUMBA_DISABLE_JIT=1 (plain Python, for debugging) the array stands for its pointer.
"""

import numba
import numpy as np
from numba import types

from .jit import njit
from numba.extending import intrinsic

from .state import N_CONFIG, N_GAME, O_CAPACITY

@intrinsic
def _int64_pointer(typingctx, address):
    sig = types.CPointer(types.int64)(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))

    return sig, codegen


if numba.config.DISABLE_JIT:
    def unowned(g):
        """Plain Python: the array itself (the intrinsic has no Python version)."""
        return g
else:
    @njit(cache=True, inline="always")
    def unowned(g):
        """A pointer to the data of the int64 array g (index it like the array; no bounds)."""
        return _int64_pointer(g.ctypes.data)


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
