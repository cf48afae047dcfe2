"""The rule sheets' remaining house rules from concrete positions: sum jump-in (求和抢牌),
hand-sum win (摊派胜出), Wild swap (Wild多功能) and UNO catchers, with the sheets' own
worked examples."""

import pytest

from positions import Position, start_from
from uno_sim.game.bots import Bot
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.game.rules import Rules, RulesError
from uno_sim.running.trace import decode_events

RANDOM, EXPERT, GREEDY = Bot("random"), Bot("expert"), Bot("greedy")
SAME = dict(sum_jump_in="same_color")
ANY = dict(sum_jump_in="any_color")
PILE = "B1 B2 B3 B4 B5 B6 B7 B8 B9 Y5 Y6 Y7 Y8 Y9"


def column(pos, name):
    """A record column the SPEC 6 record does not show (sum_jumps, jumps, ...)."""
    return int(pos.g[S.O_REC + L.RECORD_COLUMN[name]])


def kinds(events):
    return [e["ev"] for e in events]


# ---------------------------------------------------------------- hand-sum win (摊派胜出)


def test_hand_zero_one_three_wins_at_once_when_someone_plays_a_four():
    """The sheet's example: holding 0, 1 and 3, a 4 played by anyone wins the round at once."""
    hands = ["R4 G7 G8", "B5 B6 B9", "R0 Y1 G3", "Y2 Y2"]  # seat 3 adds up to 4 too, but comes later
    pos = Position(Rules(hand_sum_win=True), hands, top="R2", pile=PILE)
    events = pos.run(1)
    assert events == [
        {"ev": "play", "p": 0, "card": "R4", "color": "R"},
        {"ev": "out", "p": 2, "how": "hand_sum", "cards": ["R0", "Y1", "G3"]},
    ]
    rec = pos.record
    assert pos.ended and rec["winner"] == 2 and rec["reason"] == "out"
    assert rec["plays"] == 1 and rec["turns"] == 1  # the laid-down cards are not plays
    assert rec["cards_2"] == 0 and rec["points_2"] == 0
    assert rec["winner_points"] == (7 + 8) + (5 + 6 + 9) + (2 + 2)
    assert column(pos, "hand_sum_wins") == 1


def test_hand_sum_claim_goes_to_the_first_in_the_direction_of_play():
    hands = ["R4 G7 G8", "B5 B6 B9", "R0 Y1 G3", "Y2 Y2"]
    pos = Position(Rules(hand_sum_win=True), hands, top="R2", pile=PILE, direction=-1)
    events = pos.run(1)
    assert events[1] == {"ev": "out", "p": 3, "how": "hand_sum", "cards": ["Y2", "Y2"]}
    assert pos.record["winner"] == 3


@pytest.mark.parametrize("hand, claims", [
    ("G4", True),  # a single card adding up to the number
    ("Y1 Y3 GS", False),  # an action card in hand
    ("Y1 Y3 W", False),  # a wild card in hand
    ("Y1 Y2", False),  # adds up to 3
    ("B0 G0 Y4", True),  # 0s count 0
])
def test_hand_sum_needs_only_number_cards_adding_up(hand, claims):
    hands = ["R4 G7 G8", "B5 B6 B9", hand, "Y7 Y8"]
    pos = Position(Rules(hand_sum_win=True), hands, top="R2", pile=PILE)
    events = pos.run(1)
    assert (len(events) > 1 and events[1].get("how") == "hand_sum") == claims
    assert pos.ended == claims


def test_no_hand_sum_win_without_the_knob_or_on_an_action_card():
    hands = ["R4 RS G8", "B5 B6 B9", "R0 Y1 G3", "Y7 Y8"]
    pos = Position(Rules(), hands, top="R2", pile=PILE)
    assert kinds(pos.run(1)) == ["play"] and not pos.ended
    hands = ["RS G8 G9", "B5 B6 B9", "Y1 Y9", "Y7 Y8"]  # a Skip is not a number: nothing adds up to it
    pos = Position(Rules(hand_sum_win=True), hands, top="R2", pile=PILE)
    assert kinds(pos.run(1)) == ["play"] and not pos.ended


