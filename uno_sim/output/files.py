"""Safe output: writable-location checks, folders removed again on failure, atomic writes.

- A file is written to a temporary name in the same folder (`.NAME.XXXXXXXX.tmp`) and renamed
  onto its final name only when complete, and only onto a regular file or a new path. A
  device, FIFO or other special file is written directly (renaming would replace it); a
  symbolic link is followed to its target. A path that names an open file descriptor
  (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) is written through that
  descriptor: at its current position, appending when it was opened for appending (`>>`),
  never truncated or replaced.
- An output folder is used for one run at a time: a folder that already holds files is
  refused unless `force`, which first removes the files uno-sim wrote there before (listed
  in its `.uno-sim-files` manifest) and nothing else. While a run writes into it, it holds
  an exclusive lock on the folder's `.uno-sim-lock` (removed when it is done): a second run
  into the same folder at the same time is refused (before it plays, or at the latest when
  it would begin writing), and the folder is checked again under the lock, so two runs
  never both write there and leave a mix.
- A single output file (`trace --out`) that exists already is replaced only when asked
  (`force`), as a non-empty folder is.
- A writer holds an exclusive lock (flock) on its temporary file for as long as it writes;
  the kernel drops it when the process ends, however it ends (SIGKILL too). A temporary file
  of uno-sim's pattern that nobody holds is a killed writer's leftover: the next run into
  that folder removes all of them, and the next write of a single file (`trace --out`, a
  chart, a report) removes those of that file's name (`.NAME.XXXXXXXX.tmp`). A file whose
  writer is still running is never touched.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import stat
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Iterator

from ..game.errors import BadInput

MANIFEST = ".uno-sim-files"
LOCK = ".uno-sim-lock"  # held (flock) by the run writing into the folder
# mkstemp names: prefix `.NAME.`, 8 random characters, suffix `.tmp`
TEMP_PATTERN = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")
PROBE_PREFIX = ".uno-sim-probe-"
# the folder of a process's open file descriptors, after following links (/proc/self/fd,
# /dev/fd and /proc/thread-self/fd all end here)
_FD_FOLDER = re.compile(r"/proc/(\d+)(?:/task/\d+)?/fd")


class OutputError(BadInput):
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
        fd, tmp = tempfile.mkstemp(prefix=PROBE_PREFIX, dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise OutputError(f"{what}: cannot write in {folder} ({exc.strerror or exc})") from None


def _temp_pattern(name: str | None) -> re.Pattern:
    if name is None:
        return TEMP_PATTERN
    return re.compile(rf"^\.{re.escape(name)}\.[A-Za-z0-9_]{{8}}\.tmp$")


def _abandoned(path: Path) -> int | None:
    """A descriptor holding the lock of a temporary file nobody writes any more (the caller
    closes it), or None when its writer still holds the lock (or it is gone)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # a writer holds it
        os.close(fd)
        return None
    return fd


def stale_temp_files(folder: Path, name: str | None = None) -> list[Path]:
    """Temporary files a killed uno-sim writer left in the folder: uno-sim's pattern (of the
    file `name` only, when given), regular files, and not locked by a running writer."""
    if not folder.is_dir():
        return []
    pattern = _temp_pattern(name)
    found = []
    for p in folder.iterdir():
        if pattern.match(p.name) and p.is_file() and not p.is_symlink():
            fd = _abandoned(p)
            if fd is not None:
                os.close(fd)
                found.append(p)
    return found


