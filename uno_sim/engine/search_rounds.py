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
from .access import deck_size, param
from .bots import planned
from .bots.search import (
    BATCH,
    CONFIDENCE_Z,
    DOMINANCE_Z,
    INFER_TRIES,
    SWITCH_Z,
    MAX_MOVES,
    MIN_ROUNDS,
    POOL,
    ROLLOUT_CODES,
    baseline_move,
    candidate_moves,
    decision_key,
    has_search,
    near_the_end,
    outcome,
    plays_as_seen,
    redeal,
    seat_rollout_bot,
    shuffle_pile,
)
from .play import continue_round, setup_round
from .table_view import hands_moved, saw_turn
from .rng import seed_game
from .sides import two_sided
from .sumsets import stale
from .state import (
    N_GAME,
    O_ASIDE,
    O_BOTS,
    O_CAPACITY,
    O_CARD_FACE,
    O_CARD_OTHER,
    O_OWNER,
    O_DECK,
    O_DECK_END,
    O_EXT_SEATS,
    O_KEEP_TURNS,
    O_DISC,
    O_HSIZE,
    O_PILE,
    O_REC,
    O_RNG,
    S_CHAL_OK,
    S_COLOR,
    S_ENDED,
    S_NASIDE,
    S_NDISC,
    S_NEXT,
    S_NPILE,
    S_PENDING,
    S_TRACING,
    SEEN_DEPTH,
    SEEN_SEAT,
    O_SEEN,
)


# ---------------------------------------------------------------- rollouts and the plan


@njit(cache=True)
def copy_deck(g, s):
    """The deck's tables into the scratch game (once per decision: rollouts never change them)."""
    for i in range(O_DECK, O_DECK_END):
        s[i] = g[i]


@njit(cache=True)
def copy_game(src, dst):
    """The part of game src a rollout reads into dst: all but the deck's tables (copy_deck),
    the turns seen of seats not at the table, the unused ends of the piles, and the cards of a
    play and the work space (written before they are read)."""
    for i in range(O_DECK):
        dst[i] = src[i]
    for i in range(O_DECK_END, O_SEEN + src[K.players] * SEEN_SEAT):
        dst[i] = src[i]
    for i in range(O_REC, O_PILE):
        dst[i] = src[i]
    for i in range(src[S_NPILE]):
        dst[O_PILE + i] = src[O_PILE + i]
    for i in range(src[S_NDISC]):
        dst[O_DISC + i] = src[O_DISC + i]
    for i in range(src[S_NASIDE]):  # cards set aside by the mercy rule
        dst[O_ASIDE + i] = src[O_ASIDE + i]
    if two_sided(src):  # a flip in a rollout turns the deck's tables over; the physical cards
        copy_deck(src, dst)
        for c in range(deck_size(src)):
            dst[O_CARD_FACE + c] = src[O_CARD_FACE + c]
            dst[O_CARD_OTHER + c] = src[O_CARD_OTHER + c]
            dst[O_OWNER + c] = src[O_OWNER + c]


@njit(cache=True)
def determinize(g, s, p, pool, key, j, code, sees):
    """Determinization j of p's view into s: g copied, the generator seeded for j, the other
    seats given the rollout policy, the hidden cards dealt (sees=fair) or the pile shuffled
    (sees=hands). With infer=plays / history (pro's rollouts, sees=fair) the deal is dealt
    again until every other player's turns kept are ones pro would have taken with the hand
    dealt (plays_as_seen); after INFER_TRIES deals, the deal that agreed with the most turns
    is dealt again (from the generator state it was dealt with)."""
    copy_game(g, s)
    s[O_CAPACITY] = N_GAME
    s[O_KEEP_TURNS] = 0  # nothing reads the turns seen in a rollout
    s[S_TRACING] = 0
    s[O_EXT_SEATS] = 0  # a rollout plays every seat with compiled bots (no tape in the scratch game)
    seed_game(s, key, j)
    for q in range(s[K.players]):  # p keeps its own bot for the turn: the move, then pro's rules
        if q != p:
            seat_rollout_bot(s, q, code)
    how = param(g, p, L.BP.infer)
    infer = sees == L.SEE.fair and code == L.BOT.pro and how != L.INFER.draws
    depth = SEEN_DEPTH if how == L.INFER.history else 1
    tries = 0
    best = -1
    state = np.empty(4, dtype=np.int64)
    best_state = np.empty(4, dtype=np.int64)
    while True:
        if infer:
            for i in range(4):
                state[i] = s[O_RNG + i]
        if sees == L.SEE.fair:
            redeal(s, p, pool)
        elif sees == L.SEE.hands:
            shuffle_pile(s)
        for q in range(s[K.players]):  # the hands changed: their sum caches (not copied) are stale
            stale(s, q)
        if not infer:
            break
        tries += 1
        same, passed = plays_as_seen(s, p, depth)
        if same or tries > INFER_TRIES:
            break
        if passed > best:
            best = passed
            for i in range(4):
                best_state[i] = state[i]
        if tries == INFER_TRIES:  # the next deal is the best one again (then the loop ends)
            for i in range(4):
                s[O_RNG + i] = best_state[i]


