"""`njit` for the engine: numba's compiler with the engine's own cache folder.

Compiled code is cached on disk. numba checks only the timestamp of the file that holds a
function, not of the modules it calls, so a cache could outlive a change to a helper
module. The cache folder is therefore keyed by a hash of the engine's sources (and the
tables it reads: decks and knobs): any change to them starts a fresh cache, and a reinstall
of the same version reuses the old one. The base folder is $NUMBA_CACHE_DIR when set, else
the per-user cache folder.

Every engine module imports `njit` from here, so the folder is set before the first
function is compiled; importing the engine's plain tables (layout, state) compiles nothing
and does not import numba.

Inside the folder numba files the engine's modules by their place in the package
(engine/cache.py), so the same sources find their compiled code wherever they are installed.
A wheel built by `make wheel` ships the engine compiled for a generic CPU of its architecture
(uno_sim/_compiled); when it fits this process (same sources, numba, Python and architecture),
the engine uses that CPU model too and starts from a copy of the shipped code in
`<base>/engine-<hash>-generic`, so the first run after installing loads instead of compiling.
$UNO_SIM_NATIVE=1 (or $NUMBA_CPU_NAME) opts out: the engine is compiled once for this CPU, as
without a shipped engine.
"""

import hashlib
import os
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

import numba
import platformdirs
from llvmlite import binding as llvm
from numba.core import config, event, types

from . import blas_check, cache, kernel_code

# numba's check for a BLAS (scipy.linalg, about 0.2 s) made only if a compile asks for it
blas_check.install()

ENGINE_DIR = Path(__file__).resolve().parent
# The game's tables the engine reads (tests/test_layers.py checks that this lists every module of
# uno_sim/game the engine imports): a change to one of them changes the compiled code.
TABLES = tuple(ENGINE_DIR.parent / "game" / name for name in ("bots.py", "decks.py", "errors.py", "knobs.py", "packing.py", "rules.py"))


