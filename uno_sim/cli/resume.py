"""`uno-sim resume DIR`: continue a stopped run from its checkpoint, by running the command
line kept there again (session.run_again; the checkpoint notes are in notes.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from ..api.common import recorded_command
from ..game.errors import BadInput, InputError
from . import options as O
from . import session
from .notes import note
from .session import run_again

VALUED = ("--cluster", "--workers", "--out", "--checkpoint")
REPLACED = VALUED + ("--force",)  # the options resume replaces (or adds)
CHANGED = ("a file the command reads (a rule file, a Python bot) was changed since the checkpoint was made, "
           "or the checkpoint was edited")


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


def _repeated(argv: list[str]) -> list[str]:
    """The words of a command line that resume repeats as they are."""
    for option in REPLACED:
        argv = _without(argv, option)
    return argv


def would_refuse(exc: BadInput) -> BadInput:
    """The error for a checkpoint of other runs (running.checkpoint.CheckpointError with
    `mismatch`) met by a command: when the folder records this very command line, in this
    folder, `uno-sim resume` would repeat it and be refused the same way, so the error says
    what changed instead of advising resume; any other error is returned unchanged."""
    made_by, mismatch = getattr(exc, "made_by", None), getattr(exc, "mismatch", None)
    argv = session.argv()
    if mismatch is None or made_by is None or argv is None:
        return exc
    stored_argv, cwd = made_by
    if _repeated([str(a) for a in stored_argv]) != _repeated(argv) or Path(cwd) != Path.cwd():
        return exc
    refused = InputError(f"{exc.where} holds runs of this same command line, but they differ from what it gives "
                         f"now ({mismatch}): {CHANGED}; put the file back as it was to continue from the checkpoint, "
                         "or remove the folder or choose another")
    refused.mismatch = mismatch  # (under `resume`, its own message says it from the checkpoint's side)
    return refused


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
    argv, cwd = recorded_command(checkpoint)
    manifest_path = checkpoint / "checkpoint.json"
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
    try:
        return run_again(argv)
    except BadInput as exc:  # running.checkpoint.CheckpointError with `mismatch`
        if getattr(exc, "mismatch", None) is None:
            raise
        # its own command line no longer matches what it records: advising `uno-sim resume` again
        # would repeat this very failure
        raise InputError(f"the checkpoint file {str(manifest_path)!r} does not match its own command line "
                         f"({exc.mismatch}): {CHANGED}, so the run cannot be resumed from it as it is; put the "
                         "file back as it was, or remove the folder and run the command again") from None
