"""The search bot on a two-sided deck (UNO Flip; docs/BOTS.md, "search"): its determinizations
keep what the bot sees (its own cards on the side in play, the other players' cards on the
other side, the other side of the draw pile's top card) and deal the rest again; its rollouts
play flips; its games replay with 0 violations; runs, matches and tournaments seat it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit

from flip_positions import FlipPosition
from replay import assert_clean
from test_search import redeal_from
from uno_sim import api
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.table_view import hands_moved, saw_turn
from uno_sim.engine.unowned import keep_alive, unowned_two_sided
from uno_sim.game.bots import Bot
from uno_sim.game.decks import FLIP, SIDE_COLORS
from uno_sim.game.rules import Rules

SEARCH = Bot("search", {"rollouts": 40, "endgame": 0})


def _view(g, texts):
    """Per physical card: (holder, face in play, other face); and the pile's cards in order."""
    cards = [(int(g[S.O_OWNER + c]), int(g[S.O_CARD_FACE + c]), int(g[S.O_CARD_OTHER + c])) for c in range(len(texts))]
    pile = [int(c) for c in g[S.O_PILE: S.O_PILE + int(g[S.S_NPILE])]]
    return cards, pile


@pytest.mark.parametrize("side", ["light", "dark"])
def test_a_determinization_keeps_what_the_searcher_sees_and_deals_the_rest(side):
    pos = FlipPosition(Rules(deck="flip", players=3), ["R3/P5 G7/T2 W/OE", "Y2/V4 B9/P1 RF/TF", "G1/O3 Y5/V5"],
                       top="R8/P8", pile="B4/O6 Y7/T7 G2/V3 R1/P2 B6/OD5", side=side,
                       bots=[SEARCH, Bot("expert"), Bot("expert")])
    g = pos.build()
    before, pile = _view(g, pos.texts)
    top = pile[-1]
    s = np.zeros(S.N_GAME, dtype=np.int64)
    dealt_in_play = Counter()
    for j in range(40):
        redeal_from(g, s, 0, j)
        after, pile_after = _view(s, pos.texts)
        assert pile_after == pile  # the pile keeps its cards in their places
        for c, ((q, face, other), (q2, face2, other2)) in enumerate(zip(before, after)):
            assert q2 == q  # every card keeps its holder
            if q == 0:
                assert face2 == face  # its own cards as it sees them
            elif q > 0:
                assert other2 == other  # the backs it sees of the other hands
            elif c == top:
                assert other2 == other  # the other side of the pile's top card
            elif q < 0 and c not in pile:
                assert (face2, other2) == (face, other)  # the discard pile as it lies
        # the faces it cannot see are dealt among the cards it cannot see: same faces in all
        hidden = [c for c, (q, _, _) in enumerate(before) if q > 0] + pile
        assert Counter(after[c][1] for c in hidden) == Counter(before[c][1] for c in hidden)
        hidden_backs = [c for c, (q, _, _) in enumerate(before) if q == 0] + pile[:-1]
        assert Counter(after[c][2] for c in hidden_backs) == Counter(before[c][2] for c in hidden_backs)
        for q in range(3):  # the hands' face counts are those of the cards they now hold
            counts = np.zeros(S.HAND_WIDTH, dtype=np.int64)
            for (holder, face, _) in after:
                if holder == q:
                    counts[face] += 1
            assert np.array_equal(counts, s[S.O_HANDS + q * S.HAND_WIDTH: S.O_HANDS + (q + 1) * S.HAND_WIDTH])
        dealt_in_play[tuple(sorted(after[c][1] for c, (q, _, _) in enumerate(before) if q == 1))] += 1
    assert len(dealt_in_play) > 5  # seat 1's faces in play are not known to seat 0: they vary


def seat_one_faces(side: str, lacks: int = 0, voids: int = 0, deals: int = 40) -> set[str]:
    """The faces in play seat 1 is dealt over `deals` determinizations of seat 0's view when the
    table saw seat 1 lack `lacks` (O_LACKS bits) or `voids` (O_VOIDS bits); hands keep their
    sizes and seat 1 the backs seat 0 sees."""
    pos = FlipPosition(Rules(deck="flip", players=3), ["R3/P5 G7/T2 W/OE", "Y2/V4 B9/P1 RF/TF", "G1/O3 Y5/V5"],
                       top="R8/P8", pile="B4/O6 Y7/T7 G2/V3 R1/P2 B6/OD5 R5/T6 G5/V1", side=side,
                       bots=[SEARCH, Bot("expert"), Bot("expert")])
    g = pos.build()
    g[S.O_LACKS + 1], g[S.O_VOIDS + 1] = lacks, voids
    backs = sorted(int(g[S.O_CARD_OTHER + c]) for c in range(len(pos.texts)) if g[S.O_OWNER + c] == 1)
    table = pos.tables[side == "dark"]
    s = np.zeros(S.N_GAME, dtype=np.int64)
    seen: set[str] = set()
    for j in range(deals):
        redeal_from(g, s, 0, j)
        held = [c for c in range(len(pos.texts)) if s[S.O_OWNER + c] == 1]
        assert len(held) == 3 and sorted(int(s[S.O_CARD_OTHER + c]) for c in held) == backs
        seen |= {table.texts[int(s[S.O_CARD_FACE + c])] for c in held}
    return seen