def test_the_player_of_the_number_never_claims_it():
    # seat 0 is left with Y1 Y3 after playing its 4: it does not win on its own card
    pos = Position(Rules(hand_sum_win=True), ["R4 Y1 Y3", "B5 B6", "B7 B8", "B9 G9"], top="R2", pile=PILE)
    assert kinds(pos.run(1)) == ["play"] and not pos.ended


def test_hand_sum_win_under_last_standing_takes_the_next_place_and_play_goes_on():
    rules = Rules(hand_sum_win=True, mode="last_standing")
    hands = ["R4 G7 G8", "Y4", "B5 B6", "B7 B8"]
    pos = Position(rules, hands, top="R2", pile=PILE)
    events = pos.run(1)
    assert events[1] == {"ev": "out", "p": 1, "how": "hand_sum", "cards": ["Y4"], "place": 1}
    assert not pos.ended and pos.place(1) == 1
    assert pos.next_to_act == 2  # the player after seat 0, passing over seat 1 (out)
    # one player left after a claim: the round ends, the claimant's place counts
    pos = Position(rules, ["R4 G7", "Y4", "", ""], top="R2", pile=PILE, out={2: 1, 3: 2})
    pos.run(1)
    assert pos.ended and pos.place(1) == 3 and pos.place(0) == 4 and pos.record["winner"] == 2


def test_only_one_hand_sum_claim_per_card():
    rules = Rules(hand_sum_win=True, mode="last_standing")
    hands = ["R4 G7 G8", "Y4", "Y1 Y3", "B7 B8"]
    pos = Position(rules, hands, top="R2", pile=PILE)
    events = pos.run(1)
    assert [e for e in events if e["ev"] == "out"] == [
        {"ev": "out", "p": 1, "how": "hand_sum", "cards": ["Y4"], "place": 1}]
    assert pos.hand_size(2) == 2


def test_hand_sum_win_on_the_top_card_of_a_multi_play():
    rules = Rules(hand_sum_win=True, multi_play="same_symbol")
    pos = Position(rules, ["R4 B4 G7 G8", "B5 B6", "Y1 Y3", "B7 B8"], top="R2", pile=PILE, bots=[GREEDY] + [RANDOM] * 3)
    events = pos.run(1)
    assert events[0]["cards"][-1][1] == "4" and events[1]["how"] == "hand_sum" and events[1]["p"] == 2


def test_hand_sum_counts_the_hands_after_a_seven_swap():
    # seat 0's 7 swaps hands first; the claim is checked on the hands after the swap
    rules = Rules(hand_sum_win=True, seven_swap=True, players=2)
    pos = Position(rules, ["R7 Y3 Y4", "G5 G6"], top="R2", pile=PILE)
    events = pos.run(1)
    # after the swap seat 1 holds Y3 Y4 = 7: it wins on the 7
    assert kinds(events) == ["play", "swap", "out"] and events[2]["p"] == 1 and events[2]["cards"] == ["Y3", "Y4"]


def test_no_hand_sum_win_on_the_lead_card():
    pos = Position(Rules(hand_sum_win=True, sum_jump_in="any_color"), ["G1 G9", "Y1 Y3", "B1 B3", "R1 R3"],
                   top="R3", pile="R4 B8 B9")
    g = pos.build()
    g[S.S_NDISC] = 0
    start = int(g[S.S_TPOS])
    start_from(g, 3)
    events = list(decode_events(g[start : int(g[S.S_TPOS])], int(g[S.S_TPOS]) - start, 4))
    assert events == [{"ev": "lead", "card": "R4"}]
    assert not g[S.S_ENDED]


# ---------------------------------------------------------------- sum jump-in (求和抢牌)


