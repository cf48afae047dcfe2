"""Sum sets and hand sums (engine/sumsets.py) against a brute force over every sub-multiset of
random hands: the existence test and its per-seat cache, the enumeration of distinct sets
(each once, in face order), the largest set, and the hand-sum test."""

import itertools

import numpy as np
import pytest
from numba import njit

from uno_sim.engine import state as S
from uno_sim.engine.sumsets import ENUMERATE, MOST_CARDS, collect, has_sum_set, hand_sum_claims, stale, sum_sets
from uno_sim.engine.unowned import keep_alive, unowned
from uno_sim.game.rules import Rules


@njit(cache=True)
def _answers(owner, f, whole):
    """(has_sum_set for face f, every set found by enumeration, index of the largest)."""
    g = unowned(owner)
    stale(g, 0)
    has = has_sum_set(g, 0, f)
    n = f % 13
    m = collect(g, 0, f)
    count = sum_sets(g, m, n, whole, -1, ENUMERATE)
    out = np.full((count, 16), -1, dtype=np.int64)
    for r in range(count):
        k = sum_sets(g, m, n, whole, r, ENUMERATE)
        for j in range(k):
            out[r, j] = g[S.O_PLAYED + j]
    best = sum_sets(g, m, n, whole, -1, MOST_CARDS)
    keep_alive(owner)
    return has, out, best


@njit(cache=True)
def _hand_sum(owner, n):
    g = unowned(owner)
    stale(g, 0)
    result = hand_sum_claims(g, 0, n)
    keep_alive(owner)
    return result


def _game(rules, hand):
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[: S.N_CONFIG] = S.make_config(rules.pack(), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    for f in hand:
        g[S.O_HANDS + f] += 1
    g[S.O_HSIZE] = len(hand)
    return g


def _brute_force(hand, f, same, whole):
    """Every distinct sub-multiset of 2+ number cards adding up to f's number (sorted faces)."""
    n = f % 13
    sets = set()
    for r in range(2, len(hand) + 1):
        for comb in itertools.combinations(sorted(hand), r):
            if whole and r != len(hand):
                continue
            if all(c < 52 and c % 13 < 10 for c in comb) and sum(c % 13 for c in comb) == n:
                if not same or all(c // 13 == f // 13 for c in comb):
                    sets.add(comb)
    return sets


DECK = [f for f in range(54) for _ in range(4 if f >= 52 else (1 if f % 13 == 0 else 2))]


def _random_hand(rng, f=None):
    """A hand of 1-11 cards: from the whole deck, from the low numbers, or (given the face f
    played) mostly from f's colour; small hands a third of the time (for whole-hand sets)."""
    size = int(rng.integers(1, 5)) if rng.random() < 1 / 3 else int(rng.integers(1, 12))
    kind = rng.integers(0, 4)
    if kind == 3 and f is not None:  # numbers adding up to f's number, mostly of its colour
        hand, left = [], f % 13
        while left > 0:
            v = int(rng.integers(1, left + 1))
            color = f // 13 if rng.random() < 0.8 else int(rng.integers(0, 4))
            hand.append(color * 13 + v)
            left -= v
        if rng.random() < 0.3:
            hand.append(int(rng.integers(0, 4)) * 13)
        return [f for i, f in enumerate(hand) if hand[:i].count(f) < (1 if f % 13 == 0 else 2)]  # the deck's copies
    deck = DECK
    if kind == 1:
        deck = [c for c in DECK if c < 52 and c % 13 <= 5]
    elif kind == 2 and f is not None:
        deck = [c for c in DECK if c < 52 and c % 13 <= f % 13 and (c // 13 == f // 13 or rng.random() < 0.2)]
    size = min(size, len(deck))
    return [deck[i] for i in rng.choice(len(deck), size=size, replace=False)]


@pytest.mark.parametrize("mode, win_only", [("same_color", False), ("any_color", False),
                                            ("same_color", True), ("any_color", True)])
def test_sum_sets_match_a_brute_force(mode, win_only):
    rules = Rules(sum_jump_in=mode, sum_jump_win_only=win_only)
    rng = np.random.default_rng(17)
    found_any = 0
    for _ in range(400):
        f = int(rng.integers(0, 4)) * 13 + int(rng.integers(0, 10))
        hand = _random_hand(rng, f)
        whole = len(hand) if win_only else 0
        has, out, best = _answers(_game(rules, hand), f, whole)
        sets = [tuple(int(x) for x in row if x >= 0) for row in out]
        want = _brute_force(hand, f, mode == "same_color", win_only)
        assert len(sets) == len(set(sets)), sets  # each distinct multiset once
        assert all(list(s) == sorted(s) for s in sets)  # written in face order
        assert set(sets) == want, (hand, f)
        assert has == bool(want), (hand, f)
        if want:
            found_any += 1
            assert len(sets[best]) == max(len(s) for s in want)
        else:
            assert best == -1
    assert found_any > 20


def test_hand_sum_matches_a_brute_force():
    rng = np.random.default_rng(18)
    for _ in range(400):
        hand = _random_hand(rng)
        n = int(rng.integers(0, 10))
        numbers = all(f < 52 and f % 13 < 10 for f in hand)
        want = bool(hand) and numbers and sum(f % 13 for f in hand) == n
        assert _hand_sum(_game(Rules(hand_sum_win=True), hand), n) == want, (hand, n)


def test_the_cache_follows_the_hand():
    """has_sum_set reads a per-seat cache; a hand change marked stale is seen."""
    rules = Rules(sum_jump_in="any_color")
    g = _game(rules, [1, 14])  # R1, Y1: adds up to 2
    assert _answers(g, 2, 0)[0]
    g[S.O_HANDS + 14] = 0
    g[S.O_HANDS + 16] = 1  # Y3 instead of Y1 (the helper marks the seat stale)
    assert not _answers(g, 2, 0)[0] and _answers(g, 4, 0)[0]
