"""The strategy bots `greedy`, `expert` and `bluffer` (docs/BOTS.md states every rule).

dispatch.py sends here every seat whose bot code is not `random`. A bot sees only
what a player at the table could know: its own hand, the discard pile, every hand's size,
the current colour and direction, the pending penalty, and the colour that was current
before the last card (everyone saw it). Never the draw pile nor another hand.

`bluffer` is `expert` with another default `bluff_prob` (set on the Python side), so the two
share every function here. Bot parameters are fixed point (layout.fixed_point); a negative
`challenge_prob` means "not set": expert and bluffer then use their odds rule.
"""

import numpy as np

from ..jit import njit, njit_typed

from ...game.knobs import K
from .. import layout as L
from ..access import (
    HAND_WIDTH,
    F_DRAWS,
    F_NUMBER,
    F_REVERSES,
    F_SKIPS,
    F_WILD,
    MAX_COLORED_KINDS,
    N_COLORS,
    ROLE_DRAW_TWO,
    ROLE_WILD_DRAW_FOUR,
    color_of,
    colored_faces,
    colored_kinds,
    copies_of,
    deck_size,
    discards_color,
    draw_of,
    draws_color,
    face_at,
    flags_of,
    flips,
    hand,
    hand_effect,
    hsize,
    is_number,
    is_wild,
    n_candidates,
    n_faces,
    number_of,
    param,
    points_of,
    reverses,
    role_face,
    role_of,
    set_bit,
    skip_of,
    slot_of,
)
from ..sides import face_of, two_sided
from ..rng import chance
from ..rules_check import (
    bluff_card,
    candidate,
    held_candidates,
    legal_answer,
    legal_turn_card,
    lowest_bit,
)
from ..seats import step
from ..sigs import B, G, I, VOID
from ..state import (
    O_BOTS,
    O_DISC,
    O_PLACE,
    O_PLAYED,
    O_SWAP3,
    S_NACTIVE,
    S_NDISC,
    S_NPLAYED,
    S_PLAYERS,
    S_COLOR,
    S_PREV_COLOR,
    S_SET_COLORS,
    S_CHAL_DRAW,
    S_SET_FACES,
    PKIND_BY_VALUE,
)
from ..sumsets import ENUMERATE, MOST_CARDS, collect, sum_sets
from . import twosided

DANGER = 2  # an opponent holding this many cards or fewer is "close to going out"
SAVE_W4_HAND = 5  # expert keeps a Wild Draw Four back while holding at least this many cards
NO_CHOICE = 1 << 40
GREEDY_BAD_FLIP = 1_000  # greedy's score of a bad flip: after every other card
GREEDY_FLIP = -1_000_000  # greedy's score of a Flip card that hands no close opponent a wild card: first

# expert turn tiers, lowest played first (docs/BOTS.md)
T_KNOCKOUT = -1  # mercy rule: a draw card that takes its victim to the limit
T_LAST_ACTION = 0  # number_finish, two cards: the non-number goes first
T_ATTACK_D2 = 1  # the next player is an opponent close to going out
T_ATTACK_W4 = 2
T_ATTACK_SKIP = 3
T_ATTACK_REVERSE = 4
T_GAIN_SWAP = 5  # a 7 / 0 whose swap / rotation brings a smaller hand
T_NUMBER = 6
T_REVERSE = 7
T_SKIP = 8
T_DRAW_TWO = 9
T_WILD = 10
T_KEPT_D2 = 11  # the last Draw Two, kept to answer a stack
T_BAD_SWAP = 12  # a 7 / 0 whose swap / rotation brings a larger hand
T_W4 = 13
T_FLIP = T_GAIN_SWAP  # two-sided decks: a Flip card, before the numbers (measured: flipping early pays)
T_BAD_FLIP = 14  # two-sided decks: a Flip card after which the next player, close to going out, holds a wild card


@njit(cache=True, inline="always")
def is_expert(g, p):
    return g[O_BOTS + p] != L.BOT.greedy


@njit(cache=True)
def opponents(g, p, q):
    t = g[K.teams]
    return t == 0 or (p % t) != (q % t)


@njit_typed(I(G, I, I), cache=True)
def color_count(g, p, c):
    first = face_at(g, c, 0)
    h = hand(p) + first
    nck = colored_kinds(g)
    t = 0
    for s in range(MAX_COLORED_KINDS):  # the loop form of access.py, "Loops over a deck's faces"
        if s == nck:
            break
        t += g[h + s]
    return t