def remove_stale_temp_files(folder: Path, name: str | None = None) -> list[Path]:
    """Remove the files `stale_temp_files` lists, each while holding its lock (so a writer
    starting at that moment notices and makes a new one); the paths removed."""
    removed = []
    for p in stale_temp_files(folder, name):
        fd = _abandoned(p)
        if fd is None:
            continue
        try:
            p.unlink(missing_ok=True)
            removed.append(p)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def locked_temp_file(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path` (`.NAME.XXXXXXXX.tmp`), open and locked for as long
    as the descriptor returned stays open: (descriptor, its path)."""
    while True:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_nlink > 0:
            return fd, tmp
        os.close(fd)  # a cleaner took it for a leftover between mkstemp and the lock: again


def previous_outputs(folder: Path) -> list[Path]:
    """The files an earlier uno-sim run listed in the folder's manifest (those still there)."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return []
    names = manifest.read_text(encoding="utf-8", errors="replace").splitlines()
    return [folder / n for n in names if n and "/" not in n and n not in (".", "..") and (folder / n).is_file()]


def _in_use(folder: Path, what: str) -> OutputError:
    try:
        pid = (folder / LOCK).read_text(encoding="utf-8").strip()
    except OSError:
        pid = ""
    by = f" (process {pid})" if pid.isdigit() else ""
    return OutputError(f"{what} is in use by another uno-sim run{by}; wait until it is done, or choose another "
                       "folder")


def lock_folder(folder: Path, what: str) -> int:
    """Take the folder's lock (LOCK) for one run: the descriptor holding it (closing it lets go);
    OutputError when another run holds it."""
    path = folder / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666 & ~_umask())
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise _in_use(folder, what) from None
        try:  # the file locked must still be the one at the path (a finishing run removes it)
            same = os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False))
        except OSError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        os.close(fd)


def unlock_folder(folder: Path, fd: int) -> None:
    """Remove the lock file while still holding it, then let go."""
    try:
        (folder / LOCK).unlink(missing_ok=True)
    finally:
        os.close(fd)


def folder_in_use(folder: Path) -> bool:
    """Does a running uno-sim run hold the folder's lock?"""
    try:
        fd = os.open(folder / LOCK, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def check_out_dir(path: Path, option: str = "--out", force: bool = False) -> None:
    """The folder must be creatable, or exist, be writable, not be written by another run
    at the moment and hold nothing but uno-sim's leftovers (unless `force`)."""
    what = f"{option} {str(path)!r}"
    if path.exists() and not path.is_dir():
        raise OutputError(f"{what} exists and is not a folder")
    probe_writable(nearest_existing(path), what)
    if path.is_dir() and folder_in_use(path):
        raise _in_use(path, what)
    if path.is_dir() and not force:
        _check_empty(path, what)


def _check_empty(path: Path, what: str) -> None:
    """The folder holds nothing but uno-sim's leftovers and lock."""
    ignored = {p.name for p in stale_temp_files(path)} | {LOCK}
    held = sorted(p.name for p in path.iterdir() if p.name not in ignored)
    if held:
        listed = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
        raise OutputError(
            f"{what} is not empty (holds {listed}); choose a new folder, or add --force to replace "
            "uno-sim's files there"
        )


def descriptor_of(path: str | os.PathLike) -> tuple[int, int] | None:
    """(process id, descriptor) when the path names an open file descriptor, following
    links: `/dev/stdout` -> `/proc/self/fd/1`, `/dev/fd/N`, `/proc/PID/fd/N`; else None."""
    probe = Path(os.path.abspath(path))
    for _ in range(40):  # the kernel's own limit on nested links
        try:
            parent = os.path.realpath(probe.parent)
        except OSError:
            return None
        found = _FD_FOLDER.fullmatch(parent)
        if found and probe.name.isdigit():
            return int(found.group(1)), int(probe.name)
        if not probe.is_symlink():
            return None
        try:
            target = os.readlink(probe)
        except OSError:
            return None
        probe = Path(os.path.abspath(os.path.join(parent, target)))
    return None


def _writable_descriptor(path: Path) -> int:
    """A new descriptor writing to the open file `path` names (see `descriptor_of`), without
    truncating it: our own descriptors are duplicated (sharing position and append mode);
    another process's are opened for appending."""
    pid, fd = descriptor_of(path)
    if pid != os.getpid():
        return os.open(path, os.O_WRONLY | os.O_APPEND)
    if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE not in (os.O_WRONLY, os.O_RDWR):
        raise OSError(9, "not open for writing", str(path))
    for stream in (sys.stdout, sys.stderr):  # what was printed before comes first
        if stream is not None:
            stream.flush()
    return os.dup(fd)


def check_out_file(path: Path, option: str = "--out", replace: bool = True, make_folder: bool = True) -> None:
    """The file must be creatable (its folder existing and writable, or creatable unless
    `make_folder` is false); an existing regular file (or a link to one) only with `replace`."""
    what = f"{option} {str(path)!r}"
    if descriptor_of(path) is not None:
        try:
            os.close(_writable_descriptor(path))
        except OSError as exc:
            raise OutputError(f"{what}: cannot write to it ({exc.strerror or exc})") from None
        return
    if path.is_dir():
        raise OutputError(f"{what} is a folder, expected a file name")
    if is_special(path):
        if not os.access(path, os.W_OK):
            raise OutputError(f"{what}: cannot write to it")
        return
    if not replace and path.exists():
        raise OutputError(f"{what} exists; choose a new file name, or add --force to replace it")
    folder = path.resolve().parent
    if not make_folder and not folder.is_dir():
        raise OutputError(f"{what}: the folder {str(folder)!r} does not exist")
    probe_writable(nearest_existing(folder), what)


def is_special(path: Path) -> bool:
    """An existing file that is not a regular file (after following links): a device, FIFO, ..."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


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
    """A path to write `path` through: a temporary file beside it, renamed onto it on success
    and removed on failure; a symbolic link is followed (its target is replaced); a special
    file (device, FIFO) is written directly; an open file descriptor (`/dev/stdout`) gets the
    whole file on success, written through it (see `descriptor_of`)."""
    path = Path(path)
    if descriptor_of(path) is not None:
        with tempfile.TemporaryDirectory(prefix="uno-sim-") as folder:
            tmp = Path(folder) / "output"
            yield tmp
            with open(tmp, "rb") as source, os.fdopen(_writable_descriptor(path), "wb") as sink:
                shutil.copyfileobj(source, sink)
        return
    if path.is_symlink():
        path = path.resolve()
    if is_special(path):
        yield path
        return
    remove_stale_temp_files(path.parent, path.name)  # a killed earlier write of this file
    fd, tmp = locked_temp_file(path)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
        os.close(fd)  # the lock goes last, after the rename (or the removal)


@contextmanager
def output_stream(path: str | os.PathLike, mode: str = "w", **open_args) -> Iterator[IO]:
    """An open file to write `path` through, streamed: an open file descriptor (`/dev/stdout`)
    or a special file directly, anything else through `atomic_path` (renamed into place on
    success)."""
    path = Path(path)
    if descriptor_of(path) is not None:
        with os.fdopen(_writable_descriptor(path), mode, **open_args) as fh:
            yield fh
        return
    with atomic_path(path) as tmp, open(tmp, mode, **open_args) as fh:
        yield fh


def durable_write(path: str | os.PathLike, data: bytes) -> None:
    """Write a file so that it survives a crash whole or not at all: a temporary file beside
    it, flushed to disk (fsync), renamed onto the final name, and the folder synced."""
    path = Path(path)
    try:
        fd, tmp = locked_temp_file(path)
        try:
            with os.fdopen(os.dup(fd), "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
            os.close(fd)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as exc:  # a full disk says only "[Errno 28]": name the file it was writing
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc


class OutputFolder(ExitStack):
    """Files written all-or-nothing into one folder: `path_for(final)` gives a temporary path
    beside `final`. Leaving the with-block without an error renames every one onto its final
    name and records them in the folder's manifest (`written` lists them); an error removes
    them all, and the folders created for them. On entry, stale temporary files are removed,
    and with `force` the files of the run written there before."""

    def __init__(self, folder: Path, force: bool = False, option: str = "--out") -> None:
        super().__init__()
        self.folder = folder
        self.force = force
        self.option = option
        self.written: list[Path] = []

    def __enter__(self) -> "OutputFolder":
        super().__enter__()
        try:
            self.enter_context(made_dirs(self.folder))
            lock = lock_folder(self.folder, f"{self.option} {str(self.folder)!r}")
            self.callback(unlock_folder, self.folder, lock)
            if not self.force:  # again, now that no other run can write here
                _check_empty(self.folder, f"{self.option} {str(self.folder)!r}")
        except BaseException:
            if not self.__exit__(*sys.exc_info()):
                raise
        remove_stale_temp_files(self.folder)
        if self.force:
            for old in previous_outputs(self.folder):
                old.unlink(missing_ok=True)
        self.push(self._record)
        return self

    def path_for(self, final: Path) -> Path:
        self.written.append(final)
        return self.enter_context(atomic_path(final))

    def _record(self, exc_type, exc, tb) -> bool:
        """After the renames (exit callbacks unwind last-in first-out), on success only."""
        if exc_type is not None:
            return False
        with atomic_path(self.folder / MANIFEST) as tmp:
            tmp.write_text("".join(f"{p.name}\n" for p in self.written), encoding="utf-8")
        return False
