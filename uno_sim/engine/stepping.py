"""One game (or one round of a match) played up to the next question of a seat played from
Python (bots/external.py).

The kernel plays game `game` of a run from its deal with the actions on the tape: it stops at
the first question the tape does not answer (the question, mask and observation are then in
the output block) or at the end of the round (the record row at O_REC). Python appends the
chosen action and calls it again, which resumes the game at the start of the turn it stopped
in (snapshots.py), so one step is one compiled call of a turn or two, and the compiled bots
keep playing the other seats at engine speed. play_round_to_question does the same for a
match's round, which begins from the generator state and dealer the match reached.
"""

from .jit import njit

from ..game.knobs import K
from .play import continue_round, play_round
from .rng import seed_game
from .snapshots import restore_turn_start
from .state import O_RNG, O_TRACE, S_EXT_STOPPED, S_TPOS, S_OVERFLOW
from .unowned import keep_alive, unowned, unowned_two_sided


@njit(cache=True)
def _where_it_stopped(g, owner):
    """(stopped at a question, trace end, overflow) of the game just played in g."""
    stopped = g[S_EXT_STOPPED] != 0
    end = g[S_TPOS]
    overflow = g[S_OVERFLOW] != 0
    keep_alive(owner)
    return stopped, end, overflow


@njit(cache=True, inline="always")
def _to_question(g, owner, key, game, tracing):
    if restore_turn_start(g):
        continue_round(g, -1)
    else:
        seed_game(g, key, game)
        play_round(g, g[K.players] - 1, tracing, O_TRACE)
    return _where_it_stopped(g, owner)


@njit(cache=True)
def play_to_question(owner, key, game, tracing):
    """Play game `game` of the run with this key in the game array `owner` (configuration,
    tape and output block filled in). Returns (stopped at a question, trace end, overflow).

    When the array holds a snapshot of the turn the game last stopped in (snapshots.py; the
    caller clears it for a new game), the game resumes there instead of from its deal. A
    one-sided deck (play_to_question_two_sided: a two-sided one)."""
    return _to_question(unowned(owner), owner, key, game, tracing)


@njit(cache=True)
def play_to_question_two_sided(owner, key, game, tracing):
    return _to_question(unowned_two_sided(owner), owner, key, game, tracing)


@njit(cache=True, inline="always")
def _round_to_question(g, owner, start, dealer, tracing):
    if restore_turn_start(g):
        continue_round(g, -1)
    else:
        for i in range(4):
            g[O_RNG + i] = start[i]
        play_round(g, dealer, tracing, O_TRACE)
    return _where_it_stopped(g, owner)


@njit(cache=True)
def play_round_to_question(owner, start, dealer, tracing):
    """Play a match's round in `owner` (seated by match.before_round) from the generator state
    `start` (int64[4], the state as the round began) with `dealer` dealing; the tape answers
    the Python seats, as in play_to_question, which this resumes and returns like."""
    return _round_to_question(unowned(owner), owner, start, dealer, tracing)


@njit(cache=True)
def play_round_to_question_two_sided(owner, start, dealer, tracing):
    return _round_to_question(unowned_two_sided(owner), owner, start, dealer, tracing)


def game_kernel(two_sided: bool):
    """The kernel that plays a game up to a question: for a one-sided or a two-sided deck."""
    return play_to_question_two_sided if two_sided else play_to_question


def round_kernel(two_sided: bool):
    """The kernel that plays a match's round up to a question (one-sided or two-sided deck)."""
    return play_round_to_question_two_sided if two_sided else play_round_to_question
