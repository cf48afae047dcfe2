"""The tables of each result as plain models (title, columns, rows of text), drawn by the
terminal (cli/render.py, rich) and by the HTML report (report.py) alike, so both show the
same figures in the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.bots import describe
from .headline import decimals
from ..game.knobs import DEFAULTS


@dataclass
class Table:
    title: str
    columns: list[tuple[str, str]]  # (header, "left" | "right")
    rows: list[list[str]] = field(default_factory=list)
    bold: list[bool] = field(default_factory=list)  # per row
    intro: list[str] = field(default_factory=list)  # lines before the table
    notes: list[str] = field(default_factory=list)  # lines after it

    def add(self, *cells: str, bold: bool = False) -> None:
        self.rows.append(list(cells))
        self.bold.append(bold)


# ---------------------------------------------------------------- number formats


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
    digits = decimals(scale * row["diff"])  # a small nonzero difference is not shown as +0.00

    def f(x: float) -> str:
        return "n/a" if x != x else f"{scale * x:+,.{digits}f}"

    text = f(row["diff"])
    if row["diff_ci_low"] == row["diff_ci_low"]:
        text += f" [{f(row['diff_ci_low'])}, {f(row['diff_ci_high'])}]"
    return text


def fmt_diff_short(kind: str, row) -> str:
    """The difference and half its 95% interval's width, `+1.23±0.45` (rates in percentage
    points): the interval abbreviated for tables with many variants."""
    scale = 100.0 if kind in ("rate", "edge") else 1.0
    diff = row["diff"]
    if diff != diff:
        return "n/a"
    digits = decimals(scale * diff)
    text = f"{scale * diff:+,.{digits}f}"
    if row["diff_ci_low"] == row["diff_ci_low"]:
        text += f"±{scale * (row['diff_ci_high'] - row['diff_ci_low']) / 2:,.{digits}f}"
    return text


def rules_changed(rules) -> list[str]:
    """`knob=value` for every knob away from the official default."""
    return [f"{k}={fmt_value(v)}" for k, v in rules.as_dict().items() if v != DEFAULTS[k]]


def deck_table(deck, zero_points: int = 0, title: str = "") -> Table:
    """A deck's kinds (decks.Deck, or one side of a two-sided deck, in its colours): text,
    colours, copies, cards, effects and points under `zero_points`; the kinds and cards in all
    as its note."""
    table = Table(title, [("kind", "left"), ("colours", "left"), ("copies", "right"), ("cards", "right"),
                          ("effects", "left"), ("points", "right")])
    for kind in deck.kinds:
        points = str(kind.points_for(zero_points))
        if kind.points is None and kind.number == 0:
            points += " (zero_points)"
        table.add(kind.text, " ".join(deck.colors) if kind.colored else "wild",
                  f"{kind.copies} each" if kind.colored else str(kind.copies), str(kind.cards), kind.describe(), points)
    table.notes.append(f"{len(deck.kinds)} kinds, {deck.size} cards")
    return table


def interval(fmt, low: float, high: float) -> str:
    return "" if low != low else f"{fmt(low)} - {fmt(high)}"


# ---------------------------------------------------------------- run


RUN_METRICS = [
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


def run_tables(run) -> list[Table]:
    """Seat win rates, per-bot win rates (several bots or rotated seats), the main metrics."""
    from ..stats import metric

    rules, seat_bots, result, summary = run.rules, run.bots, run.result, run.summary
    title = f"{run.name}: {rules.players} players, bots {describe(seat_bots)}, {result.games:,} games, seed {result.seed}"
    seats = Table(title, [("seat", "right"), ("bot", "left"), ("win rate", "right"), ("95% interval", "right")])
    rotated = getattr(result, "rotate_seats", False)
    for i, bot in enumerate(seat_bots):
        row = metric(summary, f"win_rate_seat_{i}")
        seats.add(str(i), "(rotated)" if rotated else bot.label, pct(row["value"]),
                  interval(pct, row["ci_low"], row["ci_high"]))
    tables = [seats]
    labels = list(dict.fromkeys(bot.label for bot in seat_bots))
    if rotated or len(labels) > 1:
        per_bot = Table("per bot" + (" (seats rotated)" if rotated else ""),
                        [("bot", "left"), ("seats", "right"), ("win rate", "right"), ("95% interval", "right")])
        for label in labels:
            row = metric(summary, f"win_rate_bot_{label}")
            count = sum(bot.label == label for bot in seat_bots)
            per_bot.add(label, str(count), pct(row["value"]), interval(pct, row["ci_low"], row["ci_high"]))
        tables.append(per_bot)
    main = Table("", [("metric", "left"), ("value", "right"), ("95% interval", "right")])
    for name, label, fmt in RUN_METRICS:
        row = metric(summary, name)
        main.add(label, fmt(row["value"]), interval(fmt, row["ci_low"], row["ci_high"]))
    tables.append(main)
    return tables


# ---------------------------------------------------------------- compare


def compare_table(comparison, all_metrics: bool = False) -> Table:
    """Every metric side by side with each variant's difference to the first; metrics that
    are 0 (or n/a) in every variant are left out unless `all_metrics` (a note names them)."""
    from .headline import metric_kind, quiet_metrics
    from ..stats import stars

    names = comparison.names
    runs = comparison.runs
    all_rules = [r.rules for r in runs]
    diffs = comparison.differences
    base = names[0]
    table = Table(f"{' vs '.join(names)}: differences to {base} with 95% intervals "
                  "(rates in percentage points); tests in docs/METRICS.md",
                  [("metric", "left")] + [(n, "right") for n in names])
    for name in names[1:]:
        table.columns += [(f"{name} - {base}", "right"), ("p (Holm)", "right"), ("", "left")]
    for run in runs:
        rules, result = run.rules, run.result
        changed = rules_changed(rules)
        table.intro.append(
            f"{run.name}: {rules.players} players, bots {describe(run.bots)}, {result.games:,} games, seed "
            f"{result.seed}; rules differing from the official: {', '.join(changed) if changed else 'none'}")
    first = all_rules[0]
    if any(r.players != first.players or r.hand_size != first.hand_size for r in all_rules):
        table.intro.append("note: player counts or hand sizes differ, so the variants do not share their deals")
    summary = comparison.summary
    quiet = set() if all_metrics else set(quiet_metrics(summary))
    values = {(v, m): x for v, m, x in zip(summary["variant"], summary["metric"], summary["value"])}
    order = list(dict.fromkeys(summary["metric"]))
    diff_rows = {(row["variant"], row["metric"]): row for _, row in diffs.iterrows()}
    for metric_name in order:
        if metric_name in quiet:
            continue
        kind = metric_kind(metric_name)
        cells = [metric_name] + [fmt_metric(kind, values[(n, metric_name)]) if (n, metric_name) in values else ""
                                 for n in names]
        any_sig = False
        for name in names[1:]:
            row = diff_rows.get((name, metric_name))
            if row is None:
                cells += ["", "", ""]
                continue
            cells += [fmt_diff(kind, row), pvalue(row["p_adjusted"]), stars(row["p_adjusted"])]
            any_sig = any_sig or bool(row["significant"])
        table.add(*cells, bold=any_sig)
    tested = int(diffs["p_adjusted"].notna().sum())
    table.notes.append(f"p (Holm): p-values adjusted for the {tested} tests in the table (Holm's method); "
                       "* p < 0.05, ** p < 0.01, *** p < 0.001; bold rows: significant at 5%; medians, "
                       "percentiles and maxima are not tested (n/a): the mean row tests the shift")
    if quiet:
        left_out = [m for m in order if m in quiet]
        table.notes.append(f"left out, 0, n/a or a rate of 100% in every variant (--all-metrics shows them): {', '.join(left_out)}")
    return table


TABLE_WIDTH = 100  # the widest a compare table is drawn (terminal columns)


def table_width(table: Table) -> int:
    """Columns the table takes when drawn with rich's default box: each column its widest
    cell plus a space either side and a rule, plus the closing rule."""
    widths = [max([len(header)] + [len(row[i]) for row in table.rows]) for i, (header, _) in enumerate(table.columns)]
    return sum(w + 3 for w in widths) + 1


def split_columns(table: Table, width: int = TABLE_WIDTH) -> list[Table]:
    """The table as several, each within `width` columns: the first column (the row names)
    repeated in each, the others in order. The intro goes with the first, the notes with the
    last; a table that fits is returned as it is."""
    if table_width(table) <= width:
        return [table]
    cell = [max([len(header)] + [len(row[i]) for row in table.rows]) + 3 for i, (header, _) in enumerate(table.columns)]
    groups: list[list[int]] = [[]]
    used = cell[0] + 1
    for i in range(1, len(table.columns)):
        if groups[-1] and used + cell[i] > width:
            groups.append([])
            used = cell[0] + 1
        groups[-1].append(i)
        used += cell[i]
    parts = []
    for n, group in enumerate(groups):
        title = table.title if n == 0 else f"{table.title} (continued, {n + 1} of {len(groups)})"
        part = Table(title, [table.columns[0]] + [table.columns[i] for i in group],
                     [[row[0]] + [row[i] for i in group] for row in table.rows], list(table.bold),
                     intro=table.intro if n == 0 else [], notes=table.notes if n == len(groups) - 1 else [])
        parts.append(part)
    return parts


def compare_tables(comparison, all_metrics: bool = False, width: int = TABLE_WIDTH) -> list[Table]:
    """The compare table (compare_table) when it fits in TABLE_WIDTH columns (two variants
    with short names do); else two: the values side by side, then each variant's difference to
    the first with its interval abbreviated (`+1.23±0.45**`), each split into tables of at
    most `width` columns (none split when `width` holds them: the terminal's output redirected)."""
    full = compare_table(comparison, all_metrics)
    if table_width(full) <= TABLE_WIDTH:
        return [full]
    from .headline import metric_kind
    from ..stats import stars

    names = comparison.names
    base = names[0]
    k = len(names)
    values = Table(f"{k} variants: each metric's value (differences to {base} in the next table)",
                   [("metric", "left")] + [(n, "right") for n in names], intro=full.intro)
    diffs = Table(f"{k - 1} variants minus {base}: the difference ± half its 95% interval (rates in percentage "
                  "points), stars: significance after Holm's correction",
                  [("metric", "left")] + [(n, "right") for n in names[1:]], notes=[
                      "±: half the 95% interval's width (its exact bounds and the p-values are in differences.csv)",
                      "stars: " + full.notes[0].removeprefix("p (Holm): "), *full.notes[1:]])
    diff_rows = {(row["variant"], row["metric"]): row for _, row in comparison.differences.iterrows()}
    for cells, bold in zip(full.rows, full.bold):
        metric_name = cells[0]
        values.add(*cells[: k + 1], bold=bold)
        kind = metric_kind(metric_name)
        shown = [metric_name]
        for name in names[1:]:
            row = diff_rows.get((name, metric_name))
            shown.append("" if row is None else fmt_diff_short(kind, row) + stars(row["p_adjusted"]))
        diffs.add(*shown, bold=bold)
    return split_columns(values, width) + split_columns(diffs, width)


# ---------------------------------------------------------------- sweep


def sweep_table(sweep) -> Table:
    """One line per grid point: seat 0's win rate, edge, no-winner rate, turns, points."""
    first = sweep.runs[0].result
    knobs = sweep.knobs
    table = Table(f"{sweep.preset}: sweep over {', '.join(knobs)}, {first.games:,} games per point, seed {first.seed}",
                  [(t, "right") for t in (*knobs, "players" if "players" not in knobs else "1/n",
                                          "seat 0 win rate [95%]", "first-player edge", "no winner",
                                          "mean turns [95%]", "mean winner points")])
    skill = any(getattr(run, "skill_result", None) is not None for run in sweep.runs)
    if skill:
        table.columns.append(("skill index [95%]", "right"))
    for point, run in zip(sweep.points, sweep.runs):
        rows = run.summary.set_index("metric")
        w = rows.loc["win_rate_seat_0"]
        t = rows.loc["mean_turns"]
        extra = []
        if skill:
            k = rows.loc["skill_index"]
            extra.append(f"{pp(k['value'])} [{pp(k['ci_low'])}, {pp(k['ci_high'])}]")
        table.add(
            *(fmt_value(point[k]) for k in knobs),
            str(run.rules.players) if "players" not in knobs else pct(1.0 / run.rules.players),
            f"{pct(w['value'])} [{pct(w['ci_low'])}, {pct(w['ci_high'])}]",
            pp(rows.loc["first_player_edge"]["value"]),
            pct(rows.loc["no_winner_rate"]["value"]),
            f"{num(t['value'])} [{num(t['ci_low'])}, {num(t['ci_high'])}]",
            num(rows.loc["mean_winner_points"]["value"]),
            *extra,
        )
    return table


def ranked_table(sweep) -> Table:
    """The `top` fair grid points of a sweep of two or more knobs, by its ranking metric
    (api.Sweep.ranked: fair ones first, smallest first or for skill_index largest first).
    With no fair point: no table, one sentence saying so."""
    from .headline import RANK_LARGEST_FIRST, metric_kind

    ranked = sweep.ranked
    fair = ranked[ranked["fair"] == "true"]
    by = sweep.rank_by
    band = f"the first-player edge's 95% interval within +-{sweep.fair_within:g} pp"
    if len(fair) == 0:
        return Table("", [], intro=[
            f"None of the {len(ranked)} grid points is fair ({band}) at this many games; every point, ranked by "
            f"{by}, is in ranked.csv (more --games narrow the intervals; --fair-within widens the band)."])
    which = "shortest" if by == "mean_turns" else f"{'highest' if by in RANK_LARGEST_FIRST else 'lowest'} {by}"
    shown = fair.head(sweep.top)
    head = f"The {which} fair grid point" if len(shown) == 1 else f"The {len(shown)} {which} fair grid points"
    table = Table(f"{head} of {len(ranked)} ({len(fair)} fair: {band}); every point in ranked.csv",
                  [(t, "right") for t in ("rank", *sweep.knobs, f"{by} [95%]", "first-player edge [95%]")])
    kind = metric_kind(by)
    fmt = lambda x: fmt_metric(kind, x)  # noqa: E731
    for _, row in shown.iterrows():
        table.add(str(row["rank"]), *(fmt_value(row[k]) for k in sweep.knobs),
                  f"{fmt(row[by])} [{fmt(row[f'{by}_ci_low'])}, {fmt(row[f'{by}_ci_high'])}]",
                  f"{pp(row['first_player_edge'])} [{pp(row['first_player_edge_ci_low'])}, "
                  f"{pp(row['first_player_edge_ci_high'])}]")
    return table


# ---------------------------------------------------------------- matches


def match_table(match_run) -> Table:
    """Every match metric of an api.MatchRun."""
    from ..stats.matches import match_length

    rules, seat_bots, result = match_run.rules, match_run.bots, match_run.result
    title = (f"{match_run.name}: matches {match_length(rules)} ({rules.match_scoring}, next dealer "
             f"{rules.next_dealer}), {rules.players} players, bots {describe(seat_bots)}, {result.matches:,} "
             f"matches, seed {result.seed}")
    if result.rotate_seats:
        title += f", seats rotated every {rules.players} rounds"
    table = Table(title, [("metric", "left"), ("value", "right"), ("95% interval", "right")])
    for _, row in match_run.summary.iterrows():
        name = row["metric"]
        fmt = pct if "rate" in name else num
        label = name
        if name.startswith(("match_win_rate_player_", "match_loser_rate_player_", "mean_chips_player_",
                            "sd_chips_player_")):
            label += f" ({seat_bots[int(name.rsplit('_', 1)[1])].label})"
        table.add(label, fmt(row["value"]), interval(fmt, row["ci_low"], row["ci_high"]))
    return table


# ---------------------------------------------------------------- tournaments


def tournament_tables(t) -> list[Table]:
    """An api.Tournament's Luce ratings (bots x rule sets) and skill index per rule set."""
    labels = [b.label for b in t.bots]
    ratings = t.ratings.set_index(["preset", "bot"])
    table = Table("Luce ratings (log strength, mean 0) with 95% intervals",
                  [("bot", "left")] + [(name, "right") for name in t.presets])
    for label in labels:
        cells = [label]
        for name in t.presets:
            row = ratings.loc[(name, label)]
            cells.append(f"{row['rating']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]")
        table.add(*cells)
    skill = Table("skill index: the best bot's win rate at a table of the worst, minus 1/n",
                  [(c, "left" if c in ("rule set", "best", "worst") else "right")
                   for c in ("rule set", "players", "best", "worst", "best's win rate", "skill index [95%]")])
    for row in t.skill.itertuples():
        skill.add(row.preset, str(row.players), row.best or "-", row.worst or "-", pct(row.win_rate),
                  "n/a" if row.skill_index != row.skill_index
                  else f"{pp(row.skill_index)} [{pp(row.ci_low)}, {pp(row.ci_high)}]")
    skill.notes.extend(f"{row.preset}: {row.chosen}" for row in t.skill.itertuples())
    return [table, skill]
