"""Matches (SPEC 5): rounds in the engine until a side reaches the target.

The dealer and seat order carry from round to round; the first dealer is random. Scores
are kept per side (a seat, or a team under `teams`). `winner_takes`: the round winner's
side adds the round's `winner_points` (SPEC 3.7: losers' points, or placement scores under
`last_standing`); the first side to reach `target` wins (the highest total if several reach
it in the same round). `loser_penalty`: every side outside the winner's adds its own hand
points; when a side reaches `target` the match ends and the lowest total wins. Rounds with
no winner (void, stall, cap) score nothing; the dealer still passes to the left.
"""

import numpy as np
from numba import njit, prange

from . import layout as L
from .play import play_round
from .rng import randint, seed_game
from .state import N_GAME, O_PLACE, O_REC
from .unowned import N_BLOCKS, block_range, keep_alive, new_game, unowned

HISTORY_ROUNDS = 1024  # rounds whose running totals are kept (for the comeback metric)


@njit(cache=True, inline="always")
def side_of(g, seat):
    teams = g[L.R_TEAMS]
    return seat if teams == 0 else seat % teams


@njit(cache=True)
def score_round_into(g, totals):
    """Add the round just played (record at O_REC) to the side totals."""
    n = g[L.R_PLAYERS]
    w = g[O_REC + L.COL_WINNER]
    if w < 0:
        return
    ws = side_of(g, w)
    if g[L.R_MATCH_SCORING] == 0:  # winner_takes
        if g[L.R_MODE] == 1:  # last_standing: every player adds its placement score
            for q in range(n):
                totals[side_of(g, q)] += n + 1 - 2 * g[O_PLACE + q]
        else:
            totals[ws] += g[O_REC + L.COL_WINNER_POINTS]
    else:  # loser_penalty
        for q in range(n):
            if side_of(g, q) != ws:
                totals[side_of(g, q)] += g[O_REC + L.COL_POINTS + q]


@njit(cache=True)
def match_leader(g, totals, sides):
    """The side best placed: highest total (winner_takes) or lowest (loser_penalty); lowest index on ties."""
    best = 0
    for s in range(1, sides):
        if g[L.R_MATCH_SCORING] == 0:
            if totals[s] > totals[best]:
                best = s
        elif totals[s] < totals[best]:
            best = s
    return best


@njit(cache=True)
def play_match(g, key, match, out, history, dealers):
    """Play match number `match` into the record row `out` (layout.M_*). Side totals after
    each round go to history[round], the dealer of each round to dealers[round - 1]."""
    n = g[L.R_PLAYERS]
    sides = n if g[L.R_TEAMS] == 0 else g[L.R_TEAMS]
    target = g[L.R_TARGET]
    totals = history[0]
    for s in range(L.MAX_PLAYERS):
        totals[s] = 0
    out[:] = 0
    seed_game(g, key, match)
    dealer = randint(g, n)
    out[L.M_FIRST_DEALER] = dealer
    out[L.M_WINNER] = -1
    rounds = 0
    while rounds < L.MAX_MATCH_ROUNDS:
        if rounds < dealers.shape[0]:
            dealers[rounds] = dealer
        play_round(g, dealer, 0, N_GAME)
        rounds += 1
        out[L.M_TURNS] += g[O_REC + L.COL_TURNS]
        out[L.M_PLAYS] += g[O_REC + L.COL_PLAYS]
        out[L.M_DRAWS] += g[O_REC + L.COL_DRAWS]
        w = g[O_REC + L.COL_WINNER]
        if w < 0:
            out[L.M_NO_WINNER_ROUNDS] += 1
        else:
            out[L.M_ROUND_WINS + w] += 1
        score_round_into(g, totals)
        if rounds < history.shape[0]:
            history[rounds, :] = totals
        reached = False
        for s in range(sides):
            if totals[s] >= target:
                reached = True
        if reached:
            out[L.M_WINNER] = match_leader(g, totals, sides)
            break
        if g[L.R_NEXT_DEALER] == 1 and w >= 0:
            dealer = w
        else:
            dealer = (dealer + 1) % n
    out[L.M_ROUNDS] = rounds
    for s in range(sides):
        out[L.M_TOTALS + s] = totals[s]
    win = out[L.M_WINNER]
    if win >= 0 and sides > 1:
        runner_up = -1
        for s in range(sides):
            if s != win and (runner_up < 0 or (totals[s] > totals[runner_up] if g[L.R_MATCH_SCORING] == 0
                                               else totals[s] < totals[runner_up])):
                runner_up = s
        margin = totals[win] - totals[runner_up]
        out[L.M_MARGIN] = margin if g[L.R_MATCH_SCORING] == 0 else -margin
        mid = rounds // 2
        if 0 < mid < history.shape[0]:
            leader = match_leader(g, history[mid], sides)
            out[L.M_COMEBACK] = 1 if history[mid, leader] != history[mid, win] else 0


@njit(cache=True, parallel=True)
def _run_matches(config, key, start, out):
    n = out.shape[0]
    nb = min(N_BLOCKS, n)
    for b in prange(nb):
        lo, hi = block_range(n, nb, b)
        owner = new_game(config)
        g = unowned(owner)
        history = np.zeros((HISTORY_ROUNDS, L.MAX_PLAYERS), dtype=np.int64)
        dealers = np.zeros(HISTORY_ROUNDS, dtype=np.int64)
        for i in range(lo, hi):
            play_match(g, key, start + i, out[i], history, dealers)
        keep_alive(owner)
