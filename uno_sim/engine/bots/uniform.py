"""The `random` bot (docs/RULES.md, "Bots": exact): every decision uniform over its choices.

dispatch.py asks here for every seat whose bot code is `random`; the functions carry the
names of the questions they answer. Decisions draw from the game's own generator and never
change the cards. The entry points are inlined into dispatch.py's (`inline="always"`), so
the compiled code is one function per question, as before the bots had a package.
"""

from ..jit import njit, njit_typed

from ...game.knobs import K
from .. import layout as L
from ..access import (
    MAX_COLORED_KINDS,
    MAX_WILD_KINDS,
    N_COLORS,
    colored_faces,
    colored_kinds,
    face_at,
    hand,
    hsize,
    is_number,
    is_wild,
    n_faces,
    number_of,
    param,
    restricted,
    set_bit,
    slot_of,
    wild_kinds,
)
from ..rng import chance, randint
from ..rules_check import (
    bluff_card,
    candidate,
    held_candidates,
    legal_answer,
    legal_turn_card,
    lowest_bit,
    turn_candidate,
    turn_candidates,
)
from ..sigs import G, I
from ..state import O_PLACE, PKIND_BY_VALUE, S_NPLAYED, S_PLAYERS, S_SET_COLORS, S_SET_FACES
from ..sumsets import ENUMERATE, collect, sum_sets


@njit(cache=True, inline="always")
def choose_turn_card(g, p, color, top):
    """Face to play on an ordinary turn, or -1 to draw: uniform over the legal cards."""
    h = hand(p)
    # A bluff: a restricted wild card held against wd4_rule, played with bluff_prob (0 by
    # default); the cheap checks here, the rest in _bluff.
    if g[K.challenge] != 0 and param(g, p, L.BP.bluff_prob) > 0:
        w = _bluff(g, p, color, top)
        if w >= 0:
            return w
    if g[K.number_finish] or g[S_SET_COLORS] != 0:  # (the same pick: number_finish may forbid a card)
        return _pick_legal_slowly(g, p, color, top)
    return _pick_legal(g, h, color, top)


@njit(cache=True)
def _bluff(g, p, color, top):
    """The rest of choose_turn_card's bluff check: the restricted wild card p would bluff with
    (rules_check.bluff_card: the Wild Draw Four, else the first restricted wild face of the side
    in play), played with bluff_prob; -1 for none. A rare path, so a plain call: inlined, its
    checks cost about 1 s of a cold compile."""
    w = bluff_card(g, p, color, top)
    if w >= 0 and chance(g, param(g, p, L.BP.bluff_prob)):
        return w
    return -1


@njit(cache=True, inline="always")
def _pick_legal(g, h, color, top):
    """Uniform over the legal physical cards, in candidate order: the current colour's faces,
    the top card's kind in the other colours, the wild faces (a restricted one, the Wild Draw
    Four, when wd4_rule allows it). Same result as _pick_legal_slowly; counts are summed once
    instead of per candidate. The loops run to the engine's maximum and stop at the deck's
    count (access.py, "Loops over a deck's faces")."""
    nck = colored_kinds(g)
    base = h + face_at(g, color, 0)
    in_color = 0
    for i in range(MAX_COLORED_KINDS):
        if i == nck:
            break
        in_color += g[base + i]
    same_kind = 0
    if not is_wild(g, top):
        s = slot_of(g, top)
        for c in range(N_COLORS):
            if c != color:
                same_kind += g[h + face_at(g, c, s)]
    first = colored_faces(g)
    nw = wild_kinds(g)
    wilds = 0  # unrestricted wild cards
    fours = 0  # restricted ones, counted without a branch
    for j in range(MAX_WILD_KINDS):
        if j == nw:
            break
        count = g[h + first + j]
        restricted_count = count if restricted(g, first + j) else 0  # (a select, not a jump)
        fours += restricted_count
        wilds += count - restricted_count
    if fours > 0:
        rule = g[K.wd4_rule]
        if rule == 0 and in_color > 0:
            fours = 0
        elif rule == 1 and (in_color > 0 or same_kind > 0):
            fours = 0
    total = in_color + same_kind + wilds + fours
    if total == 0:
        return -1
    r = randint(g, total)
    if r < in_color:
        # the first face whose running count passes r: as many faces as have a running count
        # <= r come before it (counted without a branch per face, which would be mispredicted)
        before = 0
        running = 0
        for i in range(MAX_COLORED_KINDS):
            if i == nck:
                break
            running += g[base + i]
            before += 1 if running <= r else 0
        return face_at(g, color, before)
    r -= in_color
    if r < same_kind:
        s = slot_of(g, top)
        for c in range(N_COLORS):
            if c != color:
                r -= g[h + face_at(g, c, s)]
                if r < 0:
                    return face_at(g, c, s)
    r -= same_kind
    unrestricted_only = fours == 0
    for j in range(MAX_WILD_KINDS):
        if j == nw:
            break
        f = first + j
        if not (unrestricted_only and restricted(g, f)):
            r -= g[h + f]
            if r < 0:
                return f
    return -1


@njit(cache=True, inline="always")
def _may_put_down(g, p, f, color, top, pkind):
    if pkind == 0:
        return legal_turn_card(g, p, f, color, top, False)
    return legal_answer(g, p, f, color, top, pkind)


