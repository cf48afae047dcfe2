"""What a person sees of a race (`uno-sim design`, api.Design): the headline's sentences, the
standings and rounds tables (drawn by the terminal and report.html alike) and the race chart.
Everything is read from the result's tidy frames (standings, race, rounds)."""

from __future__ import annotations

import math
import textwrap

import numpy as np

from .headline import MEANS, metric_kind
from .tables import Table

OUTCOMES = {
    "one point left": "one point was left, meeting every constraint with confidence",
    "tie": "the points left are tied within the tolerance",
    "no feasible point": "no point meets the constraints",
    "budget": "the budget ran out before the next round",
}
RUNNERS_UP = 3  # runners-up named in the headline


def fmt(metric: str, x: float, signed: bool = False) -> str:
    """A metric's value: rates in %, the first-player edge and differences of rates in pp."""
    if x != x:
        return "n/a"
    kind = metric_kind(metric)
    if kind in ("rate", "edge"):
        unit = "%" if kind == "rate" and not signed else " pp"
        sign = "+" if signed or kind == "edge" else ""
        return f"{100 * x:{sign}.2f}{unit}"
    return f"{x:+,.2f}" if signed else f"{x:,.2f}"


def _interval(metric: str, low: float, high: float, signed: bool = False) -> str:
    return "n/a" if low != low else f"{fmt(metric, low, signed)} to {fmt(metric, high, signed)}"


def mean_unit(metric: str) -> str:
    """What a mean metric counts: `turns`, `cards a game` (headline.MEANS), else its name's words a game."""
    phrase = MEANS.get(metric)
    return phrase.unit if phrase is not None else f"{metric.removeprefix('mean_').replace('_', ' ')} a game"


def _tolerance_text(design) -> str:
    if design.tolerance != design.tolerance:
        return "n/a"
    kind = metric_kind(design.objective)
    if kind in ("rate", "edge"):
        return f"{100 * design.tolerance:.2f} pp"
    return f"{design.tolerance:,.3g} {mean_unit(design.objective)}"


def design_headline(design) -> list[str]:
    """The race in a few sentences: the winner (or why there is none) and what it cost, the
    runners-up, what was dropped and why, and how the intervals are made."""
    s = design.standings
    obj = design.objective
    aim = "smallest" if design.minimize else "largest"
    share = design.games_used / design.full_grid_games if design.full_grid_games else math.nan
    per_point = design.full_grid_games // len(design.point_names)
    skill = "skill_index" in design.metrics  # each point plays as many skill games as games of its own
    games = f"{per_point // 2:,} games and as many skill games" if skill else f"{per_point:,} games"
    cost = (f"the race took {design.games_used:,} games, {share:.0%} of the {design.full_grid_games:,} a full grid "
            f"run would need for the same precision ({len(design.point_names)} points x {games})")
    lines = []
    if design.winner is None:
        lines.append(f"No grid point meets the constraints ({'; '.join(map(str, design.constraints))}): every one of "
                     f"the {len(design.point_names)} was dropped as infeasible; {cost}.")
    else:
        w = s.iloc[0]
        sure = ("meeting every constraint with confidence" if design.certified
                else "though not every constraint is shown to hold yet")
        title = "Winner" if design.outcome in ("one point left", "tie") else "Best when the budget ran out"
        lines.append(f"{title}: {design.winner}, {aim} {obj} {fmt(obj, w[obj])} (race interval "
                     f"{_interval(obj, w[obj + '_ci_low'], w[obj + '_ci_high'])}), {sure}; {cost}.")
    lines.append(f"- Stopped after round {int(design.rounds['round'].iloc[-1])}: {OUTCOMES[design.outcome]} "
                 f"(budget {design.budget:,} games; tie tolerance {_tolerance_text(design)}).")
    if design.constraints:
        lines.append(f"- Constraints: {'; '.join(map(str, design.constraints))} (rates as fractions).")
    open_ = s[(s["standing"] == "in the race") & (s["meets_constraints"] != "yes")]
    if design.outcome == "budget" and len(open_):
        lines.append(f"- Not settled: {len(open_)} point(s) still in the race are not yet shown to meet every "
                     f"constraint and could still win with more games: {', '.join(open_['point'].head(5))}"
                     f"{', ...' if len(open_) > 5 else ''}.")
    others = s.iloc[1:]
    alive = others[~others["standing"].str.startswith("dropped")]
    named = alive if len(alive) else others
    runners = []
    for _, r in named.head(RUNNERS_UP).iterrows():
        vs = (f", {fmt(obj, r['vs_leader'], True)} ({_interval(obj, r['vs_leader_ci_low'], r['vs_leader_ci_high'], True)})"
              f" vs {r['leader']}" if r["leader"] and r["leader"] != r["point"] else "")
        runners.append(f"{r['point']} {fmt(obj, r[obj])}{vs}")
    if runners:
        lines.append(f"- Runners-up: {'; '.join(runners)}.")
    dropped = s[s["standing"].str.startswith("dropped")]
    if len(dropped):
        infeasible = dropped[dropped["reason"].str.startswith("infeasible")]
        by_round = ", ".join(f"{n} in round {r}" for r, n in dropped.groupby("last_round").size().items())
        lines.append(f"- Dropped: {len(infeasible)} infeasible and {len(dropped) - len(infeasible)} beaten "
                     f"({by_round}); standings.csv gives each one's reason.")
    lines.append(f"- Every interval is a race interval: one Bonferroni family of {design.looks:,} (rounds x (points x "
                 f"constraints + pairs of points)), each at {100 * design.confidence:.4f}%, so all hold together with 95% "
                 "confidence; differences are paired on the same deals.")
    return lines