@njit(cache=True, inline="always")
def color_count_points(g, p, c):
    """color_count, and the points of p's cards of colour c (the table's points count
    zero_points for a 0), in one pass."""
    first = face_at(g, c, 0)
    h = hand(p) + first
    nck = colored_kinds(g)
    t = 0
    points = 0
    for s in range(MAX_COLORED_KINDS):
        if s == nck:
            break
        t += g[h + s]
        points += g[h + s] * points_of(g, first + s)
    return t, points


@njit(cache=True)
def keep_after(g, p, f):
    """Cards of f's colour p still holds after putting f down (-1 for a wild card)."""
    if is_wild(g, f):
        return -1
    return color_count(g, p, color_of(g, f)) - 1


@njit(cache=True)
def danger_next(g, p):
    """The next player is an opponent close to going out (<= DANGER cards)."""
    q = step(g, p, 1)
    return q != p and opponents(g, p, q) and hsize(g, q) <= DANGER


@njit(cache=True)
def opponent_close(g, p):
    """Some opponent still in holds <= DANGER cards."""
    for q in range(g[S_PLAYERS]):
        if q != p and g[O_PLACE + q] == 0 and opponents(g, p, q) and hsize(g, q) <= DANGER:
            return True
    return False


@njit(cache=True)
def save_w4(g, p):
    """Expert keeps its Wild Draw Four for later: a big hand and nobody close to going out."""
    return hsize(g, p) >= SAVE_W4_HAND and not opponent_close(g, p)


# ---------------------------------------------------------------- 7-swap and 0-rotation


@njit(cache=True)
def swap_target(g, p):
    """Fewest cards among the opponents still in (team-mates only when there is no opponent);
    ties: the first in turn order after p."""
    best = -1
    best_size = NO_CHOICE
    for pass_ in range(2):
        q = p
        for _ in range(g[S_PLAYERS] - 1):
            q = step(g, q, 1)
            if q == p:
                break
            if pass_ == 0 and not opponents(g, p, q):
                continue
            if hsize(g, q) < best_size:
                best = q
                best_size = hsize(g, q)
        if best >= 0:
            return best
    return best


@njit(cache=True)
def swap_gain(g, p, f):
    """For a 7 (seven_swap) or a 0 (zero_rotate) that would not empty p's hand: +1 when the
    hand p receives is smaller than the hand p would keep, -1 when larger, 0 otherwise
    (also for every other card)."""
    if hsize(g, p) <= 1:
        return 0
    n = number_of(g, f)
    if n == 7 and g[K.seven_swap]:
        received = hsize(g, swap_target(g, p))
    elif n == 0 and g[K.zero_rotate]:
        received = hsize(g, step(g, p, -1))  # hands pass on in the direction of play
    else:
        return 0
    kept = hsize(g, p) - 1
    if received < kept:
        return 1
    if received > kept:
        return -1
    return 0


# ---------------------------------------------------------------- ordinary turn


@njit(cache=True)
def draw_twos_held(g, p):
    """Draw Twos (the kind D) p holds."""
    h = hand(p)
    return (g[h + role_face(g, ROLE_DRAW_TWO, 0)] + g[h + role_face(g, ROLE_DRAW_TWO, 1)]
            + g[h + role_face(g, ROLE_DRAW_TWO, 2)] + g[h + role_face(g, ROLE_DRAW_TWO, 3)])


@njit(cache=True, inline="always")
def last_action(g, p):
    """number_finish with two cards held: the card played now must not be the last number."""
    return g[K.number_finish] != 0 and hsize(g, p) == 2


@njit(cache=True, inline="always")
def reverse_attacks(g):
    """A Reverse keeps the next player from playing: more than two players in, or
    two_player_reverse = skip."""
    return g[S_NACTIVE] > 2 or g[K.two_player_reverse] == 0


@njit(cache=True, inline="always")
def keeps_draw_two(g, p):
    """Under stack_draw_two, p holds exactly one Draw Two (kept to answer a stack)."""
    return g[K.stack_draw_two] != 0 and draw_twos_held(g, p) == 1


@njit(cache=True, inline="always")
def attack_face(g, f):
    """A card that skips, reverses or makes the next player draw (classic: Skip, Reverse,
    Draw Two, Wild Draw Four): the faces whose tier depends on `danger`."""
    return (flags_of(g, f) & (F_DRAWS | F_SKIPS | F_REVERSES)) != 0


