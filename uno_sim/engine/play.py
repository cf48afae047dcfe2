"""One round of UNO: deal, lead, turns, effects, stacking, challenges, jump-ins, scoring.

Every function takes the game array g (layout in state.py) and changes it in place. What
happens after a card is put down follows docs/RULES.md step by step (`after_play`).
"""

from .jit import njit, njit_typed

from ..game.decks import LEAD_DEALER, LEAD_DRAW, LEAD_FLIP, LEAD_REVERSE, LEAD_SKIP, LEAD_WILD
from ..game.knobs import K
from . import layout as L
from .access import (
    HAND_WIDTH,
    ROLE_DRAW_TWO,
    ROLE_WILD,
    ROLE_WILD_DRAW_FOUR,
    color_of,
    colored_faces,
    colored_kinds,
    deck_size,
    discards_color,
    draw_of,
    draws_color,
    face_at,
    flips,
    hand,
    hand_effect,
    hsize,
    is_number,
    is_wild,
    lead_effect_of,
    lead_ok,
    n_faces,
    number_of,
    points_of,
    restricted,
    reverses,
    role_of,
    roulette,
    set_bit,
    shuffles_hands,
    skip_of,
    swaps_hands,
)
from .bots import dispatch as bot
from .bots.uniform import uniform_card
from . import table_view
from .hand_effects import hand_taken, last_in, mercy_scores, over_limit, set_aside, shuffle_and_deal
from .rng import chance, randint, shuffle
from .rules_check import (
    challenge_possible,
    color_held,
    d2_stacks,
    d4_stacks,
    finish_forbids,
    holds_forbidding_card,
    legal_answer,
    play_drawn_allows,
    playable_drawn,
)
from .seats import step
from .sides import (
    face_of,
    keep_played_face,
    light_side_up,
    new_deck,
    release_hand,
    swap_owners,
    take_card,
    to_hand,
    turn_over,
    two_sided,
)
from .snapshots import save_turn_start
from .sigs import B, G, I, VOID
from .sumsets import has_sum_set, hand_sum_claims, stale
from .state import (
    O_ASIDE,
    O_CAPACITY,
    O_CARD_OTHER,
    O_OWNER,
    O_PLAYED_CARD,
    O_CARDS,
    O_CATCHERS,
    O_DISC,
    O_HSIZE,
    O_PILE,
    O_PLACE,
    O_PLAYED,
    O_REC,
    O_SWAP3,
    O_SWAP3_CARDS,
    O_WORK,
    O_WORK_HANDS,
    PKIND_BY_VALUE,
    PLAYED_FACE,
    S_ACTIVITY,
    S_CHAL_DRAW,
    S_CHAL_GUILTY,
    S_CHAL_OK,
    S_CHAL_PLAYER,
    S_COLOR,
    S_COLOR_POS,
    S_DIR,
    S_DRAW_OPEN,
    S_DRAW_WROTE,
    S_BY_COLOR,
    S_COLOR_EXTRA,
    S_ENDED,
    S_FLIPPED,
    S_IDLE,
    S_SWAP_PLAY,
    S_JUMP_RUN,
    S_KNOCKED,
    S_LAST_DRAWN,
    S_LAST_DRAWN_CARD,
    S_PUT_CARD,
    S_NACTIVE,
    S_NASIDE,
    S_NDISC,
    S_NEXT,
    S_NEXT_PLACE,
    S_NPILE,
    S_NPLAYED,
    S_OVERFLOW,
    S_PDRAW,
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
    S_WILD_SWAP,
)



# ---------------------------------------------------------------- small reads


@njit(cache=True, inline="always")
def top_card(g):
    """The face in play of the discard pile's top card."""
    return face_of(g, g[O_DISC + g[S_NDISC] - 1])


# ---------------------------------------------------------------- trace writing


@njit_typed(VOID(G, I), cache=True)
def emit(g, x):
    pos = g[S_TPOS]
    if pos < g[O_CAPACITY]:
        g[pos] = x
        g[S_TPOS] = pos + 1
    else:
        g[S_OVERFLOW] = 1


@njit(cache=True)
def ev_open(g, code):
    pos = g[S_TPOS]
    emit(g, code)
    emit(g, 0)
    return pos


@njit(cache=True)
def ev_close(g, pos):
    if g[S_OVERFLOW] == 0:
        g[pos + 1] = g[S_TPOS] - pos - 2


@njit_typed(VOID(G, I, I, I, I, I), cache=True)
def ev(g, code, n, a, b, c):
    """An event with n (0-3) fixed fields a, b, c."""
    if g[S_TRACING]:
        pos = ev_open(g, code)
        if n > 0:
            emit(g, a)
        if n > 1:
            emit(g, b)
        if n > 2:
            emit(g, c)
        ev_close(g, pos)


@njit(cache=True)
def emit_hand(g, q):
    """Seat q's hand in an event: its size, then its cards (faces in face order; the physical
    cards, in card order, of a two-sided deck)."""
    emit(g, g[O_HSIZE + q])
    emit_held(g, q)


@njit(cache=True)
def emit_held(g, q):
    """Seat q's cards: faces in face order, or a two-sided deck's physical cards in card order."""
    if two_sided(g):
        for c in range(deck_size(g)):
            if g[O_OWNER + c] == q:
                emit(g, c)
        return
    for f in range(n_faces(g)):
        for _ in range(g[hand(q) + f]):
            emit(g, f)


