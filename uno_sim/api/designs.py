"""The rule designer: a race over a grid of rule sets for the best one that meets
constraints; `prepare_design`, `DesignPlan`, `Design`, `design`.

The grid is a sweep's (`--vary`, presets and rule files included). Every point in the race
plays the same games each round (running/rounds.py); after a round, points whose constraint
intervals are broken, and points a feasible leader beats on the objective, are dropped
(stats/racing.py: paired differences, one Bonferroni family over the whole race). The race
ends with one feasible point, a tie within the tolerance, no feasible point, or the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..game.errors import InputError, did_you_mean
from ..game import metrics
from ..running.progress import ProgressLike
from .common import DEFAULT_MAX_GAMES, MAX_GAMES, RuleSpec, _common_options, bots_text, check_count, command_line, override_dict, shared_parameters, \
    speaks_python
from .result_base import _Charts, _frame_records

if TYPE_CHECKING:  # the statistics (numba, pandas, scipy) load when a race is planned, not with --help
    from ..stats.racing import Constraint
from .runs import RunPlan
from . import grids
from .grids import PRESET_AXIS
from .sweeps import metric_names

MIN_ROUND_GAMES = 1000
ROUNDS_AIMED = 8  # the default first round: about budget / (ROUNDS_AIMED x points) games a point


@dataclass(repr=False)
class Design(_Charts):
    """A finished race. `standings` (standings.csv): every grid point, the winner first, with
    its objective, constraint metrics and difference to the leader it was last compared
    with; `race` (race.csv): every point at every round it played; `rounds`: one row a round;
    `winner` (the point's name, or None), `outcome`, `games_used`, `full_grid_games`;
    `headline`, `plot()` (the race chart), `to_html()`."""

    label: str
    knobs: list[str]
    point_names: list[str]  # the grid points' names, in grid order
    settings: list[dict[str, Any]]
    objective: str
    minimize: bool
    constraints: list[Constraint]
    tolerance: float
    budget: int
    seed: int
    bots: str
    players: list[int]
    race: Any  # DataFrame
    rounds: Any  # DataFrame
    standings: Any  # DataFrame
    winner: str | None
    certified: bool  # the winner meets every constraint with confidence
    outcome: str
    games_used: int
    full_grid_games: int
    looks: int
    confidence: float
    command: str = ""

    kind = "design"

    @property
    def names(self) -> list[str]:
        """What the race was over (the report's title): the grid's label."""
        return [self.label]

    @property
    def metrics(self) -> list[str]:
        return list(dict.fromkeys([self.objective] + [c.metric for c in self.constraints]))

    @cached_property
    def headline(self) -> list[str]:
        from ..output.race import design_headline

        return design_headline(self)

    def tables(self):
        from ..output.race import rounds_table, standings_table

        return [standings_table(self), rounds_table(self)]

    def to_dict(self) -> dict:
        """What `uno-sim design --json` prints: the outcome, the headline, the standings and the rounds."""
        return {"command": self.command, "grid": self.label, "knobs": self.knobs, "objective": self.objective,
                "direction": "minimize" if self.minimize else "maximize",
                "constraints": [str(c) for c in self.constraints], "tolerance": None if self.tolerance != self.tolerance else self.tolerance,
                "winner": self.winner, "winner_meets_constraints": self.certified, "outcome": self.outcome,
                "games_used": self.games_used, "full_grid_games": self.full_grid_games, "budget": self.budget,
                "seed": self.seed, "confidence": self.confidence, "headline": list(self.headline),
                "standings": _frame_records(self.standings), "rounds": _frame_records(self.rounds)}

    def chart_names(self) -> list[str]:
        return ["race"]

    def figure(self, name: str):
        return self.plot()

    def plot(self):
        """The race chart: each point's objective with its race interval, round by round."""
        from ..output.race import race_chart

        return race_chart(self)

    def files(self) -> dict[str, Callable[[Path], None]]:
        from .. import stats

        return {"standings.csv": lambda path: stats.write_csv(self.standings, path),
                "race.csv": lambda path: stats.write_csv(self.race, path)} | self._chart_files() | self._report_file()


@dataclass
class DesignPlan:
    label: str
    knobs: list[str]
    points: list[dict[str, Any]]
    plans: list[RunPlan]
    objective: str
    minimize: bool
    constraints: list[Constraint]
    budget: int
    round_games: int
    tolerance: float | None
    workers: int | None = None
    command: str = ""
    names: list[str] = field(default_factory=list)
    checkpoint: Any = None  # (a race keeps no checkpoint)

    @property
    def preset(self) -> str:
        return self.label

    def execute(self, progress: ProgressLike = False) -> Design:
        """Run the race (`progress`: as for RunPlan.execute)."""
        from ..running.progress import as_progress
        from .races import run_race

        found = run_race(self, as_progress(progress))
        bots = self.plans[0].bots
        labels = {b.label for b in bots}
        bots_text = f"{next(iter(labels))} in every seat" if len(labels) == 1 else ",".join(b.label for b in bots)
        return Design(self.label, self.knobs, self.names, self.points, self.objective, self.minimize,
                      self.constraints, budget=self.budget, seed=self.plans[0].seed, bots=bots_text,
                      players=[p.rules.players for p in self.plans], command=self.command, **found)


def _check_objective(minimize: str | None, maximize: str | None) -> tuple[str, bool]:
    if (minimize is None) == (maximize is None):
        raise InputError("give exactly one of --minimize METRIC or --maximize METRIC"
                         + (" (not both)" if minimize is not None else ""))
    return (minimize, True) if minimize is not None else (maximize, False)


def _check_race_metric(name: str, option: str, plans: list[RunPlan]) -> None:
    """A metric the race can pair at every grid point (one line naming the problem if not);
    which metrics can be raced is the metric table's `design` (game/metrics.py)."""
    from ..stats.racing import RACE_METRICS

    entry = metrics.find(name)
    if entry is not None and not entry.design:
        raise InputError(f"{option} {name}: cannot be raced: {entry.not_raced}")
    if entry is not None and entry.when == "skill":  # (played as each point's skill games)
        return
    if name not in RACE_METRICS:
        raise InputError(f"{option}: unknown metric {name!r}{did_you_mean(name, RACE_METRICS)} (e.g. mean_turns, "
                         "first_player_edge, no_winner_rate, mean_winner_points; docs/METRICS.md lists them)")
    for plan in plans:
        if name not in metric_names(plan):
            raise InputError(f"{option} {name}: not a metric of grid point {plan.progress_label or plan.name} "
                             f"({plan.rules.players} players)")


def _check_constraints(texts: Sequence[str | Constraint] | str | None, plans: list[RunPlan]) -> list[Constraint]:
    from ..game.metrics import check_bound
    from ..stats.racing import RACE_METRICS, Constraint, contradiction, parse_constraint

    if isinstance(texts, (str, Constraint)):
        texts = [texts]
    out = []
    for text in texts or []:
        try:
            c = text if isinstance(text, Constraint) else parse_constraint(str(text))
        except ValueError as exc:
            raise InputError(f"--constraint: {exc}") from None
        _check_race_metric(c.metric, "--constraint", plans)
        if not RACE_METRICS[c.metric].is_rate and "pp" in c.text:
            raise InputError(f"--constraint {c.text!r}: pp (percentage points) is for rates; {c.metric} is a mean")
        problem = check_bound(c.metric, c.bound, f"--constraint {str(c)!r}", c.absolute)
        if problem:
            raise InputError(problem)
        out.append(c)
    clash = contradiction(out)
    if clash:
        both = "both" if len(clash) == 2 else "all"
        raise InputError(f"--constraint {' and '.join(repr(str(c)) for c in clash)} cannot {both} hold: no value of "
                         f"{clash[0].metric} meets them, so no grid point could be chosen")
    return out


def _check_tolerance(tolerance: float | str | None, objective: str) -> float | None:
    from ..game.metrics import check_bound
    from ..stats.racing import RACE_METRICS

    if tolerance is None:
        return None
    text = str(tolerance).strip()
    scale = 1.0
    if text.endswith("pp"):
        if not RACE_METRICS[objective].is_rate:
            raise InputError(f"--tolerance {text}: pp (percentage points) is for rates; {objective} is a mean")
        text, scale = text[:-2].strip(), 0.01
    try:
        value = float(text) * scale
    except ValueError:
        raise InputError(f"--tolerance must be a number, e.g. 0.2 or 0.5pp (got {tolerance!r})") from None
    if not value >= 0 or value == float("inf"):
        raise InputError(f"--tolerance must be 0 or more (got {tolerance!r})")
    problem = check_bound(objective, value, f"--tolerance {str(tolerance).strip()}", span=True)
    if problem:
        raise InputError(problem)
    return value


def _first_round(budget: int, points: int, round_games: int | None, streams: Sequence[bool] = (False,)) -> int:
    """Games a point plays in the first round (`streams`: the race's streams of games,
    racing.race_streams: its own games, its skill games, or both)."""
    check_count("--round-games", round_games, minimum=MIN_ROUND_GAMES, maximum=MAX_GAMES)
    n = len(streams)
    first = round_games or max(MIN_ROUND_GAMES, budget // (ROUNDS_AIMED * points * n) // 1000 * 1000)
    if points * first * n > budget:
        games = f"{first:,} {'skill games' if list(streams) == [True] else 'games'}"
        if n > 1:
            games += " and as many skill games"
        raise InputError(f"--max-games {budget:,} is too small for one round: {points} grid points x {games} "
                         f"= {points * first * n:,} (raise --max-games or lower --round-games, at least "
                         f"{MIN_ROUND_GAMES:,})")
    return first


def _point_name(point: dict[str, Any]) -> str:
    return " ".join(str(v) if k == PRESET_AXIS else f"{k}={grids.setting(v)}" for k, v in point.items())


def prepare_design(rules: RuleSpec | None, vary: Mapping[str, Sequence[Any]] | Sequence[str] | str, *,
                   minimize: str | None = None, maximize: str | None = None,
                   constraints: Sequence[str | Constraint] | str | None = None,
                   max_games: int = DEFAULT_MAX_GAMES, round_games: int | None = None,
                   tolerance: float | str | None = None, players: int | None = None, bots: str | None = None,
                   seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
                   workers: int | None = None) -> DesignPlan:
    """A checked race (see `design`); every argument checked before a game is played."""
    objective, lowest = _check_objective(minimize, maximize)
    bots = bots_text(bots)
    axes = grids.axes(vary)
    knobs = [k for k, _ in axes]
    by_preset = grids.check_knobs(knobs, rules)
    given = override_dict(overrides)
    grids.check_conflicts(knobs, given, players)
    points = grids.grid(axes)
    if len(points) < 2:
        raise InputError("a race needs a grid of two or more points (--vary KNOB=V1,V2,...)")
    check_count("--max-games", max_games, maximum=MAX_GAMES)
    label, names = grids.grid_names(axes, rules, by_preset)
    plans = [grids.point_plan(point, rules, names, label, given, games=max_games, players=players, bots=bots,
                         seed=seed, workers=workers) for point in points]
    option = "--minimize" if lowest else "--maximize"
    _check_race_metric(objective, option, plans)
    checked = _check_constraints(constraints, plans)
    from ..stats.racing import race_streams

    streams = race_streams([objective] + [c.metric for c in checked])
    first = _first_round(max_games, len(points), round_games, streams)
    tol = _check_tolerance(tolerance, objective)
    words = [w for knob, values in axes for w in ("--vary", f"{knob}={','.join(grids.setting_text(v) for v in values)}")]
    words += [option, objective] + [w for c in checked for w in ("--constraint", str(c))]
    words += _common_options("--max-games", max_games, players, bots, seed, rules or "standard", given)
    if round_games is not None:
        words += ["--round-games", str(round_games)]
    if tolerance is not None:
        words += ["--tolerance", str(tolerance)]
    command = command_line("design", [rules] if rules is not None else [], words)
    return DesignPlan(label, knobs, points, plans, objective, lowest, checked, max_games, first, tol, workers,
                      command, [_point_name(p) for p in points])


@speaks_python
@shared_parameters
def design(rules: RuleSpec | None, vary: Mapping[str, Sequence[Any]] | Sequence[str] | str, *,
           minimize: str | None = None, maximize: str | None = None,
           constraints: Sequence[str] | str | None = None, max_games: int = DEFAULT_MAX_GAMES,
           round_games: int | None = None, tolerance: float | str | None = None, players: int | None = None,
           bots: str | Sequence[str] | None = None, seed: int = 0,
           overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
           progress: ProgressLike = False) -> Design:
    """Race a grid of rule sets for the one that minimises (or maximises) a metric while
    meeting constraints on others, spending games only on the points still in the race.

    Parameters
    ----------
    rules : str, Path, Rules or None
        The rule set varied (as for ``sweep``): a preset name, a TOML rule file or a ``Rules``
        value; None when `vary` varies the preset itself (``{"preset": ["standard", "house"]}``).
    vary : dict, list of str, or str
        The grid, as ``sweep`` takes it: ``{"stack_draw_two": [False, True], "hand_size": "5,6,7,8"}``
        or ``["stack_draw_two=false,true", "hand_size=5..8"]``; at least two points.
    minimize : str, optional
        The metric to make as small as possible (a rate or a mean, e.g. ``"mean_turns"``).
        Default None: give `maximize` instead (exactly one of the two).
    maximize : str, optional
        The metric to make as large as possible. Default None: give `minimize` instead.
    constraints : list of str, optional
        ``"METRIC<VALUE"``, ``"METRIC>VALUE"`` or ``"abs(METRIC)<VALUE"``; rates as fractions or
        with a ``pp`` suffix (``"abs(first_player_edge)<0.5pp"``). Default None: no constraint.
    max_games : int, default 2_000_000
        The whole race's budget of games, over every point and round.
    round_games : int, optional
        Games a point plays in the first round (at least 1,000; each later round doubles a
        point's games). Default None: about max_games / (8 x points).
    tolerance : float or str, optional
        Stop with a tie when every point left is within this of the leader (objective units,
        or ``"0.5pp"`` for a rate). Default None: 0.5 pp for a rate, 1% of the best first-round
        estimate for a mean.
    $players
    bots : str or list of str, optional
        One bot per seat, or one for every seat (as for ``run``). Default None: ``random`` in
        every seat.
    seed : int, default 0
        The race's seed: the same seed runs the same race (0 to 2**63 - 1).
    overrides : dict or list of str, optional
        Knob values applied at every point (not a varied knob). Default None.
    workers : int, optional
        Threads to play on (default None: every core); the race is the same for any number.
    progress : bool or Progress, default False
        True: show a progress bar per round on standard error; or a
        ``uno_sim.running.progress.Progress`` object.

    Returns
    -------
    Design
        ``winner``, ``standings`` (every point, the winner first), ``race`` (every round),
        ``rounds``, ``headline``, ``plot()`` (the race chart), ``to_html()``.

    $raises_bad_input

    Examples
    --------
    >>> import uno_sim
    >>> d = uno_sim.design("house", ["hand_size=5..8", "stack_draw_two=false,true", "jump_in=false,true"],
    ...                    minimize="mean_turns", constraints=["abs(first_player_edge)<1pp"])  # doctest: +SKIP
    >>> d.winner  # doctest: +SKIP
    """
    return prepare_design(rules, vary, minimize=minimize, maximize=maximize, constraints=constraints,
                          max_games=max_games, round_games=round_games, tolerance=tolerance, players=players,
                          bots=bots_text(bots), seed=seed, overrides=overrides,
                          workers=workers).execute(progress=progress)
