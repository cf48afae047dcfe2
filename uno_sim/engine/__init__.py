"""The compiled engine: everything numba compiles lives in this package, and does no I/O.

Importing the package, or its plain tables (layout.py, state.py), compiles nothing and does
not import numba; the kernel modules take `njit` from jit.py, which sets the cache folder.
"""
