"""What a play sets off, in the order of the rules (docs/RULES.md, "The order of a card's
effects"): one ordered sequence, `play_out` then `resolve`, each step asking the face's kind
fields (access.py) whether it acts:

1. the cards go down (a Discard All takes its colour under them), the colour is named;
2. a hand left with one card calls UNO; an emptied hand goes out (`go_out`);
3. hands change: `swap_hands` / `shuffle_hands` (hand_effects), then a 7-swap, a 0-rotation or
   a Wild swap;
3a. `flip`: everything turns over (flip_play);
4-5. `reverse`, then the victim: `skip`, `draw` (at once, or a pending penalty), and the victim
   effects `roulette` and `draw_color` (apply_effects; effects_by_fields for the cards whose
   effects combine).

A new primitive is a kind field (game/decks.py, with its face column in state.py) and a step
here, with its trace event.
"""

from .jit import njit, njit_typed

from ..game.knobs import K
from . import layout as L
from .access import (
    HAND_WIDTH,
    ROLE_DRAW_TWO,
    ROLE_WILD,
    ROLE_WILD_DRAW_FOUR,
    color_of,
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
    is_wild,
    number_of,
    restricted,
    reverses,
    role_of,
    roulette,
    shuffles_hands,
    skip_of,
    swaps_hands,
)
from .bots import dispatch as bot
from .bots.uniform import uniform_card
from . import table_view
from .events import emit, emit_hand, ev, ev_close, ev_open, played_card, shown_color
from .hand_effects import hand_taken, shuffle_and_deal
from .moves import cards_left, draw_cards, draw_penalty, end_round, knockouts, last_one_left, lay_down, put_down, set_color, top_card
from .rng import chance
from .rules_check import (
    challenge_possible,
    color_held,
    d2_stacks,
    d4_stacks,
    holds_forbidding_card,
)
from .seats import step
from .sides import (
    keep_played_face,
    swap_owners,
    take_card,
    to_hand,
    turn_over,
    two_sided,
)
from .sigs import B, G, I, VOID
from .sumsets import stale
from .state import (
    O_OWNER,
    O_PLAYED_CARD,
    O_CATCHERS,
    O_DISC,
    O_HSIZE,
    O_PLACE,
    O_PLAYED,
    O_REC,
    O_SWAP3,
    O_SWAP3_CARDS,
    O_WORK,
    O_WORK_HANDS,
    PKIND_BY_VALUE,
    PLAYED_FACE,
    S_CHAL_DRAW,
    S_CHAL_GUILTY,
    S_CHAL_OK,
    S_CHAL_PLAYER,
    S_COLOR,
    S_COLOR_POS,
    S_DIR,
    S_BY_COLOR,
    S_COLOR_EXTRA,
    S_ENDED,
    S_FLIPPED,
    S_SWAP_PLAY,
    S_PUT_CARD,
    S_NACTIVE,
    S_NDISC,
    S_NEXT,
    S_NEXT_PLACE,
    S_NPLAYED,
    S_PDRAW,
    S_PENDING,
    S_PKIND,
    S_PLAYERS,
    S_PREV_COLOR,
    S_SET_COLORS,
    S_TRACING,
    S_WILD_SWAP,
)


@njit(cache=True, inline="always")
def play_out(g, p):
    """p's play of the cards at O_PLAYED (S_NPLAYED of them, last on top), in the rules' order:
    step 1 here (the cards go down, with what a Discard All takes under them; the colour; the
    play event), then `resolve`. Wild Draw Four guilt is judged on the hand before it leaves."""
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


@njit_typed(VOID(G, I, I, B), cache=True)
def resolve(g, p, k, guilty):
    """Steps 2-5 of a play of k cards (at O_PLAYED, all of one symbol, already down) by p."""
    pend0 = g[S_PENDING]
    # step 2: UNO, going out
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
    # step 3: hands change
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
    # step 3a: flip
    if hand_effect(g, f) and flips(g, f):
        f = flip_play(g, p, k, f)
    # steps 4-5: reverse, then the victim
    apply_effects(g, p, k, f, pend0, guilty)


# ---------------------------------------------------------------- step 1: the cards go down


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


# ---------------------------------------------------------------- step 2: UNO, going out


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


# ---------------------------------------------------------------- step 3: hands change (swap_hands, shuffle_hands, 7-swap, 0-rotation, Wild swap)


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


# ---------------------------------------------------------------- step 3a: flip


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


# ---------------------------------------------------------------- steps 4-5: reverse, then the victim (skip, draw or a pending penalty, roulette, draw_color)


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
