"""The one path of the commands that play and write a folder (run, compare, match, sweep,
tournament): each parses its options and says how to prepare its plan; `play_and_write` takes
every other step, always in this order:

1. check the input that needs no rules (--per-game or --parquet with --cluster or --checkpoint);
2. prepare the plan through the API (every argument checked; a checkpoint opened);
3. check that --parquet has pyarrow;
4. pick the output folder and check it (so a bad --out fails before anything plays);
5. match only: play the pilot games that size its chunks;
6. the notes: --workers beyond this machine's threads, a run resuming from its checkpoint;
7. play, and write the result's files all-or-nothing (cli/output.py);
8. print the tables (or, with --json, only the JSON) and the files written;
9. the note that the checkpoint is complete.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

from .. import api
from ..output import writing_process
from ..game.errors import BadInput
from .notes import note_checkpoint, note_checkpoint_done, note_workers
from .output import finish, out_folder, write_result
from .resume import would_refuse

# the commands whose files are written by a process of their own (output/writing_process.py)
WRITTEN_APART = ("run",)

# (stem) -> (OUT/stem.csv or None, OUT/stem.parquet or None): the per-game files asked for,
# each written all-or-nothing with the rest of the folder
PerGameFiles = Callable[[str], tuple[Path | None, Path | None]]


def _execute(plan: Any, per_game_files: PerGameFiles) -> Any:
    return plan.execute(progress=True)


def play_and_write(command: str, prepare: Callable[[], Any], *, folder_name: Callable[[Any], str],
                   show: Callable[[Any], None], out: Path | None, force: bool, workers: int | None,
                   cluster: str | None = None, checkpoint: Path | None = None, as_json: bool = False,
                   per_game: bool = False, parquet: bool = False, pilot: bool = False,
                   play: Callable[[Any, PerGameFiles], Any] = _execute) -> None:
    """Run a command's steps (above): `prepare()` returns its plan, `folder_name(plan)` names
    the default folder (reports/COMMAND-NAME-...), `play(plan, per_game_files)` plays it (by
    default `plan.execute(progress=True)`) and `show(result)` prints its tables."""
    if as_json and sys.stdout is None:  # started with standard output closed (`>&-`)
        raise api.InputError("--json: standard output is closed, so there is nowhere to write the JSON "
                             "(leave out --json: the files are written all the same)")
    api.check_per_game(per_game or parquet, cluster, checkpoint)
    if command in WRITTEN_APART:
        writing_process.start()  # imports what the files need while this process loads the engine
    try:
        plan = prepare()
    except BadInput as exc:
        refused = would_refuse(exc)
        if refused is exc:
            raise
        raise refused from None
    api.check_parquet(parquet)
    folder = out_folder(out, folder_name(plan), command, force)
    if pilot:
        plan.run_pilot(progress=True)
    note_workers(workers, cluster)
    kept = getattr(plan, "checkpoint", None)  # a tournament keeps no checkpoint
    note_checkpoint(kept)

    def play_into(files):
        def per_game_files(stem: str) -> tuple[Path | None, Path | None]:
            return (files.path_for(folder / f"{stem}.csv") if per_game else None,
                    files.path_for(folder / f"{stem}.parquet") if parquet else None)

        return play(plan, per_game_files)

    result, written = write_result(folder, force, play_into)
    finish(result, written, as_json, show)
    note_checkpoint_done(kept)
