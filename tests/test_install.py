"""A built wheel installs into a fresh virtual environment and works from any folder: the
presets are package data, nothing is looked up beside the source tree.

Slow (builds a wheel, compiles the engine in the new location); it runs in `make test`.
Dependencies come from this environment (a .pth line), so no download is needed beyond the
build backend; uno-sim itself comes only from the wheel.
"""

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def sh(*args, cwd, env=None):
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_checkout(tmp_path):
    dist = tmp_path / "dist"
    built = sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, ROOT, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    wheel = next(dist.glob("uno_sim-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        shipped = {name for name in zf.namelist() if name.startswith("uno_sim/") and name.endswith(".py")}
    source = {p.relative_to(ROOT).as_posix() for p in (ROOT / "uno_sim").rglob("*.py")}
    # setuptools copies into build/lib and never deletes there: a module moved or removed since an
    # earlier build (api.py, now the api/ package) would ship again beside its replacement
    assert shipped == source, (f"the wheel's modules differ from the source tree's (a stale build/ folder? "
                               f"`make clean`): extra {sorted(shipped - source)}, missing {sorted(source - shipped)}")

    venv = tmp_path / "venv"
    assert sh(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = sh(venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel,
                   cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    check = sh(venv / "bin" / "python", "-c", "import uno_sim, sys; print(uno_sim.__file__)", cwd=elsewhere, env=env)
    assert str(site) in check.stdout, check.stdout + check.stderr  # the wheel's copy, not the checkout

    listed = sh(venv / "bin" / "uno-sim", "presets", cwd=elsewhere, env=env)
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert {"standard", "stacking", "house"} <= set(names) and len(names) >= 15

    (elsewhere / "mine.toml").write_text('extends = "stacking"\n[rules]\nhand_size = 5\n', encoding="utf-8")
    ran = sh(venv / "bin" / "uno-sim", "run", "mine.toml", "--games", "300", "--out", "o", cwd=elsewhere, env=env)
    assert ran.returncode == 0, ran.stderr
    assert (elsewhere / "o" / "summary.csv").is_file()
    module = sh(venv / "bin" / "python", "-m", "uno_sim", "rules", "jump_in", cwd=elsewhere, env=env)
    assert module.returncode == 0 and module.stdout.startswith("jump_in: ")
