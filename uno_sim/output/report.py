"""The one-page report, report.html: one self-contained file (charts embedded as base64 PNG,
no scripts, no network access) with the headline, the tables, the charts, the rules that
differ from the official ones, the bots, the seed, the uno-sim version and the command that
reproduces it. Rendered with Jinja2 from the template shipped in uno_sim/output/templates/.

Any result of uno_sim.api (Run, Comparison, Sweep, MatchRun, Tournament) can be given: they share the
parts used here (`kind`, `headline`, `tables()` (a Tournament's `report_tables()`), `chart_names()`, `chart_png()`, `runs`,
`command`).
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from ..game.bots import describe
from .files import atomic_path
from .tables import Table, deck_table, rules_changed

TEMPLATE = "report.html.j2"

CAPTIONS = {
    "differences": "Each metric's difference to the baseline, as a standardised difference with its 95% interval; "
                   "filled points are significant after Holm's correction.",
    "win_rates": "Win rate of each seat with its 95% interval, around the fair share 1/n.",
    "game_length": "How long games last: the distribution of regular turns and its cumulative share.",
    "winner_points": "The winner's points (the cards left in the other hands).",
    "bot_win_rates": "Share of games won by each bot, all seats playing it together, against its fair share.",
    "max_pending": "The largest penalty drawn at once in a game (a stacked chain counts once).",
    "sweep": "The first player's edge (seat 0's win rate minus 1/n; 0 is fair) and the mean game length at each "
             "value, with 95% intervals.",
    "rounds_per_match": "How many rounds a match lasts.",
    "skill_index": "The skill index of each rule set (a skilled bot's win rate at a table of unskilled ones, minus "
                   "1/n) with its 95% interval; the bots compared are named in the chart.",
    "race": "Each grid point's objective with its race interval at every round it played (the winner in colour); "
            "a cross where a point broke a constraint, a circle where the leader beat it. Below: the points left "
            "after each round.",
    "ratings": "Luce ratings of the bots under each rule set (log strength, mean 0), each with its 95% interval.",
}

TITLES = {"run": "run", "compare": "compare", "sweep": "sweep", "match": "match", "tournament": "tournament", "design": "design"}


def chart_heading(name: str) -> str:
    """A chart's section heading: `game length`; a grid sweep's `heatmap-mean_turns` reads
    `mean turns at every grid point`."""
    if name.startswith("heatmap-"):
        return f"{name.removeprefix('heatmap-').replace('_', ' ')} at every grid point"
    return name.replace("_", " ")


def chart_caption(name: str) -> str:
    if name.startswith("heatmap-"):
        return "Each grid point's value (bold) with its 95% interval under it."
    return CAPTIONS.get(name, "")


def _environment():
    from jinja2 import Environment, PackageLoader, select_autoescape

    return Environment(loader=PackageLoader("uno_sim.output", "templates"), autoescape=select_autoescape(["html", "j2"]),
                       trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _rule_file(name: str, rules) -> dict:
    """What a setup adds for rules no preset name gives back (a rule file's, or a Rules
    value's): its deck's kinds when it is the file's own deck, and the rule file written out
    whole (every knob, the deck), to save under the name the command reads it by."""
    from ..game import presets

    if name in presets.preset_names() and rules.custom_deck is None:
        return {}
    out: dict = {"rule_file": presets.rule_file_text(rules)}
    if rules.custom_deck is not None:
        deck = rules.cards
        out["deck"] = deck_table(deck, rules.zero_points, f"the deck: {len(deck.kinds)} kinds, {deck.size} cards")
    return out


def _setups(result) -> list[dict]:
    """Per variant (or the one run / match): what was played."""
    out = []
    for run in result.runs:
        res = run.result
        count = getattr(res, "games", None)
        unit = "games"
        if count is None:
            count, unit = res.matches, "matches"
        out.append({"name": run.name, "players": run.rules.players, "bots": describe(run.bots),
                    "count": f"{count:,} {unit}", "seed": res.seed, "changed": rules_changed(run.rules)}
                   | _rule_file(run.name, run.rules))
    return out


def _sweep_setups(sweep) -> list[dict]:
    run = sweep.runs[0]
    fixed = [c for c in rules_changed(run.rules) if c.split("=", 1)[0] not in sweep.knobs]
    return [{"name": sweep.preset, "players": ", ".join(dict.fromkeys(str(r.rules.players) for r in sweep.runs)),
             "bots": sweep.bots_text, "count": f"{run.result.games:,} games per setting", "seed": run.result.seed,
             "changed": fixed + [f"{k} varied" for k in sweep.knobs]} | _rule_file(sweep.preset, run.rules)]


def _design_setups(design) -> list[dict]:
    """The race's grid: what every point shares, the knobs varied, the games it took."""
    return [{"name": design.label, "players": ", ".join(dict.fromkeys(str(p) for p in design.players)),
             "bots": design.bots, "count": f"{design.games_used:,} games in the race (budget {design.budget:,})",
             "seed": design.seed, "changed": [f"{k} varied" for k in design.knobs]}]


def _tournament_setups(t) -> list[dict]:
    """Per rule set: the bots, the tables and games played."""
    r = t.result
    out = []
    for pg in r.presets:
        n = pg.rules.players
        out.append({"name": pg.name, "players": n, "bots": ", ".join(b.label for b in t.bots),
                    "count": f"{pg.winners.size:,} games ({len(pg.tables)} tables x {r.deals:,} deals x {n} seat "
                             f"rotations)", "seed": r.seed, "changed": rules_changed(pg.rules)}
                   | _rule_file(pg.name, pg.rules))
    return out


def _summary_table(result) -> Table | None:
    """Every metric of a run (those 0 or n/a left out), for the report's full listing."""
    if result.kind != "run":
        return None
    from .headline import metric_kind, quiet_metrics
    from .tables import fmt_metric, interval

    quiet = set(quiet_metrics(result.summary))
    table = Table("every metric (docs/METRICS.md)", [("metric", "left"), ("value", "right"), ("95% interval", "right")])
    for _, row in result.summary.iterrows():
        if row["metric"] in quiet:
            continue
        kind = metric_kind(row["metric"])
        table.add(row["metric"], fmt_metric(kind, row["value"]),
                  interval(lambda x, k=kind: fmt_metric(k, x), row["ci_low"], row["ci_high"]))
    if quiet:
        table.notes.append("left out (0, n/a, or a rate of 100%: nothing varies): " + ", ".join(sorted(quiet, key=list(result.summary["metric"]).index)))
    return table


def context(result) -> dict:
    from ..game.version import VERSION as __version__

    names = " vs ".join(result.names) if hasattr(result, "names") else result.name
    headline = list(result.headline)
    charts = [{"name": name, "heading": chart_heading(name), "caption": chart_caption(name),
               "src": "data:image/png;base64," + base64.b64encode(result.chart_png(name)).decode("ascii")}
              for name in result.chart_names()]
    setups = (_sweep_setups(result) if result.kind == "sweep" else _tournament_setups(result)
              if result.kind == "tournament" else _design_setups(result) if result.kind == "design"
              else _setups(result))
    return {
        "title": f"uno-sim {TITLES[result.kind]}: {names}",
        "lead": headline[0] if headline else "",
        "points": [line.removeprefix("- ") for line in headline[1:]],
        "tables": result.report_tables() if hasattr(result, "report_tables") else result.tables(),
        "summary_table": _summary_table(result),
        "charts": charts,
        "setups": setups,
        "seeds": ", ".join(dict.fromkeys(str(s["seed"]) for s in setups)),
        "version": __version__,
        "command": result.command,
    }


def html(result) -> str:
    """The report of a result, as HTML text."""
    return _environment().get_template(TEMPLATE).render(**context(result))


def write(result, path: str | os.PathLike) -> Path:
    """report.html, written atomically."""
    text = html(result)
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
    return Path(path)
