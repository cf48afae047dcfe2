"""The mercy rule (mercy_limit) and the hand-changing kinds (roulette, swap_hands,
shuffle_hands), each from a concrete position (docs/RULES.md, "The mercy rule" and "Roulette,
shuffling hands, swapping hands")."""

from collections import Counter

import pytest

from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.game.bots import Bot
from uno_sim.game.decks import MODERN, NO_MERCY, deck_from_toml
from uno_sim.game.rules import Rules, RulesError

from positions import Position

NINE = "G1 G2 G3 G4 G6 G7 G8 G9 Y1"  # nine cards, none matching a red 5


def column(pos, name):
    return int(pos.g[S.O_REC + L.RECORD_COLUMN[name]])


def kinds(events):
    return [e["ev"] for e in events]


def test_mercy_limit_must_be_above_the_hand_size_and_not_with_teams():
    assert Rules(mercy_limit=25).mercy_limit == 25
    with pytest.raises(RulesError, match="mercy_limit"):
        Rules(mercy_limit=7)  # hand_size 7: a player would be out on the deal
    with pytest.raises(RulesError, match="mercy_limit"):
        Rules(mercy_limit=25, teams=2)


def test_a_draw_that_reaches_the_limit_knocks_out_and_its_cards_join_the_next_reshuffle():
    rules = Rules(players=3, mercy_limit=10)
    pos = Position(rules, [NINE, "B7 B8", "Y7 Y8"], top="R5", pile="B2", discard_below="R3 R4")
    events = pos.run(1)
    assert events[0] == {"ev": "draw", "p": 0, "cards": ["B2"], "why": "turn"}
    assert events[1] == {"ev": "knockout", "p": 0, "cards": 10}
    assert len(events) == 2  # no play of the drawn card: its player is out
    assert pos.hand(0) == [] and pos.place(0) != 0
    assert pos.next_to_act == 1 and not pos.ended
    assert column(pos, "knockouts") == 1 and int(pos.g[S.S_NASIDE]) == 10
    # seat 1 cannot play and the pile is empty: the new pile is R3 R4 plus the ten set-aside cards
    events = pos.run(1)
    reshuffle = next(e for e in events if e["ev"] == "reshuffle")
    assert Counter(reshuffle["pile"]) == Counter(["R3", "R4", "B2"] + NINE.split())
    assert int(pos.g[S.S_NASIDE]) == 0
    # turn order passes over the knocked-out seat 0: after seat 1 comes 2, then 1 again
    assert pos.next_to_act == 2
    pos.run(1)
    assert pos.next_to_act == 1


def test_a_draw_split_by_a_reshuffle_ends_when_its_first_part_knocks_out():
    rules = Rules(players=3, mercy_limit=10)
    pos = Position(rules, ["RD G1 G2", NINE, "Y7 Y8"], top="R5", pile="B2", discard_below="R3 R4")
    events = pos.run(1)
    assert kinds(events) == ["play", "draw", "knockout"]
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["B2"], "why": "penalty"}  # owed 2, got 1
    assert events[2]["cards"] == 10
    assert column(pos, "reshuffles") == 0  # the rest of the draw ended with the knockout
    assert pos.next_to_act == 2


def test_the_last_player_left_wins_with_mercy_points_for_each_knocked_out_player():
    rules = Rules(players=2, mercy_limit=10, mercy_points=250)
    pos = Position(rules, ["RD G1 G2", NINE], top="R5", pile="B2 B3 B4")
    events = pos.run(1)
    assert kinds(events) == ["play", "draw", "knockout"]
    assert pos.ended
    rec = pos.record
    assert rec["winner"] == 0 and rec["reason"] == "out" and rec["knockouts"] == 1
    assert rec["points_1"] == 250 and rec["cards_1"] == 0
    assert rec["cards_0"] == 2 and rec["points_0"] == 3  # the winner still holds G1 G2
    assert rec["winner_points"] == 250
    assert column(pos, "mercy_win") == 1


