"""The command line being run: its words, which a checkpoint keeps so that `uno-sim resume`
can repeat them, and the way to run another command line in this process, which app.py
registers and `resume` uses. Here, so that no command needs to import the app."""

from __future__ import annotations

from typing import Any, Callable

_argv: list[str] | None = None  # the command line being run (app.run_cli sets it)
_runner: Callable[[list[str]], Any] | None = None  # app.py's: runs a command line, errors raised


def set_argv(argv: list[str] | None) -> None:
    global _argv
    _argv = [str(a) for a in argv] if argv is not None else None


def argv() -> list[str] | None:
    """The words after `uno-sim` of the command line being run (None: not run from one)."""
    return _argv


def set_runner(runner: Callable[[list[str]], Any]) -> None:
    global _runner
    _runner = runner


def run_again(argv: list[str]) -> Any:
    """Run another command line in place of this one (`resume` repeating a checkpoint's): it
    becomes the command line being run, its errors go to the app's one error path."""
    if _runner is None:
        raise RuntimeError("no command runner registered (uno_sim.cli.app registers it)")
    set_argv(argv)
    return _runner(argv)