@njit(cache=True, inline="always")
def played_card(g, i):
    """The card put down for O_PLAYED + i, as events list it (its physical card on a two-sided
    deck, else its face)."""
    if two_sided(g):
        return g[O_PLAYED_CARD + i]
    return g[O_PLAYED + i]


@njit(cache=True, inline="always")
def shown_color(g):
    """The colour in force as events carry it: 0-3, plus 4 on a two-sided deck's dark side (the
    side's own letters, P T O V)."""
    return g[S_COLOR] + 4 * g[S_SIDE]


@njit(cache=True)
def emit_pile(g):
    """The draw pile, top first."""
    for i in range(g[S_NPILE] - 1, -1, -1):
        emit(g, g[O_PILE + i])


# ---------------------------------------------------------------- seats


@njit_typed(VOID(G, I, I), cache=True)
def end_round(g, reason, winner):
    g[S_ENDED] = 1
    g[O_REC + L.COL_REASON] = reason
    g[O_REC + L.COL_WINNER] = winner


# ---------------------------------------------------------------- drawing


@njit(cache=True)
def reshuffle(g):
    """Discard pile except its top, plus the cards set aside by the mercy rule, becomes the new
    draw pile, shuffled."""
    nd = g[S_NDISC]
    top = g[O_DISC + nd - 1]
    for i in range(nd - 1):
        g[O_PILE + i] = g[O_DISC + i]
    m = nd - 1
    for i in range(g[S_NASIDE]):
        g[O_PILE + m + i] = g[O_ASIDE + i]
    m += g[S_NASIDE]
    g[S_NASIDE] = 0
    g[S_NPILE] = m
    g[O_DISC] = top
    g[S_NDISC] = 1
    shuffle(g, O_PILE, m)
    g[O_REC + L.COL_RESHUFFLES] += 1
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_RESHUFFLE)
        emit_pile(g)
        ev_close(g, pos)


@njit(cache=True)
def close_draw_event(g):
    if g[S_DRAW_OPEN] >= 0:
        ev_close(g, g[S_DRAW_OPEN])
        g[S_DRAW_OPEN] = -1


@njit_typed(I(G, I, I, I, B), cache=True)
def draw_cards(g, p, n, why, until_playable):
    """One draw obligation of p: n cards, or (until_playable) up to the first playable card.

    Returns the number of cards drawn; the last face drawn is g[S_LAST_DRAWN] (-1 if none).
    Reshuffles when a card is owed and the pile is empty; under empty_pile = void ends the round.
    """
    tracing = g[S_TRACING]
    g[S_DRAW_OPEN] = -1
    g[S_DRAW_WROTE] = 0
    g[S_LAST_DRAWN] = -1
    h = hand(p)
    drawn = 0
    # roulette and draw_color victims turn up cards until the colour in force appears (wild
    # faces never count); a failed challenger of a draw_color card then draws S_COLOR_EXTRA more
    by_color = why == L.WHY.roulette or why == L.WHY.draw_color or g[S_BY_COLOR] != 0
    while until_playable or drawn < n:
        if g[S_NPILE] == 0:
            if drawn > 0 and over_limit(g, p):  # mercy rule: knocked out after this part, the rest ends
                break
            if g[K.empty_pile] == 1:
                close_draw_event(g)
                end_round(g, L.REASON.void, -1)
                break
            if g[S_NDISC] + g[S_NASIDE] < 2:
                break
            close_draw_event(g)
            reshuffle(g)
        card = g[O_PILE + g[S_NPILE] - 1]
        f = face_of(g, card)
        g[S_NPILE] -= 1
        g[h + f] += 1
        g[O_HSIZE + p] += 1
        if two_sided(g):
            to_hand(g, p, card)
            g[S_LAST_DRAWN_CARD] = card
        drawn += 1
        g[S_LAST_DRAWN] = f
        if tracing:
            if g[S_DRAW_OPEN] < 0:
                g[S_DRAW_OPEN] = ev_open(g, L.EV_DRAW)
                g[S_DRAW_WROTE] = 1
                emit(g, p)
                emit(g, why)
            emit(g, card)
        if until_playable and playable_drawn(g, p, f, g[S_COLOR], top_card(g)):
            break
        if by_color and color_of(g, f) == g[S_COLOR]:  # the named colour turned up
            if g[S_COLOR_EXTRA] == 0:
                break
            by_color = False  # a failed challenger: the extra cards after the colour
            n = drawn + g[S_COLOR_EXTRA]
            g[S_COLOR_EXTRA] = 0
    close_draw_event(g)
    if drawn > 0:
        g[O_REC + L.COL_DRAWS] += drawn
        g[S_ACTIVITY] = 1
        hand_taken(g, p)  # the cards taken may be of any colour
    if tracing and g[S_DRAW_WROTE] == 0 and g[S_ENDED] == 0:
        ev(g, L.EV_DRAW, 2, p, why, 0)  # nothing could be drawn: an empty draw event
    if drawn > 0 and over_limit(g, p):
        knock_out(g, p)
    return drawn


@njit_typed(I(G, I, I, I), cache=True)
def draw_penalty(g, p, n, why):
    """A Draw Two / Wild Draw Four penalty (or the lead Draw Two): counts towards max_pending."""
    drawn = draw_cards(g, p, n, why, False)
    g[O_REC + L.COL_PENALTY_DRAWN] += drawn
    if drawn > g[O_REC + L.COL_MAX_PENDING]:
        g[O_REC + L.COL_MAX_PENDING] = drawn
    return drawn


