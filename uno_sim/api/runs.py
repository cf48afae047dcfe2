"""One run: `prepare_run` checks and plans, `RunPlan.execute` plays, `Run` is the result;
`_play_runs` plays several plans, and the skill games of those with `skill`, through one
pipeline (compare and sweep build on it); `_checkpoint_units` names that pipeline's runs for
a checkpoint."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.bots import Bot, describe, parse_bots
from ..game.errors import InputError
from ..game.rules import Rules
from ..running.progress import ProgressLike
from .common import (RuleSpec, _check_common, _cluster, _common_options, _open_checkpoint, bots_text,
                     check_python_bots, command_line, load_rules, speaks_python, shared_parameters)
from .result_base import OneVariant, VariantCharts


@dataclass(repr=False)  # a short repr (result_base._Notebook), not every field
class Run(OneVariant, VariantCharts):
    """A simulated variant: `summary`, `distributions` (and `games`, the per-game rows, when
    asked for) as tidy DataFrames with the columns of the CSV files; `headline`, a few
    sentences; `plot_*()` give Figures; `to_html()` the one-page report."""

    name: str
    result: Any  # simulate.RunResult
    command: str = ""  # the uno-sim command that reproduces it
    skill_result: Any = None  # simulate.RunResult of the skill games (--skill), else None
    precision: Any = None  # stats.PrecisionOutcome of a run played to a precision target, else None

    kind = "run"

    @cached_property
    def summary(self):
        frame = self.result.summary(self.name)
        if self.skill_result is None:
            return frame
        import pandas as pd

        from ..stats import summary_frame
        from ..stats.ratings import skill_measure

        skill = summary_frame([skill_measure(self.skill_result, self.skill_result.confidence)], self.name,
                              self.skill_result.games)
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
            from ..stats.ratings import skill_measure

            ms.append(skill_measure(self.skill_result, self.skill_result.confidence))
        return ms

    @cached_property
    def headline(self):
        from ..output.headline import Headline, run_headline

        seats = {label: [b.label for b in self.bots].count(label) for label in dict.fromkeys(b.label for b in self.bots)}
        lines = run_headline(self.summary, seats)
        return lines if self.precision is None else Headline([self.precision.sentence(), *lines])

    @property
    def startup(self):
        """The engine's start-up before the games were timed (warmup.Startup)."""
        return self.result.startup

    def tables(self):
        printed = self.__dict__.get("_printed")
        if printed is not None:
            return printed["tables"]
        from ..output.tables import run_tables

        return run_tables(self)

    def to_dict(self) -> dict:
        printed = self.__dict__.get("_printed")
        return printed["json"] if printed is not None else super().to_dict()

    def printed(self) -> dict:
        """What `uno-sim run` prints (the headline, the tables, the JSON), computed where its
        files are written (output/writing_process.py), so that the command itself needs no
        pandas; `take_printed` gives it to the command's copy of the run."""
        return {"headline": self.headline, "tables": self.tables(), "json": self.to_dict()}

    def take_printed(self, printed: dict) -> None:
        self.__dict__["headline"] = printed["headline"]
        self.__dict__["_printed"] = printed

    def _chart_variant(self):
        from ..output.charts import Variant

        return Variant(name=self.name, summary=self.summary, aggregate=self.result.aggregate,
                       players=self.rules.players, bots=describe(self.bots),
                       bot_labels=[b.label for b in self.bots], games=self.result.games)

    def _variants(self) -> list:
        return [self._chart_variant()]

    def files(self) -> dict[str, Callable[[Path], None]]:
        """The files `uno-sim run` writes, by name, each with its writer (path -> None)."""
        from .. import stats

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
    skill: bool = False  # also play the skill games (one pro against random bots, seats rotated)
    spec: RuleSpec = "standard"  # as given, for the command line that reproduces the run
    options: list[str] = field(default_factory=list)  # its options (games, seed, players, ...)

    cluster: Any = None  # cluster.ClusterSpec: play on a Dask cluster
    checkpoint: Any = None  # checkpoint.Checkpoint: keep every finished chunk there
    progress_label: str | None = None  # the progress bar's text (default: the name)
    targets: list = field(default_factory=list)  # stats.Target: play look by look until met (api/precision.py)
    cap: int | None = None  # the games of the last look, with targets

    @property
    def command(self) -> str:
        return command_line("run", [self.spec], self.options)

    def unit_params(self, skill: bool = False) -> dict[str, Any]:
        """What the run's numbers depend on (recorded in a checkpoint); `skill`: those of its
        skill games."""
        from ..running.checkpoint import unit_params
        from ..running.chunks import fixed_chunk
        from ..running.games import GameWork
        from ..running.tournaments import skill_bots

        bots, rotate = (skill_bots(self.rules), True) if skill else (self.bots, self.rotate_seats)
        return unit_params("games", self.rules, bots, self.seed, self.games, rotate, fixed_chunk(GameWork, self.games),
                           skill_index=skill)

    def execute(self, progress: ProgressLike = False, per_game: bool = False, per_game_csv: Path | None = None,
                per_game_parquet: Path | None = None) -> Run:
        """Play the run. `progress`: True shows it on standard error, or a running.progress.Progress
        is told how far it is; `per_game` keeps the per-game rows (`Run.games`), `per_game_csv`
        and `per_game_parquet` write them."""
        paths = (lambda name: (per_game_csv, per_game_parquet)) if per_game_csv or per_game_parquet else None
        if not self.targets:
            return _play_runs([self], self.cluster, self.workers, self.checkpoint, progress, per_game, paths)[0]
        from .. import stats
        from .precision import check_per_game_precision, play_looks

        check_per_game_precision(per_game or paths is not None)

        def widths(played) -> dict[str, float]:
            return {m.name: stats.half_width(m.low, m.high) for m in played.runs[0].measures()}

        played, outcome = play_looks([self], self.targets, self.cap, widths,
                                     lambda plans, start: _play(plans, self.cluster, self.workers, None, progress,
                                                                start=start))
        run = played.runs[0]
        run.precision = outcome
        return run


