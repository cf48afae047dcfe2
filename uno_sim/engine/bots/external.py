"""Seats played from Python (uno_sim/env/): answers read from a tape of actions.

A seat whose bit is set in g[O_EXT_SEATS] answers each question the engine asks from the tape
(g[O_EXT_TAPE], g[O_EXT_TAPE_LEN] actions, read in order from g[S_EXT_CURSOR]). When the tape
runs out at a question, the seat writes the question, the mask of legal actions and its
observation into the output block (g[O_EXT_OUT]: layout.N_ACTIONS mask entries, then
layout.N_OBS observation entries), sets S_EXT_STOPPED and ends the round there; the answer it
returns meanwhile is a harmless legal one (draw, accept, no, colour 0, a held card, the next
player). Python appends the chosen action and plays the game again from its deal with the
longer tape: the same key, game index and tape give the same game, because a seat playing
from the tape never draws from the game's generator for its questions.

On a two-sided deck (UNO Flip) the faces of the mask and the observation are the faces of the
side in play, and the observation's last blocks (write_other_side) say which side that is and
what the seat sees of the other side: every other player's cards and the draw pile's top card.

Under multi_play the seat is asked for one more card at a time after its first (extra_card)
until it says no or no card may follow. Once it jumps in with a choice of moves (sum jump-ins:
its identical card, its sum sets, or after a sum set the set's faces it holds) it builds its
move card by card (jump_card) in the order the cards go down, and says yes when they are a
move; a step with a single legal action is taken without asking. What the seat is not asked
it plays as the `random` bot it is seated as (its bot code stays `random`): whether it forgets
to call UNO (with its forget_uno, 0 by default). That draw is the random bot's own, so the
replay stays exact.
"""

from ..jit import njit

from ...game.knobs import K
from .. import layout as L
from ..access import color_of, deck_size, discards_color, hand, hsize, is_number, is_wild, n_faces, number_of, slot_of
from ..rules_check import legal_answer, legal_turn_card
from ..sides import face_of, two_sided
from ..sumsets import ENUMERATE, collect, sum_sets
from ..state import (
    O_CARD_OTHER,
    O_DISC,
    O_EXT_OUT,
    O_EXT_SEATS,
    O_EXT_TAPE,
    O_EXT_TAPE_LEN,
    O_HSIZE,
    O_JUMP_CHOSEN,
    O_JUMP_LOWEST,
    O_JUMP_NEXT,
    O_OWNER,
    O_PILE,
    O_PLACE,
    O_PLAYED,
    O_REC,
    O_RULES,
    O_VOIDS,
    PKIND_BY_VALUE,
    S_COLOR,
    S_DIR,
    S_ENDED,
    S_EXT_CURSOR,
    S_EXT_STOPPED,
    S_JUMP_COMPLETE,
    S_JUMP_NCHOSEN,
    S_NDISC,
    S_NPLAYED,
    S_NPILE,
    S_PENDING,
    S_PLAYERS,
    S_SET_COLORS,
    S_SIDE,
)
from . import uniform

Q = L.QUESTION


@njit(cache=True, inline="always")
def plays(g, p):
    """Seat p answers from the tape."""
    return (g[O_EXT_SEATS] >> p) & 1 != 0


@njit(cache=True)
def legal_card(g, p, f, color, top, pkind):
    """Can p put down face f now: on a turn (pkind 0), or answering a pending penalty whose
    last draw card has role pkind? The `random` bot's choices, in the same terms."""
    if g[hand(p) + f] == 0:
        return False
    if pkind == 0:
        return legal_turn_card(g, p, f, color, top, False)
    if g[K.stack_by_value]:
        return legal_answer(g, p, f, 0, f, PKIND_BY_VALUE)
    return legal_answer(g, p, f, color, top, pkind)


