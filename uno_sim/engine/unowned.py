"""An unowned view of the game array, so that numba's reference counting skips it.

numba increments and decrements an array's reference count, atomically, each time the
array enters or leaves a compiled function. With one game array threaded through every
engine function that was about 70% of the run time (perf). A view built with
`numba.carray` from the raw data pointer has no owner (null meminfo), and numba's
NRT_incref/NRT_decref return at once for it. The caller keeps the owning array alive
(`keep_alive`) for as long as the view is used.
"""

import numba
import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from .state import N_CONFIG, N_GAME

N_BLOCKS = 64  # blocks of games a chunk is split into for prange


@intrinsic
def _int64_pointer(typingctx, address):
    sig = types.CPointer(types.int64)(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))

    return sig, codegen


@njit(cache=True, inline="always")
def unowned(g):
    """A view of the int64 array g without reference counting."""
    return numba.carray(_int64_pointer(g.ctypes.data), g.shape[0])


@njit(cache=True)
def new_game(config):
    """An owning game array with the configuration block filled in (view it with `unowned`)."""
    owner = np.zeros(N_GAME, dtype=np.int64)
    owner[:N_CONFIG] = config
    return owner


@njit(cache=True, inline="always")
def block_range(n, blocks, b):
    """Games lo .. hi-1 of block b when n games are split into `blocks` blocks."""
    return n * b // blocks, n * (b + 1) // blocks


@njit(cache=True)
def keep_alive(g):
    """Use g after its unowned view is done with, so numba does not free it earlier."""
    return g.shape[0]