# ---------------------------------------------------------------- putting cards down


@njit(cache=True, inline="always")
def put_down(g, p, f):
    """p puts a card of face f on the discard pile; returns the card (a two-sided deck's
    physical card, picked among p's cards showing f; else the face)."""
    return lay_down(g, p, f, take_card(g, p, f) if two_sided(g) else f)


@njit(cache=True, inline="always")
def lay_down(g, p, f, card):
    """p puts `card`, showing face f, on the discard pile (a two-sided deck's physical card, no
    longer owned by p; else the face); returns it."""
    g[hand(p) + f] -= 1
    g[O_HSIZE + p] -= 1
    g[O_DISC + g[S_NDISC]] = card
    g[S_NDISC] += 1
    g[O_REC + L.COL_PLAYS] += 1
    g[S_ACTIVITY] = 1
    return card


@njit(cache=True, inline="always")
def cards_left(g, p):
    """After p put cards down: p's hand changed (its sum cache is stale), and a sum set's
    matching, which lasts until the next card is played, is over."""
    stale(g, p)
    g[S_SET_COLORS] = 0


@njit(cache=True)
def play_cards(g, p):
    """Put down the cards at O_PLAYED (S_NPLAYED of them, last on top) as p's play, then
    everything that follows. Wild Draw Four guilt is judged on the hand before it leaves."""
    k = g[S_NPLAYED]
    f = g[O_PLAYED + k - 1]
    guilty = False
    if restricted(g, f):
        guilty = holds_forbidding_card(g, p, g[S_COLOR], top_card(g))
    drawn = g[S_PUT_CARD] - 1  # a two-sided deck's card drawn this turn and played (alone), else -1
    if drawn >= 0:
        g[S_PUT_CARD] = 0
        g[O_OWNER + drawn] = -1  # out of the hand first: a Discard All takes down the other cards
    discards = any_discards(g, k)
    nd = discard_all(g, p, k) if discards else 0  # under the played cards
    for i in range(k):
        if drawn >= 0:
            g[O_PLAYED_CARD + i] = lay_down(g, p, g[O_PLAYED + i], drawn)
        else:
            g[O_PLAYED_CARD + i] = put_down(g, p, g[O_PLAYED + i])
    cards_left(g, p)
    g[S_PREV_COLOR] = g[S_COLOR]
    g[S_FLIPPED] = 0
    g[S_SWAP_PLAY] = 0
    if is_wild(g, f):
        # wild_swap: a Wild that is not the last card may swap cards instead (the colour stays)
        if role_of(g, f) == ROLE_WILD and g[K.wild_swap] and hsize(g, p) > 0 and bot.wants_wild_swap(g, p):
            g[S_WILD_SWAP] = 1
            g[S_SWAP_PLAY] = 1
        elif hand_effect(g, f) and names_color_later(g, p, f):
            pass  # the roulette victim names it, the player after shuffling or after the flip (S_COLOR_POS)
        else:
            g[S_COLOR] = bot.choose_color(g, p)
    else:
        g[S_COLOR] = color_of(g, f)
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_PLAY_SWAP if g[S_WILD_SWAP] else (L.EV_PLAY_DISCARD if discards else L.EV_PLAY))
        g[S_COLOR_POS] = pos + 3
        emit(g, p)
        emit(g, shown_color(g))
        if discards:  # a Discard All's play lists what it took down, even nothing (docs/RULES.md, "The trace")
            emit(g, k)
        for i in range(k + nd):
            emit(g, played_card(g, i))
        ev_close(g, pos)
    resolve(g, p, k, guilty)
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
def last_one_left(g):
    """last_standing: one player is left; they place last and the round ends (winner: place 1)."""
    first = 0
    for q in range(g[S_PLAYERS]):
        if g[O_PLACE + q] == 0:
            g[O_PLACE + q] = g[S_NEXT_PLACE]
        elif g[O_PLACE + q] == 1:
            first = q
    end_round(g, L.REASON.out, first)


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
def call_uno(g, p):
    """p holds one card after putting cards down: call UNO, or forget and maybe be caught."""
    if not bot.forgets_uno(g, p):
        ev(g, L.EV_UNO, 1, p, 0, 0)
        return
    if g[K.uno_catchers] == 0:  # one: caught once, with uno_catch
        if chance(g, g[K.uno_catch]):
            g[O_REC + L.COL_UNO_CAUGHT] += 1
            g[O_REC + L.COL_UNO_CATCHERS] += 1
            ev(g, L.EV_CAUGHT, 1, p, 0, 0)
            if g[K.uno_penalty] > 0:
                draw_cards(g, p, g[K.uno_penalty], L.WHY.uno, False)
        return
    caught_by_each(g, p)