@njit(cache=True)
def write_mask(g, p, question, color, top, pkind):
    """The legal actions of `question` as 0/1 at g[O_EXT_OUT + action]."""
    out = g[O_EXT_OUT]
    for a in range(L.N_ACTIONS):
        g[out + a] = 0
    n = g[S_PLAYERS]
    if question == Q.turn or question == Q.answer:
        legal = 0
        for f in range(n_faces(g)):
            if legal_card(g, p, f, color, top, pkind):
                g[out + L.A_FACE + f] = 1
                legal += 1
        # accept the penalty; draw when no card may go down, or by choice under voluntary_draw
        if question == Q.answer or legal == 0 or g[K.voluntary_draw] != 0:
            g[out + L.A_NO] = 1
    elif question == Q.color or question == Q.roulette_color:
        for c in range(4):
            g[out + L.A_COLOR + c] = 1
    elif question == Q.swap_card:
        h = hand(p)
        for f in range(n_faces(g)):
            if g[h + f] > 0:
                g[out + L.A_FACE + f] = 1
    elif question == Q.extra_card:
        k = g[S_NPLAYED]
        for f in range(n_faces(g)):
            if may_follow(g, p, k, f):
                g[out + L.A_FACE + f] = 1
        g[out + L.A_NO] = 1
    elif question == Q.jump_card:
        for f in range(n_faces(g)):
            if g[O_JUMP_NEXT + f]:
                g[out + L.A_FACE + f] = 1
        if g[S_JUMP_COMPLETE]:
            g[out + L.A_YES] = 1
    elif question == Q.swap_target:
        for k in range(1, n):
            q = p + k if p + k < n else p + k - n
            if g[O_PLACE + q] == 0:
                g[out + L.A_SEAT + k] = 1
    else:  # play_drawn, challenge, jump_in, wild_swap
        g[out + L.A_NO] = 1
        g[out + L.A_YES] = 1


@njit(cache=True)
def write_observation(g, p, question, arg):
    """What seat p may know, at g[O_EXT_OUT + N_ACTIONS + layout.OB_*] (layout.OBS)."""
    o = g[O_EXT_OUT] + L.N_ACTIONS
    n = g[S_PLAYERS]
    nd = g[S_NDISC]
    g[o + L.OB_QUESTION] = question
    g[o + L.OB_SEAT] = p
    g[o + L.OB_ARG] = arg
    g[o + L.OB_PLAYERS] = n
    g[o + L.OB_TOP] = face_of(g, g[O_DISC + nd - 1]) if nd > 0 else -1
    g[o + L.OB_COLOR] = g[S_COLOR]
    g[o + L.OB_PENDING] = g[S_PENDING]
    g[o + L.OB_DIRECTION] = g[S_DIR]
    g[o + L.OB_PILE] = g[S_NPILE]
    g[o + L.OB_TURNS] = g[O_REC + L.COL_TURNS]
    h = hand(p)
    for f in range(L.MAX_FACES):
        g[o + L.OB_HAND + f] = g[h + f]
        g[o + L.OB_DISCARD + f] = 0
    if question == Q.extra_card:  # the cards chosen for the play so far are no longer to choose
        for i in range(g[S_NPLAYED]):
            g[o + L.OB_HAND + g[O_PLAYED + i]] -= 1
    jumping = question == Q.jump_card
    for f in range(L.MAX_FACES):
        g[o + L.OB_MOVES + f] = g[O_JUMP_LOWEST + f] if jumping else 0
    if jumping:
        for i in range(g[S_JUMP_NCHOSEN]):
            g[o + L.OB_HAND + g[O_JUMP_CHOSEN + i]] -= 1
    for i in range(nd):
        g[o + L.OB_DISCARD + face_of(g, g[O_DISC + i])] += 1
    for i in range(L.N_KNOBS):  # the rule set
        g[o + L.OB_RULES + i] = g[O_RULES + i]
    for k in range(L.MAX_PLAYERS):
        if k < n:
            q = p + k if p + k < n else p + k - n
            g[o + L.OB_SIZES + k] = g[O_HSIZE + q]
            g[o + L.OB_PLACES + k] = g[O_PLACE + q]
            g[o + L.OB_VOIDS + k] = g[O_VOIDS + q]
        else:
            g[o + L.OB_SIZES + k] = 0
            g[o + L.OB_PLACES + k] = 0
            g[o + L.OB_VOIDS + k] = 0
    write_other_side(g, p, o)


