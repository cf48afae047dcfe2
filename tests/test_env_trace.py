"""Games played through the Python interface replay in the test suite's trace checker: every
move a Python seat made is legal under the rules, the cards add up, and a seat playing as the
random bot (uno_sim.env.RandomBot) made the random bot's kinds of choices."""

from __future__ import annotations

import json

import numpy as np
import pytest

from trace_checker import check_trace_lines, sum_set_order
from uno_sim.engine import layout as L
from uno_sim.env import RandomBot, Table
from uno_sim.env.policies import uniform_policy
from uno_sim.game.errors import BadInput
from uno_sim.running.trace import trace_table


def traced_games(preset: str, policy, label: str, games: int, python_seats=(0,), players: int = 4,
                 overrides: dict | None = None) -> list[str]:
    table = Table(preset, players=players, bots="random", python_seats=python_seats, seed=3, overrides=overrides)
    lines = []
    for game in range(games):
        table.reset(game)
        while not table.done:
            table.step(policy(table.observation, table.mask))
        lines += [json.dumps(e) for e in trace_table(table, label)]
    return lines


@pytest.mark.parametrize("preset", ["standard", "house", "wild-swap", "no-mercy", "jump-in", "stacking",
                                    "sum-jump-in"])
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


def adds_every_card(seed: int):
    """Uniform over the legal actions, but always puts down one more card in a multi-play."""
    uniform = uniform_policy(seed)

    def policy(observation, mask):
        if L.QUESTIONS[int(observation[L.OB_QUESTION])] == "extra_card":
            faces = np.flatnonzero(mask[: L.A_COLOR])
            assert len(faces) > 0  # the question is asked only when a card may follow
            return int(faces[0])
        return uniform(observation, mask)
    return policy


@pytest.mark.parametrize("preset, overrides", [
    ("standard", {"multi_play": "same_symbol"}),
    ("stacking", {"multi_play": "identical"}),
    ("seven-zero", {"multi_play": "same_symbol"}),
    ("number-finish", {"multi_play": "same_symbol"}),
])
def test_python_multi_plays_replay_under_the_rules(preset, overrides):
    """Python seats that put down every card they may, or a uniform choice of them, in a
    multi-play: the checker finds every set legal, and sets of several cards were played."""
    for policy in (adds_every_card(5), uniform_policy(seed=6)):
        lines = traced_games(preset, policy, "python", 25, python_seats=(0, 2), overrides=overrides)
        reports = check_trace_lines(lines)
        assert len(reports) == 25
        assert [v for r in reports for v in r.violations] == []
        sets = [e for e in map(json.loads, lines) if e.get("ev") == "play" and len(e.get("cards", [])) > 1]
        assert sets and {e["p"] for e in sets} <= {0, 2}


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


def asked(table: Table, question: str, policy, games: int = 50) -> Table:
    """`table` dealt game after game (at most `games`) and played by `policy` until a Python
    seat is asked `question`; the table stops there (or done, when no game asked it)."""
    for game in range(games):
        table.reset(game)
        while not table.done and table.question != question:
            table.step(policy(table.observation, table.mask))
        if not table.done:
            break
    return table


def test_an_illegal_extra_card_is_refused():
    """At an extra_card question a face that may not follow, or any non-card action but A_NO,
    is refused as at every question; the table is left as it was."""
    table = Table("standard", players=4, bots="random", python_seats=[0, 1, 2, 3], seed=3,
                  overrides={"multi_play": "identical"})
    asked(table, "extra_card", uniform_policy(seed=8))
    assert table.question == "extra_card"
    legal = set(np.flatnonzero(table.mask).tolist())
    for action in (L.A_YES, L.A_COLOR, next(f for f in range(L.A_COLOR) if f not in legal)):
        with pytest.raises(BadInput, match="not legal"):
            table.step(action)
    assert table.question == "extra_card" and set(np.flatnonzero(table.mask).tolist()) == legal
    table.step(L.A_NO)


def makes_big_jumps(seed: int):
    """Uniform over the legal actions, but jumps in whenever it may and builds the largest move
    it can card by card: a card whenever one may follow (the highest face first, so that its
    sets do not go down in face order), yes only when none may."""
    uniform = uniform_policy(seed)

    def policy(observation, mask):
        question = L.QUESTIONS[int(observation[L.OB_QUESTION])]
        if question == "jump_in":
            return L.A_YES
        if question == "jump_card":
            faces = np.flatnonzero(mask[: L.A_COLOR])
            return int(faces[-1]) if len(faces) else L.A_YES
        return uniform(observation, mask)
    return policy


@pytest.mark.parametrize("players, overrides", [
    (2, {"sum_jump_in": "any_color"}),
    (3, {"sum_jump_in": "same_color"}),
    (4, {"sum_jump_in": "any_color"}),
    (4, {"sum_jump_in": "any_color", "sum_jump_win_only": True}),
])
def test_python_sum_jump_ins_replay_under_the_rules(players, overrides):
    """House rules with sum jump-ins, Python seats choosing their moves card by card (the
    largest they can build, or uniformly at every question): the checker finds every move
    legal, and the Python seats put down sum sets in orders of their own."""
    python = (0, 1) if players > 2 else (0,)
    sets = []
    for policy in (makes_big_jumps(5), uniform_policy(seed=6)):
        lines = traced_games("house", policy, "python", 25, python_seats=python, players=players,
                             overrides=overrides)
        reports = check_trace_lines(lines)
        assert len(reports) == 25
        assert [v for r in reports for v in r.violations] == []
        sets += [e for e in map(json.loads, lines) if e.get("ev") == "jump" and "cards" in e and e["p"] in python]
    assert sets
    if not overrides.get("sum_jump_win_only"):  # (a whole hand is seldom a set: few are played)
        assert any(e["cards"] != sum_set_order(e["cards"]) for e in sets)


def test_an_illegal_jump_card_is_refused():
    """At the first jump_card question yes is refused (no card chosen is no move), as are no,
    a colour and a face of no move; the question and its legal actions stay."""
    table = Table("sum-jump-in", players=4, bots="random", python_seats=[0, 1, 2, 3], seed=3,
                  overrides={"sum_jump_in": "any_color"})
    asked(table, "jump_card", makes_big_jumps(8))
    assert table.question == "jump_card" and table.observation[L.OB_ARG] == -1
    legal = set(np.flatnonzero(table.mask).tolist())
    assert L.A_YES not in legal and len(legal) >= 2
    for action in (L.A_YES, L.A_NO, L.A_COLOR, next(f for f in range(L.A_COLOR) if f not in legal)):
        with pytest.raises(BadInput, match="not legal"):
            table.step(action)
    assert table.question == "jump_card" and set(np.flatnonzero(table.mask).tolist()) == legal
    table.step(min(legal))
