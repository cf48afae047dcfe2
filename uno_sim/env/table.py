"""The stepping core: one game at a time, some seats played from Python, one compiled call a step.

A `Table` holds the game array of one rule set with its seats (compiled bots, and the seats
played from Python), a run key and a tape of the actions the Python seats chose so far. Each
step appends the chosen action and plays on from the start of the turn the game stopped in (a
snapshot the engine keeps, engine/snapshots.py) up to the next question of a Python seat
(engine/stepping.py); the engine writes that question, the mask of legal
actions and the observation into the array, so a step creates no Python objects per card.
docs/BOTS.md ("Your own bot in Python") documents the actions and the observation. Any deck
plays: on a two-sided deck (UNO Flip) the observation shows the side in play and the other
side of the other players' cards and of the draw pile's top card (engine/bots/external.py).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from contextlib import contextmanager

import numba
import numpy as np

from ..engine import layout as L
from ..engine.keys import run_key
from ..engine.snapshots import SNAPSHOT_SIZE
from ..engine.state import (
    N_CONFIG,
    N_GAME,
    O_CAPACITY,
    O_EXT_OUT,
    O_EXT_SEATS,
    O_EXT_SNAP,
    O_EXT_TAPE,
    O_EXT_TAPE_LEN,
    O_REC,
    make_config,
)
from ..game import presets
from ..game.bots import Bot, pack_bots, parse_bots
from ..game.errors import BadInput
from ..game.rules import Rules
from .spaces import as_action

QUESTIONS = L.QUESTIONS
N_ACTIONS = L.N_ACTIONS
N_OBS = L.N_OBS


def seat_bots(rules: Rules, bots: str | Sequence[str] | None, python_seats: Iterable[int]) -> tuple[list[Bot], int]:
    """The bots of every seat (a Python seat sits as `random`, whose parameters it keeps for
    what it is not asked) and the bit mask of the Python seats. `bots` names the bots of the
    other seats: one spec for all of them, or one per seat (a Python seat's entry is ignored)."""
    n = rules.players
    seats = sorted(set(int(s) for s in python_seats))
    if not seats:
        raise BadInput("no seat is played from Python (give python_seats)")
    bad = [s for s in seats if not 0 <= s < n]
    if bad:
        raise BadInput(f"python seat {bad[0]} is not a seat of a {n}-player table (seats 0 to {n - 1})")
    if bots is None or isinstance(bots, str):
        spec = bots
    else:
        spec = ",".join(bots)
    listed = parse_bots(spec, n)
    table = [Bot("random") if s in seats else listed[s] for s in range(n)]
    if any(b.python for b in table):
        raise BadInput("a python: bot takes its seat here through python_seats (the compiled seats name compiled bots)")
    if any(b.name == "search" for b in table):
        raise BadInput("the search bot cannot sit at a table with Python seats (its rollouts replay the game)")
    return table, sum(1 << s for s in seats)


_started = False  # the stepping engine was loaded in this process


@contextmanager
def _engine_start():
    """Around the first table's loading of the stepping engine in this process: a line on
    standard error before (loading it takes seconds, compiling it after installing minutes)
    and one after, with the time it took; nothing for the tables after it."""
    global _started
    if _started:
        yield
        return
    began = time.perf_counter()
    print("uno_sim.env: starting the engine (loaded from its cache in seconds; compiled the first time after "
          "installing, which takes minutes) ...", file=sys.stderr, flush=True)
    yield
    _started = True
    print(f"uno_sim.env: engine ready in {time.perf_counter() - began:.1f} s", file=sys.stderr, flush=True)


def _compiled_entry(kernel, *example):
    """The compiled function of `kernel` for the types of `example` (the game array, the key,
    the game index, the tracing flag), called without the dispatcher's per-call type matching
    (about 2 microseconds a step, a tenth of a step's Python). The dispatcher itself when numba
    does not expose it."""
    sig = (numba.typeof(example[0]), numba.typeof(example[1]), numba.typeof(example[2]), numba.int64)
    try:
        if sig not in kernel.overloads:
            kernel.compile(sig)
        return kernel.overloads[sig].entry_point
    except Exception:  # numba's internals moved: the dispatcher works, a little slower
        return kernel


class Table:
    """One game at a time: compiled bots in some seats, Python in the others.

    `reset(game)` deals game number `game` of the run (the same deal as game `game` of
    `uno-sim run` with this seed) and plays to the first question of a Python seat;
    `step(action)` answers it and plays to the next one. While the game runs, `seat`,
    `question`, `mask` (legal actions, bool[N_ACTIONS]) and `observation` (int64[N_OBS]) describe
    the question; once `done`, `record` is the per-game record (winner, points, ...)."""

    TAPE_ROOM = 256  # actions the first game array holds; a longer game doubles it as it goes

    def __init__(self, rules: str | Rules = "standard", players: int | None = None,
                 bots: str | Sequence[str] | None = None, python_seats: Iterable[int] | None = None,
                 seed: int = 0, overrides: dict | None = None) -> None:
        self.rules = presets.load_rule_set(rules, overrides, players)[1]
        self.players = self.rules.players
        seats = range(self.players) if python_seats is None else python_seats
        self.bots, self.python_mask = seat_bots(self.rules, bots, seats)
        self.python_seats = tuple(s for s in range(self.players) if self.python_mask >> s & 1)
        codes, params = pack_bots(self.bots)
        self._config = make_config(self.rules.pack(), codes, params, self.rules.cards)
        self._config[O_EXT_SEATS] = self.python_mask
        self.seed = seed
        self.key = np.uint64(run_key(seed))
        self.game = np.int64(0)
        self.length = 0  # actions on the tape
        self.done = True
        with _engine_start():
            from ..engine.stepping import game_kernel  # numba loads (or compiles) the engine here

            self._kernel = game_kernel(self.rules.cards.two_sided)
            self._use(self._array(self.TAPE_ROOM, 0))
            self._play_step = _compiled_entry(self._kernel, self._g, self.key, self.game)

    def _array(self, tape: int, trace: int) -> np.ndarray:
        """A game array: the game, a trace buffer of `trace` entries, the output block, then
        (without a trace buffer) a turn-start snapshot block (engine/snapshots.py), a tape."""
        snapshot = 0 if trace else SNAPSHOT_SIZE
        g = np.zeros(N_GAME + trace + N_ACTIONS + N_OBS + snapshot + tape, dtype=np.int64)
        g[:N_CONFIG] = self._config
        out = N_GAME + trace
        g[O_CAPACITY] = out
        g[O_EXT_OUT] = out
        g[O_EXT_SNAP] = out + N_ACTIONS + N_OBS if snapshot else 0
        g[O_EXT_TAPE] = out + N_ACTIONS + N_OBS + snapshot
        return g

    def _use(self, g: np.ndarray) -> None:
        """Play in g from now on (the views of its output block follow)."""
        out = int(g[O_EXT_OUT])
        self._g = g
        self._tape_at = int(g[O_EXT_TAPE])
        self._end = len(g)
        self._mask = g[out : out + N_ACTIONS]
        self._obs = g[out + N_ACTIONS : out + N_ACTIONS + N_OBS]

    @property
    def tape(self) -> np.ndarray:
        """The actions the Python seats chose so far in this game, in order."""
        return self._g[self._tape_at : self._tape_at + self.length]

    def reset(self, game: int = 0) -> None:
        if game < 0:
            raise BadInput(f"game must not be negative (got {game})")
        self.game = np.int64(game)
        self.key = np.uint64(self.key)  # (the environments set it when reseeded)
        self.length = 0
        self._play()

    def step(self, action: int) -> None:
        if self.done:
            raise BadInput("the game is over: reset() deals the next one")
        index = as_action(action)
        if index is None or not (0 <= index < N_ACTIONS and self._mask[index]):
            what = f"action {action!r}" if index is None else f"action {index}"
            why = "is not an integer action" if index is None else "is not legal now"
            raise BadInput(f"{what} {why} (question {self.question!r}; legal: "
                           f"{np.flatnonzero(self._mask).tolist()})")
        self._answer(index)

    def _answer(self, action: int) -> None:
        """step() without its checks: `action` (an int) is legal and the game is not over."""
        at = self._tape_at + self.length
        if at == self._end:  # a full tape: twice the room (amortised O(1) an action)
            bigger = self._array(2 * self.length, 0)
            start = int(bigger[O_EXT_TAPE])
            bigger[start : start + self.length] = self.tape
            self._use(bigger)
            at = start + self.length
        g = self._g
        g[at] = action
        self.length += 1
        g[O_EXT_TAPE_LEN] = self.length
        self.done = not self._play_step(g, self.key, self.game, 0)[0]

    def _play(self) -> None:
        """Play the game from its deal (the snapshot of an earlier game cleared)."""
        g = self._g
        g[g[O_EXT_SNAP]] = 0
        g[O_EXT_TAPE_LEN] = self.length
        self.done = not self._play_step(g, self.key, self.game, 0)[0]

    # ------------------------------------------------------------ the question
    @property
    def mask(self) -> np.ndarray:
        """Legal actions of the question (bool[N_ACTIONS]; all False once done)."""
        if self.done:
            return np.zeros(N_ACTIONS, dtype=bool)
        return self._mask != 0

    @property
    def observation(self) -> np.ndarray:
        """What the asked seat may know (int64[N_OBS], layout in docs/BOTS.md; a copy)."""
        return self._obs.copy()

    def view(self):
        """The question by card texts and colour letters (env/view.py View), this table's deck."""
        from .view import View

        return View(self._obs.copy(), self.mask, self.rules)

    @property
    def seat(self) -> int:
        return int(self._obs[L.OB_SEAT])

    @property
    def question(self) -> str:
        return QUESTIONS[int(self._obs[L.OB_QUESTION])]

    # ------------------------------------------------------------ the result
    @property
    def record(self) -> dict[str, int]:
        """The finished game's record: winner (-1: none), reason, turns, points_<seat>, ..."""
        if not self.done:
            raise BadInput("the game is still being played")
        row = self._g[O_REC : O_REC + L.N_COLS].tolist()  # Python ints, read once
        out = {}
        for name, offset in L.RECORD_COLUMN.items():
            if name in ("points", "cards"):
                for q in range(self.players):
                    out[f"{name}_{q}"] = row[offset + q]
            else:
                out[name] = row[offset]
        out["reason"] = L.REASONS[out["reason"]]
        return out

    def trace_buffer(self, capacity: int) -> tuple[np.ndarray, np.ndarray | None]:
        """The finished game played again with tracing on: (record row, event buffer), the
        buffer None when `capacity` entries were too few (running/trace.py decodes it)."""
        if not self.done:
            raise BadInput("the game is still being played")
        g = self._array(max(self.length, 1), capacity)
        start = int(g[O_EXT_TAPE])
        g[start : start + self.length] = self.tape
        g[O_EXT_TAPE_LEN] = self.length
        stopped, end, overflow = self._kernel(g, self.key, self.game, 1)
        assert not stopped, "the tape answers every question of its own game"
        record = g[O_REC : O_REC + L.N_COLS].copy()
        return record, (None if overflow else g[N_GAME:end].copy())
