"""Ctrl-C and SIGTERM for a program that runs the API in its main thread, as the command line
does: `installed()` around the work turns either signal into an `Interrupted` raised at a safe
point (never inside the compiled engine), which says how far the work got, and which exit
status it asks for (130 for Ctrl-C, 143 for SIGTERM). uno_sim.running.interrupts holds the
handler; this module is the part of it that belongs to the public surface. Importing it loads
nothing compiled (the handler reaches the engine's stop flag only when a signal comes)."""

from __future__ import annotations

from ..running.interrupts import EXIT_STATUS, Interrupted, installed, received

__all__ = ["EXIT_STATUS", "Interrupted", "installed", "received", "stopped"]


def stopped() -> Interrupted | None:
    """The `Interrupted` for a signal received since `installed()` began (one that surfaced as
    some other exception inside a compiled call), or None."""
    signum = received()
    return None if signum is None else Interrupted(signum)
