"""`uno-sim show PRESET`: every knob of a rule set, with its meaning, and its deck when it is
not the classic one."""

from __future__ import annotations

from rich.table import Table

from .. import api
from ..game import presets as P
from ..game.knobs import BY_NAME
from . import options as O
from .render import deck_table, deck_tables, fmt_value, stdout


@O.shared_options
def show(preset, *, players, set_) -> None:
    """Every knob of a preset or rule file, with its value and meaning; then its deck's card
    kinds, unless it plays the classic deck.

    `*` marks the values that differ from the defaults (the official rules).
    """
    # a two-sided deck can be shown though it cannot be played yet (to_play=False)
    name, rules = api.load_rules(preset, set_, players, to_play=False)
    description = P.description(P.find(preset))
    table = Table(title=f"{name}: {description}" if description else name, header_style="bold")
    table.add_column("knob", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column("default", no_wrap=True)
    table.add_column("", justify="center")
    table.add_column("meaning")
    changed = 0
    for knob_name, value in rules.as_dict().items():
        knob = BY_NAME[knob_name]
        differs = value != knob.default
        changed += differs
        style = "bold yellow" if differs else None
        table.add_row(knob_name, fmt_value(value), fmt_value(knob.default), "*" if differs else "", knob.meaning,
                      style=style)
    console = stdout()
    console.print(table)
    console.print(f"{changed} knob(s) differ from the official defaults (marked *). "
                  "`uno-sim rules KNOB` explains a knob in full.")
    deck = rules.cards
    if deck.two_sided:
        for side in deck_tables(deck, rules.zero_points, f"deck: {deck.name} (two-sided, {deck.size} cards)"):
            console.print()
            console.print(side)
    elif deck.name != "classic":
        console.print()
        console.print(deck_table(deck, rules.zero_points, f"deck: {rules.deck} ({deck.size} cards)"))
