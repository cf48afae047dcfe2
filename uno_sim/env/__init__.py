"""Your own agent at the table: Python policies and reinforcement-learning environments.

`Table` (table.py) is the stepping core: one game at a time, some seats played from Python,
each step one compiled call of the engine that plays on from the start of the turn the game
stopped in, with the actions chosen so far (engine/stepping.py, engine/snapshots.py,
engine/bots/external.py). On top of it sit the
PettingZoo AEC environment `uno_env` (every seat an agent) and the Gymnasium environment
`gym_env` (one seat yours, the others uno-sim's compiled bots); both need the optional extra
`uno-sim[rl]` (pettingzoo, gymnasium). `RandomBot` plays as the `random` bot does. `View`
(view.py) reads a question by card texts and colour letters (`"R5"`, `"R"`). The
observation and the action space are documented in docs/BOTS.md ("Your own bot in Python").
"""

from __future__ import annotations

from ..engine.layout import A_COLOR, A_FACE, A_NO, A_SEAT, A_YES, N_ACTIONS, N_OBS, QUESTIONS
from .policies import RandomBot
from .spaces import describe
from .table import Table
from .view import COLORS, View

__all__ = ["A_COLOR", "A_FACE", "A_NO", "A_SEAT", "A_YES", "COLORS", "N_ACTIONS", "N_OBS", "QUESTIONS", "RandomBot",
           "Table", "View", "describe", "gym_env", "uno_env"]


def uno_env(rules="standard", players: int | None = None, reward: str = "win", overrides: dict | None = None,
            render_mode: str | None = None):
    """The PettingZoo AEC environment (every seat an agent) for a preset, rule file or Rules."""
    from .aec import UnoAEC

    return UnoAEC(rules, players, reward=reward, overrides=overrides, render_mode=render_mode)


def gym_env(rules="standard", players: int | None = None, opponents="expert", seat: int = 0, reward: str = "win",
            illegal: str = "default", overrides: dict | None = None):
    """The Gymnasium environment: seat `seat` yours, the others played by the compiled `opponents`."""
    from .single import UnoGym

    return UnoGym(rules, players, opponents=opponents, seat=seat, reward=reward, illegal=illegal, overrides=overrides)
