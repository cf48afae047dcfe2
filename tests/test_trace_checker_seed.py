"""The independent trace checker (tests/trace_checker.py) on the house rules of the rule
sheets' "其他玩法" / "特别协议": sum jump-in, hand-sum win, Wild swap, UNO catchers.

Tiny hand-written games (helpers from test_trace_checker.py): each legal trace is accepted
and a one-event corruption of it is rejected with the expected message. The sheets' worked
examples are here as traces: "hand 0, 1, 3 and someone plays a 4: that player wins at once",
a sum set 2 + 4 on a green 6, and the next player following any card of the set.
"""
from __future__ import annotations

import copy

import pytest

from test_trace_checker import (D, P, accepts_and_rejects, all_violations, deal, end, lead, removed,
                                replaced, uno)


def J(p, cards, color, total):
    """A sum jump-in."""
    return {"ev": "jump", "p": p, "cards": list(cards), "color": color, "sum": total}


def JI(p, card, color=None):
    """An identical jump-in."""
    return {"ev": "jump", "p": p, "card": card, "color": color or card[0]}


def OUT(p, cards, place=None):
    ev = {"ev": "out", "p": p, "how": "hand_sum", "cards": list(cards)}
    if place is not None:
        ev["place"] = place
    return ev


def SWAP3(p, w, gave, got):
    return {"ev": "swap3", "p": p, "with": w, "gave": list(gave), "got": list(got)}


def caught(p, by=None):
    ev = {"ev": "caught", "p": p}
    if by is not None:
        ev["by"] = list(by)
    return ev


def rejects(events, expect):
    vs = all_violations(events)
    assert any(expect in v for v in vs), vs


# ================================================================ hand-sum win ("摊派胜出")
HAND_SUM = dict(hand_sum_win=True)


def test_sheet_example_hand_0_1_3_wins_on_a_4():
    # seat 0 plays R4 (its only legal card on R5); seat 1 holds 0, 1, 3 = 4 and wins at once
    g = [deal([["R4", "G7", "B8"], ["Y0", "G1", "B3"], ["Y9", "B9", "GS"]], ["R5"], **HAND_SUM),
         lead("R5"), P(0, "R4"), OUT(1, ["Y0", "G1", "B3"])]
    good = end(g, 1, "out", 1, plays=1, winner_points=(7 + 8) + (9 + 9 + 20), cards=[2, 0, 3])
    assert all_violations(good) == []
    rejects(removed(good, 3), "must be claimed")  # bots always claim
    rejects(replaced(good, -1, {**good[-1], "plays": 4}), "end plays")  # laid-down cards are not plays
    rejects(replaced(good, 3, OUT(1, ["Y0", "G1", "B3"], place=1)), "carries 'place' under first_out")
    rejects(replaced(good, 3, OUT(1, ["Y0", "G1"])), "lays down")


def test_hand_sum_win_is_off_by_default():
    g = [deal([["R4", "G7", "B8"], ["Y0", "G1", "B3"], ["Y9", "B9", "GS"]], ["R5"]), lead("R5"), P(0, "R4")]
    rejects(end(g + [OUT(1, ["Y0", "G1", "B3"])], 1, "out", 1), "expected seat 1 to take its turn")


def test_hand_sum_claim_with_an_action_card_is_rejected():
    bad = [deal([["R4", "G7", "B8"], ["Y0", "G1", "BS"], ["Y9", "B9", "GS"]], ["R5"], **HAND_SUM),
           lead("R5"), P(0, "R4"), OUT(1, ["Y0", "G1", "BS"])]
    bad = end(bad, 1, "out", 1)
    vs = all_violations(bad)
    assert any("holding an action or wild card" in v for v in vs), vs
    assert any("no hand can claim it" in v for v in vs), vs


def test_hand_sum_claim_that_does_not_add_up_is_rejected():
    bad = [deal([["R4", "G7", "B8"], ["Y0", "G1", "B5"], ["Y9", "B9", "GS"]], ["R5"], **HAND_SUM),
           lead("R5"), P(0, "R4"), OUT(1, ["Y0", "G1", "B5"])]
    rejects(end(bad, 1, "out", 1), "adds up to 6")


