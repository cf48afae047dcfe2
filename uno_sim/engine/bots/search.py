"""The `search` bot: determinized Monte Carlo rollouts (docs/BOTS.md, "search"): what it
considers and what it knows.

Before each turn of a search bot it lists its candidate moves (every legal card, a wild card
once per colour it could name, and drawing when the rules let it draw instead; with a
penalty pending, every legal answer and accepting it) and estimates each by rollouts: the
game is copied into a scratch game, the cards the bot cannot see are dealt at random
consistently with what it sees (`redeal`), the candidate is played, and the round is played
to its end with a policy in every seat (`rollout_policy`, `pro` by default). The baseline is
pro's own choice; a candidate replaces it only when its rollouts prove it better (rounds of
determinizations, candidates dropped as they fall behind, an early stop when one dominates:
search_rounds.choose). The chosen move is planned (planned.py) and the round code plays it
when it asks the bot (dispatch.py); every other decision of the bot is pro's. Every
candidate is tried on the same determinizations with the same random numbers (common random
numbers), so the comparison is not drowned in deal noise.

What the bot uses: its own hand, the discard pile, every hand's size, who is out, the
colour, direction, pending penalty and everything else every player sees; never the other
hands, the order of the draw pile, or whether a challenged Wild Draw Four was a bluff
(resampled from the determinized hand); except with `sees=all`, a cheat for measuring what
the hidden cards cost the search, whose determinizations are the true game (no `redeal`),
and `sees=hands`, the true hands with the draw pile shuffled (`shuffle_pile`). With
`endgame` N > 0 (default 2) it searches only once some hand holds at most N cards; with 0, on
every turn. Rollouts run with
tracing off in a scratch game, and their random numbers come from a generator derived from the real game's state without
advancing it: the real game's stream is untouched, results stay a function of (seed, game).

Where the code is: this module holds everything the bot decides without playing: the
candidate moves, pro's choice among them (the baseline), the determinization, the rollout seats,
what a finished rollout is worth and the rollouts' key. What every player saw (O_VOIDS, O_LACKS,
O_SEEN) is kept by engine/table_view.py.
A rollout plays the round to its end, so it needs the round code (play.py), and play.py asks
the bots (dispatch.py) for every decision: the part that plays, the rollouts, the choice by
rollouts, `plan_move` and the round loop with search bots, sits one level above play.py in
engine/search_rounds.py. The imports run one way: search_rounds -> play -> bots.dispatch ->
bots.strategy, bots.uniform, bots.planned, and search_rounds -> bots.search; no bot module
imports play.py.
"""

import numpy as np

from ..jit import njit

from ...game.knobs import K
from .. import layout as L
from ...game.decks import MAX_COLORED_KINDS, MAX_DECK_SIZE, MAX_WILD_KINDS
from ..access import HAND_WIDTH, N_COLORS, color_of, deck_size, hand, is_wild, n_candidates, n_faces, slot_of
from ..layout import ONE
from ..rng import randint, shuffle
from ..rules_check import candidate, legal_answer, legal_turn_card, turn_candidate, turn_candidates
from ..sides import face_of, recount_hands, two_sided
from ..state import (
    LACK_SLOT0,
    N_GAME,
    O_BOTS,
    O_CARD_FACE,
    O_CARD_OTHER,
    O_DISC,
    O_HSIZE,
    O_LACKS,
    O_OWNER,
    O_PARAMS,
    O_PILE,
    O_PLACE,
    O_REC,
    O_RNG,
    O_VOIDS,
    S_CHAL_GUILTY,
    S_COLOR,
    S_DIR,
    SEEN_COLOR,
    SEEN_DEPTH,
    SEEN_DIR,
    SEEN_DREW_KEPT_KIND,
    SEEN_DREW_PLAYED_KIND,
    SEEN_KIND,
    SEEN_PLAYED_KIND,
    SEEN_FACE,
    SEEN_NAMED,
    SEEN_NDISC,
    SEEN_NEXT_LACKS,
    SEEN_NEXT_SIZE,
    SEEN_SHUFFLES,
    SEEN_SIZE,
    SEEN_TOP,
    S_NDISC,
    S_NPILE,
    S_PENDING,
    S_PKIND,
)
from ..seats import step
from ..seen_plays import seen_count, seen_play
from . import planned
from .uniform import uniform_card
from . import pro
from . import strategy