def standings_table(design, reasons: bool = True) -> Table:
    """Every grid point, best first. `reasons`: with the column saying why each dropped point
    was dropped (report.html); without it (the terminal) the standing says only whether it was
    beaten or broke a constraint, and standings.csv has the rest."""
    obj = design.objective
    others = [m for m in design.metrics if m != obj]
    columns = [("grid point", "left"), ("standing", "left"), ("games", "right"),
               (obj, "right"), ("race interval", "right")]
    columns += [(m, "right") for m in others]
    columns += [("vs leader", "right")] + ([("why dropped", "left")] if reasons else [])
    table = Table(f"standings: {'smallest' if design.minimize else 'largest'} {obj}, every grid point", columns)
    for _, r in design.standings.iterrows():
        standing = r["standing"]
        if r["reason"] and not reasons:
            how = "beaten" if r["reason"].startswith("beaten") else "infeasible"
            standing = f"{how} in round {r['last_round']}"
        cells = [r["point"], standing, f"{int(r['games']):,}", fmt(obj, r[obj]),
                 _interval(obj, r[obj + "_ci_low"], r[obj + "_ci_high"])]
        cells += [f"{fmt(m, r[m])} ({_interval(m, r[m + '_ci_low'], r[m + '_ci_high'])})" for m in others]
        vs = "" if not r["leader"] or r["leader"] == r["point"] else fmt(obj, r["vs_leader"], True)
        cells += [vs] + ([r["reason"]] if reasons else [])
        table.add(*cells, bold=r["standing"] == "winner")
    table.notes.append("vs leader: the paired difference to the round's leader (the best point meeting every "
                       "constraint) at the point's last round; intervals are race intervals.")
    return table


def rounds_table(design) -> Table:
    obj = design.objective
    table = Table("rounds of the race", [("round", "right"), ("games a point", "right"), ("points", "right"),
                                         ("infeasible", "right"), ("beaten", "right"), ("left", "right"),
                                         ("leader", "left"), (obj, "right"), ("games so far", "right")])
    for _, r in design.rounds.iterrows():
        table.add(str(r["round"]), f"{int(r['games_per_point']):,}", str(r["points"]), str(r["dropped_infeasible"]),
                  str(r["dropped_beaten"]), str(r["left"]), r["leader"] or "(none yet)", fmt(obj, r[obj]),
                  f"{int(r['games_used']):,}")
    return table


