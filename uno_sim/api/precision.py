"""Precision targets of `run` and `compare` (`--precision METRIC=HALF_WIDTH`): the targets
checked, and the games played look by look until every named interval is narrow enough or
the cap is reached (the schedule, the intervals' level and why coverage holds:
stats/precision.py).

Each look plays the games from the last look's count to its own (game i dealt from the
seed and i alike), so a precision run that stopped at N games has the numbers of a run of
N games; only its intervals are wider (each at the looks' level).
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Any, Callable, Sequence

from ..game.errors import InputError
from .common import check_count

def parse_targets(precision: str | Sequence[str] | None, max_games: int | None) -> tuple[list, int | None]:
    """The targets (stats.Target) and the cap; ([], None) without targets. InputError for a
    malformed or repeated target, or a cap without a target."""
    from .. import stats

    if precision is None or precision == [] or precision == ():
        if max_games is not None:
            raise InputError("--max-games caps a --precision run: give a --precision target too, or use --games")
        return [], None
    texts = [precision] if isinstance(precision, str) else list(precision)
    targets = []
    for text in texts:
        try:
            targets.append(stats.parse_target(text))
        except ValueError as exc:
            raise InputError(str(exc)) from None
    names = [t.metric for t in targets]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InputError(f"--precision names {repeated[0]} twice; give each metric one target")
    cap = stats.DEFAULT_CAP if max_games is None else max_games
    check_count("--max-games", cap)
    return targets, cap


def check_precision_checkpoint(targets: list, checkpoint: Any) -> None:
    """A checkpoint keeps a fixed plan of chunks, which looks do not have."""
    if targets and checkpoint is not None:
        raise InputError("--precision cannot be combined with --checkpoint: the games of a precision run depend on "
                         "when its target is met; leave one of them out")


def check_per_game_precision(per_game: bool) -> None:
    if per_game:
        raise InputError("--precision cannot be combined with --per-game or --parquet: the games are played look by "
                         "look; run the number of games it took with --games N for the per-game rows")


def check_metrics(targets: list, kinds: dict[str, str], where: str) -> None:
    """InputError unless every target names a metric of `kinds` (name -> Measure kind) that the
    metric table (game/metrics.py) lets --precision target, with a half-width its range allows;
    `where` says whose metrics they are."""
    from ..game.metrics import check_half_width, find

    for target in targets:
        kind = kinds.get(target.metric)
        if kind is None:
            close = difflib.get_close_matches(target.metric, list(kinds), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else " (docs/METRICS.md lists them)"
            raise InputError(f"--precision: unknown metric {target.metric!r} {where}{hint}")
        entry = find(target.metric)
        if entry is None or not entry.precision:
            raise InputError(f"--precision: {target.metric} has no interval to narrow (a {kind})")
        problem = check_half_width(target.metric, target.half_width, f"--precision {target}")
        if problem:
            raise InputError(problem)


def metric_kinds(plan, skill: bool = False) -> dict[str, str]:
    """name -> kind of every metric a run of this plan reports (from an empty aggregate)."""
    from .. import stats
    from ..game.metrics import SKILL_METRICS

    agg = stats.Aggregate(players=plan.rules.players, teams=plan.rules.teams)
    kinds = {m.name: m.kind for m in stats.measures(agg, [b.label for b in plan.bots], teams=plan.rules.teams,
                                                    two_sided=plan.rules.cards.two_sided)}
    return kinds | ({m.name: m.kind for m in SKILL_METRICS} if skill else {})


def precision_options(options: list[str], targets: list, cap: int) -> list[str]:
    """The command line's options with the targets and cap in place of `--games N`."""
    out = list(options)
    at = out.index("--games")
    out[at : at + 2] = [w for t in targets for w in ("--precision", str(t))] + ["--max-games", str(cap)]
    return out


def _merge_result(total, part) -> None:
    total.aggregate.merge(part.aggregate)
    total.games += part.games
    total.seconds += part.seconds


def _merge(total, part) -> None:
    """Fold a look's games (a runs.Played) into the games before it."""
    for a, b in zip(total.runs, part.runs):
        _merge_result(a.result, b.result)
        if a.skill_result is not None:
            _merge_result(a.skill_result, b.skill_result)
    for mine, theirs in ((total.pairing, part.pairing), (total.skill_pairing, part.skill_pairing)):
        if mine is not None:  # (its parts are the runs' aggregates, merged above)
            for m, t in zip(mine.moments, theirs.moments):
                m.merge(t)


def play_looks(plans: list, targets: list, cap: int, widths: Callable[[Any], dict[str, float]],
               play: Callable[[list, int], Any]):
    """Play `plans` look by look (stats.look_schedule(cap)) until `widths(played)`, the
    half-widths of the named metrics at the looks' level, meet every target.
    `play(plans, start)` plays games start .. start + plan.games - 1 (a runs.Played).
    Returns (played, stats.PrecisionOutcome)."""
    from .. import stats

    looks = stats.look_schedule(cap)
    level = stats.look_confidence(len(looks))
    total, done, found = None, 0, {}
    for taken, n in enumerate(looks, start=1):
        part = play([replace(p, games=n - done) for p in plans], done)
        if total is None:
            total = part
        else:
            _merge(total, part)
        done = n
        for run in total.runs:
            run.result.confidence = level
            if run.skill_result is not None:
                run.skill_result.confidence = level
        found = widths(total)
        if stats.reached(found, targets):
            break
    outcome = stats.PrecisionOutcome(tuple(targets), tuple(looks), taken, done, level,
                                     {t.metric: found.get(t.metric, float("nan")) for t in targets},
                                     stats.reached(found, targets))
    return total, outcome
