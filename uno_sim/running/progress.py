"""How the running layer says how far it got: through a `Progress` object it is given, never
by drawing anything itself.

A `Progress` is told two things: that the engine is starting (`starting`, a context around
compiling or loading it) and that a pipeline of chunks begins (`chunks`, which hands back a
`ChunkProgress` told after every chunk, and a few times a second while one plays, how many
items are done and about how many seconds are left). `SILENT` ignores both; the terminal's
implementation (a rich bar and spinner, plain lines when standard error is not a terminal)
is uno_sim.output.progress.TerminalProgress. `as_progress` turns what callers pass (True,
False, None or a Progress) into a Progress.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Protocol, Union


class ChunkProgress(Protocol):
    """One pipeline's progress (running.chunks.run_chunks)."""

    def update(self, done: int, seconds_left: float | None, description: str) -> None:
        """`done` items of the pipeline are finished (or nearly: chunks completed but not yet
        consumed count); `seconds_left` is an estimate (None before there is one);
        `description` names the unit playing now."""

    def close(self) -> None:
        """The pipeline is over (done, failed or interrupted)."""


class Progress(Protocol):
    def starting(self, message: str, done: str, plain: bool) -> AbstractContextManager:
        """A context around starting the engine: `message` says what happens meanwhile, `done`
        what happened (with `{seconds}` to fill in); `plain`: worth a line even where no
        spinner can be drawn (compiling takes long, loading a second)."""

    def chunks(self, total: int, label: str, unit: str) -> ChunkProgress:
        """A pipeline of `total` items (`unit`: games or matches) begins; `label` names it."""


class _Silent:
    """Progress that shows nothing (the default of the running layer and of the API)."""

    def starting(self, message: str, done: str, plain: bool) -> AbstractContextManager:
        return nullcontext()

    def chunks(self, total: int, label: str, unit: str) -> "_Silent":
        return self

    def update(self, done: int, seconds_left: float | None, description: str) -> None:
        pass

    def close(self) -> None:
        pass


SILENT: Progress = _Silent()

ProgressLike = Union[Progress, bool, None]


def as_progress(progress: ProgressLike) -> Progress:
    """A Progress from what a caller passed: True, the terminal's (on standard error);
    False or None, SILENT; a Progress as it is."""
    if progress is True:
        from ..output.progress import TerminalProgress

        return TerminalProgress()
    if progress is None or progress is False:
        return SILENT
    return progress