@pytest.mark.parametrize("order", ["clockwise", "counter-clockwise"])
def test_first_claimant_in_the_direction_of_play(order):
    player, first, other = ["R4", "G7", "B8"], ["Y0", "G1", "B3"], ["R1", "Y3", "G0"]
    if order == "clockwise":  # seat 0 plays R4; seats 1 and 3 could both claim: seat 1 is first
        hands, top, p, want, wrong = [player, first, ["Y9", "YS", "W"], other], "R5", 0, 1, 3
    else:  # lead Reverse: the dealer (seat 3) starts, direction counter-clockwise: seat 2 is first
        hands, top, p, want, wrong = [other, ["Y9", "YS", "W"], first, player], "RR", 3, 2, 0
    base = [deal(hands, [top], **HAND_SUM), lead(top), P(p, "R4")]
    good = end(base + [OUT(want, hands[want])], want, "out", 1, plays=1)
    bad = end(base + [OUT(wrong, hands[wrong])], wrong, "out", 1, plays=1)
    accepts_and_rejects(good, bad, "wrong hand-sum claimant")


def test_hand_sum_under_last_standing_places_and_play_goes_on_after_the_player_of_n():
    hands = [["R4", "G7", "B8"], ["Y0", "G1", "B3"], ["R9", "B9", "GS"], ["Y9", "YS", "W"]]
    g = [deal(hands, ["R5"], mode="last_standing", max_turns=3, **HAND_SUM), lead("R5"),
         P(0, "R4"), OUT(1, hands[1], place=1),
         P(2, "R9"),  # seat 1 is out: the turn after seat 0 goes to seat 2
         P(3, "Y9")]
    good = end(g, -1, "cap", 3, plays=3, cards=[2, 0, 2, 2])
    assert all_violations(good) == []
    rejects(replaced(good, 3, OUT(1, hands[1])), "out place")
    rejects(replaced(good, 4, P(3, "Y9")), "wrong player")


def test_hand_sum_cards_leave_play_and_are_never_reshuffled():
    # 10 players x 10 cards: the pile runs dry; the reshuffle holds the discards only
    claimant = ["R0", "Y0", "G0", "B0", "R1", "R1", "Y1", "Y1", "G1", "G1"]  # 6
    pile = ["G5", "Y7", "Y8", "Y9", "YS", "YR", "YD", "BS"]
    g = [deal([["G6"], claimant] + [[]] * 8, pile, hand_size=10, bots="greedy", mode="last_standing",
              max_turns=9, **HAND_SUM),
         lead("G5"), P(0, "G6"), OUT(1, claimant, place=1)]
    g += [D(seat, [card]) for seat, card in zip(range(2, 9), pile[1:])]
    g += [{"ev": "reshuffle", "pile": ["G5"]}, D(9, ["G5"])]
    good = end(g, -1, "cap", 9, plays=1, draws=8, reshuffles=1)
    bad = replaced(good, 11, {"ev": "reshuffle", "pile": ["G5", "R0"]})
    accepts_and_rejects(good, bad, "reshuffle pile is not the discard pile minus its top card")


def test_lead_card_is_never_answered():
    base = [deal([["G2", "G4", "R9"], ["Y7", "B7", "R7"]], ["G6"], sum_jump_in="any_color", max_turns=1,
                 **HAND_SUM), lead("G6")]
    good = end(base + [P(0, "G4")], -1, "cap", 1, plays=1)
    bad = end(base + [J(0, ["G2", "G4"], "G", 6), uno(0), P(1, "R7")], -1, "cap", 1)
    accepts_and_rejects(good, bad, "expected seat 0 to take its turn")


# ================================================================ sum jump-in ("求和抢牌")
def sum_2_4_on_green_6(mode, jumper):
    """Seat 0 plays G6 (its only legal card on G5); seat 2 answers with a sum set."""
    g = [deal([["G6", "R1", "B1"], ["R7", "B7", "Y7"], jumper], ["G5", "Y8"], sum_jump_in=mode,
              max_turns=2), lead("G5"), P(0, "G6")]
    return g


