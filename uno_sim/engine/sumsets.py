"""Sum sets (sum_jump_in) and hand-sum wins (hand_sum_win): questions about number cards adding up.

A sum set for a number card N is two or more number cards of one hand adding up to N (0s count
0), all of N's colour under `same_color`, any colours under `any_color`; with
`sum_jump_win_only` it must be the whole hand. Only the number faces 0..N can be part of one,
so the work is a small subset sum over at most 40 face counts (4 colours x 0-9), done only
while the knob is on. The number faces are looked up in the deck's tables (access.number_face;
NO_FACE, always held 0 times, for a number the deck lacks).

`collect` lists the usable faces of a hand in face order (colour R, Y, G, B, then number) at
O_SUM_FACES with their counts at O_SUM_AVAIL; `has_sum_set` answers "is there one" with a
bitmask subset sum; `sum_sets` enumerates the distinct sets (each a distinct multiset of
faces) in a fixed order, to count them, find the best by a score, or write one at O_PLAYED.
"""

import numpy as np

from .jit import njit, njit_typed

from ..game.knobs import K
from .access import N_COLORS, N_NUMBERS, color_of, hand, most_copies, number_face, number_of, same_copies, zero_cards
from .sigs import G, I, VOID
from .state import O_HSIZE, O_PLAYED, O_SUM_AVAIL, O_SUM_CACHE, O_SUM_FACES, O_SUM_REST, O_SUM_TAKE, SUM_CACHE_WIDTH

# The per-seat cache at O_SUM_CACHE + seat * SUM_CACHE_WIDTH (state.py): what the hand can do
# with sums, recomputed (refresh) only after the hand changed (stale).
C_VALID = 0  # 0: stale
C_HAND_SUM = 1  # the sum of the hand when it holds only number cards, at least one; else -1
C_ANY = 2  # bit N: a sum set for N of any colours (any_color), under sum_jump_win_only too
C_SAME = 3  # + colour: bit N: a sum set for N of that colour (same_color)
FULL_MASK = (1 << N_NUMBERS) - 1  # sums 0..9

# sum_sets `rank`: how the sets are looked at
ENUMERATE = 0  # count them, or (pick >= 0) write the pick-th
MOST_CARDS = 1  # the index of the set with the most cards; ties: the first


@njit_typed(I(G, I, I), cache=True)
def collect(g, p, f):
    """The number faces p could put in a sum set for number face f, at O_SUM_FACES (their counts
    at O_SUM_AVAIL), the highest number first (then colour R, Y, G, B), and at O_SUM_REST + i
    the most the faces i, i+1, ... can add up to; returns how many faces."""
    n = number_of(g, f)
    color = color_of(g, f)
    same = g[K.sum_jump_in] == 1
    h = hand(p)
    m = 0
    for v in range(n, -1, -1):
        for c in range(N_COLORS):
            if same and c != color:
                continue
            face = number_face(g, c, v)
            k = g[h + face]
            if k > 0:
                g[O_SUM_FACES + m] = face
                g[O_SUM_AVAIL + m] = k
                m += 1
    rest = 0
    g[O_SUM_REST + m] = 0
    for i in range(m - 1, -1, -1):
        rest += g[O_SUM_AVAIL + i] * number_of(g, g[O_SUM_FACES + i])
        g[O_SUM_REST + i] = rest
    return m


@njit(cache=True, inline="always")
def stale(g, p):
    """p's hand changed: its sum cache must be recomputed before it is read again."""
    g[O_SUM_CACHE + p * SUM_CACHE_WIDTH] = 0


@njit_typed(I(I, I, I), cache=True)
def sums_mask(one, two, zeros):
    """The sums N (bits) a sum set can reach, from the sums reachable with exactly one card of 1
    or more (`one`), with two or more (`two`), and the number of 0s: two or more cards of 1 or
    more; one card and a 0; two 0s for N = 0."""
    mask = two
    if zeros >= 1:
        mask |= one
    if zeros >= 2:
        mask |= 1
    return mask


@njit(cache=True)
def refresh(g, p):
    """p's sum cache, recomputed if stale; returns its offset (read it at + C_*)."""
    base = O_SUM_CACHE + p * SUM_CACHE_WIDTH
    if g[base] == 0:
        recompute(g, p, base)
    return base


