"""The PettingZoo AEC environment: every seat an agent (`uno_sim.env.uno_env`)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces as gym_spaces
from pettingzoo import AECEnv

from ..engine import layout as L
from ..engine.keys import run_key
from ..game.rules import Rules
from .single import ResetNeeded
from .spaces import OBS_HIGH, OBS_LOW, check_reward, rewards
from .table import Table


class UnoAEC(AECEnv):
    """UNO under any rule set, every seat an agent `player_<seat>`, in the order the rules
    ask them (a penalty's victim, a challenge, a jump-in out of turn, a colour...).

    Observations are dicts: `observation` (int64[N_OBS], docs/BOTS.md) and `action_mask`
    (int8[N_ACTIONS], 1 for each legal action); `observe(agent)` is what the agent saw at its
    last question (zeros before its first; the mask is all zeros unless it is asked now).
    Rewards come at the end of the game (`reward="win"`: +1 / -1, `"points"`: the winner's
    points / minus each loser's hand points). A round that reaches max_turns is truncated.
    `reset(seed=s)` deals game 0 of the run with seed s; `reset()` the next game. As
    PettingZoo's order checks have it, `step()`, `observe()` and `last()` before the first
    `reset()` raise (`ResetNeeded`, Gymnasium's error for calls out of order), and so do
    `step()` and `last()` once the game is over and every agent has stepped out of it (with
    `None`); a finished agent's step with an action other than None is PettingZoo's ValueError."""

    metadata = {"name": "uno_sim_v0", "render_modes": ["human"], "is_parallelizable": False}

    def __init__(self, rules: str | Rules = "standard", players: int | None = None, reward: str = "win",
                 overrides: dict | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = Table(rules, players, python_seats=None, overrides=overrides)
        self.reward = check_reward(reward)
        self.render_mode = render_mode
        n = self.table.players
        self.possible_agents = [f"player_{q}" for q in range(n)]
        self._space = gym_spaces.Dict({
            "observation": gym_spaces.Box(OBS_LOW, OBS_HIGH, (L.N_OBS,), np.int64),
            "action_mask": gym_spaces.Box(0, 1, (L.N_ACTIONS,), np.int8),
        })
        self._action_space = gym_spaces.Discrete(L.N_ACTIONS)
        self.observation_spaces = {a: self._space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self._game = -1
        self._seen = {a: np.zeros(L.N_OBS, dtype=np.int64) for a in self.possible_agents}
        self._has_reset = False

    def _check_order(self, call: str) -> None:
        if not self._has_reset:
            raise ResetNeeded(f"reset() needs to be called before {call}()")
        if not self.agents and call != "observe":
            raise ResetNeeded(f"the game is over and every agent has stepped out of it: call reset() for the next "
                              f"game before {call}()")

    def observation_space(self, agent):
        return self._space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.table.key = np.uint64(run_key(seed))
            self._game = -1
        self._game += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._seen = {a: np.zeros(L.N_OBS, dtype=np.int64) for a in self.possible_agents}
        self.table.reset(self._game)
        self._has_reset = True
        self._next()

    def _next(self) -> None:
        """Select the asked agent, or end the game for everyone."""
        t = self.table
        if not t.done:
            self.agent_selection = self.possible_agents[t.seat]
            self._seen[self.agent_selection] = t.observation
            return
        record = t.record
        cut = record["reason"] == "cap"
        for a, r in zip(self.possible_agents, rewards(record, t.players, self.reward)):
            self.rewards[a] = r
            self.terminations[a] = not cut
            self.truncations[a] = cut
            self.infos[a] = {"record": record}
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict:
        self._check_order("observe")
        if not self.table.done and agent == self.agent_selection:
            mask = self.table._mask.astype(np.int8)
        else:
            mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
        return {"observation": self._seen[agent], "action_mask": mask}  # (a fresh array each question, never changed)

    def last(self, observe: bool = True):
        self._check_order("last")
        return super().last(observe)

    def view(self):
        """The question the selected agent is asked now, by card texts and colour letters
        (uno_sim.env.View)."""
        return self.table.view()

    def step(self, action) -> None:
        self._check_order("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.step(action)  # (an integer; a float or a string is refused, not truncated)
        self._next()
        if self.render_mode == "human":
            self.render()

    def render(self) -> None:
        if self.render_mode is None:
            return
        t = self.table
        print(f"game {t.game}: " + ("over" if t.done else f"player_{t.seat} asked '{t.question}'"))

    def close(self) -> None:
        pass
