"""The `uno-sim` command line (SPEC 8). Thin: parse, validate, call simulate/stats/charts, print.

Exit status: 0 done; 2 bad input (one `error: ...` line on stderr, nothing written);
1 unexpected failure. Every input is validated, and the output location checked, before
any game is played; files are written through a temporary file and a rename.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from . import rules as R
from .bots import Bot, BotError, describe, parse_bots
from .files import OutputError, OutputFolder, atomic_path, check_out_dir, check_out_file, made_dirs

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
RotateOpt = typer.Option(
    False,
    "--rotate-seats",
    help="Play each deal once per seat rotation (game i: deal i // players, bots shifted by "
    "i % players), so seat advantage does not bias per-bot win rates.",
)


def _stdout(wide: bool = False) -> Console:
    """Standard output; `wide` tables get 120 columns when not writing to a terminal."""
    console = Console(highlight=False)
    if wide and not console.is_terminal:
        console = Console(highlight=False, width=120)
    return console


def _load_rules(preset: str, overrides: Optional[list[str]], players: Optional[int]) -> R.Rules:
    if players is not None and not 2 <= players <= 10:
        raise InputError(f"--players must be between 2 and 10 (got {players})")
    return R.load_preset(preset, list(overrides or []), players)


def _check_count(option: str, value: Optional[int], minimum: int = 1) -> None:
    if value is not None and value < minimum:
        raise InputError(f"{option} must be at least {minimum} (got {value})")


def default_out_dir(preset: str, command: str = "run") -> Path:
    """reports/COMMAND-NAME-YYYYmmdd-HHMMSS/ (NAME e.g. the preset, or `v1-v2` for compare);
    a -2, -3, ... suffix when that folder exists already."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = REPORTS_DIR / f"{command}-{preset}-{stamp}"
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


def _pp(x: float) -> str:
    """A difference of rates in percentage points, signed."""
    return "n/a" if x != x else f"{100 * x:+.2f} pp"


def _signed(x: float) -> str:
    return "n/a" if x != x else f"{x:+,.2f}"


def _p(p: float) -> str:
    if p != p:
        return "n/a"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


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


OutOpt = typer.Option(
    None,
    "--out",
    help="Output folder (default: a new folder under reports/).",
    show_default=False,
    file_okay=True,
    dir_okay=True,
)
WorkersOpt = typer.Option(None, "--workers", help="Threads to use (default: all cores).", show_default=False)
PerGameOpt = typer.Option(False, "--per-game", help="Also write the per-game rows as CSV (SPEC 6 columns).")
ParquetOpt = typer.Option(False, "--parquet", help="Also write the per-game rows as Parquet (needs pyarrow).")


def _check_run_options(games: int, workers: Optional[int], seed: int, parquet: bool = False) -> None:
    _check_count("--games", games)
    _check_count("--workers", workers)
    _check_count("--seed", seed, minimum=0)
    if parquet:
        from .simulate import parquet_available

        if not parquet_available():
            raise InputError("--parquet needs pyarrow (pip install 'uno-sim[parquet]')")


def _note_workers(workers: Optional[int]) -> None:
    from .simulate import available_threads

    if workers is not None and workers > available_threads():
        Console(stderr=True, highlight=False).print(
            f"note: --workers {workers} capped at the {available_threads()} threads available"
        )


def _chart_variant(name: str, result) -> "object":
    from .charts import Variant

    return Variant(
        name=name,
        summary=result.summary(name),
        aggregate=result.aggregate,
        players=result.rules.players,
        bots=describe(result.bots),
        bot_labels=result.bot_labels,
        games=result.games,
    )