# every coloured face (a sum set in force), the wild faces once per colour, draw / accept
MAX_MOVES = N_COLORS * MAX_COLORED_KINDS + N_COLORS * MAX_WILD_KINDS + 1
POOL = MAX_DECK_SIZE  # the unseen cards of a determinization (at most the whole deck)
ROLLOUT_CODES = np.array([L.BOT.random, L.BOT.greedy, L.BOT.expert, L.BOT.pro], dtype=np.int64)  # by rollout_policy
_MIX = np.uint64(0x9E3779B97F4A7C15)
# The choice by rollouts (search_rounds.choose), in rounds of BATCH determinizations:
BATCH = 4  # determinizations a round (every move still in the running plays each)
MIN_ROUNDS = 2  # rounds before any move is dropped, stops the search or replaces the baseline
CONFIDENCE_Z = 1.0  # a move is dropped when its mean gain is not this many standard errors above 0 (or the leader's lower bound)
SWITCH_Z = 2.0  # a move replaces the baseline only when its mean gain is this many standard errors above 0
DOMINANCE_Z = 2.0  # the search stops early when the last move left is this many standard errors above the baseline
INFER_TRIES = 64  # `infer=plays` / `history`: deals tried for a determinization; when none agrees, the one that agrees longest is kept


def scratch() -> np.ndarray:
    """A scratch game for the rollouts (one per thread)."""
    return np.zeros(N_GAME, dtype=np.int64)


@njit(cache=True)
def has_search(g, players):
    for q in range(players):
        if g[O_BOTS + q] == L.BOT.search:
            return True
    return False


# ---------------------------------------------------------------- candidate moves


@njit(cache=True)
def add_move(faces, colors, k, f, wild_colors):
    """Append face f (with each colour when `wild_colors`) to the move list; the new count."""
    if wild_colors:
        for c in range(N_COLORS):
            faces[k] = f
            colors[k] = c
            k += 1
    else:
        faces[k] = f
        colors[k] = -1
        k += 1
    return k


@njit(cache=True)
def candidate_moves(g, p, faces, colors):
    """p's moves at the start of its turn into faces/colors (colour -1: none); the count.
    Ordinary turn: every legal card (no bluff; while a sum set is in force, any card of it),
    a wild once per colour, and drawing when p holds no legal card or voluntary_draw is on. Penalty pending: every legal answer and
    accepting (face planned.DRAW)."""
    color = g[S_COLOR]
    top = face_of(g, g[O_DISC + g[S_NDISC] - 1])
    k = 0
    pending = g[S_PENDING] > 0
    by_value = pending and g[K.stack_by_value] != 0  # an answer may be any face
    for i in range(n_faces(g) if by_value else (n_candidates(g) if pending else turn_candidates(g))):
        f = i if by_value else (candidate(g, i, color, top) if pending else turn_candidate(g, i, color, top))
        if f < 0:
            continue
        ok = legal_answer(g, p, f, color, top, g[S_PKIND]) if pending else legal_turn_card(g, p, f, color, top, False)
        if ok:
            k = add_move(faces, colors, k, f, is_wild(g, f))
    if pending or k == 0 or g[K.voluntary_draw] != 0:
        k = add_move(faces, colors, k, planned.DRAW, False)
    return k


@njit(cache=True)
def baseline_move(g, p, faces, colors, k):
    """Index of the move pro would choose (the baseline every other move must beat), without
    drawing random numbers: pro's turn card and colour, the expert's answer to a penalty (as pro)."""
    color = g[S_COLOR]
    top = face_of(g, g[O_DISC + g[S_NDISC] - 1])
    if g[S_PENDING] > 0:
        f = strategy.choose_answer(g, p, color, top, g[S_PKIND])
    else:
        f = pro.choose_turn_card(g, p, color, top)  # draws no random number: search never bluffs
    c = pro.choose_color(g, p) if f >= 0 and is_wild(g, f) else -1
    for i in range(k):
        if faces[i] == f and colors[i] == c:
            return i
    return 0


