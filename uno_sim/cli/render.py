"""Terminal output of the commands: number formats and the rich tables of each result."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..bots import describe
from ..knobs import DEFAULTS


def stdout(wide: bool = False) -> Console:
    """Standard output; `wide` tables get 120 columns when not writing to a terminal."""
    console = Console(highlight=False)
    if wide and not console.is_terminal:
        console = Console(highlight=False, width=120)
    return console


def fmt_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def pct(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.2f}%"


def num(x: float) -> str:
    return "n/a" if x != x else f"{x:,.2f}"


def pp(x: float) -> str:
    """A difference of rates in percentage points, signed."""
    return "n/a" if x != x else f"{100 * x:+.2f} pp"


def signed(x: float) -> str:
    return "n/a" if x != x else f"{x:+,.2f}"


def pvalue(p: float) -> str:
    if p != p:
        return "n/a"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def print_run(run) -> None:
    """The seat (and per-bot) win rates and the headline metrics of an api.Run."""
    from ..stats import metric

    preset, rules, seat_bots, result, summary = run.name, run.rules, run.bots, run.result, run.summary
    console = stdout()
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
        seats.add_row(str(i), "(rotated)" if rotated else bot.label, pct(row["value"]),
                      f"{pct(row['ci_low'])} - {pct(row['ci_high'])}")
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
            per_bot.add_row(label, str(count), pct(row["value"]), f"{pct(row['ci_low'])} - {pct(row['ci_high'])}")
        console.print(per_bot)

    table = Table(header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    shown = [
        ("first_player_edge", "first-player edge (seat 0 - 1/n)", pp),
        ("no_winner_rate", "no winner", pct),
        ("mean_turns", "mean turns", num),
        ("median_turns", "median turns", num),
        ("p90_turns", "90th percentile of turns", num),
        ("mean_plays", "mean plays", num),
        ("mean_draws", "mean draws", num),
        ("mean_winner_points", "mean winner points", num),
        ("mean_loser_points", "mean loser points", num),
        ("reshuffle_rate", "games with a reshuffle", pct),
        ("mean_max_pending", "mean largest penalty", num),
        ("stack_rate", "games with a stacked answer", pct),
    ]
    for name, label, fmt in shown:
        row = metric(summary, name)
        interval = "" if row["ci_low"] != row["ci_low"] else f"{fmt(row['ci_low'])} - {fmt(row['ci_high'])}"
        table.add_row(label, fmt(row["value"]), interval)
    console.print(table)
    console.print(timing(result.games, result.resumed, result.seconds, result.where))


def timing(total: int, resumed: int, seconds: float, where: str, what: str = "games") -> str:
    """`N games in S s (R games/s, on WHERE)`, minus those taken from a checkpoint."""
    played = total - resumed
    if not played:
        return f"all {total:,} {what} taken from the checkpoint (none played)"
    rate = f"{played / seconds:,.0f} {what}/s" if seconds > 0 else "-"
    text = f"{played:,} {what} played in {seconds:.1f} s ({rate}, {where})"
    if resumed:
        text += f"; {resumed:,} more taken from the checkpoint"
    return text if resumed else text.replace(" played in", " in", 1)


def fmt_metric(kind: str, value: float) -> str:
    if kind == "rate":
        return pct(value)
    if kind == "edge":
        return pp(value)
    if kind in ("quantile", "max"):
        return "n/a" if value != value else f"{value:,.1f}".removesuffix(".0")
    return num(value)


def fmt_diff(kind: str, row) -> str:
    """The difference with its interval; rates in percentage points (no unit, see the header)."""
    scale = 100.0 if kind in ("rate", "edge") else 1.0

    def f(x: float) -> str:
        return "n/a" if x != x else f"{scale * x:+,.2f}"

    text = f(row["diff"])
    if row["diff_ci_low"] == row["diff_ci_low"]:
        text += f" [{f(row['diff_ci_low'])}, {f(row['diff_ci_high'])}]"
    return text


def print_compare(comparison) -> None:
    """Every metric side by side, with each variant's difference to the first (api.Comparison)."""
    from ..stats import stars

    names = comparison.names
    all_rules = [r.rules for r in comparison.runs]
    results = [r.result for r in comparison.runs]
    measured = [(r.name, r.measures()) for r in comparison.runs]
    diffs = comparison.differences
    console = stdout(wide=True)
    base_rules = all_rules[0].as_dict()
    for name, rules, result in zip(names, all_rules, results):
        changed = [f"{k}={fmt_value(v)}" for k, v in rules.as_dict().items() if v != DEFAULTS[k]]
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
            cells.append(fmt_metric(kind, v[metric_name].value) if metric_name in v else "")
        any_sig = False
        for name in names[1:]:
            row = diff_rows.get((name, metric_name))
            if row is None:
                cells += ["", "", ""]
                continue
            cells += [fmt_diff(kind, row), pvalue(row["p_value"]), stars(row["p_value"])]
            any_sig = any_sig or bool(row["significant"])
        table.add_row(*cells, style="bold" if any_sig else None)
    console.print(table)
    console.print("significance: * p < 0.05, ** p < 0.01, *** p < 0.001 (bold rows: p < 0.05); "
                  "no correction for the many metrics tested")
    console.print(timing(sum(r.games for r in results), sum(r.resumed for r in results),
                         sum(r.seconds for r in results), results[0].where))


