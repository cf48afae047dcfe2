"""Shared test set-up: numba's compile cache in a project-local folder (as `make test` sets).

Under pytest-xdist (`make test` runs two workers, a file at a time), the controlling process
prepares what every worker would otherwise wait for, before the workers start:
- the engine's kernels are compiled once into the shared cache (two workers compiling the same
  kernel at the same time would each pay the whole compile);
- the wheel with its compiled engine (tools/build_wheel.py) is built in the background, and
  tests/test_install.py takes it from UNO_SIM_TEST_WHEEL_DIR instead of building its own.
A plain `pytest` (one process) does neither: the first test that plays compiles the engine.
"""

import os
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

_COMPILE = "from uno_sim.running.warmup import KERNELS, warm_up; warm_up(*KERNELS)"


def _controls_workers(config) -> bool:
    return bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")


def _selects_slow_tests(config) -> bool:
    return "not slow" not in (config.getoption("markexpr", "") or "")


def pytest_configure(config):
    if not _controls_workers(config):
        return
    if _selects_slow_tests(config) and "UNO_SIM_TEST_WHEEL_DIR" not in os.environ:
        folder = Path(tempfile.mkdtemp(prefix="uno-sim-test-wheel-"))
        log = (folder / "build.log").open("w")
        # its exit status lands in `status` when it ends; the wheel test waits for that file
        script = f'"$0" tools/build_wheel.py --out "$1/dist"; echo $? > "$1/status"'
        subprocess.Popen(["sh", "-c", script, sys.executable, str(folder)], cwd=ROOT, stdout=log,
                         stderr=subprocess.STDOUT, start_new_session=True)
        os.environ["UNO_SIM_TEST_WHEEL_DIR"] = str(folder)  # the workers inherit it
    done = subprocess.run([sys.executable, "-c", _COMPILE], cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError("compiling the engine before the test workers start failed (see above)")


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order
