"""`uno-sim decks [DECK]`: the built-in decks, kind by kind."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..game.decks import BUILTIN_DECKS, builtin_deck
from .render import deck_table, stdout


def decks(
    name: Annotated[Optional[str], typer.Argument(metavar="[DECK]", show_default=False,
                                                  help="One built-in deck: classic, no-mercy or modern.")] = None,
) -> None:
    """The built-in decks (the knob `deck`): each kind with its copies, effects and points, and
    the total cards. A rule file's own deck: `uno-sim show FILE`."""
    chosen = {name: builtin_deck(name)} if name is not None else BUILTIN_DECKS
    console = stdout()
    for i, (deck_name, deck) in enumerate(chosen.items()):
        if i:
            console.print()
        console.print(deck_table(deck, 0, f"{deck_name}: {deck.size} cards"))
