"""The search bot on a two-sided deck (UNO Flip; docs/BOTS.md, "search"): its determinizations
keep what the bot sees (its own cards on the side in play, the other players' cards on the
other side, the other side of the draw pile's top card) and deal the rest again; its rollouts
play flips; its games replay with 0 violations; runs, matches and tournaments seat it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from flip_positions import FlipPosition
from replay import assert_clean
from test_search import redeal_from
from uno_sim import api
from uno_sim.engine import state as S
from uno_sim.game.bots import Bot
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
