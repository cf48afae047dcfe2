"""Per-game random numbers: xoshiro256** seeded by splitmix64 from (run key, game index).

Every game owns its generator, so results do not depend on thread count, chunk size or
worker process. The 4-word state lives in the game array at O_RNG (as int64 bit patterns).
"""

import numpy as np
from .jit import njit, njit_typed

from .sigs import G, I, VOID
from .layout import ONE
from .state import O_RNG

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def seed_game(g, key, game):
    """Seed the generator of g for game number `game` of the run with key `key`."""
    x = np.uint64(key) ^ _mix(np.uint64(game) * _GOLDEN + np.uint64(1))
    for i in range(4):
        x = x + _GOLDEN
        g[O_RNG + i] = np.int64(_mix(x))


@njit(cache=True)
def _advance(s0, s1, s2, s3):
    """One xoshiro256** step on the state words (uint64): (output, next state)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def _below(x, n):
    """An output x of the generator as a uniform integer in [0, n) (multiply-shift on its
    high 32 bits)."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def next_u64(g):
    result, s0, s1, s2, s3 = _advance(np.uint64(g[O_RNG]), np.uint64(g[O_RNG + 1]), np.uint64(g[O_RNG + 2]),
                                      np.uint64(g[O_RNG + 3]))
    g[O_RNG] = np.int64(s0)
    g[O_RNG + 1] = np.int64(s1)
    g[O_RNG + 2] = np.int64(s2)
    g[O_RNG + 3] = np.int64(s3)
    return result


@njit(cache=True, inline="always")
def randint(g, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32 (multiply-shift on the high 32 bits)."""
    return _below(next_u64(g), n)


@njit(cache=True)
def chance(g, threshold):
    """True with the fixed-point probability threshold/2**32; draws nothing at 0 or 1."""
    if threshold <= 0:
        return False
    if threshold >= ONE:
        return True
    return np.int64(next_u64(g) >> np.uint64(32)) < threshold


@njit_typed(VOID(G, I, I), cache=True)
def shuffle(g, start, n):
    """Fisher-Yates shuffle of g[start : start + n] in place. The generator's state stays in
    local variables for the whole shuffle (the same draws as randint one at a time): written
    back to g after every draw, it would make each draw wait for the previous one's stores."""
    s0 = np.uint64(g[O_RNG])
    s1 = np.uint64(g[O_RNG + 1])
    s2 = np.uint64(g[O_RNG + 2])
    s3 = np.uint64(g[O_RNG + 3])
    for i in range(n - 1, 0, -1):
        x, s0, s1, s2, s3 = _advance(s0, s1, s2, s3)
        j = _below(x, i + 1)
        tmp = g[start + i]
        g[start + i] = g[start + j]
        g[start + j] = tmp
    g[O_RNG] = np.int64(s0)
    g[O_RNG + 1] = np.int64(s1)
    g[O_RNG + 2] = np.int64(s2)
    g[O_RNG + 3] = np.int64(s3)