def check_per_game(per_game: bool, cluster: Any, checkpoint: Any) -> None:
    """Per-game rows need every game's row back here: not with --cluster or --checkpoint."""
    if per_game and (cluster is not None or checkpoint is not None):
        which = "--cluster" if cluster is not None else "--checkpoint"
        raise InputError(f"--per-game and --parquet cannot be combined with {which}: only each chunk's aggregate "
                         "is sent back and kept, not every game's row; leave one of them out")


def _pipeline(plans: list[RunPlan]) -> list[tuple[int, bool]]:
    """The runs of these plans in the order they are played and checkpointed, as (plan index,
    skill): every plan's games, then the skill games of each plan with `skill`."""
    return [(i, False) for i in range(len(plans))] + [(i, True) for i, plan in enumerate(plans) if plan.skill]


def _paired_groups(plans: list[RunPlan]) -> list[list[int]]:
    """The units of a paired pipeline as positions in `_pipeline(plans)`: every plan's games
    as one unit (the same deals, chunk by chunk together), then their skill games as one."""
    order = _pipeline(plans)
    groups = [[k for k, (_, skill) in enumerate(order) if skill == s] for s in (False, True)]
    return [g for g in groups if g]


def _checkpoint_units(plans: list[RunPlan], paired: bool = False) -> list[dict[str, Any]]:
    """The checkpoint's record of the runs `_play_runs(plans)` plays, skill games included;
    `paired`: one record per paired unit, naming its runs."""
    from ..running.chunks import fixed_chunk
    from ..running.games import GameWork

    units = [plans[i].unit_params(skill) for i, skill in _pipeline(plans)]
    if not paired:
        return units
    return [{"kind": "games", "games": units[g[0]]["games"], "chunk": fixed_chunk(GameWork, units[g[0]]["games"]),
             "paired": [units[k] for k in g]} for g in _paired_groups(plans)]


@dataclass
class Played:
    """What a pipeline of runs gave: the runs, and with `paired` the cross moments of the
    variants' games (`pairing`) and of their skill games (`skill_pairing`)."""

    runs: list[Run]
    pairing: Any = None
    skill_pairing: Any = None


def _play_runs(plans: list[RunPlan], cluster: Any, workers: int | None, checkpoint: Any, progress: ProgressLike,
               per_game: bool = False,
               per_game_paths: Callable[[str], tuple[Path | None, Path | None]] | None = None) -> list[Run]:
    """Play several runs, and the skill games of those with `skill` (_pipeline), through one
    pipeline: on threads or a cluster, each with its store in the checkpoint."""
    return _play(plans, cluster, workers, checkpoint, progress, per_game, per_game_paths).runs


def _play(plans: list[RunPlan], cluster: Any, workers: int | None, checkpoint: Any, progress: ProgressLike,
          per_game: bool = False, per_game_paths: Callable[[str], tuple[Path | None, Path | None]] | None = None,
          paired: bool = False, start: int = 0) -> Played:
    """As `_play_runs`; `paired`: the plans (same games and seed) are played deal by deal
    together (running/paired.py), their skill games too, and the cross moments kept;
    `start`: the index of the first game played (a precision run's later looks)."""
    from ..running import cluster as cluster_mod
    from ..running.games import GameRun, play_runs
    from ..running.paired import PairedRuns
    from ..running.progress import as_progress

    paths = [per_game_paths(plan.name) if per_game_paths else (None, None) for plan in plans]
    check_per_game(per_game or any(p is not None for pair in paths for p in pair), cluster, checkpoint)

    def game_run(i: int, skill: bool) -> GameRun:
        plan = plans[i]
        if skill:
            from ..running.tournaments import skill_run  # (pandas, for the ratings: only with --skill)

            return skill_run(plan.rules, plan.games, plan.seed, f"{plan.name} (skill index)", start)
        return GameRun(plan.rules, plan.bots, plan.games, plan.seed, per_game_path=paths[i][0],
                       parquet_path=paths[i][1], description=plan.progress_label or plan.name,
                       rotate_seats=plan.rotate_seats, keep_games=per_game, start=start)

    order = _pipeline(plans)
    runs = [game_run(i, skill) for i, skill in order]
    groups = [PairedRuns([runs[k] for k in g], f"{len(g)} variants" + (" (skill index)" if order[g[0]][1] else ""))
              for g in _paired_groups(plans)] if paired else []
    played = groups or runs
    with cluster_mod.executor(cluster, workers) as executor:
        if checkpoint is not None:
            checkpoint.begin()
            for index, run_ in enumerate(played):
                run_.unit().store = checkpoint.store(index)
        try:
            results = play_runs(runs, executor, as_progress(progress), [g.unit() for g in groups] if groups else None,
                                lambda: [g.settle() for g in groups])
        finally:
            if checkpoint is not None:
                checkpoint.end()
    skill_results = {i: result for (i, skill), result in zip(order, results) if skill}
    out = [Run(plan.name, result, plan.command, skill_results.get(i))
           for i, (plan, result) in enumerate(zip(plans, results))]
    pairings = [g.pairing() for g in groups] + [None, None]
    return Played(out, *pairings[:2])


