"""One round of UNO: deal, lead, turns, jump-ins, scoring.

Every function takes the game array g (layout in state.py) and changes it in place. A play's
effects follow docs/RULES.md step by step in effects.py; what may follow a play (a hand-sum
claim, the jump-in window) is here (`after_play`).
"""

from .jit import njit, njit_typed

from ..game.decks import LEAD_DEALER, LEAD_DRAW, LEAD_FLIP, LEAD_REVERSE, LEAD_SKIP, LEAD_WILD
from ..game.knobs import K
from . import layout as L
from .access import (
    HAND_WIDTH,
    color_of,
    colored_faces,
    deck_size,
    discards_color,
    draw_of,
    hand,
    hsize,
    is_number,
    is_wild,
    lead_effect_of,
    lead_ok,
    number_of,
    points_of,
    set_bit,
)
from .bots import dispatch as bot
from . import table_view
from .events import emit, emit_hand, emit_held, emit_pile, ev, ev_close, ev_open, played_card, shown_color
from .effects import call_uno, clear_pending, discard_all, do_challenge, flip_over, go_out, play_out, resolve
from .hand_effects import mercy_scores
from .moves import cards_left, draw_cards, draw_penalty, end_round, last_one_left, put_down, top_card
from .rng import randint, shuffle
from .rules_check import (
    finish_forbids,
    legal_answer,
    play_drawn_allows,
    playable_drawn,
)
from .seats import step
from .sides import (
    face_of,
    light_side_up,
    new_deck,
    release_hand,
    to_hand,
    two_sided,
)
from .snapshots import save_turn_start
from .sigs import G, I
from .sumsets import has_sum_set, hand_sum_claims, stale
from .state import (
    O_CARD_OTHER,
    O_PLAYED_CARD,
    O_CARDS,
    O_DISC,
    O_HSIZE,
    O_PILE,
    O_PLACE,
    O_PLAYED,
    O_REC,
    O_WORK,
    S_ACTIVITY,
    S_CHAL_GUILTY,
    S_CHAL_OK,
    S_CHAL_PLAYER,
    S_COLOR,
    S_COLOR_POS,
    S_DIR,
    S_DRAW_OPEN,
    S_ENDED,
    S_FLIPPED,
    S_IDLE,
    S_JUMP_RUN,
    S_KNOCKED,
    S_LAST_DRAWN,
    S_LAST_DRAWN_CARD,
    S_PUT_CARD,
    S_NACTIVE,
    S_NDISC,
    S_NEXT,
    S_NEXT_PLACE,
    S_NPILE,
    S_NPLAYED,
    S_PENDING,
    S_PKIND,
    S_PLAYERS,
    S_PREV_COLOR,
    S_SET_COLORS,
    S_SET_FACES,
    S_SET_NUMS,
    S_SIDE,
    S_TPOS,
    S_TRACING,
)


@njit(cache=True)
def play_cards(g, p):
    """p's play of the cards at O_PLAYED (S_NPLAYED of them, last on top): its effects in the
    rules' order (effects.play_out), then what may follow it (after_play)."""
    f = g[O_PLAYED + g[S_NPLAYED] - 1]
    play_out(g, p)
    if (g[K.jump_in] | g[K.sum_jump_in] | g[K.hand_sum_win]) and g[S_FLIPPED] == 0:  # a flip opens no window
        after_play(g, p, f)


@njit(cache=True)
def after_play(g, p, f):
    """What may follow p's play with top face f once resolved: a hand-sum claim, then the
    jump-in window."""
    if g[K.hand_sum_win] and g[S_ENDED] == 0 and is_number(g, f):
        hand_sum_win(g, p, f)
    if g[K.sum_jump_in] or (g[K.jump_in] and (g[S_SET_COLORS] != 0 or someone_holds(g, top_card(g)))):
        jump_ins(g)


# ---------------------------------------------------------------- jump-ins and hand sums


@njit(cache=True, inline="always")
def someone_holds(g, f):
    """Some hand holds face f. Without it (and without sum jump-ins) the jump-in window
    cannot open: the usual case after a play, answered before the window is set up."""
    for q in range(g[S_PLAYERS]):
        if g[hand(q) + f] > 0:
            return True
    return False


@njit(cache=True)
def hand_sum_win(g, p, f):
    """After p played number face f (hand_sum_win): the first other player still in, in the
    direction of play after p, whose hand is only number cards adding up to f's number lays
    it down and goes out. One claim per card played."""
    n = number_of(g, f)
    others = g[S_NACTIVE] - (1 if g[O_PLACE + p] == 0 else 0)
    q = p
    for _ in range(others):
        q = step(g, q, 1)
        if hand_sum_claims(g, q, n):
            claim_hand_sum(g, q, p)
            return


