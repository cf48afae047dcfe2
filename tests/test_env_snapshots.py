"""A step resumes the game at the start of the turn it stopped in (engine/snapshots.py): every
question, mask, observation and final record is the same as when every step plays the game
again from its deal (the snapshot cleared before each step), over every preset, with all seats
played from Python and with one Python seat among compiled bots, and for a match's rounds."""

from __future__ import annotations

import numpy as np
import pytest

from uno_sim.engine import layout as L
from uno_sim.engine.state import O_EXT_SNAP
from uno_sim.env import RandomBot, Table
from uno_sim.env.policies import uniform_policy
from uno_sim.game import presets

GAMES = 40
CAP = {"max_turns": 400}  # a game of a policy that may draw by choice can run long; replayed steps cost its square


def play(table: Table, policy, game: int, replay: bool) -> list:
    """Every question of game `game` as (seat, question, mask, observation), then the record."""
    seen = []
    table.reset(game)
    while not table.done:
        seen.append((table.seat, table.question, table.mask.tolist(), table.observation.tolist()))
        if replay:  # no snapshot: the step plays the game from its deal
            table._g[table._g[O_EXT_SNAP]] = 0
        table.step(policy(table.observation, table.mask))
    seen.append(table.record)
    return seen


def assert_same_games(make_table, make_policy, games: int = GAMES) -> None:
    resumed, replayed = make_table(), make_table()
    p1, p2 = make_policy(), make_policy()
    steps = 0
    for game in range(games):
        a = play(resumed, p1, game, replay=False)
        b = play(replayed, p2, game, replay=True)
        assert a == b, f"game {game} differs"
        steps += len(a) - 1
    assert steps > games  # the games did ask questions


@pytest.mark.parametrize("preset", presets.preset_names())
def test_resumed_steps_play_the_replayed_game_every_seat_python(preset):
    rules = presets.load(preset, CAP, 4 if preset == "teams" else 3)
    assert_same_games(lambda: Table(rules, seed=3), lambda: RandomBot(7))


@pytest.mark.parametrize("preset", ["standard", "seven-zero", "wild-swap", "no-mercy", "flip"])
def test_resumed_steps_with_every_choice_a_policy_may_make(preset):
    """Uniform over the legal actions: draws by choice, keeps drawn cards, names any target."""
    rules = presets.load(preset, CAP, 3)
    assert_same_games(lambda: Table(rules, seed=4), lambda: uniform_policy(8), games=15)


@pytest.mark.parametrize("preset", ["standard", "house", "no-mercy", "sum-jump-in", "seven-zero", "last-standing",
                                    "flip"])
@pytest.mark.parametrize("opponents", ["expert", "pro", "random"])
def test_resumed_steps_play_the_replayed_game_against_compiled_bots(preset, opponents):
    rules = presets.load(preset, None, 4)
    assert_same_games(lambda: Table(rules, bots=opponents, python_seats=[1], seed=5), lambda: RandomBot(9))


@pytest.mark.parametrize("preset", ["standard", "flip"])
def test_a_tape_that_outgrows_its_array_keeps_the_game(preset):
    """The tape's array doubles mid-game (a fresh array holds no snapshot: one replay; on a
    two-sided deck the fresh array's face tables are the light side's, the side of its deal)."""
    class Small(Table):
        TAPE_ROOM = 2
    rules = presets.load(preset, None, 2)
    assert_same_games(lambda: Small(rules, seed=1), lambda: RandomBot(2))


def test_flip_games_resumed_across_flips_and_rounds_that_end_dark():
    """On the flip deck, steps resumed from a snapshot taken before a flip (the face tables
    swapped back) play the replayed games, and the games did flip and end on either side."""
    rules = presets.load("flip", CAP, 3)
    assert_same_games(lambda: Table(rules, seed=11), lambda: RandomBot(12), games=30)
    table, policy, sides, asked_dark = Table(rules, seed=11), RandomBot(12), set(), 0
    for game in range(30):
        table.reset(game)
        while not table.done:
            asked_dark += int(table.observation[L.OB_SIDE] == 1)
            table.step(policy(table.observation, table.mask))
        sides.add(table.record["side"])
    assert sides == {0, 1} and asked_dark > 0