@njit_typed(VOID(G, I), cache=True)
def caught_by_each(g, p):
    """uno_catchers = each: every other player still in, in the direction of play after p,
    catches with uno_catch; p draws uno_penalty per catcher, in one draw."""
    catchers = 0
    q = p
    for _ in range(g[S_NACTIVE] - 1):
        q = step(g, q, 1)
        if chance(g, g[K.uno_catch]):
            g[O_CATCHERS + catchers] = q
            catchers += 1
    if catchers == 0:
        return
    g[O_REC + L.COL_UNO_CAUGHT] += 1
    g[O_REC + L.COL_UNO_CATCHERS] += catchers
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_CAUGHT_BY)
        emit(g, p)
        for i in range(catchers):
            emit(g, g[O_CATCHERS + i])
        ev_close(g, pos)
    if g[K.uno_penalty] > 0:
        draw_cards(g, p, g[K.uno_penalty] * catchers, L.WHY.uno, False)


@njit_typed(VOID(G, I), cache=True)
def wild_swap(g, p):
    """p played a Wild as a swap (wild_swap): k = min(3, own hand, target's hand) cards of p's
    choice go to the target, k cards picked uniformly from the target's hand come back."""
    t = bot.choose_swap_target(g, p)
    k = min(3, hsize(g, p), hsize(g, t))
    hp = hand(p)
    ht = hand(t)
    sided = two_sided(g)
    for i in range(k):  # the cards p gives, one at a time
        f = bot.wild_swap_card(g, p)
        g[hp + f] -= 1
        g[O_HSIZE + p] -= 1
        g[O_SWAP3 + i] = f
        g[O_SWAP3_CARDS + i] = take_card(g, p, f) if sided else f
    for i in range(k):  # the cards that come back, from the target's own hand
        f = uniform_card(g, t)
        g[ht + f] -= 1
        g[O_HSIZE + t] -= 1
        g[O_SWAP3 + 3 + i] = f
        g[O_SWAP3_CARDS + 3 + i] = take_card(g, t, f) if sided else f
    for i in range(k):
        g[ht + g[O_SWAP3 + i]] += 1
        g[hp + g[O_SWAP3 + 3 + i]] += 1
        if sided:
            to_hand(g, t, g[O_SWAP3_CARDS + i])
            to_hand(g, p, g[O_SWAP3_CARDS + 3 + i])
    g[O_HSIZE + p] += k
    g[O_HSIZE + t] += k
    hand_taken(g, p)  # cards of any colour changed hands
    hand_taken(g, t)
    g[O_REC + L.COL_WILD_SWAPS] += 1
    if g[S_TRACING]:
        pos = ev_open(g, L.EV_SWAP3)
        emit(g, p)
        emit(g, t)
        emit(g, k)
        for i in range(k):
            emit(g, g[O_SWAP3_CARDS + i])
        for i in range(k):
            emit(g, g[O_SWAP3_CARDS + 3 + i])
        ev_close(g, pos)


@njit(cache=True)
def swap_hands(g, a, b):
    ha, hb = hand(a), hand(b)
    for f in range(HAND_WIDTH):
        t = g[ha + f]
        g[ha + f] = g[hb + f]
        g[hb + f] = t
    t = g[O_HSIZE + a]
    g[O_HSIZE + a] = g[O_HSIZE + b]
    g[O_HSIZE + b] = t
    if two_sided(g):
        swap_owners(g, a, b)
    table_view.hands_swapped(g, a, b)
    stale(g, a)
    stale(g, b)
    g[O_REC + L.COL_SWAPS] += 1


@njit(cache=True)
def rotate_hands(g):
    """Every hand passes to the next player still in, in the direction of play."""
    n = g[S_PLAYERS]
    sizes = O_WORK + n
    for q in range(n):
        if g[O_PLACE + q] == 0:
            t = step(g, q, 1)
            for f in range(HAND_WIDTH):
                g[O_WORK_HANDS + t * HAND_WIDTH + f] = g[hand(q) + f]
            g[sizes + t] = g[O_HSIZE + q]
    for q in range(n):
        if g[O_PLACE + q] == 0:
            for f in range(HAND_WIDTH):
                g[hand(q) + f] = g[O_WORK_HANDS + q * HAND_WIDTH + f]
            g[O_HSIZE + q] = g[sizes + q]
            hand_taken(g, q)  # (not followed round the table: rotations are rare)
    if two_sided(g):  # every card held passes on with its hand
        for c in range(deck_size(g)):
            q = g[O_OWNER + c]
            if q >= 0 and g[O_PLACE + q] == 0:
                g[O_OWNER + c] = step(g, q, 1)
    g[O_REC + L.COL_ROTATIONS] += 1


@njit(cache=True, inline="always")
def skip_count(g, k):
    return k if g[K.multi_skip] == 0 else 1


@njit(cache=True, inline="always")
def two_left(g, p):
    """The two-player rules (Reverse as a Skip, a deflect back to the other player) apply: two
    players are still in the round and p, who put the card down, is one of them (a card that
    took its player out under last_standing acts as with more players)."""
    return g[S_NACTIVE] == 2 and g[O_PLACE + p] == 0


@njit(cache=True)
def deflect_victim(g, p, k, reverse):
    """New victim of a chain passed on by p's Skip(s) or, when `reverse`, Reverse(s)
    (direction already flipped)."""
    if two_left(g, p) or reverse:
        return step(g, p, 1)
    return step(g, p, 1 + skip_count(g, k))


@njit_typed(VOID(G, I, I, I), cache=True)
def add_pending(g, p, amount, kind):
    """A draw card of role `kind` (ROLE_DRAW_TWO, ROLE_WILD_DRAW_FOUR) adds `amount` to the
    pending penalty."""
    if g[S_PENDING] > 0:
        g[O_REC + L.COL_STACKS] += 1
    g[S_PENDING] += amount
    g[S_PKIND] = kind
    g[S_CHAL_OK] = 0
    g[S_NEXT] = step(g, p, 1)


