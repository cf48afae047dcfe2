"""Shared test set-up: numba's compile cache in a project-local folder (as `make test` sets)."""

import os
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))
