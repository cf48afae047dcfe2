"""Where a warm command's time goes: one `uno-sim` command line run in this process, its
phases timed and printed as one JSON line on standard error, each as wall and CPU
seconds (not shipped; docs/ARCHITECTURE.md
"Start-up: where the time goes" quotes it, several runs, minimum / median / maximum):

    python tools/startup_phases.py run standard --games 1000 --out /tmp/x --force

- imports: from this script's first line until the engine starts (the command line, its
  options, the plan, the running layer and whatever they import);
- engine: loading (or compiling) the kernels (running/warmup.py `warm_up`);
- first chunk: the games played, from the end of the start-up until the run's results are back;
- output: the rest (frames, statistics, charts, report, files, the tables printed).

`uno-sim run` writes its files in a process of its own (uno_sim/output/writing_process.py),
started before the engine loads: its own marks follow, from this script's first line (wall)
and as that process's CPU seconds: `writer_started`, `writer_preloaded` (the output libraries
imported), `writer_received` (the result came), `writer_drawn` (the charts), `writer_written`
(every file, and what the command prints). The command's `output` phase is then mostly the
wait for it.

The interpreter's own start and exit are not in them: the whole command, timed from outside,
is their sum plus that.
"""

from __future__ import annotations

import json
import os
import sys
import time

def _now() -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process, every thread)."""
    return time.perf_counter(), time.process_time()


BEGAN = _now()
BEGAN_CLOCK = time.time()  # the writing process's marks are wall-clock times

from uno_sim.cli import start_writing  # noqa: E402

start_writing(sys.argv[1:])  # as the console script does, before the command line's imports

from uno_sim.api import runs  # noqa: E402  (light: a run imports it before playing anyway)
from uno_sim.running import warmup  # noqa: E402

marks: dict[str, tuple[float, float]] = {}


def _timed_warm_up(original):
    def warm_up(*args, **kwargs):
        marks.setdefault("engine_began", _now())
        try:
            return original(*args, **kwargs)
        finally:
            marks["engine_done"] = _now()
    return warm_up


def _timed_play(original):
    def play(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        finally:
            marks.setdefault("played", _now())
    return play


def main(argv: list[str]) -> None:
    warmup.warm_up = _timed_warm_up(warmup.warm_up)
    runs._play = _timed_play(runs._play)
    from uno_sim.cli.app import leave, run_cli

    status = run_cli(argv)
    ended = _now()
    engine_began = marks.get("engine_began", ended)
    engine_done = marks.get("engine_done", engine_began)
    played = marks.get("played", engine_done)
    bounds = {"imports": (BEGAN, engine_began), "engine": (engine_began, engine_done),
              "first_chunk": (engine_done, played), "output": (played, ended)}
    phases = {f"{name}_{what}": round(b[i] - a[i], 4) for name, (a, b) in bounds.items()
              for i, what in enumerate(("wall", "cpu"))}
    from uno_sim.output import writing_process

    for name, (clock, cpu) in writing_process.marks.items():
        phases[f"writer_{name}_wall"] = round(clock - BEGAN_CLOCK, 4)
        phases[f"writer_{name}_cpu"] = round(cpu, 4)
    sys.stderr.write("phases " + json.dumps({**phases, "status": status}) + "\n")
    leave(status)


if __name__ == "__main__":
    main(sys.argv[1:])
    os._exit(0)  # not reached: leave() ends the process
