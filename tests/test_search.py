"""The `search` bot (engine/bots/search.py and engine/search_rounds.py, docs/BOTS.md): it
finds a winning move the expert misses, uses only what a player sees, plays legal moves
under every rule set (replayed in the independent checker), is deterministic, and its
parameters parse and pack."""

import pytest
from numba import njit

from positions import Position, cards
from replay import assert_clean
from uno_sim import api
from uno_sim.game.bots import DEFAULT_ROLLOUTS, Bot, BotError, pack_bots, parse_bot, parse_bots
from uno_sim.game.cards import FACE_TEXTS, N_FACES
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.bots.search import scratch
from uno_sim.engine.search_rounds import continue_searching, plan_move
from uno_sim.engine.unowned import keep_alive, unowned
from uno_sim.game.presets import load as load_preset
from uno_sim.game.rules import Rules
from uno_sim.running.trace import decode_events

EXPERT, SEARCH = Bot("expert"), Bot("search", {"rollouts": 300})


@njit(cache=True)
def search_from(owner, scratch_owner, turns):
    continue_searching(unowned(owner), unowned(scratch_owner), turns)
    keep_alive(owner)
    keep_alive(scratch_owner)


@njit(cache=True)
def plan_from(owner, scratch_owner, p):
    plan_move(unowned(owner), unowned(scratch_owner), p)
    keep_alive(owner)
    keep_alive(scratch_owner)


def run_searching(pos: Position, turns: int) -> list[dict]:
    g = pos.build() if pos.g is None else pos.g
    start = int(g[S.S_TPOS])
    search_from(g, scratch(), turns)
    end = int(g[S.S_TPOS])
    return list(decode_events(g[start:end], end - start, pos.rules.players))


def rest_of_deck(*used: str) -> str:
    """Every card of the deck not named in `used`, as a discard pile text."""
    left = {f: (4 if f >= 52 else (1 if f % 13 == 0 else 2)) for f in range(N_FACES)}
    for text in used:
        for f in cards(text):
            left[f] -= 1
            assert left[f] >= 0, FACE_TEXTS[f]
    return " ".join(FACE_TEXTS[f] for f in range(N_FACES) for _ in range(left[f]))


def endgame(bot: Bot) -> Position:
    """Two players. Seat 0 holds R4 G4 on R4; seat 1 holds one card; every card seat 0 cannot
    see is a red card other than a 4 (so seat 1's card is one). R4 loses at once (seat 1
    follows in red); G4 wins: seat 1 cannot follow green, draws a red card it cannot play,
    and R4 (a 4 on a 4) goes out."""
    hands = ["R4 G4", "R1"]
    pile = "R3 R6 R8"
    return Position(Rules(players=2), hands, top="R4", pile=pile,
                    discard_below=rest_of_deck("R4 G4", "R1", pile, "R4"), bots=[bot, EXPERT])


def test_search_finds_the_winning_move_that_the_expert_misses():
    expert = endgame(EXPERT)
    events = expert.run(1)
    assert events[0]["card"] == "R4"  # the expert's tie rule: the current colour first
    expert.run(1)
    assert expert.hand_size(1) == 0  # and seat 1 goes out
    pos = endgame(SEARCH)
    events = run_searching(pos, 3)
    assert events[0] == {"ev": "play", "p": 0, "card": "G4", "color": "G"}
    assert pos.hand_size(0) == 0 and pos.g[S.O_REC + L.COL_WINNER] == 0


def test_search_below_two_rollouts_per_move_plays_like_the_expert_that_never_challenges():
    a = api.run("standard", games=800, bots="search:rollouts=1,expert,expert,expert", rotate_seats=True,
                per_game=True, seed=2)
    b = api.run("standard", games=800, bots="expert:challenge_prob=0,expert,expert,expert", rotate_seats=True,
                per_game=True, seed=2)
    assert a.games.equals(b.games)


