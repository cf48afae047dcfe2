"""Whole matches to a target score: the pilot that estimates their length (and refuses a
target out of reach); `prepare_match`, `MatchPlan`, `MatchRun`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.bots import Bot, describe, parse_bots
from ..game.errors import InputError
from ..game.knobs import BY_NAME
from ..game.rules import Rules
from ..running.progress import ProgressLike, as_progress
from .common import (RuleSpec, _check_common, _cluster, _common_options, _open_checkpoint, bots_text, check_count,
                     check_python_bots, command_line, load_rules, override_dict, speaks_python,
                     shared_parameters)
from .result_base import OneVariant, _Charts


@dataclass(repr=False)  # a short repr (result_base._Notebook), not every field
class MatchRun(OneVariant, _Charts):
    """Whole matches: `summary` (the rows of match.csv), `headline`, `plot_rounds()` and
    `to_html()` the one-page report."""

    name: str
    result: Any  # matches.MatchResult
    command: str = ""
    pilot_startup: Any = None  # the engine's start-up spent in the plan's pilot (warmup.Startup)

    kind = "match"
    count = "matches"

    @cached_property
    def summary(self):
        return self.result.summary(self.name)

    @cached_property
    def headline(self):
        from ..output.headline import match_headline
        from ..stats.matches import match_length

        return match_headline(self.summary, match_length(self.rules))

    @property
    def startup(self):
        return self.result.startup + self.pilot_startup if self.pilot_startup is not None else self.result.startup

    def tables(self):
        from ..output.tables import match_table

        return [match_table(self)]

    def plot_rounds(self):
        from ..output.charts import rounds_per_match

        return rounds_per_match(self.result, self.name, describe(self.bots))

    def chart_names(self) -> list[str]:
        return ["rounds_per_match"]

    def figure(self, name: str):
        return self.plot_rounds()

    def files(self) -> dict[str, Callable[[Path], None]]:
        from .. import stats

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

    def run_pilot(self, progress: ProgressLike = False) -> None:
        """Play the pilot once: sets `expected_rounds`; raises BadInput for a target out of
        reach within the round cap."""
        if not self.piloted:
            self.expected_rounds = expected_rounds(self, progress)
            self.piloted = True

    def unit_params(self) -> dict[str, Any]:
        from ..running.checkpoint import unit_params
        from ..running.chunks import fixed_chunk
        from ..running.matches import MatchWork

        return unit_params("matches", self.rules, self.bots, self.seed, self.matches, self.rotate_seats,
                           fixed_chunk(MatchWork, self.matches))

    def execute(self, progress: ProgressLike = False) -> MatchRun:
        """Play the matches (and the pilot first, if not yet played). `progress`: True shows
        it on standard error, or a running.progress.Progress is told how far it is."""
        from ..running import cluster as cluster_mod
        from ..running.matches import simulate_matches

        progress = as_progress(progress)
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
                  rotate_seats: bool = False, progress: ProgressLike = False, cluster: str | None = None,
                  checkpoint: str | Path | None = None, pilot: bool = True) -> MatchPlan:
    """`progress`: when the engine compiles or loads (for the pilot), say so on standard error
    (True) or tell this running.progress.Progress;
    `cluster`, `checkpoint`: as for prepare_run. The pilot (a few thousand single rounds that
    refuse a target out of reach) plays here; `pilot=False` leaves it to `plan.run_pilot()`
    or `execute()`, so that a caller can check cheaper things (an output folder) first."""
    _check_common(matches, seed, workers, "--matches")
    bots = bots_text(bots)
    check_count("--target", target, maximum=int(BY_NAME["target"].high))
    given = override_dict(overrides)
    if target is not None:
        given["target"] = target
    label, loaded = load_rules(rules, given, players)
    seated = parse_bots(bots, loaded.players)
    check_python_bots(seated, cluster)
    plan = MatchPlan(label, loaded, seated, matches, seed, workers, rotate_seats,
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


def expected_rounds(plan: MatchPlan, progress: ProgressLike = False) -> float | None:
    """About how many rounds a match takes to reach the target, from a pilot of single
    rounds (None when the match length is fixed by match_rounds). A target out of reach
    within the round cap (engine.layout.MAX_MATCH_ROUNDS) is refused here, before any match."""
    from ..engine.layout import MAX_MATCH_ROUNDS
    from ..running.games import simulate
    from ..game.bots import pack_bots
    from ..running.warmup import deck_kind, kernel_kind, warm_up

    rules = plan.rules
    if getattr(rules, "match_rounds", 0) or rules.match_scoring not in ("winner_takes", "loser_penalty"):
        return None
    pilot_kind = kernel_kind(pack_bots(plan.bots)[0], rules.cards)
    plan.startup = warm_up(pilot_kind, deck_kind("matches", rules.cards.two_sided), progress=progress)  # shown here: the pilot plays first
    pilot = simulate(rules, plan.bots, PILOT_GAMES, plan.seed, workers=plan.workers)
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


@speaks_python
@shared_parameters
def match(rules: RuleSpec = "standard", *, matches: int = 10_000, target: int | None = None,
          players: int | None = None, bots: str | Sequence[str] | None = None, seed: int = 0,
          overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
          rotate_seats: bool = False, progress: ProgressLike = False, cluster: str | None = None,
          checkpoint: str | Path | None = None) -> MatchRun:
    """Play whole matches, round after round, to the target score (or `match_rounds` rounds).

    Parameters
    ----------
    rules : str, Path or Rules, default "standard"
        A built-in preset name, the path of a TOML rule file, or a ``Rules`` value.
    matches : int, default 10_000
        Matches to play (at least 1).
    target : int, optional
        The score that ends a match (default None: the rule set's ``target``, 500 for the
        official rules). A target out of reach is refused before any match is played.
    $players
    $bots
    $seed
    $overrides
    $workers
    rotate_seats : bool, default False
        Move the bots one seat every `players` rounds.
    progress : bool or Progress, default False
        True: show a progress bar (and the engine's start-up) on standard error; or a
        ``uno_sim.running.progress.Progress`` object, told how far the matches are.
    $cluster
    $checkpoint

    Returns
    -------
    MatchRun
        ``summary`` (match metrics with 95% intervals), ``headline``, ``plot_rounds()``,
        ``to_html()``.

    $raises_bad_input

    Examples
    --------
    >>> import uno_sim
    >>> m = uno_sim.match("standard", matches=2_000, target=200)  # doctest: +SKIP
    >>> m.headline[0]  # doctest: +SKIP
    """
    return prepare_match(rules, matches=matches, target=target, players=players, bots=bots, seed=seed,
                         overrides=overrides, workers=workers, rotate_seats=rotate_seats, cluster=cluster,
                         checkpoint=checkpoint).execute(progress=progress)
