"""Comparisons: the same games under several rule sets (runs through one pipeline);
`prepare_compare`, `ComparePlan`, `Comparison`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.errors import InputError
from .common import RuleSpec, _cluster, _common_options, _open_checkpoint, _unique_names, command_line
from ..running.progress import ProgressLike
from .result_base import ManyRuns, VariantCharts, _frame_records
from .runs import Run, RunPlan, _checkpoint_units, _play_runs, prepare_run


@dataclass
class Comparison(ManyRuns, VariantCharts):
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
        from .. import stats

        return stats.differences([(r.name, r.measures()) for r in self.runs])

    @cached_property
    def distributions(self):
        import pandas as pd

        return pd.concat([r.distributions for r in self.runs], ignore_index=True)

    @cached_property
    def headline(self):
        from ..output.headline import compare_headline

        return compare_headline(self.summary, self.differences)

    def tables(self, all_metrics: bool = False):
        from ..output.tables import compare_table

        return [compare_table(self, all_metrics)]

    def to_dict(self) -> dict:
        """What `uno-sim compare --json` prints: headline, summary and differences rows."""
        first = self.runs[0].result
        return {"command": self.command, "variants": self.names, "baseline": self.names[0], "games": first.games,
                "seed": first.seed, "headline": list(self.headline), "summary": _frame_records(self.summary),
                "differences": _frame_records(self.differences)}

    def plot_differences(self):
        """Every compared metric's difference to the baseline with its interval (differences.png)."""
        from ..output import charts
        from ..output.headline import quiet_metrics

        return charts.differences(self.differences, self.summary, [r._chart_variant() for r in self.runs],
                                  quiet_metrics(self.summary))

    def chart_names(self) -> list[str]:
        return ["differences", *super().chart_names()]

    def figure(self, name: str):
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

    def execute(self, progress: ProgressLike = False, per_game: bool = False,
                per_game_paths: Callable[[str], tuple[Path | None, Path | None]] | None = None) -> Comparison:
        """`progress`: as for RunPlan.execute; `per_game_paths(name)`: the (csv, parquet) paths
        of a variant's per-game rows, or Nones."""
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
    out.checkpoint = _open_checkpoint(checkpoint, "compare", lambda: _checkpoint_units(plans))
    return out


def compare(variants: Sequence[RuleSpec], *, games: int = 1_000_000, players: int | None = None,
            bots: str | None = None, seed: int = 0, overrides: Mapping[str, Any] | Sequence[str] | None = None,
            workers: int | None = None, rotate_seats: bool = False, per_game: bool = False,
            progress: ProgressLike = False, cluster: str | None = None, checkpoint: str | Path | None = None,
            skill: bool = False) -> Comparison:
    """Simulate the same games (seed, game i) under each rule set; see the module docstring."""
    return prepare_compare(variants, games=games, players=players, bots=bots, seed=seed, overrides=overrides,
                           workers=workers, rotate_seats=rotate_seats, cluster=cluster,
                           checkpoint=checkpoint, skill=skill).execute(progress=progress, per_game=per_game)
