"""Comparisons: the same games under several rule sets (runs through one pipeline);
`prepare_compare`, `ComparePlan`, `Comparison`."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.errors import InputError
from ..running.progress import ProgressLike
from .common import (RuleSpec, _cluster, _common_options, _open_checkpoint, _unique_names, bots_text, command_line,
                     rule_specs, speaks_python, shared_parameters)
from .result_base import ManyRuns, VariantCharts, _frame_records
from .runs import Run, RunPlan, _checkpoint_units, _play, prepare_run


@dataclass(repr=False)  # a short repr (result_base._Notebook), not every field
class Comparison(ManyRuns, VariantCharts):
    """The same games under several rule sets; the first is the baseline. `summary` (the rows
    of compare.csv), `differences` (differences.csv), `distributions`; `headline`, the
    significant differences in words; `plot_*()` Figures with the variants side by side,
    `plot_differences()` the forest plot; `to_html()` the one-page report."""

    runs: list[Run]
    command: str = ""
    # the variants' games and skill games played deal by deal together (stats.PairedAggregate),
    # None with paired=False: the differences are then analysed as independent samples
    pairing: Any = None
    skill_pairing: Any = None
    precision: Any = None  # stats.PrecisionOutcome of a comparison played to a precision target, else None

    kind = "compare"

    @property
    def paired(self) -> bool:
        return self.pairing is not None

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.runs]

    @cached_property
    def summary(self):
        import pandas as pd

        return pd.concat([r.summary for r in self.runs], ignore_index=True)

    @cached_property
    def differences(self):
        from .. import stats

        variants = [(r.name, r.measures()) for r in self.runs]
        confidence = self.runs[0].result.confidence
        if not self.paired:
            frame = stats.differences(variants, confidence)
        else:
            pairings = {"games": self.pairing} | ({"skill": self.skill_pairing} if self.skill_pairing else {})
            frame = stats.paired_differences(variants, pairings, confidence)
        if self.precision is not None:  # tests at the looks' level too (stats/precision.py)
            frame = stats.look_corrected(frame, len(self.precision.looks))
        return frame

    @cached_property
    def distributions(self):
        import pandas as pd

        return pd.concat([r.distributions for r in self.runs], ignore_index=True)

    @cached_property
    def headline(self):
        from ..output.headline import compare_headline

        lines = compare_headline(self.summary, self.differences)
        return lines if self.precision is None else type(lines)([self.precision.sentence(), *lines])

    def tables(self, all_metrics: bool = False, width: int | None = None):
        """The compare tables, each split in parts of at most `width` columns (default
        output/tables.py's TABLE_WIDTH)."""
        from ..output.tables import TABLE_WIDTH, compare_tables

        return compare_tables(self, all_metrics, width or TABLE_WIDTH)

    def to_dict(self) -> dict:
        """What `uno-sim compare --json` prints: headline, summary and differences rows."""
        first = self.runs[0].result
        return {"command": self.command, "variants": self.names, "baseline": self.names[0], "games": first.games,
                "seed": first.seed, "paired": self.paired, "headline": list(self.headline), "summary": _frame_records(self.summary),
                "differences": _frame_records(self.differences)} | (
                    {"precision": self.precision.to_dict()} if self.precision is not None else {})

    def plot_differences(self):
        """Every compared metric's difference to the baseline with its interval (differences.png)."""
        from ..output import charts
        from ..output.headline import quiet_metrics

        return charts.differences(self.differences, self.summary, [r._chart_variant() for r in self.runs],
                                  quiet_metrics(self.summary))

    @property
    def _skill_played(self) -> bool:
        return all(r.skill_result is not None for r in self.runs)

    def plot_skill(self):
        """The skill index of each variant with its 95% interval, sorted (skill_index.png;
        only with the skill games, `skill=True`)."""
        from ..game.bots import SKILL_BOT
        from ..output import charts

        if not self._skill_played:
            raise InputError("no skill index: the comparison was played without the skill games (skill=True)")
        skill = self.summary[self.summary["metric"] == "skill_index"]
        players = ", ".join(dict.fromkeys(str(r.rules.players) for r in self.runs))
        games = ", ".join(dict.fromkeys(f"{r.skill_result.games:,}" for r in self.runs))
        return charts.skill_index_chart(skill, f"{players} players: one {SKILL_BOT} against random bots, seats "
                                               f"rotated, {games} games per variant")

    def chart_names(self) -> list[str]:
        return ["differences", *super().chart_names(), *(["skill_index"] if self._skill_played else [])]

    def figure(self, name: str):
        if name == "skill_index":
            return self.plot_skill()
        return self.plot_differences() if name == "differences" else self.plot(name)

    def _variants(self) -> list:
        return [r._chart_variant() for r in self.runs]

    def files(self) -> dict[str, Callable[[Path], None]]:
        from .. import stats

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
    paired: bool = True
    targets: list = field(default_factory=list)  # stats.Target of the differences: play look by look until met
    cap: int | None = None

    def execute(self, progress: ProgressLike = False, per_game: bool = False,
                per_game_paths: Callable[[str], tuple[Path | None, Path | None]] | None = None) -> Comparison:
        """`progress`: as for RunPlan.execute; `per_game_paths(name)`: the (csv, parquet) paths
        of a variant's per-game rows, or Nones."""
        workers = self.plans[0].workers
        if not self.targets:
            played = _play(self.plans, self.cluster, workers, self.checkpoint, progress, per_game, per_game_paths,
                           self.paired)
            return Comparison(played.runs, self.command, played.pairing, played.skill_pairing)
        from .precision import check_per_game_precision, play_looks

        check_per_game_precision(per_game or (per_game_paths is not None and any(
            p is not None for plan in self.plans for p in per_game_paths(plan.name))))

        def widths(played) -> dict[str, float]:
            return difference_widths(Comparison(played.runs, "", played.pairing, played.skill_pairing).differences)

        played, outcome = play_looks(self.plans, self.targets, self.cap, widths,
                                     lambda plans, start: _play(plans, self.cluster, workers, None, progress,
                                                                paired=self.paired, start=start))
        return Comparison(played.runs, self.command, played.pairing, played.skill_pairing, outcome)


def difference_widths(differences) -> dict[str, float]:
    """metric -> the widest half-width of its difference intervals over the variants (NaN if
    any variant's has none)."""
    half = (differences["diff_ci_high"] - differences["diff_ci_low"]) / 2.0
    by_metric = half.groupby(differences["metric"], sort=False)
    return {metric: (float(s.max()) if s.notna().all() else float("nan")) for metric, s in by_metric}


def prepare_compare(variants: Sequence[RuleSpec], *, games: int = 1_000_000, players: int | None = None,
                    bots: str | None = None, seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
                    workers: int | None = None, rotate_seats: bool = False, cluster: str | None = None,
                    checkpoint: str | Path | None = None, skill: bool = False, paired: bool = True,
                    precision: str | Sequence[str] | None = None, max_games: int | None = None) -> ComparePlan:
    """`skill`: also play `games` games of one pro against random bots (seats rotated) per variant
    and report the `skill_index` metric; `paired`: analyse each difference from the pairs of
    the same deals (False: as independent samples); `precision`: targets `METRIC=HALF_WIDTH`
    for every variant's difference to the baseline, played to look by look (then `games` is
    not used), with `max_games` games a variant at most (api/precision.py)."""
    from .precision import check_metrics, check_precision_checkpoint, metric_kinds, parse_targets, precision_options

    targets, cap = parse_targets(precision, max_games)
    check_precision_checkpoint(targets, checkpoint)
    variants = rule_specs(variants, "variants")
    bots = bots_text(bots)
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
    if not paired:
        options.append("--unpaired")
    if targets:
        options = precision_options(options, targets, cap)
        kinds = [metric_kinds(plan, skill) for plan in plans]
        check_metrics(targets, {m: k for m, k in kinds[0].items() if all(m in other for other in kinds[1:])},
                      "of every variant")
    out = ComparePlan(plans, command_line("compare", variants, options), _cluster(cluster), paired=bool(paired),
                      targets=targets, cap=cap)
    out.checkpoint = _open_checkpoint(checkpoint, "compare", lambda: _checkpoint_units(plans, bool(paired)))
    return out


@speaks_python
@shared_parameters
def compare(variants: Sequence[RuleSpec] | str, *, games: int = 1_000_000, players: int | None = None,
            bots: str | Sequence[str] | None = None, seed: int = 0,
            overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
            rotate_seats: bool = False, per_game: bool = False, progress: ProgressLike = False,
            cluster: str | None = None, checkpoint: str | Path | None = None, skill: bool = False,
            paired: bool = True, precision: str | Sequence[str] | None = None,
            max_games: int | None = None) -> Comparison:
    """Simulate the same games (same seed, game i dealt alike) under each rule set, and test
    every metric's difference to the first.

    Parameters
    ----------
    variants : list of (str, Path or Rules), or str
        Two or more rule sets, the first the baseline: preset names, TOML rule files or
        ``Rules`` values, as a list (``["standard", "stacking"]``) or one comma-separated text
        (``"standard,stacking"``). Repeated names become ``name-2``, ...
    games : int, default 1_000_000
        Games per variant (at least 1).
    $players
    $bots
    $seed
    $overrides
    $workers
    $rotate_seats
    per_game : bool, default False
        Keep one row per game in each run's ``games`` (not with `cluster` or `checkpoint`).
    progress : bool or Progress, default False
        True: show a progress bar (and the engine's start-up) on standard error; or a
        ``uno_sim.running.progress.Progress`` object, told how far the games are.
    $cluster
    $checkpoint
    skill : bool, default False
        Also play `games` games of one ``pro`` (the strongest fast bot) against random bots
        (seats rotated) per variant and report the ``skill_index`` metric, drawn sorted in
        ``skill_index.png``.
    paired : bool, default True
        Analyse every difference from the pairs of games played on the same deal (paired
        t for means, Newcombe's paired interval and McNemar's exact test for rates; the
        ``test`` column of ``differences`` names each row's method): narrower intervals for
        the same games. False: analyse the variants as independent samples (two-proportion
        z, Welch t).
    precision : str or list of str, optional
        Targets ``"METRIC=HALF_WIDTH"`` (rates as fractions, or ``"0.3pp"``) for every
        variant's difference to the baseline: games are played in looks (10,000, 20,000,
        40,000, ... games) until each named difference interval is that narrow; `games` is
        then not used. Every interval is widened so that stopping at the first narrow look
        keeps 95% coverage (docs/METRICS.md); ``precision`` on the result says how it went.
        Default None: play `games` games.
    $max_games

    Returns
    -------
    Comparison
        ``summary`` (every variant's metrics), ``differences`` (each variant minus the first,
        with 95% intervals and Holm-adjusted p-values), ``headline``, ``runs``,
        ``plot_differences()`` and ``plot(...)`` (Figures), ``to_html()`` (the report).

    Raises
    ------
    BadInput
        Fewer than two variants or any bad argument, before a game is played; the message
        names the parameter.

    Examples
    --------
    >>> import uno_sim
    >>> cmp = uno_sim.compare(["standard", "stacking"], games=50_000)  # doctest: +SKIP
    >>> cmp.differences.query("significant")  # doctest: +SKIP
    """
    return prepare_compare(variants, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                           workers=workers, rotate_seats=rotate_seats, cluster=cluster,
                           checkpoint=checkpoint, skill=skill, paired=paired, precision=precision,
                           max_games=max_games).execute(progress=progress, per_game=per_game)
