"""Safe output: writable-location checks, folders removed again on failure, atomic writes."""

from __future__ import annotations

import os
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator


class OutputError(ValueError):
    """The output location cannot be written; the message names it."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def nearest_existing(path: Path) -> Path:
    """The path itself or its closest ancestor that exists."""
    probe = path
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    return probe


def probe_writable(folder: Path, what: str) -> None:
    """Raise OutputError unless a file can be created (and removed) in the existing folder."""
    if not folder.is_dir():
        raise OutputError(f"{what}: {folder} is not a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".uno-sim-probe-", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise OutputError(f"{what}: cannot write in {folder} ({exc.strerror or exc})") from None


def check_out_dir(path: Path, option: str = "--out") -> None:
    """The folder must exist and be writable, or be creatable."""
    what = f"{option} {str(path)!r}"
    if path.exists() and not path.is_dir():
        raise OutputError(f"{what} exists and is not a folder")
    probe_writable(nearest_existing(path), what)


def check_out_file(path: Path, option: str = "--out") -> None:
    """The file must be creatable (its folder existing and writable, or creatable)."""
    what = f"{option} {str(path)!r}"
    if path.is_dir():
        raise OutputError(f"{what} is a folder, expected a file name")
    probe_writable(nearest_existing(path.parent), what)


@contextmanager
def made_dirs(path: Path) -> Iterator[None]:
    """Create the folder (and parents); on failure remove again those created here, if empty."""
    created: list[Path] = []
    probe = path
    while not probe.exists() and probe.parent != probe:
        created.append(probe)
        probe = probe.parent
    path.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        for folder in created:  # deepest first
            try:
                folder.rmdir()
            except OSError:
                break
        raise


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path next to `path`; renamed onto `path` on success, removed on failure."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class OutputFolder(ExitStack):
    """Files written all-or-nothing into one folder: `path_for(final)` gives a temporary path
    beside `final`. Leaving the with-block without an error renames every one onto its final
    name; an error removes them all, and the folders created for them."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def __enter__(self) -> "OutputFolder":
        super().__enter__()
        self.enter_context(made_dirs(self.folder))
        return self

    def path_for(self, final: Path) -> Path:
        return self.enter_context(atomic_path(final))