def test_last_standing_a_knockout_takes_the_worst_free_place():
    rules = Rules(players=4, mercy_limit=10, mode="last_standing")
    pos = Position(rules, ["RD G1 G2", NINE, "Y7 Y8", "B7 B8"], top="R5", pile="B2 B3 B4")
    events = pos.run(1)
    knock = events[-1]
    assert knock == {"ev": "knockout", "p": 1, "cards": 11, "place": 4}
    assert pos.place(1) == 4 and not pos.ended and pos.next_to_act == 2


def test_a_seven_swap_that_pushes_a_player_over_the_limit_knocks_them_out():
    rules = Rules(players=3, mercy_limit=10, seven_swap=True)
    # a constructed position (seat 0 is already over the limit, which play never leaves standing: a swap
    # moves a hand, so only such a hand can push a player over): whoever seat 0 swaps with is knocked out
    pos = Position(rules, ["R7 " + NINE + " B1 B2", "R1", "Y1 Y2"], top="R5")
    events = pos.run(1)
    swap = next(e for e in events if e["ev"] == "swap")
    knock = next(e for e in events if e["ev"] == "knockout")
    assert knock["p"] == swap["with"] and knock["cards"] == 11
    assert column(pos, "knockouts") == 1


def test_roulette_turns_up_cards_until_the_named_colour_wilds_not_counting():
    rules = Rules(players=3)
    bots = [Bot("random"), Bot("expert"), Bot("random")]  # the expert names the colour it holds most: G
    pos = Position(rules, ["WC R9 R8", "G1 G2 G3 R1", "Y7 Y8"], top="B5", pile="R2 WR4 Y3 G5 B1",
                   bots=bots, deck=NO_MERCY)
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "WC", "color": "G"}
    assert events[1] == {"ev": "roulette", "p": 1, "color": "G"}
    assert events[2] == {"ev": "draw", "p": 1, "cards": ["R2", "WR4", "Y3", "G5"], "why": "roulette"}
    assert pos.color_now == "G" and pos.next_to_act == 2  # the victim loses the turn
    assert column(pos, "roulette_cards") == 4 and column(pos, "draws") == 4


def test_roulette_knocks_out_a_victim_over_the_limit():
    rules = Rules(players=3, mercy_limit=12)
    bots = [Bot("random"), Bot("expert"), Bot("random")]
    pos = Position(rules, ["WC R9 R8", "G1 G2 G3 G4 G6 G7 G8 G9 Y1 Y2", "Y7 Y8"], top="B5",
                   pile="R2 Y3 G5 B1", bots=bots, deck=NO_MERCY)
    events = pos.run(1)
    assert kinds(events) == ["play", "roulette", "draw", "knockout"]
    assert events[3] == {"ev": "knockout", "p": 1, "cards": 13}
    assert pos.next_to_act == 2


@pytest.mark.parametrize("direction, first", [(1, 1), (-1, 2)])
def test_shuffle_hands_deals_from_the_next_player_in_the_direction_of_play(direction, first):
    rules = Rules(players=3)
    pos = Position(rules, ["WSH R1 R2", "G1 G2 G3 G4", "B1"], top="B5", deck=MODERN, direction=direction)
    events = pos.run(1)
    assert kinds(events) == ["play", "shuffle"]
    shuffle = events[1]
    sizes = [len(h) for h in shuffle["hands"]]
    # 7 cards dealt one at a time from `first`: it gets 3, the others 2
    assert sizes[first] == 3 and sorted(sizes) == [2, 2, 3]
    assert Counter(c for h in shuffle["hands"] for c in h) == Counter("R1 R2 G1 G2 G3 G4 B1".split())
    assert [pos.hand(q) for q in range(3)] == [sorted(h, key=MODERN.faces().texts.index) for h in shuffle["hands"]]
    assert events[0]["color"] == pos.color_now  # the colour is named after the shuffle
    assert pos.next_to_act == (0 + direction) % 3


def test_shuffle_hands_leaves_out_players_who_are_out():
    rules = Rules(players=3, mode="last_standing")
    pos = Position(rules, ["WSH R1 R2", "", "B1 B2"], top="B5", deck=MODERN, out={1: 1})
    events = pos.run(1)
    assert events[1]["hands"][1] == [] and len(events[1]["hands"][0]) == 2 and len(events[1]["hands"][2]) == 2