@njit(cache=True)
def claim_hand_sum(g, q, p):
    """q lays its hand down and goes out on the number card p just played. The cards leave play."""
    g[O_REC + L.COL_HAND_SUM_WINS] += 1
    h = hand(q)
    last_standing = g[K.mode] == 1
    if last_standing:
        g[O_PLACE + q] = g[S_NEXT_PLACE]
        g[S_NEXT_PLACE] += 1
        g[S_NACTIVE] -= 1
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_HAND_SUM)
        emit(g, q)
        emit(g, g[O_PLACE + q])
        emit_held(g, q)
        ev_close(g, pos)
    if two_sided(g):
        release_hand(g, q)
    for f in range(HAND_WIDTH):
        g[h + f] = 0
    g[O_HSIZE + q] = 0
    stale(g, q)
    if not last_standing:
        end_round(g, L.REASON.out, q)
    elif g[S_NACTIVE] == 1:
        last_one_left(g)
    else:
        g[S_NEXT] = step(g, p, 1)  # the player after the one who played the number, as before


@njit(cache=True)
def jump_allowed(g, q, f):
    """May q jump in with face f (identical to the top card, or to a card of the sum set in
    force) now?"""
    if g[hand(q) + f] == 0:
        return False
    if g[K.number_finish] and finish_forbids(g, q, f):
        return False
    if g[S_PENDING] > 0:  # the jumped-in card acts as the jumper's answer
        return legal_answer(g, q, f, g[S_COLOR], f, g[S_PKIND])
    return True


@njit_typed(I(G, I), cache=True)
def set_jumps(g, q):
    """Identical jump-in moves of q after a sum set: the distinct faces of the set it holds."""
    faces = g[S_SET_FACES]
    moves = 0
    for f in range(colored_faces(g)):
        if is_number(g, f) and (faces >> set_bit(g, f)) & 1 and jump_allowed(g, q, f):
            moves += 1
    return moves


@njit(cache=True)
def jump_ins(g):
    """The jump-in window after a card is played (docs/RULES.md, "Jump-in" and "Sum jump-in"): players
    holding a card identical to the coloured top card (jump_in; after a sum set, identical to
    any card of the set) or, after a number card, a sum set for it (sum_jump_in) may play out
    of turn; one of those who want to is picked uniformly. Repeats until nobody moves."""
    n = g[S_PLAYERS]
    identical = g[K.jump_in] != 0
    sums_on = g[K.sum_jump_in] != 0
    while g[S_ENDED] == 0:
        f = top_card(g)
        if is_wild(g, f):
            return
        after_set = g[S_SET_COLORS] != 0
        sums = sums_on and not after_set and is_number(g, f) and g[S_PENDING] == 0
        if not identical and not sums:
            return
        want = 0  # candidates listed at O_WORK
        for q in range(n):
            if g[O_PLACE + q] != 0:
                continue
            idents = 0
            if identical:
                if after_set:
                    idents = set_jumps(g, q)
                elif jump_allowed(g, q, f):
                    idents = 1
            has_set = sums and has_sum_set(g, q, f)
            if (idents > 0 or has_set) and bot.wants_jump(g, q, f, idents, has_set):
                g[O_WORK + want] = q
                want += 1
        if want == 0:
            return
        j = g[O_WORK] if want == 1 else g[O_WORK + randint(g, want)]
        g[S_JUMP_RUN] += 1
        if identical and not sums and not after_set:
            face = f  # the only move (the identical jump-in window)
        else:
            idents = 0
            if identical:
                idents = set_jumps(g, j) if after_set else (1 if jump_allowed(g, j, f) else 0)
            face = bot.jump_move(g, j, f, idents, sums and has_sum_set(g, j, f))
        g[O_REC + L.COL_JUMPS] += 1
        if face < 0:
            sum_jump(g, j, number_of(g, f))
        else:
            g[O_PLAYED] = face
            g[S_NPLAYED] = 1
            nd = discard_all(g, j, 1) if discards_color(g, face) else 0  # under the jumped-in card
            g[O_PLAYED_CARD] = put_down(g, j, face)
            cards_left(g, j)
            g[S_PREV_COLOR] = g[S_COLOR]
            g[S_COLOR] = color_of(g, face)
            if discards_color(g, face):  # its event lists what it took down, even nothing
                ev_discard_jump(g, j, nd)
            else:
                ev(g, L.EV_JUMP, 3, j, shown_color(g), played_card(g, 0))
            resolve(g, j, 1, False)
            if g[K.hand_sum_win] and g[S_ENDED] == 0 and is_number(g, face):
                hand_sum_win(g, j, face)
        if g[S_ENDED] == 0 and g[S_JUMP_RUN] >= g[K.max_turns]:
            end_round(g, L.REASON.cap, -1)


