"""`njit` for the engine: numba's compiler with the engine's own cache folder.

Compiled code is cached on disk. numba checks only the timestamp of the file that holds a
function, not of the modules it calls, so a cache could outlive a change to a helper
module. The cache folder is therefore keyed by a hash of the engine's sources (and the
tables it reads: cards and knobs): any change to them starts a fresh cache, and a reinstall
of the same version reuses the old one. The base folder is $NUMBA_CACHE_DIR when set, else
the per-user cache folder.

Every engine module imports `njit` from here, so the folder is set before the first
function is compiled; importing the engine's plain tables (layout, state) compiles nothing
and does not import numba.
"""

import hashlib
import os
from importlib.metadata import version
from pathlib import Path

import numba
import platformdirs
from numba import njit  # noqa: F401  (re-exported: the engine modules import it from here)

ENGINE_DIR = Path(__file__).resolve().parent
TABLES = (ENGINE_DIR.parent / "cards.py", ENGINE_DIR.parent / "knobs.py")


def sources_hash() -> str:
    digest = hashlib.sha256(version("numba").encode())
    for path in sorted(ENGINE_DIR.glob("*.py")) + list(TABLES):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR") or platformdirs.user_cache_dir("uno-sim")
    return Path(base) / f"engine-{sources_hash()}"


numba.config.CACHE_DIR = str(cache_dir())
