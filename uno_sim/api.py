"""uno-sim from Python: `run`, `compare`, `sweep` and `match`, for notebooks and scripts.

    import uno_sim
    res = uno_sim.run("stacking", games=200_000, players=5, seed=7)
    res.summary                 # tidy DataFrame, the columns of summary.csv
    res.plot_win_rates()        # a matplotlib Figure

    cmp = uno_sim.compare(["standard", "house.toml"], games=200_000, overrides={"jump_in": True})
    cmp.differences             # each variant minus the first, with intervals and p-values

Rules are given as a built-in preset name, a path to a TOML rule file (see uno_sim.presets),
or a `Rules` value; `overrides` is a dict of knob values (`{"hand_size": 5}`) applied on top;
`bots` a spec like "expert,random,random,random" (uno_sim.bots). Every argument is checked
before anything is played; bad input raises a `uno_sim.BadInput` whose message names it.
The command line is a thin layer over this module: `prepare_*` checks and plans, the plan's
`execute()` plays, and each result's `files()` names the files a command writes.

Every call takes `cluster` (a Dask scheduler address `tcp://host:8786`, or `local[:N]`: the
same numbers, played by a cluster's workers; uno_sim.cluster) and `checkpoint` (a folder
keeping every finished chunk, so that the same call after an interruption continues where it
stopped; uno_sim.checkpoint).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from . import presets
from .bots import Bot, describe, parse_bots
from .errors import InputError
from .knobs import BY_NAME, MAX_PLAYERS
from .rules import Rules, RulesError, build_rules, parse_assignments, parse_value

MAX_GAMES = 10**12  # games (or matches) per variant: far beyond a day's run, well inside int64 counts
MAX_SEED = 2**63 - 1
MAX_SWEEP_POINTS = 1000

RuleSpec = str | Path | Rules


# ---------------------------------------------------------------- checks


def check_count(option: str, value: int | None, minimum: int = 1, maximum: int = MAX_GAMES) -> None:
    """An integer option within its bounds (None: not given)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{option} must be a whole number (got {value!r})")
    if value < minimum:
        raise InputError(f"{option} must be at least {minimum:,} (got {value:,})")
    if value > maximum:
        raise InputError(f"{option} must be at most {maximum:,} (got {value:,})")


def _check_common(games: int, seed: int, workers: int | None, games_option: str = "--games") -> None:
    check_count(games_option, games)
    check_count("--seed", seed, minimum=0, maximum=MAX_SEED)
    check_count("--workers", workers, maximum=1024)


def load_rules(rules: RuleSpec = "standard", overrides: Mapping[str, Any] | Sequence[str] | None = None,
               players: int | None = None) -> tuple[str, Rules]:
    """(name, Rules) of a preset name, rule file or Rules value, overrides and players applied."""
    check_count("--players", players, minimum=2, maximum=MAX_PLAYERS)
    given = override_dict(overrides)
    if isinstance(rules, Rules):
        values = rules.as_dict() | {k: parse_value(k, v) for k, v in given.items()}
        if players is not None:
            values["players"] = players
        return "custom", build_rules(values)
    spec = str(rules)
    return presets.find(spec).name, presets.load(spec, given, players)


def override_dict(overrides: Mapping[str, Any] | Sequence[str] | None) -> dict[str, Any]:
    """Overrides as {knob: value}: a dict as is, `KNOB=VALUE` texts split (a knob given twice
    is an error naming it)."""
    if isinstance(overrides, Mapping):
        return dict(overrides)
    return dict(parse_assignments(list(overrides or [])))


def _unique_names(names: list[str]) -> list[str]:
    """Names made unique with -2, -3, ... (never colliding with another given name)."""
    taken = set(names)
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        if seen[name] == 1:
            out.append(name)
            continue
        k = seen[name]
        while f"{name}-{k}" in taken:
            k += 1
        seen[name] = k
        taken.add(f"{name}-{k}")
        out.append(f"{name}-{k}")
    return out


