"""Sum sets (sum_jump_in) and hand-sum wins (hand_sum_win): questions about number cards adding up.

A sum set for a number card N is two or more number cards of one hand adding up to N (0s count
0), all of N's colour under `same_color`, any colours under `any_color`; with
`sum_jump_win_only` it must be the whole hand. Only the number faces 0..N can be part of one,
so the work is a small subset sum over at most 40 face counts, done only while the knob is on.

`collect` lists the usable faces of a hand in face order (colour R, Y, G, B, then number) at
O_SUM_FACES with their counts at O_SUM_AVAIL; `has_sum_set` answers "is there one" with a
bitmask subset sum; `sum_sets` enumerates the distinct sets (each a distinct multiset of
faces) in a fixed order, to count them, find the best by a score, or write one at O_PLAYED.
"""

from .jit import njit

from ..cards import WILD
from ..knobs import K
from .rules_check import hand
from .sigs import B, G, I
from .state import O_HSIZE, O_PLAYED, O_SUM_AVAIL, O_SUM_FACES, O_SUM_TAKE

# sum_sets `rank`: how the sets are looked at
ENUMERATE = 0  # count them, or (pick >= 0) write the pick-th
MOST_CARDS = 1  # the index of the set with the most cards; ties: the first


@njit(I(G, I, I), cache=True)
def collect(g, p, f):
    """The number faces p could put in a sum set for number face f, in face order, at
    O_SUM_FACES (their counts at O_SUM_AVAIL); returns how many faces."""
    n = f % 13
    color = f // 13
    same = g[K.sum_jump_in] == 1
    h = hand(p)
    m = 0
    for c in range(4):
        if same and c != color:
            continue
        for v in range(n + 1):
            face = c * 13 + v
            k = g[h + face]
            if k > 0:
                g[O_SUM_FACES + m] = face
                g[O_SUM_AVAIL + m] = k
                m += 1
    return m


@njit(B(G, I, I), cache=True)
def has_sum_set(g, p, f):
    """May p put down a sum set for number face f now (sum_jump_in, sum_jump_win_only)?"""
    n = f % 13
    size = g[O_HSIZE + p]
    if size < 2:
        return False
    if g[K.sum_jump_win_only]:
        if size > n + 4:  # at most n cards of 1 or more, and four 0s
            return False
        m = collect(g, p, f)
        total = 0
        cards = 0
        for i in range(m):
            k = g[O_SUM_AVAIL + i]
            total += k * (g[O_SUM_FACES + i] % 13)
            cards += k
        return cards == size and total == n
    m = collect(g, p, f)
    full = (1 << (n + 1)) - 1
    one = 0  # bit s: sum s reachable with exactly one card of 1 or more
    two = 0  # bit s: sum s reachable with two or more such cards
    zeros = 0
    for i in range(m):
        v = g[O_SUM_FACES + i] % 13
        k = g[O_SUM_AVAIL + i]
        if v == 0:
            zeros += k
            continue
        for _ in range(k):
            two = (two | (two << v) | (one << v)) & full
            one = (one | (1 << v)) & full
    bit = 1 << n
    if two & bit:
        return True
    if (one & bit) and zeros >= 1:
        return True
    return n == 0 and zeros >= 2


@njit(I(G, I, I, I, I, I), cache=True)
def sum_sets(g, m, n, whole, pick, rank):
    """Walk the sum sets over the m faces collected at O_SUM_FACES / O_SUM_AVAIL adding up to n
    (two or more cards; `whole` > 0: exactly that many cards, the whole hand).

    The sets are visited in a fixed order: depth first over the faces in face order, taking 0,
    1, 2 ... copies of each. rank ENUMERATE: with pick < 0 returns how many sets there are;
    with pick >= 0 writes the pick-th set at O_PLAYED in face order and returns its size.
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
        v = g[O_SUM_FACES + i] % 13
        if t >= 0:  # undo this face's current count before trying the next
            s -= t * v
            c -= t
        t += 1
        if t > g[O_SUM_AVAIL + i] or s + t * v > n:
            g[O_SUM_TAKE + i] = -1
            i -= 1
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
                        g[O_PLAYED + k] = g[O_SUM_FACES + j]
                        k += 1
                return k
        elif c > best_score:
            best = found
            best_score = c
        found += 1
    if rank != ENUMERATE:
        return best
    return found


@njit(B(G, I, I), cache=True)
def hand_sum_claims(g, q, n):
    """q's hand holds only number cards, at least one, adding up to n (hand_sum_win)."""
    size = g[O_HSIZE + q]
    if size == 0 or size > n + 4:  # at most n cards of 1 or more, and four 0s
        return False
    h = hand(q)
    if g[h + WILD] > 0 or g[h + WILD + 1] > 0:
        return False
    total = 0
    for c in range(4):
        base = h + c * 13
        for s in range(10, 13):
            if g[base + s] > 0:
                return False
        for v in range(1, 10):
            total += v * g[base + v]
    return total == n
