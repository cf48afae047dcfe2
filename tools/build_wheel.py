"""Build uno-sim's wheel with the compiled engine inside (`make wheel`): dist/uno_sim-*.whl.

1. Copy what the wheel ships (the package, pyproject.toml, README.md) into build/wheel-stage,
   so that the checkout itself never holds compiled code (an editable install compiles for its
   own CPU, as before).
2. Compile every kernel once from the staged copy, with numba's generic CPU model, into a
   scratch cache, build/wheel-cache (engine/cache.py files it by the module's place in the
   package, so it is found again from site-packages; a rebuild of the same sources loads it).
3. Put that cache in the staged package as uno_sim/_compiled/engine-<sources hash>/, with a
   manifest of what it was compiled for (Python, target triple, CPU model).
4. Build the wheel from the staged folder, tagged for this Python and platform: the compiled
   code fits only them (another numba version has another sources hash and compiles as usual).

Usage: python tools/build_wheel.py [--out dist] [--cache build/wheel-cache]

--cache names another scratch cache: one where the kernels were compiled already for the generic
CPU (tests/conftest.py compiles them there once for the whole test session), so step 2 only loads.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_FILES = ("pyproject.toml", "README.md", "LICENSE")
ENGINE_SUBFOLDER = "engine"  # engine/cache.py `engine_subfolder`: engine/ and engine/bots/ under it

COMPILE = """
import json, sys
import uno_sim
from uno_sim.engine import cache, jit
from uno_sim.running.warmup import KERNELS, warm_up
from llvmlite import binding
warm_up(*KERNELS, progress=True)
print(json.dumps({"package": uno_sim.__file__, "folder": jit.numba.config.CACHE_DIR,
                  "manifest": cache.manifest_for(binding.get_process_triple())}))
"""


def stage(folder: Path) -> None:
    """The files the wheel is built from, without caches or earlier builds' leftovers."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name in SHIPPED_FILES:
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, folder / name)
    shutil.copytree(ROOT / "uno_sim", folder / "uno_sim",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "_compiled"))


def compile_portable(staged: Path, scratch: Path) -> dict:
    """Compile every kernel from the staged package into `scratch`; what the compiling process
    reported (the package it imported, its cache folder, the manifest)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "UNO_SIM_NATIVE", "NUMBA_CPU_FEATURES")}
    env.update(PYTHONPATH=str(staged), NUMBA_CACHE_DIR=str(scratch), NUMBA_CPU_NAME="generic")
    done = subprocess.run([sys.executable, "-c", COMPILE], cwd=staged, env=env, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"compiling the engine failed (exit status {done.returncode})")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(report["package"]).resolve().parent != (staged / "uno_sim").resolve():
        sys.exit(f"the compile imported {report['package']}, not the staged copy")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="folder for the wheel (default: dist)")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "wheel-cache",
                        help="scratch cache for the generic compile (default: build/wheel-cache)")
    arguments = parser.parse_args()
    out = arguments.out.resolve()
    began = time.perf_counter()
    staged = ROOT / "build" / "wheel-stage"
    stage(staged)
    # kept between builds: its folder is named from the sources hash, so a rebuild of the same
    # sources loads what the last build compiled, and other sources compile afresh
    scratch = arguments.cache.resolve()
    report = compile_portable(staged, scratch)
    compiled = Path(report["folder"])  # scratch/engine-<sources hash>
    for other in scratch.glob("engine-*"):
        if other != compiled:
            shutil.rmtree(other, ignore_errors=True)
    shipped = staged / "uno_sim" / "_compiled" / compiled.name
    # the engine's own modules only (engine/cache.py files them under `engine`): a cache the tests
    # shared also holds their helpers' code, filed by numba's own locator beside it
    shutil.copytree(compiled / ENGINE_SUBFOLDER, shipped / ENGINE_SUBFOLDER, ignore=shutil.ignore_patterns("*.tmp.*"))
    (shipped / "shipped.json").write_text(json.dumps(report["manifest"], indent=1) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in shipped.rglob("*") if p.is_file())
    print(f"compiled engine: {compiled.name}, {size / 1e6:.1f} MB, in {time.perf_counter() - began:.0f} s",
          file=sys.stderr)

    out.mkdir(parents=True, exist_ok=True)
    python_tag = "cp%d%d" % sys.version_info[:2]
    platform_tag = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    for old in out.glob("uno_sim-*.whl"):
        old.unlink()
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(staged),
                            f"--config-settings=--build-option=--python-tag={python_tag}",
                            f"--config-settings=--build-option=--plat-name={platform_tag}"], cwd=staged)
    if built.returncode != 0:
        sys.exit(f"building the wheel failed (exit status {built.returncode})")
    wheel = next(out.glob("uno_sim-*.whl"))
    print(f"{wheel} ({wheel.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - began:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
