"""`uno-sim rules [KNOB]`: the rulebook's knob entries, from the one knob table."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..game.errors import InputError, did_you_mean
from ..game.knobs import BY_NAME
from ..game.rulebook import by_group, knob_entry, knob_section
from .render import stdout


def rules(
    knob: Annotated[Optional[str], typer.Argument(metavar="[KNOB]", show_default=False,
                                                   help="A knob to explain in full.")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the rulebook's knob section as Markdown.")] = False,
) -> None:
    """Every rule knob with a one-line meaning; `uno-sim rules KNOB` explains one in full."""
    if markdown:
        typer.echo(knob_section(), nl=False)
        return
    if knob is not None:
        if knob not in BY_NAME:
            raise InputError(f"unknown knob {knob!r}{did_you_mean(knob, BY_NAME)} (`uno-sim rules` lists them)")
        typer.echo(knob_entry(BY_NAME[knob]))
        return
    from rich.table import Table

    table = Table(header_style="bold", title="Rule knobs (`uno-sim rules KNOB` for one in full)")
    table.add_column("knob", no_wrap=True)
    table.add_column("values (default first)")
    table.add_column("meaning")
    group = None
    for k in by_group():
        if k.group != group:
            group = k.group
            table.add_section()
            table.add_row(f"[bold]{group}[/bold]", "", "")
        values = k.describe_values()
        if not k.choices and k.values is not bool:
            values = f"{k.default} ({values})"
        elif k.values is bool:
            values = "true, false" if k.default else "false, true"
        table.add_row(k.name, values, k.meaning)
    stdout().print(table)