def test_sum_set_two_and_four_on_a_green_six():
    """The sheet's example: a green 2 and a green 4 jump in on a green 6."""
    hands = ["G6 R1 R9", "B1 B2", "G2 G4 Y7 Y8", "Y1 Y2"]
    pos = Position(Rules(**SAME), hands, top="G3", pile=PILE)
    events = pos.run(1)
    assert events == [
        {"ev": "play", "p": 0, "card": "G6", "color": "G"},
        {"ev": "jump", "p": 2, "cards": ["G2", "G4"], "color": "G", "sum": 6},
    ]
    assert pos.next_to_act == 3  # play continues from the jumper; seat 1 lost its turn
    rec = pos.record
    assert rec["plays"] == 3 and rec["turns"] == 1
    assert column(pos, "jumps") == 1 and column(pos, "sum_jumps") == 1
    assert pos.hand(2) == ["Y7", "Y8"]


def test_same_color_needs_the_colour_of_the_number_any_color_does_not():
    hands = ["G6 R1 R9", "B1 B2", "R2 G4 Y7", "Y1 Y2"]
    assert kinds(Position(Rules(**SAME), hands, top="G3", pile=PILE).run(1)) == ["play"]
    events = Position(Rules(**ANY), hands, top="G3", pile=PILE).run(1)
    assert events[1] == {"ev": "jump", "p": 2, "cards": ["R2", "G4"], "color": "G", "sum": 6}


def test_a_single_card_is_not_a_sum_set_but_a_zero_makes_one():
    hands = ["G6 R1 R9", "B1 B2", "G6 Y7", "Y1 Y2"]  # an identical card needs jump_in
    assert kinds(Position(Rules(**SAME), hands, top="G3", pile=PILE).run(1)) == ["play"]
    hands = ["G6 R1 R9", "B1 B2", "B6 R0 Y7", "Y1 Y2"]
    events = Position(Rules(**ANY), hands, top="G3", pile=PILE).run(1)
    assert events[1] == {"ev": "jump", "p": 2, "cards": ["R0", "B6"], "color": "B", "sum": 6}


def test_two_zeros_add_up_to_a_zero():
    hands = ["Y0 R5 R9", "B1 B2", "R0 B0 G7", "Y1 Y2"]
    events = Position(Rules(**ANY), hands, top="Y3", pile=PILE).run(1)
    assert events[1] == {"ev": "jump", "p": 2, "cards": ["R0", "B0"], "color": "B", "sum": 0}


def test_the_player_who_just_played_may_sum_jump_too():
    hands = ["G6 G1 G5 R9", "B1 B2", "Y8 Y7", "Y1 Y2"]
    pos = Position(Rules(**SAME), hands, top="Y6", pile=PILE)
    events = pos.run(1)
    assert events[1] == {"ev": "jump", "p": 0, "cards": ["G1", "G5"], "color": "G", "sum": 6}
    assert pos.next_to_act == 1


def test_sum_jump_win_only_needs_the_whole_hand():
    rules = Rules(sum_jump_win_only=True, **SAME)
    hands = ["G6 R1 R9", "B1 B2", "G2 G4 Y7", "Y1 Y2"]
    assert kinds(Position(rules, hands, top="G3", pile=PILE).run(1)) == ["play"]
    hands = ["G6 R1 R9", "B1 B2", "G2 G4", "Y1 Y2"]
    pos = Position(rules, hands, top="G3", pile=PILE)
    events = pos.run(1)
    assert events[1]["cards"] == ["G2", "G4"] and pos.ended and pos.record["winner"] == 2
    assert "uno" not in kinds(events)  # a set that empties the hand needs no UNO call


def test_sum_jump_win_only_needs_a_sum_jump_in():
    with pytest.raises(RulesError, match="sum_jump_win_only"):
        Rules(sum_jump_win_only=True)


def test_a_set_leaving_one_card_calls_uno():
    hands = ["G6 R1 R9", "B1 B2", "G1 G2 G3 Y7", "Y1 Y2"]
    pos = Position(Rules(**SAME), hands, top="G5", pile=PILE)
    events = pos.run(1)
    assert events[1]["cards"] == ["G1", "G2", "G3"] and events[2] == {"ev": "uno", "p": 2}


