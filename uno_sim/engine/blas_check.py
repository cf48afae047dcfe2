"""numba's check for a BLAS, made when a compile first asks for it instead of at every start.

When numba sets up its CPU target (the first compile, or the first compiled function loaded
from the cache) it imports numba.np.arraymath, whose module body asks whether a BLAS is there
(`_HAVE_BLAS = _check_blas()`): it imports scipy.linalg.cython_blas, and with it scipy.linalg,
scipy's array API layer and numpy.f2py, about 0.2 s of a warm start. The answer is read in one
place only, when numba types `np.correlate` or `np.convolve` of floats (BLAS, or a plain loop
without one; `np.dot` and `@` ask numba.np.linalg for the BLAS themselves). The engine uses none
of them, so a warm start never needs it.

`install` makes numba's import of that module leave `_HAVE_BLAS` as an object that makes the
same check, with the same function, the first time its truth is asked: a compile that types
`np.dot` gets the answer numba would have given at import. It changes nothing unless numba's
module is as expected (its source assigns `_HAVE_BLAS = _check_blas()`, reads it only as
`if not _HAVE_BLAS:`, and takes `ensure_blas` from numba.np.linalg, already imported); otherwise,
or if the module is imported already, numba imports it as usual.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys

MODULE = "numba.np.arraymath"
LINALG = "numba.np.linalg"


class DeferredCheck:
    """`_HAVE_BLAS`: numba's `_check_blas()` made once, when its truth is first asked."""

    def __init__(self, check):
        self._check = check
        self._value: bool | None = None

    def __bool__(self) -> bool:
        if self._value is None:
            self._value = bool(self._check())
        return self._value

    def __repr__(self) -> str:
        return f"DeferredCheck({'not made yet' if self._value is None else self._value})"


def _as_expected(source: str | None) -> bool:
    """Does numba's module use `_HAVE_BLAS` exactly as this module expects?"""
    return (source is not None
            and "from numba.np.linalg import ensure_blas\n" in source
            and "\n_HAVE_BLAS = _check_blas()\n" in source
            and source.count("_HAVE_BLAS") == 2
            and "if not _HAVE_BLAS:" in source)


def _no_check() -> None:
    """numba.np.linalg.ensure_blas while numba's module body runs: nothing imported."""


class _Finder(importlib.abc.MetaPathFinder):
    """Finds numba.np.arraymath (once) and has its body run with the check deferred."""

    def find_spec(self, name, path=None, target=None):
        if name != MODULE:
            return None
        remove()
        linalg = sys.modules.get(LINALG)
        if linalg is None or not callable(getattr(linalg, "ensure_blas", None)):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module") or not hasattr(loader, "get_source"):
            return None
        try:
            if not _as_expected(loader.get_source(name)):
                return None
        except (ImportError, OSError):
            return None
        original = loader.exec_module

        def exec_module(module):
            real = linalg.ensure_blas
            linalg.ensure_blas = _no_check
            try:
                original(module)
            finally:
                linalg.ensure_blas = real
            if getattr(module, "ensure_blas", None) is _no_check:
                module.ensure_blas = real
            module._HAVE_BLAS = DeferredCheck(module._check_blas)

        loader.exec_module = exec_module
        return spec


_finder = _Finder()


def install() -> bool:
    """Defer the check in numba's next import of numba.np.arraymath; False if it is imported
    already (the check was made)."""
    if MODULE in sys.modules:
        return False
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    return True


def remove() -> None:
    try:
        sys.meta_path.remove(_finder)
    except ValueError:
        pass
