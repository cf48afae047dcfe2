"""Chunks of games on worker threads: the rows depend only on (seed, game index)."""

import numpy as np

from uno_sim.game.bots import pack_bots, parse_bots
from uno_sim.engine.batch import run_chunk, run_key
from uno_sim.engine.threads import split_run
from uno_sim.game.rules import Rules


def _chunk(start, n, workers, rules=Rules(players=5)):
    packed = rules.pack()
    codes, params = pack_bots(parse_bots("random,expert,random,greedy,random", rules.players))
    return run_chunk(packed, codes, params, run_key(9), start, n, workers=workers)


def test_rows_do_not_depend_on_threads_or_chunk_boundaries():
    whole = _chunk(0, 1001, workers=1)
    assert np.array_equal(whole, _chunk(0, 1001, workers=2))
    pieces = np.concatenate([_chunk(0, 333, workers=2), _chunk(333, 1, workers=2), _chunk(334, 667, workers=1)])
    assert np.array_equal(whole, pieces)
    assert len(np.unique(whole[:, 2])) > 10  # real games of varying length, not empty rows


def test_split_run_covers_every_index_once():
    seen = np.zeros(1003, dtype=np.int64)

    def kernel(lo, hi):
        seen[lo:hi] += 1

    for workers in (1, 2, 3):
        seen[:] = 0
        split_run(kernel, len(seen), workers)
        assert (seen == 1).all()
