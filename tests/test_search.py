"""The `search` bot (engine/bots/search.py and engine/search_rounds.py, docs/BOTS.md): it
finds a winning move the expert misses, starts from pro's choice and keeps it unless a move
proves better, stops early when one move dominates, deals hidden cards consistently with what
the table saw, uses only what a player sees, plays legal moves under every rule set (replayed
in the independent checker), is deterministic, and its parameters parse and pack."""

import numpy as np
import pytest
from numba import njit

from positions import Position, cards
from replay import assert_clean
from uno_sim import api
from uno_sim.game.bots import (DEFAULT_ROLLOUTS, MAX_ENDGAME, Bot, BotError, default_param, pack_bots, parse_bot,
                               parse_bots)
from uno_sim.game.cards import FACE_TEXTS, N_FACES
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.bots.search import (BATCH, MAX_MOVES, MIN_ROUNDS, POOL, baseline_move, candidate_moves, plays_as_seen,
                                        redeal, scratch)
from uno_sim.engine.rng import seed_game
from uno_sim.engine.search_rounds import choose, continue_searching, copy_deck, plan_move, rollout
from uno_sim.engine.unowned import keep_alive, unowned, unowned_like, unowned_two_sided
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


@njit(cache=True)
def choose_from(owner, scratch_owner, p):
    """The search's choice for seat p: (baseline face, chosen face, moves, rollouts played)."""
    g = unowned(owner)
    s = unowned(scratch_owner)
    faces = np.empty(MAX_MOVES, dtype=np.int64)
    colors = np.empty(MAX_MOVES, dtype=np.int64)
    k = candidate_moves(g, p, faces, colors)
    e = baseline_move(g, p, faces, colors, k)
    best, spent = choose(g, s, p, faces, colors, k, e, np.empty(POOL, dtype=np.int64))
    keep_alive(owner)
    keep_alive(scratch_owner)
    return faces[e], faces[best], k, spent


@njit(cache=True, inline="always")
def _redeal(g, owner, scratch_owner, p, j):
    s = unowned_like(g, scratch_owner)
    for i in range(scratch_owner.shape[0]):
        s[i] = g[i]
    seed_game(s, np.uint64(99), j)
    redeal(s, p, np.empty(POOL, dtype=np.int64))
    keep_alive(owner)
    keep_alive(scratch_owner)


@njit(cache=True)
def _redeal_one_sided(owner, scratch_owner, p, j):
    _redeal(unowned(owner), owner, scratch_owner, p, j)


@njit(cache=True)
def _redeal_two_sided(owner, scratch_owner, p, j):
    _redeal(unowned_two_sided(owner), owner, scratch_owner, p, j)


def redeal_from(owner, scratch_owner, p, j):
    """Determinization j of p's view (search.redeal) into the scratch game, a copy of the game
    (its deck's pointer type: engine/unowned.py)."""
    (_redeal_two_sided if owner[S.O_TWO_SIDED] else _redeal_one_sided)(owner, scratch_owner, p, j)


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


def test_search_stops_as_soon_as_one_move_dominates():
    """G4 wins, R4 and drawing (voluntary_draw is on) lose on every determinization: after
    MIN_ROUNDS rounds the search stops, whatever the budget (whichever move is pro's choice)."""
    pos = endgame(Bot("search", {"rollouts": 10_000}))
    g = pos.build()
    _, chosen, k, spent = choose_from(g, scratch(), 0)
    assert k == 3 and pos.table.texts[chosen] == "G4"
    assert spent == MIN_ROUNDS * BATCH * k


