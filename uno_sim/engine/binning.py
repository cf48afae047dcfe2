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


@njit(cache=True, nogil=True)
def add_cross_products(a, b, columns, upper, out):
    """out[j, k] += sum over rows i of a[i, j] * b[i, k] for k in `columns` (the columns of b
    not 0 throughout), exactly in int64: a paired comparison's per-game moments
    (stats/paired.py). `upper`: a is b, fill only k >= j (the rest is the mirror image).
    Per-game quantities are mostly 0 (who did not win, rules that did not come up), so each
    row's zeros in `a` are skipped."""
    nonzero = np.empty(a.shape[1], dtype=np.int64)
    for i in range(a.shape[0]):
        m = 0
        for j in range(a.shape[1]):
            if a[i, j] != 0:
                nonzero[m] = j
                m += 1
        for jj in range(m):
            j = nonzero[jj]
            x = a[i, j]
            for kk in range(columns.shape[0]):
                k = columns[kk]
                if upper and k < j:
                    continue
                out[j, k] += x * b[i, k]


@njit(cache=True, nogil=True)
def game_quantities(records, players, teams, rotate, n_reasons, hist_columns, cols, out):
    """Fill out[i] (zeros) with game i's per-game quantities in the order of
    stats.paired.quantity_names: 1, the winner's seat and bot slot as indicators, the reason
    as an indicator, each hist column's value and whether it is above 0, the winner's points
    and whether there is a winner, the losers' points and their number. `cols`: the record's
    columns (winner, winner bot, reason, winner points, first seat's points)."""
    col_winner, col_bot, col_reason, col_winner_points, col_points = cols[0], cols[1], cols[2], cols[3], cols[4]
    for i in range(records.shape[0]):
        out[i, 0] = 1
        w = records[i, col_winner]
        if w >= 0:
            out[i, 1 + w] = 1
            out[i, 1 + players + (records[i, col_bot] if rotate else w)] = 1
        out[i, 1 + 2 * players + records[i, col_reason]] = 1
        c = 1 + 2 * players + n_reasons
        for j in range(hist_columns.shape[0]):
            v = records[i, hist_columns[j]]
            out[i, c] = v
            out[i, c + 1] = 1 if v > 0 else 0
            c += 2
        if w >= 0:
            out[i, c] = records[i, col_winner_points]
            out[i, c + 1] = 1
            side = w % teams if teams else w
            for q in range(players):
                if (q % teams if teams else q) != side:
                    out[i, c + 2] += records[i, col_points + q]
                    out[i, c + 3] += 1