@njit(cache=True)
def clear_pending(g):
    g[S_PENDING] = 0
    g[S_PKIND] = 0
    g[S_CHAL_OK] = 0


@njit_typed(VOID(G, I, I, B), cache=True)
def do_challenge(g, v, target, guilty):
    """v challenges target's Wild Draw Four (docs/RULES.md, "Wild Draw Four and challenges"); sets who acts next."""
    g[O_REC + L.COL_CHALLENGES] += 1
    ev(g, L.EV_CHALLENGE, 3, v, target, 1 if guilty else 0)
    clear_pending(g)
    draw = g[S_CHAL_DRAW]  # the challenged card's draw value
    if guilty:
        g[O_REC + L.COL_CHALLENGES_WON] += 1
        draw_cards(g, target, draw, L.WHY.challenge, False)
        g[S_NEXT] = v if g[K.challenge_win_plays] else step(g, v, 1)
    else:
        draw_cards(g, v, draw + g[K.challenge_extra], L.WHY.challenge, False)
        g[S_NEXT] = step(g, v, 1)


# ---------------------------------------------------------------- the cards of other decks (docs/RULES.md,
# "Cards of other decks": stack_by_value, Skip Everyone, reverse with a draw or a skip, Discard All)


@njit_typed(VOID(G, I, I, I, I, B), cache=True)
def effects_by_fields(g, p, k, f, pend0, guilty):
    """apply_effects for a card whose effects combine (reverse with a draw or a skip), that skips
    everyone, or any card under stack_by_value: reverse first, then the next player in the new
    direction is hit. With two players still in and two_player_reverse = skip, a card that
    reverses makes its own player the next player (its draw hits them; with a skip too it is
    one skip)."""
    rev = reverses(g, f)
    if rev and k % 2 == 1:
        g[S_DIR] = -g[S_DIR]
    self_next = rev and two_left(g, p) and g[K.two_player_reverse] == 0
    nxt = p if self_next else step(g, p, 1)
    d = draw_of(g, f)
    skip = skip_of(g, f)
    if d > 0:
        role = role_of(g, f)
        challengeable = restricted(g, f) and challenge_possible(g) and nxt != p
        if g[K.stack_by_value] or pend0 > 0 or (role == ROLE_DRAW_TWO and d2_stacks(g)) or (
                role == ROLE_WILD_DRAW_FOUR and d4_stacks(g)):
            add_pending(g, p, d * k, PKIND_BY_VALUE if g[K.stack_by_value] else role)
            g[S_PDRAW] = d
            g[S_NEXT] = nxt
            if pend0 == 0 and challengeable:
                g[S_CHAL_OK] = 1
                g[S_CHAL_PLAYER] = p
                g[S_CHAL_GUILTY] = 1 if guilty else 0
                g[S_CHAL_DRAW] = d
        else:
            g[S_CHAL_DRAW] = d
            if challengeable and bot.wants_challenge(g, nxt, p):
                do_challenge(g, nxt, p, guilty)
            else:
                draw_penalty(g, nxt, d * k, L.WHY.penalty)
                g[S_NEXT] = step(g, nxt, 1)
    elif skip == 2:  # every other player loses the turn: the player goes again (if still in)
        if pend0 > 0:
            g[S_NEXT] = deflect_victim(g, p, k, rev)
        else:
            g[S_NEXT] = p if g[O_PLACE + p] == 0 else step(g, p, 1)
    elif skip == 1:
        if self_next:
            g[S_NEXT] = p
        elif pend0 > 0:
            g[S_NEXT] = deflect_victim(g, p, k, rev)
        else:
            g[S_NEXT] = step(g, p, 1 + skip_count(g, k))
    elif rev:  # a plain Reverse, as in apply_effects
        if pend0 > 0:
            g[S_NEXT] = deflect_victim(g, p, k, True)
        elif self_next:
            g[S_NEXT] = step(g, p, 1 + skip_count(g, k))
        else:
            g[S_NEXT] = nxt
    else:
        g[S_NEXT] = nxt


@njit(cache=True, inline="always")
def any_discards(g, k):
    """A card of the play at O_PLAYED (k cards) is a Discard All."""
    for i in range(k):
        if discards_color(g, g[O_PLAYED + i]):
            return True
    return False


@njit_typed(I(G, I, I), cache=True)
def discard_all(g, p, k):
    """Discard All: before the k cards at O_PLAYED (still in p's hand) go down, each Discard All
    among them takes p's other cards of its colour down first (so they lie under the play),
    each colour once. They are plays without effects. Writes them after the play at
    O_PLAYED + k (face order) and returns how many."""
    h = hand(p)
    done = 0  # colours discarded (bit c)
    nd = 0
    for i in range(k):
        f = g[O_PLAYED + i]
        if not discards_color(g, f):
            continue
        c = color_of(g, f)
        if (done >> c) & 1:
            continue
        done |= 1 << c
        if color_held(g, p, c) == 0:
            continue
        for s in range(colored_kinds(g)):
            face = face_at(g, c, s)
            keep = 0  # the played cards of this face stay for the play itself
            for j in range(k):
                if g[O_PLAYED + j] == face:
                    keep += 1
            for _ in range(g[h + face] - keep):
                g[O_PLAYED + k + nd] = face
                nd += 1
    for i in range(nd):
        g[O_PLAYED_CARD + k + i] = put_down(g, p, g[O_PLAYED + k + i])
    return nd


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


