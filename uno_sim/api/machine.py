"""What this machine offers a run: the threads the process may use, and the optional library
that Parquet output needs. Nothing is imported here until asked: a command that only describes
rules loads neither the running layer nor pyarrow."""

from __future__ import annotations

from ..game.errors import InputError


def available_threads() -> int:
    """Cores this process may run on: the most worker threads worth starting (--workers
    beyond it is capped)."""
    from ..running.chunks import available_threads as threads

    return threads()


def parquet_available() -> bool:
    """Whether pyarrow is installed, so that per-game rows can be written as Parquet."""
    from ..running.games import parquet_available as available

    return available()


def check_parquet(parquet: bool) -> None:
    """--parquet asked for without pyarrow installed: an InputError saying how to install it."""
    if parquet and not parquet_available():
        raise InputError("--parquet needs pyarrow (pip install 'uno-sim[parquet]')")