def test_a_set_emptying_the_hand_goes_out_under_last_standing():
    rules = Rules(mode="last_standing", **SAME)
    hands = ["G6 R1 R9", "B1 B2", "G2 G4", "Y1 Y2"]
    pos = Position(rules, hands, top="G3", pile=PILE)
    events = pos.run(1)
    assert events[2] == {"ev": "out", "p": 2, "place": 1} and pos.next_to_act == 3 and not pos.ended


def test_the_next_player_may_follow_any_card_of_the_set():
    """"你的下家可以对这几张牌中的任意一张跟牌": after R2 + Y4 on a green 6 (top Y4), the next player
    may follow the red 2 by colour or by number."""
    rules = Rules(**ANY)
    for follow, played in (("R9 B7", "R9"), ("B2 B7", "B2"), ("G8 B7", None), ("Y9 B7", "Y9")):
        hands = ["G6 R1 R8", "B1 B3", "R2 Y4 B5 B9", follow]
        pos = Position(rules, hands, top="G3", pile=PILE)
        events = pos.run(2)
        assert events[1] == {"ev": "jump", "p": 2, "cards": ["R2", "Y4"], "color": "Y", "sum": 6}
        turn = events[2]
        if played is None:
            assert turn["ev"] == "draw" and turn["p"] == 3
        else:
            assert turn == {"ev": "play", "p": 3, "card": played, "color": played[0]}


def test_the_set_matches_until_the_next_card_is_played():
    rules = Rules(**ANY)
    # seat 3 cannot play and draws; seat 0 may still follow the red 2 of the set; then the set
    # is gone: seat 1's blue 2 matches neither the red card just played nor its number
    hands = ["G6 R1 R8 B6", "B2 B7", "R2 Y4 B5 B9", "G8 B7"]
    pos = Position(rules, hands, top="G3", pile="B9 G9 G7 G5")
    events = pos.run(4)
    assert kinds(events) == ["play", "jump", "draw", "play", "draw"]
    assert events[2]["p"] == 3 and events[3]["p"] == 0 and events[3]["card"] in ("R1", "R8")
    assert events[4] == {"ev": "draw", "p": 1, "cards": ["G9"], "why": "turn"}


def test_the_set_survives_a_reshuffle():
    # the pile is empty: the discards under the top are reshuffled; seat 3 draws until a card
    # is playable, and the red cards are playable only through the red 2 of the set
    rules = Rules(draw_rule="until_playable", **ANY)
    hands = ["G6 R1 R8", "B1 B3", "R2 Y4 B5 B9", "G8 B7"]
    pos = Position(rules, hands, top="G3", discard_below="R7 R9", pile="")
    events = pos.run(2)
    assert kinds(events)[:4] == ["play", "jump", "reshuffle", "draw"]
    last = events[3]["cards"][-1]
    assert last in ("R7", "R9", "R2")
    assert all(c in ("G3", "G6") for c in events[3]["cards"][:-1])
    assert events[4] == {"ev": "play", "p": 3, "card": last, "color": last[0]}


@pytest.mark.parametrize("rule, hand, w4_legal", [
    ("no_color", "W4 B9", True),  # no yellow, the top's colour
    ("no_color", "W4 Y9", False),  # holds the top's colour
    ("no_color", "W4 R9", True),  # R9 follows the set's red 2, but only the top card judges
    ("no_match", "W4 B4", False),  # the top's symbol
    ("no_match", "W4 B2", True),  # the 2 of the set is not the top card
])
def test_wild_draw_four_is_judged_against_the_top_card_only(rule, hand, w4_legal):
    rules = Rules(wd4_rule=rule, **ANY)
    seen = set()
    for seed in range(12):
        pos = Position(rules, ["G6 R1 R8", "B1 B3", "R2 Y4 B5 B9", hand], top="G3", pile=PILE, seed=seed)
        events = pos.run(2)
        assert events[1]["cards"] == ["R2", "Y4"]
        if events[2]["ev"] == "play":
            seen.add(events[2]["card"])
    assert ("W4" in seen) == w4_legal