def test_search_keeps_pro_s_choice_unless_a_move_proves_better():
    """On R5 with R2 RS B5 G5 Y1 at two players pro plays the Skip (it moves again) where the
    expert plays R2. With a budget too small to test every move the search plays pro's
    choice; a larger budget is never exceeded. (Every hand holds more than 2 cards: the
    default `endgame` would not search at all, so these search on every turn.)"""
    rules = Rules(players=2)
    hands = ["R2 RS B5 G5 Y1", "Y2 Y3 Y4 Y5 Y6 Y7 Y8"]

    def position(bot):
        return Position(rules, hands, top="R5", pile="G1 G2 G3", bots=[bot, EXPERT])

    assert position(EXPERT).run(1)[0]["card"] == "R2"
    small = position(Bot("search", {"rollouts": 1, "endgame": 0}))
    g = small.build()
    baseline, chosen, k, spent = choose_from(g, scratch(), 0)
    assert small.table.texts[baseline] == "RS" and chosen == baseline and spent == 0
    assert k == 5  # R2, RS, B5, G5, draw
    assert run_searching(small, 1)[0]["card"] == "RS"
    big = position(Bot("search", {"rollouts": 400, "endgame": 0}))
    g = big.build()
    _, _, k, spent = choose_from(g, scratch(), 0)
    assert MIN_ROUNDS * BATCH * k <= spent <= 400


@pytest.mark.parametrize("endgame", [0, 2])
def test_search_with_too_small_a_budget_plays_like_pro_that_never_challenges(endgame):
    """On every turn (endgame=0) and near the end only (2, the default; pro's choice before)."""
    a = api.run("standard", games=800, bots=f"search:rollouts=1:endgame={endgame},pro,pro,pro", rotate_seats=True,
                per_game=True, seed=2)
    b = api.run("standard", games=800, bots="pro:challenge_prob=0,pro,pro,pro", rotate_seats=True,
                per_game=True, seed=2)
    assert a.games.equals(b.games)


def seat_one_cards(lacks: int, deals: int = 60) -> set[str]:
    """The faces seat 1 is dealt over `deals` determinizations of seat 0's view when the table
    saw seat 1 lack `lacks` (O_LACKS bits)."""
    pos = Position(Rules(players=3), ["R5 G5", "R1 R2 R3 R4 R6", "Y1 Y2 Y3 Y4 Y5 Y6"], top="G6",
                   pile="B1 B2 B3 B4 B5 B6 B7 B8 B9 G9 G8 G7 R7 R8 R9 W W4 W",
                   bots=[Bot("search"), EXPERT, EXPERT])
    g = pos.build()
    g[S.O_LACKS + 1] = lacks
    seen: set[str] = set()
    s = np.zeros(S.N_GAME, dtype=np.int64)
    for j in range(deals):
        redeal_from(g, s, 0, j)
        hands = [s[S.O_HANDS + q * S.HAND_WIDTH: S.O_HANDS + q * S.HAND_WIDTH + N_FACES] for q in range(3)]
        assert [int(h.sum()) for h in hands] == [2, 5, 6] and int(s[S.S_NPILE]) == 18  # sizes kept
        assert list(hands[0]) == list(g[S.O_HANDS: S.O_HANDS + N_FACES])  # its own hand untouched
        seen |= {FACE_TEXTS[f] for f in range(N_FACES) if hands[1][f] > 0}
    return seen


def test_determinizations_respect_what_the_table_saw_a_player_lack():
    red, seven = 1 << 0, 1 << (S.LACK_SLOT0 + 7)
    assert FACE_TEXTS[0].startswith("R")  # colour 0 is red
    free = seat_one_cards(0)
    assert any(t.startswith("R") for t in free) and any(t[1:] == "7" for t in free)  # both can be dealt
    lacking = seat_one_cards(red | seven | (1 << S.LACK_WILD))
    assert not any(t.startswith("R") for t in lacking)  # no red card
    assert not any(t[1:] == "7" for t in lacking)  # no 7 of any colour
    assert {"W", "W4"} & lacking  # wild cards still dealt: pro keeps a drawn wild card


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
    # the first searches on every turn, the second near the end only (the default endgame)
    bots = [Bot("search", {"rollouts": 12, "endgame": 0})] + [Bot("search", {"rollouts": 8, "rollout_policy": "random",
                                                                              "objective": "points"})] + [EXPERT] * (n - 2)
    assert_clean(rules, 6, 3, bots)


