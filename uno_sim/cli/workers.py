"""A note when --workers asks for more threads than this machine gives the process (or is
given with --cluster, where it does not apply)."""

from __future__ import annotations

from rich.console import Console

from ..running.chunks import available_threads


def note_workers(workers: int | None, cluster: str | None = None) -> None:
    if workers is not None and cluster is not None:
        Console(stderr=True, highlight=False).print(
            f"note: --workers {workers} is for threads here; with --cluster the cluster's workers play")
    elif workers is not None and workers > available_threads():
        Console(stderr=True, highlight=False).print(
            f"note: --workers {workers} capped at the {available_threads()} threads available"
        )
