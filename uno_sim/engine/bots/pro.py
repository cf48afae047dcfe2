"""The `pro` bot's own decisions: the card of an ordinary turn, whether to draw instead of
playing a wild card, whether to play a drawn wild card, and the colours it names
(docs/BOTS.md, "pro"). Under the mercy rule its turn card is the expert's: its own ranking
measured weaker there (no-mercy, 4 players). Every other decision (answers to a pending
penalty, challenges, jump-ins, multi-play, swap targets, Wild swaps) is the expert's
(strategy.py), which knows every rule knob and card kind.

What pro knows beyond the expert is what the table saw: the cards it has not seen (the deck
less its own hand and the discard pile, `strategy.unseen_faces`) and what each player was seen to lack
when it drew (O_LACKS, kept by table_view.py: the colour then current, every wild card, the top
card's kind). From these it judges the chance that the next player cannot follow a card
(`no_match_chance`). Another player's hand and the draw pile are never read.

Scores are whole numbers, higher played first. The weights were tuned by measurement against
random bots at 2 and 6 players (docs/BOTS.md gives the runs).
"""

from ..jit import njit

from ...game.knobs import K
from .. import layout as L
from ..access import (
    F_DRAWS,
    F_HAND_EFFECT,
    F_NUMBER,
    F_REVERSES,
    F_SKIPS,
    F_WILD,
    N_COLORS,
    ROLE_DRAW_TWO,
    color_of,
    discards_color,
    draws_color,
    flags_of,
    flips,
    hand,
    hsize,
    is_wild,
    n_faces,
    number_of,
    param,
    role_of,
    skip_of,
    slot_of,
)
from ..sides import two_sided
from ..rng import chance
from ..rules_check import bluff_card, candidate, held_candidates, legal_turn_card, lowest_bit
from ..seats import step
from ..state import (
    LACK_SLOT0,
    LACK_WILD,
    O_LACKS,
    S_NACTIVE,
    S_SET_COLORS,
)
from . import strategy
from .strategy import unseen_faces
from . import twosided
from .strategy import DANGER, NO_CHOICE, color_counts, keeps_draw_two, last_action, opponent_close, opponents

KEEP = 600  # per card of the new colour p still holds after the play
MATCH = 300  # times the chance that the next player cannot follow (or, p moving again, that p can)
MATCH_LAST_CARD = 3000  # MATCH when the next player holds one card: that it cannot follow outweighs the colour kept
LAST = 100_000_000  # number_finish, two cards held: the non-number goes first (the expert's tier 0)
ATTACK = 1_000_000  # an attack card against the next player, an opponent close to going out:
ATTACK_ORDER = 100_000  # Draw Two, then Wild Draw Four, then Skip, then Reverse
WILD_HOLD = 1_000_000  # a wild card is kept while a coloured card can be played
W4_OVER_WILD = 50  # of two wild cards, the Wild Draw Four goes first (it also hurts)
SWAP = 2500  # a 7 / 0 whose swap / rotation brings a smaller (+) or larger (-) hand
KEPT_D2 = 1500  # the last Draw Two under stack_draw_two, kept to answer a stack
WILD_LIMIT = 2  # with voluntary_draw, a Wild is played only when p holds at most this many other cards,
W4_LIMIT = 4  # a Wild Draw Four at most this many (else p draws one card), unless the next player is close to going out
W4_LIMIT_2P = 3  # W4_LIMIT at two players
PAIR_2P = 500  # two players: less per card of the same kind in another colour p holds (kept to change colour later)
FLIP_FIRST = 100_000  # a Flip card goes before any card but an attack (measured: flipping early pays)
DRAWN_WILD_HAND = 2  # a drawn wild card is played only when p then holds at most this many cards


@njit(cache=True, inline="always")
def match_weight(g, q):
    """The weight of the chance that next player q (an opponent, or -1) cannot follow."""
    return MATCH_LAST_CARD if q >= 0 and hsize(g, q) <= 1 else MATCH


@njit(cache=True)
def same_kind_elsewhere(g, p, f):
    """Cards p holds of coloured face f's kind in the other colours."""
    h = hand(p)
    s = slot_of(g, f)
    c = color_of(g, f)
    t = 0
    for face in range(n_faces(g)):
        fc = color_of(g, face)
        if fc >= 0 and fc != c and slot_of(g, face) == s:
            t += g[h + face]
    return t


@njit(cache=True)
def next_opponent(g, p):
    """The next player when it is an opponent, else -1."""
    q = step(g, p, 1)
    if q == p or not opponents(g, p, q):
        return -1
    return q