def test_sheet_example_sum_set_2_4_on_green_6_same_colour():
    g = sum_2_4_on_green_6("same_color", ["G2", "G4", "G3"])
    # seat 2 keeps G3 and calls UNO; play goes on from seat 2: seat 0 (passing over seat 1) holds
    # nothing matching G or 2 or 4, draws Y8 (not playable either)
    good = end(g + [J(2, ["G2", "G4"], "G", 6), uno(2), D(0, ["Y8"])], -1, "cap", 2, plays=3, draws=1)
    assert all_violations(good) == []
    rejects(replaced(good, 3, J(2, ["G2", "G3"], "G", 6)), "adds up to 5, not to 6")
    rejects(replaced(good, 3, J(2, ["G4", "G2"], "G", 6)), "not sorted")  # the random bot's order
    rejects(replaced(good, 3, J(2, ["G2", "G4"], "G", 7)), "carries sum 7")
    rejects(replaced(good, 3, J(2, ["G4"], "G", 6)), "two or more number cards")
    rejects(removed(removed(good, 3), 3), "could jump in")  # the random bot wants to move
    rejects(replaced(good, 5, D(1, ["Y8"])), "wrong player")  # seat 1 was passed over


@pytest.mark.parametrize("mode", ["same_color", "any_color"])
def test_sum_set_of_two_colours(mode):
    g = sum_2_4_on_green_6(mode, ["Y4", "G2", "G3"])
    # top G2; Y8 matches the set's Y4 by colour, so the random bot plays it at once
    events = end(g + [J(2, ["Y4", "G2"], "G", 6), uno(2), D(0, ["Y8"]), P(0, "Y8")], -1, "cap", 2,
                 plays=4, draws=1)
    if mode == "any_color":
        assert all_violations(events) == []
    else:
        rejects(events, "is not all G (sum_jump_in=same_color)")


def test_sum_jump_win_only():
    g = sum_2_4_on_green_6("any_color", ["R2", "Y3", "G1"])
    good = g + [J(2, ["R2", "Y3", "G1"], "G", 6)]  # the whole hand: seat 2 goes out
    good = end(good, 2, "out", 1, plays=4)
    good[0]["rules"]["sum_jump_win_only"] = True
    assert all_violations(good) == []
    # a set that leaves a card is not allowed; the random bot then has no move
    base = sum_2_4_on_green_6("any_color", ["G2", "G4", "Y9"])
    base[0]["rules"]["sum_jump_win_only"] = True
    good = end(base + [D(1, ["Y8"])], -1, "cap", 2, plays=1, draws=1)
    bad = end(base + [J(2, ["G2", "G4"], "G", 6), uno(2), D(0, ["Y8"])], -1, "cap", 2)
    accepts_and_rejects(good, bad, "does not empty seat 2's hand (sum_jump_win_only)")


def test_sum_jump_in_is_off_by_default():
    g = sum_2_4_on_green_6("off", ["G2", "G4", "G3"])
    good = end(g + [D(1, ["Y8"])], -1, "cap", 2, plays=1, draws=1)
    bad = end(g + [J(2, ["G2", "G4"], "G", 6), uno(2), D(0, ["Y8"])], -1, "cap", 2)
    accepts_and_rejects(good, bad, "wrong player: seat 2 acts ('jump') but it is seat 1's turn")


def test_sheet_example_next_player_follows_any_card_of_the_set():
    # seat 2 answers G6 with Y4 + G2 (G2 on top); seat 0 follows the Y4 with Y9. The set's
    # matching ends with that card: seat 1's B2 (a 2, like the set's G2) no longer matches.
    hands = [["G6", "Y9", "B1"], ["B2", "R8", "B5"], ["Y4", "G2", "G3"]]
    g = [deal(hands, ["G5", "R3"], sum_jump_in="any_color", max_turns=3), lead("G5"),
         P(0, "G6"), J(2, ["Y4", "G2"], "G", 6), uno(2), P(0, "Y9"), uno(0), D(1, ["R3"])]
    good = end(g, -1, "cap", 3, plays=4, draws=1)
    assert all_violations(good) == []
    rejects(replaced(good, 5, P(0, "B1")), "does not match")  # B1 matches no card of the set
    rejects(replaced(good, 7, P(1, "B2")), "does not match")  # the set no longer applies


def test_matching_set_lasts_across_a_reshuffle():
    # two players with 53 cards each: the pile runs dry right after the sum set; seat 0's B2
    # still follows the set's R2 after the reshuffle
    g = [deal([["G6", "B2", "B7"], ["R2", "Y4"]], ["G5", "Y1"], hand_size=53, bots="greedy",
              sum_jump_in="any_color", max_turns=4),
         lead("G5"), P(0, "G6"), J(1, ["R2", "Y4"], "Y", 6), D(0, ["Y1"]),
         {"ev": "reshuffle", "pile": ["R2", "G5", "G6"]}, D(1, ["R2"]), P(0, "B2")]
    good = end(g, -1, "cap", 4, plays=4, draws=2, reshuffles=1)
    bad = replaced(good, 7, P(0, "B7"))
    accepts_and_rejects(good, bad, "does not match")