def prepare_run(rules: RuleSpec = "standard", *, games: int = 100_000, players: int | None = None,
                bots: str | None = None, seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
                workers: int | None = None, rotate_seats: bool = False, name: str | None = None,
                cluster: str | None = None, checkpoint: str | Path | None = None,
                precision: str | Sequence[str] | None = None, max_games: int | None = None) -> RunPlan:
    """A checked run. `cluster`: a Dask scheduler address (`tcp://host:8786`) or `local[:N]`;
    `checkpoint`: a folder keeping every finished chunk, from which a stopped run continues;
    `precision`: targets `METRIC=HALF_WIDTH` to play to (then `games` is not used), with
    `max_games` games at most (api/precision.py)."""
    from .precision import check_metrics, check_precision_checkpoint, metric_kinds, parse_targets, precision_options

    _check_common(games, seed, workers)
    targets, cap = parse_targets(precision, max_games)
    check_precision_checkpoint(targets, checkpoint)
    bots = bots_text(bots)
    label, loaded = load_rules(rules, overrides, players)
    options = _common_options("--games", games, players, bots, seed, rules, overrides, rotate_seats)
    if targets:
        options = precision_options(options, targets, cap)
    seated = parse_bots(bots, loaded.players)
    check_python_bots(seated, cluster)
    plan = RunPlan(name or label, loaded, seated, games, seed, workers, rotate_seats,
                   spec=rules, options=options, cluster=_cluster(cluster), targets=targets, cap=cap)
    check_metrics(targets, metric_kinds(plan), "of a run")
    plan.checkpoint = _open_checkpoint(checkpoint, "run", lambda: _checkpoint_units([plan]))
    return plan


@speaks_python
@shared_parameters
def run(rules: RuleSpec = "standard", *, games: int = 100_000, players: int | None = None,
        bots: str | Sequence[str] | None = None, seed: int = 0,
        overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
        rotate_seats: bool = False, per_game: bool = False, progress: ProgressLike = False,
        cluster: str | None = None, checkpoint: str | Path | None = None,
        precision: str | Sequence[str] | None = None, max_games: int | None = None) -> Run:
    """Simulate games of one rule set.

    Parameters
    ----------
    rules : str, Path or Rules, default "standard"
        A built-in preset name (``uno_sim.game.presets.preset_names()``: ``"stacking"``, ``"house"``, ...),
        the path of a TOML rule file, or a ``Rules`` value.
    games : int, default 100_000
        Games to play (at least 1).
    $players
    $bots
    $seed
    $overrides
    $workers
    $rotate_seats
    per_game : bool, default False
        Keep one row per game in ``res.games`` (a DataFrame; not with `cluster` or `checkpoint`).
    progress : bool or Progress, default False
        True: show a progress bar (and the engine's start-up) on standard error; or a
        ``uno_sim.running.progress.Progress`` object, told how far the run is.
    $cluster
    $checkpoint
    precision : str or list of str, optional
        Targets ``"METRIC=HALF_WIDTH"`` instead of a game count (rates as fractions, or with
        ``pp``): ``["mean_turns=0.1", "first_player_edge=0.002"]``. Games are played in looks
        (10,000, 20,000, 40,000, ... games) until every named interval is that narrow; `games`
        is then not used. Every interval is widened so that stopping at the first narrow look
        keeps 95% coverage (docs/METRICS.md); ``res.precision`` says how it went. Default
        None: play `games` games.
    $max_games

    Returns
    -------
    Run
        ``summary`` (every metric with its 95% interval), ``distributions``, ``headline``,
        ``plot(...)`` and ``plot_*()`` (matplotlib Figures), ``to_html()`` (the report).

    $raises_bad_input

    Examples
    --------
    >>> import uno_sim
    >>> res = uno_sim.run("stacking", games=20_000, players=5, seed=7)  # doctest: +SKIP
    >>> res.summary.set_index("metric").loc["mean_turns", "value"]  # doctest: +SKIP
    """
    plan = prepare_run(rules, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                       workers=workers, rotate_seats=rotate_seats, cluster=cluster, checkpoint=checkpoint,
                       precision=precision, max_games=max_games)
    return plan.execute(progress=progress, per_game=per_game)