@njit(cache=True, inline="always")
def tier_of(g, f, danger, last, reverses_attack, gain, kept_d2):
    """expert_tier of face f from the facts it depends on, read by the caller: `last`
    (last_action), `reverses_attack` (reverse_attacks), f's swap_gain, `kept_d2`
    (keeps_draw_two). A decision that ranks several cards reads the facts once. By the
    card's effects: a coloured draw card ranks as a Draw Two, a wild one as a Wild Draw Four."""
    bits = flags_of(g, f)
    number = (bits & F_NUMBER) != 0
    if last and not number:
        return T_LAST_ACTION
    draw = (bits & F_DRAWS) != 0
    wild = (bits & F_WILD) != 0
    skip = (bits & F_SKIPS) != 0
    reverse = (bits & F_REVERSES) != 0
    if danger:
        if draw and not wild:
            return T_ATTACK_D2
        if draw:
            return T_ATTACK_W4
        if skip:
            return T_ATTACK_SKIP
        if reverse and reverses_attack:
            return T_ATTACK_REVERSE
    if number:
        if gain > 0:
            return T_GAIN_SWAP
        if gain < 0:
            return T_BAD_SWAP
        return T_NUMBER
    if reverse:
        return T_REVERSE
    if skip:
        return T_SKIP
    if draw and not wild:
        if kept_d2 and role_of(g, f) == ROLE_DRAW_TWO:
            return T_KEPT_D2
        return T_DRAW_TWO
    if not draw:
        return T_WILD
    return T_W4


@njit_typed(I(G, I, I, B), cache=True)
def expert_tier(g, p, f, danger):
    """The expert's priority of playing face f now (lower first); see docs/BOTS.md."""
    return tier_of(g, f, danger, last_action(g, p), reverse_attacks(g), swap_gain(g, p, f), keeps_draw_two(g, p))


@njit(cache=True, inline="always")
def score_of(g, tier, f, keep):
    """expert_score from face f's tier: the tier, then the colour held most after the play
    (`keep`), then for numbers the low/high rule (a 7/8/9 first only when its colour is safe:
    >= 2 cards of it kept)."""
    score = tier * 10000
    if keep >= 0:
        score -= 100 * keep
        n = number_of(g, f)
        if n >= 0:
            if keep >= 2:
                score -= n  # safe colour: the higher number (more points) first
            else:
                score += n  # low numbers first
    return score


@njit_typed(I(G, I, I, B, I), cache=True)
def expert_score(g, p, f, danger, keep):
    """Lower plays first: tier, then the colour held most after the play (`keep`, see
    keep_after), then for numbers the low/high rule (score_of)."""
    return score_of(g, expert_tier(g, p, f, danger), f, keep)


@njit(cache=True)
def greedy_score(g, p, f, keep):
    """Lower plays first: most points, then the colour held most after (`keep`), then Wild
    Draw Four before Wild."""
    score = -points_of(g, f) * 1000
    if keep >= 0:
        score -= keep
    if role_of(g, f) == ROLE_WILD_DRAW_FOUR:
        score -= 1
    return score


@njit(cache=True, inline="always")
def color_counts(g, p):
    """color_count of the four colours, in one pass."""
    h = hand(p)
    h1 = h + face_at(g, 1, 0)
    h2 = h + face_at(g, 2, 0)
    h3 = h + face_at(g, 3, 0)
    nck = colored_kinds(g)
    n0 = 0
    n1 = 0
    n2 = 0
    n3 = 0
    for s in range(MAX_COLORED_KINDS):
        if s == nck:
            break
        n0 += g[h + s]
        n1 += g[h1 + s]
        n2 += g[h2 + s]
        n3 += g[h3 + s]
    return n0, n1, n2, n3


