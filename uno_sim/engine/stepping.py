"""One game played up to the next question of a seat played from Python (bots/external.py).

The kernel plays game `game` of a run from its deal with the actions on the tape: it stops at
the first question the tape does not answer (the question, mask and observation are then in
the output block) or at the end of the round (the record row at O_REC). Python appends the
chosen action and calls it again; a game prefix costs microseconds, so one step is one
compiled call, and the compiled bots keep playing the other seats at engine speed.
"""

from .jit import njit

from ..game.knobs import K
from .play import play_round
from .rng import seed_game
from .state import O_TRACE, S_EXT_STOPPED, S_TPOS, S_OVERFLOW
from .unowned import keep_alive, unowned


@njit(cache=True)
def play_to_question(owner, key, game, tracing):
    """Play game `game` of the run with this key in the game array `owner` (configuration,
    tape and output block filled in). Returns (stopped at a question, trace end, overflow)."""
    g = unowned(owner)
    seed_game(g, key, game)
    play_round(g, g[K.players] - 1, tracing, O_TRACE)
    stopped = g[S_EXT_STOPPED] != 0
    end = g[S_TPOS]
    overflow = g[S_OVERFLOW] != 0
    keep_alive(owner)
    return stopped, end, overflow