@njit(cache=True)
def write_other_side(g, p, o):
    """What seat p sees of the other side (two-sided decks, docs/BOTS.md "The observation"): the
    side in play, the other side's face of the draw pile's top card, and the other side's faces
    of every other player's cards (the backs of their hands face outwards), per relative seat.
    On a one-sided deck: side 0, no pile back (-1), no backs (the block is never written there,
    so it stays as the zeroed array has it)."""
    g[o + L.OB_SIDE] = g[S_SIDE]
    g[o + L.OB_PILE_BACK] = -1
    if not two_sided(g):
        return
    for i in range(L.MAX_PLAYERS * L.MAX_FACES):
        g[o + L.OB_BACKS + i] = 0
    npile = g[S_NPILE]
    if npile > 0:
        g[o + L.OB_PILE_BACK] = g[O_CARD_OTHER + g[O_PILE + npile - 1]]
    n = g[S_PLAYERS]
    for c in range(deck_size(g)):
        q = g[O_OWNER + c]
        if q >= 0 and q != p:
            k = q - p if q > p else q - p + n
            g[o + L.OB_BACKS + k * L.MAX_FACES + g[O_CARD_OTHER + c]] += 1


@njit(cache=True)
def kept_after(g, p, k):
    """Cards p still holds once the k cards at O_PLAYED go down, with the cards of every colour
    a Discard All among them takes down."""
    h = hand(p)
    colors = 0
    for i in range(k):
        if discards_color(g, g[O_PLAYED + i]):
            colors |= 1 << color_of(g, g[O_PLAYED + i])
    kept = 0
    for f in range(n_faces(g)):
        c = g[h + f]
        for i in range(k):
            if g[O_PLAYED + i] == f:
                c -= 1
        c_of = color_of(g, f)
        if c > 0 and not (c_of >= 0 and (colors >> c_of) & 1):
            kept += c
    return kept


@njit(cache=True)
def may_follow(g, p, k, e):
    """May face e follow the k cards of p's multi-play at O_PLAYED (the first one legal alone)?
    The rules: a card p still holds besides those, never a Wild, identical to the first card
    (multi_play identical) or of its number or action (same_symbol); under number_finish a set
    of action cards does not empty the hand."""
    f = g[O_PLAYED]
    mode = g[K.multi_play]
    if mode == 0 or is_wild(g, f) or is_wild(g, e):
        return False
    if (mode == 1 and e != f) or slot_of(g, e) != slot_of(g, f):
        return False
    held = g[hand(p) + e]
    for i in range(k):
        if g[O_PLAYED + i] == e:
            held -= 1
    if held <= 0:
        return False
    if g[K.number_finish] and not is_number(g, f):
        g[O_PLAYED + k] = e  # judged as put down (O_PLAYED has room for a whole deck)
        return kept_after(g, p, k + 1) > 0
    return True


@njit(cache=True)
def answer(g, p, question, arg, color, top, pkind):
    """The next action on the tape; when it has run out, the question is written out, the
    round stops and -1 comes back (as it does for every question after the stop)."""
    if g[S_EXT_STOPPED]:
        return -1
    c = g[S_EXT_CURSOR]
    if c < g[O_EXT_TAPE_LEN]:
        g[S_EXT_CURSOR] = c + 1
        return g[g[O_EXT_TAPE] + c]
    write_mask(g, p, question, color, top, pkind)
    write_observation(g, p, question, arg)
    g[S_EXT_STOPPED] = 1
    g[S_ENDED] = 1
    return -1


