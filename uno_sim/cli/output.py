"""The one output path of the commands that write a folder: check it before anything runs,
write every file all-or-nothing, list what was written."""

from __future__ import annotations

import errno
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Callable

from ..output import writing_process
from ..output.files import OutputError, OutputFolder, check_out_dir
from .render import stdout

REPORTS_DIR = Path("reports")
# what the file system can refuse while the files are written (a full disk, a quota, ...)
STORAGE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO, errno.EACCES, errno.EPERM,
                  errno.ENAMETOOLONG, errno.ENOTDIR, errno.EISDIR, errno.ENOENT, errno.EBADF}


def default_out_dir(name: str, command: str) -> Path:
    """reports/COMMAND-NAME-YYYYmmdd-HHMMSS/ (NAME e.g. the preset, or `v1-v2` for compare);
    a -2, -3, ... suffix when that folder exists already."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]
    base = REPORTS_DIR / f"{command}-{safe}-{stamp}"
    candidate, k = base, 2
    while candidate.exists():
        candidate = base.with_name(f"{base.name}-{k}")
        k += 1
    return candidate


def out_folder(out: Path | None, name: str, command: str, force: bool) -> Path:
    """The output folder to use, checked (writable; empty unless --force)."""
    folder = out if out is not None else default_out_dir(name, command)
    check_out_dir(folder, force=force)
    return folder


def write_result(folder: Path, force: bool, play: Callable[[OutputFolder], object]) -> list[Path]:
    """Open the folder, `play(files)` (which may stream per-game files through
    `files.path_for`) returning a result with `files()`, write those files, and rename
    everything into place together; on any failure nothing is left behind (and a failure of
    the file system is one line naming the folder)."""
    try:
        with OutputFolder(folder, force=force) as files:
            result = play(files)
            writers = result.files()
            paths = {name: files.path_for(folder / name) for name in writers}
            if not writing_process.write_files(result, paths):  # the command's own writing process, if it started one
                for name, write in writers.items():
                    write(paths[name])
    except OSError as exc:
        if exc.errno not in STORAGE_ERRORS or _elsewhere(exc.filename, folder):
            raise  # not the folder's (a checkpoint's file, say): the app names that file
        raise OutputError(f"--out {str(folder)!r}: cannot write ({exc.strerror or exc}); nothing was written") from None
    return result, files.written


def _elsewhere(filename, folder: Path) -> bool:
    """Is the file that failed outside the output folder?"""
    if filename is None:
        return False
    try:
        return not Path(filename).resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def print_written(paths: list[Path], to_stderr: bool = False) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=True, highlight=False) if to_stderr else stdout()
    for path in paths:
        console.print(Text(f"wrote {path}"), soft_wrap=True)


def finish(result, written: list[Path], as_json: bool, show: Callable[[object], None]) -> None:
    """The end of a command that wrote a folder: its tables (`show(result)`) and the files
    written on standard output; with --json only the result's JSON there, the files on stderr."""
    if sys.stdout is None:  # started with standard output closed (`>&-`): the files are the result
        from rich.console import Console

        Console(stderr=True, highlight=False).print("note: standard output is closed: the tables were not shown")
        print_written(written, to_stderr=True)
        return
    if as_json:
        data = result.to_dict() | {"files": [str(p) for p in written]}
        sys.stdout.write(json.dumps(data, indent=2, allow_nan=False) + "\n")
        sys.stdout.flush()
        print_written(written, to_stderr=True)
        return
    show(result)
    print_written(written)
