"""The `uno-sim` command line: one module per command over the Python API (uno_sim.api).

app.py registers the commands and maps errors to exit statuses; options.py declares the
shared options once; command.py takes the steps every command that plays and writes a folder
takes (run, compare, match, sweep, tournament); output.py is the one path by which a command
checks and writes its output folder; render.py draws the terminal tables; notes.py prints the
notes on standard error (--workers, checkpoints); session.py keeps the command line being run
(for a checkpoint) and lets `resume` run another without importing the app.

`app` and `run_cli` are loaded on first use (PEP 562): the console script's `main` first starts
`uno-sim run`'s writing process (output/writing_process.py), before Typer and the commands are
imported, so that process's own imports begin that much sooner.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

__all__ = ["app", "main", "run_cli"]

if TYPE_CHECKING:  # for type checkers and editors; at run time, __getattr__ below
    from .app import app, run_cli

# options after which `run` writes no files (it prints help, or the version)
_NOTHING_WRITTEN = ("-h", "--help", "--version")


def _load_app() -> Any:
    """The app module, its `app` and `run_cli` bound here (importing the submodule `app` set
    this package's attribute `app` to the module)."""
    module = importlib.import_module(f"{__name__}.app")  # (`from . import app` would ask __getattr__)
    globals().update(app=module.app, run_cli=module.run_cli)
    return module


def __getattr__(name: str) -> Any:
    if name in ("app", "run_cli"):
        return getattr(_load_app(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def start_writing(argv: list[str]) -> None:
    """`uno-sim run ...` (not its --help): start its writing process now, when
    `writing_process.start` would (an idle core, Linux, no threads). Bad input found later ends
    it with the command, whose own `start` then finds it running."""
    if argv[:1] == ["run"] and not any(a in _NOTHING_WRITTEN for a in argv):
        from ..output import writing_process

        writing_process.start()


def main() -> None:
    """Console-script entry point."""
    start_writing(sys.argv[1:])
    _load_app().main()
