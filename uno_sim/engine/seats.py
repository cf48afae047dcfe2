"""Turn order: walking round the table in the direction of play, past players who are out."""

from .jit import njit, njit_typed
from .sigs import G, I
from .state import O_PLACE, S_DIR, S_NACTIVE, S_PLAYERS


@njit(cache=True, inline="always")
def step(g, p, k):
    """The seat k places after p in the current direction (k < 0: before p), passing over
    players who are out. Inlined where it is called, so only the common case (everyone still
    in) is written here; passing over players who are out is a call."""
    n = g[S_PLAYERS]
    if g[S_NACTIVE] == n:
        q = p + g[S_DIR] * k
        # (p + dir * k) % n without a division (slow, and several on every turn): one wrap
        # either way is selected without a branch; more (k > n) is left to %
        q = q - n if q >= n else q
        q = q + n if q < 0 else q
        if q >= n or q < 0:
            return (p + g[S_DIR] * k) % n
        return q
    return step_past_out(g, p, k)


@njit_typed(I(G, I, I), cache=True)
def step_past_out(g, p, k):
    """step() when some players are out (last_standing): walk seat by seat, skipping them."""
    n = g[S_PLAYERS]
    d = g[S_DIR]
    if k < 0:
        d = -d
        k = -k
    q = p
    for _ in range(k):
        q = (q + d) % n
        for _ in range(n):  # (bounded: after the mercy rule ends a round nobody may be left in)
            if g[O_PLACE + q] == 0:
                break
            q = (q + d) % n
    return q
