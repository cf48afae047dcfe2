"""Worker threads for the engine's kernels (plain Python threads around nogil numba code).

A chunk of games is cut into slices, and each slice is played by one call of a kernel
compiled with nogil=True, so `workers` threads run kernels at once. This replaced numba's
parallel=True/prange: the parfor machinery cost about a fifth of the cold compile, and the
per-game seeding already makes the results independent of how games are split.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable

import numpy as np

SLICES_PER_WORKER = 4  # more slices than threads, so a slow slice does not hold up the chunk

_pools: dict[int, ThreadPoolExecutor] = {}

# Set to ask every running kernel to stop at its next game (or match) boundary; the kernels
# take it as an argument (a global array would be frozen into the compiled code).
STOP = np.zeros(1, dtype=np.int64)


def request_stop() -> None:
    STOP[0] = 1


def clear_stop() -> None:
    STOP[0] = 0


class Job:
    """Slices of one chunk running on the worker threads; `wait()` returns when all are done."""

    def __init__(self, futures: list[Future]) -> None:
        self.futures = futures

    def wait(self) -> None:
        for future in self.futures:
            future.result()


def split_submit(kernel: Callable[[int, int], object], n: int, workers: int) -> Job:
    """Start kernel(lo, hi) for contiguous slices covering range(n) on `workers` threads and
    return at once, so the caller can aggregate the previous chunk meanwhile."""
    workers = max(1, min(workers, n))
    slices = min(n, workers * SLICES_PER_WORKER) if workers > 1 else 1
    bounds = [n * s // slices for s in range(slices + 1)]
    pool = _pools.get(workers)
    if pool is None:
        pool = _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="uno-sim")
    return Job([pool.submit(kernel, bounds[s], bounds[s + 1]) for s in range(slices)])


def split_run(kernel: Callable[[int, int], object], n: int, workers: int) -> None:
    """kernel(lo, hi) for contiguous slices covering range(n), on `workers` threads; waits."""
    split_submit(kernel, n, workers).wait()
