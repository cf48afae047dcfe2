"""Where numba files the engine's compiled code: found by content, wherever uno_sim lives.

numba's own locator files a module's compiled code under a subfolder named from a hash of the
module's absolute folder (and older numba versions stamp each index with the source file's
modification time), so a cache built in one place is not found from another: another checkout,
or the site-packages of a wheel that ships the compiled engine. The engine's cache folder
(engine/jit.py) is already named from a hash of every engine source, the game tables and the
numba version, so inside it `EngineLocator` files each engine module under its folder relative
to the package (`engine`, `engine/bots`) and stamps the index with that hash: the same sources
find the same compiled code wherever they are installed.

Also the compiled engine a wheel ships (`uno_sim/_compiled/engine-<hash>`, built by
tools/build_wheel.py) and its manifest: what it was compiled for, so that a start on another
CPU architecture, Python or numba compiles as usual instead of loading it.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys
from pathlib import Path

from numba.core import caching, config

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # uno_sim
ENGINE_DIR = PACKAGE_DIR / "engine"
SHIPPED_DIR = PACKAGE_DIR / "_compiled"
MANIFEST = "shipped.json"
COPIED = ".copied-from-wheel"  # in the user's cache folder, once every shipped file is there

# The CPU the shipped code is compiled for: LLVM's generic model of the architecture (on x86-64
# the baseline every x86-64 CPU has), with no extra features, so it runs on any CPU of it.
PORTABLE_CPU = "generic"

# Newer numba versions name these classes without the leading underscore.
_UserProvided = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
_Impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


@functools.lru_cache(maxsize=None)
def engine_subfolder(py_file: str | os.PathLike) -> str | None:
    """The cache subfolder of an engine module: its folder inside the package (`engine`,
    `engine/bots`); None for a file outside uno_sim/engine. (Asked for every function numba
    wraps, about 350 at import: each file's answer is kept.)"""
    folder = Path(py_file).resolve().parent
    if folder != ENGINE_DIR and ENGINE_DIR not in folder.parents:
        return None
    return folder.relative_to(PACKAGE_DIR).as_posix()


class EngineLocator(_UserProvided):
    """numba's locator for uno_sim's engine modules: the subfolder from the module's place in
    the package, the stamp from the sources hash (`register`); any other file is left to
    numba's own locators."""

    stamp: str | None = None
    _ensured: set[str] = set()  # the folders found writable in this process

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(config.CACHE_DIR, engine_subfolder(py_file))

    def get_source_stamp(self):
        return self.stamp

    def ensure_cache_path(self):
        """numba's check that the folder exists and is writable (it creates and removes a file
        there), made once per folder in a process rather than for each of the ~350 functions
        wrapped at import, ~50 ms of a warm start. A folder that is not writable is asked again
        (numba then tries its other locators, as before)."""
        if self._cache_path not in self._ensured:
            super().ensure_cache_path()
            self._ensured.add(self._cache_path)

    @classmethod
    def from_function(cls, py_func, py_file):
        if cls.stamp is None or engine_subfolder(py_file) is None:
            return None
        return super().from_function(py_func, py_file)


def register(stamp: str) -> None:
    """Make numba file the engine's modules with `EngineLocator`, stamped `stamp`."""
    EngineLocator.stamp = stamp
    if EngineLocator not in _Impl._locator_classes:
        _Impl._locator_classes.insert(0, EngineLocator)


def shipped(tag: str, triple: str) -> dict | None:
    """The manifest of the compiled engine shipped for `tag` (engine-<sources hash>, which
    covers the numba version), when it fits this process: the same Python and target triple.
    None when there is none or it does not fit."""
    try:
        manifest = json.loads((SHIPPED_DIR / tag / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("python") != "%d.%d" % sys.version_info[:2] or manifest.get("triple") != triple:
        return None
    return manifest


def manifest_for(triple: str) -> dict:
    """What tools/build_wheel.py records beside the code it compiled."""
    return {"python": "%d.%d" % sys.version_info[:2], "triple": triple, "cpu": PORTABLE_CPU, "features": ""}


def copy_shipped(tag: str, folder: Path) -> None:
    """Copy the shipped compiled code of `tag` into the writable cache `folder` (once: numba
    writes to its index files when it compiles something new). A file already there is kept;
    each copy is written under a temporary name and renamed, so that two processes starting
    at once, or one interrupted, leave whole files only."""
    if (folder / COPIED).exists():
        return
    source = SHIPPED_DIR / tag
    try:
        for path in source.rglob("*"):
            if not path.is_file() or path.name == MANIFEST:
                continue
            target = folder / path.relative_to(source)
            if target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f"{target.name}.part-{os.getpid()}")
            shutil.copyfile(path, partial)
            os.replace(partial, target)
        (folder / COPIED).write_bytes(b"")
    except OSError as error:  # compiles as usual instead
        sys.stderr.write(f"note: could not copy the shipped compiled engine into {folder}: {error}\n")