@njit_typed(VOID(G, I, I, I, I, B), cache=True)
def apply_effects(g, p, k, f, pend0, guilty):
    """The effects of the top card f of p's play of k cards (skip, reverse, draw) and who
    acts next (S_NEXT). A draw card adds to a pending penalty when one is pending, or when
    the stacking knobs let its kind (D: Draw Two, W4: Wild Draw Four, by text) start one; a
    restricted one may be challenged."""
    if g[K.stack_by_value] or skip_of(g, f) == 2 or (reverses(g, f) and (skip_of(g, f) != 0 or draw_of(g, f) > 0)):
        effects_by_fields(g, p, k, f, pend0, guilty)  # the cards of other decks
    elif skip_of(g, f):
        if pend0 > 0:
            g[S_NEXT] = deflect_victim(g, p, k, False)
        else:
            g[S_NEXT] = step(g, p, 1 + skip_count(g, k))
    elif reverses(g, f):
        if k % 2 == 1:
            g[S_DIR] = -g[S_DIR]
        if pend0 > 0:
            g[S_NEXT] = deflect_victim(g, p, k, True)
        elif two_left(g, p) and g[K.two_player_reverse] == 0:
            g[S_NEXT] = step(g, p, 1 + skip_count(g, k))
        else:
            g[S_NEXT] = step(g, p, 1)
    elif draw_of(g, f) > 0:
        draw = draw_of(g, f) * k
        role = role_of(g, f)
        challengeable = restricted(g, f) and challenge_possible(g)
        if (pend0 > 0 or (role == ROLE_DRAW_TWO and d2_stacks(g))
                or (role == ROLE_WILD_DRAW_FOUR and d4_stacks(g))):
            add_pending(g, p, draw, role)
            if pend0 == 0 and challengeable:
                g[S_CHAL_OK] = 1
                g[S_CHAL_PLAYER] = p
                g[S_CHAL_GUILTY] = 1 if guilty else 0
                g[S_CHAL_DRAW] = draw_of(g, f)
        else:
            v = step(g, p, 1)
            g[S_CHAL_DRAW] = draw_of(g, f)
            if challengeable and bot.wants_challenge(g, v, p):
                do_challenge(g, v, p, guilty)
            else:
                draw_penalty(g, v, draw, L.WHY.penalty)
                g[S_NEXT] = step(g, v, 1)
    else:
        g[S_NEXT] = step(g, p, 1)
    if hand_effect(g, f):
        if roulette(g, f):  # the next player in the (new) direction turns up cards
            v = g[S_NEXT]
            roulette_turn(g, v)
            if g[S_ENDED] == 0:
                g[S_NEXT] = step(g, v, 1)
        elif draws_color(g, f):  # ... until the colour the player named; a restricted one may be challenged
            v = g[S_NEXT]
            if restricted(g, f) and challenge_possible(g) and v != p and bot.wants_color_challenge(g, v, p):
                color_challenge(g, v, p, guilty)
            else:
                color_draw(g, v, 0, L.WHY.draw_color)
                if g[S_ENDED] == 0:
                    g[S_NEXT] = step(g, v, 1)


@njit_typed(VOID(G, I, I, I, I, B), cache=True)
def go_out(g, p, k, f, pend0, guilty):
    """p emptied their hand with face f (k cards). Under first_out, and under last_standing when
    only one other player is left, the play ends the round: a winning card, whose penalty its
    victim draws at once under last_card_penalty. Under last_standing with two or more others
    still in, p takes the next place and the card is no winning card: its effects apply from
    p's seat as on any turn (a draw card's penalty pending under stacking, answered or accepted
    by its victim on a counted turn)."""
    if g[K.mode] == 1 and g[S_NACTIVE] > 2:
        g[O_PLACE + p] = g[S_NEXT_PLACE]
        g[S_NEXT_PLACE] += 1
        g[S_NACTIVE] -= 1
        ev(g, L.EV_OUT, 2, p, g[O_PLACE + p], 0)
        apply_effects(g, p, k, f, pend0, guilty)
        return
    skip = skip_of(g, f) == 1  # (skipping everyone, when its player is out, leaves the order as it is)
    reverse = reverses(g, f)
    # the penalty this card deals, and to whom (decided before p leaves the turn order)
    total = 0
    if draw_of(g, f) > 0:
        total = draw_of(g, f) * k + pend0
    elif (skip or reverse) and pend0 > 0:
        total = pend0
    if reverse and k % 2 == 1:
        g[S_DIR] = -g[S_DIR]
    if skip and pend0 > 0:
        victim = deflect_victim(g, p, k, False)
    else:
        victim = step(g, p, 1)
    clear_pending(g)
    # the victim still turns up cards (a roulette card; a draw_color card works the same)
    spin = hand_effect(g, f) and (roulette(g, f) or draws_color(g, f)) and g[K.last_card_penalty] != 0
    lcp = (total > 0 and g[K.last_card_penalty] != 0) or spin
    if g[K.mode] == 1:  # last_standing, one other player left: p takes the next place, they the last
        g[O_PLACE + p] = g[S_NEXT_PLACE]
        g[S_NEXT_PLACE] += 1
        g[S_NACTIVE] -= 1
        ev(g, L.EV_OUT, 2, p, g[O_PLACE + p], 0)
    if lcp:
        if spin and draws_color(g, f):
            color_draw(g, victim, 0, L.WHY.draw_color)
        elif spin:
            roulette_turn(g, victim)
        else:
            draw_penalty(g, victim, total, L.WHY.penalty)
        if g[S_ENDED]:
            return
    if g[K.mode] == 0:
        end_round(g, L.REASON.out, p)
    else:
        last_one_left(g)