def test_search_is_deterministic_for_any_thread_count():
    kw = dict(games=48, bots="search:rollouts=40,expert,random", players=3, rotate_seats=True, seed=9,
              per_game=True)
    one = api.run("house", workers=1, **kw).games
    two = api.run("house", workers=2, **kw).games
    assert one.equals(two)
    kw = dict(games=40, bots="search:rollouts=64,pro", players=2, rotate_seats=True, seed=3, per_game=True)
    one = api.run("standard", workers=1, **kw).games
    two = api.run("standard", workers=2, **kw).games
    assert one.equals(two)


def test_search_in_matches_and_tournaments():
    m = api.match("standard", matches=6, players=2, bots="search:rollouts=20,expert", target=100)
    assert m.result.matches == 6
    t = api.tournament("standard", bots="search:rollouts=10,random", players=2, deals=30)
    assert set(t.ratings["bot"]) == {"search:rollouts=10", "random"}


# ---------------------------------------------------------------- parameters


def test_search_parameters_parse_pack_and_label():
    bot = parse_bot("search:rollouts=200:rollout_policy=random:objective=points")
    assert bot.label == "search:objective=points:rollout_policy=random:rollouts=200"
    codes, params = pack_bots([bot, Bot("search")])
    assert list(codes) == [L.BOT.search, L.BOT.search]
    assert params[0, L.BP.rollouts] == 200 and params[0, L.BP.rollout_policy] == 0 and params[0, L.BP.objective] == 1
    assert params[1, L.BP.rollouts] == DEFAULT_ROLLOUTS and params[1, L.BP.rollout_policy] == 3  # pro
    assert params[1, L.BP.challenge_prob] == 0  # never challenges by default (docs/BOTS.md)
    assert Bot("search", {"rollouts": DEFAULT_ROLLOUTS}).label == "search"


@pytest.mark.parametrize("spec, needle", [
    ("search:rollouts=0", "'rollouts'"),
    ("search:rollouts=2.5", "whole number"),
    ("search:rollouts=many", "whole number"),
    ("search:rollout_policy=smart", "random, greedy, expert, pro"),
    ("search:objective=fun", "win, points"),
    ("expert:rollouts=10", "unknown parameter 'rollouts' for bot 'expert'"),
    ("search:bluff_prob=0.5", "unknown parameter 'bluff_prob' for bot 'search'"),
])
def test_bad_search_parameters(spec, needle):
    with pytest.raises(BotError, match=needle):
        parse_bots(spec, 4)


# ---------------------------------------------------------------- sees (the cheats) and endgame


def hidden_card(seat_one: str, sees: str) -> Position:
    """Two players. Seat 0 holds R4 G4 on R4; seat 1 holds one card, R1 or G1; the draw pile
    holds the other of the two under cards nobody can play. Seat 0 sees the same either way.
    With R1 in seat 1, G4 wins (seat 1 cannot follow green, draws Y7, and R4 goes out) and R4
    loses (seat 1 follows in red); with G1 it is the other way round."""
    other = "G1" if seat_one == "R1" else "R1"
    return Position(Rules(players=2), ["R4 G4", seat_one], top="R4", pile=f"Y7 B8 Y9 {other}",
                    bots=[Bot("search", {"rollouts": 200, "sees": sees}), EXPERT])


def planned_face(pos: Position) -> str:
    g = pos.build()
    plan_from(g, scratch(), 0)
    assert g[S.S_PLAN] != 0 and g[S.S_PLAN_SEAT] == 0
    return "draw" if g[S.S_PLAN] - 2 < 0 else pos.table.texts[g[S.S_PLAN] - 2]


@pytest.mark.parametrize("sees", ["all", "hands"])
def test_search_that_sees_the_hands_finds_the_move_only_the_hidden_card_decides(sees):
    """`hands` shuffles the pile: the drawn card may be the other 1, which still makes the
    right move the better one."""
    assert planned_face(hidden_card("R1", sees)) == "G4"
    assert planned_face(hidden_card("G1", sees)) == "R4"


