"""`uno-sim presets`: the built-in presets, one line each."""

from __future__ import annotations

import typer

from ..game import presets as P
from ..game.rules import RulesError


def presets() -> None:
    """List the built-in presets, one line each."""
    names = P.preset_names()
    width = max((len(n) for n in names), default=0)
    for name in names:
        try:
            source = P.find(name)
            data = P.read(source)
            text = str(data.get("description", ""))
            if data.get("extends"):
                text += f" (extends {data['extends']})"
            P.load(name)  # flags a preset whose knobs are invalid
        except RulesError as exc:
            text = f"(broken: {' '.join(str(exc).split())})"
        typer.echo(f"{name:<{width}}  {text}")
