"""Many games on worker threads (threads.split_run over nogil kernels), one record row per game.

Each game seeds its own generator from (run key, game index), so a chunk's rows do not
depend on the thread count, the split into slices or the chunk size.
"""

import numpy as np
from .jit import njit

from . import layout as L
from ..game.decks import CLASSIC, Deck
from ..game.knobs import K
from .play import play_round
from .rng import seed_game
from .search_rounds import play_round_any
from .threads import STOP, split_submit
from .deck_shape import deck_family
from .unowned import keep_alive, new_game, unowned, unowned_classic, unowned_like, unowned_two_sided
from .state import N_CONFIG, O_CAPACITY, N_GAME, O_BOTS, O_PARAMS, O_REC, O_TRACE, S_OVERFLOW, S_TPOS, make_config



from .keys import run_key  # noqa: E402,F401  (re-exported: the engine's entry points take the key)


@njit(cache=True)
def seat_bots(g, config, game, rotate):
    """Seat the bots for game number `game`; returns (deal number, rotation r).

    Without rotation seat s plays bot slot s (the s-th entry of --bots) and game i is deal i.
    With rotation (n players) game i is deal i // n played with rotation r = i % n: bot slot b
    sits at seat (b + r) % n, so every deal is played once with each bot in each seat."""
    if not rotate:
        return game, 0
    n = config[K.players]
    r = game % n
    for s in range(n):
        b = (s - r + n) % n
        g[O_BOTS + s] = config[O_BOTS + b]
        for k in range(L.N_BOT_PARAMS):
            g[O_PARAMS + s * L.N_BOT_PARAMS + k] = config[O_PARAMS + b * L.N_BOT_PARAMS + k]
    return game // n, r


@njit(cache=True, inline="always")
def _record(g, out, i, r, players):
    for c in range(L.N_COLS):
        out[i, c] = g[O_REC + c]
    w = out[i, L.COL_WINNER]
    out[i, L.COL_WINNER_BOT] = (w - r + players) % players if w >= 0 else -1


@njit(cache=True, inline="always")
def _games_into(g, config, key, start, rotate, out, stop):
    """Games start .. start + len(out) - 1 of the run in the game g, one record row each into
    out; stops early (rows left unplayed) once stop[0] is set (threads.request_stop). No seat
    plays `search` (see _searching_games_into)."""
    players = config[K.players]
    dealer = players - 1
    for i in range(out.shape[0]):
        if stop[0] != 0:
            break
        deal, r = seat_bots(g, config, start + i, rotate)
        seed_game(g, key, deal)
        play_round(g, dealer, 0, N_GAME)
        _record(g, out, i, r, players)


@njit(cache=True, nogil=True)
def _play_games(config, key, start, rotate, out, stop):
    """Games of a one-sided deck (_games_into)."""
    owner = new_game(config)
    _games_into(unowned(owner), config, key, start, rotate, out, stop)
    keep_alive(owner)


@njit(cache=True, nogil=True)
def _play_games_classic(config, key, start, rotate, out, stop):
    """Games of a deck of the classic shape (_games_into; the engine compiled for it, access.classic)."""
    owner = new_game(config)
    _games_into(unowned_classic(owner), config, key, start, rotate, out, stop)
    keep_alive(owner)


@njit(cache=True, nogil=True)
def _play_games_two_sided(config, key, start, rotate, out, stop):
    """Games of a two-sided deck (_games_into; the engine compiled for two-sided games, sides.two_sided)."""
    owner = new_game(config)
    _games_into(unowned_two_sided(owner), config, key, start, rotate, out, stop)
    keep_alive(owner)


@njit(cache=True, inline="always")
def _searching_games_into(g, config, key, start, rotate, out, stop):
    """_games_into when a seat plays `search` (engine/search_rounds.py): kernels of their own, so
    that runs without it neither load nor run the search code."""
    players = config[K.players]
    dealer = players - 1
    scratch = np.zeros(N_GAME, dtype=np.int64)  # the search bot's rollouts
    s = unowned_like(g, scratch)
    for i in range(out.shape[0]):
        if stop[0] != 0:
            break
        deal, r = seat_bots(g, config, start + i, rotate)
        seed_game(g, key, deal)
        play_round_any(g, s, dealer, 0, N_GAME)
        _record(g, out, i, r, players)
    keep_alive(scratch)


@njit(cache=True, nogil=True)
def _play_games_searching(config, key, start, rotate, out, stop):
    owner = new_game(config)
    _searching_games_into(unowned(owner), config, key, start, rotate, out, stop)
    keep_alive(owner)


@njit(cache=True, nogil=True)
def _play_games_searching_classic(config, key, start, rotate, out, stop):
    owner = new_game(config)
    _searching_games_into(unowned_classic(owner), config, key, start, rotate, out, stop)
    keep_alive(owner)


@njit(cache=True, nogil=True)
def _play_games_searching_two_sided(config, key, start, rotate, out, stop):
    owner = new_game(config)
    _searching_games_into(unowned_two_sided(owner), config, key, start, rotate, out, stop)
    keep_alive(owner)