@pytest.mark.parametrize("side,red,five", [("light", "R", "5"), ("dark", "P", "5")])
def test_a_determinization_keeps_what_the_table_saw_a_player_lack_on_the_side_in_play(side, red, five):
    """What the table saw seat 1 lack (a colour when it drew on it, O_LACKS, or passed with one
    card drawn, O_VOIDS; a kind when it drew on it) is honoured on a two-sided deck too: the faces
    in play dealt to it are none of those."""
    colour = 1 << SIDE_COLORS[side].index(red)
    free = seat_one_faces(side)
    assert any(t.startswith(red) for t in free) and any(t.endswith(five) and t[:-1] in SIDE_COLORS[side] for t in free)
    for lacks, voids in ((colour, 0), (0, colour)):
        dealt = seat_one_faces(side, lacks, voids)
        assert not any(t.startswith(red) for t in dealt), dealt
        assert any(t.startswith(red) for t in dealt | free)  # (red is in the pool)
    table = FLIP.sides[side == "dark"].faces(Rules().zero_points)
    fives = seat_one_faces(side, lacks=1 << (S.LACK_SLOT0 + int(table.kind[table.face(red + five)])))
    assert not any(t.endswith(five) and t[:-1] in SIDE_COLORS[side] for t in fives), fives


@njit(cache=True)
def _turn_seen(owner, p, flips):
    """table_view.saw_turn after p's turn that put a card down (so it shows no void itself)
    during which `flips` flips happened, with the hands unchanged in size."""
    g = unowned_two_sided(owner)
    moved = hands_moved(g)
    sizes = np.zeros(g[S.S_PLAYERS], dtype=np.int64)
    for q in range(g[S.S_PLAYERS]):
        sizes[q] = g[S.O_HSIZE + q]
    g[S.O_REC + L.COL_FLIPS] += flips
    saw_turn(g, p, 0, g[S.S_COLOR], g[S.S_NDISC] - 1, moved, sizes)
    keep_alive(owner)


@pytest.mark.parametrize("flips", [0, 1])
def test_a_flip_forgets_the_colours_a_player_was_seen_not_to_hold(flips):
    """A void seen on one side says nothing of the other side's faces: any flip forgets it
    (as a swap or rotation of hands does); a turn without one keeps it."""
    pos = FlipPosition(Rules(deck="flip", players=3), ["R3/P5 G7/T2", "Y2/V4 B9/P1", "G1/O3 Y5/V5"], top="R8/P8",
                       pile="B4/O6 Y7/T7", bots=[SEARCH, Bot("expert"), Bot("expert")])
    g = pos.build()
    g[S.O_VOIDS + 1] = 1 << 2
    _turn_seen(g, 0, flips)
    assert g[S.O_VOIDS + 1] == (0 if flips else 1 << 2)


@pytest.mark.parametrize("players,flip_discard", [(2, "whole"), (4, "top"), (4, "whole")])
def test_search_plays_flip_with_no_violation(players, flip_discard):
    rules = Rules(deck="flip", players=players, flip_discard=flip_discard)
    bots = [SEARCH] + [Bot("search", {"rollouts": 8, "rollout_policy": "random"})] + [Bot("pro")] * (players - 2)
    assert_clean(rules, 8, seed=players, bots=bots)


def test_search_runs_matches_and_tournaments_on_flip():
    run = api.run("flip", games=40, players=2, bots="search:rollouts=20,random", rotate_seats=True, seed=3)
    assert "dark_end_rate" in set(run.summary["metric"])
    m = api.match("flip", matches=2, players=2, bots="search:rollouts=10,expert", target=100)
    assert m.result.matches == 2
    t = api.tournament("flip", bots="search:rollouts=10,random", players=2, deals=30)
    assert set(t.ratings["bot"]) == {"search:rollouts=10", "random"}


def test_search_on_flip_is_deterministic_for_any_thread_count():
    kw = dict(games=24, bots="search:rollouts=20,pro", players=2, rotate_seats=True, seed=9, per_game=True)
    assert api.run("flip", workers=1, **kw).games.equals(api.run("flip", workers=2, **kw).games)