@njit(cache=True)
def rollout(g, s, dealt, dealt_j, p, pool, f, c, key, j, code, objective, sees):
    """One rollout: determinization j of p's view, move (f, c), then the rollout policy. Every
    move is tried on the same determinizations, one after the other: determinization j is
    dealt once (determinize) and kept in `dealt` (dealt_j[0] = j), and the next rollouts of j
    start from that copy. With `sees` all the hidden cards stay as they are (the true game;
    only the generator differs from one determinization to the next); with `sees` hands only
    the draw pile is shuffled."""
    if dealt_j[0] == j:
        copy_game(dealt, s)
    else:
        determinize(g, s, p, pool, key, j, code, sees)
        copy_game(s, dealt)
        dealt_j[0] = j
    for q in range(s[K.players]):  # the sum caches (not copied) are the last rollout's
        stale(s, q)
    planned.set_plan(s, p, f, c)
    continue_round(s, 1)
    planned.clear_plan(s)
    if s[S_ENDED] == 0:
        seat_rollout_bot(s, p, code)
        continue_round(s, -1)
    return outcome(s, p, objective)


@njit(cache=True, inline="always")  # one caller: inlined (docs/ARCHITECTURE.md, "Inlining and compile time")
def evaluate(g, s, dealt, dealt_j, p, faces, colors, k, e, alive, first, per, gain, gain_sq, pool, key, code, objective, sees):
    """Determinizations first .. first + per - 1, each played with move e (the baseline) and
    with every move i still alive: gain[i] (gain_sq[i]) adds the difference (its square)
    between move i's outcome and move e's. Returns the rollouts played."""
    played = 0
    for j in range(first, first + per):
        base = rollout(g, s, dealt, dealt_j, p, pool, faces[e], colors[e], key, j, code, objective, sees)
        played += 1
        for i in range(k):
            if alive[i]:
                d = float(rollout(g, s, dealt, dealt_j, p, pool, faces[i], colors[i], key, j, code, objective, sees) - base)
                gain[i] += d
                gain_sq[i] += d * d
                played += 1
    return played


@njit(cache=True, inline="always")
def standard_error(total, total_sq, n):
    """The standard error of the mean of n paired gains with this sum and sum of squares."""
    mean = total / n
    var = (total_sq - n * mean * mean) / (n - 1)
    return np.sqrt(max(var, 0.0) / n)