SWAP_DECK = deck_from_toml({"base": "modern", "kinds": [
    {"text": "WX", "colored": False, "copies": 3, "swap_hands": True}]})


def test_swap_hands_swaps_whole_hands_with_a_player_still_in():
    rules = Rules(players=3, mode="last_standing")
    pos = Position(rules, ["WX R1 R2", "", "B1 B2 B3 B4"], top="B5", deck=SWAP_DECK, out={1: 1})
    events = pos.run(1)
    assert kinds(events) == ["play", "swap"]
    assert events[1] == {"ev": "swap", "p": 0, "with": 2}  # the only other player still in
    assert pos.hand(0) == ["B1", "B2", "B3", "B4"] and pos.hand(2) == ["R1", "R2"]
    assert events[0]["color"] in "RYGB" and events[0]["color"] == pos.color_now


def test_last_standing_a_player_left_alone_by_knockouts_takes_first_place():
    rules = Rules(players=2, mercy_limit=10, mode="last_standing")
    pos = Position(rules, ["RD G1 G2", NINE], top="R5", pile="B2 B3 B4")
    events = pos.run(1)
    assert events[-1] == {"ev": "knockout", "p": 1, "cards": 11, "place": 2}
    rec = pos.record
    assert pos.ended and rec["winner"] == 0 and pos.place(0) == 1
    assert rec["winner_points"] == 1  # placement 1 of 2 scores n + 1 - 2k
    assert rec["points_1"] == 250 and column(pos, "mercy_win") == 1


def _deck(**kind):
    return deck_from_toml({"base": "classic", "kinds": [kind]})


def test_two_players_a_reversing_roulette_card_hits_its_own_player():
    rules = Rules(players=2)  # two_player_reverse = skip
    deck = _deck(text="WRC", colored=False, copies=2, roulette=True, reverse=True)
    pile = ["R2", "Y3", "G5", "B1"]
    pos = Position(rules, ["WRC G1 G2", "Y1"], top="B5", pile=" ".join(pile), deck=deck)
    events = pos.run(1)
    assert kinds(events) == ["play", "roulette", "draw"]
    color = events[1]["color"]
    assert events[1]["p"] == 0 and events[2]["p"] == 0 and events[0]["color"] == color
    first = next(i for i, c in enumerate(pile) if c[0] == color)
    assert events[2]["cards"] == pile[: first + 1]
    assert pos.next_to_act == 1  # its own player lost the turn


def test_a_coloured_shuffle_card_deals_before_its_own_reverse_and_keeps_its_colour():
    rules = Rules(players=3)
    deck = _deck(text="X", colored=True, copies=1, shuffle_hands=True, reverse=True)
    pos = Position(rules, ["RX G1 G2", "B1 B2 B3", "Y1 Y2"], top="R5", deck=deck)
    events = pos.run(1)
    assert kinds(events) == ["play", "shuffle"]
    assert [len(h) for h in events[1]["hands"]] == [2, 3, 2]  # 7 cards from seat 1, the next before the reverse
    assert events[0]["color"] == "R" and pos.color_now == "R"
    assert pos.direction_now == -1 and pos.next_to_act == 2


def test_a_winning_roulette_card_with_last_card_penalty_still_spins():
    rules = Rules(players=3)
    bots = [Bot("random"), Bot("expert"), Bot("random")]
    pos = Position(rules, ["WC", "G1 G2 G3 R1", "Y7 Y8"], top="B5", pile="R2 Y3 G5 B1", bots=bots, deck=NO_MERCY)
    events = pos.run(1)
    assert kinds(events) == ["play", "roulette", "draw"]
    assert events[2]["cards"] == ["R2", "Y3", "G5"]
    rec = pos.record
    assert pos.ended and rec["winner"] == 0 and rec["cards_1"] == 7


