"""Tournaments (played by uno_sim.running.tournaments): the bot list, `prepare_tournament`,
`TournamentPlan`, `Tournament`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game.bots import Bot
from ..game.errors import InputError
from ..game.knobs import MAX_PLAYERS
from ..game.rules import Rules
from ..running.progress import ProgressLike
from .common import MAX_GAMES, MAX_SEED, RuleSpec, _unique_names, check_count, load_rules


@dataclass
class Tournament:
    """Every table of the bots under each rule set (uno_sim.running.tournaments): `tables` (the rows of
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
        from ..output.charts import ratings_heatmap

        return ratings_heatmap(self.ratings, self.presets, [b.label for b in self.bots], self._subtitle())

    def plot_skill(self):
        from ..output.charts import skill_bars

        return skill_bars(self.skill, self._subtitle())

    def files(self) -> dict[str, Callable[[Path], None]]:
        from ..output import charts
        from .. import stats

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
        from ..running.tournaments import table_design

        return {rules.players: len(table_design(len(self.bots), rules.players)[0]) for _, rules in self.rule_sets}

    def execute(self, progress: ProgressLike = False) -> Tournament:
        """Play every table (`progress`: True shows it on standard error, or a
        running.progress.Progress is told how far each rule set's tables are)."""
        from ..running.tournaments import play_tournament

        return Tournament(play_tournament(self.rule_sets, self.bots, self.deals, self.seed, self.workers, progress))


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
               progress: ProgressLike = False) -> Tournament:
    """Every table of the bots under each rule set, on common deals with rotated seats; see
    uno_sim.running.tournaments."""
    return prepare_tournament(presets_, bots=bots, deals=deals, players=players, seed=seed, overrides=overrides,
                              workers=workers).execute(progress=progress)
