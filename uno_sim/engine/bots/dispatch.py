"""Bot decisions, dispatched on the bot code of the seat (g[O_BOTS + seat]): what play.py asks.

Each question goes, in this order, to a seat played from Python (external.py: its tape of
actions), to a `search` bot's planned move (planned.py, set by the
search before its turn, for the move that starts the turn), to `pro`'s own decisions (pro.py,
also every other decision of `search`), to the strategy bots
(strategy.py: `greedy`, `expert`, `bluffer`, and pro's remaining decisions), or to
the `random` bot (uniform.py). Decisions draw from the game's own generator and never change
the cards.
"""

from ..jit import njit, njit_typed

from .. import layout as L
from ..access import param
from ..rng import chance
from ..sigs import B, G, I
from ..state import O_BOTS
from . import external
from . import planned
from . import pro
from . import strategy
from . import uniform


# How the engine plays each bot of the bot table (uno_sim/game/bots.py BOT_NAMES): "uniform" is
# uniform.py (the random bot); "greedy" and "expert" are strategy.py with its greedy or expert
# rules (strategy.is_expert); "search" plays the move search_rounds planned (planned.py) and
# otherwise pro's rules (as "pro"); "pro" asks pro.py for its turn card, drawn cards and colours and
# otherwise plays the expert's rules. A bot of the table missing here stops the engine from importing
# instead of silently playing as another; tests/test_bots.py
# (test_every_bot_plays_the_style_the_engine_declares) asks the compiled switches below, bot
# code by bot code, whether they send each bot where this table says.
STYLE = {"random": "uniform", "greedy": "greedy", "expert": "expert", "bluffer": "expert", "search": "search",
         "pro": "pro"}
if set(STYLE) != set(L.BOT._fields):
    raise ImportError(f"engine/bots/dispatch.py STYLE does not say how to play the bots "
                      f"{sorted(set(L.BOT._fields) ^ set(STYLE))}")


@njit(cache=True, inline="always")
def strategic(g, p):
    """Seat p plays a strategy bot (strategy.py), not `random`."""
    return g[O_BOTS + p] != L.BOT.random


@njit(cache=True, inline="always")
def is_pro(g, p):
    """Seat p plays `pro`'s rules (pro.py: its own turn card and colours; the expert's rules
    otherwise): `pro` itself, and `search` wherever it plays no planned move."""
    return g[O_BOTS + p] == L.BOT.pro or g[O_BOTS + p] == L.BOT.search


@njit(cache=True)
def choose_turn_card(g, p, color, top):
    """Face to play on an ordinary turn, or -1 to draw."""
    if external.plays(g, p):
        return external.choose_turn_card(g, p, color, top)
    if planned.has_move(g, p):  # a search bot's move (search_rounds.plan_move)
        return planned.take_move(g)
    if is_pro(g, p):
        return pro.choose_turn_card(g, p, color, top)
    if strategic(g, p):
        return strategy.choose_turn_card(g, p, color, top)
    return uniform.choose_turn_card(g, p, color, top)


@njit(cache=True)
def choose_answer(g, p, color, top, pkind):
    """Face answering a pending penalty, or -1 to accept it."""
    if external.plays(g, p):
        return external.choose_answer(g, p, color, top, pkind)
    if planned.has_move(g, p):
        return planned.take_move(g)
    if strategic(g, p):
        return strategy.choose_answer(g, p, color, top, pkind)
    return uniform.choose_answer(g, p, color, top, pkind)


@njit(cache=True)
def choose_color(g, p):
    if external.plays(g, p):
        return external.choose_color(g, p)
    if planned.has_color(g, p):
        return planned.take_color(g)
    if is_pro(g, p):
        return pro.choose_color(g, p)
    if strategic(g, p):
        return strategy.choose_color(g, p)
    return uniform.choose_color(g, p)


