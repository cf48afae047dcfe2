"""The engine runs as plain Python under NUMBA_DISABLE_JIT=1 (to step through it with a
debugger or measure coverage), and plays exactly the games the compiled engine plays."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

UNO = [sys.executable, "-m", "uno_sim"]


def _env(jit: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    return env


def _uno(args: list[str], jit: bool) -> None:
    proc = subprocess.run([*UNO, *args], env=_env(jit), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


def test_engine_is_plain_python_without_jit():
    probe = ("from uno_sim.engine import batch, play; from uno_sim.engine.bots import dispatch; "
             "print(type(play.play_round).__name__, type(dispatch.choose_turn_card).__name__)")
    names = subprocess.run([sys.executable, "-c", probe], env=_env(False), capture_output=True, text=True,
                           timeout=600, check=True).stdout.split()
    assert names == ["function", "function"]


# search:rollouts=32: enough for search to play rounds of rollouts when a turn has up to four
# candidates (a budget below 8 per candidate plays pro's choice without searching)
RUNS = {
    "random bots": ["standard", "--games", "20", "--seed", "7"],
    "strategy and search bots": ["house", "--games", "3", "--seed", "7", "--bots",
                                 "search:rollouts=32,expert,greedy,bluffer"],
}


@pytest.mark.parametrize("args", RUNS.values(), ids=RUNS.keys())
def test_run_without_jit_matches_the_compiled_run(tmp_path: Path, args: list[str]):
    for jit in (True, False):
        _uno(["run", *args, "--out", str(tmp_path / f"jit-{jit}")], jit)
    for name in ("summary.csv", "distributions.csv"):
        compiled = (tmp_path / "jit-True" / name).read_text()
        assert compiled  # something was written
        assert (tmp_path / "jit-False" / name).read_text() == compiled, name


def test_trace_without_jit_matches_the_compiled_trace(tmp_path: Path):
    for jit in (True, False):
        _uno(["trace", "house", "--games", "3", "--seed", "7", "--bots", "greedy,expert,bluffer,random",
              "--out", str(tmp_path / f"jit-{jit}.jsonl")], jit)
    compiled = (tmp_path / "jit-True.jsonl").read_bytes()
    assert compiled.count(b"\n") > 3
    assert (tmp_path / "jit-False.jsonl").read_bytes() == compiled
