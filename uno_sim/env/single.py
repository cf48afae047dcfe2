"""The Gymnasium environment: one seat yours, the others played by uno-sim's compiled bots
(`uno_sim.env.gym_env`)."""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium
import numpy as np
from gymnasium import spaces as gym_spaces

from ..engine import layout as L
from ..engine.keys import run_key
from ..game.errors import BadInput
from ..game.rules import Rules
from .spaces import OBS_HIGH, OBS_LOW, as_action, check_reward, rewards
from .table import Table

N_ACTIONS = L.N_ACTIONS
A_NO = L.A_NO


class ResetNeeded(gymnasium.error.ResetNeeded, BadInput):
    """A step (or `last()`) where the environment has no game: before the first `reset()`, or
    after the game ended. Gymnasium's own error for calls out of order (what its
    OrderEnforcing wrapper raises), and a uno_sim.BadInput."""


class UnoGym(gymnasium.Env):
    """UNO under any rule set from one seat (`seat`, 0 by default), the other seats played by
    compiled bots (`opponents`: one bot spec for all, or one per seat as for --bots).

    An observation is int64[N_OBS] (docs/BOTS.md); the legal actions are `info["action_mask"]`
    (int8[N_ACTIONS]) and `action_masks()` (as sb3-contrib's MaskablePPO reads them). An action
    that is not legal is not played: the seat plays its default instead ("no" when that is
    legal, else the lowest legal action) and `info["illegal_action"]` is True
    (`illegal="raise"` raises instead). The reward comes at the end (`reward="win"`: +1 / -1,
    `"points"`: the winner's points / minus the points left in the hand); a round that reaches
    max_turns is truncated. `reset(seed=s)` deals game 0 of the run with seed s, `reset()` the
    next game; a game that ends before the seat is asked anything is skipped. `step()` before
    the first `reset()`, or after the step that ended the game, raises `ResetNeeded`
    (Gymnasium's `gymnasium.error.ResetNeeded`)."""

    metadata = {"render_modes": []}

    def __init__(self, rules: str | Rules = "standard", players: int | None = None,
                 opponents: str | Sequence[str] = "expert", seat: int = 0, reward: str = "win",
                 illegal: str = "default", overrides: dict | None = None) -> None:
        if illegal not in ("default", "raise"):
            raise BadInput(f"illegal must be 'default' or 'raise' (got {illegal!r})")
        self.table = Table(rules, players, bots=opponents, python_seats=[seat], overrides=overrides)
        self.seat = seat
        self.reward = check_reward(reward)
        self.illegal = illegal
        self.observation_space = gym_spaces.Box(OBS_LOW, OBS_HIGH, (L.N_OBS,), np.int64)
        self.action_space = gym_spaces.Discrete(L.N_ACTIONS)
        self._game = -1
        self._last = np.zeros(L.N_OBS, dtype=np.int64)
        self._ended: bool | None = None  # None: never reset; True: the game ended, reset() deals the next

    def action_masks(self) -> np.ndarray:
        return self.table.mask

    def view(self):
        """The question now asked, by card texts and colour letters (uno_sim.env.View)."""
        return self.table.view()

    def _info(self) -> dict:
        return {"action_mask": self.table._mask.astype(np.int8)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self.table.key = np.uint64(run_key(seed))
            self._game = -1
        for _ in range(1000):
            self._game += 1
            self.table.reset(self._game)
            if not self.table.done:
                break
        else:
            raise BadInput(f"seat {self.seat} was asked nothing in 1,000 games in a row under these rules")
        self._last = self.table._obs.copy()
        self._ended = False
        return self._last, self._info()

    def step(self, action):
        # The loop of a training run: the Table's checks done once here, its views read
        # directly, no property or helper call between the action and the compiled step.
        if self._ended is not False:
            raise ResetNeeded("cannot call step() before calling reset()" if self._ended is None else
                              "the game is over (step() returned terminated or truncated): call reset() for the "
                              "next game before step()")
        t = self.table
        mask = t._mask
        index = action if type(action) is int else as_action(action)  # (2.9 or "2": no action, not truncated)
        illegal = index is None or not (0 <= index < N_ACTIONS and mask[index])
        if illegal:
            if self.illegal == "raise":
                t.step(action)  # raises, naming the legal actions
            index = A_NO if mask[A_NO] else int(mask.nonzero()[0][0])
        t._answer(index)
        if not t.done:
            self._last = obs = t._obs.copy()
            return obs, 0.0, False, False, {"action_mask": t._mask.astype(np.int8), "illegal_action": illegal}
        record = t.record
        reward = rewards(record, t.players, self.reward)[self.seat]
        cut = record["reason"] == "cap"
        self._ended = True
        info = {"action_mask": np.zeros(N_ACTIONS, dtype=np.int8), "record": record, "illegal_action": illegal}
        return self._last.copy(), reward, not cut, cut, info
