"""Worker threads for the engine's kernels (plain Python threads around nogil numba code).

A chunk of games is cut into slices, and each slice is played by one call of a kernel
compiled with nogil=True, so `workers` threads run kernels at once. This replaced numba's
parallel=True/prange: the parfor machinery cost about a fifth of the cold compile, and the
per-game seeding already makes the results independent of how games are split.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

SLICES_PER_WORKER = 4  # more slices than threads, so a slow slice does not hold up the chunk

_pools: dict[int, ThreadPoolExecutor] = {}


def split_run(kernel: Callable[[int, int], object], n: int, workers: int) -> None:
    """Call kernel(lo, hi) for contiguous slices covering range(n), on `workers` threads."""
    workers = max(1, min(workers, n))
    if workers == 1:
        kernel(0, n)
        return
    slices = min(n, workers * SLICES_PER_WORKER)
    bounds = [n * s // slices for s in range(slices + 1)]
    pool = _pools.get(workers)
    if pool is None:
        pool = _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="uno-sim")
    futures = [pool.submit(kernel, bounds[s], bounds[s + 1]) for s in range(slices)]
    for future in futures:
        future.result()
