"""A command's output written by a process of its own, so that both cores work at once.

A warm `uno-sim run` spends most of its time importing: the engine (numba, then the cached
kernel) on one side, and for its files pandas, scipy, matplotlib and Jinja2 on the other, then
drawing the charts. `start` makes a copy of the command (os.fork) once its options are parsed,
before its plan is prepared and the engine loads; the copy imports what the files need while
the command loads the engine and plays (bad input found meanwhile ends the copy with the command). `write_files` then sends it the result and the temporary paths of the
output folder (files.OutputFolder): it writes every file there with the same code as the
command's own process would (`result.files()`), its charts drawn by two processes at once,
and sends back what the command prints (`result.printed()`), so that the command itself never
imports pandas or matplotlib. The command waits for it; a failure there is an OutputError (one
line, exit status 2), and the folder is left as it was (the temporary files are removed).

Only on Linux (on macOS a fork without exec may crash in the system's libraries; Windows has
no fork), only when a core is idle (`cores_taken`), and not with threads already running
(forking then is unsafe); for a result that
cannot be sent or loaded there (a Python bot's callable or module), the command writes its
files itself, as before. The API never starts the process: a notebook writes its own files.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import pickle
import signal
import struct
import sys
import threading
import time
from pathlib import Path

from .files import OutputError, remove_stale_temp_files

_HEADER = struct.Struct("<Q")  # the length of each message (a pickle) before it


class _Failed(Exception):
    """A failure in the writing process, its text as it will be reported."""


class _Process:
    """The writing process: its pid and the ends of the pipes to and from it."""

    def __init__(self, pid: int, to_child: int, from_child: int) -> None:
        self.pid, self.to_child, self.from_child = pid, to_child, from_child

    def end(self) -> None:
        """End the process (it has sent all it will, or its work is no longer wanted) and reap it."""
        for fd in (self.to_child, self.from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except OSError:
            pass


_process: _Process | None = None
# when the writing process of the last write_files had imported what it needs, received the
# result and written the files: (wall clock time.time(), its CPU seconds), for
# tools/startup_phases.py
marks: dict[str, tuple[float, float]] = {}
_marks: dict[str, tuple[float, float]] = {}  # the writing process's own, sent with its reply


def _mark(name: str) -> None:
    _marks[name] = (time.time(), time.process_time())


def start() -> None:
    """Start this command's writing process, unless it runs already or cannot be forked safely."""
    global _process
    if _process is not None or not sys.platform.startswith("linux") or threading.active_count() > 1:
        return  # (macOS: a fork without exec may crash in its system libraries; Windows has none)
    if cores_taken():
        return
    import numpy  # noqa: F401  (what both processes import, imported once, before the copy)

    from .. import stats  # noqa: F401

    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    down_r, down_w, up_r, up_w = (_above_stdio(fd) for fd in (*os.pipe(), *os.pipe()))
    pid = os.fork()
    if pid == 0:
        try:
            os.close(down_w)
            os.close(up_r)
            _serve(down_r, up_w)
        finally:
            os._exit(0)
    os.close(down_r)
    os.close(up_w)
    _process = _Process(pid, down_w, up_r)
    atexit.register(stop)


def cores_taken() -> bool:
    """Is every core this process may use busy already (the load average of the last minute at
    least their number)? Then a second process finds no idle core to work on, and only adds
    its own costs (the fork, the fonts loaded twice: about 0.3 s of CPU): measured on 2 cores
    at load 4-8, the command took 10-17% longer with it than without."""
    try:
        return os.getloadavg()[0] >= len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every system
        return False


def _above_stdio(fd: int) -> int:
    """The descriptor moved above 0-2 (with standard output closed, `>&-`, a pipe gets 1, which
    the writing process points at /dev/null)."""
    if fd > 2:
        return fd
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.close(fd)
    return moved


def stop() -> None:
    """End the writing process, if any, and reap it."""
    global _process
    process, _process = _process, None
    if process is not None:
        process.end()


