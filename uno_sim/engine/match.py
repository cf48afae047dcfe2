"""Matches (docs/RULES.md, "Matches"): rounds in the engine until a side reaches the target, or for a fixed
number of rounds.

The first dealer is random. `winner_takes`: the round winner's side adds the round's
`winner_points` (docs/RULES.md, "Going out, round end and scoring": losers' points, or placement scores under `last_standing`); the
first side to reach `target` wins (the highest total if several reach it in the same round).
`loser_penalty`: every side outside the winner's adds its own hand points; when a side
reaches `target` the match ends and the lowest total wins; the highest total is the match's
loser. `chips`: every side outside the winner's pays the winner's side its own hand points
(`last_standing`: every side adds its placement scores), so the totals always sum to 0;
`target` does not apply. With `match_rounds` = k > 0 a match not ended by the target ends
after k rounds: the leader wins (highest total; `loser_penalty`: lowest), and sides tied for
the lead share the win (M_WINNER = M_TIE, the sides in the M_TIED bit mask). A loser tie is
recorded the same way (M_LOSER, M_LOSER_TIED). Rounds with no winner (void, stall, cap) score
nothing; the dealer still passes to the left.

Players are identities 0..n-1; player p plays bot slot p. With fixed seats player p sits in
seat p all match and the scores are kept per side (a seat, or a team under `teams`). With
seats rotated (`seatings` has rows, see player_at) the seating changes every n rounds and
the scores are kept per player: each player adds the round points of the side of the seat
it sat in (under `teams`, every member of a side is credited the side's points).
"""

import itertools
import math

import numpy as np
from .jit import njit

from . import layout as L
from ..game.knobs import BY_NAME, K
from .rng import randint, seed_game
from .search_rounds import play_round_any
from .state import N_GAME, O_BOTS, O_PARAMS, O_PLACE, O_REC
from .unowned import keep_alive, new_game, unowned, unowned_like, unowned_two_sided

HISTORY_ROUNDS = 1024  # rounds whose running totals, dealers and seatings are kept
_SCORING = BY_NAME["match_scoring"].choices
WINNER_TAKES = _SCORING.index("winner_takes")
LOSER_PENALTY = _SCORING.index("loser_penalty")
CHIPS = _SCORING.index("chips")


def seating_classes(players: int) -> np.ndarray:
    """The seatings up to rotation and reflection of the table, int64[K, players] with
    row[seat] = player: player 0 in seat 0 and (3 or more players) row[1] < row[-1].
    K = (players - 1)! / 2, or 1 for 2 players. Row j is the (j * s mod K)-th seating in
    lexicographic order, with the stride s about K / phi**2 and coprime to K: consecutive
    rows (consecutive matches) come from all over the lexicographic list, so even a run of
    far fewer than K matches (9 or 10 players) does not keep player 1 beside player 0."""
    rows = [
        (0, *rest)
        for rest in itertools.permutations(range(1, players))
        if players < 3 or rest[0] < rest[-1]
    ]
    k = len(rows)
    stride = max(1, round(k * 0.381966))
    while math.gcd(stride, k) != 1:
        stride += 1
    return np.array([rows[j * stride % k] for j in range(k)], dtype=np.int64)