@njit(cache=True)
def roulette_color(g, p):
    """The colour p names as the victim of a roulette card (the random bot: uniform; the
    strategy bots: the colour they hold most, so the cards turned up are ones they can use; pro:
    the colour with the most cards unseen, so that one turns up soon)."""
    if external.plays(g, p):
        return external.roulette_color(g, p)
    if is_pro(g, p):
        return pro.roulette_color(g, p)
    if strategic(g, p):
        return strategy.choose_color(g, p)
    return uniform.choose_color(g, p)


@njit(cache=True)
def plays_drawn_card(g, p, f):
    if external.plays(g, p):
        return external.plays_drawn_card(g, p, f)
    if is_pro(g, p):
        return pro.plays_drawn_card(g, p, f)
    if strategic(g, p):
        return strategy.plays_drawn_card(g, p, f)
    return uniform.plays_drawn_card(g, p, f)


@njit(cache=True)
def wants_challenge(g, p, target):
    if external.plays(g, p):
        return external.wants_challenge(g, p, target)
    if strategic(g, p):
        return strategy.wants_challenge(g, p, target)
    return uniform.wants_challenge(g, p, target)


@njit(cache=True)
def wants_color_challenge(g, p, target):
    """Challenge target's restricted draw_color card? The random bot never does (it challenges
    only a Wild Draw Four's kind, with its challenge_prob); a strategy bot judges it as any."""
    if external.plays(g, p):
        return external.wants_challenge(g, p, target)
    if strategic(g, p):
        return strategy.wants_color_challenge(g, p, target)
    return False


@njit(cache=True)
def forgets_uno(g, p):
    """Every bot forgets to call UNO with its forget_uno."""
    return chance(g, param(g, p, L.BP.forget_uno))


@njit(cache=True)
def wants_jump(g, p, f, idents, sums):
    """Seat p holds a jump move after face f was played: `idents` identical-card moves, and a
    sum set when `sums`. Does it want to move?"""
    if external.plays(g, p):
        return external.wants_jump(g, p, f)
    if strategic(g, p):
        return strategy.wants_jump(g, p, f, idents, sums)
    return uniform.wants_jump(g, p, f, idents, sums)


@njit_typed(I(G, I, I, I, B), cache=True)
def jump_move(g, p, f, idents, sums):
    """The move of seat p, picked to jump in after face f: a face to jump in with (identical to
    f, or after a sum set to a card of the set), or -1 for a sum set, then written at O_PLAYED
    (S_NPLAYED cards, last on top). `idents` and `sums` as for wants_jump."""
    if external.plays(g, p):
        return external.jump_move(g, p, f, idents, sums)
    if strategic(g, p):
        return strategy.jump_move(g, p, f, idents, sums)
    return uniform.jump_move(g, p, f, idents, sums)


@njit(cache=True)
def wants_wild_swap(g, p):
    """After playing a Wild that was not its last card (wild_swap): swap cards instead of
    naming a colour?"""
    if external.plays(g, p):
        return external.wants_wild_swap(g, p)
    if strategic(g, p):
        return strategy.wants_wild_swap(g, p)
    return uniform.wants_wild_swap(g, p)


@njit(cache=True)
def wild_swap_card(g, p):
    """The next card p gives away in a Wild swap (the engine takes it out of p's hand before
    asking for the next)."""
    if external.plays(g, p):
        return external.wild_swap_card(g, p)
    if strategic(g, p):
        return strategy.worst_card(g, p)
    return uniform.wild_swap_card(g, p)


@njit(cache=True)
def choose_swap_target(g, p):
    """The player p swaps hands with."""
    if external.plays(g, p):
        return external.choose_swap_target(g, p)
    if strategic(g, p):
        return strategy.swap_target(g, p)
    return uniform.choose_swap_target(g, p)


@njit(cache=True)
def extra_cards(g, p, f):
    """Multi-play: further cards to put down after face f (appended at O_PLAYED)."""
    if external.plays(g, p):
        return external.extra_cards(g, p, f)
    if strategic(g, p):
        return strategy.extra_cards(g, p, f)
    return uniform.extra_cards(g, p, f)
