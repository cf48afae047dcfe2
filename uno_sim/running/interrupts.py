"""Ctrl-C (SIGINT) and SIGTERM: one clean path.

The command line installs `handler` for both signals. Outside a run of chunks it raises
`Interrupted` at once. While chunks are playing (`guarded`), raising inside the handler could
land in the middle of a compiled call, so it only records the signal and asks the engine's
kernels to stop at their next game boundary (engine.threads.request_stop); the chunk runner
then raises `Interrupted` at a safe point, with the count of games done. Either way the
exception unwinds through the output code, which removes its temporary files.
"""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from typing import Iterator

EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}
NAMES = {signal.SIGINT: "interrupted (Ctrl-C)", signal.SIGTERM: "terminated (SIGTERM)"}


class Interrupted(BaseException):
    """A signal stopped the work; `done` of `total` items of `what` were finished."""

    def __init__(self, signum: int, done: int | None = None, total: int | None = None, what: str = "") -> None:
        super().__init__(signum)
        self.signum, self.done, self.total, self.what = signum, done, total, what
        self.hint = ""  # how to resume, when a checkpoint kept the work done
        self.kept = ""  # what was written all the same (a trace streamed to standard output)

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS.get(self.signum, 130)

    def message(self) -> str:
        text = NAMES.get(self.signum, f"stopped by signal {self.signum}")
        if self.done is not None:
            text += f" after {self.done:,} of {self.total:,} {self.what}"
        text += f"; {self.kept}" if self.kept else "; nothing was written"
        return f"{text}; {self.hint}" if self.hint else text


_received: int | None = None
_THREADS = f"{__name__.rsplit('.', 2)[0]}.engine.threads"  # the module holding the engine's stop flag
_guard_depth = 0


def _stop_engine() -> None:
    from ..engine.threads import request_stop  # the engine's stop flag (numpy only, compiles nothing)

    request_stop()


def handler(signum, frame) -> None:
    global _received
    _received = signum
    _stop_engine()
    if _guard_depth == 0:
        raise Interrupted(signum)


def reset() -> None:
    """Forget a handled signal and let the kernels run again (a new command, a new test).
    The engine's stop flag is cleared when the engine is loaded; until then it is clear (and
    a command that plays nothing, `--help`, does not load the engine's threads and numpy)."""
    global _received
    _received = None
    threads = sys.modules.get(_THREADS)
    if threads is not None:
        threads.clear_stop()


@contextmanager
def guarded() -> Iterator[None]:
    """While inside, a signal is only recorded; `check` raises it at a safe point."""
    global _guard_depth
    _guard_depth += 1
    try:
        yield
    finally:
        _guard_depth -= 1


def received() -> int | None:
    """The signal received since `reset`, if any."""
    return _received


def check(done: int, total: int, what: str) -> None:
    if _received is not None:
        raise Interrupted(_received, done, total, what)


@contextmanager
def installed() -> Iterator[None]:
    """`handler` for SIGINT and SIGTERM while inside (main thread only), then the old ones."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    reset()
    previous = {s: signal.signal(s, handler) for s in EXIT_STATUS}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