def test_set_cards_have_no_effects():
    rules = Rules(seven_swap=True, zero_rotate=True, **ANY)
    hands = ["B9 R1 R7", "B1 B3", "R0 G7 Y2 B8 B8", "Y1 Y3"]
    pos = Position(rules, hands, top="B3", pile=PILE, bots=[RANDOM, RANDOM, EXPERT, RANDOM])
    events = pos.run(1)
    assert kinds(events) == ["play", "jump"]
    assert sorted(events[1]["cards"]) == ["G7", "R0", "Y2"]  # expert: the set with the most cards
    assert pos.hand(1) == ["B1", "B3"] and pos.hand(2) == ["B8", "B8"] and pos.next_to_act == 3


def test_a_sum_set_is_not_answered_by_another_sum_set():
    # after G2 + G4 on G6 (top G4), seat 3's G1 + G3 add up to 4 but may not jump in
    hands = ["G6 R1 R9", "B1 B2", "G2 G4 Y7 Y8", "G1 G3 Y9"]
    events = Position(Rules(**SAME), hands, top="G5", pile=PILE).run(1)
    assert kinds(events) == ["play", "jump"]


def test_an_identical_card_of_any_card_of_the_set_may_jump_in():
    """"只要有人有和你所出的这几张牌中的任何一张完全相同的牌时，就可抢牌"."""
    rules = Rules(jump_in=True, **ANY)
    hands = ["G6 R1 R9", "B1 B7", "R2 Y4 B5 B9", "R2 Y9 B8"]
    pos = Position(rules, hands, top="G3", pile=PILE)
    events = pos.run(1)
    assert events[1]["cards"] == ["R2", "Y4"]
    assert events[2] == {"ev": "jump", "p": 3, "card": "R2", "color": "R"}
    assert pos.next_to_act == 0 and column(pos, "jumps") == 2 and column(pos, "sum_jumps") == 1


def test_an_identical_jump_in_of_a_set_card_reopens_the_sum_window_and_the_hand_sum_check():
    rules = Rules(jump_in=True, hand_sum_win=True, **SAME)
    hands = ["G6 B7 B8 B9", "Y0 B2", "G2 G4 R9 R8", "G2 Y9 Y8"]
    pos = Position(rules, hands, top="G3", pile=PILE)
    events = pos.run(1)
    assert events[1] == {"ev": "jump", "p": 2, "cards": ["G2", "G4"], "color": "G", "sum": 6}
    assert events[2] == {"ev": "jump", "p": 3, "card": "G2", "color": "G"}
    assert events[3] == {"ev": "out", "p": 1, "how": "hand_sum", "cards": ["Y0", "B2"]}
    assert pos.ended and pos.record["winner"] == 1
    # the sum window reopens too: G1 + G1 add up to the jumped-in G2
    hands = ["G6 B7 B8 B9", "G1 G1 B5", "G2 G4 R9 R8", "G2 Y9 Y8"]
    events = Position(rules, hands, top="G3", pile=PILE).run(1)
    assert events[3] == {"ev": "jump", "p": 1, "cards": ["G1", "G1"], "color": "G", "sum": 2}


def test_sum_jump_in_after_a_multi_play_and_after_an_identical_jump_in():
    rules = Rules(multi_play="same_symbol", **ANY)
    hands = ["R4 B4 G7 G8", "B5 B6", "Y1 Y3 G9", "B7 B8"]
    events = Position(rules, hands, top="R2", pile=PILE, bots=[GREEDY] + [RANDOM] * 3).run(1)
    assert events[0]["ev"] == "play" and len(events[0]["cards"]) == 2
    assert events[1] == {"ev": "jump", "p": 2, "cards": ["Y1", "Y3"], "color": "Y", "sum": 4}
    # seat 1 (identical R4) and seat 2 (1 + 3) both want to move: one is picked uniformly. After
    # seat 1's R4 seat 2's set still adds up to it; after seat 2's set nobody holds Y1 or Y3
    rules = Rules(jump_in=True, **ANY)
    hands = ["R4 G7 G8", "R4 B6", "Y1 Y3 G9", "B7 B8"]
    seen = set()
    for seed in range(20):
        events = Position(rules, hands, top="R2", pile=PILE, seed=seed).run(1)
        jumps = tuple((e["p"], e.get("card") or tuple(e["cards"])) for e in events if e["ev"] == "jump")
        assert jumps in (((1, "R4"), (2, ("Y1", "Y3"))), ((2, ("Y1", "Y3")),))
        seen.add(jumps)
    assert len(seen) == 2