@njit(cache=True)
def sum_jump(g, j, n):
    """j puts down the sum set at O_PLAYED (S_NPLAYED cards adding up to n, last on top). The
    cards have no effects; the set's matching stays in force until the next card is played."""
    k = g[S_NPLAYED]
    colors = 0
    numbers = 0
    faces = 0
    for i in range(k):
        f = g[O_PLAYED + i]
        g[O_PLAYED_CARD + i] = put_down(g, j, f)
        colors |= 1 << color_of(g, f)
        numbers |= 1 << number_of(g, f)
        faces |= 1 << set_bit(g, f)
    top = g[O_PLAYED + k - 1]
    stale(g, j)
    g[S_SET_COLORS] = colors
    g[S_SET_NUMS] = numbers
    g[S_SET_FACES] = faces
    g[S_PREV_COLOR] = g[S_COLOR]
    g[S_COLOR] = color_of(g, top)
    g[O_REC + L.COL_SUM_JUMPS] += 1
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_SUM_JUMP)
        emit(g, j)
        emit(g, shown_color(g))
        emit(g, n)
        for i in range(k):
            emit(g, played_card(g, i))
        ev_close(g, pos)
    if hsize(g, j) == 1:
        call_uno(g, j)
        if g[S_ENDED]:
            return
    if hsize(g, j) == 0:
        go_out(g, j, k, top, 0, False)  # a number card: no penalty, no effect
        return
    g[S_NEXT] = step(g, j, 1)


@njit(cache=True)
def ev_discard_jump(g, j, nd):
    """The trace event of a jumped-in Discard All (at O_PLAYED) with the nd cards it took down."""
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_JUMP_DISCARD)
        emit(g, j)
        emit(g, shown_color(g))
        for i in range(1 + nd):
            emit(g, played_card(g, i))
        ev_close(g, pos)


# ---------------------------------------------------------------- turns


@njit(cache=True, inline="always")
def normal_turn(g, p):
    """An ordinary turn: play a legal card, or draw (and maybe play the drawn card)."""
    g[O_REC + L.COL_TURNS] += 1
    color = g[S_COLOR]
    top = top_card(g)
    f = bot.choose_turn_card(g, p, color, top)
    seen = table_view.turn_begins(g, p, color, top)
    if f >= 0:
        g[O_PLAYED] = f
        g[S_NPLAYED] = 1 + bot.extra_cards(g, p, f)
        before = g[S_NDISC]
        play_cards(g, p)
        table_view.played(g, p, f, before, seen)
        return
    drawn = draw_cards(g, p, 1, L.WHY.turn, g[K.draw_rule] == 1)
    if g[S_ENDED]:
        return
    f = g[S_LAST_DRAWN]
    if (
        drawn > 0
        and g[O_PLACE + p] == 0  # (not knocked out by the mercy rule on this draw)
        and playable_drawn(g, p, f, color, top)
        and play_drawn_allows(g, f)
        and (g[K.must_play_drawn] != 0 or bot.plays_drawn_card(g, p, f))
    ):
        table_view.drew_to_play(g, p, seen)
        g[O_PLAYED] = f
        g[S_NPLAYED] = 1
        if two_sided(g):  # that very card, not another showing the same face (play_cards)
            g[S_PUT_CARD] = g[S_LAST_DRAWN_CARD] + 1
        before = g[S_NDISC]
        play_cards(g, p)
        table_view.played_drawn(g, p, f, drawn, before, seen)
    else:
        table_view.drew_and_kept(g, p, drawn, seen)
        g[S_NEXT] = step(g, p, 1)