@njit(cache=True)
def best_turn_card(g, p, color, top):
    """The bot's preferred legal card (no bluff), or -1 when it holds none.

    Everything that does not depend on the card is read once per decision: the colour
    counts, and the facts of the expert's tiers (tier_of); only the candidates p holds are
    looked at (held_candidates), in candidate order, so ties go to the same card."""
    expert = is_expert(g, p)
    danger = -1  # danger_next, found out at the first card it matters to (attack_face), if any
    last = last_action(g, p)
    reverses = reverse_attacks(g)
    kept_d2 = keeps_draw_two(g, p)
    swaps = g[K.seven_swap] != 0 or g[K.zero_rotate] != 0
    n0, n1, n2, n3 = color_counts(g, p)
    best = -1
    best_score = NO_CHOICE
    set_in_force = g[S_SET_COLORS] != 0
    held = 0 if set_in_force else held_candidates(g, p, color, top)
    faces = n_faces(g)
    mercy = g[K.mercy_limit] > 0
    sided = two_sided(g)
    i = -1
    while True:
        if set_in_force:  # any face may be legal (turn_candidate)
            i += 1
            if i == faces:
                break
            f = i
        else:
            if held == 0:
                break
            f = candidate(g, lowest_bit(held), color, top)
            held &= held - 1
        if not legal_turn_card(g, p, f, color, top, False):
            continue
        keep = -1
        c = color_of(g, f)
        if c >= 0:
            keep = (n0 if c == 0 else (n1 if c == 1 else (n2 if c == 2 else n3))) - 1
        if sided and hand_effect(g, f) and (flips(g, f) or draws_color(g, f)) and (
                flags_of(g, f) & (F_DRAWS | F_SKIPS | F_REVERSES)) == 0:
            score = two_sided_score(g, p, f, keep, expert, last)
        elif expert:
            if danger < 0 and attack_face(g, f):
                danger = 1 if danger_next(g, p) else 0
            # only a 7 or a 0 can have a swap gain, and only under seven_swap / zero_rotate
            n = number_of(g, f)
            gain = swap_gain(g, p, f) if swaps and (n == 7 or n == 0) else 0
            score = score_of(g, tier_of(g, f, danger > 0, last, reverses, gain, kept_d2), f, keep)
            if skip_of(g, f) == 2 or discards_color(g, f):
                score = other_deck_score(g, p, f, keep, score)
            if mercy and knocks_out(g, p, f):
                score = T_KNOCKOUT * 10000 - 100 * keep
        else:
            score = greedy_score(g, p, f, keep)
            if discards_color(g, f):  # the points it sheds with it
                score -= 1000 * (color_count_points(g, p, color_of(g, f))[1] - points_of(g, f))
        if score < best_score:
            best = f
            best_score = score
    return best


@njit(cache=True)
def two_sided_score(g, p, f, keep, expert, last):
    """greedy's and expert's score of a Flip card or a Wild Draw Colour on a two-sided deck
    (docs/BOTS.md, "Two-sided decks"); a card that also skips, reverses or draws is scored as
    any. expert: a Wild Draw Colour ranks as a Wild Draw Four (an attack on a next player close
    to going out); a Flip card by the hands after it (the other side of the other players'
    cards, which p sees): when the player moving after it is an opponent close to going out
    (<= DANGER cards), an attack after the Skip when its hand then holds no wild card, else last
    of all (T_BAD_FLIP); otherwise before the numbers (T_FLIP), or with the Wilds after a bad
    flip (bad_flip). greedy: a Flip card first, or last after a bad flip. A Wild Draw Colour is
    worth its points to greedy."""
    if not flips(g, f):  # a Wild Draw Colour
        if not expert:
            return greedy_score(g, p, f, keep)
        if last:
            tier = T_LAST_ACTION
        elif danger_next(g, p):
            tier = T_ATTACK_W4
        else:
            tier = T_W4
        return score_of(g, tier, f, keep)
    if not expert:
        if bad_flip(g, p):
            return GREEDY_BAD_FLIP
        return GREEDY_FLIP
    if last:
        return score_of(g, T_LAST_ACTION, f, keep)
    q = twosided.mover_after(g, p, f)
    if q != p and opponents(g, p, q) and hsize(g, q) <= DANGER:
        tier = T_BAD_FLIP if twosided.hand_after_flip(g, q)[2] > 0 else T_ATTACK_REVERSE
    else:
        tier = T_WILD if bad_flip(g, p) else T_FLIP
    return score_of(g, tier, f, keep)


@njit(cache=True)
def bad_flip(g, p):
    """A flip would hand a wild card to an opponent close to going out (close_wild_after_flip),
    or a draw card to the opponent before p (whose draw cards hit p; hits_back_after_flip)."""
    return close_wild_after_flip(g, p) or hits_back_after_flip(g, p)


