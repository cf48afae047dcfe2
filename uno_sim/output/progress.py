"""What a command shows while it works, always on standard error (standard output stays for
results): on a terminal a rich spinner or progress bar that disappears when done; otherwise
(a pipe, a file, CI logs) a few plain lines, without control codes.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator


def stderr_console():
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def stderr_is_terminal() -> bool:
    return stderr_console().is_terminal


def plain_line(text: str) -> None:
    """One plain line on standard error (for output that is not a terminal)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


@contextmanager
def status(message: str, done: str, enabled: bool = True, plain: bool = True) -> Iterator[None]:
    """Show `message` while the block runs: a spinner on a terminal (gone afterwards), else
    (with `plain`) the message as a plain line and, when the block is over, `done` with the
    seconds it took formatted into `{seconds}`. Nothing at all when not `enabled`."""
    if not enabled:
        yield
        return
    console = stderr_console()
    began = time.perf_counter()
    if console.is_terminal:
        with console.status(message, spinner="dots"):
            yield
        return
    if not plain:
        yield
        return
    plain_line(f"{message} ...")
    yield
    plain_line(done.format(seconds=time.perf_counter() - began))