@app.command()
def run(
    preset: str = PresetArg,
    games: int = typer.Option(100_000, "--games", help="Number of games to simulate."),
    players: Optional[int] = PlayersOpt,
    bots: Optional[str] = BotsOpt,
    seed: int = SeedOpt,
    set_: Optional[list[str]] = SetOpt,
    workers: Optional[int] = WorkersOpt,
    out: Optional[Path] = OutOpt,
    per_game: bool = typer.Option(False, "--per-game", help="Also write OUT/games.csv (one row per game)."),
    parquet: bool = typer.Option(False, "--parquet", help="Also write OUT/games.parquet (needs pyarrow)."),
    rotate_seats: bool = RotateOpt,
) -> None:
    """Simulate a preset; print a summary; write OUT/summary.csv, OUT/distributions.csv and charts."""
    from . import charts, stats
    from .simulate import simulate

    # Validate everything before playing a single game.
    _check_run_options(games, workers, seed, parquet)
    rules = _load_rules(preset, set_, players)
    seat_bots = parse_bots(bots, rules.players)
    out_dir = out if out is not None else default_out_dir(preset)
    check_out_dir(out_dir)
    _note_workers(workers)

    summary_path = out_dir / "summary.csv"
    dist_path = out_dir / "distributions.csv"
    games_path = out_dir / "games.csv"
    parquet_path = out_dir / "games.parquet"
    chart_paths = charts.variant_charts([], out_dir, charts.stacking_on(rules))
    # All or nothing: every file goes to a temporary name, renamed only once all are written.
    with OutputFolder(out_dir) as files:
        tmp_games = files.path_for(games_path) if per_game else None
        tmp_parquet = files.path_for(parquet_path) if parquet else None
        tmp_summary = files.path_for(summary_path)
        tmp_dist = files.path_for(dist_path)
        tmp_charts = {name: files.path_for(path) for name, path in chart_paths.items()}
        result = simulate(rules, seat_bots, games, seed, workers=workers, per_game_path=tmp_games,
                          parquet_path=tmp_parquet, description=preset, rotate_seats=rotate_seats)
        summary = result.summary(preset)
        stats.write_csv(summary, tmp_summary)
        stats.write_csv(result.distributions(preset), tmp_dist)
        charts.write_variant_charts([_chart_variant(preset, result)], tmp_charts)

    _print_run(preset, rules, seat_bots, result, summary)
    console = _stdout()
    written = [summary_path, dist_path, *chart_paths.values()]
    written += [games_path] if per_game else []
    written += [parquet_path] if parquet else []
    for path in written:
        console.print(f"wrote {path}")
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
    rotated = getattr(result, "rotate_seats", False)
    for i, bot in enumerate(seat_bots):
        row = metric(summary, f"win_rate_seat_{i}")
        seats.add_row(str(i), "(rotated)" if rotated else bot.label, _pct(row["value"]),
                      f"{_pct(row['ci_low'])} - {_pct(row['ci_high'])}")
    console.print(seats)
    labels = list(dict.fromkeys(bot.label for bot in seat_bots))
    if rotated or len(labels) > 1:
        per_bot = Table(title="per bot" + (" (seats rotated)" if rotated else ""), header_style="bold")
        per_bot.add_column("bot")
        per_bot.add_column("seats", justify="right")
        per_bot.add_column("win rate", justify="right")
        per_bot.add_column("95% interval", justify="right")
        for label in labels:
            row = metric(summary, f"win_rate_bot_{label}")
            count = sum(bot.label == label for bot in seat_bots)
            per_bot.add_row(label, str(count), _pct(row["value"]), f"{_pct(row['ci_low'])} - {_pct(row['ci_high'])}")
        console.print(per_bot)

    table = Table(header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    shown = [
        ("first_player_edge", "first-player edge (seat 0 - 1/n)", _pp),
        ("no_winner_rate", "no winner", _pct),
        ("mean_turns", "mean turns", _num),
        ("median_turns", "median turns", _num),
        ("p90_turns", "90th percentile of turns", _num),
        ("mean_plays", "mean plays", _num),
        ("mean_draws", "mean draws", _num),
        ("mean_winner_points", "mean winner points", _num),
        ("mean_loser_points", "mean loser points", _num),
        ("reshuffle_rate", "games with a reshuffle", _pct),
        ("mean_max_pending", "mean largest penalty", _num),
        ("stack_rate", "games with a stacked answer", _pct),
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


# ---------------------------------------------------------------- compare


def _variant_names(presets: list[str]) -> list[str]:
    """Preset names, made unique with -2, -3, ... when a preset is given more than once."""
    seen: dict[str, int] = {}
    names = []
    for preset in presets:
        seen[preset] = seen.get(preset, 0) + 1
        names.append(preset if seen[preset] == 1 else f"{preset}-{seen[preset]}")
    return names


def _fmt_metric(kind: str, value: float) -> str:
    if kind == "rate":
        return _pct(value)
    if kind == "edge":
        return _pp(value)
    if kind in ("quantile", "max"):
        return "n/a" if value != value else f"{value:,.1f}".removesuffix(".0")
    return _num(value)


def _fmt_diff(kind: str, row) -> str:
    """The difference with its interval; rates in percentage points (no unit, see the header)."""
    scale = 100.0 if kind in ("rate", "edge") else 1.0

    def f(x: float) -> str:
        return "n/a" if x != x else f"{scale * x:+,.2f}"

    text = f(row["diff"])
    if row["diff_ci_low"] == row["diff_ci_low"]:
        text += f" [{f(row['diff_ci_low'])}, {f(row['diff_ci_high'])}]"
    return text


@app.command()
def compare(
    presets: list[str] = typer.Argument(
        ..., metavar="PRESET", help="Two or more presets; the first is the baseline.", show_default=False
    ),
    games: int = typer.Option(1_000_000, "--games", help="Games per variant."),
    players: Optional[int] = PlayersOpt,
    bots: Optional[str] = BotsOpt,
    seed: int = SeedOpt,
    set_: Optional[list[str]] = typer.Option(
        None, "--set", metavar="KNOB=VALUE", help="Override a rule knob in every variant (repeatable).",
        show_default=False,
    ),
    workers: Optional[int] = WorkersOpt,
    out: Optional[Path] = OutOpt,
    per_game: bool = typer.Option(False, "--per-game", help="Also write OUT/games-VARIANT.csv (one row per game)."),
    parquet: bool = typer.Option(False, "--parquet", help="Also write OUT/games-VARIANT.parquet (needs pyarrow)."),
    rotate_seats: bool = RotateOpt,
) -> None:
    """Simulate the same games under each preset; side-by-side table with differences to the
    first, 95% intervals and significance; OUT/compare.csv, OUT/differences.csv and charts."""
    import pandas as pd

    from . import charts, stats
    from .simulate import simulate

    _check_run_options(games, workers, seed, parquet)
    if len(presets) < 2:
        raise InputError(f"compare needs at least two presets (got {len(presets)}: {' '.join(presets)})")
    names = _variant_names(presets)
    all_rules = [_load_rules(preset, set_, players) for preset in presets]
    all_bots = [parse_bots(bots, rules.players) for rules in all_rules]
    out_dir = out if out is not None else default_out_dir("-".join(dict.fromkeys(presets)), "compare")
    check_out_dir(out_dir)
    _note_workers(workers)

    compare_path = out_dir / "compare.csv"
    diff_path = out_dir / "differences.csv"
    dist_path = out_dir / "distributions.csv"
    chart_paths = charts.variant_charts([], out_dir, any(charts.stacking_on(r) for r in all_rules))
    game_paths = []
    for name in names:
        if per_game:
            game_paths.append(out_dir / f"games-{name}.csv")
        if parquet:
            game_paths.append(out_dir / f"games-{name}.parquet")
    with OutputFolder(out_dir) as files:
        tmp = {path: files.path_for(path) for path in game_paths}
        tmp_compare = files.path_for(compare_path)
        tmp_diff = files.path_for(diff_path)
        tmp_dist = files.path_for(dist_path)
        tmp_charts = {name: files.path_for(path) for name, path in chart_paths.items()}
        results = []
        for name, rules, seat_bots in zip(names, all_rules, all_bots):
            results.append(simulate(
                rules, seat_bots, games, seed, workers=workers, description=name,
                per_game_path=tmp[out_dir / f"games-{name}.csv"] if per_game else None,
                parquet_path=tmp[out_dir / f"games-{name}.parquet"] if parquet else None,
                rotate_seats=rotate_seats,
            ))
        summary = pd.concat([r.summary(name) for name, r in zip(names, results)], ignore_index=True)
        measured = [(name, r.measures()) for name, r in zip(names, results)]
        diffs = stats.differences(measured)
        stats.write_csv(summary, tmp_compare)
        stats.write_csv(diffs, tmp_diff)
        stats.write_csv(pd.concat([r.distributions(name) for name, r in zip(names, results)], ignore_index=True),
                        tmp_dist)
        charts.write_variant_charts([_chart_variant(name, r) for name, r in zip(names, results)], tmp_charts)

    _print_compare(names, presets, all_rules, results, measured, diffs)
    console = _stdout()
    for path in [compare_path, diff_path, dist_path, *chart_paths.values(), *game_paths]:
        console.print(f"wrote {path}")


def _print_compare(names, presets, all_rules, results, measured, diffs) -> None:
    console = _stdout(wide=True)
    base_rules = all_rules[0].as_dict()
    for name, rules, result in zip(names, all_rules, results):
        changed = [f"{k}={_fmt_value(v)}" for k, v in rules.as_dict().items() if v != R.DEFAULTS[k]]
        console.print(
            f"[bold]{name}[/bold]: {rules.players} players, bots {describe(result.bots)}, "
            f"{result.games:,} games, seed {result.seed}; "
            f"rules differing from the official: {', '.join(changed) if changed else 'none'}"
        )
    if any(r.players != all_rules[0].players or r.hand_size != base_rules["hand_size"] for r in all_rules):
        console.print("note: player counts or hand sizes differ, so the variants do not share their deals")
    base = names[0]
    table = Table(title=f"{' vs '.join(names)}: differences to {base} with 95% intervals "
                        "(rates in percentage points); tests in docs/METRICS.md",
                  header_style="bold")
    table.add_column("metric", no_wrap=True)
    for name in names:
        table.add_column(name, justify="right")
    for name in names[1:]:
        table.add_column(f"{name} - {base}", justify="right", no_wrap=True)
        table.add_column("p", justify="right")
        table.add_column("", justify="left")
    by_variant = [{m.name: m for m in ms} for _, ms in measured]
    order = list(dict.fromkeys(m.name for _, ms in measured for m in ms))
    diff_rows = {(row["variant"], row["metric"]): row for _, row in diffs.iterrows()}
    for metric_name in order:
        kind = next(v[metric_name].kind for v in by_variant if metric_name in v)
        cells = [metric_name]
        for v in by_variant:
            cells.append(_fmt_metric(kind, v[metric_name].value) if metric_name in v else "")
        any_sig = False
        for name in names[1:]:
            row = diff_rows.get((name, metric_name))
            if row is None:
                cells += ["", "", ""]
                continue
            cells += [_fmt_diff(kind, row), _p(row["p_value"]), stats_stars(row["p_value"])]
            any_sig = any_sig or bool(row["significant"])
        table.add_row(*cells, style="bold" if any_sig else None)
    console.print(table)
    console.print("significance: * p < 0.05, ** p < 0.01, *** p < 0.001 (bold rows: p < 0.05); "
                  "no correction for the many metrics tested")
    seconds = sum(r.seconds for r in results)
    total = sum(r.games for r in results)
    console.print(f"{total:,} games in {seconds:.1f} s ({total / seconds if seconds else float('nan'):,.0f} games/s)")


def stats_stars(p: float) -> str:
    from .stats import stars

    return stars(p)


# ---------------------------------------------------------------- sweep


def parse_vary(text: str) -> tuple[str, list[str]]:
    """`KNOB=V1,V2,...` or `KNOB=A..B` (whole numbers, inclusive) -> (knob, value texts)."""
    knob, sep, spec = text.partition("=")
    knob, spec = knob.strip(), spec.strip()
    if not sep or not knob or not spec:
        raise InputError(f"bad --vary {text!r}: expected KNOB=V1,V2,... or KNOB=A..B")
    if knob not in R.DEFAULTS:
        raise InputError(f"bad --vary {text!r}: unknown knob {knob!r} (see `uno-sim show standard` for the list)")
    if ".." in spec:
        first, _, last = spec.partition("..")
        try:
            a, b = int(first), int(last)
        except ValueError:
            raise InputError(f"bad --vary {text!r}: a range A..B needs two whole numbers") from None
        if R.knob_type(knob) is not int:
            raise InputError(f"bad --vary {text!r}: knob {knob!r} is not a whole number; list the values")
        if a > b:
            raise InputError(f"bad --vary {text!r}: the range {a}..{b} is empty")
        if b - a >= 100:
            raise InputError(f"bad --vary {text!r}: at most 100 values")
        values = [str(v) for v in range(a, b + 1)]
    else:
        values = [v.strip() for v in spec.split(",")]
        if any(not v for v in values):
            raise InputError(f"bad --vary {text!r}: empty value in the list")
    typed = [R.parse_value(knob, v) for v in values]
    if len(set(typed)) != len(typed):
        raise InputError(f"bad --vary {text!r}: a value is listed twice")
    return knob, values


@app.command()
def sweep(
    preset: str = PresetArg,
    vary: str = typer.Option(
        ..., "--vary", metavar="KNOB=V1,V2,...|KNOB=A..B",
        help="The knob to vary and its values, e.g. players=2..10 or jump_in=false,true.", show_default=False,
    ),
    games: int = typer.Option(100_000, "--games", help="Games per value."),
    players: Optional[int] = PlayersOpt,
    bots: Optional[str] = BotsOpt,
    seed: int = SeedOpt,
    set_: Optional[list[str]] = SetOpt,
    workers: Optional[int] = WorkersOpt,
    out: Optional[Path] = OutOpt,
) -> None:
    """Simulate a preset once per value of one knob; table, OUT/sweep.csv and OUT/sweep.png."""
    import pandas as pd

    from . import charts, stats
    from .simulate import simulate

    _check_run_options(games, workers, seed)
    knob, texts = parse_vary(vary)
    overrides = R.parse_assignments(list(set_ or []))
    if knob in overrides:
        raise InputError(f"--vary {knob} conflicts with --set {knob}=...")
    if knob == "players" and players is not None:
        raise InputError("--vary players conflicts with --players")
    all_rules = [_load_rules(preset, [f"{k}={v}" for k, v in (overrides | {knob: text}).items()], players)
                 for text in texts]
    all_bots = [parse_bots(bots, rules.players) for rules in all_rules]
    settings = [_setting(getattr(rules, knob)) for rules in all_rules]
    out_dir = out if out is not None else default_out_dir(f"{preset}-{knob}", "sweep")
    check_out_dir(out_dir)
    _note_workers(workers)

    sweep_path = out_dir / "sweep.csv"
    chart_path = out_dir / "sweep.png"
    with OutputFolder(out_dir) as files:
        tmp_sweep = files.path_for(sweep_path)
        tmp_chart = files.path_for(chart_path)
        frames, results = [], []
        for setting, rules, seat_bots in zip(settings, all_rules, all_bots):
            result = simulate(rules, seat_bots, games, seed, workers=workers,
                              description=f"{knob}={_fmt_value(setting)}")
            frame = result.summary(preset)
            frame.insert(1, knob, setting)
            frames.append(frame)
            results.append(result)
        table = pd.concat(frames, ignore_index=True)
        stats.write_csv(table, tmp_sweep)
        if all(len({bot.label for bot in b}) == 1 for b in all_bots) and len({b[0].label for b in all_bots}) == 1:
            bots_text = f"{all_bots[0][0].label} in every seat"
        else:
            bots_text = "; ".join(dict.fromkeys(describe(b) for b in all_bots))
        charts.sweep(table, knob, tmp_chart, preset, bots_text, games, [r.players for r in all_rules])

    _print_sweep(preset, knob, settings, all_rules, table, results)
    console = _stdout()
    console.print(f"wrote {sweep_path}")
    console.print(f"wrote {chart_path}")


def _setting(value):
    """A knob value as written in sweep.csv: numbers as numbers, booleans as true/false."""
    return _fmt_value(value) if isinstance(value, bool) else value


def _print_sweep(preset, knob, settings, all_rules, table, results) -> None:
    console = _stdout(wide=True)
    out = Table(title=f"{preset}: sweep over {knob}, {results[0].games:,} games per value, seed {results[0].seed}",
                header_style="bold")
    for title in (knob, "players" if knob != "players" else "1/n", "seat 0 win rate [95%]", "first-player edge", "no winner",
                  "mean turns [95%]", "mean winner points"):
        out.add_column(title, justify="right")
    for setting, rules in zip(settings, all_rules):
        rows = table.loc[table[knob] == setting].set_index("metric")

        def get(name):
            return rows.loc[name]

        w = get("win_rate_seat_0")
        t = get("mean_turns")
        out.add_row(
            _fmt_value(setting), str(rules.players) if knob != "players" else _pct(1.0 / rules.players),
            f"{_pct(w['value'])} [{_pct(w['ci_low'])}, {_pct(w['ci_high'])}]",
            _pp(get("first_player_edge")["value"]),
            _pct(get("no_winner_rate")["value"]),
            f"{_num(t['value'])} [{_num(t['ci_low'])}, {_num(t['ci_high'])}]",
            _num(get("mean_winner_points")["value"]),
        )
    console.print(out)
    seconds = sum(r.seconds for r in results)
    total = sum(r.games for r in results)
    console.print(f"{total:,} games in {seconds:.1f} s")



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
    rotate_seats: bool = RotateOpt,
) -> None:
    """Trace games as JSON Lines (SPEC 7): to --out FILE, or standard output."""
    _check_count("--games", games)
    _check_count("--seed", seed, minimum=0)
    rules = _load_rules(preset, set_, players)
    seat_bots = parse_bots(bots, rules.players)
    if out is not None:
        check_out_file(out)

    from .trace import trace_events

    events = trace_events(rules, seat_bots, seed, games, rotate_seats=rotate_seats)
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


from . import cli_bench, cli_match  # noqa: E402,F401  (register the `bench` and `match` commands)


def main() -> None:
    """Console-script entry point."""
    sys.exit(run_cli())


if __name__ == "__main__":  # pragma: no cover
    main()
