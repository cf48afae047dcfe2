"""A search bot's planned move (search_rounds.plan_move plans it before the bot's turn; dispatch.py
hands it to the round code when the bot is asked). Only the move that starts the turn is
planned: the card (or draw / accept) and the colour named with a wild card; every other
decision of a search bot follows the expert's rules (strategy.py)."""

from ..jit import njit

from .. import layout as L
from ..state import O_BOTS, S_PLAN, S_PLAN_COLOR, S_PLAN_SEAT

NO_PLAN = 0
DRAW = -1  # planned face for "draw" (ordinary turn) or "accept the penalty"


@njit(cache=True, inline="always")
def has_move(g, p):
    return g[S_PLAN] != NO_PLAN and g[S_PLAN_SEAT] == p and g[O_BOTS + p] == L.BOT.search


@njit(cache=True)
def take_move(g):
    """The planned face (DRAW: draw or accept); the plan is used up."""
    f = g[S_PLAN] - 2
    g[S_PLAN] = NO_PLAN
    return f


@njit(cache=True, inline="always")
def has_color(g, p):
    return g[S_PLAN_COLOR] != 0 and g[S_PLAN_SEAT] == p and g[O_BOTS + p] == L.BOT.search


@njit(cache=True)
def take_color(g):
    c = g[S_PLAN_COLOR] - 1
    g[S_PLAN_COLOR] = 0
    return c


@njit(cache=True)
def set_plan(g, p, f, c):
    """Plan face f (DRAW: draw / accept) and colour c (-1: none) for seat p's coming turn."""
    g[S_PLAN] = f + 2
    g[S_PLAN_COLOR] = c + 1
    g[S_PLAN_SEAT] = p


@njit(cache=True)
def clear_plan(g):
    g[S_PLAN] = NO_PLAN
    g[S_PLAN_COLOR] = 0
