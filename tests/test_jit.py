"""How the engine's functions with declared signatures (jit.njit_typed) are compiled: not at
import and not at a warm start, and, with a cold cache, once each with their signature before
anything that calls them."""

import json
import os
import subprocess
import sys
import textwrap

import pytest


def _python(code: str, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=os.environ | env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_warm_start_loads_none_of_the_declared_functions():
    from uno_sim.running.warmup import warm_up

    warm_up("games")  # the cache now holds the kernel
    seen = _python("""
        import json
        from uno_sim.running.warmup import warm_up
        from uno_sim.engine import jit
        warm_up("games")
        print(json.dumps({"declared": len(jit.DECLARED),
                          "loaded": sum(len(d.signatures) for d, _ in jit.DECLARED)}))
    """)
    assert seen["declared"] >= 30
    assert seen["loaded"] == 0


@pytest.mark.slow
def test_with_a_cold_cache_each_declared_function_compiles_once_with_its_signature(tmp_path):
    # A new function that passes constants to a declared one: numba compiling it compiles
    # every declared function first, so the constants use the int64 version.
    seen = _python("""
        import json
        from numba import njit
        from uno_sim.engine import batch, jit, sumsets

        @njit
        def caller():
            return sumsets.sums_mask(1, 2, 3)

        assert caller() == sumsets.sums_mask.py_func(1, 2, 3)
        print(json.dumps({
            "declared": len(jit.DECLARED),
            "other": [d.py_func.__qualname__ for d, sig in jit.DECLARED if d.signatures != [sig.args]],
            "sums_mask": [str(s) for s in sumsets.sums_mask.signatures],
        }))
    """, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    assert seen["declared"] >= 30
    assert seen["other"] == []
    assert seen["sums_mask"] == ["(int64, int64, int64)"]