def write_files(result, paths: dict[str, Path]) -> bool:
    """Have the writing process write the files of `result.files()` named in `paths` to
    those paths, and give `result` what the command prints (`result.take_printed`). False,
    with nothing done, without the process or for a result that cannot be sent."""
    process = _process
    if process is None or not hasattr(result, "take_printed") or _keeps_rows(result):
        return False
    try:
        payload = pickle.dumps((result, {name: str(path) for name, path in paths.items()}),
                               protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001  (a Python bot's callable, say: written here instead)
        return False
    try:
        try:
            _write_message(process.to_child, payload)
            reply = _read_message(process.from_child)
        except OSError:
            reply = None
        if reply is None:
            raise OutputError("the files could not be written: the process writing them ended unexpectedly; "
                              "nothing was written")
        status, value = pickle.loads(reply)
        if status == "unsent":  # it could not load the result (a Python bot's module, say)
            return False
        if status == "refused":  # the system's refusal (a full disk, ...): reported as the command's own
            raise OSError(*value)
        if status != "ok":
            raise OutputError(f"the files could not be written: {value}; nothing was written")
    except BaseException:
        stop()  # before the folder's temporary files go: nothing writes there any more
        for folder in {Path(p).parent for p in paths.values()}:
            remove_stale_temp_files(folder)
        raise
    stop()  # one command, one use: a later command in this process (the tests, a notebook's
    # run_cli) starts its own copy, of the process as it is then
    printed, written = value
    marks.clear()
    marks.update(written)
    result.take_printed(printed)
    return True


def _keeps_rows(result) -> bool:
    """Does the result hold per-game rows (large, and not needed for its files)?"""
    return any(getattr(getattr(run, "result", None), "games_frame", None) is not None
               for run in getattr(result, "runs", [result]))


def _serve(down: int, up: int) -> None:
    """The writing process: import what the files need, then write the files of each result
    sent, until the command closes its end."""
    global _process
    _process = None  # the command's handle, copied by the fork: not this process's
    atexit.unregister(stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the command's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's handler, copied
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # it prints nothing, and holds no pipe of the command's reader open
        os.dup2(null, fd)
    _mark("started")
    try:
        _preload()
    except Exception:  # noqa: BLE001  (the job's own attempt names the failure)
        pass
    _mark("preloaded")
    while True:
        message = _read_message(down)
        if message is None:
            return
        _mark("received")
        try:
            result, paths = pickle.loads(message)
        except Exception as exc:  # noqa: BLE001  (the command writes the files itself)
            _write_message(up, pickle.dumps(("unsent", f"{type(exc).__name__}: {exc}")))
            continue
        try:
            reply = ("ok", (_write(result, paths), dict(_marks)))
        except OSError as exc:
            reply = ("refused", (exc.errno, exc.strerror, exc.filename))
        except Exception as exc:  # noqa: BLE001  (reported by the command, one line)
            reply = ("error", str(exc) if isinstance(exc, _Failed) else f"{type(exc).__name__}: {exc}")
        _write_message(up, pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))


def _preload() -> None:
    """What the files import, imported before the result comes: the charts (matplotlib,
    pandas), the intervals (scipy.special), the report (Jinja2 and its template), and a first
    text drawn (the fonts)."""
    from ..stats import intervals
    from . import charts, report

    intervals.z_value()
    report._environment().get_template(report.TEMPLATE)
    fig, ax = charts._subplots(figsize=(2.0, 1.0))
    ax.set_title("0")
    charts.png_bytes(fig)


def _write(result, paths: dict[str, str]):
    """Write the files, the charts drawn first (by two processes: `_draw`), and return what
    the command prints."""
    names = [name for name in result.chart_names() if f"{name}.png" in paths]
    cache = result.__dict__.setdefault("_png_cache", {})
    cache.update(_draw(result, names))
    _mark("drawn")
    for name, write in result.files().items():
        if name in paths:
            write(Path(paths[name]))
    printed = result.printed()
    _mark("written")
    return printed


def _draw(result, names: list[str]) -> dict[str, bytes]:
    """Every chart of `names` as PNG bytes; with two or more, every second one drawn by a copy
    of this process (os.fork again) meanwhile."""
    getattr(result, "summary", None)  # what every chart reads: computed once, before the copy
    if len(names) < 2:
        return {name: result.chart_png(name) for name in names}
    theirs = names[1::2]  # the game lengths, the costliest, and every second one after
    down, up = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(down)
            try:
                reply = ("ok", {name: result.chart_png(name) for name in theirs})
            except Exception as exc:  # noqa: BLE001
                reply = ("error", f"{type(exc).__name__}: {exc}")
            _write_message(up, pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
        finally:
            os._exit(0)
    os.close(up)
    try:
        ours = {name: result.chart_png(name) for name in names if name not in theirs}
        message = _read_message(down)
    finally:
        os.close(down)
        os.waitpid(pid, 0)
    if message is None:
        raise _Failed("the process drawing half of the charts ended unexpectedly")
    status, value = pickle.loads(message)
    if status != "ok":
        raise _Failed(value)
    return {name: ours[name] if name in ours else value[name] for name in names}


def _read_exact(fd: int, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _read_message(fd: int) -> bytes | None:
    header = _read_exact(fd, _HEADER.size)
    if header is None:
        return None
    return _read_exact(fd, _HEADER.unpack(header)[0])


def _write_message(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]
