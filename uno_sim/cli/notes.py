"""The notes the commands that play print on standard error, beside their results: --workers
beyond the threads this machine gives the process (or given with --cluster, where it does not
apply), a run resuming from its checkpoint (which keeps the command line, for `resume`), and a
checkpoint complete."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from .. import api
from . import session


def note(text: str) -> None:
    Console(stderr=True, highlight=False).print(text)


def note_workers(workers: int | None, cluster: str | None = None) -> None:
    if workers is not None and cluster is not None:
        note(f"note: --workers {workers} is for threads here; with --cluster the cluster's workers play")
    elif workers is not None and workers > api.available_threads():
        note(f"note: --workers {workers} capped at the {api.available_threads()} threads available")


def note_checkpoint(checkpoint: Any) -> None:
    """Before a run: record the command line in the checkpoint; say when it resumes."""
    if checkpoint is None:
        return
    checkpoint.argv = session.argv()
    kept = checkpoint.kept_items()
    if kept:
        what = checkpoint.units[0]["kind"]
        total = checkpoint.total_items()
        rest = "nothing left to play" if kept == total else "playing the rest"
        note(f"resuming from the checkpoint {checkpoint.path}: {kept:,} of {total:,} {what} are kept there; {rest}")


def note_checkpoint_done(checkpoint: Any) -> None:
    if checkpoint is not None:
        note(f"checkpoint {checkpoint.path} is complete: the same command again rewrites these results "
             "without playing (remove the folder when no longer needed)")
