"""The Typer app: every command registered once, and the one error path.

Exit status: 0 done; 2 bad input (one `error: ...` line on stderr, nothing written); 1 a run
that could not finish (a cluster failure: one line, with how to resume when a checkpoint was
kept) or an unexpected failure (one line; UNO_SIM_DEBUG=1 prints the traceback); 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM). Standard output closed by its reader (`| head`) stops a
command quietly with exit 0 (its folder is written before its tables are printed); any other
failure to write (a full disk, a closed descriptor) is one line naming what could not be
written, exit 2 for an --out file, 1 otherwise. Commands that describe rules (presets, show, rules,
--help) import nothing compiled.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from ..api import signals
from ..game.errors import BadInput, RunFailure
from . import bench, compare, decks, design, match, presets, resume, rules, run, session, show, sweep, tournament, trace

try:  # typer >= 0.16 vendors click as typer._click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer on real click
    from click.exceptions import ClickException, NoArgsIsHelpError

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1
EXIT_INTERRUPTED = 130  # SIGTERM: 143 (signals.EXIT_STATUS)

app = typer.Typer(
    name="uno-sim",
    help="Monte Carlo simulator for UNO and its rule variants. Presets are built-in rule sets; "
    "wherever a preset is asked for, a path to a TOML rule file of your own works too.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for command in (presets.presets, show.show, rules.rules, decks.decks, run.run, compare.compare, sweep.sweep, design.design, trace.trace,
                match.match, tournament.tournament, resume.resume, bench.bench):
    app.command()(command)


def _run_command(argv: Optional[list[str]]):
    """Run one command line (None: sys.argv[1:]), its errors raised: run_cli's, and `resume`'s
    (session.run_again) inside it."""
    return typer.main.get_command(app).main(args=argv, prog_name="uno-sim", standalone_mode=False)


session.set_runner(_run_command)


def _version(value: bool) -> None:
    if value:
        from ..game.version import VERSION as __version__

        typer.echo(f"uno-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Monte Carlo simulator for UNO and its rule variants."""


def _error(message: str) -> None:
    line = " ".join(str(message).split())  # exactly one line
    sys.stderr.write(f"error: {line}\n")
    sys.stderr.flush()


def _reader_gone() -> int:
    """Standard output's reader went away (`| head -1`): it has read all it wanted. Exit 0,
    quietly, as `trace` does, so a `set -o pipefail` script goes on; a command's folder is
    written before its tables are printed, so nothing is lost."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def run_cli(argv: Optional[list[str]] = None) -> int:
    """Run the app on argv (default sys.argv[1:]) and return the exit status."""
    session.set_argv(sys.argv[1:] if argv is None else argv)
    try:
        with signals.installed():
            result = _run_command(argv)
            if sys.stdout is not None:
                sys.stdout.flush()  # here, so that a failing flush is reported like any other
    except BadInput as exc:
        _error(str(exc))
        return EXIT_BAD_INPUT
    except ClickException as exc:
        if isinstance(exc, NoArgsIsHelpError):
            sys.stdout.write(exc.format_message() + "\n")
            return 0
        _error(exc.format_message())
        return EXIT_BAD_INPUT if exc.exit_code == 2 else EXIT_FAILURE
    except signals.Interrupted as exc:
        _error(exc.message())
        return exc.exit_status
    except RunFailure as exc:
        _error(str(exc))
        return EXIT_FAILURE
    except BrokenPipeError:  # stdout's reader went away (`| head`): it has read all it wants
        return _reader_gone()
    except SystemExit as exc:  # click and rich turn a broken pipe into exit 1 themselves
        if exc.code == 1 and isinstance(exc.__context__, BrokenPipeError):
            return _reader_gone()
        raise
    except OSError as exc:  # not a bug: the system refused (a full disk, a closed descriptor, ...)
        where = exc.filename
        if where is None and sys.stdout is not None:
            try:  # was it standard output's own failure? then drop what it still buffers
                sys.stdout.flush()
            except OSError:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                where = "standard output"
        _error(f"cannot write to {where}: {exc.strerror or exc}" if where == "standard output"
               else f"{exc.strerror or exc}{': ' + str(where) if where else ''}")
        return EXIT_FAILURE
    except (KeyboardInterrupt, typer.Abort):
        _error("interrupted (Ctrl-C); nothing was written")
        return EXIT_INTERRUPTED
    except Exception as exc:  # unexpected: one line, no traceback unless asked for
        stop = signals.stopped()
        if stop is not None:  # a signal surfaced inside a compiled call
            _error(stop.message())
            return stop.exit_status
        if os.environ.get("UNO_SIM_DEBUG"):
            import traceback

            traceback.print_exc()
        _error(f"unexpected failure: {type(exc).__name__}: {exc} (set UNO_SIM_DEBUG=1 for a traceback)")
        return EXIT_FAILURE
    return result if isinstance(result, int) else 0


def main() -> None:
    """Console-script entry point."""
    leave(run_cli())


def leave(status: int) -> None:
    """Exit with `status` without the interpreter's teardown.

    By now every file the command wrote is complete and closed. The interpreter would next
    free every module's objects one by one (numba's compiled code, pandas, matplotlib), about
    0.3 s of a 1.5 s command, all of which the operating system reclaims at once. So: flush
    standard output and error, run the exit handlers as usual (a cluster's clean-up, for
    one), and end the process."""
    import atexit

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # its reader went away: nothing more to deliver
            pass
    atexit._run_exitfuncs()  # what a normal exit runs; CPython's, present since 3.0
    os._exit(status)