# ---------------------------------------------------------------- determinization and rollouts


@njit(cache=True, inline="always")
def excluded(s, q, f):
    """Seat q was seen not to hold face f: a coloured card of a colour it lacks (O_VOIDS, or
    O_LACKS: seen to draw with that colour current) or of a kind it lacks (O_LACKS: seen to
    draw on a card of that kind). Wild cards are never excluded: pro keeps a drawn wild card."""
    c = color_of(s, f)
    if c < 0:
        return False
    lacks = s[O_LACKS + q]
    return ((s[O_VOIDS + q] | lacks) >> c) & 1 == 1 or (lacks >> (LACK_SLOT0 + slot_of(s, f))) & 1 == 1


@njit(cache=True)
def constrained(s, q):
    """Seat q was seen to lack some cards (see excluded)."""
    return s[O_VOIDS + q] != 0 or s[O_LACKS + q] != 0


@njit(cache=True)
def shuffled_faces(s, counts, width, out):
    """The faces counted in counts[0..width), each as many times as counted, listed in face order
    into `out` and shuffled there (Fisher-Yates, the scratch game's generator); how many."""
    m = 0
    for f in range(width):
        for _ in range(counts[f]):
            out[m] = f
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint(s, i + 1)
        t = out[i]
        out[i] = out[j]
        out[j] = t
    return m


@njit(cache=True)
def take_allowed(s, q, faces, used, m):
    """The first of faces[used..m) that seat q may hold (not `excluded`), or faces[used] when
    none fits (information out of date), swapped into faces[used] and returned: the next face
    dealt to q from the shuffled list."""
    pick = used
    for j in range(used, m):
        if not excluded(s, q, faces[j]):
            pick = j
            break
    t = faces[pick]
    faces[pick] = faces[used]
    faces[used] = t
    return t


@njit(cache=True)
def shuffled_column(s, pool, m, column):
    """The faces at `column` (O_CARD_FACE or O_CARD_OTHER) of the m cards at pool[0..m), listed
    in face order and shuffled with the scratch game's generator."""
    counts = np.zeros(HAND_WIDTH, dtype=np.int64)
    for i in range(m):
        counts[s[column + pool[i]]] += 1
    faces = np.empty(m, dtype=np.int64)
    shuffled_faces(s, counts, HAND_WIDTH, faces)
    return faces


@njit(cache=True)
def deal_other_sides(s, pool, m):
    """The other sides (O_CARD_OTHER) of the m cards at pool[0..m), dealt among those cards
    again at random (shuffled_column), card by card in pool order."""
    faces = shuffled_column(s, pool, m, O_CARD_OTHER)
    for i in range(m):
        s[O_CARD_OTHER + pool[i]] = faces[i]


@njit(cache=True)
def deal_faces_in_play(s, pool, m):
    """The faces in play (O_CARD_FACE) of the m cards at pool[0..m), dealt among those cards
    again at random (shuffled_column), honouring what the table saw: the cards of a player seen
    to lack some faces (`excluded`) are dealt first, each by take_allowed, as `redeal` deals a
    one-sided deck's hands; then every other card, in pool order, the faces left in turn. With
    nobody seen to lack anything, card i of the pool gets shuffled face i, as deal_other_sides
    deals."""
    faces = shuffled_column(s, pool, m, O_CARD_FACE)
    used = 0
    for rank in range(2):
        for i in range(m):
            c = pool[i]
            q = s[O_OWNER + c]
            lacking = q >= 0 and constrained(s, q)
            if lacking != (rank == 0):
                continue
            s[O_CARD_FACE + c] = take_allowed(s, q, faces, used, m) if lacking else faces[used]
            used += 1


