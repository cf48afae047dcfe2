"""`uno-sim trace PRESET`: games as JSON Lines, one event a line, to a file or standard output."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from .. import api
from ..files import atomic_path, check_out_file, made_dirs
from . import options as O


def trace(
    preset: O.Preset,
    games: Annotated[int, typer.Option("--games", help="Number of games to trace.")] = 1,
    seed: O.Seed = 0,
    players: O.Players = None,
    set_: O.Overrides = None,
    bots: O.Bots = None,
    out: Annotated[
        Optional[Path],
        typer.Option("--out", show_default=False,
                     help="Output file (default, or `-`: standard output). A device or FIFO is written directly."),
    ] = None,
    rotate_seats: O.RotateSeats = False,
) -> None:
    """Trace games as JSON Lines, one event a line, to --out FILE or standard output."""
    plan = api.prepare_run(preset, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                           rotate_seats=rotate_seats)
    to_stdout = out is None or str(out) == "-"
    if not to_stdout:
        check_out_file(out)

    from ..trace import trace_events

    events = trace_events(plan.rules, plan.bots, seed, games, rotate_seats=rotate_seats, progress=True)
    if to_stdout:
        try:
            write = sys.stdout.write
            for event in events:
                write(json.dumps(event, separators=(",", ":")) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader went away (`uno-sim trace ... | head`): stop quietly, successfully. Point
            # stdout at /dev/null so that the interpreter's last flush does not fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    with made_dirs(out.parent), atomic_path(out) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            for event in events:
                fh.write(json.dumps(event, separators=(",", ":")) + "\n")
    Console(stderr=True, highlight=False).print(f"wrote {out}")
