"""House-rule variants (SPEC 3.4-3.7) from concrete positions, incl. the rule sheets' examples."""

import pytest

from positions import Position
from uno_sim.game.bots import Bot
from uno_sim.game.rules import Rules

STACK = dict(stack_draw_two=True, stack_draw_four=True)


def test_three_stacked_draw_twos_make_the_fourth_player_draw_six():
    pos = Position(Rules(**STACK), ["RD G1 G2", "BD Y5 Y6", "GD Y7 Y8", "Y1 Y9"], top="R3",
                   pile="B1 B2 B3 B4 B5 B6 B7")
    events = pos.run(4)
    assert [(e["ev"], e["p"]) for e in events] == [("play", 0), ("play", 1), ("play", 2), ("draw", 3)]
    assert events[3]["cards"] == ["B1", "B2", "B3", "B4", "B5", "B6"] and events[3]["why"] == "penalty"
    assert pos.record["max_pending"] == 6 and pos.record["turns"] == 4
    assert pos.next_to_act == 0


def test_four_stacked_wild_draw_fours_make_the_fifth_draw_sixteen():
    hands = ["W4 G1 G2", "W4 G3 G4", "W4 G5 G6", "W4 G7 G8", "Y1 Y2"]
    pile = " ".join(["B1", "B2", "B3", "B4"] * 4 + ["Y9"])
    pos = Position(Rules(players=5, **STACK), hands, top="R3", pile=pile)
    events = pos.run(5)
    assert [e["ev"] for e in events] == ["play"] * 4 + ["draw"]
    assert events[4]["p"] == 4 and len(events[4]["cards"]) == 16
    assert pos.record["max_pending"] == 16


def test_two_wild_draw_fours_in_a_row_make_the_next_draw_eight():
    pos = Position(Rules(**STACK), ["W4 G1 G2", "W4 G3 G4", "Y1 Y2", "Y3"], top="R3",
                   pile="B1 B2 B3 B4 B5 B6 B7 B8 B9")
    events = pos.run(3)
    assert events[2] == {"ev": "draw", "p": 2, "cards": ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"],
                         "why": "penalty"}


def test_no_numbers_or_wilds_while_a_penalty_is_pending():
    # p1 holds red cards and a Wild but no Draw Two: it must accept
    pos = Position(Rules(**STACK), ["RD G1 G2", "R5 R7 W", "Y1", "Y2"], top="R3", pile="B1 B2 B3")
    events = pos.run(2)
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["B1", "B2"], "why": "penalty"}


def test_stack_four_on_two_and_not_two_on_four():
    rules = Rules(stack_draw_two=True, stack_four_on_two=True)
    pos = Position(rules, ["RD G1 G2", "W4 Y5 Y6", "Y1 Y2", "Y3"], top="R3", pile=" ".join(["B1"] * 7))
    events = pos.run(3)
    assert events[1]["card"] == "W4" and events[2]["p"] == 2 and len(events[2]["cards"]) == 6
    # a Draw Two does not answer a Wild Draw Four without stack_two_on_four
    pos = Position(Rules(stack_draw_four=True), ["W4 G1 G2", "RD BD GD YD", "Y1", "Y3"], top="R3",
                   pile=" ".join(["B1"] * 5))
    events = pos.run(2)
    assert events[1]["ev"] == "draw" and len(events[1]["cards"]) == 4


def test_stack_two_on_four_needs_the_named_colour():
    rules = Rules(stack_draw_four=True, stack_two_on_four=True)
    pos = Position(rules, ["G1 G2", "BD Y5", "Y1 Y2", "Y3"], top="W4", color="R", pending=4, pending_kind=4,
                   to_act=1, pile=" ".join(["B1"] * 5))
    events = pos.run(1)
    assert events[0] == {"ev": "draw", "p": 1, "cards": ["B1"] * 4, "why": "penalty"}
    pos = Position(rules, ["G1 G2", "RD Y5 Y6", "Y1 Y2", "Y3"], top="W4", color="R", pending=4, pending_kind=4,
                   to_act=1, pile=" ".join(["B1"] * 7))
    events = pos.run(2)
    assert events[0]["card"] == "RD" and len(events[1]["cards"]) == 6


def test_deflect_blue_skip_moves_the_penalty_to_the_player_after_next():
    rules = Rules(players=5, stack_draw_two=True, deflect=True)
    pos = Position(rules, ["BD G1 G2", "BS Y5 Y6", "Y1 Y2", "R1 R2 R3", "Y3 Y4"], top="B3", pile="B9")
    events = pos.run(2)
    assert events[1] == {"ev": "play", "p": 1, "card": "BS", "color": "B"}
    assert pos.next_to_act == 3 and pos.pending_now == 2


