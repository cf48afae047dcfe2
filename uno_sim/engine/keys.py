"""The run key: one 64-bit number per user seed, from which every game seeds its generator.

Plain Python (numpy only): callers get the key before the engine is compiled or loaded, so
that the start-up message (uno_sim.running.warmup) is on screen before any compiling starts.
"""

import numpy as np


def run_key(seed: int) -> int:
    """The 64-bit run key for a user seed (numpy SeedSequence spreads nearby seeds apart)."""
    if seed < 0:
        raise ValueError(f"seed must not be negative (got {seed})")
    return int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])
