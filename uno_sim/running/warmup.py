"""The engine's start-up, in one place: compile its kernels, or load them from the cache.

The engine is compiled by numba on first use and cached on disk (engine/jit.py). The first
run after installing (or after a change to the engine) compiles for about half a minute, later
runs load the compiled code in about a second. `warm_up(kind)` does that before any game is
timed, and tells its progress which it is doing (running/progress.py; on the terminal,
uno_sim.output.progress: a spinner, or without a terminal two plain lines when it compiles and
nothing for the second it takes to load, so that a piped command with a warm cache writes
nothing but its results, or its one error line, on stderr).
Runs, matches and traces call it first, so games per second never include it.

Whether the cache is warm is read from numba's index files (`*.nbi`) in the cache folder:
one for the kernel of that kind means the code is cached there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .progress import ProgressLike, as_progress

COMPILING = "compiling the engine, first run only, about half a minute"
LOADING = "loading the engine"

# The kernel each kind of work calls (engine module.function, as numba names its cache files).
KERNELS = {"games": "batch._play_games", "matches": "match.play_matches", "trace": "batch._trace_game"}

@dataclass(frozen=True)
class Startup:
    """Time spent starting the engine before the games were timed (0 when it had started
    already in this process); `compiled`: it compiled rather than loaded from the cache."""

    seconds: float = 0.0
    compiled: bool = False

    def __add__(self, other: "Startup") -> "Startup":
        return Startup(self.seconds + other.seconds, self.compiled or other.compiled)

    def note(self) -> str:
        """`not counting 52.1 s to compile the engine` (empty when no time was spent)."""
        if self.seconds <= 0:
            return ""
        return f"not counting {self.seconds:.1f} s to {'compile' if self.compiled else 'load'} the engine"


_ready: set[str] = set()  # kinds warmed up in this process


def cache_folder() -> Path:
    """The engine's cache folder (importing engine.jit sets it; it imports numba only)."""
    import numba

    from ..engine import jit  # noqa: F401  (sets numba.config.CACHE_DIR)

    return Path(numba.config.CACHE_DIR)


def cached(kind: str) -> bool:
    """True when numba's cache holds the kernel of `kind` (games, matches or trace) compiled
    from this copy of the engine. numba files a module's functions under a subfolder named
    from the module's folder path, so another copy of the same sources (a checkout beside a
    pip-installed copy) shares the cache folder but not the subfolder."""
    from numba.core.caching import _CacheLocator

    module, function = KERNELS[kind].split(".")
    source = Path(__file__).resolve().parent.parent / "engine" / f"{module}.py"  # uno_sim/engine
    subfolder = cache_folder() / _CacheLocator.get_suitable_cache_subpath(str(source))
    return any(subfolder.glob(f"{module}.{function}-*.nbi"))


def warm_up(*kinds: str, progress: ProgressLike = None) -> Startup:
    """Compile (or load) the kernels that `kinds` (games, matches, trace; default games) need,
    by playing one game (or match) of the standard rules. Kinds already started in this
    process cost nothing. `progress` (running/progress.py; True: on standard error) is told
    what is happening meanwhile."""
    kinds = kinds or ("games",)
    for kind in kinds:
        if kind not in KERNELS:
            raise ValueError(f"unknown kind {kind!r}; one of {', '.join(KERNELS)}")
    todo = [k for k in dict.fromkeys(kinds) if k not in _ready]
    if not todo:
        return Startup()
    compiling = not all(cached(k) for k in todo)
    if compiling:
        message, done = COMPILING, "engine compiled in {seconds:.1f} s (cached for later runs)"
    else:
        message, done = LOADING, "engine loaded in {seconds:.1f} s"
    began = time.perf_counter()
    # plain: without a terminal, a line only for the long wait
    with as_progress(progress).starting(message, done, plain=compiling):
        for kind in todo:
            _play_one(kind)
            _ready.add(kind)
    return Startup(time.perf_counter() - began, compiling)


def _play_one(kind: str) -> None:
    from .. import stats
    from ..game.bots import pack_bots, parse_bots
    from ..engine import batch  # importing compiles (or loads) the functions with signatures
    from ..game.rules import Rules

    rules = Rules()
    packed = rules.pack()
    codes, params = pack_bots(parse_bots(None, rules.players))
    key = batch.run_key(0)
    if kind == "games":
        records = batch.run_chunk(packed, codes, params, key, 0, 1, workers=1)
        stats.Aggregate(players=rules.players).add(records)  # the compiled binning passes
    elif kind == "matches":
        batch.run_matches(packed, codes, params, key, 0, 1, workers=1)
    else:
        batch.trace_game(packed, codes, params, key, 0, 1 << 16)