def _shell_word(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _spec_text(rules: RuleSpec) -> str:
    return "standard" if isinstance(rules, Rules) else str(rules)


def _rule_args(rules: RuleSpec, overrides: Mapping[str, Any] | Sequence[str] | None) -> list[str]:
    """`--set KNOB=VALUE` words of the overrides; a Rules value becomes its knobs away from the
    defaults on top of standard."""
    from .tables import fmt_value

    given = override_dict(overrides)
    if isinstance(rules, Rules):
        given = {k: v for k, v in rules.as_dict().items() if v != BY_NAME[k].default} | given
    return [word for k, v in given.items() for word in ("--set", f"{k}={fmt_value(v)}")]


def command_line(command: str, specs: Sequence[RuleSpec], options: Sequence[str]) -> str:
    """The `uno-sim ...` command that reproduces a result, quoted for a POSIX shell."""
    words = ["uno-sim", command, *(_spec_text(s) for s in specs), *options]
    return " ".join(_shell_word(w) for w in words)


def _common_options(count_option: str, count: int, players: int | None, bots: str | None, seed: int,
                    rules: RuleSpec, overrides, rotate_seats: bool = False) -> list[str]:
    words = [count_option, str(count), "--seed", str(seed)]
    if players is not None:
        words += ["--players", str(players)]
    if bots is not None:
        words += ["--bots", bots]
    words += _rule_args(rules, overrides)
    if rotate_seats:
        words.append("--rotate-seats")
    return words


class _Charts:
    """Charts of a result rendered once as PNG bytes, for the files and the report alike."""

    def chart_names(self) -> list[str]:
        raise NotImplementedError

    def figure(self, name: str):
        raise NotImplementedError

    def chart_png(self, name: str) -> bytes:
        from . import charts

        cache = self.__dict__.setdefault("_png_cache", {})
        if name not in cache:
            cache[name] = charts.png_bytes(self.figure(name))
        return cache[name]

    def _chart_files(self) -> dict[str, Callable[[Path], None]]:
        from . import charts

        return {f"{name}.png": (lambda path, name=name: charts.write_png(self.chart_png(name), path))
                for name in self.chart_names()}

    def _report_file(self) -> dict[str, Callable[[Path], None]]:
        from . import report

        return {"report.html": lambda path: report.write(self, path)}

    def to_html(self) -> str:
        """The one-page report (report.html) as text."""
        from . import report

        return report.html(self)


def _frame_records(frame) -> list[dict]:
    """Rows of a frame as JSON-ready dicts (NaN -> None, numpy scalars -> Python)."""
    import json

    return json.loads(frame.to_json(orient="records", double_precision=15))


# ---------------------------------------------------------------- one run


class VariantCharts(_Charts):
    """The charts of one or more simulated variants (charts.VARIANT_CHARTS), as Figures;
    `_variants()` gives the charts' view of each variant."""

    def _variants(self) -> list:
        raise NotImplementedError

    def _stacking(self) -> bool:
        from .charts import stacking_on

        return any(stacking_on(v.rules) for v in getattr(self, "runs", [self]))

    def plot(self, chart: str):
        """One of charts.VARIANT_CHARTS by name, as a Figure."""
        from .charts import VARIANT_CHARTS

        return VARIANT_CHARTS[chart](self._variants())

    def plot_win_rates(self):
        return self.plot("win_rates")

    def plot_game_length(self):
        return self.plot("game_length")

    def plot_winner_points(self):
        return self.plot("winner_points")

    def plot_bot_win_rates(self):
        return self.plot("bot_win_rates")

    def plot_max_pending(self):
        return self.plot("max_pending")

    def _mixed_bots(self) -> bool:
        return any(len({b.label for b in v.bots}) > 1 for v in getattr(self, "runs", [self]))

    def chart_names(self) -> list[str]:
        """The charts that apply: max_pending only when some variant stacks, bot_win_rates only
        when some variant seats more than one kind of bot (with one bot everywhere it would
        only restate the no-winner rate)."""
        from .charts import variant_chart_names

        return variant_chart_names(self._stacking(), self._mixed_bots())

    def figure(self, name: str):
        return self.plot(name)


@dataclass
class Run(VariantCharts):
    """A simulated variant: `summary`, `distributions` (and `games`, the per-game rows, when
    asked for) as tidy DataFrames with the columns of the CSV files; `headline`, a few
    sentences; `plot_*()` give Figures; `to_html()` the one-page report."""

    name: str
    result: Any  # simulate.RunResult
    command: str = ""  # the uno-sim command that reproduces it
    skill_result: Any = None  # simulate.RunResult of the skill games (--skill), else None

    kind = "run"

    @property
    def rules(self) -> Rules:
        return self.result.rules

    @property
    def bots(self) -> list[Bot]:
        return self.result.bots

    @cached_property
    def summary(self):
        frame = self.result.summary(self.name)
        if self.skill_result is None:
            return frame
        import pandas as pd

        from .stats import summary_frame
        from .tournament import skill_measure

        skill = summary_frame([skill_measure(self.skill_result)], self.name, self.skill_result.games)
        return pd.concat([frame, skill], ignore_index=True)

    @cached_property
    def distributions(self):
        return self.result.distributions(self.name)

    @property
    def games(self):
        """The per-game rows (`run(..., per_game=True)`), else None."""
        return self.result.games_frame

    def measures(self):
        """Every metric (docs/METRICS.md), with `skill_index` last when the skill games were played."""
        ms = self.result.measures()
        if self.skill_result is not None:
            from .tournament import skill_measure

            ms.append(skill_measure(self.skill_result))
        return ms

    @cached_property
    def headline(self):
        from .headline import run_headline

        seats = {label: [b.label for b in self.bots].count(label) for label in dict.fromkeys(b.label for b in self.bots)}
        return run_headline(self.summary, seats)

    @property
    def startup(self):
        """The engine's start-up before the games were timed (warmup.Startup)."""
        return self.result.startup

    @property
    def runs(self) -> list["Run"]:
        return [self]

    def tables(self):
        from .tables import run_tables

        return run_tables(self)

    def to_dict(self) -> dict:
        """What `uno-sim run --json` prints: the headline and the summary rows."""
        return {"command": self.command, "variant": self.name, "games": self.result.games, "seed": self.result.seed,
                "headline": list(self.headline), "summary": _frame_records(self.summary)}

    def _chart_variant(self):
        from .charts import Variant

        return Variant(name=self.name, summary=self.summary, aggregate=self.result.aggregate,
                       players=self.rules.players, bots=describe(self.bots),
                       bot_labels=[b.label for b in self.bots], games=self.result.games)

    def _variants(self) -> list:
        return [self._chart_variant()]

    def files(self) -> dict[str, Callable[[Path], None]]:
        """The files `uno-sim run` writes, by name, each with its writer (path -> None)."""
        from . import stats

        return {
            "summary.csv": lambda path: stats.write_csv(self.summary, path),
            "distributions.csv": lambda path: stats.write_csv(self.distributions, path),
        } | self._chart_files() | self._report_file()


@dataclass
class RunPlan:
    """A checked run, ready to play (`execute`)."""

    name: str
    rules: Rules
    bots: list[Bot]
    games: int
    seed: int
    workers: int | None = None
    rotate_seats: bool = False
    skill: bool = False  # also play the skill games (expert against random, seats rotated)
    spec: RuleSpec = "standard"  # as given, for the command line that reproduces the run
    options: list[str] = field(default_factory=list)  # its options (games, seed, players, ...)

    cluster: Any = None  # cluster.ClusterSpec: play on a Dask cluster
    checkpoint: Any = None  # checkpoint.Checkpoint: keep every finished chunk there
    progress_label: str | None = None  # the progress bar's text (default: the name)

    @property
    def command(self) -> str:
        return command_line("run", [self.spec], self.options)

    def unit_params(self) -> dict[str, Any]:
        """What the run's numbers depend on (recorded in a checkpoint)."""
        from .checkpoint import unit_params
        from .chunks import fixed_chunk
        from .simulate import GameWork

        return unit_params("games", self.rules, self.bots, self.seed, self.games, self.rotate_seats,
                           fixed_chunk(GameWork, self.games))

    def execute(self, progress: bool = False, per_game: bool = False, per_game_csv: Path | None = None,
                per_game_parquet: Path | None = None) -> Run:
        paths = (lambda name: (per_game_csv, per_game_parquet)) if per_game_csv or per_game_parquet else None
        return _play_runs([self], self.cluster, self.workers, self.checkpoint, progress, per_game, paths)[0]


def check_per_game(per_game: bool, cluster: Any, checkpoint: Any) -> None:
    """Per-game rows need every game's row back here: not with --cluster or --checkpoint."""
    if per_game and (cluster is not None or checkpoint is not None):
        which = "--cluster" if cluster is not None else "--checkpoint"
        raise InputError(f"--per-game and --parquet cannot be combined with {which}: only each chunk's aggregate "
                         "is sent back and kept, not every game's row; leave one of them out")


def _play_runs(plans: list[RunPlan], cluster: Any, workers: int | None, checkpoint: Any, progress: bool,
               per_game: bool = False,
               per_game_paths: Callable[[str], tuple[Path | None, Path | None]] | None = None) -> list[Run]:
    """Play several runs through one pipeline, on threads or a cluster, with a checkpoint."""
    from . import cluster as cluster_mod
    from .simulate import GameRun, play_runs

    paths = [per_game_paths(plan.name) if per_game_paths else (None, None) for plan in plans]
    check_per_game(per_game or any(p is not None for pair in paths for p in pair), cluster, checkpoint)
    runs = [GameRun(plan.rules, plan.bots, plan.games, plan.seed, per_game_path=csv, parquet_path=parquet,
                    description=plan.progress_label or plan.name, rotate_seats=plan.rotate_seats,
                    keep_games=per_game)
            for plan, (csv, parquet) in zip(plans, paths)]
    with cluster_mod.executor(cluster, workers) as executor:
        if checkpoint is not None:
            checkpoint.begin()
            for i, run_ in enumerate(runs):
                run_.unit().store = checkpoint.store(i)
        try:
            results = play_runs(runs, executor, progress)
        finally:
            if checkpoint is not None:
                checkpoint.end()
    return [Run(plan.name, result, plan.command, _skill_games(plan, progress))
            for plan, result in zip(plans, results)]


def _skill_games(plan: RunPlan, progress: bool) -> Any:
    """The skill games of a plan with `skill` (expert against random, seats rotated), else None."""
    if not plan.skill:
        return None
    from .tournament import skill_games

    return skill_games(plan.rules, plan.games, plan.seed, plan.workers, progress, f"{plan.name} (skill index)")


def _open_checkpoint(path: str | Path | None, command: str, units: Callable[[], list[dict]]) -> Any:
    if path is None:
        return None
    from .checkpoint import Checkpoint

    return Checkpoint.open(path, command, units())


def prepare_run(rules: RuleSpec = "standard", *, games: int = 100_000, players: int | None = None,
                bots: str | None = None, seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
                workers: int | None = None, rotate_seats: bool = False, name: str | None = None,
                cluster: str | None = None, checkpoint: str | Path | None = None) -> RunPlan:
    """A checked run. `cluster`: a Dask scheduler address (`tcp://host:8786`) or `local[:N]`;
    `checkpoint`: a folder keeping every finished chunk, from which a stopped run continues."""
    _check_common(games, seed, workers)
    label, loaded = load_rules(rules, overrides, players)
    options = _common_options("--games", games, players, bots, seed, rules, overrides, rotate_seats)
    plan = RunPlan(name or label, loaded, parse_bots(bots, loaded.players), games, seed, workers, rotate_seats,
                   spec=rules, options=options, cluster=_cluster(cluster))
    plan.checkpoint = _open_checkpoint(checkpoint, "run", lambda: [plan.unit_params()])
    return plan


def _cluster(text: str | None) -> Any:
    from .cluster import parse_cluster

    return parse_cluster(text)


def run(rules: RuleSpec = "standard", *, games: int = 100_000, players: int | None = None, bots: str | None = None,
        seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
        rotate_seats: bool = False, per_game: bool = False, progress: bool = False, cluster: str | None = None,
        checkpoint: str | Path | None = None) -> Run:
    """Simulate `games` games of one rule set; see the module docstring."""
    plan = prepare_run(rules, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                       workers=workers, rotate_seats=rotate_seats, cluster=cluster, checkpoint=checkpoint)
    return plan.execute(progress=progress, per_game=per_game)


# ---------------------------------------------------------------- compare


@dataclass
class Comparison(VariantCharts):
    """The same games under several rule sets; the first is the baseline. `summary` (the rows
    of compare.csv), `differences` (differences.csv), `distributions`; `headline`, the
    significant differences in words; `plot_*()` Figures with the variants side by side,
    `plot_differences()` the forest plot; `to_html()` the one-page report."""

    runs: list[Run]
    command: str = ""

    kind = "compare"

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.runs]

    @cached_property
    def summary(self):
        import pandas as pd

        return pd.concat([r.summary for r in self.runs], ignore_index=True)

    @cached_property
    def differences(self):
        from . import stats

        return stats.differences([(r.name, r.measures()) for r in self.runs])

    @cached_property
    def distributions(self):
        import pandas as pd

        return pd.concat([r.distributions for r in self.runs], ignore_index=True)

    @cached_property
    def headline(self):
        from .headline import compare_headline

        return compare_headline(self.summary, self.differences)

    @property
    def startup(self):
        from .warmup import Startup

        return sum((r.startup for r in self.runs), Startup())

    def tables(self, all_metrics: bool = False):
        from .tables import compare_table

        return [compare_table(self, all_metrics)]

    def to_dict(self) -> dict:
        """What `uno-sim compare --json` prints: headline, summary and differences rows."""
        first = self.runs[0].result
        return {"command": self.command, "variants": self.names, "baseline": self.names[0], "games": first.games,
                "seed": first.seed, "headline": list(self.headline), "summary": _frame_records(self.summary),
                "differences": _frame_records(self.differences)}

    def plot_differences(self):
        """Every compared metric's difference to the baseline with its interval (differences.png)."""
        from . import charts
        from .headline import quiet_metrics

        return charts.differences(self.differences, self.summary, [r._chart_variant() for r in self.runs],
                                  quiet_metrics(self.summary))

    def chart_names(self) -> list[str]:
        return ["differences", *super().chart_names()]

    def figure(self, name: str):
        return self.plot_differences() if name == "differences" else self.plot(name)

    def _variants(self) -> list:
        return [r._chart_variant() for r in self.runs]

    def files(self) -> dict[str, Callable[[Path], None]]:
        from . import stats

        return {
            "compare.csv": lambda path: stats.write_csv(self.summary, path),
            "differences.csv": lambda path: stats.write_csv(self.differences, path),
            "distributions.csv": lambda path: stats.write_csv(self.distributions, path),
        } | self._chart_files() | self._report_file()


