"""The numba engine: everything compiled lives here and does no I/O."""