@njit(cache=True)
def no_match_chance(g, q, c, f, unseen):
    """Chance that q holds no card to follow face f played in (or naming) colour c (f = -1: a
    wild card): a card of colour c, of f's kind in another colour (f coloured), or a wild card.
    q's hand is taken as a uniform sample of the cards p has not seen, less those q was seen to
    lack (O_LACKS)."""
    lacks = g[O_LACKS + q]
    wild = f < 0 or is_wild(g, f)
    slot = -1 if wild else slot_of(g, f)
    total = 0
    match = 0
    for face in range(n_faces(g)):
        n = unseen[face]
        if n <= 0:
            continue
        fc = color_of(g, face)
        if fc < 0:
            if (lacks >> LACK_WILD) & 1:
                continue
            match += n
        else:
            if (lacks >> fc) & 1 or (lacks >> (LACK_SLOT0 + slot_of(g, face))) & 1:
                continue
            if fc == c or slot_of(g, face) == slot:
                match += n
        total += n
    chance_none = 1.0
    for i in range(hsize(g, q)):
        good = total - match - i
        if good <= 0:
            return 0.0
        chance_none *= good / (total - i)
    return chance_none


@njit(cache=True)
def follows(g, p, f, c):
    """p still holds a card to put on face f in colour c after playing f (f gives p the next
    turn)."""
    h = hand(p)
    wild = is_wild(g, f)
    slot = -1 if wild else slot_of(g, f)
    for face in range(n_faces(g)):
        k = g[h + face] - (1 if face == f else 0)
        if k > 0 and (is_wild(g, face) or color_of(g, face) == c or slot_of(g, face) == slot):
            return True
    return False


@njit(cache=True, inline="always")
def pick4(i, a, b, c, d):
    return a if i == 0 else (b if i == 1 else (c if i == 2 else d))


@njit(cache=True)
def best_colour(g, p, f, n0, n1, n2, n3, unseen):
    """The colour to name with wild face f (-1: any wild) and its score: KEEP per card of it
    held, MATCH (MATCH_LAST_CARD) times the chance that the next player, an opponent, cannot
    follow it; ties: more points held in it, then the lowest index."""
    q = next_opponent(g, p)
    match = match_weight(g, q)
    best = 0
    best_score = -NO_CHOICE
    for c in range(N_COLORS):
        score = KEEP * pick4(c, n0, n1, n2, n3)
        if q >= 0:
            score += int(match * no_match_chance(g, q, c, f, unseen))
        score = score * 1000 + strategy.color_count_points(g, p, c)[1]
        if score > best_score:
            best = c
            best_score = score
    return best, best_score // 1000


@njit(cache=True)
def choose_color(g, p):
    """The colour named after a wild card: best_colour."""
    n0, n1, n2, n3 = color_counts(g, p)
    return best_colour(g, p, -1, n0, n1, n2, n3, unseen_faces(g, p))[0]


@njit(cache=True)
def roulette_color(g, p):
    """Named as the victim of a roulette card: the colour with the most cards unseen (the
    sooner one turns up, the fewer cards drawn); ties: the colour held most, then the lowest
    index."""
    n0, n1, n2, n3 = color_counts(g, p)
    unseen = unseen_faces(g, p)
    best = 0
    best_score = -NO_CHOICE
    for c in range(N_COLORS):
        left = 0
        for f in range(n_faces(g)):
            if color_of(g, f) == c:
                left += unseen[f]
        score = left * 1000 + pick4(c, n0, n1, n2, n3)
        if score > best_score:
            best = c
            best_score = score
    return best


@njit(cache=True)
def danger_next(g, p):
    """The next player is an opponent close to going out (<= DANGER cards)."""
    q = next_opponent(g, p)
    return q >= 0 and hsize(g, q) <= DANGER


@njit(cache=True)
def best_turn_card(g, p, color, top):
    """pro's preferred legal card (no bluff), or -1 when it holds none (docs/BOTS.md): attack
    cards first against a next player close to going out; wild cards last; otherwise the card
    that leaves it most cards of the new colour, plus MATCH (MATCH_LAST_CARD when the next
    player holds one card) times the chance that the next player cannot follow it; at two
    players, less PAIR_2P per card of its kind held in another colour. The expert's rules for
    number_finish, 7-swaps / 0-rotations, the kept Draw Two and Discard All."""
    n0, n1, n2, n3 = color_counts(g, p)
    unseen = unseen_faces(g, p)
    q = next_opponent(g, p)
    danger = q >= 0 and hsize(g, q) <= DANGER
    match = match_weight(g, q)
    two = g[S_NACTIVE] == 2
    last = last_action(g, p)
    reverses_attack = g[S_NACTIVE] > 2 or g[K.two_player_reverse] == 0
    kept_d2 = keeps_draw_two(g, p)
    swaps = g[K.seven_swap] != 0 or g[K.zero_rotate] != 0
    wild_colour = -1  # the colour a wild card would name and its score, found once
    wild_colour_score = 0
    best = -1
    best_score = -NO_CHOICE
    set_in_force = g[S_SET_COLORS] != 0
    held = 0 if set_in_force else held_candidates(g, p, color, top)
    faces = n_faces(g)
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
        bits = flags_of(g, f)
        number = (bits & F_NUMBER) != 0
        draw = (bits & F_DRAWS) != 0
        if sided and (bits & F_HAND_EFFECT) != 0:
            if flips(g, f) and (bits & (F_DRAWS | F_SKIPS | F_REVERSES)) == 0:
                score = flip_score(g, p, f, last)
                if score > best_score:
                    best = f
                    best_score = score
                continue
            draw = draw or draws_color(g, f)  # a Wild Draw Colour: a wild draw card
        skip = (bits & F_SKIPS) != 0
        attack = draw or skip or ((bits & F_REVERSES) != 0 and reverses_attack)
        score = LAST if last and not number else 0
        if (bits & F_WILD) != 0:
            if wild_colour < 0:
                wild_colour, wild_colour_score = best_colour(g, p, f, n0, n1, n2, n3, unseen)
            c = wild_colour
            score += wild_colour_score
            if draw and danger:
                score += ATTACK + 3 * ATTACK_ORDER
            else:
                score += (W4_OVER_WILD if draw else 0) - WILD_HOLD
        else:
            c = color_of(g, f)
            keep = pick4(c, n0, n1, n2, n3) - 1
            score += KEEP * keep
            if two:
                score -= PAIR_2P * same_kind_elsewhere(g, p, f)
            if number and swaps:
                n = number_of(g, f)
                if n == 7 or n == 0:
                    score += SWAP * strategy.swap_gain(g, p, f)
            if attack and q >= 0 and (danger or (skip_of(g, f) == 2 and opponent_close(g, p))):
                score += ATTACK + ATTACK_ORDER * (4 if draw else (2 if skip else 1))
            if kept_d2 and role_of(g, f) == ROLE_DRAW_TWO:
                score -= KEPT_D2
            if discards_color(g, f) and keep > 0:
                score += 3 * KEEP * keep  # the colour's other cards go down with it
        if q >= 0:
            if attack and two:  # p moves again: can it follow its own card?
                score += MATCH if follows(g, p, f, c) else 0
            else:
                score += int(match * no_match_chance(g, q, c, f, unseen))
        if score > best_score:
            best = f
            best_score = score
    return best