@dataclass
class ComparePlan:
    plans: list[RunPlan]
    command: str = ""
    cluster: Any = None
    checkpoint: Any = None

    def execute(self, progress: bool = False, per_game: bool = False,
                per_game_paths: Callable[[str], tuple[Path | None, Path | None]] | None = None) -> Comparison:
        """`per_game_paths(name)`: the (csv, parquet) paths of a variant's per-game rows, or Nones."""
        workers = self.plans[0].workers
        return Comparison(_play_runs(self.plans, self.cluster, workers, self.checkpoint, progress, per_game,
                                     per_game_paths), self.command)


def prepare_compare(variants: Sequence[RuleSpec], *, games: int = 1_000_000, players: int | None = None,
                    bots: str | None = None, seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
                    workers: int | None = None, rotate_seats: bool = False, cluster: str | None = None,
                    checkpoint: str | Path | None = None, skill: bool = False) -> ComparePlan:
    """`skill`: also play `games` games of expert against random (seats rotated) per variant
    and report the `skill_index` metric."""
    variants = list(variants)
    if len(variants) < 2:
        raise InputError(f"compare needs at least two presets or rule files (got {len(variants)})")
    plans = [prepare_run(v, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                         workers=workers, rotate_seats=rotate_seats) for v in variants]
    for plan in plans:
        plan.skill = skill
    for plan, name in zip(plans, _unique_names([p.name for p in plans])):
        plan.name = name
    options = _common_options("--games", games, players, bots, seed, "standard", overrides, rotate_seats)
    if skill:
        options.append("--skill")
    out = ComparePlan(plans, command_line("compare", variants, options), _cluster(cluster))
    out.checkpoint = _open_checkpoint(checkpoint, "compare", lambda: [p.unit_params() for p in plans])
    return out


