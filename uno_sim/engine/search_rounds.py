"""The rounds the search bot plays (docs/BOTS.md, "search"): its rollouts, the choice among
its candidate moves by rollouts, its plan for the coming turn, and rounds with search bots.

What the bot considers and knows is bots/search.py; this module is the part that plays, so
it sits above the round code: search_rounds -> play -> bots.dispatch, and search_rounds ->
bots.search, bots.planned. Nothing imports this module but batch.py and match.py, which
play every round through `play_round_any`.

The round with search bots is played by `continue_searching` (one regular turn at a time,
planning before each search bot's turn); batch.py and match.py use it whenever a seat plays
`search`.
"""

import numpy as np

from .jit import njit

from ..game.knobs import K
from . import layout as L
from .access import param
from .bots import planned
from .bots.search import (
    CONFIDENCE_Z,
    MAX_MOVES,
    POOL,
    ROLLOUT_CODES,
    candidate_moves,
    decision_key,
    expert_move,
    has_search,
    observe,
    outcome,
    redeal,
    seat_rollout_bot,
)
from .play import continue_round, setup_round
from .rng import seed_game
from .sumsets import stale
from .state import (
    N_GAME,
    O_ASIDE,
    O_BOTS,
    O_CAPACITY,
    O_DECK,
    O_DECK_END,
    O_EXT_SEATS,
    O_DISC,
    O_HSIZE,
    O_PILE,
    O_REC,
    S_CHAL_OK,
    S_COLOR,
    S_ENDED,
    S_NASIDE,
    S_NDISC,
    S_NEXT,
    S_NPILE,
    S_PENDING,
    S_TRACING,
)


# ---------------------------------------------------------------- rollouts and the plan


@njit(cache=True)
def copy_deck(g, s):
    """The deck's tables into the scratch game (once per decision: rollouts never change them)."""
    for i in range(O_DECK, O_DECK_END):
        s[i] = g[i]


@njit(cache=True)
def rollout(g, s, p, pool, f, c, key, j, code, objective):
    """One rollout: determinization j of p's view, move (f, c), then the rollout policy. The
    game is copied into s but for the deck's tables (copy_deck), the unused ends of the piles,
    and the cards of a play and the work space (written before they are read)."""
    for i in range(O_DECK):
        s[i] = g[i]
    for i in range(O_DECK_END, O_PILE):
        s[i] = g[i]
    for i in range(g[S_NPILE]):
        s[O_PILE + i] = g[O_PILE + i]
    for i in range(g[S_NDISC]):
        s[O_DISC + i] = g[O_DISC + i]
    for i in range(g[S_NASIDE]):  # cards set aside by the mercy rule
        s[O_ASIDE + i] = g[O_ASIDE + i]
    s[O_CAPACITY] = N_GAME
    s[S_TRACING] = 0
    s[O_EXT_SEATS] = 0  # a rollout plays every seat with compiled bots (no tape in the scratch game)
    seed_game(s, key, j)
    redeal(s, p, pool)
    for q in range(s[K.players]):  # the hands changed: their sum caches (not copied) are stale
        stale(s, q)
    for q in range(s[K.players]):  # p keeps its own bot for the turn: the move, then the expert's rules
        if q != p:
            seat_rollout_bot(s, q, code)
    planned.set_plan(s, p, f, c)
    continue_round(s, 1)
    planned.clear_plan(s)
    if s[S_ENDED] == 0:
        seat_rollout_bot(s, p, code)
        continue_round(s, -1)
    return outcome(s, p, objective)


@njit(cache=True)
def evaluate(g, s, p, faces, colors, k, e, which, first, per, gain, gain_sq, pool, key, code, objective):
    """Determinizations first .. first + per - 1, each played with move e (the expert's
    choice) and with every move i where which[i] is set: gain[i] (gain_sq[i]) sums the
    difference (its square) between move i's outcome and move e's."""
    for i in range(k):
        gain[i] = 0.0
        gain_sq[i] = 0.0
    for j in range(first, first + per):
        base = rollout(g, s, p, pool, faces[e], colors[e], key, j, code, objective)
        for i in range(k):
            if i != e and which[i]:
                d = float(rollout(g, s, p, pool, faces[i], colors[i], key, j, code, objective) - base)
                gain[i] += d
                gain_sq[i] += d * d


