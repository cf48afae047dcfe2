"""The PettingZoo and Gymnasium environments pass their libraries' own API checks, and behave
as documented (docs/BOTS.md, "Your own bot in Python")."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from uno_sim.env import A_NO, N_ACTIONS, N_OBS, Table, gym_env, uno_env  # noqa: E402
from uno_sim.game.errors import BadInput  # noqa: E402


@pytest.mark.parametrize("rules", ["standard", "house", "no-mercy", "flip"])
def test_the_aec_environment_passes_pettingzoos_api_test(rules):
    api_test(uno_env(rules=rules, players=4), num_cycles=300)


@pytest.mark.parametrize("rules", ["standard", "wild-swap", "flip"])
def test_the_gym_environment_passes_gymnasiums_env_checker(rules):
    check_env(gym_env(rules=rules, players=3, opponents="expert"), skip_render_check=True)


def play_aec(env, seed):
    """One game of the AEC environment with uniformly random legal actions; its final rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any() and obs["observation"].shape == (N_OBS,)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return final


def test_aec_games_end_with_one_winner_and_repeat_from_the_seed():
    env = uno_env(rules="standard", players=4)
    final = play_aec(env, 3)
    assert sorted(final.values()) == [-1.0, -1.0, -1.0, 1.0]
    assert play_aec(env, 3) == final


def test_the_aec_points_reward_is_the_winners_points_and_the_losers_hands():
    env = uno_env(rules="standard", players=3, reward="points")
    final = play_aec(env, 4)
    rec = env.table.record
    assert rec["winner"] >= 0
    for q in range(3):
        expected = rec["winner_points"] if q == rec["winner"] else -rec[f"points_{q}"]
        assert final[f"player_{q}"] == expected
    # standard scoring: the winner scores the points left in the other hands
    assert rec["winner_points"] == sum(rec[f"points_{q}"] for q in range(3) if q != rec["winner"])


def test_the_gym_environment_rewards_the_seats_result():
    env = gym_env(rules="standard", players=4, opponents="random", seat=2)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    total, steps, done = 0.0, 0, False
    while not done:
        assert info["action_mask"].shape == (N_ACTIONS,) and obs[0] >= 0 and obs[1] == 2  # question, own seat
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        steps += 1
        done = terminated or truncated
    record = info["record"]
    assert total == (1.0 if record["winner"] == 2 else -1.0 if record["winner"] >= 0 else 0.0)


def test_an_illegal_action_plays_the_default_or_raises():
    env = gym_env(rules="standard", players=2, opponents="random")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    strict = gym_env(rules="standard", players=2, opponents="random", illegal="raise")
    _, info = strict.reset(seed=2)
    with pytest.raises(BadInput, match="not legal"):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


def test_the_gym_environment_misused_says_reset_is_needed():
    """step() before reset() was an IndexError; a step after the game ended silently repeated
    its final reward (-1). Both raise Gymnasium's ResetNeeded (also a uno_sim BadInput), and
    reset() then deals the next game as usual."""
    import gymnasium

    env = gym_env(rules="standard", players=2, opponents="random")
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"cannot call step\(\) before calling reset\(\)"):
        env.step(A_NO)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    for action in (A_NO, 0):
        with pytest.raises(BadInput, match=r"the game is over .*call reset\(\) for the next game before step\(\)"):
            env.step(action)
    _, info = env.reset()
    assert info["action_mask"].any()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_the_aec_environment_misused_says_reset_is_needed():
    """step() before reset() was an AttributeError; step() or last() once every agent had
    stepped out of a finished game a KeyError 'player_0'. PettingZoo's order (its
    OrderEnforcingWrapper's checks) is kept with Gymnasium's ResetNeeded; a finished agent
    that steps with an action is PettingZoo's own ValueError."""
    import gymnasium

    env = uno_env(rules="standard", players=2)
    for call in (lambda: env.step(A_NO), env.last, lambda: env.observe("player_0")):
        with pytest.raises(gymnasium.error.ResetNeeded, match="reset.. needs to be called before"):
            call()
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(ValueError, match="the only valid action is None"):
                env.step(A_NO)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(A_NO), env.last):
        with pytest.raises(BadInput, match="the game is over and every agent has stepped out of it"):
            call()
    assert env.observe("player_1")["action_mask"].sum() == 0  # what it saw last stays readable
    env.reset()
    assert env.last()[0]["action_mask"].any()


def test_bad_tables_are_refused_with_one_line():
    with pytest.raises(BadInput, match="search bot"):
        Table("standard", players=3, bots="search", python_seats=[0])
    with pytest.raises(BadInput, match="through python_seats"):
        Table("standard", players=3, bots="random,python:mod:f,random", python_seats=[0])
    with pytest.raises(BadInput, match="seat 5"):
        Table("standard", players=4, python_seats=[5])
    with pytest.raises(BadInput, match="unknown reward"):
        uno_env(reward="money")
    with pytest.raises(BadInput, match="game is over"):
        t = Table("standard", players=2, python_seats=[0, 1])
        t.step(A_NO)


def test_a_tape_that_outgrows_its_array_plays_the_same_games(monkeypatch):
    """Games whose tape is moved to bigger arrays as it grows (room for 1 action at first, so
    it moves at 1, 2, 4, 8, ... actions) are the games played with room to spare: the same
    observations, masks, rewards and records, step for step, through gym_env's fast path."""
    from uno_sim.env import RandomBot

    def episodes(room):
        monkeypatch.setattr(Table, "TAPE_ROOM", room)
        env = gym_env("house", 3, opponents="expert")
        policy = RandomBot(7)
        seen, moves = [], 0
        obs, info = env.reset(seed=5)
        for _ in range(4):
            done = False
            while not done:
                seen.append((obs.tolist(), info["action_mask"].tolist()))
                obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
                moves += 1
                done = terminated or truncated
            seen.append((reward, info["record"]))
            obs, info = env.reset()
        return seen, moves, len(env.table._g) - env.table._tape_at  # the tape's room at the end

    small, moves, room = episodes(1)
    roomy, _, _ = episodes(256)
    assert moves > 40 and room >= 16  # the small tape did move to bigger arrays, several times
    assert small == roomy
