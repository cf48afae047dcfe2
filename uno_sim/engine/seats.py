"""Turn order: walking round the table in the direction of play, past players who are out."""

from .jit import njit

from .state import O_PLACE, S_DIR, S_NACTIVE, S_PLAYERS


@njit(cache=True, inline="always")
def step(g, p, k):
    """The seat k places after p in the current direction (k < 0: before p), passing over
    players who are out."""
    n = g[S_PLAYERS]
    d = g[S_DIR]
    if g[S_NACTIVE] == n:
        return (p + d * k) % n
    if k < 0:
        d = -d
        k = -k
    q = p
    for _ in range(k):
        q = (q + d) % n
        while g[O_PLACE + q] != 0:
            q = (q + d) % n
    return q