@njit_typed(I(G, I, I, I), cache=True)
def _pick_legal_slowly(g, p, color, top):
    """Uniform over the legal physical cards, asking legal_turn_card about every candidate
    (every face, in face order, while a sum set is in force)."""
    h = hand(p)
    n = turn_candidates(g)
    total = 0
    for i in range(n):
        f = turn_candidate(g, i, color, top)
        if f >= 0 and legal_turn_card(g, p, f, color, top, False):
            total += g[h + f]
    if total == 0:
        return -1
    r = randint(g, total)
    for i in range(n):
        f = turn_candidate(g, i, color, top)
        if f >= 0 and legal_turn_card(g, p, f, color, top, False):
            r -= g[h + f]
            if r < 0:
                return f
    return -1


@njit_typed(I(G, I), cache=True)
def _answer_by_value(g, p):
    """stack_by_value: uniform over the physical cards answering the pending penalty (any
    colour, any kind: every face is looked at, in face order)."""
    h = hand(p)
    total = 0
    for f in range(n_faces(g)):
        if g[h + f] > 0 and legal_answer(g, p, f, 0, f, PKIND_BY_VALUE):
            total += g[h + f]
    if total == 0:
        return -1
    r = randint(g, total)
    for f in range(n_faces(g)):
        if g[h + f] > 0 and legal_answer(g, p, f, 0, f, PKIND_BY_VALUE):
            r -= g[h + f]
            if r < 0:
                return f
    return -1


@njit_typed(I(G, I, I, I, I), cache=True)
def choose_answer(g, p, color, top, pkind):
    """Uniform over the physical cards p may put down: answers to a pending penalty whose last
    draw card has role pkind (ROLE_DRAW_TWO or ROLE_WILD_DRAW_FOUR), or ordinary-turn cards
    when pkind is ROLE_NONE (0). -1 when none."""
    if pkind != 0 and g[K.stack_by_value]:
        return _answer_by_value(g, p)
    h = hand(p)
    held = held_candidates(g, p, color, top)  # only the candidates p holds, in candidate order
    total = 0
    rest = held
    while rest != 0:
        f = candidate(g, lowest_bit(rest), color, top)
        rest &= rest - 1
        if _may_put_down(g, p, f, color, top, pkind):
            total += g[h + f]
    if total == 0:
        return -1
    r = randint(g, total)
    rest = held
    while rest != 0:
        f = candidate(g, lowest_bit(rest), color, top)
        rest &= rest - 1
        if _may_put_down(g, p, f, color, top, pkind):
            r -= g[h + f]
            if r < 0:
                return f
    return -1


@njit(cache=True, inline="always")
def choose_color(g, p):
    return randint(g, N_COLORS)


@njit(cache=True, inline="always")
def plays_drawn_card(g, p, f):
    return True


@njit(cache=True, inline="always")
def wants_challenge(g, p, target):
    return chance(g, param(g, p, L.BP.challenge_prob))


@njit(cache=True, inline="always")
def wants_jump(g, p, f, idents, sums):
    """With jump_in_prob."""
    return chance(g, param(g, p, L.BP.jump_in_prob))


@njit_typed(I(G, I, I), cache=True)
def set_face(g, p, r):
    """The r-th face (in face order) of the sum set in force that p holds."""
    faces = g[S_SET_FACES]
    h = hand(p)
    for f in range(colored_faces(g)):
        if is_number(g, f) and (faces >> set_bit(g, f)) & 1 and g[h + f] > 0:
            if r == 0:
                return f
            r -= 1
    return -1


@njit(cache=True, inline="always")
def jump_move(g, p, f, idents, sums):
    """Uniform over its distinct moves: each identical face is one, each distinct multiset of
    faces forming a sum set is one; a sum set goes down in face order."""
    m = 0
    n = number_of(g, f)
    whole = hsize(g, p) if g[K.sum_jump_win_only] else 0
    sets = 0
    if sums:
        m = collect(g, p, f)
        sets = sum_sets(g, m, n, whole, -1, ENUMERATE)
    total = idents + sets
    r = 0 if total == 1 else randint(g, total)
    if r < idents:
        return f if g[S_SET_COLORS] == 0 else set_face(g, p, r)
    g[S_NPLAYED] = sum_sets(g, m, n, whole, r - idents, ENUMERATE)
    return -1


@njit(cache=True, inline="always")
def wants_wild_swap(g, p):
    """One draw, with probability 1/2."""
    return randint(g, 2) == 0


@njit_typed(I(G, I), cache=True)
def uniform_card(g, p):
    """A physical card of p's hand, uniformly at random: one draw indexing the cards in face order."""
    h = hand(p)
    r = randint(g, hsize(g, p))
    for f in range(n_faces(g)):
        r -= g[h + f]
        if r < 0:
            return f
    return -1


@njit(cache=True, inline="always")
def wild_swap_card(g, p):
    """A uniformly random card of its hand."""
    return uniform_card(g, p)


@njit(cache=True, inline="always")
def choose_swap_target(g, p):
    """Uniform among the other players still in the round."""
    n = g[S_PLAYERS]
    others = 0
    for q in range(n):
        if q != p and g[O_PLACE + q] == 0:
            others += 1
    r = randint(g, others)
    for q in range(n):
        if q != p and g[O_PLACE + q] == 0:
            if r == 0:
                return q
            r -= 1
    return -1


@njit(cache=True, inline="always")
def extra_cards(g, p, f):
    """None."""
    return 0