# The kernel playing games: by (a seat plays search, the deck's family: deck_shape.deck_family).
GAMES_KERNELS = {(False, "one-sided"): _play_games, (False, "classic"): _play_games_classic,
                 (False, "two-sided"): _play_games_two_sided,
                 (True, "one-sided"): _play_games_searching, (True, "classic"): _play_games_searching_classic,
                 (True, "two-sided"): _play_games_searching_two_sided}


class ChunkJob:
    """A chunk of games being played on the worker threads; `result()` waits for its records."""

    def __init__(self, job, out: np.ndarray) -> None:
        self.job = job
        self.out = out

    def result(self) -> np.ndarray:
        self.job.wait()
        return self.out


def start_chunk(packed: np.ndarray, bot_codes, bot_params, key: int, start: int, n: int, rotate: bool = False,
                workers: int = 1, stop: np.ndarray | None = None, deck: Deck = CLASSIC) -> ChunkJob:
    """Start playing games start .. start+n-1 (n >= 1) of the run with this key on `workers`
    threads; the records (int64[n, N_COLS]) come from `result()`.

    `rotate`: seat rotation (see seat_bots); column COL_WINNER_BOT holds the winner's bot slot.
    `stop`: the int64[1] flag that stops the kernels at a game boundary (default: the
    process's, threads.STOP); `deck`: the deck played (game/decks.py)."""
    out = np.zeros((n, L.N_COLS), dtype=np.int64)
    config = make_config(packed, bot_codes, bot_params, deck)
    key, rotate = np.uint64(key), bool(rotate)
    stop = STOP if stop is None else stop
    kernel = GAMES_KERNELS[L.plays_search(bot_codes), deck_family(deck)]
    job = split_submit(lambda lo, hi: kernel(config, key, np.int64(start + lo), rotate, out[lo:hi], stop), n,
                       workers)
    return ChunkJob(job, out)


def run_chunk(packed: np.ndarray, bot_codes, bot_params, key: int, start: int, n: int, rotate: bool = False,
              workers: int = 1, deck: Deck = CLASSIC) -> np.ndarray:
    """Records (int64[n, N_COLS]) of games start .. start+n-1 of the run (see start_chunk)."""
    if n == 0:
        return np.zeros((0, L.N_COLS), dtype=np.int64)
    return start_chunk(packed, bot_codes, bot_params, key, start, n, rotate, workers, deck=deck).result()


@njit(cache=True, inline="always")
def _trace_into(g, key, game):
    scratch = np.zeros(N_GAME, dtype=np.int64)
    seed_game(g, key, game)
    play_round_any(g, unowned_like(g, scratch), g[K.players] - 1, 1, O_TRACE)
    keep_alive(scratch)
    return g[S_TPOS], g[S_OVERFLOW]


@njit(cache=True)
def _trace_game(owner, key, game):
    result = _trace_into(unowned(owner), key, game)
    keep_alive(owner)
    return result


@njit(cache=True)
def _trace_game_two_sided(owner, key, game):
    result = _trace_into(unowned_two_sided(owner), key, game)
    keep_alive(owner)
    return result


def trace_game(packed, bot_codes, bot_params, key: int, game: int, capacity: int, deck: Deck = CLASSIC):
    """Play one game with tracing on. Returns (record row, event buffer or None on overflow)."""
    g = np.zeros(O_TRACE + capacity, dtype=np.int64)
    g[:N_CONFIG] = make_config(packed, bot_codes, bot_params, deck)
    g[O_CAPACITY] = len(g)
    kernel = _trace_game_two_sided if deck.two_sided else _trace_game
    end, overflow = kernel(g, np.uint64(key), np.int64(game))
    record = g[O_REC : O_REC + L.N_COLS].copy()
    if overflow:
        return record, None
    return record, g[O_TRACE:end].copy()


def start_matches(packed, bot_codes, bot_params, key: int, start: int, n: int, seatings=None,
                  workers: int = 1, stop: np.ndarray | None = None, deck: Deck = CLASSIC) -> ChunkJob:
    """Start playing matches start .. start+n-1 (n >= 1) of the run on `workers` threads; the
    match records (int64[n, N_MATCH_COLS]) come from `result()`.

    `seatings`: the seating classes to rotate through (match.seating_classes), None for fixed seats;
    `stop`: as for start_chunk."""
    from .match import play_matches, play_matches_two_sided

    out = np.zeros((n, L.N_MATCH_COLS), dtype=np.int64)
    if seatings is None:
        seatings = np.zeros((0, len(bot_codes)), dtype=np.int64)
    config = make_config(packed, bot_codes, bot_params, deck)
    key = np.uint64(key)
    stop = STOP if stop is None else stop
    kernel = play_matches_two_sided if deck.two_sided else play_matches
    job = split_submit(lambda lo, hi: kernel(config, key, np.int64(start + lo), seatings, out[lo:hi], stop),
                       n, workers)
    return ChunkJob(job, out)


def run_matches(packed, bot_codes, bot_params, key: int, start: int, n: int, seatings=None,
                workers: int = 1, deck: Deck = CLASSIC) -> np.ndarray:
    """Match records (int64[n, N_MATCH_COLS]) of matches start .. start+n-1 (see start_matches)."""
    if n == 0:
        return np.zeros((0, L.N_MATCH_COLS), dtype=np.int64)
    return start_matches(packed, bot_codes, bot_params, key, start, n, seatings, workers, deck=deck).result()
