"""A Python seat playing as the `random` bot (uno_sim.env.RandomBot, through the stepping core)
gives the engine's own `random` statistics: at 4 players on `standard`, `house`, `wild-swap`,
`sum-jump-in` with sets of any colours (a Python seat choosing its jump-in moves card by
card, `jump_card`) and `flip` (UNO Flip's two-sided deck: faces and colours of the side in
play), the seat win rates (with games without a winner), the mean turns and the mean
winner points of games with seat 0 played from Python match those of games where the engine's
`random` bot plays every seat.

Tolerance: each comparison is a test at level 0.001 (chi-square test of homogeneity on the
winning seats; Welch's z for the two means), so the fifteen tests together would fail by chance
in about 1.5% of seeds; the seeds are fixed, so the outcome is reproducible. With 10,000 Python
games against 50,000 engine games a seat's win rate is checked to about +-1.6 percentage
points and the mean turns to about +-1 turn (3.3 standard errors).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from uno_sim.engine import layout as L
from uno_sim.engine.batch import run_chunk
from uno_sim.engine.keys import run_key
from uno_sim.env import RandomBot, Table
from uno_sim.game import presets
from uno_sim.game.bots import Bot, pack_bots

PYTHON_GAMES = 10_000
ENGINE_GAMES = 50_000
LEVEL = 0.001


OVERRIDES = {"sum-jump-in": {"sum_jump_in": "any_color"}}  # any colours: more moves to choose from


def python_games(preset: str) -> np.ndarray:
    """(winner, turns, winner_points) of games with seat 0 played by RandomBot."""
    table = Table(preset, players=4, bots="random", python_seats=[0], seed=11, overrides=OVERRIDES.get(preset))
    policy = RandomBot(seed=5)
    rows = []
    for game in range(PYTHON_GAMES):
        table.reset(game)
        while not table.done:
            table.step(policy(table.observation, table.mask))
        r = table.record
        rows.append((r["winner"], r["turns"], r["winner_points"]))
    return np.array(rows)


def engine_games(preset: str) -> np.ndarray:
    rules = presets.load(preset, OVERRIDES.get(preset), 4)
    codes, params = pack_bots([Bot("random")] * 4)
    rec = run_chunk(rules.pack(), codes, params, run_key(12), 0, ENGINE_GAMES, deck=rules.cards)
    return rec[:, [L.COL_WINNER, L.COL_TURNS, L.COL_WINNER_POINTS]]


def welch_p(a: np.ndarray, b: np.ndarray) -> float:
    z = (a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return float(2 * stats.norm.sf(abs(z)))


@pytest.mark.parametrize("preset", ["standard", "house", "wild-swap", "sum-jump-in", "flip"])
def test_a_python_random_seat_plays_as_the_random_bot(preset):
    py, en = python_games(preset), engine_games(preset)
    outcomes = np.arange(-1, 4)  # no winner, seats 0-3
    counts = np.array([[np.sum(x[:, 0] == o) for o in outcomes] for x in (py, en)])
    counts = counts[:, counts.sum(axis=0) > 0]
    p_wins = stats.chi2_contingency(counts).pvalue
    p_turns = welch_p(py[:, 1], en[:, 1])
    won = (py[:, 0] >= 0), (en[:, 0] >= 0)
    p_points = welch_p(py[won[0], 2], en[won[1], 2])
    assert p_wins > LEVEL, (preset, counts)
    assert p_turns > LEVEL, (preset, py[:, 1].mean(), en[:, 1].mean())
    assert p_points > LEVEL, (preset, py[won[0], 2].mean(), en[won[1], 2].mean())


def test_the_comparison_sees_a_different_policy():
    """The same test tells a seat that draws whenever it may (and then plays the drawn card if
    it can) apart from the random bot: the check has the power to fail."""
    table = Table("standard", players=4, bots="random", python_seats=[0], seed=11)
    policy = RandomBot(seed=5)
    winners = []
    for game in range(600):
        table.reset(game)
        while not table.done:
            mask = table.mask
            drawing = table.question == "turn" and mask[L.A_NO]
            table.step(L.A_NO if drawing else policy(table.observation, mask))
        winners.append(table.record["winner"])
    en = engine_games("standard")
    outcomes = np.arange(-1, 4)
    counts = np.array([[np.sum(np.asarray(x) == o) for o in outcomes] for x in (winners, en[:, 0])])
    counts = counts[:, counts.sum(axis=0) > 0]
    assert stats.chi2_contingency(counts).pvalue < LEVEL