@njit_typed(VOID(G, I, I, B), cache=True)
def resolve(g, p, k, guilty):
    """Everything a play of k cards (at O_PLAYED, all of one symbol) by p sets off."""
    pend0 = g[S_PENDING]
    if hsize(g, p) == 1:
        call_uno(g, p)
        if g[S_ENDED]:
            g[S_WILD_SWAP] = 0
            return
    f = g[O_PLAYED + k - 1]
    if hsize(g, p) == 0:
        if hand_effect(g, f) and flips(g, f):  # a flip is no swap: it happens, then p goes out
            f = flip_play(g, p, k, f)
        if g[O_PLACE + p] == 0:
            go_out(g, p, k, f, pend0, guilty)
        else:  # knocked out by the mercy rule on the UNO penalty: the card still acts from p's seat
            g[S_WILD_SWAP] = 0
            apply_effects(g, p, k, f, pend0, guilty)
        return
    if hand_effect(g, f):
        hand_effects(g, p, k, f)
        if g[S_ENDED]:
            return
    if not is_wild(g, f):
        n = number_of(g, f)
        if n == 7 and g[K.seven_swap]:
            for _ in range(k):
                t = bot.choose_swap_target(g, p)
                swap_hands(g, p, t)
                ev(g, L.EV_SWAP, 2, p, t, 0)
                if g[K.mercy_limit]:
                    knockouts(g, p)
        elif n == 0 and g[K.zero_rotate]:
            for _ in range(k):
                rotate_hands(g)
                ev(g, L.EV_ROTATE, 0, 0, 0, 0)
                if g[K.mercy_limit]:
                    knockouts(g, p)
    elif g[S_WILD_SWAP]:
        g[S_WILD_SWAP] = 0
        wild_swap(g, p)
        if g[K.mercy_limit]:
            knockouts(g, p)
    if g[S_ENDED]:
        return
    if hand_effect(g, f) and flips(g, f):  # step 3a
        f = flip_play(g, p, k, f)
    apply_effects(g, p, k, f, pend0, guilty)


# ---------------------------------------------------------------- the mercy rule and the hand-changing kinds


@njit_typed(VOID(G, I), cache=True)
def knock_out(g, q):
    """The mercy rule knocks q out (hand_effects.set_aside). One player left wins: under
    first_out the round ends with them as the winner; under last_standing they take the last
    free place and the player in place 1 wins."""
    cards = hsize(g, q)
    set_aside(g, q)
    ev(g, L.EV_KNOCKOUT, 3, q, cards, g[O_PLACE + q] if g[K.mode] == 1 else 0)
    if g[S_ENDED]:
        return
    if g[S_NACTIVE] > 1:
        if g[S_NEXT] == q:  # (the player whose turn it was: turn order passes over them)
            g[S_NEXT] = step(g, q, 1)
        return
    w = last_in(g)
    if w >= 0 and hsize(g, w) > 0:
        g[O_REC + L.COL_MERCY_WIN] = 1 if (g[K.mode] == 0 or g[S_NEXT_PLACE] == 1) else 0
    if g[K.mode] == 0:
        end_round(g, L.REASON.out, w)
        return
    if w >= 0:
        g[O_PLACE + w] = g[S_NEXT_PLACE]
    for q2 in range(g[S_PLAYERS]):
        if g[O_PLACE + q2] == 1:
            w = q2
    end_round(g, L.REASON.out, w)


@njit_typed(VOID(G, I), cache=True)
def knockouts(g, p):
    """After a swap, rotation, shuffle or Wild swap: every player still in holding mercy_limit
    cards or more is knocked out, in the direction of play starting from p (the player who acts)."""
    n = g[S_PLAYERS]
    q = p
    for _ in range(n):
        if g[S_NACTIVE] <= 1 or g[S_ENDED]:
            return
        if over_limit(g, q):
            knock_out(g, q)
        q = (q + g[S_DIR]) % n


@njit(cache=True)
def names_color_later(g, p, f):
    """The colour of wild face f, just put down by p, is named later: by the roulette victim
    (also for a card that empties p's hand: under last_card_penalty, or under last_standing
    while two or more others stay in), or by p after shuffling hands (not when the card
    emptied p's hand)."""
    if roulette(g, f):
        return hsize(g, p) > 0 or g[K.last_card_penalty] != 0 or (g[K.mode] == 1 and g[S_NACTIVE] > 2)
    if flips(g, f):  # the colour of the new top card after the flip (named if it is wild)
        return True
    return shuffles_hands(g, f) and hsize(g, p) > 0


@njit_typed(VOID(G, I), cache=True)
def set_color(g, c):
    """The colour named after the play event was written: the event carries it."""
    g[S_COLOR] = c
    pos = g[S_COLOR_POS]
    if g[S_TRACING] and pos >= 0 and g[S_OVERFLOW] == 0 and pos < g[S_TPOS]:
        g[pos] = shown_color(g)