@njit(cache=True)
def choose(g, s, p, faces, colors, k, e, pool):
    """The move to play: the expert's choice e, unless another move proves better. Half the
    budget screens every move against e on the same determinizations; the move with the
    largest mean gain (if positive) is then confirmed against e on fresh determinizations
    with the other half, and replaces e only when its mean gain there exceeds CONFIDENCE_Z
    standard errors (a fresh test, so the screen's luckiest move is not taken on luck).
    A budget below two rollouts per move plays e."""
    budget = param(g, p, L.BP.rollouts)
    code = ROLLOUT_CODES[param(g, p, L.BP.rollout_policy)]
    objective = param(g, p, L.BP.objective)
    key = decision_key(g, p)
    screen = budget // (2 * k)
    if screen < 1:  # too small a budget to screen every move once
        return e
    copy_deck(g, s)
    which = np.ones(k, dtype=np.bool_)
    gain = np.zeros(k, dtype=np.float64)
    gain_sq = np.zeros(k, dtype=np.float64)
    evaluate(g, s, p, faces, colors, k, e, which, 0, screen, gain, gain_sq, pool, key, code, objective)
    best = -1
    for i in range(k):
        if i != e and gain[i] > 0 and (best < 0 or gain[i] > gain[best]):
            best = i
    if best < 0:
        return e
    confirm = max(2, budget // 4)
    for i in range(k):
        which[i] = i == best
    evaluate(g, s, p, faces, colors, k, e, which, screen, confirm, gain, gain_sq, pool, key, code, objective)
    mean = gain[best] / confirm
    var = (gain_sq[best] - confirm * mean * mean) / (confirm - 1)
    se = np.sqrt(max(var, 0.0) / confirm)
    return best if mean > CONFIDENCE_Z * se and mean > 0 else e


@njit(cache=True)
def plan_move(g, s, p):
    """Plan search bot p's move for the turn it is about to take (nothing to plan when it
    has one move only, or when it may first challenge a Wild Draw Four: then the expert's
    rules decide the whole turn)."""
    planned.clear_plan(g)
    if g[S_PENDING] > 0 and g[S_CHAL_OK] != 0:
        return
    faces = np.empty(MAX_MOVES, dtype=np.int64)
    colors = np.empty(MAX_MOVES, dtype=np.int64)
    k = candidate_moves(g, p, faces, colors)
    if k <= 1:
        return
    pool = np.empty(POOL, dtype=np.int64)
    e = expert_move(g, p, faces, colors, k)
    best = choose(g, s, p, faces, colors, k, e, pool)
    planned.set_plan(g, p, faces[best], colors[best])


# ---------------------------------------------------------------- rounds with search bots


@njit(cache=True)
def continue_searching(g, s, max_steps):
    """continue_round (play.py), planning each search bot's move before its turn; s is the
    scratch game for the rollouts."""
    if g[S_ENDED] != 0:
        continue_round(g, 0)  # scores a round that ended before any turn
        return
    steps = 0
    sizes = np.empty(L.MAX_PLAYERS, dtype=np.int64)
    while g[S_ENDED] == 0 and steps != max_steps:
        p = g[S_NEXT]
        if g[O_BOTS + p] == L.BOT.search:
            plan_move(g, s, p)
        pending = g[S_PENDING]
        color = g[S_COLOR]
        ndisc = g[S_NDISC]
        moved = g[O_REC + L.COL_SWAPS] + g[O_REC + L.COL_ROTATIONS]
        for q in range(g[K.players]):
            sizes[q] = g[O_HSIZE + q]
        continue_round(g, 1)
        planned.clear_plan(g)
        observe(g, p, pending, color, ndisc, moved, sizes)
        steps += 1


@njit(cache=True)
def play_round_any(g, s, dealer, tracing, trace_start):
    """play_round (play.py), through continue_searching when a seat plays `search`."""
    setup_round(g, dealer, tracing, trace_start)
    if has_search(g, g[K.players]):
        continue_searching(g, s, -1)
    else:
        continue_round(g, -1)
