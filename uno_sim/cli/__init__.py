"""The `uno-sim` command line: one module per command over the Python API (uno_sim.api).

app.py registers the commands and maps errors to exit statuses; options.py declares the
shared options once; command.py takes the steps every command that plays and writes a folder
takes (run, compare, match, sweep, tournament); output.py is the one path by which a command
checks and writes its output folder; render.py draws the terminal tables; notes.py prints the
notes on standard error (--workers, checkpoints); session.py keeps the command line being run
(for a checkpoint) and lets `resume` run another without importing the app.
"""

from .app import app, main, run_cli

__all__ = ["app", "main", "run_cli"]