@njit(cache=True)
def hits_back_after_flip(g, p):
    """The player before p (whose draw cards hit p) is an opponent holding a draw card (a draw or
    a draw_color face) after a flip."""
    r = step(g, p, -1)
    return r != p and opponents(g, p, r) and twosided.hand_after_flip(g, r)[4] > 0


@njit(cache=True)
def close_wild_after_flip(g, p):
    """Some opponent still in and close to going out (<= DANGER cards) holds a wild card after a
    flip (p sees the other side of its cards)."""
    for r in range(g[S_PLAYERS]):
        if r != p and g[O_PLACE + r] == 0 and hsize(g, r) <= DANGER and opponents(g, p, r):
            if twosided.hand_after_flip(g, r)[2] > 0:
                return True
    return False


@njit(cache=True)
def knocks_out(g, p, f):
    """Under the mercy rule: the draw of face f, played by p, takes its victim (the next player
    after any reverse of the card) to mercy_limit cards or more, unless the victim answers."""
    d = draw_of(g, f)
    if d == 0:
        return False
    q = step(g, p, -1 if reverses(g, f) and g[S_NACTIVE] > 2 else 1)
    return q != p and opponents(g, p, q) and hsize(g, q) + d >= g[K.mercy_limit]


@njit(cache=True)
def other_deck_score(g, p, f, keep, score):
    """expert's score for a Skip Everyone or a Discard All (docs/BOTS.md), by what it does: a
    Discard All that takes k >= 1 other cards down ranks with the numbers, before them when k
    is large (300 per card); a Skip Everyone is an attack whenever some opponent is close to
    going out (it skips them all), else a Skip (`score`)."""
    if discards_color(g, f):
        if keep > 0:
            return T_NUMBER * 10000 - 300 * keep
        return score
    if not last_action(g, p) and opponent_close(g, p):
        return score_of(g, T_ATTACK_SKIP, f, keep)
    return score


@njit(cache=True)
def choose_turn_card(g, p, color, top):
    """Face to play on an ordinary turn, or -1 to draw."""
    bluff = param(g, p, L.BP.bluff_prob)
    if bluff > 0:
        w = bluff_card(g, p, color, top)
        if w >= 0 and chance(g, bluff):
            return w
    f = best_turn_card(g, p, color, top)
    if f < 0 or not is_expert(g, p) or not g[K.voluntary_draw]:
        return f
    # expert's voluntary draws: rather one more card than a wasted Wild Draw Four or a bad swap
    if role_of(g, f) == ROLE_WILD_DRAW_FOUR and save_w4(g, p):
        return -1
    if swap_gain(g, p, f) < 0 and bad_swap_received(g, p, f) > hsize(g, p):  # tier T_BAD_SWAP
        return -1
    return f


@njit(cache=True)
def bad_swap_received(g, p, f):
    if number_of(g, f) == 7:
        return hsize(g, swap_target(g, p))
    return hsize(g, step(g, p, -1))


@njit(cache=True)
def plays_drawn_card(g, p, f):
    """greedy: always. expert: unless the card is one it keeps (docs/BOTS.md)."""
    if not is_expert(g, p):
        return True
    if role_of(g, f) == ROLE_WILD_DRAW_FOUR:
        return not save_w4(g, p)
    tier = expert_tier(g, p, f, danger_next(g, p))
    return tier != T_KEPT_D2 and tier != T_BAD_SWAP


# ---------------------------------------------------------------- penalties


@njit(cache=True)
def choose_answer(g, p, color, top, pkind):
    """Always answers when it can. expert: a deflecting Skip/Reverse, then a Draw Two, then a
    Wild Draw Four; greedy: the most points. Ties: the colour held most after the answer."""
    if pkind != 0 and g[K.stack_by_value]:
        return answer_by_value(g, p)
    expert = is_expert(g, p)
    best = -1
    best_score = NO_CHOICE
    for i in range(n_candidates(g)):
        f = candidate(g, i, color, top)
        if f >= 0 and legal_answer(g, p, f, color, top, pkind):
            if expert:
                # a deflecting card (it skips or reverses), then a coloured draw card, then a wild
                tier = 0 if (skip_of(g, f) != 0 or reverses(g, f)) else (2 if is_wild(g, f) else 1)
                score = tier * 1000 - keep_after(g, p, f)
            else:
                score = greedy_score(g, p, f, keep_after(g, p, f))
            if score < best_score:
                best = f
                best_score = score
    return best