def test_identical_jump_in_on_any_card_of_the_set_reopens_the_sum_window():
    # seat 1 answers G6 with R2 + Y4; seat 2 (random) must jump in with its R2, a card of the
    # set that is not on top; that R2 is played singly, so seat 0 may answer it with B0 + B2.
    # Then seat 1 has nothing matching B, 0 or 2 and draws; seat 2 and seat 0 take their turns.
    hands = [["G6", "B0", "B2", "RS"], ["R2", "Y4", "GS", "YS"], ["R2", "W", "BS", "B9"]]
    g = [deal(hands, ["G5", "Y7", "G8"], bots=["greedy", "greedy", "random"], jump_in=True,
              sum_jump_in="any_color", max_turns=4, **HAND_SUM),
         lead("G5"), P(0, "G6"), J(1, ["R2", "Y4"], "Y", 6), JI(2, "R2"), J(0, ["B0", "B2"], "B", 2), uno(0),
         D(1, ["Y7"]), P(2, "B9"), D(0, ["G8"])]
    good = end(g, -1, "cap", 4, plays=7, draws=2)
    assert all_violations(good) == []
    rejects(removed(removed(removed(good, 4), 4), 4), "could jump in")
    rejects(replaced(good, 4, JI(2, "B9")), "not identical to any card of")
    # a sum set is not answered by another sum set
    rejects(replaced(good, 4, J(0, ["B0", "B2"], "B", 2)), "is not allowed here")
    # three jump-ins in a row reach max_turns = 3: the round ends there
    capped = end(copy.deepcopy(g[:7]), -1, "cap", 1, plays=6)
    capped[0]["rules"]["max_turns"] = 3
    accepts_and_rejects(capped, replaced(good, 0, capped[0]), "consecutive jump-ins")


def test_wild_draw_four_after_a_sum_set_judged_against_the_top_card_only():
    # set R2 + Y4 (Y4 on top). wd4_rule=no_match: R8 matches the set's R2 but not the top card,
    # so the Wild Draw Four is legal; B4 (the top card's symbol) makes it illegal.
    def game(third):
        g = [deal([["G6", "W4", third], ["Y7", "B7", "R7"], ["R2", "Y4", "G9"]], ["G5", "B1", "B2", "B3", "B5"],
                  bots="greedy", sum_jump_in="any_color", wd4_rule="no_match", challenge=False, max_turns=2),
             lead("G5"), P(0, "G6"), J(2, ["R2", "Y4"], "Y", 6), uno(2), P(0, "W4", "B"), uno(0),
             D(1, ["B1", "B2", "B3", "B5"], "penalty")]
        return end(g, -1, "cap", 2, plays=4, draws=4, max_pending=4)
    accepts_and_rejects(game("R8"), game("B4"), "Wild Draw Four against wd4_rule")


# ================================================================ Wild swap ("Wild多功能")
def swap_game(**knobs):
    hands = [["W", "R1", "R2", "G3", "B4"], ["Y1", "Y2", "Y3", "Y5", "Y6"], ["B5", "B6", "B7", "B8", "B9"]]
    return [deal(hands, ["R5"], wild_swap=True, max_turns=1, **knobs), lead("R5"),
            P(0, "W", "R", swap=True)]


def test_wild_swap_three_cards():
    good = end(swap_game() + [SWAP3(0, 2, ["R1", "G3", "B4"], ["B9", "B5", "B7"])], -1, "cap", 1, plays=1)
    assert all_violations(good) == []
    rejects(replaced(good, 3, SWAP3(0, 2, ["R1", "G3"], ["B9", "B5"])), "k must be min(3, 4, 5) = 3")
    rejects(replaced(good, 2, P(0, "W", "G", swap=True)), "keeps the colour R")
    rejects(replaced(good, 3, SWAP3(0, 0, ["R1", "G3", "B4"], ["R1", "G3", "B4"])), "invalid Wild swap target")
    rejects(replaced(good, 3, SWAP3(0, 2, ["Y1", "G3", "B4"], ["B9", "B5", "B7"])), "which it does not hold")
    rejects(replaced(good, 3, SWAP3(0, 2, ["R1", "G3", "B4"], ["Y1", "B5", "B7"])), "seat 2 does not hold")
    rejects(removed(good, 3), "expected 'swap3'")
    off = copy.deepcopy(good)
    off[0]["rules"]["wild_swap"] = False
    rejects(off, "Wild swap with wild_swap off")


