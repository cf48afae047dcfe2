"""`uno-sim decks [DECK | PRESET | FILE]`: the built-in decks, or the deck of a rule set, kind by kind."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from ..game import presets
from ..game.decks import BUILTIN_DECKS, DECK_NAMES
from ..game.errors import BadInput
from .render import deck_table, stdout


def decks(
    name: Annotated[Optional[str], typer.Argument(metavar="[DECK | PRESET | FILE]", show_default=False,
                                                  help="One built-in deck (classic, no-mercy or modern), or a "
                                                       "preset or rule file whose deck to show.")] = None,
) -> None:
    """The built-in decks (the knob `deck`), or the deck a preset or rule file plays (its own
    `[deck]` included): each kind with its copies, effects and points, and the total cards."""
    console = stdout()
    if name is not None and name not in DECK_NAMES:
        if not presets.is_path(name) and name not in presets.preset_names():
            raise BadInput(f"unknown deck or preset {name!r} (built-in decks: {', '.join(DECK_NAMES)}; presets: "
                           f"{', '.join(presets.preset_names())}; or give a path to a .toml rule file)")
        label, rules = api.load_rules(name)
        console.print(deck_table(rules.cards, rules.zero_points,
                                 f"{label}: the {rules.deck} deck, {rules.cards.size} cards"))
        return
    chosen = {name: BUILTIN_DECKS[name]} if name is not None else BUILTIN_DECKS
    for i, (deck_name, deck) in enumerate(chosen.items()):
        if i:
            console.print()
        console.print(deck_table(deck, 0, f"{deck_name}: {deck.size} cards"))
