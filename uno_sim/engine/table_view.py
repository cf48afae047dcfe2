"""What the table saw: the observer that keeps what every player learns of the others' hands
by watching the play, apart from the rules that play it (docs/ARCHITECTURE.md, "What the
table saw").

The rules call it at the moments the trace records (a turn's play, its draw, cards changing
hands, a penalty turn), and it changes nothing the rules read: no hand, pile, colour or turn.
What it keeps, and who reads it:

- O_LACKS (`pro`, the search's determinizations): what a seat was seen to lack since it last
  took a card. A player who draws on an ordinary turn (taking the draw as forced) holds no
  card of the colour then current, no wild card and, for a coloured top card, no card of its
  kind (`lacks_seen`).
- O_SEEN (the search's `infer=plays` / `infer=history`): each seat's last turns as the table
  saw them, kept as a chain by seen_plays.py while the hand changes only in ways the table
  can follow.
- O_VOIDS (the search's determinizations): the colour a player was seen not to hold by
  drawing one card and passing (`saw_turn`, called around each turn of a table with a search
  seat).

A hand that changes in a way the table cannot follow (cards taken, a new hand, a swap or a
flip) forgets what was seen of it (`hand_changed`, `hands_swapped`).
"""

from collections import namedtuple

from .jit import njit

from ..game.knobs import K
from . import layout as L
from .access import color_of, slot_of
from .seats import step
from .seen_plays import forget_plays, note_draw, note_play, plain_play, seen_count
from .state import LACK_SLOT0, LACK_WILD, O_HSIZE, O_KEEP_TURNS, O_LACKS, O_REC, O_VOIDS, S_DIR, S_NDISC, S_SET_COLORS

# What the table saw as an ordinary turn began (turn_begins): whether the turns are kept, p's
# turns kept before it, the direction, the next player's hand size and O_LACKS entry, the colour
# and the top card.
TurnSeen = namedtuple("TurnSeen", ["keep", "kept", "direction", "next_size", "next_lacks", "color", "top"])


@njit(cache=True, inline="always")
def turn_begins(g, p, color, top):
    """p's ordinary turn begins with `color` current and `top` on the pile: what the table saw
    before it (a TurnSeen). The turns are kept only at a table with a search seat."""
    keep = g[O_KEEP_TURNS] != 0
    q = step(g, p, 1) if keep else p
    return TurnSeen(keep, g[seen_count(p)], g[S_DIR], g[O_HSIZE + q], g[O_LACKS + q], color, top)


@njit(cache=True, inline="always")
def lacks_seen(g, p, color, top):
    """p drew on an ordinary turn with `color` current and `top` on the pile: the table saw
    (taking the draw as forced) that p holds no card of that colour, no wild card and, for a
    coloured top card, no card of its kind; unless a sum set in force made other cards the
    ones to match. Kept in O_LACKS, cleared when p takes cards."""
    if g[S_SET_COLORS] == 0:
        bits = (1 << color) | (1 << LACK_WILD)
        if color_of(g, top) >= 0:
            bits |= 1 << (LACK_SLOT0 + slot_of(g, top))
        g[O_LACKS + p] |= bits


@njit(cache=True, inline="always")
def played(g, p, f, before, seen):
    """p played f from its hand on its ordinary turn (resolved), onto a pile of `before` cards.
    (A multi-play is no plain play: it forgets p's turns.)"""
    if seen.keep:
        note_play(g, p, f, seen.color, seen.top, before, seen.direction, seen.next_size, seen.next_lacks)


@njit(cache=True, inline="always")
def drew_to_play(g, p, seen):
    """p drew on its ordinary turn and is about to play the card drawn: the hand it drew from
    is one that lacked a card to play."""
    lacks_seen(g, p, seen.color, seen.top)


@njit(cache=True, inline="always")
def played_drawn(g, p, f, drawn, before, seen):
    """p played the card f it drew (drawn: cards drawn this turn), onto a pile of `before`
    cards; kept as a turn when it was one card and a plain play."""
    if seen.keep and drawn == 1 and plain_play(g, p, f, before):
        note_draw(g, p, seen.kept, True, seen.color, seen.top, seen.direction, seen.next_size, seen.next_lacks)


@njit(cache=True, inline="always")
def drew_and_kept(g, p, drawn, seen):
    """p's ordinary turn ended with the draw of `drawn` cards (0: nothing could be drawn), none
    played. Seen to lack (lacks_seen) when nothing was drawn, or when it drew the one card a
    turn of draw_rule = one under play_drawn = any."""
    if drawn == 0 or (g[K.play_drawn] == 0 and g[K.draw_rule] == 0):
        lacks_seen(g, p, seen.color, seen.top)
    if seen.keep and drawn == 1:
        note_draw(g, p, seen.kept, False, seen.color, seen.top, seen.direction, seen.next_size, seen.next_lacks)


@njit(cache=True, inline="always")
def penalty_turn_begins(g, v):
    """v faces a pending penalty: its turns kept tell nothing of the hand it answers from."""
    forget_plays(g, v)


@njit(cache=True, inline="always")
def hand_changed(g, q):
    """q's hand changed in a way the table could not follow (it took cards, or got a new
    hand): what was seen of it is forgotten."""
    g[O_LACKS + q] = 0
    forget_plays(g, q)


@njit(cache=True, inline="always")
def hands_swapped(g, a, b):
    """Seats a and b swapped hands: what was seen of a hand goes with it, but the turns kept
    go (a play is judged by its player's seat)."""
    t = g[O_LACKS + a]
    g[O_LACKS + a] = g[O_LACKS + b]
    g[O_LACKS + b] = t
    forget_plays(g, a)
    forget_plays(g, b)


@njit(cache=True, inline="always")
def hands_moved(g):
    """The swaps, rotations and flips so far: after any of them a hand is not the one seen."""
    return g[O_REC + L.COL_SWAPS] + g[O_REC + L.COL_ROTATIONS] + g[O_REC + L.COL_FLIPS]


@njit(cache=True)
def saw_turn(g, p, pending, color, ndisc, moved, sizes):
    """What every player saw in p's turn, kept for the search bots' determinizations
    (O_VOIDS), from the state before it (the pending penalty, the colour, the discard pile's
    size, `hands_moved` and the hand sizes): a player who took one card on an ordinary turn and
    put nothing down (the discard pile unchanged) held no card of the colour then current, nor
    is the card it drew of it; only when the rules let it play any drawn card and it draws one
    card a turn (play_drawn = any, draw_rule = one). Any other card a player takes, any swap or
    rotation of hands and any flip (the hands then show their other side) forgets what was
    known of those hands."""
    if hands_moved(g) != moved:
        for q in range(g[K.players]):
            g[O_VOIDS + q] = 0
    for q in range(g[K.players]):
        if g[O_HSIZE + q] > sizes[q]:
            g[O_VOIDS + q] = 0
    if (pending == 0 and g[S_NDISC] == ndisc and g[O_HSIZE + p] == sizes[p] + 1
            and g[K.play_drawn] == 0 and g[K.draw_rule] == 0):
        g[O_VOIDS + p] = 1 << color