def test_no_sum_jump_in_on_an_action_card_or_while_off():
    hands = ["GS R1 R9", "B1 B2", "G2 G4 Y7", "Y1 Y2"]
    assert kinds(Position(Rules(**ANY), hands, top="G3", pile=PILE).run(1)) == ["play"]
    hands = ["G6 R1 R9", "B1 B2", "G2 G4 Y7", "Y1 Y2"]
    assert kinds(Position(Rules(), hands, top="G3", pile=PILE).run(1)) == ["play"]


# ---------------------------------------------------------------- Wild swap (Wild多功能)


def test_wild_swap_gives_and_takes_k_cards_when_a_hand_is_small():
    # expert swaps with the opponent closest to going out; k = min(3, 4, 2) = 2
    rules = Rules(wild_swap=True)
    hands = ["W G1 G2 G3 G4", "B1 B2", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"]
    pos = Position(rules, hands, top="R5", pile=PILE, bots=[EXPERT, RANDOM, RANDOM, RANDOM])
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "W", "color": "R", "swap": True}
    swap = events[1]
    assert swap["ev"] == "swap3" and swap["p"] == 0 and swap["with"] == 1
    assert sorted(swap["gave"]) == ["G3", "G4"] and sorted(swap["got"]) == ["B1", "B2"]
    assert pos.hand(0) == ["G1", "G2", "B1", "B2"] and pos.hand(1) == ["G3", "G4"]
    assert pos.color_now == "R" and pos.next_to_act == 1
    assert column(pos, "wild_swaps") == 1


