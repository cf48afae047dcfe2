"""The engine's start-up, in one place: compile its kernels, or load them from the cache.

The engine is compiled by numba on first use and cached on disk (engine/jit.py). Each kind of
work has a kernel of its own (KERNELS: games, games with a search bot, matches, traces), and a
command compiles only the kernels of the kinds it plays: a plain run the games kernel, a trace
the trace kernel. A later command that needs another kernel compiles just that one (the
functions below the kernels that numba cached when the first compiled are loaded, not compiled
again), and no command compiles the same code twice. The wait is announced with an estimate for
this machine (`compile_estimate`). Later runs load the compiled code in about a second.
`warm_up(kind)` does that before any game is timed, and tells its progress which it is doing
(running/progress.py; on the terminal, uno_sim.output.progress: a spinner, or without a
terminal two plain lines when it compiles and nothing for the second it takes to load, so that
a piped command with a warm cache writes nothing but its results, or its one error line, on
stderr). Runs, matches and traces call it first, so games per second never include it.

Whether the cache is warm is read from numba's index files (`*.nbi`) in the cache folder:
one for the kernel of that kind means the code is cached there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .progress import SILENT, ProgressLike, as_progress

LOADING = "loading the engine"

# The kernel each kind of work calls (engine module.function, as numba names its cache files).
# Games of a deck of the classic shape (engine/deck_shape.py `deck_family`: the standard decks) are
# played by kernels compiled for it, "games" and "search"; the other one-sided decks' games by
# the kinds with OTHER_DECK in front, and a two-sided deck's by those with TWO_SIDED in front
# (engine/sides.py `two_sided`). Matches and traces of a one-sided deck share the kernels of the
# other decks (their speed matters less than a compile of their own).
TWO_SIDED = "two-sided "
OTHER_DECK = "other-deck "
CLASSIC_KINDS = ("games", "search")
KERNELS = {"games": "batch._play_games_classic", "search": "batch._play_games_searching_classic",
           "other-deck games": "batch._play_games", "other-deck search": "batch._play_games_searching",
           "matches": "match.play_matches", "trace": "batch._trace_game",
           "two-sided games": "batch._play_games_two_sided",
           "two-sided search": "batch._play_games_searching_two_sided",
           "two-sided matches": "match.play_matches_two_sided", "two-sided trace": "batch._trace_game_two_sided"}


def family(kind: str) -> str:
    """The game pointer type the kernel of `kind` is compiled for (engine/access.py
    `deck_family`): kernels of one family share the compiled functions below them."""
    if kind.startswith(TWO_SIDED):
        return "two-sided"
    return "classic" if kind in CLASSIC_KINDS else "one-sided"


# What a cold compile of each kernel takes on the reference machine (a machine whose `probe`
# takes REFERENCE_PROBE; seconds, nearly idle): alone into an empty cache, and after another
# kernel, when the functions below it (the round, the bots) come from the cache as IR
# (engine/kernel_code.py). `compile_estimate` scales them to this machine by how long `probe`
# took there (CPU seconds). Measured on 7 December 2026 (2-core AMD EPYC, probe 0.007 s): the
# classic games kernel 82 s, the table-reading one 68 s, matches 94 s; the other kinds scaled
# from docs/ARCHITECTURE.md "Start-up: where the time goes" by the same factor (about 2: the
# engine has grown since, and this host compiles more slowly than its probe says).
# A two-sided kernel shares little with the one-sided ones (the engine's functions take the game
# pointer, whose type differs), so "after another" means after another of the same deck kind
# (machine_estimate); the two-sided kernels cost about what the one-sided ones do.
REFERENCE_SECONDS = {"games": 88.0, "search": 112.0, "matches": 120.0, "trace": 104.0}
REFERENCE_AFTER_ANOTHER = {"games": 40.0, "search": 34.0, "matches": 38.0, "trace": 32.0}
for _table in (REFERENCE_SECONDS, REFERENCE_AFTER_ANOTHER):
    _table |= {prefix + kind: _table[kind] for prefix in (TWO_SIDED, OTHER_DECK) for kind in ("games", "search")}
    _table |= {TWO_SIDED + kind: _table[kind] for kind in ("matches", "trace")}
# The classic shape's games kernel (kind "games") unrolls its loops over a colour's faces: about a
# fifth more than the table-reading kernel (docs/ARCHITECTURE.md "Kernels for the classic shape").
REFERENCE_SECONDS["games"] = 105.0
REFERENCE_PROBE = 0.009


def probe() -> float:
    """CPU seconds of a fixed piece of plain Python work: this machine's speed against the
    reference machine's (numba's compiler is mostly Python)."""
    best = float("inf")
    for _ in range(3):  # the least of three: a probe is short, and noise only adds
        began = time.process_time()
        total = 0
        for i in range(100_000):
            total += i * i % 7
        best = min(best, time.process_time() - began)
    return best


def compile_estimate(kinds, probe_seconds: float, load: float, cores: int, first: bool = True) -> float:
    """Seconds a cold compile of `kinds` should take here (`first`: no kernel is cached yet, so
    the first of them compiles alone and the others after it): the reference times scaled by this
    machine's speed (`probe_seconds` against REFERENCE_PROBE) and by its load (the compile
    runs on one core; with more runnable processes than cores it gets its share of them:
    measured on a 2-core machine at load 6, 516 s against 555 s estimated)."""
    speed = max(probe_seconds, 1e-6) / REFERENCE_PROBE
    share = max(1.0, load / max(cores, 1))
    kinds = list(kinds)
    alone = REFERENCE_SECONDS[kinds[0]] if first and kinds else 0.0
    after = sum(REFERENCE_AFTER_ANOTHER[k] for k in kinds[1 if first else 0:])
    return (alone + after) * speed * share


def rough_time(seconds: float) -> str:
    """`about 40 s`, `about 3 minutes`: an estimate, rounded as one."""
    if seconds < 90:
        return f"about {max(10, int(seconds / 10 + 0.5) * 10)} s"
    return f"about {int(seconds / 60 + 0.5)} minutes"


# What each kind's kernel is called in the message of a cold start.
KERNEL_NAMES = {"games": "game", "search": "search bot's game", "matches": "match", "trace": "trace"}
KERNEL_NAMES |= {TWO_SIDED + kind: f"two-sided {name}" for kind, name in KERNEL_NAMES.items()}
KERNEL_NAMES |= {OTHER_DECK + kind: f"other decks' {KERNEL_NAMES[kind]}" for kind in CLASSIC_KINDS}


def compiling_message(kinds, seconds: float) -> str:
    """What a cold start says: which of the engine's kernels it compiles (only those the
    command needs; each once, then cached), and for how long."""
    names = [KERNEL_NAMES[k] for k in dict.fromkeys(kinds)]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    noun = "kernel" if len(names) == 1 else "kernels"
    return f"compiling the engine's {what} {noun}, once: {rough_time(seconds)} on this machine"


def machine_estimate(kinds) -> float:
    """compile_estimate here, for each family of kernels among `kinds` apart (`family`: each
    family's first kernel compiles alone unless one of its family is cached)."""
    import os

    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every system
        load = 0.0
    speed = probe()
    total = 0.0
    for name in dict.fromkeys(family(k) for k in kinds):
        members = [k for k in kinds if family(k) == name]
        first = not any(cached(k) for k in KERNELS if family(k) == name)
        total += compile_estimate(members, speed, load, os.cpu_count() or 1, first)
    return total

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
    from these sources: its index file, in the subfolder engine/cache.py files the module under
    (its folder inside the package, whichever copy of the package this is)."""
    from ..engine.cache import engine_subfolder

    module, function = KERNELS[kind].split(".")
    source = Path(__file__).resolve().parent.parent / "engine" / f"{module}.py"  # uno_sim/engine
    subfolder = cache_folder() / engine_subfolder(source)
    return any(subfolder.glob(f"{module}.{function}-*.nbi"))


def warm_up(*kinds: str, progress: ProgressLike = None) -> Startup:
    """Compile (or load) the kernels that `kinds` (games, search, matches, trace; default games)
    need, by playing one game (or match) of the standard rules. Only those kernels: a kernel
    missing from the cache is compiled by the first command that needs it, and cached for
    every later one. Kinds already started in this process cost nothing. `progress`
    (running/progress.py; True: on standard error) is told what is happening meanwhile."""
    kinds = kinds or ("games",)
    for kind in kinds:
        if kind not in KERNELS:
            raise ValueError(f"unknown kind {kind!r}; one of {', '.join(KERNELS)}")
    todo = [k for k in dict.fromkeys(kinds) if k not in _ready]
    if not todo:
        return Startup()
    missing = [k for k in todo if not cached(k)]
    compiling = bool(missing)
    shown = as_progress(progress)
    if compiling:
        # the estimate (a short speed probe) only when someone is told it
        message = compiling_message(missing, machine_estimate(missing) if shown is not SILENT else 0.0)
        done = "engine compiled in {seconds:.1f} s (cached for later runs)"
    else:
        message, done = LOADING, "engine loaded in {seconds:.1f} s"
    began = time.perf_counter()
    # plain: without a terminal, a line only for the long wait
    with shown.starting(message, done, plain=compiling):
        for kind in todo:
            _play_one(kind)
            _ready.add(kind)
    return Startup(time.perf_counter() - began, compiling)


def kernel_kind(bot_codes, deck) -> str:
    """The kind whose kernel plays games with these bots on this deck (batch.start_chunk's
    choice): `search` when a seat plays the search bot, else `games`; for a deck that is not of
    the classic shape, that kind's kernel for other decks or for two-sided decks."""
    from ..engine.deck_shape import deck_family
    from ..engine.layout import plays_search

    kind = "search" if plays_search(bot_codes) else "games"
    return {"classic": "", "one-sided": OTHER_DECK, "two-sided": TWO_SIDED}[deck_family(deck)] + kind


def deck_kind(kind: str, two_sided: bool) -> str:
    """The kind of work `kind` (games, search, matches, trace) for a deck: its two-sided kernel's
    kind for a two-sided deck."""
    return TWO_SIDED + kind if two_sided else kind


def _play_one(kind: str) -> None:
    from .. import stats
    from ..game.bots import pack_bots, parse_bots
    from ..engine import batch  # importing compiles (or loads) the functions with signatures
    from ..game.decks import CLASSIC, FLIP, NO_MERCY
    from ..game.rules import Rules

    rules = Rules()
    deck = CLASSIC
    if kind.startswith(TWO_SIDED):  # the same, with the two-sided deck
        rules, deck, kind = rules.with_deck(FLIP), FLIP, kind[len(TWO_SIDED):]
    elif kind.startswith(OTHER_DECK):  # with a deck not of the classic shape
        rules, deck, kind = rules.with_deck(NO_MERCY), NO_MERCY, kind[len(OTHER_DECK):]
    packed = rules.pack()
    codes, params = pack_bots(parse_bots(None, rules.players))
    key = batch.run_key(0)
    if kind == "games":
        records = batch.run_chunk(packed, codes, params, key, 0, 1, workers=1, deck=deck)
        stats.Aggregate(players=rules.players).add(records)  # the compiled binning passes
        stats.PairedAggregate([stats.Aggregate(players=rules.players)]).add([records])  # and a paired compare's
    elif kind == "search":
        codes, params = pack_bots(parse_bots("search:rollouts=1", rules.players))
        records = batch.run_chunk(packed, codes, params, key, 0, 1, workers=1, deck=deck)
        stats.Aggregate(players=rules.players).add(records)  # a search run's binning passes
        stats.PairedAggregate([stats.Aggregate(players=rules.players)]).add([records])
    elif kind == "matches":
        batch.run_matches(packed, codes, params, key, 0, 1, workers=1, deck=deck)
    else:
        batch.trace_game(packed, codes, params, key, 0, 1 << 16, deck=deck)