@njit_typed(I(G, I), cache=True)
def answer_by_value(g, p):
    """stack_by_value: expert answers with the smallest sufficient draw card (keeping the big
    ones), ties the colour held most after; greedy with the most points. Every face is looked
    at (an answer may have any colour)."""
    expert = is_expert(g, p)
    h = hand(p)
    best = -1
    best_score = NO_CHOICE
    for f in range(n_faces(g)):
        if g[h + f] > 0 and legal_answer(g, p, f, 0, f, PKIND_BY_VALUE):
            if expert:
                score = draw_of(g, f) * 1000 - keep_after(g, p, f)
            else:
                score = greedy_score(g, p, f, keep_after(g, p, f))
            if score < best_score:
                best = f
                best_score = score
    return best


@njit(cache=True)
def guilt_chance(g, p, target):
    """Chance (float) that `target` held a card making its Wild Draw Four a bluff, from what p
    can see: the unseen cards are the deck minus p's hand minus the discard pile; target's
    other cards are taken as a uniform sample of them, of size its current hand size."""
    color = g[S_PREV_COLOR]
    nd = g[S_NDISC]
    slot = -1  # no_match: the kind of the card below the Wild Draw Four forbids too
    if nd >= 2 and g[K.wd4_rule] == 1:
        slot = slot_of(g, face_of(g, g[O_DISC + nd - 2]))  # -1 for a wild card
    h = hand(p)
    unseen = deck_size(g) - hsize(g, p) - nd
    bad = 0  # unseen forbidding cards
    for f in range(colored_faces(g)):
        if color_of(g, f) == color or slot_of(g, f) == slot:
            copies = copies_of(g, f)
            seen = g[h + f]
            for i in range(nd):
                if face_of(g, g[O_DISC + i]) == f:
                    seen += 1
            if copies > seen:
                bad += copies - seen
    m = hsize(g, target)
    clean = 1.0  # chance that none of target's m cards forbids
    for i in range(m):
        good = unseen - bad - i
        if good <= 0:
            return 1.0
        clean *= good / (unseen - i)
    return 1.0 - clean


@njit(cache=True)
def wants_challenge(g, p, target):
    """challenge_prob when set; else expert: challenge when chance * draw > (1 - chance) * extra
    (cards saved when right, the card's draw value, against extra cards drawn when wrong);
    greedy never."""
    return odds_challenge(g, p, target, False)


@njit(cache=True)
def wants_color_challenge(g, p, target):
    """The same for target's restricted draw_color card (a Wild Draw Colour), whose victim turns
    up cards until the colour named: the cards saved when right are the expected number turned
    up, color_draw_expected."""
    return odds_challenge(g, p, target, True)


@njit(cache=True, inline="always")
def odds_challenge(g, p, target, draw_color):
    """The challenge rule of wants_challenge (`draw_color`: of wants_color_challenge)."""
    t = param(g, p, L.BP.challenge_prob)
    if t >= 0:
        return chance(g, t)
    if not is_expert(g, p):
        return False
    q = guilt_chance(g, p, target)
    saved = color_draw_expected(g, p) if draw_color else float(g[S_CHAL_DRAW])
    return q * saved > (1.0 - q) * g[K.challenge_extra]


@njit(cache=True)
def color_draw_expected(g, p):
    """How many cards p expects to turn up until one of the colour in force (wild faces never
    count), from the cards it has not seen (the deck minus its hand minus the discard pile, on
    the side in play): N unseen cards, K of them of the colour, (N + 1) / (K + 1) in expectation
    (the first of K marked cards in a random order of N, taken without replacement)."""
    u = unseen_faces(g, p)
    of_color = 0
    for f in range(colored_faces(g)):
        if color_of(g, f) == g[S_COLOR]:
            of_color += max(u[f], 0)
    unseen = deck_size(g) - hsize(g, p) - g[S_NDISC]
    return (max(unseen, 0) + 1.0) / (of_color + 1.0)


@njit(cache=True)
def unseen_faces(g, p):
    """Copies of each face p has not seen (the deck's copies less p's hand less the discard
    pile), indexed by face."""
    h = hand(p)
    u = np.zeros(HAND_WIDTH, dtype=np.int64)
    for f in range(n_faces(g)):
        u[f] = copies_of(g, f) - g[h + f]
    for i in range(g[S_NDISC]):
        u[face_of(g, g[O_DISC + i])] -= 1
    return u