def test_no_mercy_games_with_the_mercy_rule_knock_players_out_and_always_end():
    import numpy as np

    from uno_sim.engine.batch import run_chunk
    from uno_sim.game.bots import pack_bots

    for mode in ("first_out", "last_standing"):
        rules = Rules(players=4, mercy_limit=25, first_card="number", draw_rule="until_playable",
                      seven_swap=True, zero_rotate=True, challenge=False, mode=mode)
        codes, params = pack_bots([Bot("random")] * 4)
        rows = run_chunk(rules.pack(), codes, params, key=11, start=0, n=3000, deck=NO_MERCY)
        knocked = rows[:, L.COL_KNOCKOUTS]
        assert 0 < (knocked > 0).mean() and knocked.max() <= 3
        points = rows[:, L.COL_POINTS : L.COL_POINTS + 4]
        cards = rows[:, L.COL_CARDS : L.COL_CARDS + 4]
        # a knocked-out player is the only one who can end with 0 cards and mercy_points points
        assert (((points == 250) & (cards == 0)).sum(axis=1) == knocked).all()
        alone = knocked == 3
        assert alone.any() and (rows[alone, L.COL_WINNER] >= 0).all()
        # won by being the last one left, unless the winner went out and its last-card penalty knocked out the last
        winner_cards = cards[alone, rows[alone, L.COL_WINNER]]
        assert (rows[alone, L.COL_MERCY_WIN] == (winner_cards > 0)).all() and (winner_cards > 0).any()
        if mode == "first_out":
            assert (rows[alone, L.COL_WINNER_POINTS] == 750).all()
        assert np.isin(rows[:, L.COL_REASON], [L.REASON.out, L.REASON.stall, L.REASON.cap]).all()


def test_the_headline_speaks_of_knockouts_and_roulette_only_when_they_happen():
    import numpy as np

    from uno_sim import stats
    from uno_sim.output.headline import run_headline

    rows = np.zeros((4, L.N_COLS), dtype=np.int64)
    rows[:, L.COL_WINNER] = [0, 1, 2, 3]
    rows[:, L.COL_TURNS] = 30
    agg = stats.Aggregate(players=4)
    agg.add(rows)
    quiet = " ".join(run_headline(stats.summarize(agg, "plain")))
    assert "mercy" not in quiet and "oulette" not in quiet
    rows[0, L.COL_KNOCKOUTS] = 3
    rows[0, L.COL_MERCY_WIN] = 1
    rows[1, L.COL_ROULETTE_CARDS] = 8
    agg = stats.Aggregate(players=4)
    agg.add(rows)
    text = " ".join(run_headline(stats.summarize(agg, "no-mercy")))
    assert "knocks a player out in 25.0% of games (0.75 knockouts a game)" in text
    assert "25.0% of games are won by being the last player left" in text
    assert "Roulette victims turn up 2.0 cards a game" in text


def test_expert_plays_a_draw_card_that_knocks_the_next_player_out_before_its_numbers():
    rules = Rules(players=3, mercy_limit=25)
    bots = [Bot("expert")] * 3
    twenty = " ".join(["G1"] * 10 + ["G2"] * 10)
    pile = " ".join(["B1"] * 12)
    # 20 + 6 reaches the limit, 20 + 2 does not: the Wild Draw Six, not a number
    pos = Position(rules, ["R1 R2 RD W6", twenty, "Y7 Y8"], top="R5", pile=pile, bots=bots, deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["card"] == "W6"
    assert {"ev": "knockout", "p": 1, "cards": 26} in events
    # 23 + 2 reaches it too: the cheapest card that does it, the Draw Two
    pos = Position(rules, ["R1 R2 RD W6", twenty + " G3 G4 G5", "Y7 Y8"], top="R5", pile=pile, bots=bots,
                   deck=NO_MERCY)
    assert pos.run(1)[0]["card"] == "RD"
    # without the mercy rule the expert plays a number, as the rule sheets advise
    pos = Position(Rules(players=3), ["R1 R2 RD W6", twenty, "Y7 Y8"], top="R5", pile=pile, bots=bots,
                   deck=NO_MERCY)
    assert pos.run(1)[0]["card"] in ("R1", "R2")