def sources_hash() -> str:
    digest = hashlib.sha256(version("numba").encode())
    for path in sorted(ENGINE_DIR.rglob("*.py")) + list(TABLES):
        digest.update(path.relative_to(ENGINE_DIR.parent).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_dir(tag: str | None = None) -> Path:
    """The folder `tag` (default engine-<sources hash>) in $NUMBA_CACHE_DIR, else in the
    per-user cache folder, else in the temporary directory: the first one writable (a note on
    stderr when one is skipped). Never the installed package's own folders, which numba would
    use without a cache folder set."""
    tag = tag or f"engine-{sources_hash()}"
    candidates = [os.environ.get("NUMBA_CACHE_DIR"), platformdirs.user_cache_dir("uno-sim"),
                  os.path.join(tempfile.gettempdir(), f"uno-sim-cache-{os.getuid() if hasattr(os, 'getuid') else 0}")]
    for i, base in enumerate(candidates):
        if base and _writable(Path(base) / tag):
            if i > 0 and candidates[0]:
                sys.stderr.write(f"note: NUMBA_CACHE_DIR {candidates[0]} is not writable; "
                                 f"compiled code is cached in {base} instead\n")
            return Path(base) / tag
    sys.stderr.write("note: no writable cache folder; the engine compiles afresh on every start\n")
    return Path(tempfile.mkdtemp(prefix="uno-sim-cache-")) / tag


NATIVE = "UNO_SIM_NATIVE"


def native_wanted() -> bool:
    """$UNO_SIM_NATIVE set (not 0), or a CPU chosen with $NUMBA_CPU_NAME: no shipped code."""
    return os.environ.get(NATIVE, "0") not in ("", "0") or config.CPU_NAME is not None


def _cpu_target_ready() -> bool:
    """numba has set up its CPU target already (something compiled before the engine was
    imported): too late to choose the CPU model, so no shipped code."""
    from numba.core.registry import cpu_target

    return "_toplevel_target_context" in vars(cpu_target)


def _choose_cache() -> tuple[Path, dict | None]:
    """The cache folder, and the manifest of the shipped compiled engine when it is used."""
    digest = sources_hash()
    tag = f"engine-{digest}"
    cache.register(digest)
    manifest = None if native_wanted() or _cpu_target_ready() else cache.shipped(tag, llvm.get_process_triple())
    if manifest is None:
        return cache_dir(tag), None
    # before numba's CPU target is set up (the first njit below, in an engine module)
    config.CPU_NAME, config.CPU_FEATURES = manifest["cpu"], manifest["features"]
    folder = cache_dir(f"{tag}-{manifest['cpu']}")
    cache.copy_shipped(tag, folder)
    return folder, manifest


_folder, SHIPPED = _choose_cache()
numba.config.CACHE_DIR = str(_folder)


def njit(*args, **options):
    """numba's `njit`, compiling each function once for the plain types of its arguments.

    numba types a constant argument as a literal (`continue_round(g, -1)`: Literal[int](-1)) and
    compiles a function once for every distinct constant its callers pass, each version linked
    with everything it calls and optimised again: continue_round was compiled three times,
    play_round_any and evaluate twice, some of the bots' and Python seats' helpers up to four
    times. Here a call from compiled code asks for the version with plain types (int64, bool,
    ...) and passes its constants to it, so each function is compiled once per kind of
    argument. What the code computes is the same (integer code, a constant is the same value);
    only LLVM's chance to fold a constant into a function it does not inline is lost."""
    if args and callable(args[0]) and not options:  # @njit without arguments
        return _plain_arguments(numba.njit(args[0]))

    def wrap(function):
        return _plain_arguments(numba.njit(*args, **options)(function))

    return wrap


def _plain_arguments(dispatcher):
    """`dispatcher`, typed from compiled callers with its arguments' literal types made plain."""
    if config.DISABLE_JIT:  # numba.njit gave back the plain Python function
        return dispatcher
    typed = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


# Functions declared with an explicit signature (`njit_typed`), with it.
DECLARED: list[tuple[numba.core.registry.CPUDispatcher, object]] = []


def njit_typed(signature, **options):
    """`njit` with a declared signature: a compiled caller always gets the version with the
    declared argument types (sigs.py), whatever constants or kinds it passes (a bool or a literal
    where an int64 is declared: the same int64 version), so each function is compiled once per
    game pointer type (sigs.G, one-sided; sigs.G2, two-sided), and only when a caller needs it.

    The game pointer keeps the caller's type: a two-sided game's functions are compiled apart
    from a one-sided game's (sides.two_sided). With a warm cache these functions are never
    loaded at all: the cached kernels hold their code."""

    def declare(function):
        dispatcher = numba.njit(**options)(function)
        DECLARED.append((dispatcher, signature))
        if config.DISABLE_JIT:
            return dispatcher
        typed = dispatcher.get_call_template
        declared = signature.args

        def get_call_template(args, kws):
            if kws or len(args) != len(declared):
                return typed(args, kws)  # numba reports the mismatch
            wanted = tuple(a if isinstance(d, types.CPointer) else d for a, d in zip(args, declared))
            if wanted not in dispatcher.overloads:  # compiled (or loaded) with its declared return type
                dispatcher.compile(signature.return_type(*wanted))
            return typed(wanted, {})

        dispatcher.get_call_template = get_call_template
        return dispatcher

    return declare


# LLVM optimisation level of a function compiled inside another one's compilation (see
# `_Compiling`); the outermost function (a kernel called from Python) keeps numba's own
# level (3, or $NUMBA_OPT).
INNER_OPT = 1


class _Compiling(event.Listener):
    """numba's compile events (a cache miss; numba compiles a function's callees while it
    compiles the function, so the events nest):

    - Optimise the functions compiled inside another one at level INNER_OPT, and only the
      outermost at full level. numba links the optimised code of every callee into each
      caller and optimises the whole again, so at full level the engine's deeper functions
      were optimised once per level above them. The kernel's own full optimisation covers
      all the code it links in: the kernels run as fast as before (kernel-only games/s
      within noise for standard, house and expert) and a cold compile takes about 20% less.
      Only how much LLVM optimises changes, never what the code computes (integer code, no
      fast-math), so results are byte-identical.
    """

    def __init__(self):
        self.levels = []  # numba's level before each compile under way

    def on_start(self, event):
        self.levels.append(config.OPT)
        kernel_code._depth[0] = len(self.levels)
        if len(self.levels) > 1:
            config.OPT = config._OptLevel(min(int(config.OPT), INNER_OPT))

    def on_end(self, event):
        config.OPT = self.levels.pop()
        kernel_code._depth[0] = len(self.levels)


event.register("numba:compile", _Compiling())
kernel_code.install()