@njit(cache=True)
def player_at(seatings, match, rnd, seat):
    """The player in `seat` in round `rnd` (from 0) of match number `match`, seats rotated.

    Rounds 0..n-1 use seating class c0 = (match // 2) mod K, the next n rounds class c0 + 1, and
    so on (mod K). Odd-numbered matches mirror every seating (the player of seat s sits in seat
    (n - s) mod n), so every seating up to rotation starts equally often over 2K matches, and
    any run of matches plays each seating and its mirror image alike (who plays after whom)."""
    k = seatings.shape[0]
    n = seatings.shape[1]
    c = ((match // 2) % k + rnd // n) % k
    if match % 2 == 1:
        seat = (n - seat) % n
    return seatings[c, seat]


@njit(cache=True)
def side_of(g, seat):
    teams = g[K.teams]
    return seat if teams == 0 else seat % teams


@njit(cache=True)
def score_round_into(g, totals):
    """Add the round just played (record at O_REC) to the side totals."""
    n = g[K.players]
    w = g[O_REC + L.COL_WINNER]
    if w < 0:
        return
    ws = side_of(g, w)
    scoring = g[K.match_scoring]
    if scoring == LOSER_PENALTY:
        for q in range(n):
            if side_of(g, q) != ws:
                totals[side_of(g, q)] += g[O_REC + L.COL_POINTS + q]
    elif g[K.mode] == 1:  # last_standing (winner_takes, chips): every player adds its placement score
        for q in range(n):
            totals[side_of(g, q)] += n + 1 - 2 * g[O_PLACE + q]
    elif scoring == WINNER_TAKES:
        totals[ws] += g[O_REC + L.COL_WINNER_POINTS]
    else:  # chips: every player outside the winner's side pays its own hand points to that side
        for q in range(n):
            if side_of(g, q) != ws:
                pts = g[O_REC + L.COL_POINTS + q]
                totals[side_of(g, q)] -= pts
                totals[ws] += pts


@njit(cache=True)
def credit_players(g, seatings, match, rnd, totals):
    """Seats rotated: add round `rnd` just played to the player totals; the player in each
    seat adds the round points of that seat's side."""
    side_points = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    score_round_into(g, side_points)
    for seat in range(g[K.players]):
        totals[player_at(seatings, match, rnd, seat)] += side_points[side_of(g, seat)]


@njit(cache=True)
def seat_players(g, config, seatings, match, rnd):
    """Seats rotated: give every seat the bot (code and parameters) of its player in round `rnd`."""
    for seat in range(config[K.players]):
        p = player_at(seatings, match, rnd, seat)
        g[O_BOTS + seat] = config[O_BOTS + p]
        for k in range(L.N_BOT_PARAMS):
            g[O_PARAMS + seat * L.N_BOT_PARAMS + k] = config[O_PARAMS + p * L.N_BOT_PARAMS + k]


@njit(cache=True)
def seat_of(seatings, match, rnd, player):
    """Seats rotated: the seat of `player` in round `rnd`."""
    for seat in range(seatings.shape[1]):
        if player_at(seatings, match, rnd, seat) == player:
            return seat
    return -1


@njit(cache=True)
def match_leader(g, totals, sides):
    """The side best placed: highest total (winner_takes, chips) or lowest (loser_penalty); lowest
    index on ties."""
    best = 0
    for s in range(1, sides):
        if g[K.match_scoring] != LOSER_PENALTY:
            if totals[s] > totals[best]:
                best = s
        elif totals[s] < totals[best]:
            best = s
    return best


@njit(cache=True)
def extreme_sides(totals, sides, highest):
    """Bit mask of the sides holding the highest (or lowest) total."""
    best = totals[0]
    for s in range(1, sides):
        if (totals[s] > best) if highest else (totals[s] < best):
            best = totals[s]
    mask = 0
    for s in range(sides):
        if totals[s] == best:
            mask |= 1 << s
    return mask


@njit(cache=True)
def record_sides(out, mask, col, col_mask):
    """One side in `mask`: out[col] = that side. Several: out[col] = M_TIE, out[col_mask] = mask."""
    count = 0
    side = -1
    for s in range(L.MAX_PLAYERS):
        if (mask >> s) & 1:
            count += 1
            side = s
    if count == 1:
        out[col] = side
    else:
        out[col] = L.M_TIE
        out[col_mask] = mask


@njit(cache=True)
def end_of_match_figures(g, out, totals, history, sides, rounds, scoring):
    """The figures of a match once its rounds are played (out[L.M_WINNER] set): each side's
    final total, the winner's margin over the runner-up, whether the winner trailed at half
    time (a comeback), and under loser_penalty the loser."""
    for s in range(sides):
        out[L.M_TOTALS + s] = totals[s]
    win = out[L.M_WINNER]
    highest = scoring != LOSER_PENALTY
    if win >= 0 and sides > 1:
        runner_up = -1
        for s in range(sides):
            if s != win and (runner_up < 0 or (totals[s] > totals[runner_up] if highest
                                               else totals[s] < totals[runner_up])):
                runner_up = s
        margin = totals[win] - totals[runner_up]
        out[L.M_MARGIN] = margin if highest else -margin
        mid = rounds // 2
        if 0 < mid < history.shape[0]:
            leader = match_leader(g, history[mid], sides)
            out[L.M_COMEBACK] = 1 if history[mid, leader] != history[mid, win] else 0
    elif win == L.M_TIE:  # margin 0; a comeback when every side sharing the win trailed at half-time
        mid = rounds // 2
        if 0 < mid < history.shape[0]:
            leader = match_leader(g, history[mid], sides)
            out[L.M_COMEBACK] = 1
            for s in range(sides):
                if (out[L.M_TIED] >> s) & 1 and history[mid, s] == history[mid, leader]:
                    out[L.M_COMEBACK] = 0
    if win != -1 and scoring == LOSER_PENALTY:  # the loser: the highest total; a tie shares the loss
        record_sides(out, extreme_sides(totals, sides, True), L.M_LOSER, L.M_LOSER_TIED)


@njit(cache=True)
def begin_match(g, key, match, seatings, out, history):
    """Start match number `match`: its record row `out` and running totals (history[0])
    cleared, the generator seeded, the first dealer drawn. Returns the first dealer's seat."""
    n = g[K.players]
    totals = history[0]
    for s in range(L.MAX_PLAYERS):
        totals[s] = 0
    for c in range(out.shape[0]):  # loops, not slice assignments: see unowned.new_game
        out[c] = 0
    seed_game(g, key, match)
    dealer = randint(g, n)
    out[L.M_FIRST_DEALER] = player_at(seatings, match, 0, dealer) if seatings.shape[0] > 0 else dealer
    out[L.M_WINNER] = -1
    out[L.M_LOSER] = -1
    return dealer


@njit(cache=True)
def before_round(g, config, seatings, match, rnd, dealer, dealers, seated):
    """Seat round `rnd` (seats rotated: every seat gets its player's bot) and log its dealer
    and seating while the logs have room."""
    n = g[K.players]
    rotate = seatings.shape[0] > 0
    if rotate:
        seat_players(g, config, seatings, match, rnd)
    if rnd < dealers.shape[0]:
        dealers[rnd] = dealer
        for seat in range(n):
            seated[rnd, seat] = player_at(seatings, match, rnd, seat) if rotate else seat


@njit(cache=True)
def after_round(g, seatings, match, rnd, dealer, out, history):
    """Round `rnd` has just been played in g (its record at O_REC): count it, score it, and
    decide whether the match is over (the target reached, match_rounds played, or the round
    cap). Returns the next round's dealer, or -1 once the match is over (its figures then
    written into `out`)."""
    n = g[K.players]
    rotate = seatings.shape[0] > 0
    sides = n if rotate or g[K.teams] == 0 else g[K.teams]
    scoring = g[K.match_scoring]
    totals = history[0]
    out[L.M_TURNS] += g[O_REC + L.COL_TURNS]
    out[L.M_PLAYS] += g[O_REC + L.COL_PLAYS]
    out[L.M_DRAWS] += g[O_REC + L.COL_DRAWS]
    w = g[O_REC + L.COL_WINNER]
    if w < 0:
        out[L.M_NO_WINNER_ROUNDS] += 1
    else:
        out[L.M_ROUND_WINS + (player_at(seatings, match, rnd, w) if rotate else w)] += 1
    if rotate:
        credit_players(g, seatings, match, rnd, totals)
    else:
        score_round_into(g, totals)
    rounds = rnd + 1
    if rounds < history.shape[0]:
        for s in range(totals.shape[0]):
            history[rounds, s] = totals[s]
    reached = False
    if scoring != CHIPS:  # chips: target does not apply
        for s in range(sides):
            if totals[s] >= g[K.target]:
                reached = True
    over = False
    if reached:
        out[L.M_WINNER] = match_leader(g, totals, sides)
        over = True
    elif g[K.match_rounds] > 0 and rounds >= g[K.match_rounds]:  # the leader wins; a tie shares the win
        record_sides(out, extreme_sides(totals, sides, scoring != LOSER_PENALTY), L.M_WINNER, L.M_TIED)
        over = True
    elif rounds >= L.MAX_MATCH_ROUNDS:  # the cap: the match stops undecided
        over = True
    if over:
        out[L.M_ROUNDS] = rounds
        end_of_match_figures(g, out, totals, history, sides, rounds, scoring)
        return -1
    if g[K.next_dealer] == 1 and w >= 0:
        return seat_of(seatings, match, rounds, player_at(seatings, match, rnd, w)) if rotate else w
    return (dealer + 1) % n


@njit(cache=True, inline="always")  # one caller: inlined (docs/ARCHITECTURE.md, "Inlining and compile time")
def play_match(g, config, key, match, seatings, out, history, dealers, seated):
    """Play match number `match` into the record row `out` (layout.M_*).

    `config`: the configuration block g was made from (its bot slots are the players).
    `seatings`: the seating classes (seating_classes) to rotate through, or no rows for
    fixed seats. Scores go to sides (fixed seats) or players (seats rotated); M_WINNER,
    M_TOTALS, the margin and the comeback are over those, M_FIRST_DEALER is the first
    dealer's seat (fixed) or player (rotated), M_ROUND_WINS is per seat (fixed) or player
    (rotated).
    Logs of the first rounds, as many as the arrays hold (round r from 0): the totals after it
    in history[r + 1] (history[0] holds the running totals), its dealer's seat in dealers[r],
    the player in each of its seats in seated[r].
    A match with Python seats runs the same three steps with its rounds played from Python
    (env/matches.py): begin_match, then before_round, the round, after_round until it says
    the match is over."""
    scratch = np.zeros(N_GAME, dtype=np.int64)  # the search bot's rollouts (engine/search_rounds.py)
    sp = unowned_like(g, scratch)
    dealer = begin_match(g, key, match, seatings, out, history)
    rnd = 0
    while dealer >= 0:
        before_round(g, config, seatings, match, rnd, dealer, dealers, seated)
        play_round_any(g, sp, dealer, 0, N_GAME)
        dealer = after_round(g, seatings, match, rnd, dealer, out, history)
        rnd += 1
    keep_alive(scratch)


@njit(cache=True, nogil=True)
def play_matches(config, key, start, seatings, out, stop):
    """Matches start .. start + len(out) - 1 of the run, one record row each into out; stops
    early once stop[0] is set (threads.request_stop). A one-sided deck."""
    owner = new_game(config)
    _matches_into(unowned(owner), config, key, start, seatings, out, stop)
    keep_alive(owner)


@njit(cache=True, nogil=True)
def play_matches_two_sided(config, key, start, seatings, out, stop):
    """play_matches with a two-sided deck (the engine compiled for two-sided games, sides.two_sided)."""
    owner = new_game(config)
    _matches_into(unowned_two_sided(owner), config, key, start, seatings, out, stop)
    keep_alive(owner)


@njit(cache=True, inline="always")
def _matches_into(g, config, key, start, seatings, out, stop):
    history = np.zeros((HISTORY_ROUNDS, L.MAX_PLAYERS), dtype=np.int64)
    dealers = np.zeros(HISTORY_ROUNDS, dtype=np.int64)
    seated = np.zeros((HISTORY_ROUNDS, L.MAX_PLAYERS), dtype=np.int64)
    for i in range(out.shape[0]):
        if stop[0] != 0:
            break
        play_match(g, config, key, start + i, seatings, out[i], history, dealers, seated)