@pytest.mark.parametrize("answer, legal", [("BR", True), ("GS", True), ("BD", True), ("RD", False), ("G5", False)])
def test_after_a_deflecting_blue_skip(answer, legal):
    """The new victim may answer with a blue Reverse, any Skip or a blue Draw Two (matching BS)."""
    rules = Rules(players=5, stack_draw_two=True, deflect=True)
    pos = Position(rules, ["G1", "G2", "G3", f"{answer} Y7 Y8", "Y1"], top="BS", pending=2, pending_kind=2,
                   to_act=3, pile="R7 R8 R9")
    events = pos.run(1)
    assert (events[0]["ev"] == "play") == legal


def test_deflect_with_reverse_sends_the_penalty_back():
    rules = Rules(stack_draw_two=True, deflect=True)
    pos = Position(rules, ["G1 G2", "BR Y5 Y6", "Y1 Y2", "Y3 Y4"], top="BD", pending=2, pending_kind=2,
                   to_act=1, pile="R7 R8 R9")
    pos.run(1)
    assert pos.direction_now == -1 and pos.next_to_act == 0 and pos.pending_now == 2


def test_deflect_with_two_players_sends_the_penalty_to_the_other():
    rules = Rules(players=2, stack_draw_two=True, deflect=True)
    pos = Position(rules, ["G1 G2", "BS Y5 Y6"], top="BD", pending=2, pending_kind=2, to_act=1,
                   pile="R7 R8 R9")
    pos.run(1)
    assert pos.next_to_act == 0 and pos.pending_now == 2


def test_stacked_chain_first_wild_draw_four_challenged_by_victim():
    rules = Rules(**STACK)
    bots = [Bot("random")] + [Bot("random", {"challenge_prob": 1.0})] * 3
    pos = Position(rules, ["G1 G2", "W4 Y5", "Y1 Y2", "Y3 Y4"], top="W4", color="G", pending=4, pending_kind=4,
                   to_act=1, challengeable_by_victim=(0, True), bots=bots, pile=" ".join(["B1"] * 8))
    events = pos.run(1)
    assert events[0] == {"ev": "challenge", "p": 1, "target": 0, "guilty": True}
    assert events[1] == {"ev": "draw", "p": 0, "cards": ["B1"] * 4, "why": "challenge"}
    assert pos.pending_now == 0 and pos.next_to_act == 1  # the chain is dropped; p1 plays
    assert pos.record["turns"] == 0


def test_answering_wild_draw_four_is_not_challengeable():
    rules = Rules(**STACK)
    bots = [Bot("random", {"challenge_prob": 1.0})] * 4
    pos = Position(rules, ["G1 G2", "W4 R5 R6", "Y1 Y2", "Y3 Y4"], top="W4", color="R", pending=4,
                   pending_kind=4, to_act=1, bots=bots, pile=" ".join(["B1"] * 9))
    events = pos.run(2)
    assert [e["ev"] for e in events] == ["play", "draw"]  # p1 answers (legal although it holds red)
    assert len(events[1]["cards"]) == 8


def test_jump_in_skips_the_players_in_between():
    rules = Rules(jump_in=True)
    pos = Position(rules, ["R5 G1 G2", "B1 B2", "B3 B4", "R5 Y1 Y2"], top="R3")
    events = pos.run(1)
    assert events[1] == {"ev": "jump", "p": 3, "card": "R5", "color": "R"}
    assert pos.next_to_act == 0  # players 1 and 2 lost their turns
    assert pos.record["turns"] == 1 and pos.record["plays"] == 2


def test_jump_in_by_the_player_who_just_played():
    rules = Rules(jump_in=True)
    pos = Position(rules, ["R5 R5 G2", "B1 B2", "B3 B4", "Y1 Y2"], top="R3")
    events = pos.run(1)
    assert events[1] == {"ev": "jump", "p": 0, "card": "R5", "color": "R"} and pos.next_to_act == 1


def test_jump_in_on_a_draw_two_makes_the_jumpers_next_draw():
    rules = Rules(jump_in=True)
    pos = Position(rules, ["RD G1 G2", "B1 B2", "RD B4 B5", "Y1 Y2"], top="R3", pile="Y5 Y6 Y7 Y8")
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "draw", "jump", "draw"]
    assert events[1]["p"] == 1 and events[3]["p"] == 3 and pos.next_to_act == 0


def test_jump_in_on_a_stacked_draw_two_adds_to_the_penalty():
    rules = Rules(jump_in=True, stack_draw_two=True)
    pos = Position(rules, ["RD G1 G2", "B1 B2", "RD B4 B5", "Y1 Y2"], top="R3", pile="Y5 Y6 Y7 Y8 Y9")
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "jump"]
    assert pos.pending_now == 4 and pos.next_to_act == 3


