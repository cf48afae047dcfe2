"""Every event of a run's games, one dict an event (JSON Lines for `uno-sim trace`): the deal,
each turn, each penalty, the end. The games are those `plan.execute()` would play, decoded one
by one (uno_sim.running.trace)."""

from __future__ import annotations

from typing import Iterator

from .runs import RunPlan


def trace_events(plan: RunPlan, progress: bool = False) -> Iterator[dict]:
    """The events of the plan's games in order, lazily: nothing is played (or compiled) before
    the first event is asked for. `progress`: say on standard error when the engine compiles
    or loads first."""
    from ..running.trace import trace_events as events

    return events(plan.rules, plan.bots, plan.seed, plan.games, rotate_seats=plan.rotate_seats, progress=progress)