def test_search_that_sees_all_plays_the_hidden_card_s_move_out():
    """...and wins the game with it."""
    pos = hidden_card("G1", "all")
    events = run_searching(pos, 3)
    assert events[0]["card"] == "R4" and pos.g[S.O_REC + L.COL_WINNER] == 0


def test_the_fair_search_cannot_know_the_hidden_card():
    """Seat 0's view is the same in both positions, so the fair search plans the same move in
    both: the wrong one in one of them."""
    assert planned_face(hidden_card("R1", "fair")) == planned_face(hidden_card("G1", "fair"))


def plan_or_none(pos: Position) -> int:
    """The planned face + 2 (planned.py), 0 when nothing was planned (pro's rules play)."""
    g = pos.build()
    plan_from(g, scratch(), pos.to_act)
    return int(g[S.S_PLAN])


def test_endgame_searches_only_once_a_hand_is_that_small():
    """R2 RS B5 G5 Y1 (5 cards) against 7 cards: endgame=4 plans nothing (pro's rules play the
    turn), endgame=5 searches (its own hand counts), as does endgame=0 (every turn); the
    default (2) plans nothing until a hand holds 2 cards."""
    rules = Rules(players=2)
    hands = ["R2 RS B5 G5 Y1", "Y2 Y3 Y4 Y5 Y6 Y7 Y8"]

    def position(**params):
        return Position(rules, hands, top="R5", pile="G1 G2 G3",
                        bots=[Bot("search", {"rollouts": 400, **params}), EXPERT])

    assert plan_or_none(position(endgame=4)) == 0
    assert plan_or_none(position(endgame=5)) != 0
    assert plan_or_none(position(endgame=0)) != 0
    assert plan_or_none(position()) == 0
    hands[1] = "Y2 Y3 Y4"  # the other hand counts too
    assert plan_or_none(position(endgame=3)) != 0 and plan_or_none(position(endgame=2)) == 0
    assert plan_or_none(position()) == 0


def test_the_default_searches_once_a_hand_holds_two_cards():
    """The default `endgame` is 2, seen in play: with the search bot's parameters left at their
    defaults it plans nothing while every hand holds 3 cards or more (its own or the other's),
    and searches once either holds 2 or 1."""
    rules = Rules(players=2)

    def planned(own: str, other: str) -> bool:
        return plan_or_none(Position(rules, [own, other], top="R5", pile="G1 G2 G3",
                                     bots=[Bot("search"), EXPERT])) != 0

    assert not planned("R2 RS B5", "Y2 Y3 Y4") and not planned("R2 RS B5 G5 Y1", "Y2 Y3 Y4 Y5 Y6 Y7 Y8")
    assert planned("R2 RS B5", "Y2 Y3") and planned("R2 RS B5 G5 Y1", "Y2")
    assert planned("R2 B5", "Y2 Y3 Y4")


def test_endgame_ignores_players_already_out():
    """last_standing: seat 2 went out (no cards, a place); seats 0 and 1 hold 5 and 7."""
    rules = load_preset("last-standing").replace(players=3)
    bot = Bot("search", {"rollouts": 400, "endgame": 2})
    pos = Position(rules, ["R2 RS B5 G5 Y1", "Y2 Y3 Y4 Y5 Y6 Y7 Y8", ""], top="R5", pile="G1 G2 G3",
                   bots=[bot, EXPERT, EXPERT], out={2: 1})
    assert plan_or_none(pos) == 0
    pos.hands[1], pos.g = "Y2 Y3", None
    assert plan_or_none(pos) != 0


def test_endgame_beyond_every_hand_is_every_turn():
    kw = dict(games=40, players=2, rotate_seats=True, seed=5, per_game=True)
    a = api.run("standard", bots="search:rollouts=40:endgame=0,pro", **kw).games
    b = api.run("standard", bots=f"search:rollouts=40:endgame={MAX_ENDGAME},pro", **kw).games
    assert a.equals(b)