def compare(variants: Sequence[RuleSpec], *, games: int = 1_000_000, players: int | None = None,
            bots: str | None = None, seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
            workers: int | None = None, rotate_seats: bool = False, per_game: bool = False,
            progress: bool = False, cluster: str | None = None, checkpoint: str | Path | None = None,
            skill: bool = False) -> Comparison:
    """Simulate the same games (seed, game i) under each rule set; see the module docstring."""
    return prepare_compare(variants, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                           workers=workers, rotate_seats=rotate_seats, cluster=cluster,
                           checkpoint=checkpoint, skill=skill).execute(progress=progress, per_game=per_game)


# ---------------------------------------------------------------- sweep


PRESET_AXIS = "preset"  # `--vary preset=A,B,...`: presets or rule files as one axis of the grid
DEFAULT_METRICS = ("mean_turns", "first_player_edge")
DEFAULT_FAIR_WITHIN = 1.0  # percentage points: the first-player edge's 95% interval within +-this is "fair"
DEFAULT_TOP = 10
MAX_PANELS = 12  # small multiples: at most this many heatmap panels (grids of 3 or more knobs)


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """`KNOB=V1,V2,...` or `KNOB=A..B` (whole numbers, inclusive) -> (knob, typed values);
    `preset=A,B,...`: presets or rule files (checked to exist)."""
    knob, sep, spec = text.partition("=")
    knob, spec = knob.strip(), spec.strip()
    if not sep or not knob or not spec:
        raise InputError(f"bad --vary {text!r}: expected KNOB=V1,V2,... or KNOB=A..B")
    if knob == PRESET_AXIS:
        specs = [v.strip() for v in spec.split(",")]
        if any(not v for v in specs):
            raise InputError(f"bad --vary {text!r}: empty value in the list")
        if len(set(specs)) != len(specs):
            raise InputError(f"bad --vary {text!r}: a preset is listed twice")
        for item in specs:
            try:
                presets.find(item)
            except RulesError as exc:
                raise InputError(f"bad --vary {text!r}: {exc}") from None
        return knob, specs
    if knob not in BY_NAME:
        raise InputError(f"bad --vary {text!r}: unknown knob {knob!r} (see `uno-sim rules` for the list; "
                         f"`{PRESET_AXIS}=A,B,...` varies the preset)")
    if ".." in spec:
        first, _, last = spec.partition("..")
        try:
            a, b = int(first), int(last)
        except ValueError:
            raise InputError(f"bad --vary {text!r}: a range A..B needs two whole numbers") from None
        if BY_NAME[knob].values is not int:
            raise InputError(f"bad --vary {text!r}: knob {knob!r} is not a whole number; list the values")
        if a > b:
            raise InputError(f"bad --vary {text!r}: the range {a}..{b} is empty")
        if b - a >= 100:
            raise InputError(f"bad --vary {text!r}: at most 100 values")
        texts = [str(v) for v in range(a, b + 1)]
    else:
        texts = [v.strip() for v in spec.split(",")]
        if any(not v for v in texts):
            raise InputError(f"bad --vary {text!r}: empty value in the list")
    try:
        typed = [parse_value(knob, v) for v in texts]
    except RulesError as exc:
        raise InputError(f"bad --vary {text!r}: {exc}") from None
    if len(set(typed)) != len(typed):
        raise InputError(f"bad --vary {text!r}: a value is listed twice")
    return knob, typed


