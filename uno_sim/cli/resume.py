"""`uno-sim resume DIR`: continue a stopped run from its checkpoint, by running the command
line kept there again (session.run_again; the checkpoint notes are in notes.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from ..game.errors import InputError
from . import options as O
from .notes import note
from .session import run_again

VALUED = ("--cluster", "--workers", "--out", "--checkpoint")


def _without(argv: list[str], option: str) -> list[str]:
    """argv without `option VALUE` / `option=VALUE` (or the flag `option`)."""
    out, skip = [], False
    for i, token in enumerate(argv):
        if skip:
            skip = False
            continue
        if token == option:
            skip = option in VALUED
            continue
        if token.startswith(option + "="):
            continue
        out.append(token)
    return out


@O.shared_options
def resume(
    checkpoint: Annotated[Path, typer.Argument(metavar="DIR", show_default=False,
                                               help="A checkpoint folder made with --checkpoint DIR.")],
    *,
    cluster, workers, out, force,
) -> Any:
    """Continue a stopped run from its checkpoint: the same command, in the folder it was
    started from; the chunks kept in DIR are not played again, and the results are the
    same as those of an uninterrupted run. --cluster, --workers, --out and --force replace
    the original command's."""
    manifest_path = checkpoint / "checkpoint.json"
    if not manifest_path.is_file():
        raise InputError(f"{str(checkpoint)!r} is not a checkpoint folder (no checkpoint.json); "
                         "make one with --checkpoint DIR")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        argv, cwd = list(manifest["argv"]), manifest["cwd"]
    except (OSError, ValueError, KeyError, TypeError):
        raise InputError(f"{str(checkpoint)!r}: its checkpoint.json holds no command line to repeat (made from "
                         "Python? then run the same call with this checkpoint again)") from None
    if not Path(cwd).is_dir():
        raise InputError(f"{str(checkpoint)!r}: the folder the run was started in, {cwd}, is gone")
    argv = _without(argv, "--checkpoint") + ["--checkpoint", str(checkpoint.resolve())]
    for option, value in (("--cluster", cluster), ("--workers", workers), ("--out", out)):
        if value is not None:
            argv = _without(argv, option) + [option, str(Path(value).resolve()) if option == "--out" else str(value)]
    if force and "--force" not in argv:
        argv.append("--force")
    os.chdir(cwd)
    note(f"resuming: uno-sim {' '.join(argv)}")
    return run_again(argv)