@njit(cache=True)
def redeal_sides(s, p, pool):
    """`redeal` for a two-sided deck (docs/BOTS.md, "search"): p sees its own cards on the side
    in play, every other player's on the other side, and the other side of the draw pile's top
    card. So the faces in play of the other players' cards and of the draw pile are dealt among
    those cards again, and the other sides of p's own cards and of the pile's cards below the
    top among those; each card keeps its holder (a hand keeps its size and the faces p sees on
    its backs) and its place in the pile. A player seen to lack some faces in play (O_LACKS,
    O_VOIDS: forgotten at every flip) gets none of them (deal_faces_in_play)."""
    cards = deck_size(s)
    m = 0
    for c in range(cards):
        q = s[O_OWNER + c]
        if q >= 0 and q != p:
            pool[m] = c
            m += 1
    for i in range(s[S_NPILE]):
        pool[m] = s[O_PILE + i]
        m += 1
    deal_faces_in_play(s, pool, m)
    m = 0
    for c in range(cards):
        if s[O_OWNER + c] == p:
            pool[m] = c
            m += 1
    for i in range(s[S_NPILE] - 1):
        pool[m] = s[O_PILE + i]
        m += 1
    deal_other_sides(s, pool, m)
    recount_hands(s)
    s[S_CHAL_GUILTY] = 0


@njit(cache=True)
def redeal(s, p, pool):
    """Deal the cards p cannot see at random: every other hand keeps its size, the rest is
    the draw pile. The unseen cards are the deck minus p's hand minus the discard pile; they
    are listed in face order before the shuffle, so the deal depends on what p can see only.
    A player seen to lack some cards (`excluded`: O_VOIDS and O_LACKS, kept by
    table_view.py) gets none of them. A two-sided deck's cards: redeal_sides."""
    if two_sided(s):
        redeal_sides(s, p, pool)
        return
    n = s[K.players]
    faces = n_faces(s)
    counts = np.zeros(HAND_WIDTH, dtype=np.int64)
    for q in range(n):
        if q == p:
            continue
        h = hand(q)
        for f in range(faces):
            counts[f] += s[h + f]
            s[h + f] = 0
    for i in range(s[S_NPILE]):
        counts[s[O_PILE + i]] += 1
    m = shuffled_faces(s, counts, faces, pool)
    # players seen to lack some cards first: their cards come from the unseen cards they may
    # hold, taken in the shuffled order; then everyone else
    used = 0
    for rank in range(2):
        for q in range(n):
            if q == p or constrained(s, q) != (rank == 0):
                continue
            h = hand(q)
            for _ in range(s[O_HSIZE + q]):
                s[h + take_allowed(s, q, pool, used, m)] += 1
                used += 1
    for i in range(s[S_NPILE]):
        s[O_PILE + i] = pool[used]
        used += 1
    # A Wild Draw Four p may challenge: p takes the other players for players of the rollout
    # policy, which never bluffs, so in its view the card was not a bluff.
    s[S_CHAL_GUILTY] = 0


@njit(cache=True)
def drawn_card(s, w, color, top):
    """Which card of w's hand (the hand it drew to on colour / top, plus the card) could be the
    card it drew, by pro's rules: pro draws only when it holds no legal card but wild ones, so
    with one legal coloured card in the hand now that is the card drawn, with none any card
    held (chosen at random by the scratch game's generator, each card as likely), with more
    none (-1)."""
    h = hand(w)
    n = 0
    one = -1
    for f in range(n_faces(s)):
        if s[h + f] > 0 and not is_wild(s, f) and legal_turn_card(s, w, f, color, top, False):
            n += s[h + f]
            one = f
    if n > 1:
        return -1
    if n == 1:
        return one
    return uniform_card(s, w)  # (the hand holds at least the card drawn)


