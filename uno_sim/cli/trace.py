"""`uno-sim trace PRESET`: games as JSON Lines, one event a line, to a file or standard output."""

from __future__ import annotations

import json
import os
import sys

from rich.console import Console

from .. import api
from ..api import signals
from ..output.files import OutputError, check_out_file, made_dirs, output_stream
from . import options as O


@O.shared_options
def trace(preset, *, games: O.GamesToTrace = 1, seed, players, set_, bots, out: O.OutFile = None, rotate_seats) -> None:
    """Trace games as JSON Lines, one event a line, to --out FILE or standard output."""
    plan = api.prepare_run(preset, games=games, players=players, bots=bots, seed=seed, overrides=set_,
                           rotate_seats=rotate_seats)
    to_stdout = out is None or str(out) == "-"
    if not to_stdout:
        check_out_file(out)
    elif sys.stdout is None:  # started with standard output closed (`>&-`): nowhere to write
        raise OutputError("standard output is closed: nowhere to write the trace (give --out FILE)")

    events = api.trace_events(plan, progress=True)
    finished = [0]  # games whose events were all written
    try:
        if to_stdout:
            _write(sys.stdout, events, finished)
            return
        with made_dirs(out.parent), output_stream(out, "w", encoding="utf-8", newline="\n") as fh:
            _write(fh, events, finished)
    except signals.Interrupted as stop:  # how far it got; on standard output that much is out
        stop.done, stop.total, stop.what = finished[0], games, "games traced"
        if to_stdout:
            try:
                sys.stdout.flush()
            except OSError:
                pass
            stop.kept = f"the events of {finished[0]:,} whole games went to standard output"
        raise
    except BrokenPipeError:
        # The reader went away (`uno-sim trace ... | head`): stop quietly, successfully. Point
        # stdout at /dev/null so that the interpreter's last flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    except OSError as exc:  # a full disk, a closed descriptor, ...: one line, exit 2
        if to_stdout:  # what is still buffered for stdout cannot be written either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        where = "standard output" if to_stdout else f"--out {str(out)!r}"
        raise OutputError(f"{where}: cannot write ({exc.strerror or exc})") from None
    Console(stderr=True, highlight=False).print(f"wrote {out}")


def _write(fh, events, finished: list[int]) -> None:
    """Write the events, one a line; finished[0] counts the games written to their end."""
    write = fh.write
    for event in events:
        write(json.dumps(event, separators=(",", ":")) + "\n")
        if event["ev"] == "end":
            finished[0] += 1
    fh.flush()