@njit(cache=True, inline="always")  # one caller: inlined (docs/ARCHITECTURE.md, "Inlining and compile time")
def choose(g, s, p, faces, colors, k, e, pool):
    """The move to play: the baseline e (pro's choice) unless another move proves better.

    Rounds of BATCH fresh determinizations, each played with e and with every move still in
    the running (common random numbers: a move is judged by its paired gain over e). After
    MIN_ROUNDS rounds, at the end of each round: a move whose mean gain is not above
    CONFIDENCE_Z standard errors (mean + z * se <= 0) is dropped, and so is one whose upper
    bound is below the leader's lower bound; the search stops early when no move is left
    (e stays) or when one is left whose mean gain is DOMINANCE_Z standard errors above 0 (it
    is played). When the budget (`rollouts`, counting every rollout) cannot pay for another
    round, the leader replaces e only if its mean gain is SWITCH_Z standard errors above 0
    (a stricter test than the one that keeps a move in the running: the leader of several
    noisy moves is the luckiest). A budget too small for MIN_ROUNDS rounds of every move
    plays e. Returns the move's index and the rollouts played."""
    budget = param(g, p, L.BP.rollouts)
    if budget < MIN_ROUNDS * BATCH * k:
        return e, 0
    code = ROLLOUT_CODES[param(g, p, L.BP.rollout_policy)]
    objective = param(g, p, L.BP.objective)
    sees = param(g, p, L.BP.sees)
    key = decision_key(g, p)
    copy_deck(g, s)
    dealt = np.empty(N_GAME, dtype=np.int64)  # the determinization being tried (rollout)
    dealt_j = np.full(1, -1, dtype=np.int64)
    alive = np.ones(k, dtype=np.bool_)
    alive[e] = False
    left = k - 1
    gain = np.zeros(k, dtype=np.float64)
    gain_sq = np.zeros(k, dtype=np.float64)
    spent = 0
    n = 0
    lead = -1
    while left > 0 and spent + (left + 1) * BATCH <= budget:
        spent += evaluate(g, s, dealt, dealt_j, p, faces, colors, k, e, alive, n, BATCH, gain, gain_sq, pool, key, code, objective,
                          sees)
        n += BATCH
        if n < MIN_ROUNDS * BATCH:
            continue
        lead = -1
        for i in range(k):
            if alive[i] and (lead < 0 or gain[i] > gain[lead]):
                lead = i
        floor = max(0.0, gain[lead] / n - CONFIDENCE_Z * standard_error(gain[lead], gain_sq[lead], n))
        for i in range(k):
            if alive[i] and gain[i] / n + CONFIDENCE_Z * standard_error(gain[i], gain_sq[i], n) <= floor and (
                    i != lead or floor == 0.0):
                alive[i] = False
                left -= 1
        if left == 1 and alive[lead] and gain[lead] / n > DOMINANCE_Z * standard_error(gain[lead], gain_sq[lead], n):
            return lead, spent
    if left == 0 or lead < 0 or not alive[lead]:
        return e, spent
    return (lead if gain[lead] / n > SWITCH_Z * standard_error(gain[lead], gain_sq[lead], n) else e), spent


@njit(cache=True, inline="always")  # one caller: inlined (docs/ARCHITECTURE.md, "Inlining and compile time")
def plan_move(g, s, p):
    """Plan search bot p's move for the turn it is about to take (nothing to plan when it
    has one move only, when it may first challenge a Wild Draw Four, or with `endgame` N > 0
    while every player still in the round holds more than N cards: then pro's rules decide
    the whole turn)."""
    planned.clear_plan(g)
    if g[S_PENDING] > 0 and g[S_CHAL_OK] != 0:
        return
    if not near_the_end(g, param(g, p, L.BP.endgame)):
        return
    faces = np.empty(MAX_MOVES, dtype=np.int64)
    colors = np.empty(MAX_MOVES, dtype=np.int64)
    k = candidate_moves(g, p, faces, colors)
    if k <= 1:
        return
    pool = np.empty(POOL, dtype=np.int64)
    e = baseline_move(g, p, faces, colors, k)
    best, _ = choose(g, s, p, faces, colors, k, e, pool)
    planned.set_plan(g, p, faces[best], colors[best])


# ---------------------------------------------------------------- rounds with search bots


@njit(cache=True, inline="always")  # one caller: inlined (docs/ARCHITECTURE.md, "Inlining and compile time")
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
        moved = hands_moved(g)
        for q in range(g[K.players]):
            sizes[q] = g[O_HSIZE + q]
        continue_round(g, 1)
        planned.clear_plan(g)
        saw_turn(g, p, pending, color, ndisc, moved, sizes)
        steps += 1


@njit(cache=True)
def play_round_any(g, s, dealer, tracing, trace_start):
    """play_round (play.py), through continue_searching when a seat plays `search`."""
    setup_round(g, dealer, tracing, trace_start)
    if has_search(g, g[K.players]):
        continue_searching(g, s, -1)
    else:
        continue_round(g, -1)