def race_chart(design):
    """Top: each point's objective with its race interval at every round it played (the
    winner in colour, the rest grey; a cross where a point was dropped as infeasible, a
    circle where it was beaten), games a point on a log axis. Bottom: the points left after
    each round."""
    from .charts import COLORS, _subplots

    obj = design.objective
    race = design.race
    rounds = sorted(race["round"].unique())
    fig, (top, bottom) = _subplots(2, 1, figsize=(10.0, 8.0), sharex=True,
                                   gridspec_kw={"height_ratios": [3, 1]})
    names = list(design.point_names)
    spread = 0.12  # points spread sideways within a round (in log2 units), so intervals do not overlap
    scale = 100.0 if metric_kind(obj) in ("rate", "edge") else 1.0
    settled = design.outcome in ("one point left", "tie")
    for i, name in enumerate(names):
        rows = race[race["point"] == name].sort_values("round")
        if rows.empty:
            continue
        jitter = 2.0 ** (spread * (i / max(len(names) - 1, 1) - 0.5))
        x = rows["games"].to_numpy(float) * jitter
        y = rows[obj].to_numpy(float) * scale
        low = rows[obj + "_ci_low"].to_numpy(float) * scale
        high = rows[obj + "_ci_high"].to_numpy(float) * scale
        is_winner = name == design.winner
        color = COLORS[0] if is_winner else "#9a9a9a"
        z = 3 if is_winner else 2
        top.errorbar(x, y, yerr=np.vstack([y - low, high - y]), fmt="-", color=color, alpha=1.0 if is_winner else 0.6,
                     linewidth=2.2 if is_winner else 0.9, elinewidth=2.0 if is_winner else 0.8, capsize=0, zorder=z,
                     label=(f"{'winner' if settled else 'best at the end'}: {name}") if is_winner else None)
        last = rows.iloc[-1]
        if last["status"] == "dropped":
            infeasible = last["reason"].startswith("infeasible")
            top.plot(x[-1], y[-1], "x" if infeasible else "o", color="#c0392b" if infeasible else "#555555",
                     markersize=7, markerfacecolor="none" if not infeasible else None, zorder=4)
        else:
            top.plot(x[-1], y[-1], "o", color=color, markersize=6 if is_winner else 4, zorder=z)
    top.plot([], [], "x", color="#c0392b", label="dropped: breaks a constraint")
    top.plot([], [], "o", color="#555555", markerfacecolor="none", label="dropped: beaten by the leader")
    top.plot([], [], "-", color="#9a9a9a", label="other grid points (race intervals)")
    top.set_xscale("log", base=2)
    top.set_ylabel(f"{obj.replace('_', ' ')}{' (pp)' if metric_kind(obj) == 'edge' else ' (%)' if scale == 100 else ''}")
    top.grid(alpha=0.3)
    handles, labels = top.get_legend_handles_labels()
    per_point = design.rounds["games_per_point"].to_numpy(float)
    left = design.rounds["left"].to_numpy(float)
    started = design.rounds["points"].to_numpy(float)
    bottom.bar(per_point, started, width=per_point * 0.35, color="#d5d5d5", label="points playing the round")
    bottom.bar(per_point, left, width=per_point * 0.35, color=COLORS[0], label="points kept after it")
    for xx, n in zip(per_point, left):
        bottom.annotate(f"{int(n)}", (xx, n), ha="center", va="bottom", fontsize=8)
    bottom.set_xscale("log", base=2)
    bottom.set_xticks(per_point)
    bottom.set_xticklabels([f"{int(v):,}" for v in per_point], fontsize=8)
    bottom.set_xlabel("games a point has played (one tick per round)")
    bottom.set_ylabel("points")
    bottom.set_ylim(0, 1.2 * max(started.max(), 1))
    # above the bars, not over them: the first and the last bar reach any corner inside
    bottom.legend(fontsize=8, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=2, frameon=False,
                  borderaxespad=0.2)
    bottom.grid(alpha=0.3, axis="y")
    share = design.games_used / design.full_grid_games if design.full_grid_games else math.nan
    if design.winner is not None:
        w = design.standings.iloc[0]
        verb = "wins" if settled else "leads when the budget ran out"
        finding = (f"{design.winner} {verb}: {obj} {fmt(obj, w[obj])} after {len(rounds)} rounds, "
                   f"{design.games_used:,} games ({share:.0%} of a full grid run)")
    else:
        finding = f"No grid point meets the constraints ({design.games_used:,} games)"
    fig.suptitle(textwrap.fill(finding, width=90), fontsize=11, fontweight="bold")
    subtitle = (f"{design.label}: {len(names)} grid points, {'minimize' if design.minimize else 'maximize'} {obj}"
                + (f", subject to {'; '.join(map(str, design.constraints))}" if design.constraints else "")
                + f"; bots: {design.bots}; seed {design.seed}")
    top.set_title(textwrap.fill(subtitle, width=100), fontsize=9, color="#333333")
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