def test_wild_swap_only_with_a_wild():
    hands = [["W4", "R1", "R2", "G3", "B4"], ["Y1", "Y2", "Y3", "Y5", "Y6"], ["B5", "B6", "B7", "B8", "B9"]]
    bad = [deal(hands, ["R5"], bots="greedy", wild_swap=True, max_turns=1), lead("R5"),
           P(0, "W4", "R", swap=True)]
    rejects(bad, "only a Wild played alone may swap")


def test_wild_as_last_card_never_swaps():
    base = [deal([["W"], ["R7"]], ["R5"], wild_swap=True), lead("R5")]
    good = end(base + [P(0, "W", "B")], 0, "out", 1, plays=1)
    bad = end(base + [P(0, "W", "R", swap=True)], 0, "out", 1, plays=1)
    accepts_and_rejects(good, bad, "swaps although the Wild was its last card")


def test_wild_swap_k_is_measured_after_the_caught_uno_penalty():
    # seat 0 plays W from [W, R1], forgets UNO, is caught and draws 2: it holds 3, seat 1 holds 2
    g = [deal([["W", "R1"], ["Y1", "Y2"]], ["R5", "Y3", "Y4"], bots="greedy", wild_swap=True, max_turns=1),
         lead("R5"), P(0, "W", "R", swap=True), caught(0), D(0, ["Y3", "Y4"], "uno"),
         SWAP3(0, 1, ["R1", "Y3"], ["Y1", "Y2"])]
    good = end(g, -1, "cap", 1, plays=1, draws=2)
    bad = replaced(good, 5, SWAP3(0, 1, ["R1"], ["Y1"]))  # k taken before the penalty
    accepts_and_rejects(good, bad, "k must be min(3, 3, 2) = 2")


# ================================================================ UNO catchers
def catchers_game(by, drawn, **knobs):
    pile = ["R5", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "G4", "G5", "G6"]
    g = [deal([["R1", "B1"], ["G2", "G3"], ["Y2", "Y3"], ["B2", "B3"]], pile, bots="greedy", max_turns=1,
              **knobs), lead("R5"), P(0, "R1"), caught(0, by), D(0, pile[1:1 + drawn], "uno")]
    return end(g, -1, "cap", 1, plays=1, draws=drawn)


def test_uno_catchers_each_penalty_per_catcher():
    # "一个人捉到就罚3张牌，如此类推": three catchers, 3 cards each, in one draw
    knobs = dict(uno_catchers="each", uno_penalty=3)
    good = catchers_game([3, 1, 2], 9, **knobs)  # the order of `by` is not checked
    accepts_and_rejects(good, catchers_game([1, 2, 3], 3, **knobs), "more are owed")
    rejects(catchers_game([1, 2], 6, **knobs), "every other player still in the round catches")
    rejects(catchers_game(None, 3, **knobs), "needs a non-empty 'by' list")
    rejects(catchers_game([0, 1, 2], 9, **knobs), "distinct other players")
    rejects(catchers_game([1, 1, 2], 9, **knobs), "distinct other players")


def test_uno_catchers_each_with_a_catch_chance():
    knobs = dict(uno_catchers="each", uno_penalty=3, uno_catch=0.5)
    good = catchers_game([2], 3, **knobs)
    accepts_and_rejects(good, catchers_game([2], 6, **knobs), "takes more cards than owed")


def test_uno_catchers_one():
    assert all_violations(catchers_game([2], 2)) == []
    assert all_violations(catchers_game(None, 2)) == []
    rejects(catchers_game([1, 2], 4), "caught once")


# ================================================================ older traces
def test_missing_seed_knobs_take_their_defaults():
    g = [deal([["R1", "B1"], ["R2", "B2"]], ["R5"], max_turns=1), lead("R5"), P(0, "R1"), uno(0)]
    good = end(g, -1, "cap", 1, plays=1)
    for name in ("sum_jump_in", "sum_jump_win_only", "hand_sum_win", "wild_swap", "uno_catchers", "match_rounds"):
        good[0]["rules"].pop(name, None)
    assert all_violations(good) == []
    bad = copy.deepcopy(good)
    del bad[0]["rules"]["jump_in"]
    rejects(bad, "deal rules lack knobs ['jump_in']")