@njit_typed(VOID(G, I), cache=True)
def roulette_turn(g, v):
    """Roulette: v names a colour and turns up cards until one of that colour (wilds never
    count), takes them all and loses the turn (the caller moves on past v)."""
    if g[S_SWAP_PLAY] == 0:  # (a roulette Wild played as a Wild swap keeps the colour in force)
        set_color(g, bot.roulette_color(g, v))
    ev(g, L.EV_ROULETTE, 2, v, shown_color(g), 0)
    drawn = draw_cards(g, v, deck_size(g), L.WHY.roulette, False)
    g[O_REC + L.COL_ROULETTE_CARDS] += drawn


@njit_typed(VOID(G, I, I, I), cache=True)
def color_draw(g, v, extra, why):
    """v turns up cards until one of the colour in force (wild faces never count) and takes
    them all, then `extra` more (a failed challenger), as one draw event: draw_color."""
    g[S_BY_COLOR] = 1
    g[S_COLOR_EXTRA] = extra
    drawn = draw_cards(g, v, deck_size(g) + extra, why, False)
    g[S_BY_COLOR] = 0
    g[S_COLOR_EXTRA] = 0
    g[O_REC + L.COL_DRAW_COLOR_CARDS] += drawn


@njit_typed(VOID(G, I, I, B), cache=True)
def color_challenge(g, v, target, guilty):
    """v challenges target's restricted draw_color card (as do_challenge): guilty, target turns
    up cards until the colour; not guilty, v does and then draws challenge_extra more."""
    g[O_REC + L.COL_CHALLENGES] += 1
    ev(g, L.EV_CHALLENGE, 3, v, target, 1 if guilty else 0)
    if guilty:
        g[O_REC + L.COL_CHALLENGES_WON] += 1
        color_draw(g, target, 0, L.WHY.challenge)
        g[S_NEXT] = v if g[K.challenge_win_plays] else step(g, v, 1)
    else:
        color_draw(g, v, g[K.challenge_extra], L.WHY.challenge)
        g[S_NEXT] = step(g, v, 1)


@njit_typed(VOID(G, I, B), cache=True)
def flip_over(g, p, named_later):
    """A flip by p (-1: the lead card; docs/RULES.md, "Two-sided decks"): everything turns over
    (sides.turn_over), then the new top card's colour is the colour in force; a wild top card's
    colour is named by p (by the first player after a lead flip). `named_later`: a wild Flip
    card, whose player names the colour after its flip whatever the new top shows."""
    side = turn_over(g, g[K.flip_discard] == 0)
    for q in range(g[S_PLAYERS]):
        hand_taken(g, q)  # what was seen of the hands was of the other side
    g[S_SET_COLORS] = 0
    g[O_REC + L.COL_FLIPS] += 1
    ev(g, L.EV_FLIP, 3, p, side, g[O_DISC + g[S_NDISC] - 1])
    if named_later:
        return
    color = color_of(g, top_card(g))
    if color < 0:
        chooser = p if p >= 0 else g[S_NEXT]
        set_color(g, bot.choose_color(g, chooser))
        ev(g, L.EV_CHOOSE, 2, chooser, shown_color(g), 0)
    else:
        set_color(g, color)


@njit_typed(I(G, I, I, I), cache=True)
def flip_play(g, p, k, f):
    """Step 3a of p's play of k Flip cards of face f: k flips. Returns PLAYED_FACE, f's columns
    as they were on its own side, which the steps after the flip read."""
    wild = is_wild(g, f)
    keep_played_face(g, f)
    for _ in range(k):
        flip_over(g, p, wild)
    if wild:  # (a multi-play holds no wild card: k is 1)
        set_color(g, bot.choose_color(g, p))
        ev(g, L.EV_CHOOSE, 2, p, shown_color(g), 0)
    g[S_FLIPPED] = 1
    return PLAYED_FACE


@njit_typed(VOID(G, I, I, I), cache=True)
def hand_effects(g, p, k, f):
    """Step 3 of a play of k cards of face f by p, before a 7-swap or 0-rotation: swap_hands (as
    the 7 of seven_swap) and shuffle_hands (dealt from the player after p, before the card's own
    reverse; then p names a colour for a wild), each checked by the mercy rule."""
    for _ in range(k):
        if swaps_hands(g, f):
            t = bot.choose_swap_target(g, p)
            swap_hands(g, p, t)
            ev(g, L.EV_SWAP, 2, p, t, 0)
            if g[K.mercy_limit]:
                knockouts(g, p)
        if shuffles_hands(g, f):
            shuffle_and_deal(g, p)
            g[O_REC + L.COL_HAND_SHUFFLES] += 1
            if g[S_TRACING]:
                pos = ev_open(g, L.EV_SHUFFLE)
                emit(g, p)
                for q in range(g[S_PLAYERS]):
                    emit_hand(g, q)
                ev_close(g, pos)
            if g[K.mercy_limit]:
                knockouts(g, p)
        if g[S_ENDED]:
            return
    if shuffles_hands(g, f) and is_wild(g, f) and g[O_PLACE + p] == 0 and g[S_WILD_SWAP] == 0:
        set_color(g, bot.choose_color(g, p))  # (a Wild played as a swap keeps the colour)


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
