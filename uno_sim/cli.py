"""The `uno-sim` command line (SPEC 8). Thin: parse, validate, call simulate/stats/charts, print.

Exit status: 0 done; 2 bad input (one `error: ...` line on stderr, nothing written);
1 unexpected failure. Every input is validated, and the output location checked, before
any game is played; files are written through a temporary file and a rename.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from . import rules as R
from .bots import Bot, BotError, describe, parse_bots
from .files import OutputError, atomic_path, check_out_dir, check_out_file, made_dirs

try:  # typer >= 0.16 vendors click as typer._click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer on real click
    from click.exceptions import ClickException

try:
    from typer._click.exceptions import NoArgsIsHelpError
except ImportError:  # pragma: no cover
    NoArgsIsHelpError = None  # type: ignore[assignment]

REPORTS_DIR = Path("reports")
EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1

app = typer.Typer(
    name="uno-sim",
    help="Monte Carlo simulator for UNO and its rule variants.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class InputError(ValueError):
    """Bad user input: reported as one `error:` line with exit status 2."""


# ---------------------------------------------------------------- shared options

PresetArg = typer.Argument(..., metavar="PRESET", help="Preset name (see `uno-sim presets`).", show_default=False)
PlayersOpt = typer.Option(None, "--players", help="Number of players (2-10); default from the preset.", show_default=False)
SetOpt = typer.Option(
    None, "--set", metavar="KNOB=VALUE", help="Override a rule knob (repeatable).", show_default=False
)
BotsOpt = typer.Option(
    None,
    "--bots",
    metavar="B1,B2,...",
    help="One bot per seat, or one for every seat; parameters after colons, "
    "e.g. random:forget_uno=0.3. Default: random.",
    show_default=False,
)
SeedOpt = typer.Option(0, "--seed", help="Random seed (>= 0); the same seed gives the same numbers.")


def _stdout() -> Console:
    return Console(highlight=False)


def _load_rules(preset: str, overrides: Optional[list[str]], players: Optional[int]) -> R.Rules:
    if players is not None and not 2 <= players <= 10:
        raise InputError(f"--players must be between 2 and 10 (got {players})")
    return R.load_preset(preset, list(overrides or []), players)


def _check_count(option: str, value: Optional[int], minimum: int = 1) -> None:
    if value is not None and value < minimum:
        raise InputError(f"{option} must be at least {minimum} (got {value})")


def default_out_dir(preset: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = REPORTS_DIR / f"run-{preset}-{stamp}"
    candidate, k = base, 2
    while candidate.exists():
        candidate = base.with_name(f"{base.name}-{k}")
        k += 1
    return candidate


def _fmt_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _pct(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.2f}%"


def _num(x: float) -> str:
    return "n/a" if x != x else f"{x:,.2f}"


# ---------------------------------------------------------------- commands


@app.command()
def presets() -> None:
    """List the presets (scenarios/*.toml), one line each with its description."""
    import tomllib

    names = R.preset_names()
    width = max((len(n) for n in names), default=0)
    for name in names:
        try:
            data = tomllib.loads((R.SCENARIOS_DIR / f"{name}.toml").read_text(encoding="utf-8"))
            text = str(data.get("description", ""))
            if data.get("extends"):
                text += f" (extends {data['extends']})"
        except (OSError, tomllib.TOMLDecodeError) as exc:
            text = f"(unreadable: {' '.join(str(exc).split())})"
        typer.echo(f"{name:<{width}}  {text}")


@app.command()
def show(
    preset: str = PresetArg,
    players: Optional[int] = PlayersOpt,
    set_: Optional[list[str]] = SetOpt,
) -> None:
    """Every knob of a preset with its value; `*` marks values that differ from the defaults."""
    rules = _load_rules(preset, set_, players)
    description = R.preset_description(preset)
    table = Table(title=f"{preset}: {description}" if description else preset, header_style="bold")
    table.add_column("knob")
    table.add_column("value")
    table.add_column("default")
    table.add_column("", justify="center")
    changed = 0
    for name, value in rules.as_dict().items():
        default = R.DEFAULTS[name]
        differs = value != default
        changed += differs
        style = "bold yellow" if differs else None
        table.add_row(name, _fmt_value(value), _fmt_value(default), "*" if differs else "", style=style)
    console = _stdout()
    console.print(table)
    console.print(f"{changed} knob(s) differ from the official defaults (marked *).")


@app.command()
def run(
    preset: str = PresetArg,
    games: int = typer.Option(100_000, "--games", help="Number of games to simulate."),
    players: Optional[int] = PlayersOpt,
    bots: Optional[str] = BotsOpt,
    seed: int = SeedOpt,
    set_: Optional[list[str]] = SetOpt,
    workers: Optional[int] = typer.Option(
        None, "--workers", help="Threads to use (default: all cores).", show_default=False
    ),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Output folder (default: reports/run-PRESET-YYYYmmdd-HHMMSS/).",
        show_default=False,
        file_okay=True,
        dir_okay=True,
    ),
    per_game: bool = typer.Option(False, "--per-game", help="Also write OUT/games.csv (one row per game)."),
) -> None:
    """Simulate a preset; print a summary; write OUT/summary.csv and OUT/win_rates.png."""
    from . import charts, stats
    from .simulate import available_threads, simulate

    # Validate everything before playing a single game.
    _check_count("--games", games)
    _check_count("--workers", workers)
    _check_count("--seed", seed, minimum=0)
    rules = _load_rules(preset, set_, players)
    seat_bots = parse_bots(bots, rules.players)
    out_dir = out if out is not None else default_out_dir(preset)
    check_out_dir(out_dir)

    err = Console(stderr=True, highlight=False)
    if workers is not None and workers > available_threads():
        err.print(f"note: --workers {workers} capped at the {available_threads()} threads available")

    summary_path = out_dir / "summary.csv"
    chart_path = out_dir / "win_rates.png"
    games_path = out_dir / "games.csv"
    # All or nothing: every file goes to a temporary name, renamed only once all are written.
    with ExitStack() as stack:
        stack.enter_context(made_dirs(out_dir))
        tmp_games = stack.enter_context(atomic_path(games_path)) if per_game else None
        tmp_summary = stack.enter_context(atomic_path(summary_path))
        tmp_chart = stack.enter_context(atomic_path(chart_path))
        result = simulate(rules, seat_bots, games, seed, workers=workers, per_game_path=tmp_games, description=preset)
        summary = result.summary(preset)
        stats.write_csv(summary, tmp_summary)
        charts.seat_win_rates(summary, tmp_chart, preset, rules.players, describe(seat_bots), games)

    _print_run(preset, rules, seat_bots, result, summary)
    console = _stdout()
    console.print(f"wrote {summary_path}")
    console.print(f"wrote {chart_path}")
    if per_game:
        console.print(f"wrote {games_path}")


def _print_run(preset: str, rules: R.Rules, seat_bots: list[Bot], result, summary) -> None:
    from .stats import metric

    console = _stdout()
    title = (
        f"{preset}: {rules.players} players, bots {describe(seat_bots)}, "
        f"{result.games:,} games, seed {result.seed}"
    )
    seats = Table(title=title, header_style="bold")
    seats.add_column("seat", justify="right")
    seats.add_column("bot")
    seats.add_column("win rate", justify="right")
    seats.add_column("95% interval", justify="right")
    for i, bot in enumerate(seat_bots):
        row = metric(summary, f"win_rate_seat_{i}")
        seats.add_row(str(i), bot.label, _pct(row["value"]), f"{_pct(row['ci_low'])} - {_pct(row['ci_high'])}")
    console.print(seats)

    table = Table(header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    shown = [
        ("no_winner_rate", "no winner", _pct),
        ("mean_turns", "mean turns", _num),
        ("median_turns", "median turns", _num),
        ("mean_plays", "mean plays", _num),
        ("mean_draws", "mean draws", _num),
        ("mean_winner_points", "mean winner points", _num),
        ("reshuffle_rate", "games with a reshuffle", _pct),
        ("mean_max_pending", "mean largest penalty", _num),
    ]
    for name, label, fmt in shown:
        row = metric(summary, name)
        interval = "" if row["ci_low"] != row["ci_low"] else f"{fmt(row['ci_low'])} - {fmt(row['ci_high'])}"
        table.add_row(label, fmt(row["value"]), interval)
    console.print(table)
    console.print(
        f"{result.games:,} games in {result.seconds:.1f} s "
        f"({result.games_per_second:,.0f} games/s, {result.workers} thread(s))"
    )


@app.command()
def trace(
    preset: str = PresetArg,
    games: int = typer.Option(1, "--games", help="Number of games to trace."),
    seed: int = SeedOpt,
    players: Optional[int] = PlayersOpt,
    set_: Optional[list[str]] = SetOpt,
    bots: Optional[str] = BotsOpt,
    out: Optional[Path] = typer.Option(
        None, "--out", help="Output file (default: standard output).", show_default=False
    ),
) -> None:
    """Trace games as JSON Lines (SPEC 7): to --out FILE, or standard output."""
    _check_count("--games", games)
    _check_count("--seed", seed, minimum=0)
    rules = _load_rules(preset, set_, players)
    seat_bots = parse_bots(bots, rules.players)
    if out is not None:
        check_out_file(out)

    from .trace import trace_events

    events = trace_events(rules, seat_bots, seed, games)
    if out is None:
        write = sys.stdout.write
        for event in events:
            write(json.dumps(event, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        return
    with made_dirs(out.parent), atomic_path(out) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            for event in events:
                fh.write(json.dumps(event, separators=(",", ":")) + "\n")
    Console(stderr=True, highlight=False).print(f"wrote {out}")


# ---------------------------------------------------------------- entry point


def _error(message: str) -> None:
    line = " ".join(str(message).split())  # exactly one line
    sys.stderr.write(f"error: {line}\n")
    sys.stderr.flush()


def run_cli(argv: Optional[list[str]] = None) -> int:
    """Run the app on argv (default sys.argv[1:]) and return the exit status."""
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="uno-sim", standalone_mode=False)
    except (InputError, R.RulesError, BotError, OutputError) as exc:
        _error(str(exc))
        return EXIT_BAD_INPUT
    except ClickException as exc:
        if NoArgsIsHelpError is not None and isinstance(exc, NoArgsIsHelpError):
            sys.stdout.write(exc.format_message() + "\n")
            return 0
        _error(exc.format_message())
        return EXIT_BAD_INPUT if exc.exit_code == 2 else EXIT_FAILURE
    except (KeyboardInterrupt, typer.Abort):
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `uno-sim trace ... | head`): stop quietly. Point stdout
        # at /dev/null so the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILURE
    except Exception as exc:  # unexpected: one line, no traceback unless asked for
        if os.environ.get("UNO_SIM_DEBUG"):
            import traceback

            traceback.print_exc()
        _error(f"unexpected failure: {type(exc).__name__}: {exc} (set UNO_SIM_DEBUG=1 for a traceback)")
        return EXIT_FAILURE
    return result if isinstance(result, int) else 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run_cli())


if __name__ == "__main__":  # pragma: no cover
    main()