def hidden_swapped(pos: Position) -> Position:
    """The same position with seat 1's hand and the pile exchanged card for card (seat 0 sees
    no difference: same hand sizes, same discard pile)."""
    return Position(pos.rules, [pos.hands[0], "R3", pos.hands[2], pos.hands[3]], top=pos.top,
                    pile="G2 R1 " + " ".join(pos.pile.split()[2:]), discard_below=pos.discard_below, bots=pos.bots)


def test_the_plan_depends_only_on_what_the_bot_sees():
    base = Position(Rules(), ["R5 G5 B7 Y2 W", "G2", "B1 B2 B3", "Y3 Y4 Y5 Y6"], top="R2",
                    pile="R3 R1 G9 G8 B9 Y9", bots=[Bot("search", {"rollouts": 200}), EXPERT, EXPERT, EXPERT])
    plans = []
    for pos in (base, hidden_swapped(base)):
        g = pos.build()
        plan_from(g, scratch(), 0)
        plans.append((int(g[S.S_PLAN]), int(g[S.S_PLAN_COLOR]), int(g[S.S_PLAN_SEAT])))
    assert plans[0] == plans[1] and plans[0][0] != 0


@pytest.mark.parametrize("preset", ["standard", "stacking-full", "house", "seven-zero", "jump-in", "last-standing",
                                    "teams", "number-finish", "draw-until", "deflect", "free-wd4", "sum-jump-in",
                                    "hand-sum", "uno-catchers", "wild-swap"])
def test_search_plays_legally_under_every_rule_set(preset):
    rules = load_preset(preset)
    n = rules.players
    bots = [Bot("search", {"rollouts": 12})] + [Bot("search", {"rollouts": 8, "rollout_policy": "random",
                                                                "objective": "points"})] + [EXPERT] * (n - 2)
    assert_clean(rules, 6, 3, bots)


def test_search_is_deterministic_for_any_thread_count():
    kw = dict(games=48, bots="search:rollouts=40,expert,random", players=3, rotate_seats=True, seed=9,
              per_game=True)
    one = api.run("house", workers=1, **kw).games
    two = api.run("house", workers=2, **kw).games
    assert one.equals(two)


def test_search_in_matches_and_tournaments():
    m = api.match("standard", matches=6, players=2, bots="search:rollouts=20,expert", target=100)
    assert m.result.matches == 6
    t = api.tournament("standard", bots="search:rollouts=10,random", players=2, deals=10)
    assert set(t.ratings["bot"]) == {"search:rollouts=10", "random"}


# ---------------------------------------------------------------- parameters


def test_search_parameters_parse_pack_and_label():
    bot = parse_bot("search:rollouts=200:rollout_policy=random:objective=points")
    assert bot.label == "search:objective=points:rollout_policy=random:rollouts=200"
    codes, params = pack_bots([bot, Bot("search")])
    assert list(codes) == [L.BOT.search, L.BOT.search]
    assert params[0, L.BP.rollouts] == 200 and params[0, L.BP.rollout_policy] == 0 and params[0, L.BP.objective] == 1
    assert params[1, L.BP.rollouts] == DEFAULT_ROLLOUTS and params[1, L.BP.rollout_policy] == 2
    assert params[1, L.BP.challenge_prob] == 0  # never challenges by default (docs/BOTS.md)
    assert Bot("search", {"rollouts": DEFAULT_ROLLOUTS}).label == "search"


@pytest.mark.parametrize("spec, needle", [
    ("search:rollouts=0", "'rollouts'"),
    ("search:rollouts=2.5", "whole number"),
    ("search:rollouts=many", "whole number"),
    ("search:rollout_policy=smart", "random, greedy, expert"),
    ("search:objective=fun", "win, points"),
    ("expert:rollouts=10", "unknown parameter 'rollouts' for bot 'expert'"),
    ("search:bluff_prob=0.5", "unknown parameter 'bluff_prob' for bot 'search'"),
])
def test_bad_search_parameters(spec, needle):
    with pytest.raises(BotError, match=needle):
        parse_bots(spec, 4)
