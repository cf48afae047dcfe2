"""A built wheel installs into a fresh virtual environment and works from any folder: the
presets are package data, nothing is looked up beside the source tree; the wheel from
`make wheel` (tools/build_wheel.py) carries the compiled engine, so its first run loads the
engine instead of compiling it, and plays the same games as this checkout's own engine.

The wheel test is slow (it compiles every kernel once for the wheel); it runs in `make test`.
Dependencies come from this environment (a .pth line), so no download is needed beyond the
build backend; uno-sim itself comes only from the wheel. The tests of the cache's layout and
of the shipped code's manifest are fast.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def sh(*args, cwd, env=None):
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def _locators(package_parent: Path, cache: Path) -> dict:
    """Where numba files two engine functions (engine/batch.py and engine/bots/dispatch.py) when
    uno_sim is imported from `package_parent`: cache folder relative to the cache root, stamp,
    index file. Importing compiles nothing."""
    code = ("import json, uno_sim\n"
            "from uno_sim.engine import batch, jit\n"
            "from uno_sim.engine.bots import dispatch\n"
            "out = {'package': uno_sim.__file__, 'root': jit.numba.config.CACHE_DIR}\n"
            "for f in (batch._play_games, dispatch.is_pro):\n"
            "    c = f._cache\n"
            "    out[f.__name__] = [c._impl.locator.get_cache_path(), repr(c._impl.locator.get_source_stamp()),\n"
            "                       c._cache_file._index_name]\n"
            "print(json.dumps(out))\n")
    env = {k: v for k, v in os.environ.items() if k != "UNO_SIM_NATIVE"}
    env.update(PYTHONPATH=str(package_parent), NUMBA_CACHE_DIR=str(cache))
    done = sh(sys.executable, "-c", code, cwd=package_parent, env=env)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["package"] == str(package_parent / "uno_sim" / "__init__.py")  # this copy, not the checkout
    root = Path(seen.pop("root"))
    assert root.parent == cache
    return {name: [Path(path).relative_to(root).as_posix(), stamp, index] for name, (path, stamp, index) in
            ((k, v) for k, v in seen.items() if k != "package")}


def test_the_engine_cache_is_found_by_content_wherever_the_package_lives(tmp_path):
    """Two copies of the same sources in different folders file their compiled code in the
    same place, with the same stamp (numba's own locator files it under a hash of the module's
    absolute folder: a cache built in one place was not found from another)."""
    copies = []
    for name in ("here", "there/deeper"):
        folder = tmp_path / name
        shutil.copytree(ROOT / "uno_sim", folder / "uno_sim", ignore=shutil.ignore_patterns("__pycache__", "_compiled"))
        copies.append(_locators(folder, tmp_path / "cache"))
    assert copies[0] == copies[1]
    assert copies[0]["_play_games"][0] == "engine" and copies[0]["is_pro"][0] == "engine/bots"
    # a change to any engine source is a new stamp (and a new cache folder)
    (tmp_path / "here" / "uno_sim" / "engine" / "rng.py").open("a").write("\n# changed\n")
    changed = _locators(tmp_path / "here", tmp_path / "cache")
    assert changed["_play_games"][1] != copies[0]["_play_games"][1]


def test_shipped_code_is_used_only_where_it_fits(tmp_path, monkeypatch):
    from uno_sim.engine import cache

    monkeypatch.setattr(cache, "SHIPPED_DIR", tmp_path)
    triple = "x86_64-unknown-linux-gnu"
    assert cache.shipped("engine-0123", triple) is None  # nothing shipped
    (tmp_path / "engine-0123").mkdir()
    (tmp_path / "engine-0123" / "shipped.json").write_text(json.dumps(cache.manifest_for(triple)))
    assert cache.shipped("engine-0123", triple)["cpu"] == "generic"
    assert cache.shipped("engine-4567", triple) is None  # other sources or another numba version
    assert cache.shipped("engine-0123", "aarch64-unknown-linux-gnu") is None  # another architecture
    other_python = dict(cache.manifest_for(triple), python="3.99")
    (tmp_path / "engine-0123" / "shipped.json").write_text(json.dumps(other_python))
    assert cache.shipped("engine-0123", triple) is None


def _fresh_venv(tmp_path: Path, wheel: Path) -> Path:
    venv = tmp_path / "venv"
    assert sh(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = sh(venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel,
                   cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    return venv


def _built_wheel(tmp_path: Path) -> Path:
    """The wheel tools/build_wheel.py builds: the one tests/conftest.py started building in the
    background when the tests run in workers (UNO_SIM_TEST_WHEEL_DIR), else one built here."""
    prebuilt = os.environ.get("UNO_SIM_TEST_WHEEL_DIR")
    if prebuilt:
        status = Path(prebuilt) / "status"
        waited = 0
        while not status.exists() and waited < 1200:
            time.sleep(1)
            waited += 1
        log = (Path(prebuilt) / "build.log").read_text(errors="replace")
        assert status.exists() and status.read_text().strip() == "0", log
        dist = Path(prebuilt) / "dist"
    else:
        dist = tmp_path / "dist"
        built = sh(sys.executable, ROOT / "tools" / "build_wheel.py", "--out", dist, cwd=tmp_path)
        assert built.returncode == 0, built.stderr
    return next(dist.glob("uno_sim-*.whl"))


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_checkout(tmp_path):
    wheel = _built_wheel(tmp_path)
    assert wheel.name.endswith(f"-cp{sys.version_info[0]}{sys.version_info[1]}-none-"
                               f"{sysconfig.get_platform().replace('-', '_').replace('.', '_')}.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    shipped = {name for name in names if name.startswith("uno_sim/") and name.endswith(".py")}
    source = {p.relative_to(ROOT).as_posix() for p in (ROOT / "uno_sim").rglob("*.py")}
    # a module moved or removed since an earlier build (api.py, now the api/ package) must not
    # ship again beside its replacement
    assert shipped == source, (f"the wheel's modules differ from the source tree's: "
                               f"extra {sorted(shipped - source)}, missing {sorted(source - shipped)}")
    # the compiled engine: every kernel's index, and what it was compiled for
    compiled = [n for n in names if n.startswith("uno_sim/_compiled/engine-")]
    from uno_sim.running.warmup import KERNELS

    for kernel in KERNELS.values():  # one-sided and two-sided
        assert any(n.split("/")[-1].startswith(kernel + "-") and n.endswith(".nbi") for n in compiled), kernel
    assert any(n.endswith("/shipped.json") for n in compiled)

    venv = _fresh_venv(tmp_path, wheel)
    site = next((venv / "lib").glob("python3*/site-packages"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "UNO_SIM_NATIVE", "NUMBA_CPU_NAME")}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")  # empty
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")  # empty
    check = sh(venv / "bin" / "python", "-c", "import uno_sim, sys; print(uno_sim.__file__)", cwd=elsewhere, env=env)
    assert str(site) in check.stdout, check.stdout + check.stderr  # the wheel's copy, not the checkout

    listed = sh(venv / "bin" / "uno-sim", "presets", cwd=elsewhere, env=env)
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert {"standard", "stacking", "house"} <= set(names) and len(names) >= 15

    # the first run loads the shipped engine: no compiling, and the same games as this checkout
    # plays with its own engine (under `make test` the session's, compiled for the generic CPU
    # in its own cache folder, tests/conftest.py; under a plain pytest the one for this CPU)
    compare = ("compare", "stacking", "nostacking", "--games", "3000", "--seed", "5", "--workers", "2")
    first = sh(venv / "bin" / "uno-sim", *compare, "--out", "o", cwd=elsewhere, env=env)
    assert first.returncode == 0, first.stderr
    assert "compiling the engine" not in first.stderr and "to compile the engine" not in first.stdout
    assert "to load the engine" in first.stdout, first.stdout
    here = sh(sys.executable, "-m", "uno_sim", *compare, "--out", tmp_path / "checkout", cwd=ROOT)
    assert here.returncode == 0, here.stderr
    for name in ("compare.csv", "differences.csv", "distributions.csv"):
        assert (elsewhere / "o" / name).read_bytes() == (tmp_path / "checkout" / name).read_bytes(), name

    (elsewhere / "mine.toml").write_text('extends = "stacking"\n[rules]\nhand_size = 5\n', encoding="utf-8")
    ran = sh(venv / "bin" / "uno-sim", "run", "mine.toml", "--games", "300", "--out", "o2", cwd=elsewhere, env=env)
    assert ran.returncode == 0, ran.stderr
    assert "compiling the engine" not in ran.stderr
    assert (elsewhere / "o2" / "summary.csv").is_file()
    module = sh(venv / "bin" / "python", "-m", "uno_sim", "rules", "jump_in", cwd=elsewhere, env=env)
    assert module.returncode == 0 and module.stdout.startswith("jump_in: ")

    # where the shipped code does not fit, the engine compiles as usual (asked here, not
    # compiled: whether the kernels are cached is what decides the "compiling" message)
    asked = ("import json; from uno_sim.running import warmup; from uno_sim.engine import jit; "
             "print(json.dumps([jit.SHIPPED is not None, warmup.cached('games')]))")
    fresh = dict(env, NUMBA_CACHE_DIR=str(tmp_path / "cache2"))
    for extra in ({}, {"UNO_SIM_NATIVE": "1"}, {"NUMBA_CPU_NAME": "x86-64-v3"}):
        seen = sh(venv / "bin" / "python", "-c", asked, cwd=elsewhere, env=dict(fresh, **extra))
        assert seen.returncode == 0, seen.stderr
        assert json.loads(seen.stdout) == ([True, True] if not extra else [False, False]), extra
    manifest = next((site / "uno_sim" / "_compiled").glob("engine-*/shipped.json"))
    manifest.write_text(json.dumps(dict(json.loads(manifest.read_text()), triple="aarch64-unknown-linux-gnu")))
    seen = sh(venv / "bin" / "python", "-c", asked, cwd=elsewhere, env=dict(fresh, NUMBA_CACHE_DIR=str(tmp_path / "c3")))
    assert json.loads(seen.stdout) == [False, False], seen.stderr
