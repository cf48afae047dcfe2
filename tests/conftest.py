"""Shared test set-up: numba's compile cache in a project-local folder (as `make test` sets).

Under pytest-xdist (`make test` runs two workers, a file at a time), the controlling process
prepares what every worker would otherwise wait for, before the workers start:
- the engine's kernels are compiled once, for numba's generic CPU (the wheel's CPU model,
  engine/cache.py PORTABLE_CPU), into the wheel's scratch cache build/wheel-cache: one process
  per family of kernels (running/warmup.py `family`; the families share no compiled code), side
  by side; two workers compiling the same kernel at the same time would each pay the whole
  compile. Every test process and every command the tests start inherits that CPU model and
  cache folder. (The generic code plays the same games as code for this CPU, integer code, and
  about as fast: docs/ARCHITECTURE.md "Shipping the compiled engine".)
- the wheel with its compiled engine (tools/build_wheel.py) is built in the background from a
  copy of that cache, so it loads instead of compiling; tests/test_install.py takes it from
  UNO_SIM_TEST_WHEEL_DIR instead of building its own.
A plain `pytest` (one process) does neither: the first test that plays compiles the engine for
this CPU, in $NUMBA_CACHE_DIR (.numba_cache).
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

# The slowest files start first, so that the last minutes are not one worker finishing a long
# file alone (pytest --durations=20 shows what is slow).
SLOW_FIRST = ("test_install.py", "test_scale.py", "test_bench_pairs.py", "test_search.py", "test_answers.py",
              "test_report_browser.py", "test_trace_replay.py", "test_flip_play.py")

# compiles the kernels of the kinds named, then prints the engine's cache folder
_COMPILE = ("import sys; from uno_sim.running.warmup import warm_up; from uno_sim.engine import jit; "
            "warm_up(*sys.argv[1:]); print(jit.numba.config.CACHE_DIR)")
# the wheel's scratch cache (tools/build_wheel.py), where the session's generic code is compiled
SESSION_CACHE = ROOT / "build" / "wheel-cache"


def _controls_workers(config) -> bool:
    return bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")


def _selects_slow_tests(config) -> bool:
    return "not slow" not in (config.getoption("markexpr", "") or "")


def pytest_configure(config):
    if not _controls_workers(config):
        return
    from uno_sim.engine.cache import PORTABLE_CPU  # plain names: imports no numba

    os.environ["NUMBA_CPU_NAME"] = PORTABLE_CPU  # the workers and their commands inherit both
    os.environ["NUMBA_CACHE_DIR"] = str(SESSION_CACHE)
    engine_cache = _compile_every_kernel()
    for other in SESSION_CACHE.glob("engine-*"):  # earlier sources' code, as tools/build_wheel.py prunes
        if other != engine_cache:
            shutil.rmtree(other, ignore_errors=True)
    if _selects_slow_tests(config) and "UNO_SIM_TEST_WHEEL_DIR" not in os.environ:
        folder = Path(tempfile.mkdtemp(prefix="uno-sim-test-wheel-"))
        # a copy: the tests may add to the session's cache while the wheel is copying from it
        shutil.copytree(engine_cache, folder / "cache" / engine_cache.name, ignore=shutil.ignore_patterns("*.tmp.*"))
        log = (folder / "build.log").open("w")
        # its exit status lands in `status` when it ends; the wheel test waits for that file
        script = f'"$0" tools/build_wheel.py --out "$1/dist" --cache "$1/cache"; echo $? > "$1/status"'
        subprocess.Popen(["sh", "-c", script, sys.executable, str(folder)], cwd=ROOT, stdout=log,
                         stderr=subprocess.STDOUT, start_new_session=True)
        os.environ["UNO_SIM_TEST_WHEEL_DIR"] = str(folder)  # the workers inherit it


def _compile_every_kernel() -> Path:
    """Compile (or load) every kernel into the session's cache, a process per family of kernels
    at once; the engine's cache folder there."""
    from uno_sim.running.warmup import KERNELS, family

    families: dict[str, list[str]] = {}
    for kind in KERNELS:
        families.setdefault(family(kind), []).append(kind)
    compiling = [subprocess.Popen([sys.executable, "-c", _COMPILE, *kinds], cwd=ROOT, stdout=subprocess.PIPE, text=True)
                 for kinds in families.values()]
    printed = [process.communicate()[0] for process in compiling]  # (reads the pipe, then waits)
    folders = {text.strip().splitlines()[-1] if process.returncode == 0 and text.strip() else None
               for process, text in zip(compiling, printed)}
    if None in folders or len(folders) != 1:
        raise RuntimeError("compiling the engine before the test workers start failed (see above)")
    return Path(folders.pop())


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order