# ---------------------------------------------------------------- colour, swap, jump-in, multi-play


@njit(cache=True)
def choose_color(g, p):
    """The colour held most (non-wild cards), ties by points held in it, then the lowest
    index; holding no coloured card: the colour seen most in the discard pile."""
    best = -1
    best_score = -1
    for c in range(N_COLORS):
        n, points = color_count_points(g, p, c)
        if n > 0:
            score = n * 100000 + points
            if score > best_score:
                best = c
                best_score = score
    if best >= 0:
        return best
    seen0 = 0
    seen1 = 0
    seen2 = 0
    seen3 = 0
    for i in range(g[S_NDISC]):
        c = color_of(g, face_of(g, g[O_DISC + i]))
        if c >= 0:
            if c == 0:
                seen0 += 1
            elif c == 1:
                seen1 += 1
            elif c == 2:
                seen2 += 1
            else:
                seen3 += 1
    best = 0
    most = seen0
    if seen1 > most:
        best, most = 1, seen1
    if seen2 > most:
        best, most = 2, seen2
    if seen3 > most:
        best, most = 3, seen3
    return best


@njit_typed(VOID(G, I, I), cache=True)
def colour_held_most_on_top(g, p, k):
    """Of the k cards at O_PLAYED (still in p's hand), move to the top (last) the one whose
    colour p holds most of after putting all k down (ties: the lowest colour index)."""
    best_i = k - 1
    best_left = -1
    for i in range(k):
        c = color_of(g, g[O_PLAYED + i])
        left = color_count(g, p, c)
        for j in range(k):
            if color_of(g, g[O_PLAYED + j]) == c:
                left -= 1
        if left > best_left or (left == best_left and c < color_of(g, g[O_PLAYED + best_i])):
            best_i = i
            best_left = left
    t = g[O_PLAYED + best_i]
    g[O_PLAYED + best_i] = g[O_PLAYED + k - 1]
    g[O_PLAYED + k - 1] = t


@njit(cache=True)
def forgets_uno(g, p):
    return chance(g, param(g, p, L.BP.forget_uno))


@njit_typed(I(G, I, I), cache=True)
def identical_jump(g, p, f):
    """The face p would jump in with as an identical card after face f, or -1: f itself, or
    after a sum set the best card of the set it holds (its ordinary-turn score). expert never
    jumps in with a 7 / 0 whose swap / rotation brings a larger hand."""
    expert = is_expert(g, p)
    if g[S_SET_COLORS] == 0:
        if expert and swap_gain(g, p, f) < 0:
            return -1
        return f
    faces = g[S_SET_FACES]
    h = hand(p)
    best = -1
    best_score = NO_CHOICE
    for face in range(colored_faces(g)):
        if is_number(g, face) and (faces >> set_bit(g, face)) & 1 and g[h + face] > 0:
            if expert and swap_gain(g, p, face) < 0:
                continue
            keep = color_count(g, p, color_of(g, face)) - 1
            score = expert_score(g, p, face, False, keep) if expert else greedy_score(g, p, face, keep)
            if score < best_score:
                best = face
                best_score = score
    return best


@njit(cache=True)
def wants_jump(g, p, f, idents, sums):
    """With jump_in_prob, when it holds a move it would make: a sum set, or an identical card
    (identical_jump)."""
    if not sums and identical_jump(g, p, f) < 0:
        return False
    return chance(g, param(g, p, L.BP.jump_in_prob))


@njit(cache=True)
def set_top(g, p, k):
    """Of the sum set at O_PLAYED (k cards in face order, still in p's hand), move to the top
    the first card whose colour p holds most of after the play, unless the last card's colour
    is held as much (so a set of one colour keeps its face order)."""
    best_i = k - 1
    best_left = -1
    for i in range(k - 1, -1, -1):
        c = color_of(g, g[O_PLAYED + i])
        left = color_count(g, p, c)
        for j in range(k):
            if color_of(g, g[O_PLAYED + j]) == c:
                left -= 1
        if left > best_left:
            best_i = i
            best_left = left
    t = g[O_PLAYED + best_i]
    g[O_PLAYED + best_i] = g[O_PLAYED + k - 1]
    g[O_PLAYED + k - 1] = t


