"""Every command module of the command line is registered, and the README lists every command.

A module `uno_sim/cli/<name>.py` whose docstring opens with "`uno-sim <name>" is a command
(docs/ARCHITECTURE.md, "Add a command"); forgetting to register it in cli/app.py, or to add it
to the README's command list, fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import typer

from uno_sim.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


def command_modules() -> set[str]:
    names = set()
    for path in (ROOT / "uno_sim" / "cli").glob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if doc.startswith(f"`uno-sim {path.stem}"):
            names.add(path.stem)
    return names


def test_every_command_module_is_registered():
    registered = set(typer.main.get_command(app).commands)
    modules = command_modules()
    assert {"run", "compare", "sweep", "match", "trace", "tournament"} <= modules  # the reader works
    assert modules <= registered, f"command modules not registered in cli/app.py: {sorted(modules - registered)}"
    assert registered <= modules, f"commands without a module of their own: {sorted(registered - modules)}"


def test_the_readme_shows_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in typer.main.get_command(app).commands if f"uno-sim {name}" not in readme]
    assert not missing, f"commands the README's command list does not show: {missing}"