@njit(cache=True, inline="always")
def penalty_turn(g, v):
    """The victim of a pending penalty: challenge the chain's first Wild Draw Four, answer, or accept."""
    table_view.penalty_turn_begins(g, v)
    if g[S_CHAL_OK]:
        g[S_CHAL_OK] = 0
        target = g[S_CHAL_PLAYER]
        if bot.wants_challenge(g, v, target):
            do_challenge(g, v, target, g[S_CHAL_GUILTY] != 0)
            return  # a winning challenger who plays takes the next (counted) turn
    g[O_REC + L.COL_TURNS] += 1
    f = bot.choose_answer(g, v, g[S_COLOR], top_card(g), g[S_PKIND])
    if f >= 0:
        g[O_PLAYED] = f
        g[S_NPLAYED] = 1 + bot.extra_cards(g, v, f)
        play_cards(g, v)
        return
    total = g[S_PENDING]
    clear_pending(g)
    draw_penalty(g, v, total, L.WHY.penalty)
    if g[S_ENDED] == 0:
        g[S_NEXT] = step(g, v, 1)


# ---------------------------------------------------------------- deal and lead


@njit(cache=True)
def deal(g, dealer):
    n = g[K.players]
    for q in range(n):
        h = hand(q)
        for f in range(HAND_WIDTH):
            g[h + f] = 0
        g[O_HSIZE + q] = 0
        g[O_PLACE + q] = 0
        stale(g, q)
    size = deck_size(g)
    if two_sided(g):  # the physical cards, light side up, and their pairing with the dark faces
        new_deck(g)
    else:
        for i in range(size):  # the deck in face order, each face as many times as the deck holds it
            g[O_PILE + i] = g[O_CARDS + i]
    shuffle(g, O_PILE, size)
    g[S_NPILE] = size
    g[S_NDISC] = 0
    first = (dealer + 1) % n
    for _ in range(g[K.hand_size]):  # one card at a time, starting left of the dealer
        for j in range(n):
            q = first + j if first + j < n else first + j - n  # (dealer + 1 + j) % n
            card = g[O_PILE + g[S_NPILE] - 1]
            g[S_NPILE] -= 1
            g[hand(q) + face_of(g, card)] += 1
            g[O_HSIZE + q] += 1
            if two_sided(g):
                to_hand(g, q, card)
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_DEAL)
        emit(g, dealer)
        for q in range(n):
            emit_hand(g, q)
        emit_pile(g)
        ev_close(g, pos)
        if two_sided(g):
            pos = ev_open(g, L.EV_PAIRING)
            emit(g, size)
            for i in range(size):
                emit(g, g[O_CARD_OTHER + i])
            ev_close(g, pos)


@njit(cache=True)
def acceptable_lead(g, f):
    if g[K.first_card] == 0:
        return lead_ok(g, f)
    return is_number(g, f)


@njit(cache=True)
def flip_lead(g):
    """Flip lead cards until an acceptable one shows (docs/RULES.md, "The lead card"); False if none can."""
    while True:
        n = g[S_NPILE]
        if n == 0:
            return False
        card = g[O_PILE + n - 1]
        f = face_of(g, card)
        if not acceptable_lead(g, f):  # (with an acceptable top card there is one: no count)
            ok = 0
            for i in range(n):
                if acceptable_lead(g, face_of(g, g[O_PILE + i])):
                    ok += 1
            if ok == 0:
                return False
        ev(g, L.EV_LEAD, 1, card, 0, 0)
        if acceptable_lead(g, f):
            g[S_NPILE] = n - 1
            g[O_DISC] = card
            g[S_NDISC] = 1
            return True
        shuffle(g, O_PILE, n)  # the card goes back and the pile is reshuffled
        if g[S_TRACING]:
            pos = ev_open(g, L.EV_RETURN)
            emit(g, card)
            emit_pile(g)
            ev_close(g, pos)


@njit(cache=True)
def start_round(g, dealer):
    """Lead card and its effect; sets the colour, direction and first player (S_NEXT)."""
    if not flip_lead(g):
        end_round(g, L.REASON.void, -1)
        return
    f = top_card(g)
    g[O_REC + L.COL_LEAD] = g[O_DISC]
    n = g[S_PLAYERS]
    first = (dealer + 1) % n
    g[S_NEXT] = first
    lead_effect(g, dealer, f)


