"""Tournaments (played by uno_sim.running.tournaments): the bot list, `prepare_tournament`,
`TournamentPlan`, `Tournament`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.bots import TOURNAMENT_BOTS, Bot
from ..game.errors import InputError
from ..game.knobs import MAX_PLAYERS
from ..game.rules import Rules
from ..running.progress import ProgressLike
from ..stats.ratings import MIN_DEALS
from .common import (MAX_GAMES, MAX_SEED, RuleSpec, _unique_names, check_count, check_python_bots,
                     command_line, load_rules, override_dict, rule_specs, speaks_python, shared_parameters)
from .result_base import _Charts, _frame_records


@dataclass(repr=False)  # a short repr (result_base._Notebook), not every field
class Tournament(_Charts):
    """Every table of the bots under each rule set (uno_sim.running.tournaments): `tables` (the rows of
    tournament.csv: each bot's win rate at each table), `ratings` (ratings.csv: Luce ratings
    with 95% intervals), `skill` (skill.csv: the skill index of each rule set and the bots it
    compares), `headline`; `plot_ratings()` (a bot x rule set heatmap), `plot_skill()` (bars
    with intervals) and `to_html()` the one-page report."""

    result: Any  # tournament.TournamentResult
    command: str = ""

    kind = "tournament"

    @property
    def bots(self) -> list[Bot]:
        return self.result.bots

    @property
    def presets(self) -> list[str]:
        return [pg.name for pg in self.result.presets]

    @property
    def name(self) -> str:
        return f"{', '.join(b.label for b in self.bots)} under {', '.join(self.presets)}"

    @cached_property
    def tables(self):
        return self.result.tables_frame()

    def report_tables(self):
        """The terminal's and the report's tables (`tables` is the frame of tournament.csv)."""
        from ..output.tables import tournament_tables

        return tournament_tables(self)

    @cached_property
    def _analysis(self):
        return self.result.analyse()

    @property
    def ratings(self):
        return self._analysis[0]

    @property
    def skill(self):
        return self._analysis[1]

    @cached_property
    def headline(self):
        from ..output.headline import tournament_headline

        return tournament_headline(self.result.leaders(), self.skill, [b.label for b in self.bots])

    def _subtitle(self) -> str:
        r = self.result
        players = ", ".join(dict.fromkeys(str(pg.rules.players) for pg in r.presets))
        tables = ", ".join(dict.fromkeys(str(len(pg.tables)) for pg in r.presets))
        return (f"{players} players, {tables} tables ({r.design} design), {r.deals:,} deals per table, "
                f"seats rotated, seed {r.seed}")

    def plot_ratings(self):
        from ..output.charts import ratings_heatmap

        return ratings_heatmap(self.ratings, self.presets, [b.label for b in self.bots], self._subtitle())

    def plot_skill(self):
        from ..output.charts import skill_bars

        return skill_bars(self.skill, self._subtitle())

    def chart_names(self) -> list[str]:
        return ["skill_index", "ratings"]

    def figure(self, name: str):
        return self.plot_skill() if name == "skill_index" else self.plot_ratings()

    def to_dict(self) -> dict:
        """What `uno-sim tournament --json` prints: the headline, ratings.csv and skill.csv rows."""
        r = self.result
        return {"command": self.command, "presets": self.presets, "bots": [b.label for b in self.bots],
                "deals": r.deals, "seed": r.seed, "design": r.design, "games": r.games,
                "headline": list(self.headline), "ratings": _frame_records(self.ratings),
                "skill": _frame_records(self.skill)}

    def files(self) -> dict[str, Callable[[Path], None]]:
        from .. import stats

        return {
            "tournament.csv": lambda path: stats.write_csv(self.tables, path),
            "ratings.csv": lambda path: stats.write_csv(self.ratings, path),
            "skill.csv": lambda path: stats.write_csv(self.skill, path),
        } | self._chart_files() | self._report_file()


@dataclass
class TournamentPlan:
    rule_sets: list[tuple[str, Rules]]
    bots: list[Bot]
    deals: int
    seed: int
    workers: int | None = None
    command: str = ""

    @property
    def tables(self) -> dict[int, int]:
        """Tables per player count."""
        from ..running.tournaments import table_design

        return {rules.players: len(table_design(len(self.bots), rules.players)[0]) for _, rules in self.rule_sets}

    def execute(self, progress: ProgressLike = False) -> Tournament:
        """Play every table (`progress`: True shows it on standard error, or a
        running.progress.Progress is told how far each rule set's tables are)."""
        from ..running.tournaments import play_tournament

        return Tournament(play_tournament(self.rule_sets, self.bots, self.deals, self.seed, self.workers, progress),
                          self.command)


def parse_bot_list(spec: str | Sequence[str]) -> list[Bot]:
    """Distinct bots from `random,greedy,expert:challenge_prob=0` (or a list of entries)."""
    from ..game.bots import parse_bot
    from ..running.tournaments import MAX_BOTS

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


def prepare_tournament(presets: Sequence[RuleSpec] | str, *, bots: str | Sequence[str] = TOURNAMENT_BOTS,
                       deals: int = 1000, players: int | None = None, seed: int = 0,
                       overrides: Mapping[str, Any] | Sequence[str] | None = None,
                       workers: int | None = None) -> TournamentPlan:
    """`presets`: presets or rule files (a list, or one comma-separated text)."""
    specs = rule_specs(presets, "--presets")
    if not specs or any(isinstance(s, str) and not s for s in specs):
        raise InputError("--presets needs one or more presets or rule files, separated by commas")
    check_count("--deals", deals, maximum=MAX_GAMES // MAX_PLAYERS)
    if deals < MIN_DEALS:
        raise InputError(f"--deals must be at least {MIN_DEALS} for a tournament (got {deals:,}): the ratings' 95% "
                         "intervals count each deal as one independent unit, and fewer deals cannot estimate them")
    check_count("--seed", seed, minimum=0, maximum=MAX_SEED)
    check_count("--workers", workers, maximum=1024)
    bot_list = parse_bot_list(bots)
    check_python_bots(bot_list)
    loaded = [load_rules(spec, overrides, players) for spec in specs]
    names = _unique_names([name for name, _ in loaded])
    options = ["--bots", ",".join(b.label for b in bot_list),
               "--presets", ",".join("standard" if isinstance(s, Rules) else str(s) for s in specs),
               "--deals", str(deals), "--seed", str(seed)]
    if players is not None:
        options += ["--players", str(players)]
    options += [w for k, v in override_dict(overrides).items() for w in ("--set", f"{k}={_value_text(v)}")]
    return TournamentPlan(list(zip(names, [rules for _, rules in loaded])), bot_list, deals, seed, workers,
                          command_line("tournament", [], options))


def _value_text(value: Any) -> str:
    from ..output.tables import fmt_value

    return fmt_value(value)


@speaks_python
@shared_parameters
def tournament(presets: Sequence[RuleSpec] | str, *, bots: str | Sequence[str] = TOURNAMENT_BOTS,
               deals: int = 1000, players: int | None = None, seed: int = 0,
               overrides: Mapping[str, Any] | Sequence[str] | None = None, workers: int | None = None,
               progress: ProgressLike = False) -> Tournament:
    """Every table of the bots under each rule set, on common deals with rotated seats
    (uno_sim.running.tournaments), and a Luce rating of each bot.

    Parameters
    ----------
    presets : list of (str, Path or Rules), or str
        One or more rule sets: preset names, TOML rule files or ``Rules`` values, as a list
        (``["standard", "house"]``) or one comma-separated text (``"standard,house"``).
    bots : str or list of str, default "random,greedy,expert,bluffer,pro"
        Two or more distinct bots, as a list (``["expert", "random"]``) or a comma text.
    deals : int, default 1000
        Deals played at every table (each with the seats rotated); at least 30, since the
        ratings' intervals count each deal as one independent unit.
    players : int, optional
        Seats at each table, 2 to 10 (default None: each rule set's own).
    seed : int, default 0
        The tournament's seed: the same seed plays the same deals.
    overrides : dict or list of str, optional
        Knob values applied on top of every rule set: ``{"hand_size": 5}`` or
        ``["hand_size=5"]``. Default None.
    $workers
    progress : bool or Progress, default False
        True: show a progress bar on standard error; or a ``uno_sim.running.progress.Progress``
        object, told how far each rule set's tables are.

    Returns
    -------
    Tournament
        ``tables`` (each bot's win rate at each table), ``ratings`` (Luce ratings with 95%
        intervals), ``skill`` (the skill index of each rule set), ``plot_ratings()``,
        ``plot_skill()``.

    $raises_bad_input

    Examples
    --------
    >>> import uno_sim
    >>> t = uno_sim.tournament(["standard", "house"], bots=["expert", "random"], deals=200)  # doctest: +SKIP
    >>> t.ratings  # doctest: +SKIP
    """
    return prepare_tournament(presets, bots=bots, deals=deals, players=players, seed=seed, overrides=overrides,
                              workers=workers).execute(progress=progress)