def test_wild_swap_k_is_measured_after_the_uno_call_and_its_penalty():
    rules = Rules(wild_swap=True)
    forgetful = Bot("random", {"forget_uno": 1.0})
    ks = set()
    for seed in range(40):
        pos = Position(rules, ["W G1", "B1 B2 B3 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], top="R5", pile=PILE,
                       bots=[forgetful] + [RANDOM] * 3, seed=seed)
        events = pos.run(1)
        if events[0].get("swap"):
            assert kinds(events)[:4] == ["play", "caught", "draw", "swap3"]
            ks.add(len(events[3]["gave"]))
            assert len(events[3]["got"]) == len(events[3]["gave"])
    assert ks == {3}  # 1 card + 2 drawn = 3
    ks = set()
    for seed in range(40):
        pos = Position(rules, ["W G1", "B1 B2 B3 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], top="R5", pile=PILE, seed=seed)
        events = pos.run(1)
        if events[0].get("swap"):
            assert kinds(events)[:3] == ["play", "uno", "swap3"]
            ks.add(len(events[2]["gave"]))
            assert events[2]["gave"] == ["G1"]
    assert ks == {1}


def test_wild_as_last_card_goes_out_without_a_swap():
    rules = Rules(wild_swap=True)
    for seed in range(10):
        pos = Position(rules, ["W", "B1 B2", "Y1", "Y5"], top="R5", pile=PILE, bots=[EXPERT] + [RANDOM] * 3, seed=seed)
        events = pos.run(1)
        assert "swap" not in events[0] and kinds(events) == ["play"] and pos.record["winner"] == 0


def test_wild_draw_four_never_swaps():
    rules = Rules(wild_swap=True)
    pos = Position(rules, ["W4 G1 G2", "B1 B2", "Y1 Y2", "Y5 Y6"], top="R5", pile=PILE, bots=[EXPERT] + [RANDOM] * 3)
    events = pos.run(1)
    assert events[0]["card"] == "W4" and "swap" not in events[0] and "swap3" not in kinds(events)


def test_random_swaps_half_the_time_with_a_uniform_target():
    rules = Rules(wild_swap=True)
    swaps, targets = 0, set()
    runs = 200
    for seed in range(runs):
        pos = Position(rules, ["W G1 G2 G3", "B1 B2 B3 B4", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"], top="R5", pile=PILE,
                       seed=seed)
        events = pos.run(1)
        if events[0].get("swap"):
            swaps += 1
            targets.add(events[1]["with"])
            assert events[0]["color"] == "R" and len(events[1]["gave"]) == 3
        else:
            assert kinds(events) == ["play"]
    assert abs(swaps / runs - 0.5) < 4 * (0.25 / runs) ** 0.5
    assert targets == {1, 2, 3}


# ---------------------------------------------------------------- UNO catchers


@pytest.mark.parametrize("direction, by", [(1, [1, 2, 3]), (-1, [3, 2, 1])])
def test_each_catcher_adds_a_penalty(direction, by):
    rules = Rules(uno_catchers="each", uno_penalty=3)
    forgetful = Bot("random", {"forget_uno": 1.0})
    pos = Position(rules, ["R4 G1", "B1 B2", "Y1 Y2", "Y5 Y6"], top="R5", pile=PILE, direction=direction,
                   bots=[forgetful] + [RANDOM] * 3)
    events = pos.run(1)
    assert events[1] == {"ev": "caught", "p": 0, "by": by}
    assert events[2] == {"ev": "draw", "p": 0, "cards": PILE.split()[:9], "why": "uno"}
    assert column(pos, "uno_caught") == 1 and column(pos, "uno_catchers") == 3


def test_catchers_are_the_players_still_in():
    rules = Rules(uno_catchers="each", mode="last_standing")
    forgetful = Bot("random", {"forget_uno": 1.0})
    pos = Position(rules, ["R4 G1", "", "Y1 Y2", "Y5 Y6"], top="R5", pile=PILE, out={1: 1},
                   bots=[forgetful] + [RANDOM] * 3)
    events = pos.run(1)
    assert events[1] == {"ev": "caught", "p": 0, "by": [2, 3]}
    assert len(events[2]["cards"]) == 4


def test_no_catcher_no_caught_event_and_one_catcher_under_one():
    forgetful = Bot("random", {"forget_uno": 1.0})
    bots = [forgetful] + [RANDOM] * 3
    pos = Position(Rules(uno_catchers="each", uno_catch=0.0), ["R4 G1", "B1 B2", "Y1 Y2", "Y5 Y6"], top="R5",
                   pile=PILE, bots=bots)
    assert kinds(pos.run(1)) == ["play"] and column(pos, "uno_catchers") == 0
    pos = Position(Rules(), ["R4 G1", "B1 B2", "Y1 Y2", "Y5 Y6"], top="R5", pile=PILE, bots=bots)
    events = pos.run(1)
    assert events[1] == {"ev": "caught", "p": 0} and len(events[2]["cards"]) == 2
    assert column(pos, "uno_catchers") == 1


def test_each_catcher_draws_its_own_chance():
    rules = Rules(uno_catchers="each", uno_catch=0.5, uno_penalty=1)
    forgetful = Bot("random", {"forget_uno": 1.0})
    counts = []
    for seed in range(300):
        pos = Position(rules, ["R4 G1", "B1 B2", "Y1 Y2", "Y5 Y6"], top="R5", pile=PILE, seed=seed,
                       bots=[forgetful] + [RANDOM] * 3)
        events = pos.run(1)
        caught = [e for e in events if e["ev"] == "caught"]
        n = len(caught[0]["by"]) if caught else 0
        if caught:
            assert events[2]["why"] == "uno" and len(events[2]["cards"]) == n
        counts.append(n)
    mean = sum(counts) / len(counts)
    assert abs(mean - 1.5) < 0.2  # three catchers, one chance in two each
    assert set(counts) == {0, 1, 2, 3}