def print_sweep(sweep) -> None:
    """One line per grid point (api.Sweep): seat 0's win rate, edge, no-winner rate, turns, points."""
    console = stdout(wide=True)
    first = sweep.runs[0].result
    knobs = sweep.knobs
    out = Table(title=f"{sweep.preset}: sweep over {', '.join(knobs)}, {first.games:,} games per point, seed {first.seed}",
                header_style="bold")
    for title in (*knobs, "players" if "players" not in knobs else "1/n", "seat 0 win rate [95%]",
                  "first-player edge", "no winner", "mean turns [95%]", "mean winner points"):
        out.add_column(title, justify="right")
    for point, run in zip(sweep.points, sweep.runs):
        rows = run.summary.set_index("metric")
        w = rows.loc["win_rate_seat_0"]
        t = rows.loc["mean_turns"]
        out.add_row(
            *(fmt_value(point[k]) for k in knobs),
            str(run.rules.players) if "players" not in knobs else pct(1.0 / run.rules.players),
            f"{pct(w['value'])} [{pct(w['ci_low'])}, {pct(w['ci_high'])}]",
            pp(rows.loc["first_player_edge"]["value"]),
            pct(rows.loc["no_winner_rate"]["value"]),
            f"{num(t['value'])} [{num(t['ci_low'])}, {num(t['ci_high'])}]",
            num(rows.loc["mean_winner_points"]["value"]),
        )
    console.print(out)
    results = [r.result for r in sweep.runs]
    console.print(timing(sum(r.games for r in results), sum(r.resumed for r in results),
                         sum(r.seconds for r in results), results[0].where))


def print_ranked(sweep) -> None:
    """The `top` fair grid points, by the ranking metric (api.Sweep.ranked)."""
    console = stdout(wide=True)
    ranked = sweep.ranked
    fair = ranked[ranked["fair"] == "true"]
    by = sweep.rank_by
    which = "shortest" if by == "mean_turns" else f"lowest {by}"
    shown = fair.head(sweep.top)
    head = f"The {which} fair grid point" if len(shown) == 1 else f"The {len(shown)} {which} fair grid points"
    title = (f"{head} of {len(ranked)} ({len(fair)} fair: the first-player edge's 95% interval within "
             f"+-{sweep.fair_within:g} pp); every point in ranked.csv")
    table = Table(title=title, header_style="bold")
    fmt_by = pp if by.endswith("_edge") else pct if "rate" in by else num
    for title_ in ("rank", *sweep.knobs, f"{by} [95%]", "first-player edge [95%]"):
        table.add_column(title_, justify="right")
    for _, row in shown.iterrows():
        table.add_row(
            str(row["rank"]), *(fmt_value(row[k]) for k in sweep.knobs),
            f"{fmt_by(row[by])} [{fmt_by(row[f'{by}_ci_low'])}, {fmt_by(row[f'{by}_ci_high'])}]",
            f"{pp(row['first_player_edge'])} [{pp(row['first_player_edge_ci_low'])}, "
            f"{pp(row['first_player_edge_ci_high'])}]",
        )
    console.print(table)
    if len(fair) == 0:
        console.print(f"no grid point is fair within +-{sweep.fair_within:g} pp at this many games "
                      "(more --games narrow the intervals; --fair-within widens the band)")


def print_match(match_run) -> None:
    """Every match metric of an api.MatchRun."""
    from ..matches import match_length

    preset, rules, seat_bots = match_run.name, match_run.rules, match_run.bots
    result, summary = match_run.result, match_run.summary
    console = stdout()
    title = (
        f"{preset}: matches {match_length(rules)} ({rules.match_scoring}, next dealer {rules.next_dealer}), "
        f"{rules.players} players, bots {describe(seat_bots)}, {result.matches:,} matches, seed {result.seed}"
    )
    if result.rotate_seats:
        title += f", seats rotated every {rules.players} rounds"
    table = Table(title=title, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    for _, row in summary.iterrows():
        name = row["metric"]
        fmt = pct if "rate" in name else num
        interval = "" if row["ci_low"] != row["ci_low"] else f"{fmt(row['ci_low'])} - {fmt(row['ci_high'])}"
        label = name
        if name.startswith(("match_win_rate_player_", "match_loser_rate_player_", "mean_chips_player_",
                            "sd_chips_player_")):
            label += f" ({seat_bots[int(name.rsplit('_', 1)[1])].label})"
        table.add_row(label, fmt(row["value"]), interval)
    console.print(table)
    console.print(timing(result.matches, result.resumed, result.seconds, result.where, "matches"))
