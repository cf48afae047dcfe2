"""The engine's fast paths against the plain definitions they replace, on random positions.

Each speed-up must give exactly what the straightforward code gives, decision for decision and
draw for draw (runs are reproducible from their seed across versions): the expert's and the
greedy bot's choice of card against a scan of every candidate scored card by card, the random
bot's answers and picks against a scan of every candidate, the held-candidate mask and
lowest_bit against their definitions, step against the modulo, shuffle against one randint
at a time.
"""

import numpy as np
import pytest
from numba import njit

from uno_sim.game.bots import Bot, pack_bots
from uno_sim.game.cards import N_FACES, WILD
from uno_sim.game.decks import ROLE_DRAW_TWO, ROLE_WILD_DRAW_FOUR
from uno_sim.engine import state as S
from uno_sim.engine.access import n_candidates
from uno_sim.engine.bots import strategy, uniform
from uno_sim.engine.rng import randint, seed_game, shuffle
from uno_sim.engine.rules_check import (
    candidate,
    held_candidates,
    legal_answer,
    legal_turn_card,
    lowest_bit,
    turn_candidate,
    turn_candidates,
)
from uno_sim.engine.seats import step
from uno_sim.engine.unowned import keep_alive, unowned
from uno_sim.game.presets import load as load_preset
from uno_sim.game.rules import Rules

# ---------------------------------------------------------------- compiled entry points


@njit(cache=True)
def _best_turn_card(owner, p, color, top):
    g = unowned(owner)
    f = strategy.best_turn_card(g, p, color, top)
    keep_alive(owner)
    return f


@njit(cache=True)
def _best_by_definition(owner, p, color, top):
    """best_turn_card as docs/BOTS.md states it: every candidate, legal ones scored one by one
    (expert_score / greedy_score), the lowest score first met wins."""
    g = unowned(owner)
    expert = strategy.is_expert(g, p)
    danger = expert and strategy.danger_next(g, p)
    best = -1
    best_score = strategy.NO_CHOICE
    for i in range(turn_candidates(g)):
        f = turn_candidate(g, i, color, top)
        if f >= 0 and legal_turn_card(g, p, f, color, top, False):
            keep = strategy.keep_after(g, p, f)
            if expert:
                score = strategy.expert_score(g, p, f, danger, keep)
            else:
                score = strategy.greedy_score(g, p, f, keep)
            if score < best_score:
                best = f
                best_score = score
    keep_alive(owner)
    return best


@njit(cache=True)
def _answer(owner, p, color, top, pkind):
    g = unowned(owner)
    f = uniform.choose_answer(g, p, color, top, pkind)
    keep_alive(owner)
    return f


@njit(cache=True)
def _answer_by_definition(owner, p, color, top, pkind):
    """Uniform over the physical cards that may answer: one draw, candidates in order."""
    g = unowned(owner)
    h = S.O_HANDS + p * S.HAND_WIDTH
    total = 0
    for i in range(n_candidates(g)):
        f = candidate(g, i, color, top)
        if f >= 0 and legal_answer(g, p, f, color, top, pkind):
            total += g[h + f]
    result = -1
    if total > 0:
        r = randint(g, total)
        for i in range(n_candidates(g)):
            f = candidate(g, i, color, top)
            if f >= 0 and legal_answer(g, p, f, color, top, pkind):
                r -= g[h + f]
                if r < 0:
                    result = f
                    break
    keep_alive(owner)
    return result


@njit(cache=True)
def _pick(owner, p, color, top):
    g = unowned(owner)
    f = uniform._pick_legal(g, S.O_HANDS + p * S.HAND_WIDTH, color, top)
    keep_alive(owner)
    return f


@njit(cache=True)
def _pick_slowly(owner, p, color, top):
    g = unowned(owner)
    f = uniform._pick_legal_slowly(g, p, color, top)
    keep_alive(owner)
    return f


@njit(cache=True)
def _held(owner, p, color, top):
    g = unowned(owner)
    mask = held_candidates(g, p, color, top)
    keep_alive(owner)
    return mask


@njit(cache=True)
def _candidate(owner, i, color, top):
    g = unowned(owner)
    f = candidate(g, i, color, top)
    keep_alive(owner)
    return f


@njit(cache=True)
def _lowest(mask):
    return lowest_bit(mask)


@njit(cache=True)
def _step(owner, p, k):
    g = unowned(owner)
    q = step(g, p, k)
    keep_alive(owner)
    return q


@njit(cache=True)
def _shuffle(owner, start, n):
    shuffle(unowned(owner), start, n)
    keep_alive(owner)


@njit(cache=True)
def _shuffle_one_draw_at_a_time(owner, start, n):
    g = unowned(owner)
    for i in range(n - 1, 0, -1):
        j = randint(g, i + 1)
        tmp = g[start + i]
        g[start + i] = g[start + j]
        g[start + j] = tmp
    keep_alive(owner)


# ---------------------------------------------------------------- random positions


