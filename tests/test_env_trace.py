"""Games played through the Python interface replay in the test suite's trace checker: every
move a Python seat made is legal under the rules, the cards add up, and a seat playing as the
random bot (uno_sim.env.RandomBot) made the random bot's kinds of choices."""

from __future__ import annotations

import json

import pytest

from trace_checker import check_trace_lines
from uno_sim.env import RandomBot, Table
from uno_sim.env.policies import uniform_policy
from uno_sim.running.trace import trace_table


def traced_games(preset: str, policy, label: str, games: int, python_seats=(0,), players: int = 4) -> list[str]:
    table = Table(preset, players=players, bots="random", python_seats=python_seats, seed=3)
    lines = []
    for game in range(games):
        table.reset(game)
        while not table.done:
            table.step(policy(table.observation, table.mask))
        lines += [json.dumps(e) for e in trace_table(table, label)]
    return lines


@pytest.mark.parametrize("preset", ["standard", "house", "wild-swap", "no-mercy", "jump-in", "stacking"])
def test_a_random_python_seat_replays_as_the_random_bot(preset):
    reports = check_trace_lines(traced_games(preset, RandomBot(seed=1), "random", 40))
    assert len(reports) == 40
    assert [v for r in reports for v in r.violations] == []


@pytest.mark.parametrize("preset", ["standard", "house", "seven-zero"])
def test_any_legal_python_choices_replay_under_the_rules(preset):
    """A policy uniform over every legal action (drawing by choice, declining drawn cards,
    challenging) at every seat: the checker finds every move legal."""
    lines = traced_games(preset, uniform_policy(seed=2), "python", 30, python_seats=(0, 1, 2, 3))
    reports = check_trace_lines(lines)
    assert len(reports) == 30
    assert [v for r in reports for v in r.violations] == []


def test_the_trace_is_the_game_that_was_played():
    table = Table("standard", players=3, bots="expert", python_seats=[1], seed=9)
    policy = RandomBot(seed=4)
    table.reset(5)
    while not table.done:
        table.step(policy(table.observation, table.mask))
    record = table.record
    events = trace_table(table)
    assert events[0]["bots"] == ["expert", "python", "expert"] and events[0]["game"] == 5
    end = events[-1]
    assert (end["winner"], end["turns"], end["points"]) == (record["winner"], record["turns"],
                                                            [record[f"points_{q}"] for q in range(3)])
