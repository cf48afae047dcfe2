"""Machine code only for the outermost function (engine/kernel_code.py): a function compiled
inside another keeps its LLVM IR, the caller links it and makes the code of the whole once; the
inner function still works when Python calls it, also from a cache written by another process."""

import json
import os
import subprocess
import sys
import textwrap

from uno_sim.engine import kernel_code

MODULE = '''
from uno_sim.engine.jit import njit


@njit(cache=True)
def inner(x):
    if x < 0:
        raise ValueError("negative")
    return x + 1


@njit(cache=True)
def outer(x):
    return inner(x) * 2
'''


def _python(code: str, folder, cache) -> dict:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=folder,
                          env=os.environ | {"NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(folder)}, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_numba_is_the_version_the_lazy_code_was_written_for():
    # install() leaves numba alone when its internals are not what it patches: the engine then
    # compiles the slow way, which this test makes visible instead of silent.
    import uno_sim.engine.jit  # noqa: F401  (installs it)

    assert kernel_code.INSTALLED


def test_an_inner_function_has_no_machine_code_until_python_calls_it(tmp_path):
    (tmp_path / "lazy_demo.py").write_text(MODULE)
    seen = _python("""
        import json
        from uno_sim.engine import kernel_code
        import lazy_demo
        result = lazy_demo.outer(20)
        entry = next(iter(lazy_demo.inner.overloads.values())).entry_point
        lazy_before = isinstance(entry, kernel_code.LazyEntry) and entry._cfunc is None
        direct = lazy_demo.inner(41)
        try:
            lazy_demo.outer(-1)
            raised = ""
        except ValueError as error:
            raised = str(error)
        print(json.dumps({"outer": result, "lazy": lazy_before, "inner": direct, "again": lazy_demo.inner(1),
                          "raised": raised}))
    """, tmp_path, tmp_path / "cache")
    assert seen == {"outer": 42, "lazy": True, "inner": 42, "again": 2, "raised": "negative"}


def test_a_cached_inner_function_loads_as_ir_and_links_into_a_new_caller(tmp_path):
    (tmp_path / "lazy_demo.py").write_text(MODULE)
    first = _python("""
        import json, lazy_demo
        print(json.dumps({"outer": lazy_demo.outer(1)}))
    """, tmp_path, tmp_path / "cache")
    # a later process: the inner function comes from the cache as IR, a new caller links it,
    # and Python calls it directly too
    later = _python("""
        import json
        from numba import njit
        import lazy_demo

        @njit
        def other(x):
            return lazy_demo.inner(x) + 100

        print(json.dumps({"outer": lazy_demo.outer(1), "other": other(1), "inner": lazy_demo.inner(5)}))
    """, tmp_path, tmp_path / "cache")
    assert first == {"outer": 4}
    assert later == {"outer": 4, "other": 102, "inner": 6}