@njit(cache=True)
def took_turn_as_seen(s, w, e):
    """Would w, holding the hand it holds in s, have taken the turn kept at e as it did, by
    pro's rules, in the position it was taken in? s holds that position as far as the table
    saw it (put there by played_as_seen). A play: pro plays that card and names that colour.
    A draw whose card was played: pro draws. A draw whose card was kept: one card of the hand
    (drawn_card) is the card drawn, pro draws from the hand without it and then keeps it; it
    is taken out of the hand (for the turns before) and returned as face + 1 (0: none fits;
    -1 for the other turns, which leave the hand as it is)."""
    kind = s[e + SEEN_KIND]
    color, top = s[e + SEEN_COLOR], s[e + SEEN_TOP]
    h = hand(w)
    if kind == SEEN_DREW_PLAYED_KIND:
        return -1 if pro.choose_turn_card(s, w, color, top) < 0 else 0
    if kind == SEEN_DREW_KEPT_KIND:
        f = drawn_card(s, w, color, top)
        if f < 0:
            return 0
        if legal_turn_card(s, w, f, color, top, False) and pro.plays_drawn_card(s, w, f):
            return 0  # pro would have played it
        s[h + f] -= 1
        s[O_HSIZE + w] -= 1
        if pro.choose_turn_card(s, w, color, top) >= 0:
            s[h + f] += 1
            s[O_HSIZE + w] += 1
            return 0
        return f + 1
    f = s[e + SEEN_FACE]
    if pro.choose_turn_card(s, w, color, top) != f:
        return 0
    if is_wild(s, f):  # named with the card on the pile, the colour before still current
        s[h + f] -= 1
        s[O_HSIZE + w] -= 1
        s[S_NDISC] += 1
        named = pro.choose_color(s, w)
        s[h + f] += 1
        s[O_HSIZE + w] += 1
        s[S_NDISC] -= 1
        if named != s[e + SEEN_NAMED]:
            return 0
    return -1


@njit(cache=True)
def played_as_seen(s, w, depth):
    """Would seat w have taken its last `depth` turns kept in O_SEEN (seen_plays.py) as it did,
    by pro's rules (took_turn_as_seen), holding the hand it holds in this determinization plus
    the cards it played since, less the cards it drew since? Newest first, each turn is
    checked in the position it was taken in, as far as the table saw it: the hand then, the
    discard pile then (its first cards, when no reshuffle came since; else neither that turn
    nor any before it is checked), the top card, colour and direction before
    it, and the next player's hand size and what it was seen to lack then; everything else as
    it is now. s is put back but for its generator (drawn_card). Returns the turns found as seen, newest first, before the first
    that is not (all when every one is; 0 when nothing is kept for w or its hand has changed
    since), and whether every turn checked is as seen."""
    m = s[seen_count(w)]
    if m == 0 or s[O_HSIZE + w] != s[seen_play(w, m - 1) + SEEN_SIZE]:
        return 0, True
    h = hand(w)
    color, direction, nd, size = s[S_COLOR], s[S_DIR], s[S_NDISC], s[O_HSIZE + w]
    taken = np.empty(SEEN_DEPTH, dtype=np.int64)  # the cards drawn, taken out of the hand (to put back)
    n_taken = 0
    same = True
    passed = 0
    k = m - 1
    while k >= 0 and k >= m - depth:
        e = seen_play(w, k)
        k -= 1
        played = s[e + SEEN_KIND] == SEEN_PLAYED_KIND
        f = s[e + SEEN_FACE]
        after = s[e + SEEN_NDISC]
        pile = after - (0 if s[e + SEEN_KIND] == SEEN_DREW_KEPT_KIND else 1)  # its size before the turn
        if s[O_REC + L.COL_RESHUFFLES] != s[e + SEEN_SHUFFLES] or after > nd or (played and face_of(s, s[O_DISC + pile]) != f):
            # the discard pile as it was is gone (pro's count of the unseen cards cannot be read
            # back): this turn and the ones before are not checked
            k += 1
            break
        if played:
            s[h + f] += 1  # back in the hand, for this play and every earlier turn
            s[O_HSIZE + w] += 1
        q = step(s, w, 1) if s[e + SEEN_DIR] == direction else step(s, w, -1)
        q_size, q_lacks = s[O_HSIZE + q], s[O_LACKS + q]
        if q != w:
            s[O_HSIZE + q] = s[e + SEEN_NEXT_SIZE]
            s[O_LACKS + q] = s[e + SEEN_NEXT_LACKS]
        s[S_DIR] = s[e + SEEN_DIR]
        s[S_NDISC] = pile
        s[S_COLOR] = s[e + SEEN_COLOR]
        took = took_turn_as_seen(s, w, e)
        s[S_DIR] = direction
        s[S_NDISC] = nd
        s[S_COLOR] = color
        if q != w:
            s[O_HSIZE + q] = q_size
            s[O_LACKS + q] = q_lacks
        if took > 0:
            taken[n_taken] = took - 1
            n_taken += 1
        same = took != 0
        if not same:
            break
        passed += 1
    for i in range(k + 1, m):  # the cards played since come out of the hand again, the cards drawn go back
        e = seen_play(w, i)
        if s[e + SEEN_KIND] == SEEN_PLAYED_KIND:
            s[h + s[e + SEEN_FACE]] -= 1
    for i in range(n_taken):
        s[h + taken[i]] += 1
    s[O_HSIZE + w] = size
    return passed, same