def test_sees_and_endgame_parse_pack_and_label():
    bot = parse_bot("search:sees=all:endgame=3")
    assert bot.label == "search:endgame=3:sees=all"
    codes, params = pack_bots([bot, Bot("search")])
    assert params[0, L.BP.sees] == 1 and params[0, L.BP.endgame] == 3
    assert params[1, L.BP.sees] == 0 and params[1, L.BP.endgame] == 2  # fair, near the end (2 cards)
    assert pack_bots([parse_bot("search:sees=hands")])[1][0, L.BP.sees] == 2
    assert Bot("search", {"sees": "fair", "endgame": 2}).label == "search"
    every_turn = parse_bot("search:endgame=0")
    assert every_turn.label == "search:endgame=0" and pack_bots([every_turn])[1][0, L.BP.endgame] == 0


@pytest.mark.parametrize("spec, needle", [
    ("search:sees=some", "fair, all, hands"),
    ("search:endgame=-1", "'endgame'"),
    ("search:endgame=two", "whole number"),
    (f"search:endgame={MAX_ENDGAME + 1}", "'endgame'"),
    ("pro:sees=all", "unknown parameter 'sees' for bot 'pro'"),
    ("expert:endgame=2", "unknown parameter 'endgame' for bot 'expert'"),
])
def test_bad_sees_and_endgame(spec, needle):
    with pytest.raises(BotError, match=needle):
        parse_bots(spec, 4)


# ---------------------------------------------------------------- infer=plays / history


@njit(cache=True)
def plays_as_seen_from(owner, p, depth):
    from_g = unowned(owner)
    same, _ = plays_as_seen(from_g, p, depth)
    keep_alive(owner)
    return same


def wild_played(other: str = "search") -> Position:
    """Seat 0 (pro) holds W B1 B2 on G7: only the Wild can go down (and pro plays a Wild rather
    than draw beside at most 2 other cards), and pro names the colour it holds most, blue.
    Seat 1 plays `other` (a search bot without a plan plays pro's rules)."""
    pos = Position(Rules(players=2), ["W B1 B2", "R1 R2 G3"], top="G7", pile="R5 R6 R7 R8",
                   bots=[Bot("pro"), Bot(other)])
    pos.run(1)
    return pos


def turns_kept(g, seat) -> list[dict]:
    """Seat's turns kept in O_SEEN, oldest first, as named fields."""
    names = ("kind", "face", "top", "color", "named", "size", "ndisc", "dir", "next_size", "next_lacks", "shuffles")
    base = S.O_SEEN + seat * S.SEEN_SEAT
    return [dict(zip(names, g[base + 1 + k * S.SEEN_WIDTH: base + 1 + (k + 1) * S.SEEN_WIDTH]))
            for k in range(g[base])]


def test_the_table_keeps_each_seat_s_turns_as_everyone_saw_them():
    pos = wild_played()
    g = pos.g
    (wild,) = turns_kept(g, 0)
    assert wild["kind"] == S.SEEN_PLAYED_KIND and FACE_TEXTS[wild["face"]] == "W" and FACE_TEXTS[wild["top"]] == "G7"
    assert (wild["color"], wild["named"]) == (2, 3)  # green before, blue named (colours R Y G B)
    assert wild["size"] == 2 and pos.color_now == "B" and (wild["next_size"], wild["dir"]) == (3, 1)
    pos.run(1)  # seat 1 holds no blue and no wild: a forced draw (a red card, kept); seat 0's turns stay
    (drew,) = turns_kept(g, 1)
    assert drew["kind"] == S.SEEN_DREW_KEPT_KIND and drew["face"] == -1 and drew["size"] == 4 and drew["color"] == 3
    assert turns_kept(g, 0) == [wild]
    pos.run(1)  # seat 0's next play joins its chain: the hand it chose from is the one the Wild left
    first, second = turns_kept(g, 0)
    assert first == wild and second["kind"] == S.SEEN_PLAYED_KIND
    assert FACE_TEXTS[second["face"]] in ("B1", "B2") and second["size"] == 1 and second["next_size"] == 4


def test_the_turns_are_kept_only_at_a_table_with_a_search_bot():
    """Nothing else reads them: with pro in both seats the table keeps no turn."""
    pos = wild_played("pro")
    pos.run(2)
    assert turns_kept(pos.g, 0) == [] and turns_kept(pos.g, 1) == []
    assert len(turns_kept(wild_played().g, 0)) == 1