@njit_typed(VOID(G, I, I), cache=True)
def recompute(g, p, base):
    """Fill p's sum cache at base from its hand: one pass over the number faces."""
    h = hand(p)
    size = g[O_HSIZE + p]
    mode = g[K.sum_jump_in]
    win_only = g[K.sum_jump_win_only] != 0
    total = 0
    numbers = 0
    if mode == 2 and not win_only:  # any_color: the counts of each number over the four colours
        zeros = (g[h + number_face(g, 0, 0)] + g[h + number_face(g, 1, 0)] + g[h + number_face(g, 2, 0)]
                 + g[h + number_face(g, 3, 0)])
        numbers = zeros
        one = 0
        two = 0
        for v in range(1, N_NUMBERS):  # branch-free in the counts: the trip counts depend on v only
            k = (g[h + number_face(g, 0, v)] + g[h + number_face(g, 1, v)] + g[h + number_face(g, 2, v)]
                 + g[h + number_face(g, 3, v)])
            numbers += k
            total += k * v
            for j in range(1, most_copies(g, v) + 1):
                take = -np.int64(k >= j)  # all bits when this copy exists
                two = (two | (((two << v) | (one << v)) & take)) & FULL_MASK
                one = one | ((1 << v) & take)
        g[base + C_ANY] = sums_mask(one, two, zeros)
    elif mode == 1 and not win_only:  # same_color: one mask per colour
        for c in range(N_COLORS):
            zeros = g[h + number_face(g, c, 0)]
            numbers += zeros
            one = 0
            two = 0
            for v in range(1, N_NUMBERS):
                k = g[h + number_face(g, c, v)]
                numbers += k
                total += k * v
                for j in range(1, same_copies(g, v) + 1):
                    take = -np.int64(k >= j)
                    two = (two | (((two << v) | (one << v)) & take)) & FULL_MASK
                    one = one | ((1 << v) & take)
            g[base + C_SAME + c] = sums_mask(one, two, zeros)
    else:
        for c in range(N_COLORS):
            for v in range(1, N_NUMBERS):
                k = g[h + number_face(g, c, v)]
                numbers += k
                total += k * v
            numbers += g[h + number_face(g, c, 0)]
        if win_only:  # the whole hand: number cards only, two or more, adding up
            whole = 0
            if numbers == size and size >= 2 and total <= 9:
                whole = 1 << total
            g[base + C_ANY] = whole
            for c in range(N_COLORS):
                of_color = 0
                for v in range(N_NUMBERS):
                    of_color += g[h + number_face(g, c, v)]
                g[base + C_SAME + c] = whole if of_color == size else 0
    g[base + C_HAND_SUM] = total if (size > 0 and numbers == size) else -1
    g[base] = 1


@njit(cache=True)
def has_sum_set(g, p, f):
    """May p put down a sum set for number face f now (sum_jump_in, sum_jump_win_only)?"""
    base = refresh(g, p)
    if g[K.sum_jump_in] == 2:
        mask = g[base + C_ANY]
    else:
        mask = g[base + C_SAME + color_of(g, f)]
    return ((mask >> number_of(g, f)) & 1) != 0


@njit_typed(I(G, I, I, I, I, I), cache=True)
def sum_sets(g, m, n, whole, pick, rank):
    """Walk the sum sets over the m faces collected at O_SUM_FACES / O_SUM_AVAIL adding up to n
    (two or more cards; `whole` > 0: exactly that many cards, the whole hand).

    The sets are visited in a fixed order: depth first over the faces in collect's order (the
    highest number first), taking 0, 1, 2 ... copies of each. rank ENUMERATE: with pick < 0
    returns how many sets there are; with pick >= 0 writes the pick-th set at O_PLAYED in face
    order (colour R, Y, G, B, then number) and returns its size.
    rank MOST_CARDS: returns the index of the set with the most cards (the first of equals;
    -1 if none)."""
    if m == 0:
        return -1 if rank != ENUMERATE else 0
    found = 0
    best = -1
    best_score = -1
    i = 0
    s = 0
    c = 0
    g[O_SUM_TAKE] = -1
    while i >= 0:
        t = g[O_SUM_TAKE + i]
        v = number_of(g, g[O_SUM_FACES + i])
        if t >= 0:  # undo this face's current count before trying the next
            s -= t * v
            c -= t
        t += 1
        # done with this face: no more copies, past n, or n out of reach with all cards left
        if t > g[O_SUM_AVAIL + i] or s + t * v > n or s + g[O_SUM_REST + i] < n:
            g[O_SUM_TAKE + i] = -1
            i -= 1
            continue
        if s + t * v + g[O_SUM_REST + i + 1] < n:  # too few copies of this face to reach n
            g[O_SUM_TAKE + i] = t
            s += t * v
            c += t
            continue
        g[O_SUM_TAKE + i] = t
        s += t * v
        c += t
        if i < m - 1:
            i += 1
            g[O_SUM_TAKE + i] = -1
            continue
        if s != n or c < 2 or (whole > 0 and c != whole):
            continue
        if rank == ENUMERATE:
            if found == pick:
                k = 0
                for j in range(m):
                    for _ in range(g[O_SUM_TAKE + j]):
                        face = g[O_SUM_FACES + j]
                        at = k  # insertion into face order
                        while at > 0 and g[O_PLAYED + at - 1] > face:
                            g[O_PLAYED + at] = g[O_PLAYED + at - 1]
                            at -= 1
                        g[O_PLAYED + at] = face
                        k += 1
                return k
        elif c > best_score:
            best = found
            best_score = c
        found += 1
    if rank != ENUMERATE:
        return best
    return found


@njit(cache=True)
def hand_sum_claims(g, q, n):
    """q's hand holds only number cards, at least one, adding up to n (hand_sum_win)."""
    size = g[O_HSIZE + q]
    if size == 0 or size > n + zero_cards(g):  # at most n cards of 1 or more, and the deck's 0s
        return False
    return g[refresh(g, q) + C_HAND_SUM] == n
