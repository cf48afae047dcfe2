"""Record columns into integer histograms in one compiled pass (the hot part of aggregation).

Aggregating a chunk with numpy took a copy, a min, a max and a bincount per column: about a
tenth of a two-thread run, spent on the main thread while the workers played the next chunk
(simulate.py pipelines the two), so it came straight off the throughput. Here the ranges of
all columns come from one pass over the rows and the counts from one more.
"""

import numpy as np
from .jit import njit


@njit(cache=True, nogil=True)
def column_ranges(records, columns):
    """(lows, highs) of records[:, c] for each c in columns (records has at least one row)."""
    k = columns.shape[0]
    lows = np.empty(k, dtype=np.int64)
    highs = np.empty(k, dtype=np.int64)
    for j in range(k):
        lows[j] = records[0, columns[j]]
        highs[j] = records[0, columns[j]]
    for i in range(1, records.shape[0]):
        for j in range(k):
            v = records[i, columns[j]]
            if v < lows[j]:
                lows[j] = v
            elif v > highs[j]:
                highs[j] = v
    return lows, highs


@njit(cache=True, nogil=True)
def count_columns(records, columns, lows, starts, counts):
    """counts[starts[j] + v - lows[j]] += 1 for every value v of records[:, columns[j]]: the
    histograms of all columns side by side in one flat array, filled in one pass over the rows."""
    for i in range(records.shape[0]):
        for j in range(columns.shape[0]):
            counts[starts[j] + records[i, columns[j]] - lows[j]] += 1


@njit(cache=True, nogil=True)
def round_points(records, players, teams, col_winner, col_winner_points, col_points):
    """(winner_points of the games with a winner, the hand points of every loser in them);
    losers are the seats outside the winner's team (or everyone but the winner, teams = 0)."""
    n = records.shape[0]
    winners = np.empty(n, dtype=np.int64)
    losers = np.empty(n * players, dtype=np.int64)
    nw = 0
    nl = 0
    for i in range(n):
        w = records[i, col_winner]
        if w < 0:
            continue
        winners[nw] = records[i, col_winner_points]
        nw += 1
        side = w % teams if teams else w
        for q in range(players):
            if (q % teams if teams else q) != side:
                losers[nl] = records[i, col_points + q]
                nl += 1
    return winners[:nw], losers[:nl]
