"""Going out under `last_standing` (docs/RULES.md, "Order of events", step 3; SPEC section 9):
a play that empties a hand while two or more other players stay in is no winning card, so its
effects are those of any turn (a draw card's penalty pending under stacking, answered or accepted
on a counted turn); only the play that leaves one player in is a winning card, whose penalty is
drawn at once under `last_card_penalty`. Each rule from a concrete position."""

import pytest

from uno_sim.game.bots import Bot
from uno_sim.game.decks import NO_MERCY
from uno_sim.game.rules import Rules

from positions import Position

PILE = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 G1 G2 G3"


def kinds(events):
    return [e["ev"] for e in events]


def test_the_victim_of_a_draw_two_that_takes_its_player_out_may_answer_it():
    # the game: seat 4 goes out with a Draw Two, seat 0 holds GD and answers (random
    # answers whenever it can); the chain goes on to seat 1
    rules = Rules(players=5, mode="last_standing", stack_draw_two=True)
    pos = Position(rules, ["GD B7", "B1 B2", "B3 B4", "", "BD"], top="B5", out={3: 1}, to_act=4, pile=PILE)
    events = pos.run(1)
    assert events == [{"ev": "play", "p": 4, "card": "BD", "color": "B"},
                      {"ev": "out", "p": 4, "place": 2}]
    assert not pos.ended and pos.next_to_act == 0 and pos.pending_now == 2
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "GD", "color": "G"}
    assert pos.next_to_act == 1 and pos.pending_now == 4
    assert pos.record["turns"] == 2  # the emptying play and the answer are both counted turns


def test_the_victim_who_cannot_answer_accepts_on_a_counted_turn():
    rules = Rules(players=4, mode="last_standing", stack_draw_two=True)
    pos = Position(rules, ["RD", "B1 B2", "B3 B4", "G7 G8"], top="R5", pile=PILE)
    assert kinds(pos.run(1)) == ["play", "out"]
    assert pos.next_to_act == 1 and pos.pending_now == 2 and pos.hand_size(1) == 2
    events = pos.run(1)
    assert events[0] == {"ev": "draw", "p": 1, "cards": ["Y1", "Y2"], "why": "penalty"}
    assert pos.next_to_act == 2 and pos.pending_now == 0
    assert pos.record["turns"] == 2 and pos.record["max_pending"] == 2


@pytest.mark.parametrize("lcp", [True, False])
def test_without_stacking_the_penalty_is_drawn_as_on_any_turn_whatever_last_card_penalty_says(lcp):
    rules = Rules(players=4, mode="last_standing", last_card_penalty=lcp)
    pos = Position(rules, ["RD", "B1 B2", "B3 B4", "G7 G8"], top="R5", pile=PILE)
    events = pos.run(1)
    assert kinds(events) == ["play", "out", "draw"]
    assert events[2] == {"ev": "draw", "p": 1, "cards": ["Y1", "Y2"], "why": "penalty"}
    assert pos.next_to_act == 2 and not pos.ended  # the victim loses the turn


@pytest.mark.parametrize("lcp, drawn", [(True, 2), (False, 0)])
def test_the_play_that_leaves_one_player_in_is_a_winning_card(lcp, drawn):
    rules = Rules(players=3, mode="last_standing", stack_draw_two=True, last_card_penalty=lcp)
    pos = Position(rules, ["RD", "", "GD B7"], top="R5", out={1: 1}, pile=PILE)
    events = pos.run(1)
    draws = [e for e in events if e["ev"] == "draw"]
    assert [len(e["cards"]) for e in draws] == ([drawn] if drawn else [])  # at once, no answer with GD
    assert pos.ended and pos.place(0) == 2 and pos.place(2) == 3
    assert pos.record["turns"] == 1


def test_a_deflecting_skip_that_takes_its_player_out_passes_the_chain_on():
    rules = Rules(players=4, mode="last_standing", stack_draw_two=True, deflect=True)
    pos = Position(rules, ["RS", "B1 B2", "RD B4", "G7 G8"], top="RD", pending=2, pending_kind=2, pile=PILE)
    events = pos.run(1)
    assert kinds(events) == ["play", "out"]
    # the victim is the player after next (seat 2), who answers
    assert pos.next_to_act == 2 and pos.pending_now == 2
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 2, "card": "RD", "color": "R"}
    assert pos.pending_now == 4 and pos.next_to_act == 3


def test_a_reverse_that_takes_its_player_out_with_two_left_only_turns_the_direction():
    # two players stay in, but the Reverse's player is not one of them: no Reverse-as-Skip
    rules = Rules(players=3, mode="last_standing", two_player_reverse="skip")
    pos = Position(rules, ["B1 B2", "RR", "G7 G8"], top="R5", to_act=1, pile=PILE)
    events = pos.run(1)
    assert kinds(events) == ["play", "out"]
    assert pos.direction_now == -1 and pos.next_to_act == 0 and not pos.ended


def test_stack_by_value_the_victim_answers_a_draw_card_that_took_its_player_out():
    rules = Rules(players=4, mode="last_standing", stack_by_value=True)
    pos = Position(rules, ["RD", "GD4 B1", "B3 B4", "G7 G8"], top="R5", pile=PILE, deck=NO_MERCY)
    assert kinds(pos.run(1)) == ["play", "out"]
    assert pos.pending_now == 2 and pos.next_to_act == 1
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 1, "card": "GD4", "color": "G"}
    assert pos.pending_now == 6 and pos.next_to_act == 2


def test_a_skip_everyone_that_takes_its_player_out_passes_the_turn_on():
    rules = Rules(players=4, mode="last_standing")
    pos = Position(rules, ["RE", "B1 B2", "B3 B4", "G7 G8"], top="R5", pile=PILE, deck=NO_MERCY)
    assert kinds(pos.run(1)) == ["play", "out"]
    assert pos.next_to_act == 1 and not pos.ended


@pytest.mark.parametrize("lcp", [True, False])
def test_a_roulette_card_that_takes_its_player_out_still_spins_its_victim(lcp):
    rules = Rules(players=4, mode="last_standing", last_card_penalty=lcp)
    pos = Position(rules, ["WC", "B1 B2", "B3 B4", "G7 G8"], top="B5", pile="R2 Y3 G5 B1", deck=NO_MERCY)
    events = pos.run(1)
    assert kinds(events) == ["play", "out", "roulette", "draw"]
    assert events[2]["p"] == 1 and events[0]["color"] == events[2]["color"]
    assert pos.next_to_act == 2 and not pos.ended


def test_a_wild_draw_four_that_takes_its_player_out_may_be_challenged_by_its_victim():
    # the challenger always loses (the player held nothing but the Wild Draw Four)
    rules = Rules(players=4, mode="last_standing")
    bots = [Bot("random"), Bot("random", {"challenge_prob": 1.0}), Bot("random"), Bot("random")]
    pos = Position(rules, ["W4", "B1 B2", "B3 B4", "G7 G8"], top="R5", pile=PILE, bots=bots)
    events = pos.run(1)
    assert kinds(events)[:2] == ["play", "out"]
    assert {"ev": "challenge", "p": 1, "target": 0, "guilty": False} in events
    draw = next(e for e in events if e["ev"] == "draw")
    assert draw["p"] == 1 and len(draw["cards"]) == 6 and draw["why"] == "challenge"
    assert pos.next_to_act == 2 and pos.hand_size(0) == 0