@njit_typed(I(G, I, I, I, B), cache=True)
def jump_move(g, p, f, idents, sums):
    """A sum set whenever it holds one (it sheds two cards or more): the set with the most
    cards (which also sheds the most points: every set adds up to the same number, and holds
    as many 0s as it can), ties: the first in enumeration order; the colour held most after
    the play on top (set_top). Otherwise its identical card (identical_jump)."""
    if not sums:
        return identical_jump(g, p, f)
    n = number_of(g, f)
    whole = hsize(g, p) if g[K.sum_jump_win_only] else 0
    m = collect(g, p, f)
    best = sum_sets(g, m, n, whole, -1, MOST_CARDS)
    k = sum_sets(g, m, n, whole, best, ENUMERATE)
    set_top(g, p, k)
    g[S_NPLAYED] = k
    return -1


@njit_typed(I(G, I, I), cache=True)
def give_score(g, p, f):
    """How much p wants to be rid of face f in a Wild swap (higher goes first): expert keeps its
    wild cards unless nothing else is left; then both bots give the most points, ties the colour
    they hold least (off-colour), then the lowest face."""
    points = points_of(g, f)
    score = points * 100
    if not is_wild(g, f):
        score += 20 - color_count(g, p, color_of(g, f))
    elif is_expert(g, p):
        score -= 1000000
    return score


@njit_typed(I(G, I), cache=True)
def worst_card(g, p):
    """The card p gives away next in a Wild swap (give_score)."""
    h = hand(p)
    best = -1
    best_score = -NO_CHOICE
    for f in range(n_faces(g)):
        if g[h + f] > 0:
            score = give_score(g, p, f)
            if score > best_score:
                best = f
                best_score = score
    return best


GREEDY_SWAP_POINTS = 12  # a card from an unseen hand is worth about 11.5 points (1240 / 108)


@njit(cache=True)
def wants_wild_swap(g, p):
    """Never with a team-mate. expert / bluffer: swap when the opponent with the fewest cards
    (swap_target) is close to going out (<= DANGER cards); greedy: when the k cards it would
    give are worth more than GREEDY_SWAP_POINTS each on average."""
    t = swap_target(g, p)
    if t < 0 or not opponents(g, p, t):  # never with a team-mate
        return False
    if is_expert(g, p):
        return hsize(g, t) <= DANGER
    k = min(3, hsize(g, p), hsize(g, t))
    h = hand(p)
    total = 0
    for i in range(k):  # its k worst cards, taken out one by one and put back after
        f = worst_card(g, p)
        total += points_of(g, f)
        g[O_SWAP3 + i] = f
        g[h + f] -= 1
    for i in range(k):
        g[h + g[O_SWAP3 + i]] += 1
    return total > GREEDY_SWAP_POINTS * k


@njit(cache=True)
def extra_cards(g, p, f):
    """Multi-play: the whole set of cards sharing f's face (identical) or symbol (same_symbol),
    minus: 7s with seven_swap and 0s with zero_rotate go alone; expert keeps its last Draw Two
    back under stack_draw_two unless the set empties its hand; with number_finish a set of
    action cards never empties the hand. The card of the colour held most afterwards goes on
    top. Rewrites the set at O_PLAYED (f included) and returns its size - 1."""
    mode = g[K.multi_play]
    if mode == 0 or is_wild(g, f):
        return 0
    number = number_of(g, f)
    if (number == 7 and g[K.seven_swap]) or (number == 0 and g[K.zero_rotate]):
        return 0
    s = slot_of(g, f)
    h = hand(p)
    # available cards of the set besides f, colour by colour
    avail = 0
    for c in range(N_COLORS):
        face = face_at(g, c, s)
        if mode == 1 and face != f:
            continue
        avail += g[h + face] - (1 if face == f else 0)
    n = hsize(g, p)
    if is_expert(g, p) and role_of(g, f) == ROLE_DRAW_TWO and g[K.stack_draw_two] and avail + 1 < n:
        avail -= 1
    if g[K.number_finish] and number < 0 and avail + 1 >= n:
        avail = n - 2
    if avail <= 0:
        return 0
    # write f, then the others colour by colour
    k = 1
    g[O_PLAYED] = f
    for c in range(N_COLORS):
        face = face_at(g, c, s)
        if mode == 1 and face != f:
            continue
        extra = g[h + face] - (1 if face == f else 0)
        for _ in range(extra):
            if k <= avail:
                g[O_PLAYED + k] = face
                k += 1
    colour_held_most_on_top(g, p, k)
    return k - 1