def _position(rng, rules, codes, set_in_force=False):
    """A game array with random hands (1-11 cards of random faces), a random
    top card, colour, direction and seat to act; maybe a sum set in force."""
    n = rules.players
    _, params = pack_bots([Bot("expert")] * n)
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[: S.N_CONFIG] = S.make_config(rules.pack(), np.array(codes), params)
    seed_game(g, np.uint64(99), int(rng.integers(1 << 30)))
    g[S.S_PLAYERS] = n
    g[S.S_NACTIVE] = n
    g[S.S_DIR] = rng.choice([-1, 1])
    for q in range(n):
        size = int(rng.integers(1, 12))
        faces = rng.integers(0, N_FACES, size=size)
        h = S.O_HANDS + q * S.HAND_WIDTH
        for f in faces:
            g[h + f] += 1
        g[S.O_HSIZE + q] = size
    top = int(rng.integers(0, N_FACES))
    g[S.O_DISC] = top
    g[S.S_NDISC] = 1
    color = top // 13 if top < WILD else int(rng.integers(0, 4))
    g[S.S_COLOR] = color
    g[S.S_PREV_COLOR] = color
    if set_in_force:
        g[S.S_SET_COLORS] = int(rng.integers(1, 16))
        g[S.S_SET_NUMS] = int(rng.integers(1, 1 << 10))
    return g, int(rng.integers(0, n)), color, top


RULE_SETS = {
    "standard": Rules(),
    "house": load_preset("house"),
    "number-finish": load_preset("number-finish"),
    "teams": load_preset("teams"),
    "two players": Rules(players=2, two_player_reverse="noop"),
    "stacking, seven-0": Rules(stack_draw_two=True, seven_swap=True, zero_rotate=True, number_finish=True),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_best_turn_card_is_the_best_scored_legal_candidate(name):
    rules = RULE_SETS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    codes_choices = [2, 1, 3]  # expert, greedy, bluffer (layout.BOT)
    for trial in range(3000):
        codes = [codes_choices[int(rng.integers(0, 3))] for _ in range(rules.players)]
        g, p, color, top = _position(rng, rules, codes, set_in_force=trial % 10 == 0)
        # small hands for the next players now and then: the expert's attack tiers
        if trial % 3 == 0:
            for q in range(rules.players):
                if q != p:
                    h = S.O_HANDS + q * S.HAND_WIDTH
                    g[h : h + N_FACES] = 0
                    g[h + int(rng.integers(0, N_FACES))] = 1
                    g[S.O_HSIZE + q] = 1
        expected = _best_by_definition(g, p, color, top)
        assert _best_turn_card(g, p, color, top) == expected, (name, trial)


@pytest.mark.parametrize("name", ["house", "standard", "stacking, seven-0"])
def test_random_answers_and_picks_match_a_scan_of_every_candidate(name):
    rules = RULE_SETS[name]
    rng = np.random.default_rng(5 + len(name))
    for trial in range(3000):
        g, p, color, top = _position(rng, rules, [0] * rules.players)
        pkind = (ROLE_DRAW_TWO, ROLE_WILD_DRAW_FOUR)[trial % 2]
        a, b = g.copy(), g.copy()
        assert _answer(a, p, color, top, pkind) == _answer_by_definition(b, p, color, top, pkind)
        assert np.array_equal(a[S.O_RNG : S.O_RNG + 4], b[S.O_RNG : S.O_RNG + 4])  # the same draws
        if not rules.number_finish:
            a, b = g.copy(), g.copy()
            assert _pick(a, p, color, top) == _pick_slowly(b, p, color, top)
            assert np.array_equal(a[S.O_RNG : S.O_RNG + 4], b[S.O_RNG : S.O_RNG + 4])


def test_held_candidates_marks_exactly_the_held_candidate_faces():
    rng = np.random.default_rng(3)
    rules = Rules()
    for _ in range(2000):
        g, p, color, top = _position(rng, rules, [0] * rules.players)
        h = S.O_HANDS + p * S.HAND_WIDTH
        expected = 0
        for i in range(18):
            f = _candidate(g, i, color, top)
            if f >= 0 and g[h + f] > 0:
                expected |= 1 << i
        assert _held(g, p, color, top) == expected


def test_classic_candidates_are_the_arithmetic_they_replace():
    """The candidate order of the classic deck: the 13 faces of the colour, the top symbol in the
    other three colours (none for a wild top), Wild, Wild Draw Four (the random bot's draws
    follow it, so runs stay reproducible across versions)."""
    rules = Rules()
    _, params = pack_bots([Bot("random")] * rules.players)
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[: S.N_CONFIG] = S.make_config(rules.pack(), np.zeros(rules.players, dtype=np.int64), params)
    for color in range(4):
        for top in range(N_FACES):
            old = [color * 13 + s for s in range(13)]
            old += [c * 13 + top % 13 if top < WILD else -1 for c in range(4) if c != color]
            old += [WILD, WILD + 1]
            assert [_candidate(g, i, color, top) for i in range(18)] == old


def test_lowest_bit():
    for i in range(32):
        assert _lowest(np.int64(1 << i)) == i
    rng = np.random.default_rng(1)
    for mask in rng.integers(1, 1 << 32, size=5000):
        assert _lowest(np.int64(mask)) == (int(mask) & -int(mask)).bit_length() - 1


@pytest.mark.parametrize("n", range(2, 11))
def test_step_is_the_seat_k_places_on(n):
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[S.S_PLAYERS] = n
    g[S.S_NACTIVE] = n
    for d in (1, -1):
        g[S.S_DIR] = d
        for p in range(n):
            for k in range(-25, 26):
                assert _step(g, p, k) == (p + d * k) % n


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 108])
def test_shuffle_draws_as_randint_one_at_a_time(n):
    g = np.zeros(S.N_GAME, dtype=np.int64)
    seed_game(g, np.uint64(5), 11)
    g[S.O_PILE : S.O_PILE + n] = np.arange(n) * 3 + 1
    a, b = g.copy(), g.copy()
    _shuffle(a, S.O_PILE, n)
    _shuffle_one_draw_at_a_time(b, S.O_PILE, n)
    assert np.array_equal(a, b)  # the same permutation and the generator left in the same state
