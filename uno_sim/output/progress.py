"""What a command shows while it works, always on standard error (standard output stays for
results): on a terminal a rich spinner or progress bar that disappears when done; otherwise
(a pipe, a file, CI logs) a few plain lines, without control codes.

`TerminalProgress` is the running layer's progress (uno_sim.running.progress.Progress) drawn
here: a spinner (`status`) while the engine starts, a `ChunkBar` for each pipeline of chunks.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator

PROGRESS_MIN_SECONDS = 1.0  # show a progress bar only when the rest is expected to take longer
PLAIN_MIN_SECONDS = 3.0  # without a terminal: a line only for runs expected to take longer
PLAIN_QUARTER_SECONDS = 10.0  # and one per quarter for runs this long


def stderr_console():
    from rich.console import Console

    return Console(stderr=True, highlight=False)


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


def _seconds(seconds: float) -> str:
    """Seconds left: one decimal under 10 s, whole seconds above."""
    return f"{seconds:.1f}" if seconds < 10 else f"{seconds:,.0f}"


class ChunkBar:
    """How far a pipeline of chunks is, on stderr: on a terminal a rich progress bar, started
    once the rest of the run is expected to take more than PROGRESS_MIN_SECONDS and advanced
    once per chunk; otherwise (a pipe or a file) plain lines: one when a run expected to take
    more than PLAIN_MIN_SECONDS starts and, for one of more than PLAIN_QUARTER_SECONDS, one a
    quarter, with the seconds left at the rate measured since the first line (`clock`: seconds,
    time.perf_counter unless a test passes its own)."""

    def __init__(self, total: int, description: str, unit: str = "games", clock=time.perf_counter) -> None:
        self.total = total
        self.description = description
        self.unit = unit
        self.bar = None
        self.task = None
        self.plain_started = False
        self.quarters = 0  # quarters reported in plain lines
        self.clock = clock
        self.plain_began: tuple[float, int] | None = None  # (clock, done) at the first plain line
        self.console = stderr_console()
        self.terminal = self.console.is_terminal

    def update(self, done: int, seconds_left: float | None, description: str | None = None) -> None:
        if not self.terminal:
            self._plain(done, seconds_left)
            return
        if self.bar is None:
            if seconds_left is None or seconds_left < PROGRESS_MIN_SECONDS:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress as Bar,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Bar(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(description or self.description, total=self.total)
        self.bar.update(self.task, completed=done, description=description or self.description)

    def _plain(self, done: int, seconds_left: float | None) -> None:
        if not self.plain_started:
            if seconds_left is None or seconds_left < PLAIN_MIN_SECONDS:
                return
            self.plain_started = True
            self.plain_began = (self.clock(), done)
            self.quarters = 4 * done // self.total if seconds_left >= PLAIN_QUARTER_SECONDS else 4
            plain_line(f"{self.description}: {self.total:,} {self.unit}, about {seconds_left:,.0f} s to go")
            return
        quarter = 4 * done // self.total
        if quarter > self.quarters and quarter < 4:
            self.quarters = quarter
            left = self._measured_seconds_left(done, seconds_left)
            eta = "" if left is None else f", about {_seconds(left)} s to go"
            plain_line(f"{self.description}: {25 * quarter}% ({done:,} of {self.total:,} {self.unit}){eta}")

    def _measured_seconds_left(self, done: int, seconds_left: float | None) -> float | None:
        """The rest's seconds at the rate measured since the first plain line (the first
        line's estimate came before most of the run: "about 7 s to go" for a run of 1.2 s);
        `seconds_left` (the runner's estimate) when nothing was measured yet."""
        if self.plain_began is not None:
            began, done_then = self.plain_began
            elapsed = self.clock() - began
            if elapsed > 0 and done > done_then:
                return (self.total - done) * elapsed / (done - done_then)
        return seconds_left

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


class TerminalProgress:
    """The running layer's progress (uno_sim.running.progress.Progress) on standard error:
    `status` while the engine starts, a `ChunkBar` per pipeline of chunks."""

    def starting(self, message: str, done: str, plain: bool):
        return status(message, done, plain=plain)

    def chunks(self, total: int, label: str, unit: str) -> ChunkBar:
        return ChunkBar(total, label, unit)