def test_seven_swaps_two_hands():
    rules = Rules(players=2, seven_swap=True)
    pos = Position(rules, ["R7 G1 G2", "B1 B2 B3 B4"], top="R3")
    events = pos.run(1)
    assert events[1] == {"ev": "swap", "p": 0, "with": 1}
    assert pos.hand(0) == ["B1", "B2", "B3", "B4"] and pos.hand(1) == ["G1", "G2"]


def test_zero_passes_every_hand_onward():
    rules = Rules(players=3, zero_rotate=True)
    pos = Position(rules, ["R0 G1 G2", "B1", "Y1 Y2 Y3"], top="R3")
    events = pos.run(1)
    assert events[1] == {"ev": "rotate"}
    assert pos.hand(1) == ["G1", "G2"] and pos.hand(2) == ["B1"] and pos.hand(0) == ["Y1", "Y2", "Y3"]


def test_seven_as_last_card_does_no_swap():
    rules = Rules(players=2, seven_swap=True)
    pos = Position(rules, ["R7", "B1 B2 B3 B4"], top="R3")
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play"] and pos.record["winner"] == 0


def test_draw_until_playable():
    rules = Rules(draw_rule="until_playable")
    pos = Position(rules, ["G1 G2", "B1", "B2", "B4"], top="R3", pile="B7 Y8 R9 Y1")
    events = pos.run(1)
    assert events == [
        {"ev": "draw", "p": 0, "cards": ["B7", "Y8", "R9"], "why": "turn"},
        {"ev": "play", "p": 0, "card": "R9", "color": "R"},
    ]


def test_voluntary_draw_is_never_taken_by_random():
    pos = Position(Rules(voluntary_draw=True), ["R5 G2", "B1", "B2", "B4"], top="R3", pile="Y1")
    assert pos.run(1)[0]["ev"] == "play"


def test_last_standing_scores_placements():
    rules = Rules(mode="last_standing")
    pos = Position(rules, ["R1", "R2", "G5", "B7"], top="R3", out={}, pile="Y1 Y2 Y3 Y4 Y5 Y6")
    pos.run(1)
    assert pos.place(0) == 1 and not pos.ended
    # second and third out; then only one player is left
    pos2 = Position(rules, ["", "R2", "R4", "B7 B8"], top="R3", out={0: 1}, to_act=1, pile="Y1 Y2 Y3 Y4 Y5 Y6")
    events = pos2.run(2)
    assert [e for e in events if e["ev"] == "out"] == [{"ev": "out", "p": 1, "place": 2},
                                                       {"ev": "out", "p": 2, "place": 3}]
    assert pos2.ended and pos2.place(3) == 4
    rec = pos2.record
    assert rec["winner"] == 0 and rec["winner_points"] == 3  # n + 1 - 2k for k = 1 of 4


def test_last_standing_teams_sum_their_placements():
    rules = Rules(mode="last_standing", teams=2)
    pos = Position(rules, ["", "", "R4", "B7 B8"], top="R3", out={0: 1, 1: 2}, to_act=2, pile="Y1 Y2")
    pos.run(1)
    rec = pos.record
    assert pos.ended and rec["winner"] == 0 and rec["winner_points"] == 3 + (-1)  # seats 0 and 2


GREEDY = [Bot("greedy")] * 4


@pytest.mark.parametrize("multi_skip, nxt", [("each", 3), ("once", 2)])
def test_two_skips_in_one_multi_play_skip_two_players(multi_skip, nxt):
    rules = Rules(multi_play="identical", multi_skip=multi_skip)
    pos = Position(rules, ["RS RS G1", "B1 B2", "B3 B4", "Y1 Y2"], top="R3", bots=GREEDY)
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "cards": ["RS", "RS"], "color": "R"}
    assert pos.next_to_act == nxt and pos.record["plays"] == 2


def test_multi_play_draw_twos_add_two_each():
    rules = Rules(multi_play="same_symbol")
    pos = Position(rules, ["RD BD G1 G7", "Y7 Y8", "B3 B4", "Y1 Y2"], top="R3", bots=GREEDY, pile="G2 G3 G4 G5 G6")
    events = pos.run(1)
    assert events[0]["cards"] in (["RD", "BD"], ["BD", "RD"])
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["G2", "G3", "G4", "G5"], "why": "penalty"}
    assert pos.record["max_pending"] == 4 and pos.next_to_act == 2


def test_multi_play_two_reverses_keep_the_direction():
    rules = Rules(multi_play="identical")
    pos = Position(rules, ["RR RR G1", "B1 B2", "B3 B4", "Y1 Y2"], top="R3", bots=GREEDY)
    pos.run(1)
    assert pos.direction_now == 1 and pos.next_to_act == 1