@njit(cache=True)
def lead_effect(g, dealer, f):
    """The effect of lead card f (the first player is set; docs/RULES.md "The lead card" and
    "Two-sided decks"), by its kind's text (decks.lead_effect: S, R, D, W, and on a two-sided deck
    D1, D5, E, F): F flips everything at once and the first player matches the new top card; E
    gives the first turn to the dealer; a draw kind makes the first player draw."""
    first = g[S_NEXT]
    effect = lead_effect_of(g, f)
    if effect == LEAD_FLIP:
        flip_over(g, -1, False)
        return
    if effect == LEAD_WILD:
        g[S_COLOR] = bot.choose_color(g, first)
        ev(g, L.EV_CHOOSE, 2, first, shown_color(g), 0)
        return
    g[S_COLOR] = color_of(g, f)
    if effect == LEAD_DRAW:
        if draw_of(g, f) > 0:  # (a DIY kind with the text of a draw kind and no draw: nothing to draw)
            draw_penalty(g, first, draw_of(g, f), L.WHY.lead)
        if g[K.lead_draw_two_skips]:
            g[S_NEXT] = step(g, first, 1)
    elif effect == LEAD_REVERSE:
        g[S_DIR] = -1
        n = g[S_PLAYERS]
        lead_reverse = g[K.lead_reverse]
        if lead_reverse == 0:
            g[S_NEXT] = dealer
        elif lead_reverse == 1:
            g[S_NEXT] = (dealer - 1) % n
        else:
            g[S_NEXT] = (dealer + 1) % n
    elif effect == LEAD_SKIP:
        g[S_NEXT] = step(g, first, 1)
    elif effect == LEAD_DEALER:
        g[S_NEXT] = dealer


# ---------------------------------------------------------------- one round


@njit(cache=True)
def setup_round(g, dealer, tracing, trace_start):
    """Reset the round state, deal and turn the lead card. The generator must be seeded."""
    n = g[K.players]
    light_side_up(g)  # (a two-sided deck's last round may have ended on the dark side)
    for i in range(O_REC, O_REC + L.N_COLS):
        g[i] = 0
    for i in range(S_DIR, O_REC):
        g[i] = 0
    g[O_REC + L.COL_WINNER] = -1
    g[O_REC + L.COL_LEAD] = -1
    g[S_TRACING] = tracing
    g[S_TPOS] = trace_start
    g[S_DRAW_OPEN] = -1
    g[S_COLOR_POS] = -1
    g[S_DIR] = 1
    g[S_PLAYERS] = n
    g[S_NACTIVE] = n
    g[S_NEXT_PLACE] = 1
    deal(g, dealer)
    start_round(g, dealer)


@njit(cache=True)
def continue_round(g, max_steps):
    """Take regular turns until the round ends (or max_steps turns, when >= 0); then score.

    Position tests build a state in g and call this directly. A game played from Python keeps
    the state as each turn begins (snapshots.py), so that its next step resumes there."""
    steps = 0
    while g[S_ENDED] == 0 and steps != max_steps:
        steps += 1
        save_turn_start(g)
        p = g[S_NEXT]
        g[S_ACTIVITY] = 0
        g[S_JUMP_RUN] = 0
        if g[S_PENDING] > 0:
            penalty_turn(g, p)
        else:
            normal_turn(g, p)
        if g[S_ENDED]:
            break
        g[S_IDLE] = 0 if g[S_ACTIVITY] else g[S_IDLE] + 1
        if g[S_IDLE] >= g[S_NACTIVE]:  # stall is checked before max_turns
            end_round(g, L.REASON.stall, -1)
        elif g[O_REC + L.COL_TURNS] >= g[K.max_turns]:
            end_round(g, L.REASON.cap, -1)
    if g[S_ENDED]:
        score_round(g)


@njit(cache=True, inline="always")
def play_round(g, dealer, tracing, trace_start):
    """Play one whole round; the record row is left at O_REC. Inlined: as a function of its
    own it would be one more compiled copy of the whole engine (about 1 s of a cold compile)."""
    setup_round(g, dealer, tracing, trace_start)
    continue_round(g, -1)


@njit(cache=True)
def score_round(g):
    n = g[K.players]
    for q in range(n):
        pts = 0
        h = hand(q)
        for f in range(HAND_WIDTH):  # branch-free, so LLVM vectorizes it (points include zero_points)
            pts += g[h + f] * points_of(g, f)
        g[O_REC + L.COL_POINTS + q] = pts
        g[O_REC + L.COL_CARDS + q] = g[O_HSIZE + q]
    if g[S_KNOCKED]:
        mercy_scores(g)
    g[O_REC + L.COL_SIDE] = g[S_SIDE]
    w = g[O_REC + L.COL_WINNER]
    if w < 0:
        return
    teams = g[K.teams]
    total = 0
    for q in range(n):
        same_team = q == w if teams == 0 else (q % teams) == (w % teams)
        if g[K.mode] == 0:
            if not same_team:
                total += g[O_REC + L.COL_POINTS + q]
        elif same_team:
            total += n + 1 - 2 * g[O_PLACE + q]
    g[O_REC + L.COL_WINNER_POINTS] = total
