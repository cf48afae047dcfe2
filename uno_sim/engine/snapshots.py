"""Turn-start snapshots of a game played from Python, so that a step resumes instead of replaying.

A game with seats played from Python (bots/external.py) stops at the first question its tape
does not answer, in the middle of a turn, and the round is left unwound there. Rather than play
the game again from its deal with the longer tape, the kernel restores the state as the turn
that stopped began and plays on from there: the same state and the same tape give the same
turn, so the game is the one a replay from the deal plays (tests/test_env_snapshots.py plays
every step both ways).

The snapshot is taken at the start of every regular turn (continue_round), of the part of the
state a turn reads: the generator, the scalar state with the seats' knowledge, the record row,
the hands of the seats at the table, the hand sizes and places, the piles up to their sizes,
the cards set aside and the hands' sum-set cache; on a two-sided deck also each physical card's
two faces and owner, and the side in play (its face tables, in the configuration block, are
swapped back when a flip came after the snapshot). The rest of the game array is work space a
turn fills before it reads it. g[O_EXT_SNAP] is the snapshot block's index in g (0: none):
its first entry is 1 once it holds a snapshot, then the saved entries at their offsets from
O_RNG. The search bot never sits at such a table (its rollouts would overwrite it)."""

from .jit import njit

from ..game.knobs import K
from .access import deck_size
from .sides import swap_sides, two_sided
from .state import (
    HAND_WIDTH,
    O_ASIDE,
    O_CARD_FACE,
    O_CARD_OTHER,
    O_DISC,
    O_EXT_SNAP,
    O_HANDS,
    O_HSIZE,
    O_OWNER,
    O_PILE,
    O_REC,
    O_RNG,
    O_SEEN,
    O_SUM_CACHE,
    SEEN_SEAT,
    N_GAME,
    S_NASIDE,
    S_NDISC,
    S_NPILE,
    S_SIDE,
    SUM_CACHE_WIDTH,
)

SNAPSHOT_SIZE = 1 + N_GAME - O_RNG  # the flag, then room for every entry from O_RNG on


@njit(cache=True)
def _transfer(g, snap, save):
    """Copy the turn-start state g -> snapshot (save) or snapshot -> g (restore)."""
    base = snap + 1 - O_RNG  # g[i] is saved at g[base + i]
    to, frm = (base, 0) if save else (0, base)
    n = g[K.players]
    spans = (
        (O_RNG, O_SEEN + n * SEEN_SEAT),  # generator, scalars, knowledge, the turns seen of the seats at the table
        (O_REC, O_HANDS + n * HAND_WIDTH),  # record, hands at the table
        (O_HSIZE, O_PILE),  # hand sizes, places
        (O_SUM_CACHE, O_SUM_CACHE + n * SUM_CACHE_WIDTH),
    )
    for start, stop in spans:
        for i in range(start, stop):
            g[to + i] = g[frm + i]
    # the piles, up to their sizes (the sizes are among the scalars, copied above)
    for block, size in ((O_PILE, S_NPILE), (O_DISC, S_NDISC), (O_ASIDE, S_NASIDE)):
        for i in range(block, block + g[size]):
            g[to + i] = g[frm + i]
    if two_sided(g):  # each physical card's faces on the side in play and the other, its owner
        size = deck_size(g)
        for block in (O_CARD_FACE, O_CARD_OTHER, O_OWNER):
            for i in range(block, block + size):
                g[to + i] = g[frm + i]


@njit(cache=True)
def save_turn_start(g):
    """Keep the state as this turn begins, when g has a snapshot block."""
    snap = g[O_EXT_SNAP]
    if snap != 0:
        _transfer(g, snap, True)
        g[snap] = 1


@njit(cache=True)
def restore_turn_start(g):
    """Put back the last snapshot; False when there is none (the game must be replayed)."""
    snap = g[O_EXT_SNAP]
    if snap == 0 or g[snap] == 0:
        return False
    side = g[S_SIDE]  # the side whose face tables are in play now (the game stopped there)
    _transfer(g, snap, False)
    if g[S_SIDE] != side:  # a flip since the turn began: its face tables back in play
        swap_sides(g)
    return True
