"""Sweeps: one run per value (or grid point) of the varied knobs; `--vary` parsing, the
fairness rule, the ranked grid points and the heatmap layout; `prepare_sweep`, `SweepPlan`,
`Sweep`."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.bots import describe
from ..game.errors import InputError
from ..running.progress import ProgressLike
from .common import (DEFAULT_FAIR_WITHIN, DEFAULT_TOP, RuleSpec, _cluster, _common_options, _open_checkpoint, bots_text, check_count,
                     command_line, override_dict, speaks_python, shared_parameters)
from .result_base import ManyRuns, _Charts, _frame_records
from . import grids
from .grids import MAX_SWEEP_POINTS
from .runs import Run, RunPlan, _checkpoint_units, _play, _play_runs

DEFAULT_METRICS = ("mean_turns", "first_player_edge")
MAX_PANELS = 12  # small multiples: at most this many heatmap panels (grids of 3 or more knobs)


def is_fair(low: float, high: float, within_pp: float) -> bool:
    """Fair: the first-player edge's 95% interval lies inside +-within_pp percentage points
    (the data show the first player's advantage is at most that large)."""
    limit = within_pp / 100.0
    return bool(low == low and high == high and -limit <= low and high <= limit)


@dataclass(repr=False)  # a short repr (result_base._Notebook), not every field
class Sweep(ManyRuns, _Charts):
    """One run per grid point; `summary` is sweep.csv: the run's summary rows with one column
    per varied knob; `headline`, a few sentences. `plot()` (one varied knob) draws seat 0's
    win rate and the mean turns; `plot_heatmap(metric)` (two knobs; small multiples for more)
    a metric over the grid; `ranked` orders the grid points by `rank_by`, the fair ones first
    (`is_fair`; smallest first, skill_index largest first); `to_html()` the one-page report."""

    preset: str
    knobs: list[str]
    points: list[dict[str, Any]]
    runs: list[Run]
    command: str = ""
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    rank_by: str = "mean_turns"
    fair_within: float = DEFAULT_FAIR_WITHIN
    top: int = DEFAULT_TOP
    precision: Any = None  # stats.PrecisionOutcome of a sweep played to a precision target, else None

    kind = "sweep"

    @cached_property
    def summary(self):
        import pandas as pd

        frames = []
        for point, run_ in zip(self.points, self.runs):
            frame = run_.summary.copy()
            for i, knob in enumerate(self.knobs):
                frame.insert(1 + i, knob, grids.setting(point[knob]))
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    @property
    def bots_text(self) -> str:
        all_bots = [r.bots for r in self.runs]
        labels = {b.label for bots in all_bots for b in bots}
        if len(labels) == 1:
            return f"{next(iter(labels))} in every seat"
        return "; ".join(dict.fromkeys(describe(b) for b in all_bots))

    @cached_property
    def headline(self):
        from ..output.headline import sweep_headline

        lines = sweep_headline(self.summary, self.knobs)
        return lines if self.precision is None else type(lines)([self.precision.sentence(), *lines])

    @property
    def names(self) -> list[str]:
        return [self.preset]

    @cached_property
    def ranked(self):
        """Every grid point: rank, the knobs, the ranking metric and the first-player edge
        with their 95% intervals, and `fair`; fair points first, each group by the metric
        (smallest first; RANK_LARGEST_FIRST largest first)."""
        import pandas as pd

        rows = []
        for point, run_ in zip(self.points, self.runs):
            by = run_.summary.set_index("metric")
            row = {knob: grids.setting(point[knob]) for knob in self.knobs}
            for name in dict.fromkeys([self.rank_by, "first_player_edge"]):
                m = by.loc[name] if name in by.index else None
                row[name] = m["value"] if m is not None else float("nan")
                row[f"{name}_ci_low"] = m["ci_low"] if m is not None else float("nan")
                row[f"{name}_ci_high"] = m["ci_high"] if m is not None else float("nan")
            row["fair"] = is_fair(row["first_player_edge_ci_low"], row["first_player_edge_ci_high"], self.fair_within)
            row["games"] = run_.result.games
            rows.append(row)
        from ..output.headline import rank_ascending

        frame = pd.DataFrame(rows)
        frame = frame.sort_values(["fair", self.rank_by], ascending=[False, rank_ascending(self.rank_by)],
                                  kind="stable").reset_index(drop=True)
        frame.insert(0, "rank", range(1, len(frame) + 1))
        frame["fair"] = frame["fair"].map({True: "true", False: "false"})
        return frame

    def tables(self):
        from ..output.tables import ranked_table, sweep_table

        return [sweep_table(self)] + ([ranked_table(self)] if len(self.knobs) > 1 else [])

    def to_dict(self) -> dict:
        """What `uno-sim sweep --json` prints: the headline and the sweep.csv rows (and with
        two or more knobs the ranked grid points)."""
        first = self.runs[0].result
        out = {"command": self.command, "preset": self.preset, "knobs": self.knobs, "games": first.games,
               "seed": first.seed, "headline": list(self.headline), "summary": _frame_records(self.summary)}
        if len(self.knobs) > 1:
            out["ranked"] = _frame_records(self.ranked)
        if self.precision is not None:
            out["precision"] = self.precision.to_dict()
        return out

    def chart_names(self) -> list[str]:
        """`sweep` for one knob; `heatmap-METRIC` per metric for a grid (when it fits)."""
        if len(self.knobs) == 1:
            return ["sweep"]
        if self.heatmap_layout() is None:
            return []
        return [f"heatmap-{metric}" for metric in self.metrics]

    def figure(self, name: str):
        if name.startswith("heatmap-"):
            return self.plot_heatmap(name[len("heatmap-"):])
        return self.plot()

    def plot(self):
        from ..output import charts

        if len(self.knobs) != 1:
            raise ValueError("the sweep chart shows one varied knob")
        return charts.sweep(self.summary, self.knobs[0], self.preset, self.bots_text, self.runs[0].result.games,
                            [r.rules.players for r in self.runs])

    def heatmap_layout(self) -> tuple[str, str, list[str]] | None:
        """(x knob, y knob, facet knobs) of the heatmaps, or None (one knob, or too many panels)."""
        if len(self.knobs) < 2:
            return None
        sizes = {k: len(dict.fromkeys(p[k] for p in self.points)) for k in self.knobs}
        order = sorted(self.knobs, key=lambda k: -sizes[k])  # stable: the first given wins ties
        x, y, facets = order[0], order[1], [k for k in self.knobs if k not in order[:2]]
        panels = 1
        for k in facets:
            panels *= sizes[k]
        return (x, y, facets) if panels <= MAX_PANELS else None

    def plot_heatmap(self, metric: str):
        from ..output import charts

        layout = self.heatmap_layout()
        if layout is None:
            raise ValueError("heatmaps need two or more varied knobs (and at most "
                             f"{MAX_PANELS} panels of the knobs beyond two)")
        x, y, facets = layout
        return charts.sweep_heatmap(self.summary, metric, x, y, facets, self.preset, self.bots_text,
                                    self.runs[0].result.games, [r.rules.players for r in self.runs])

    def files(self) -> dict[str, Callable[[Path], None]]:
        from .. import stats

        out: dict[str, Callable[[Path], None]] = {"sweep.csv": lambda path: stats.write_csv(self.summary, path)}
        if len(self.knobs) > 1:
            out["ranked.csv"] = lambda path: stats.write_csv(self.ranked, path)
        return out | self._chart_files() | self._report_file()


@dataclass
class SweepPlan:
    preset: str
    knobs: list[str]
    points: list[dict[str, Any]]
    plans: list[RunPlan] = field(default_factory=list)
    command: str = ""
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    rank_by: str = "mean_turns"
    fair_within: float = DEFAULT_FAIR_WITHIN
    top: int = DEFAULT_TOP
    cluster: Any = None
    checkpoint: Any = None
    targets: list = field(default_factory=list)  # stats.Target of every grid point: play look by look until met
    cap: int | None = None

    def execute(self, progress: ProgressLike = False) -> Sweep:
        """Play every grid point (`progress`: as for RunPlan.execute)."""
        workers = self.plans[0].workers
        outcome = None
        if not self.targets:
            runs = _play_runs(self.plans, self.cluster, workers, self.checkpoint, progress)
        else:
            from .. import stats
            from .precision import play_looks

            def widths(played) -> dict[str, float]:  # the widest over the grid points
                found: dict[str, float] = {}
                for run_ in played.runs:
                    for m in run_.measures():
                        w = stats.half_width(m.low, m.high)
                        found[m.name] = max(found.get(m.name, w), w) if w == w else float("nan")
                return found

            played, outcome = play_looks(self.plans, self.targets, self.cap, widths,
                                         lambda plans, start: _play(plans, self.cluster, workers, None, progress,
                                                                    start=start))
            runs = played.runs
        return Sweep(self.preset, self.knobs, self.points, runs, self.command, list(self.metrics), self.rank_by,
                     self.fair_within, self.top, outcome)


def metric_names(plan: RunPlan) -> list[str]:
    """The metric names a run of this plan reports (summary.csv's `metric` column; with
    `skill`, the skill games' metrics last)."""
    from .. import stats
    from ..game.metrics import SKILL_METRICS

    agg = stats.Aggregate(players=plan.rules.players, teams=plan.rules.teams, rotate=plan.rotate_seats)
    names = [m.name for m in stats.measures(agg, [b.label for b in plan.bots], teams=plan.rules.teams,
                                            two_sided=plan.rules.cards.two_sided)]
    return names + ([m.name for m in SKILL_METRICS] if plan.skill else [])


def prepare_sweep(rules: RuleSpec | None, vary: Mapping[str, Sequence[Any]] | Sequence[str], *, games: int = 100_000,
                  players: int | None = None, bots: str | None = None, seed: int = 0,
                  overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
                  metrics: Sequence[str] | None = None, rank_by: str = "mean_turns",
                  fair_within: float = DEFAULT_FAIR_WITHIN, top: int = DEFAULT_TOP, cluster: str | None = None,
                  checkpoint: str | Path | None = None, skill: bool = False,
                  precision: str | Sequence[str] | None = None, max_games: int | None = None) -> SweepPlan:
    """`vary`: {knob: values} or `--vary` texts; more than one knob runs the full grid. The
    knob `preset` varies the rule set itself (presets or rule files; then `rules` is None).
    `metrics`: the heatmaps drawn (default mean turns and the first-player edge); `rank_by`,
    `fair_within` (percentage points) and `top`: the ranked table of grid points. `skill`: also
    the `skill_index` metric at every point (one pro against random bots, seats rotated).
    `precision`: targets `METRIC=HALF_WIDTH` of every grid point's interval, played to look by
    look (all points together, on the same deals; then `games` is not used), with `max_games`
    games a point at most (api/precision.py)."""
    from .precision import check_metrics, check_precision_checkpoint, metric_kinds, parse_targets

    targets, cap = parse_targets(precision, max_games)
    check_precision_checkpoint(targets, checkpoint)
    bots = bots_text(bots)
    axes = grids.axes(vary)
    knobs = [k for k, _ in axes]
    by_preset = grids.check_knobs(knobs, rules)
    given = override_dict(overrides)
    grids.check_conflicts(knobs, given, players)
    _check_ranking(top, fair_within)
    points = grids.grid(axes)
    label, names = grids.grid_names(axes, rules, by_preset)
    plans = [grids.point_plan(point, rules, names, label, given, games=games, players=players, bots=bots, seed=seed,
                         workers=workers) for point in points]
    for plan in plans:
        plan.skill = skill
    metrics = _check_metrics(plans, list(dict.fromkeys(metrics or DEFAULT_METRICS)), rank_by)
    command = _sweep_command(rules, axes, games, players, bots, seed, given, skill, targets, cap)
    if targets:
        kinds = [metric_kinds(p, skill) for p in plans]
        check_metrics(targets, {m: k for m, k in kinds[0].items() if all(m in other for other in kinds[1:])},
                      "of every grid point")
    plan = SweepPlan(label, knobs, points, plans, command, metrics, rank_by, float(fair_within), top,
                     _cluster(cluster), targets=targets, cap=cap)
    plan.checkpoint = _open_checkpoint(checkpoint, "sweep", lambda: _checkpoint_units(plans))
    return plan


def _check_ranking(top: int, fair_within: float) -> None:
    """The ranked table's options: --top and --fair-within."""
    check_count("--top", top, maximum=MAX_SWEEP_POINTS)
    if not (isinstance(fair_within, (int, float)) and 0 < fair_within <= 100):
        raise InputError(f"--fair-within must be between 0 and 100 percentage points (got {fair_within})")


def _check_metrics(plans: list[RunPlan], metrics: list[str], rank_by: str) -> list[str]:
    """The heatmaps' metrics and the ranking metric, each a metric of every grid point."""
    known = set(metric_names(plans[0]))
    for p in plans[1:]:
        known &= set(metric_names(p))
    for name in [*metrics, rank_by]:
        if name not in known:
            option = "--rank-by" if name == rank_by and name not in metrics else "--metric"
            hint = " (it needs --skill)" if name == "skill_index" else ""
            raise InputError(f"{option} {name!r}: not a metric of every grid point{hint} (e.g. mean_turns, "
                             "first_player_edge, no_winner_rate, mean_winner_points; docs/METRICS.md lists them)")
    return metrics


def _sweep_command(rules: RuleSpec | None, axes: list[tuple[str, list[Any]]], games: int, players: int | None,
                   bots: str | None, seed: int, given: dict[str, Any], skill: bool, targets: list | None = None,
                   cap: int | None = None) -> str:
    """The `uno-sim sweep ...` command that reproduces the sweep."""
    from .precision import precision_options

    vary_words = [w for knob, values in axes for w in ("--vary", f"{knob}={','.join(grids.setting_text(v) for v in values)}")]
    options = vary_words + _common_options("--games", games, players, bots, seed, rules or "standard", given)
    if targets:
        options = precision_options(options, targets, cap)
    if skill:
        options.append("--skill")
    return command_line("sweep", [rules] if rules is not None else [], options)


@speaks_python
@shared_parameters
def sweep(rules: RuleSpec | None, vary: Mapping[str, Sequence[Any]] | Sequence[str] | str, *, games: int = 100_000,
          players: int | None = None, bots: str | Sequence[str] | None = None, seed: int = 0,
          overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
          metrics: Sequence[str] | None = None, rank_by: str = "mean_turns",
          fair_within: float = DEFAULT_FAIR_WITHIN, top: int = DEFAULT_TOP, progress: ProgressLike = False,
          cluster: str | None = None, checkpoint: str | Path | None = None, skill: bool = False,
          precision: str | Sequence[str] | None = None, max_games: int | None = None) -> Sweep:
    """Simulate a rule set once per value of a knob, or at every point of a grid of knobs.

    Parameters
    ----------
    rules : str, Path, Rules or None
        The rule set varied: a preset name, a TOML rule file or a ``Rules`` value; None when
        `vary` varies the preset itself (``{"preset": ["standard", "house"]}``).
    vary : dict, list of str, or str
        The knobs varied and their values: ``{"players": [2, 3, 4]}``, a comma text per knob
        (``{"players": "2,3,4"}``) or the command line's texts (``["players=2..6"]``).
        Two or more knobs play the full grid (at most 10,000 points).
    games : int, default 100_000
        Games per value (grid point).
    $players
    $bots
    $seed
    $overrides
    $workers
    metrics : list of str, optional
        The metrics drawn as heatmaps of a grid (default None: ``mean_turns`` and
        ``first_player_edge``).
    rank_by : str, default "mean_turns"
        The metric that ranks a grid's fair points (smallest first).
    fair_within : float, default 1.0
        A grid point is fair when the first-player edge's 95% interval lies within this many
        percentage points of 0 (above 0, at most 100).
    top : int, default 10
        How many fair grid points the ranked table shows.
    progress : bool or Progress, default False
        True: show a progress bar (and the engine's start-up) on standard error; or a
        ``uno_sim.running.progress.Progress`` object, told how far the games are.
    $cluster
    $checkpoint
    skill : bool, default False
        Also report ``skill_index`` at every point (one pro against random bots, seats rotated).
    precision : str or list of str, optional
        Targets ``"METRIC=HALF_WIDTH"`` of every grid point's interval (rates as fractions,
        or ``"0.3pp"``): all points are played together in looks (10,000, 20,000, 40,000, ...
        games, on the same deals) until every point's named intervals are that narrow;
        `games` is then not used. Intervals are widened so that stopping at the first narrow
        look keeps 95% coverage (docs/METRICS.md). Default None: play `games` games.
    max_games : int, optional
        With `precision`: the games a point of the last look, reported when the targets were
        not met by then. Default None: 10,000,000.

    Returns
    -------
    Sweep
        ``summary`` (every point's metrics), ``ranked`` (a grid's points, fair ones first),
        ``headline``, ``plot()`` (one knob) or ``plot_heatmap(metric)`` (a grid), ``to_html()``.

    $raises_bad_input

    Examples
    --------
    >>> import uno_sim
    >>> sw = uno_sim.sweep("standard", {"players": [2, 3, 4, 5, 6]}, games=20_000)  # doctest: +SKIP
    >>> sw.plot()  # doctest: +SKIP
    """
    return prepare_sweep(rules, vary, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                         workers=workers, metrics=metrics, rank_by=rank_by, fair_within=fair_within, top=top,
                         cluster=cluster, checkpoint=checkpoint, skill=skill, precision=precision,
                         max_games=max_games).execute(progress=progress)