@njit(cache=True, inline="always")
def _relative(g, p, q):
    """q as the number of seats after p in seat order."""
    k = q - p
    return k if k >= 0 else k + g[S_PLAYERS]


@njit(cache=True)
def choose_turn_card(g, p, color, top):
    a = answer(g, p, Q.turn, -1, color, top, 0)
    return a if 0 <= a < L.A_COLOR else -1


@njit(cache=True)
def choose_answer(g, p, color, top, pkind):
    a = answer(g, p, Q.answer, -1, color, top, pkind)
    return a if 0 <= a < L.A_COLOR else -1


@njit(cache=True)
def choose_color(g, p):
    a = answer(g, p, Q.color, -1, 0, 0, 0)
    return a - L.A_COLOR if a >= L.A_COLOR else 0


@njit(cache=True)
def roulette_color(g, p):
    a = answer(g, p, Q.roulette_color, -1, 0, 0, 0)
    return a - L.A_COLOR if a >= L.A_COLOR else 0


@njit(cache=True)
def plays_drawn_card(g, p, f):
    return answer(g, p, Q.play_drawn, f, 0, 0, 0) == L.A_YES


@njit(cache=True)
def wants_challenge(g, p, target):
    return answer(g, p, Q.challenge, _relative(g, p, target), 0, 0, 0) == L.A_YES


@njit(cache=True)
def wants_jump(g, p, f):
    return answer(g, p, Q.jump_in, f, 0, 0, 0) == L.A_YES


@njit(cache=True)
def wants_wild_swap(g, p):
    return answer(g, p, Q.wild_swap, -1, 0, 0, 0) == L.A_YES


@njit(cache=True)
def wild_swap_card(g, p):
    a = answer(g, p, Q.swap_card, -1, 0, 0, 0)
    if a >= 0:
        return a
    h = hand(p)  # stopped: any held card keeps the hand whole until the round is dropped
    for f in range(n_faces(g)):
        if g[h + f] > 0:
            return f
    return 0


@njit(cache=True)
def choose_swap_target(g, p):
    a = answer(g, p, Q.swap_target, -1, 0, 0, 0)
    n = g[S_PLAYERS]
    if a >= 0:
        q = p + a - L.A_SEAT
        return q if q < n else q - n
    for k in range(1, n):  # stopped: the next player still in the round
        q = p + k if p + k < n else p + k - n
        if g[O_PLACE + q] == 0:
            return q
    return p



@njit(cache=True)
def extra_cards(g, p, f):
    """Multi-play: after face f (at O_PLAYED), p is asked for one more card at a time
    (extra_card, `argument` the card on top so far) until it answers no or no card may follow;
    each goes at O_PLAYED after the others, the last on top. Returns how many (0 when stopped:
    the round is dropped)."""
    k = 1
    while True:
        g[S_NPLAYED] = k  # the play so far, as write_mask reads it
        any_card = False
        for e in range(n_faces(g)):
            if may_follow(g, p, k, e):
                any_card = True
                break
        if not any_card:
            return k - 1
        a = answer(g, p, Q.extra_card, g[O_PLAYED + k - 1], 0, 0, 0)
        if a < 0:
            return 0
        if a >= L.A_COLOR:  # A_NO
            return k - 1
        g[O_PLAYED + k] = a
        k += 1


@njit(cache=True)
def _copies(g, at, k, e):
    """Copies of face e among the k faces at g[at:]."""
    c = 0
    for i in range(k):
        if g[at + i] == e:
            c += 1
    return c


@njit(cache=True)
def _note_move(g, k, size):
    """The move of `size` faces at O_PLAYED (face order): when it holds the k cards chosen at
    O_JUMP_CHOSEN, mark the faces it still has as choosable next (O_JUMP_NEXT), count it for
    its lowest one (O_JUMP_LOWEST), or, holding no more, say the chosen cards are a move."""
    for i in range(k):
        e = g[O_JUMP_CHOSEN + i]
        if _copies(g, O_PLAYED, size, e) < _copies(g, O_JUMP_CHOSEN, k, e):
            return
    if size == k:
        g[S_JUMP_COMPLETE] = 1
        return
    lowest = -1
    for i in range(size):
        e = g[O_PLAYED + i]
        if _copies(g, O_PLAYED, size, e) > _copies(g, O_JUMP_CHOSEN, k, e):
            g[O_JUMP_NEXT + e] = 1
            if lowest < 0:
                lowest = e
    g[O_JUMP_LOWEST + lowest] += 1