def _setting(value: Any) -> Any:
    """A knob value as written in sweep.csv: numbers as numbers, booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def is_fair(low: float, high: float, within_pp: float) -> bool:
    """Fair: the first-player edge's 95% interval lies inside +-within_pp percentage points
    (the data show the first player's advantage is at most that large)."""
    limit = within_pp / 100.0
    return bool(low == low and high == high and -limit <= low and high <= limit)


@dataclass
class Sweep(_Charts):
    """One run per grid point; `summary` is sweep.csv: the run's summary rows with one column
    per varied knob; `headline`, a few sentences. `plot()` (one varied knob) draws seat 0's
    win rate and the mean turns; `plot_heatmap(metric)` (two knobs; small multiples for more)
    a metric over the grid; `ranked` orders the grid points by `rank_by`, the fair ones first
    (`is_fair`); `to_html()` the one-page report."""

    preset: str
    knobs: list[str]
    points: list[dict[str, Any]]
    runs: list[Run]
    command: str = ""
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    rank_by: str = "mean_turns"
    fair_within: float = DEFAULT_FAIR_WITHIN
    top: int = DEFAULT_TOP

    kind = "sweep"

    @cached_property
    def summary(self):
        import pandas as pd

        frames = []
        for point, run_ in zip(self.points, self.runs):
            frame = run_.summary.copy()
            for i, knob in enumerate(self.knobs):
                frame.insert(1 + i, knob, _setting(point[knob]))
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
        from .headline import sweep_headline

        return sweep_headline(self.summary, self.knobs)

    @property
    def startup(self):
        from .warmup import Startup

        return sum((r.startup for r in self.runs), Startup())

    @property
    def names(self) -> list[str]:
        return [self.preset]

    @cached_property
    def ranked(self):
        """Every grid point: rank, the knobs, the ranking metric and the first-player edge
        with their 95% intervals, and `fair`; fair points first, each group by the metric
        (smallest first)."""
        import pandas as pd

        rows = []
        for point, run_ in zip(self.points, self.runs):
            by = run_.summary.set_index("metric")
            row = {knob: _setting(point[knob]) for knob in self.knobs}
            for name in dict.fromkeys([self.rank_by, "first_player_edge"]):
                m = by.loc[name] if name in by.index else None
                row[name] = m["value"] if m is not None else float("nan")
                row[f"{name}_ci_low"] = m["ci_low"] if m is not None else float("nan")
                row[f"{name}_ci_high"] = m["ci_high"] if m is not None else float("nan")
            row["fair"] = is_fair(row["first_player_edge_ci_low"], row["first_player_edge_ci_high"], self.fair_within)
            row["games"] = run_.result.games
            rows.append(row)
        frame = pd.DataFrame(rows)
        frame = frame.sort_values(["fair", self.rank_by], ascending=[False, True], kind="stable").reset_index(drop=True)
        frame.insert(0, "rank", range(1, len(frame) + 1))
        frame["fair"] = frame["fair"].map({True: "true", False: "false"})
        return frame

    def tables(self):
        from .tables import ranked_table, sweep_table

        return [sweep_table(self)] + ([ranked_table(self)] if len(self.knobs) > 1 else [])

    def to_dict(self) -> dict:
        """What `uno-sim sweep --json` prints: the headline and the sweep.csv rows (and with
        two or more knobs the ranked grid points)."""
        first = self.runs[0].result
        out = {"command": self.command, "preset": self.preset, "knobs": self.knobs, "games": first.games,
               "seed": first.seed, "headline": list(self.headline), "summary": _frame_records(self.summary)}
        if len(self.knobs) > 1:
            out["ranked"] = _frame_records(self.ranked)
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
        from . import charts

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
        from . import charts

        layout = self.heatmap_layout()
        if layout is None:
            raise ValueError("heatmaps need two or more varied knobs (and at most "
                             f"{MAX_PANELS} panels of the knobs beyond two)")
        x, y, facets = layout
        return charts.sweep_heatmap(self.summary, metric, x, y, facets, self.preset, self.bots_text,
                                    self.runs[0].result.games, [r.rules.players for r in self.runs])

    def files(self) -> dict[str, Callable[[Path], None]]:
        from . import stats

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

    def execute(self, progress: bool = False) -> Sweep:
        runs = _play_runs(self.plans, self.cluster, self.plans[0].workers, self.checkpoint, progress)
        return Sweep(self.preset, self.knobs, self.points, runs, self.command, list(self.metrics), self.rank_by,
                     self.fair_within, self.top)


def metric_names(plan: RunPlan) -> list[str]:
    """The metric names a run of this plan reports (summary.csv's `metric` column)."""
    from . import stats

    agg = stats.Aggregate(players=plan.rules.players, teams=plan.rules.teams, rotate=plan.rotate_seats)
    return [m.name for m in stats.measures(agg, [b.label for b in plan.bots], teams=plan.rules.teams)]


def prepare_sweep(rules: RuleSpec | None, vary: Mapping[str, Sequence[Any]] | Sequence[str], *, games: int = 100_000,
                  players: int | None = None, bots: str | None = None, seed: int = 0,
                  overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
                  metrics: Sequence[str] | None = None, rank_by: str = "mean_turns",
                  fair_within: float = DEFAULT_FAIR_WITHIN, top: int = DEFAULT_TOP, cluster: str | None = None,
                  checkpoint: str | Path | None = None, skill: bool = False) -> SweepPlan:
    """`vary`: {knob: values} or `--vary` texts; more than one knob runs the full grid. The
    knob `preset` varies the rule set itself (presets or rule files; then `rules` is None).
    `metrics`: the heatmaps drawn (default mean turns and the first-player edge); `rank_by`,
    `fair_within` (percentage points) and `top`: the ranked table of grid points. `skill`: also
    the `skill_index` metric at every point (expert against random, seats rotated)."""
    if isinstance(vary, Mapping):
        axes = []
        for knob, values in vary.items():
            if knob == PRESET_AXIS:
                axes.append(parse_vary(f"{knob}={','.join(str(v) for v in values)}"))
                continue
            if knob not in BY_NAME:
                raise InputError(f"bad vary: unknown knob {knob!r} (see `uno-sim rules` for the list)")
            axes.append((knob, [parse_value(knob, v) for v in values]))
    else:
        axes = [parse_vary(text) for text in vary]
    if not axes:
        raise InputError("sweep needs at least one --vary KNOB=VALUES")
    knobs = [k for k, _ in axes]
    if len(set(knobs)) != len(knobs):
        dup = next(k for k in knobs if knobs.count(k) > 1)
        raise InputError(f"--vary {dup} is given twice")
    by_preset = PRESET_AXIS in knobs
    if by_preset and rules is not None:
        raise InputError(f"give either PRESET or --vary {PRESET_AXIS}=A,B,..., not both")
    if not by_preset and rules is None:
        raise InputError(f"sweep needs a PRESET (or --vary {PRESET_AXIS}=A,B,... to vary the preset)")
    given = override_dict(overrides)
    for knob in knobs:
        if knob in given:
            raise InputError(f"--vary {knob} conflicts with --set {knob}=...")
        if knob == "players" and players is not None:
            raise InputError("--vary players conflicts with --players")
    check_count("--top", top, maximum=MAX_SWEEP_POINTS)
    if not (isinstance(fair_within, (int, float)) and 0 < fair_within <= 100):
        raise InputError(f"--fair-within must be between 0 and 100 percentage points (got {fair_within})")
    points = [dict(zip(knobs, combo)) for combo in itertools.product(*(values for _, values in axes))]
    if len(points) > MAX_SWEEP_POINTS:
        raise InputError(f"--vary: the grid has {len(points):,} points; at most {MAX_SWEEP_POINTS:,}")
    names: dict[str, str] = {}
    if by_preset:
        specs = dict(axes)[PRESET_AXIS]
        names = dict(zip(specs, _unique_names([presets.find(spec).name for spec in specs])))
        label = ", ".join(names.values())
    else:
        label = presets.find(str(rules)).name if not isinstance(rules, Rules) else "custom"
    plans = []
    for point in points:
        knob_values = {k: v for k, v in point.items() if k != PRESET_AXIS}
        spec = point[PRESET_AXIS] if by_preset else rules
        try:
            plans.append(prepare_run(spec, games=games, players=players, bots=bots, seed=seed,
                                     overrides=given | knob_values, workers=workers,
                                     name=names.get(spec, label) if by_preset else label))
        except RulesError as exc:
            where = ", ".join(f"{k}={_setting(v)}" for k, v in point.items())
            raise InputError(f"grid point {where}: {exc}") from None
        if by_preset:
            point[PRESET_AXIS] = names[spec]
        plans[-1].progress_label = " ".join(f"{k}={_setting(v)}" for k, v in point.items() if k != PRESET_AXIS)
        if by_preset or len(plans[-1].progress_label) < 40:
            plans[-1].progress_label = f"{plans[-1].name} {plans[-1].progress_label}".strip()
    for plan in plans:
        plan.skill = skill
    metrics = list(dict.fromkeys(metrics or DEFAULT_METRICS))
    known = set(metric_names(plans[0]))
    for p in plans[1:]:
        known &= set(metric_names(p))
    for name in [*metrics, rank_by]:
        if name not in known:
            option = "--rank-by" if name == rank_by and name not in metrics else "--metric"
            raise InputError(f"{option} {name!r}: not a metric of every grid point (e.g. mean_turns, "
                             "first_player_edge, no_winner_rate, mean_winner_points; docs/METRICS.md lists them)")
    vary_words = [w for knob, values in axes for w in ("--vary", f"{knob}={','.join(_setting_text(v) for v in values)}")]
    options = vary_words + _common_options("--games", games, players, bots, seed, rules or "standard", given)
    if skill:
        options.append("--skill")
    command = command_line("sweep", [rules] if rules is not None else [], options)
    plan = SweepPlan(label, knobs, points, plans, command, metrics, rank_by, float(fair_within), top,
                     _cluster(cluster))
    plan.checkpoint = _open_checkpoint(checkpoint, "sweep", lambda: [p.unit_params() for p in plans])
    return plan


def _setting_text(value: Any) -> str:
    from .tables import fmt_value

    return fmt_value(value)


def sweep(rules: RuleSpec | None, vary: Mapping[str, Sequence[Any]] | Sequence[str], *, games: int = 100_000,
          players: int | None = None, bots: str | None = None, seed: int = 0,
          overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
          metrics: Sequence[str] | None = None, rank_by: str = "mean_turns",
          fair_within: float = DEFAULT_FAIR_WITHIN, top: int = DEFAULT_TOP, progress: bool = False,
          cluster: str | None = None, checkpoint: str | Path | None = None, skill: bool = False) -> Sweep:
    """Simulate a rule set once per value (or grid point) of the varied knobs."""
    return prepare_sweep(rules, vary, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                         workers=workers, metrics=metrics, rank_by=rank_by, fair_within=fair_within, top=top,
                         cluster=cluster, checkpoint=checkpoint, skill=skill).execute(progress=progress)


# ---------------------------------------------------------------- matches


@dataclass
class MatchRun(_Charts):
    """Whole matches: `summary` (the rows of match.csv), `headline`, `plot_rounds()` and
    `to_html()` the one-page report."""

    name: str
    result: Any  # matches.MatchResult
    command: str = ""
    pilot_startup: Any = None  # the engine's start-up spent in the plan's pilot (warmup.Startup)

    kind = "match"

    @property
    def rules(self) -> Rules:
        return self.result.rules

    @property
    def bots(self) -> list[Bot]:
        return self.result.bots

    @cached_property
    def summary(self):
        return self.result.summary(self.name)

    @cached_property
    def headline(self):
        from .headline import match_headline
        from .matches import match_length

        return match_headline(self.summary, match_length(self.rules))

    @property
    def startup(self):
        return self.result.startup + self.pilot_startup if self.pilot_startup is not None else self.result.startup

    @property
    def runs(self) -> list["MatchRun"]:
        return [self]

    def tables(self):
        from .tables import match_table

        return [match_table(self)]

    def to_dict(self) -> dict:
        """What `uno-sim match --json` prints: the headline and the match.csv rows."""
        return {"command": self.command, "variant": self.name, "matches": self.result.matches,
                "seed": self.result.seed, "headline": list(self.headline), "summary": _frame_records(self.summary)}

    def plot_rounds(self):
        from .charts import rounds_per_match

        return rounds_per_match(self.result, self.name, describe(self.bots))

    def chart_names(self) -> list[str]:
        return ["rounds_per_match"]

    def figure(self, name: str):
        return self.plot_rounds()

    def files(self) -> dict[str, Callable[[Path], None]]:
        from . import stats

        out: dict[str, Callable[[Path], None]] = {"match.csv": lambda path: stats.write_csv(self.summary, path)}
        return out | self._chart_files() | self._report_file()


@dataclass
class MatchPlan:
    name: str
    rules: Rules
    bots: list[Bot]
    matches: int
    seed: int
    workers: int | None = None
    rotate_seats: bool = False
    expected_rounds: float | None = None  # from a pilot of single rounds (expected_rounds)
    command: str = ""
    startup: Any = None  # the engine's start-up in the pilot (warmup.Startup)
    cluster: Any = None  # cluster.ClusterSpec
    checkpoint: Any = None  # checkpoint.Checkpoint
    piloted: bool = False  # the pilot (expected_rounds) has run

    def run_pilot(self, progress: bool = False) -> None:
        """Play the pilot once: sets `expected_rounds`; raises BadInput for a target out of
        reach within the round cap."""
        if not self.piloted:
            self.expected_rounds = expected_rounds(self, progress)
            self.piloted = True

    def unit_params(self) -> dict[str, Any]:
        from .checkpoint import unit_params
        from .chunks import fixed_chunk
        from .matches import MatchWork

        return unit_params("matches", self.rules, self.bots, self.seed, self.matches, self.rotate_seats,
                           fixed_chunk(MatchWork, self.matches))

    def execute(self, progress: bool = False) -> MatchRun:
        from . import cluster as cluster_mod
        from .matches import simulate_matches

        self.run_pilot(progress)  # a plan prepared with pilot=False
        with cluster_mod.executor(self.cluster, self.workers) as executor:
            store = None
            if self.checkpoint is not None:
                self.checkpoint.begin()
                store = self.checkpoint.store(0)
            try:
                result = simulate_matches(self.rules, self.bots, self.matches, self.seed, progress=progress,
                                          rotate_seats=self.rotate_seats, executor=executor, store=store)
            finally:
                if self.checkpoint is not None:
                    self.checkpoint.end()
        return MatchRun(self.name, result, self.command, self.startup)


def prepare_match(rules: RuleSpec = "standard", *, matches: int = 10_000, target: int | None = None,
                  players: int | None = None, bots: str | None = None, seed: int = 0,
                  overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
                  rotate_seats: bool = False, progress: bool = False, cluster: str | None = None,
                  checkpoint: str | Path | None = None, pilot: bool = True) -> MatchPlan:
    """`progress`: say on standard error when the engine compiles or loads (for the pilot);
    `cluster`, `checkpoint`: as for prepare_run. The pilot (a few thousand single rounds that
    refuse a target out of reach) plays here; `pilot=False` leaves it to `plan.run_pilot()`
    or `execute()`, so that a caller can check cheaper things (an output folder) first."""
    _check_common(matches, seed, workers, "--matches")
    check_count("--target", target, maximum=int(BY_NAME["target"].high))
    given = override_dict(overrides)
    if target is not None:
        given["target"] = target
    label, loaded = load_rules(rules, given, players)
    plan = MatchPlan(label, loaded, parse_bots(bots, loaded.players), matches, seed, workers, rotate_seats,
                     cluster=_cluster(cluster))
    options = _common_options("--matches", matches, players, bots, seed, rules, overrides, rotate_seats)
    if target is not None:
        options[2:2] = ["--target", str(target)]
    plan.command = command_line("match", [rules], options)
    plan.checkpoint = _open_checkpoint(checkpoint, "match", lambda: [plan.unit_params()])
    if pilot:
        plan.run_pilot(progress)
    return plan


PILOT_GAMES = 2000


def expected_rounds(plan: MatchPlan, progress: bool = False) -> float | None:
    """About how many rounds a match takes to reach the target, from a pilot of single
    rounds (None when the match length is fixed by match_rounds). A target out of reach
    within the round cap (engine.layout.MAX_MATCH_ROUNDS) is refused here, before any match."""
    from .engine.layout import MAX_MATCH_ROUNDS
    from .simulate import simulate
    from .warmup import warm_up

    rules = plan.rules
    if getattr(rules, "match_rounds", 0) or rules.match_scoring not in ("winner_takes", "loser_penalty"):
        return None
    plan.startup = warm_up("games", "matches", progress=progress)  # shown here: the pilot plays first
    pilot = simulate(rules, plan.bots, PILOT_GAMES, plan.seed, workers=plan.workers, progress=False)
    agg = pilot.aggregate
    sides = rules.teams or rules.players
    if rules.match_scoring == "winner_takes":  # the leading side gains about its share of the winners' points
        gain = agg.winner_points.mean_interval()[0] / sides if agg.winner_points.n else 0.0
    else:  # every losing side adds its own hand points
        gain = agg.loser_points.mean_interval()[0] * (sides - 1) / sides if agg.loser_points.n else 0.0
    rounds = rules.target / gain if gain > 0 else float("inf")
    if rounds > MAX_MATCH_ROUNDS:
        raise InputError(
            f"--target {rules.target:,} is out of reach: a match would need about "
            f"{'infinitely many' if rounds == float('inf') else f'{rounds:,.0f}'} rounds, and a match stops "
            f"undecided after {MAX_MATCH_ROUNDS:,} (a round scores about {gain:,.1f} points a side)"
        )
    return rounds


def match(rules: RuleSpec = "standard", *, matches: int = 10_000, target: int | None = None,
          players: int | None = None, bots: str | None = None, seed: int = 0,
          overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
          rotate_seats: bool = False, progress: bool = False, cluster: str | None = None,
          checkpoint: str | Path | None = None) -> MatchRun:
    """Play whole matches to the target score (or match_rounds); see the module docstring."""
    return prepare_match(rules, matches=matches, target=target, players=players, bots=bots, seed=seed,
                         overrides=overrides, workers=workers, rotate_seats=rotate_seats, cluster=cluster,
                         checkpoint=checkpoint).execute(progress=progress)


# ---------------------------------------------------------------- tournaments


@dataclass
class Tournament:
    """Every table of the bots under each rule set (uno_sim.tournament): `tables` (the rows of
    tournament.csv: each bot's win rate at each table), `ratings` (ratings.csv: Luce ratings
    with 95% intervals), `skill` (skill.csv: the skill index of each rule set);
    `plot_ratings()` (a bot x rule set heatmap) and `plot_skill()` (bars with intervals)."""

    result: Any  # tournament.TournamentResult

    @property
    def bots(self) -> list[Bot]:
        return self.result.bots

    @property
    def presets(self) -> list[str]:
        return [pg.name for pg in self.result.presets]

    @cached_property
    def tables(self):
        return self.result.tables_frame()

    @cached_property
    def _analysis(self):
        return self.result.analyse()

    @property
    def ratings(self):
        return self._analysis[0]

    @property
    def skill(self):
        return self._analysis[1]

    def _subtitle(self) -> str:
        r = self.result
        players = ", ".join(dict.fromkeys(str(pg.rules.players) for pg in r.presets))
        tables = ", ".join(dict.fromkeys(str(len(pg.tables)) for pg in r.presets))
        return (f"{players} players, {tables} tables ({r.design} design), {r.deals:,} deals per table, "
                f"seats rotated, seed {r.seed}")

    def plot_ratings(self):
        from .charts import ratings_heatmap

        return ratings_heatmap(self.ratings, self.presets, [b.label for b in self.bots], self._subtitle())

    def plot_skill(self):
        from .charts import skill_bars

        return skill_bars(self.skill, self._subtitle())

    def files(self) -> dict[str, Callable[[Path], None]]:
        from . import charts, stats

        return {
            "tournament.csv": lambda path: stats.write_csv(self.tables, path),
            "ratings.csv": lambda path: stats.write_csv(self.ratings, path),
            "skill.csv": lambda path: stats.write_csv(self.skill, path),
            "ratings.png": lambda path: charts.save_figure(self.plot_ratings(), path),
            "skill_index.png": lambda path: charts.save_figure(self.plot_skill(), path),
        }


@dataclass
class TournamentPlan:
    rule_sets: list[tuple[str, Rules]]
    bots: list[Bot]
    deals: int
    seed: int
    workers: int | None = None

    @property
    def tables(self) -> dict[int, int]:
        """Tables per player count."""
        from .tournament import table_design

        return {rules.players: len(table_design(len(self.bots), rules.players)[0]) for _, rules in self.rule_sets}

    def execute(self, progress: bool = False) -> Tournament:
        from .tournament import play_tournament

        return Tournament(play_tournament(self.rule_sets, self.bots, self.deals, self.seed, self.workers, progress))


def parse_bot_list(spec: str | Sequence[str]) -> list[Bot]:
    """Distinct bots from `random,greedy,expert:challenge_prob=0` (or a list of entries)."""
    from .bots import parse_bot
    from .tournament import MAX_BOTS

    entries = spec.split(",") if isinstance(spec, str) else list(spec)
    bots = [parse_bot(entry) for entry in entries]
    if len(bots) < 2:
        raise InputError(f"a tournament needs at least two bots (got {len(bots)})")
    if len(bots) > MAX_BOTS:
        raise InputError(f"a tournament takes at most {MAX_BOTS} bots (got {len(bots)})")
    labels = [b.label for b in bots]
    for label in labels:
        if labels.count(label) > 1:
            raise InputError(f"--bots names {label!r} twice; a tournament compares distinct bots")
    return bots


def prepare_tournament(presets_: Sequence[RuleSpec] | str, *, bots: str | Sequence[str] = "random,greedy,expert,bluffer",
                       deals: int = 1000, players: int | None = None, seed: int = 0,
                       overrides: Mapping[str, Any] | Sequence[str] | None = None,
                       workers: int | None = None) -> TournamentPlan:
    """`presets_`: presets or rule files (a list, or one comma-separated text)."""
    if isinstance(presets_, str):
        presets_ = [p.strip() for p in presets_.split(",")]
    specs = list(presets_)
    if not specs or any(isinstance(s, str) and not s for s in specs):
        raise InputError("--presets needs one or more presets or rule files, separated by commas")
    check_count("--deals", deals, maximum=MAX_GAMES // MAX_PLAYERS)
    check_count("--seed", seed, minimum=0, maximum=MAX_SEED)
    check_count("--workers", workers, maximum=1024)
    bot_list = parse_bot_list(bots)
    loaded = [load_rules(spec, overrides, players) for spec in specs]
    names = _unique_names([name for name, _ in loaded])
    return TournamentPlan(list(zip(names, [rules for _, rules in loaded])), bot_list, deals, seed, workers)


def tournament(presets_: Sequence[RuleSpec] | str, *, bots: str | Sequence[str] = "random,greedy,expert,bluffer",
               deals: int = 1000, players: int | None = None, seed: int = 0,
               overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
               progress: bool = False) -> Tournament:
    """Every table of the bots under each rule set, on common deals with rotated seats; see
    uno_sim.tournament."""
    return prepare_tournament(presets_, bots=bots, deals=deals, players=players, seed=seed, overrides=overrides,
                              workers=workers).execute(progress=progress)
