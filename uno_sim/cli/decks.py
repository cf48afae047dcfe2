"""`uno-sim decks [DECK | PRESET | FILE]`: the built-in decks, or the deck of a rule set, kind by kind."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import api
from ..game import presets
from ..game.decks import SHOWN_DECKS
from ..game.errors import BadInput
from .render import deck_tables, stdout


def decks(
    name: Annotated[Optional[str], typer.Argument(metavar="[DECK | PRESET | FILE]", show_default=False,
                                                  help="One built-in deck (classic, no-mercy, modern or the "
                                                       "two-sided flip), or a preset or rule file whose deck to "
                                                       "show.")] = None,
) -> None:
    """The built-in decks (the knob `deck`, and the two-sided flip deck, shown but not played
    by this version), or the deck a preset or rule file plays (its own `[deck]` included):
    each kind with its copies, effects and points, and the total cards. A two-sided deck is
    shown a side at a time."""
    console = stdout()
    if name is not None and name not in SHOWN_DECKS:
        if not presets.is_path(name) and name not in presets.preset_names():
            raise BadInput(f"unknown deck or preset {name!r} (built-in decks: {', '.join(SHOWN_DECKS)}; presets: "
                           f"{', '.join(presets.preset_names())}; or give a path to a .toml rule file)")
        label, rules = api.load_rules(name, to_play=False)
        deck = rules.cards
        what = f"the {deck.name} two-sided deck" if deck.two_sided else f"the {rules.deck} deck"
        _print(console, deck_tables(deck, rules.zero_points, f"{label}: {what}, {deck.size} cards"))
        return
    chosen = {name: SHOWN_DECKS[name]} if name is not None else SHOWN_DECKS
    for i, (deck_name, deck) in enumerate(chosen.items()):
        if i:
            console.print()
        _print(console, deck_tables(deck, 0, f"{deck_name}: {_cards(deck)}"))


def _cards(deck) -> str:
    return f"two-sided, {deck.size} cards" if deck.two_sided else f"{deck.size} cards"


def _print(console, tables) -> None:
    for i, table in enumerate(tables):
        if i:
            console.print()
        console.print(table)