@njit(cache=True)
def jump_options(g, p, f, idents, sums, k):
    """What p may do next while choosing its jump-in move after face f, with the k cards at
    O_JUMP_CHOSEN chosen: every move (the `idents` identical cards, each distinct sum set when
    `sums`; the random bot's moves, uniform.jump_move) is enumerated at O_PLAYED and noted
    (_note_move). Returns the number of legal actions (faces, and yes when complete)."""
    for e in range(L.MAX_FACES):
        g[O_JUMP_NEXT + e] = 0
        g[O_JUMP_LOWEST + e] = 0
    g[S_JUMP_COMPLETE] = 0
    for r in range(idents):
        g[O_PLAYED] = f if g[S_SET_COLORS] == 0 else uniform.set_face(g, p, r)
        _note_move(g, k, 1)
    if sums:
        n = number_of(g, f)
        whole = hsize(g, p) if g[K.sum_jump_win_only] else 0
        m = collect(g, p, f)
        for r in range(sum_sets(g, m, n, whole, -1, ENUMERATE)):
            _note_move(g, k, sum_sets(g, m, n, whole, r, ENUMERATE))
    legal = g[S_JUMP_COMPLETE]
    for e in range(n_faces(g)):
        legal += g[O_JUMP_NEXT + e]
    return legal


@njit(cache=True)
def jump_move(g, p, f, idents, sums):
    """p jumps in after face f with a choice of moves (dispatch.jump_move): it is asked for its
    move one card at a time (jump_card; `argument` the card on top of the move so far, -1
    before the first), each card going down after the others, and says yes (A_YES) once the
    cards chosen are a move. A step with one legal action is taken without asking (a forced
    card; a move nothing extends), so a single move of one face is never asked. Returns the
    face of an identical jump-in, or -1 with the sum set at O_PLAYED (S_NPLAYED cards, last
    on top), as uniform.jump_move."""
    k = 0
    g[S_JUMP_NCHOSEN] = 0
    while True:
        legal = jump_options(g, p, f, idents, sums, k)
        if legal <= 1:
            if g[S_JUMP_COMPLETE] or legal == 0:
                break
            a = 0
            while g[O_JUMP_NEXT + a] == 0:
                a += 1
        else:
            a = answer(g, p, Q.jump_card, g[O_JUMP_CHOSEN + k - 1] if k > 0 else -1, 0, 0, 0)
            if a < 0:  # stopped: the random bot's first move keeps the game whole until it is dropped
                return first_move(g, p, f, idents)
            if a == L.A_YES:
                break
        g[O_JUMP_CHOSEN + k] = a
        k += 1
        g[S_JUMP_NCHOSEN] = k
    if k == 1:  # a sum set has two cards or more: one card is an identical jump-in
        return g[O_JUMP_CHOSEN]
    for i in range(k):
        g[O_PLAYED + i] = g[O_JUMP_CHOSEN + i]
    g[S_NPLAYED] = k
    return -1


@njit(cache=True)
def first_move(g, p, f, idents):
    """The first of p's moves in the random bot's order (uniform.jump_move with draw 0)."""
    if idents > 0:
        return f if g[S_SET_COLORS] == 0 else uniform.set_face(g, p, 0)
    whole = hsize(g, p) if g[K.sum_jump_win_only] else 0
    m = collect(g, p, f)
    g[S_NPLAYED] = sum_sets(g, m, number_of(g, f), whole, 0, ENUMERATE)
    return -1