FLIP_KEEP = KEEP  # per card of p's hand expected to follow the new top's colour after a flip


@njit(cache=True)
def flip_score(g, p, f, last):
    """pro's score of a Flip card on a two-sided deck (docs/BOTS.md, "Two-sided decks"): after
    the flip p's own hand and the new top card are unknown to p (drawn from the other side's
    faces it has not seen, twosided.other_pool), but the hand of the player who moves next is
    exactly known: it is the other side of that player's cards, which p sees now. So: KEEP per
    card of p's other cards expected to share the new top's colour, plus MATCH (MATCH_LAST_CARD
    when that player, an opponent, holds one card) times the chance that its hand after the
    flip cannot follow the new top card (0 when it holds a wild card then)."""
    score = LAST if last else 0
    pool, total = twosided.other_pool(g, p)
    score += int(FLIP_KEEP * twosided.colour_share(g, pool, total) * (hsize(g, p) - 1))
    q = twosided.mover_after(g, p, f)
    if q != p and opponents(g, p, q):
        colours, slots, wilds, _, _ = twosided.hand_after_flip(g, q)
        score += int(match_weight(g, q) * twosided.no_match_after_flip(g, colours, slots, wilds, pool, total))
    if not strategy.bad_flip(g, p):
        score += FLIP_FIRST
    return score


@njit(cache=True)
def non_wild_cards(g, p):
    n0, n1, n2, n3 = color_counts(g, p)
    return n0 + n1 + n2 + n3


@njit(cache=True)
def choose_turn_card(g, p, color, top):
    """Face to play on an ordinary turn, or -1 to draw: under the mercy rule the expert's choice
    (pro's own ranking measured weaker there); else a bluff with bluff_prob (as the expert),
    else best_turn_card; with voluntary_draw, a draw rather than a wild card while it holds
    more than WILD_LIMIT / W4_LIMIT (W4_LIMIT_2P at two players) other cards (only when a draw
    is one card, draw_rule = one; not when the next player is close to going out), and rather
    than a bad swap (as the expert)."""
    if g[K.mercy_limit] > 0:
        return strategy.choose_turn_card(g, p, color, top)
    bluff = param(g, p, L.BP.bluff_prob)
    if bluff > 0:
        w = bluff_card(g, p, color, top)
        if w >= 0 and chance(g, bluff):
            return w
    f = best_turn_card(g, p, color, top)
    if f < 0 or not g[K.voluntary_draw]:
        return f
    if is_wild(g, f) and g[K.draw_rule] == 0 and not danger_next(g, p):
        w4_limit = W4_LIMIT_2P if g[S_NACTIVE] == 2 else W4_LIMIT
        limit = w4_limit if (flags_of(g, f) & F_DRAWS) != 0 else WILD_LIMIT
        if non_wild_cards(g, p) > limit:
            return -1
    if strategy.swap_gain(g, p, f) < 0 and strategy.bad_swap_received(g, p, f) > hsize(g, p):
        return -1
    return f


@njit(cache=True)
def plays_drawn_card(g, p, f):
    """A drawn wild card is played only when p then holds at most DRAWN_WILD_HAND cards, or
    the next player is close to going out; any other drawn card as the expert decides."""
    if is_wild(g, f):
        return hsize(g, p) <= DRAWN_WILD_HAND or danger_next(g, p)
    return strategy.plays_drawn_card(g, p, f)