def test_a_penalty_forgets_a_seat_s_turns():
    """Every card here is the only legal one: seat 0 Y1, seat 1 Y8, seat 0 R8, seat 1 a red
    card, seat 0 its Draw Two; seat 1, whose two plays were kept, takes the penalty: it took
    cards no one saw, so nothing is kept for it; seat 0's three plays are kept as a chain."""
    pos = Position(Rules(players=2), ["Y1 RD R8 B1", "Y8 R4 R6 B9"], top="Y5", pile="G1 G2 G3 G5 G6 G7",
                   bots=[Bot("pro"), Bot("search")])
    pos.run(4)
    assert [FACE_TEXTS[t["face"]] for t in turns_kept(pos.g, 0)] == ["Y1", "R8"]
    assert len(turns_kept(pos.g, 1)) == 2
    pos.run(1)  # the Draw Two, and seat 1 draws its two cards at once
    assert [FACE_TEXTS[t["face"]] for t in turns_kept(pos.g, 0)] == ["Y1", "R8", "RD"]
    assert [t["size"] for t in turns_kept(pos.g, 0)] == [3, 2, 1]
    assert pos.hand_size(1) == 4 and turns_kept(pos.g, 1) == []


def replace_hand(g, seat, text):
    h = S.O_HANDS + seat * S.HAND_WIDTH
    g[h : h + S.HAND_WIDTH] = 0
    for f in cards(text):
        g[h + f] += 1
    g[S.O_HSIZE + seat] = len(cards(text))


@pytest.mark.parametrize("hand, consistent", [
    ("B1 B2", True),  # the true hand: the Wild, then blue
    ("B5 B9", True),  # another hand that plays the same: the Wild, then blue
    ("Y1 Y2", False),  # pro would have named yellow
    ("G1 B2", False),  # pro would have played the green card, not the Wild
])
def test_a_deal_is_kept_only_when_the_last_play_is_the_one_pro_would_make(hand, consistent):
    """search.plays_as_seen from seat 1's view, with seat 0's hand replaced by `hand` (as a
    determinization would deal it), and the game array left as it was."""
    g = wild_played().g
    replace_hand(g, 0, hand)
    before = g.copy()
    assert plays_as_seen_from(g, 1, 1) == consistent
    assert plays_as_seen_from(g, 1, S.SEEN_DEPTH) == consistent
    assert np.array_equal(g, before)


def wild_then_blue() -> tuple[Position, str]:
    """wild_played, then seat 1's forced draw, then seat 0's blue card: seat 0 holds one card
    (the other blue one), seat 1 four (R1 R2 G3 and the red card it drew)."""
    pos = wild_played()
    pos.run(2)
    assert pos.hand_size(0) == 1 and pos.hand_size(1) == 4
    return pos, pos.hand(0)[0]


@pytest.mark.parametrize("hand, last_play, history", [
    ("true", True, True),  # the blue card seat 0 kept
    ("B9", True, True),  # any blue card: the Wild named blue, then a blue card went down
    ("Y5", True, False),  # the blue card could go down beside it, but with it the Wild would have named yellow
    ("G4", True, False),  # only the blue card could go on the Wild's blue, but G4 could have gone on G7 instead of the Wild
])
def test_history_checks_every_play_since_the_hand_last_took_cards(hand, last_play, history):
    """From seat 1's view, seat 0's one card replaced: infer=plays checks only seat 0's last
    play (its blue card, chosen from the hand dealt plus that card), infer=history also the
    Wild before it (chosen from the hand dealt plus both cards): a yellow 5 is consistent with
    the blue play but not with the Wild naming blue (pro names its most-held colour, ties by
    points)."""
    pos, kept = wild_then_blue()
    g = pos.g
    replace_hand(g, 0, kept if hand == "true" else hand)
    before = g.copy()
    assert plays_as_seen_from(g, 1, 1) == last_play
    assert plays_as_seen_from(g, 1, S.SEEN_DEPTH) == history
    assert np.array_equal(g, before)