@njit(cache=True)
def plays_as_seen(s, p, depth):
    """`infer=plays` (depth 1) / `infer=history` (depth SEEN_DEPTH): does this determinization
    agree with every other player's last `depth` plays kept in O_SEEN (played_as_seen)?
    Returns that and the plays found as seen (seat by seat, newest first, up to the first
    that is not), by which deals that fail are ranked."""
    passed = 0
    for w in range(s[K.players]):
        if w != p:
            n, same = played_as_seen(s, w, depth)
            passed += n
            if not same:
                return False, passed
    return True, passed


@njit(cache=True)
def near_the_end(g, endgame):
    """Does the bot search this turn: always when `endgame` is 0, else only when some player
    still in the round holds at most `endgame` cards (before that, pro's choice is played at
    pro's speed)."""
    if endgame <= 0:
        return True
    for q in range(g[K.players]):
        if g[O_PLACE + q] == 0 and g[O_HSIZE + q] <= endgame:
            return True
    return False


@njit(cache=True)
def shuffle_pile(s):
    """The draw pile in random order (the scratch game's generator), every hand as it is:
    `sees=hands`, which knows the hands but not the order of the pile."""
    shuffle(s, O_PILE, s[S_NPILE])


@njit(cache=True)
def seat_rollout_bot(s, q, code):
    """Seat q plays the rollout policy with its default parameters."""
    s[O_BOTS + q] = code
    base = O_PARAMS + q * L.N_BOT_PARAMS
    for k in range(L.N_BOT_PARAMS):
        s[base + k] = 0
    s[base + L.BP.jump_in_prob] = ONE
    if code == L.BOT.expert or code == L.BOT.pro:
        s[base + L.BP.challenge_prob] = -ONE  # the odds rule


@njit(cache=True)
def same_side(g, a, b):
    t = g[K.teams]
    return a == b if t == 0 else (a % t) == (b % t)


@njit(cache=True)
def outcome(s, p, objective):
    """What a finished rollout is worth to p: win (1 when p's side won, else 0) or points
    (last_standing: p's placement score n + 1 - 2 * place; otherwise the winner's points when
    p's side won, minus p's own hand points when another side won, 0 without a winner)."""
    w = s[O_REC + L.COL_WINNER]
    if objective == 0:
        return 1 if (w >= 0 and same_side(s, w, p)) else 0
    if s[K.mode] == 1:
        place = s[O_PLACE + p]
        return s[K.players] + 1 - 2 * place if place > 0 else 0
    if w < 0:
        return 0
    if same_side(s, w, p):
        return s[O_REC + L.COL_WINNER_POINTS]
    return -s[O_REC + L.COL_POINTS + p]


@njit(cache=True)
def decision_key(g, p):
    """A key for this decision's rollouts, derived from the real game's generator state and
    the position (turn count, piles, seat) without drawing from it."""
    x = np.uint64(g[O_RNG]) ^ (np.uint64(g[O_RNG + 2]) * _MIX)
    x ^= np.uint64(g[O_REC + L.COL_TURNS] * 1000003 + g[S_NDISC] * 131 + g[S_NPILE] * 7 + p) * np.uint64(
        0xBF58476D1CE4E5B9)
    return x
