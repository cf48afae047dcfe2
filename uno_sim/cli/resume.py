"""`uno-sim resume DIR`: continue a stopped run from its checkpoint; and the checkpoint notes
the commands print."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ..game.errors import BadInput, InputError
from . import options as O

_argv: list[str] | None = None  # the command line being run (app.run_cli sets it)


def set_argv(argv: list[str] | None) -> None:
    global _argv
    _argv = [str(a) for a in argv] if argv is not None else None


def _note(text: str) -> None:
    Console(stderr=True, highlight=False).print(text)


def note_checkpoint(checkpoint: Any) -> None:
    """Before a run: record the command line in the checkpoint; say when it resumes."""
    if checkpoint is None:
        return
    checkpoint.argv = _argv
    kept = checkpoint.kept_items()
    if kept:
        what = checkpoint.units[0]["kind"]
        total = sum(u[what] for u in checkpoint.units)
        rest = "nothing left to play" if kept == total else "playing the rest"
        _note(f"resuming from the checkpoint {checkpoint.path}: {kept:,} of {total:,} {what} are kept there; {rest}")


def note_checkpoint_done(checkpoint: Any) -> None:
    if checkpoint is not None:
        _note(f"checkpoint {checkpoint.path} is complete: the same command again rewrites these results "
              "without playing (remove the folder when no longer needed)")


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


def resume(
    checkpoint: Annotated[Path, typer.Argument(metavar="DIR", show_default=False,
                                               help="A checkpoint folder made with --checkpoint DIR.")],
    cluster: O.Cluster = None,
    workers: O.Workers = None,
    out: O.Out = None,
    force: O.Force = False,
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
        text = manifest_path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the checkpoint file {str(manifest_path)!r} "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    try:
        manifest = json.loads(text)
    except ValueError as exc:
        what = "empty" if not text.strip() else f"cut short or not JSON ({exc.msg} at line {exc.lineno})"
        raise InputError(f"the checkpoint file {str(manifest_path)!r} is damaged ({what}), so the run cannot be "
                         "resumed from it; remove the folder and run the command again") from None
    if not isinstance(manifest, dict):
        raise InputError(f"the checkpoint file {str(manifest_path)!r} is damaged (not a JSON object), so the run "
                         "cannot be resumed from it; remove the folder and run the command again")
    try:
        argv, cwd = [str(a) for a in manifest["argv"]], str(manifest["cwd"])
    except (KeyError, TypeError):
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
    set_argv(argv)
    _note(f"resuming: uno-sim {' '.join(argv)}")
    from .app import app

    command = typer.main.get_command(app)
    try:
        return command.main(args=argv, prog_name="uno-sim", standalone_mode=False)
    except BadInput as exc:  # running.checkpoint.CheckpointError with `mismatch`
        if getattr(exc, "mismatch", None) is None:
            raise
        # its own command line no longer matches what it records: advising `uno-sim resume` again
        # would repeat this very failure
        raise InputError(f"the checkpoint file {str(manifest_path)!r} does not match its own command line "
                         f"({exc.mismatch}): it was edited or damaged, so the run cannot be resumed from it; "
                         "remove the folder and run the command again") from None