@pytest.mark.parametrize("hand, consistent", [
    ("true", True),  # R1 R2 G3 and the red card drawn
    ("R1 R2 G3 Y9", True),  # no blue card, no wild: the draw was forced, whichever card came
    ("R1 R2 G3 B7", False),  # B7 could only be the card drawn, and pro would have played it
    ("R1 B2 G3 B7", False),  # two blue cards: it would not have drawn
])
def test_a_forced_draw_tells_that_the_hand_held_no_legal_card(hand, consistent):
    """From seat 0's view, seat 1's four cards replaced: seat 1 drew on blue (after the Wild)
    and kept the card, so the hand it drew to held no blue card (pro draws rather than play a
    coloured card), and the card it drew, kept, is not one pro would have played."""
    pos, _ = wild_then_blue()
    g = pos.g
    replace_hand(g, 1, " ".join(pos.hand(1)) if hand == "true" else hand)
    before = g.copy()
    assert plays_as_seen_from(g, 0, S.SEEN_DEPTH) == consistent
    rng = slice(S.O_RNG, S.O_RNG + 4)  # a card drawn may be chosen with the generator
    g[rng] = before[rng]
    assert np.array_equal(g, before)


@njit(cache=True)
def candidate_moves_from(owner, p, faces, colors):
    g = unowned(owner)
    k = candidate_moves(g, p, faces, colors)
    keep_alive(owner)
    return k


@njit(cache=True)
def rollout_from(owner, scratch_owner, dealt, dealt_j, p, f, j):
    """One rollout of move f (colour -1) on determinization j, as search_rounds.choose plays it."""
    g = unowned(owner)
    s = unowned(scratch_owner)
    copy_deck(g, s)
    won = rollout(g, s, dealt, dealt_j, p, np.empty(POOL, dtype=np.int64), f, -1, np.uint64(12345), j,
                  L.BOT.pro, 0, 0)
    keep_alive(owner)
    keep_alive(scratch_owner)
    return won


def test_a_determinization_kept_for_the_next_move_plays_as_one_dealt_again():
    """search_rounds.rollout deals determinization j once and starts the next moves' rollouts
    from its copy: a rollout from the copy ends exactly as one that deals j again (same
    outcome, same scratch game), over several determinizations and moves, with infer=history
    checking seat 1's turns (each deal drawn again up to 64 times)."""
    pos = Position(Rules(players=2), ["R2 RS B5 G5 Y1 W", "Y2 Y3 G4 R6 B7 B8 RD"], top="R5",
                   pile="G1 G2 G3 G6 G7 G8 B1 B2 B3 Y9 R9 R8", bots=[Bot("search", {"endgame": 0}), Bot("pro")])
    pos.run(4)  # a few turns kept for seat 1
    g = pos.g
    p = pos.next_to_act
    faces = np.empty(MAX_MOVES, dtype=np.int64)
    colors = np.empty(MAX_MOVES, dtype=np.int64)
    k = candidate_moves_from(g, p, faces, colors)
    assert k >= 2
    rest = slice(0, S.O_PILE)
    for j in range(3):
        for i in range(k):
            fresh, again = scratch(), scratch()
            dealt = np.empty(S.N_GAME, dtype=np.int64)
            dealt_j = np.full(1, -1, dtype=np.int64)
            won_fresh = rollout_from(g, fresh, dealt, dealt_j, p, faces[i], j)  # deals j, keeps it
            assert dealt_j[0] == j
            won_again = rollout_from(g, again, dealt, dealt_j, p, faces[i], j)  # starts from the copy
            assert won_fresh == won_again
            assert np.array_equal(fresh[rest], again[rest])


def test_infer_parses():
    assert default_param("search", "infer") == "history"
    assert parse_bot("search:infer=draws").params["infer"] == "draws"
    with pytest.raises(BotError, match="infer"):
        parse_bot("search:infer=everything")
    with pytest.raises(BotError):
        parse_bot("pro:infer=plays")
