"""The numba engine: everything compiled lives here and does no I/O.

Compiled code is cached on disk. numba checks only the timestamp of the file that holds a
function, not of the modules it calls, so a cache could outlive a change to a helper
module. The cache folder is therefore keyed by a hash of the engine's sources: any change
to them starts a fresh cache, and a reinstall of the same version reuses the old one.
The base folder is $NUMBA_CACHE_DIR when set, else the per-user cache folder.
"""

import hashlib
import os
from pathlib import Path

import numba
import platformdirs


def _sources_hash() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(here.glob("*.py")) + [here.parent / "cards.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR") or platformdirs.user_cache_dir("uno-sim")
    return Path(base) / f"engine-{_sources_hash()}"


# must happen before any @njit(cache=True) below is decorated
numba.config.CACHE_DIR = str(cache_dir())
