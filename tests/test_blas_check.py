"""numba's check for a BLAS is made only when a compile asks for it (engine/blas_check.py):
a warm start never imports scipy.linalg, a compile that needs the answer gets numba's own,
and a numba whose module differs is left as it is."""

import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from uno_sim.engine import blas_check


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")})


def test_numbas_module_is_as_expected_and_a_changed_one_is_left_alone():
    source = Path(find_spec(blas_check.MODULE).origin).read_text(encoding="utf-8")
    assert blas_check._as_expected(source)  # else the check is made at import, as numba does
    assert not blas_check._as_expected(source.replace("_HAVE_BLAS = _check_blas()", "_HAVE_BLAS = True"))
    assert not blas_check._as_expected(source.replace("if not _HAVE_BLAS:", "if _HAVE_BLAS is False:"))
    assert not blas_check._as_expected(source + "\nprint(_HAVE_BLAS)\n")
    assert not blas_check._as_expected(None)


def test_a_deferred_check_is_made_once_when_asked():
    calls = []
    check = blas_check.DeferredCheck(lambda: calls.append(1) or True)
    assert calls == []
    assert check and check and not calls[1:]
    assert calls == [1]
    assert not blas_check.DeferredCheck(lambda: False)


def test_loading_numbas_target_imports_no_scipy_linalg_until_a_compile_asks(tmp_path):
    """Setting up numba's CPU target (what loading a cached kernel does) leaves the check
    undone; np.convolve of floats, which reads it, gets numba's answer (a BLAS is there) and
    numpy's numbers."""
    code = ("import sys\n"
            "import numpy as np\n"
            "import uno_sim.engine.jit\n"
            "from numba.core.registry import cpu_target\n"
            "cpu_target.target_context.refresh()\n"
            "from numba.np import arraymath\n"
            "print('before', type(arraymath._HAVE_BLAS).__name__, 'scipy.linalg' in sys.modules,"
            " 'numpy.f2py' in sys.modules)\n"
            "import numba\n"
            "f = numba.njit(lambda a, b: np.convolve(a, b))\n"
            "a, b = np.arange(6.0) / 7, np.array([0.5, 0.25, 3.0])\n"
            "print('after', bool(arraymath._HAVE_BLAS), 'scipy.linalg' in sys.modules,"
            " np.array_equal(f(a, b), np.convolve(a, b)))\n")
    done = _python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["before DeferredCheck False False", "after True True True"]


def test_without_the_engine_numba_checks_at_import_as_usual(tmp_path):
    done = _python("import sys\nfrom numba.core.registry import cpu_target\ncpu_target.target_context.refresh()\n"
                   "from numba.np import arraymath\nprint(arraymath._HAVE_BLAS, 'scipy.linalg' in sys.modules)\n",
                   tmp_path)
    assert done.stdout.split() == ["True", "True"], done.stderr
