"""Seats played from Python (engine/bots/external.py): the question, the legal actions and the
observation the engine writes, and what it does with the action on the tape, from concrete
positions (tests/positions.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from positions import Position, asked, python_seat
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.game.bots import Bot
from uno_sim.game.cards import parse_face
from uno_sim.game.rules import Rules

def faces(text: str) -> set[int]:
    return {parse_face(t) for t in text.split()}


def test_a_turn_offers_the_matching_cards_and_drawing():
    """R5 on top, red: R2 and G5 match, B7 does not; the Wild Draw Four is illegal while a red
    card is held (wd4_rule no_color); the plain Wild always goes; drawing is allowed
    (voluntary_draw)."""
    pos = Position(Rules(), ["R2 G5 B7 W W4", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9 Y8")
    g = python_seat(pos, 0, [])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "turn"
    assert legal == faces("R2 G5 W") | {L.A_NO}
    assert obs[L.OB_SEAT] == 0 and obs[L.OB_TOP] == parse_face("R5") and obs[L.OB_COLOR] == 0
    assert obs[L.OB_HAND + parse_face("W4")] == 1 and obs[L.OB_HAND + parse_face("R5")] == 0
    assert list(obs[L.OB_SIZES : L.OB_SIZES + 4]) == [5, 2, 2, 2]
    assert obs[L.OB_PILE] == 2 and obs[L.OB_DISCARD + parse_face("R5")] == 1


def test_without_voluntary_draw_a_player_who_can_play_may_not_draw():
    pos = Position(Rules(voluntary_draw=False), ["R2 B7", "R1", "G1", "B1"], top="R5", pile="Y9")
    g = python_seat(pos, 0, [])
    pos.run(1)
    assert asked(g)[1] == faces("R2")
    pos = Position(Rules(voluntary_draw=False), ["B7 G3", "R1", "G1", "B1"], top="R5", pile="Y9")
    g = python_seat(pos, 0, [])
    pos.run(1)
    assert asked(g)[1] == {L.A_NO}


def test_the_action_on_the_tape_is_played():
    pos = Position(Rules(), ["R2 G5 B7", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9 Y8")
    python_seat(pos, 0, [parse_face("G5")])
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play"] and events[0]["card"] == "G5"
    assert pos.color_now == "G" and not pos.ended and pos.next_to_act == 1
    pos = Position(Rules(), ["R2 G5 B7", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9 Y8")
    python_seat(pos, 0, [L.A_NO, L.A_NO])  # draw, then keep the drawn card (Y9 does not match anyway)
    events = pos.run(1)
    assert events[0]["ev"] == "draw" and events[0]["cards"] == ["Y9"] and pos.hand_size(0) == 4


def test_a_wild_asks_for_a_colour_and_a_drawn_playable_card_asks_to_play_it():
    pos = Position(Rules(), ["W B7", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9")
    g = python_seat(pos, 0, [parse_face("W")])
    pos.run(1)
    question, legal, _ = asked(g)
    assert question == "color" and legal == set(range(L.A_COLOR, L.A_COLOR + 4))
    pos = Position(Rules(), ["W B7", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9")
    python_seat(pos, 0, [parse_face("W"), L.A_COLOR + 3])
    events = pos.run(1)
    assert events[0]["ev"] == "play" and pos.color_now == "B"
    pos = Position(Rules(), ["B7 G3", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="R9")
    g = python_seat(pos, 0, [L.A_NO])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "play_drawn" and legal == {L.A_NO, L.A_YES} and obs[L.OB_ARG] == parse_face("R9")


def test_a_penalty_offers_the_stacking_answers_and_accepting():
    pos = Position(Rules(stack_draw_two=True), ["RD GD R3", "R1", "G1", "B1"], top="BD", color="B",
                   pending=2, pending_kind=2, pile="Y9 Y8 Y7 Y6")
    g = python_seat(pos, 0, [])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "answer" and legal == faces("RD GD") | {L.A_NO} and obs[L.OB_PENDING] == 2
    pos = Position(Rules(stack_draw_two=True), ["RD GD R3", "R1", "G1", "B1"], top="BD", color="B",
                   pending=2, pending_kind=2, pile="Y9 Y8 Y7 Y6")
    python_seat(pos, 0, [L.A_NO])
    events = pos.run(1)
    assert events[0]["ev"] == "draw" and events[0]["cards"] == ["Y9", "Y8"]


def test_a_challenge_names_the_player_who_played_the_wild_draw_four():
    pos = Position(Rules(), ["R3", "R1", "G1", "B1 B2"], top="W4", color="G", pending=4, pending_kind=4,
                   challengeable_by_victim=(3, True), pile="Y9 Y8 Y7 Y6 Y5 Y4")
    g = python_seat(pos, 0, [])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "challenge" and legal == {L.A_NO, L.A_YES}
    assert obs[L.OB_ARG] == 3  # seat 3 is three seats after seat 0
    pos = Position(Rules(), ["R3", "R1", "G1", "B1 B2"], top="W4", color="G", pending=4, pending_kind=4,
                   challengeable_by_victim=(3, True), pile="Y9 Y8 Y7 Y6 Y5 Y4")
    python_seat(pos, 0, [L.A_YES])
    events = pos.run(1)
    assert events[0]["ev"] == "challenge" and events[0]["guilty"] is True


def test_a_seven_swap_offers_the_other_players_still_in_the_round():
    rules = Rules(seven_swap=True, mode="last_standing")
    pos = Position(rules, ["R7 G1 G2", "R1", "G1 G2 G3", "B1"], top="R5", out={1: 1}, pile="Y9")
    g = python_seat(pos, 0, [parse_face("R7")])
    pos.run(1)
    question, legal, _ = asked(g)
    assert question == "swap_target" and legal == {L.A_SEAT + 2, L.A_SEAT + 3}
    pos = Position(rules, ["R7 G1 G2", "R1", "G1 G2 G3", "B1"], top="R5", out={1: 1}, pile="Y9")
    python_seat(pos, 0, [parse_face("R7"), L.A_SEAT + 2])
    pos.run(1)
    assert sorted(pos.hand(0)) == ["G1", "G2", "G3"] and sorted(pos.hand(2)) == ["G1", "G2"]


def test_a_python_seat_draws_nothing_from_the_game_generator():
    """Seat 0 plays the same cards from the tape whatever the generator's seed: its answers
    come from the tape alone, and the other seats' games do not depend on it."""
    played = []
    for seed in (1, 2, 3):
        pos = Position(Rules(), ["W B7", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9", seed=seed,
                       bots=[Bot("random")] * 4)
        python_seat(pos, 0, [parse_face("W"), L.A_COLOR + 3])
        g = pos.g
        before = g[S.O_RNG : S.O_RNG + 4].copy()
        pos.run(1)
        assert (g[S.O_RNG : S.O_RNG + 4] == before).all()
        played.append(pos.color_now)
    assert played == ["B", "B", "B"]


def test_the_observation_carries_the_rule_set():
    """The knobs as the engine reads them: a switch 1 or 0, a number itself, a choice its
    position in the knob's values (wd4_rule: no_color first, so 0; draw_rule: until_playable second, so 1)."""
    from uno_sim.env import describe

    rules = Rules(stack_draw_two=True, hand_size=5, draw_rule="until_playable", mercy_limit=20)
    pos = Position(rules, ["R2 G5 B7", "R1 R1", "G1 G1", "B1 B1"], top="R5", pile="Y9 Y8")
    g = python_seat(pos, 0, [])
    pos.run(1)
    known = describe(asked(g)[2])["rules"]
    assert known["stack_draw_two"] == 1 and known["stack_draw_four"] == 0
    assert known["hand_size"] == 5 and known["mercy_limit"] == 20 and known["players"] == 4
    assert known["wd4_rule"] == 0 and known["draw_rule"] == 1


def test_a_multi_play_asks_for_one_more_card_at_a_time():
    """same_symbol, R5 on top: after R5 the seat may add its other 5s (G5, the second R5), never
    its Wild or R2; each card chosen leaves the hand it is asked about, the last chosen goes on
    top, and it is asked again until nothing may follow."""
    rules = Rules(multi_play="same_symbol")
    hands = ["R5 R5 G5 R2 W", "R1 R2", "G1 G2", "B1 B2"]
    pos = Position(rules, hands, top="R7", pile="Y9 Y8")
    g = python_seat(pos, 0, [parse_face("R5")])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "extra_card" and legal == faces("R5 G5") | {L.A_NO}
    assert obs[L.OB_ARG] == parse_face("R5")
    assert obs[L.OB_HAND + parse_face("R5")] == 1 and obs[L.OB_HAND + parse_face("G5")] == 1

    pos = Position(rules, hands, top="R7", pile="Y9 Y8")
    g = python_seat(pos, 0, [parse_face("R5"), parse_face("G5")])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "extra_card" and legal == faces("R5") | {L.A_NO}
    assert obs[L.OB_ARG] == parse_face("G5") and obs[L.OB_HAND + parse_face("G5")] == 0

    pos = Position(rules, hands, top="R7", pile="Y9 Y8")
    python_seat(pos, 0, [parse_face("R5"), parse_face("G5"), parse_face("R5")])  # then nothing may follow
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "cards": ["R5", "G5", "R5"], "color": "R"}
    assert sorted(pos.hand(0)) == ["R2", "W"] and pos.record["plays"] == 3


def test_a_seat_that_says_no_puts_down_one_card():
    rules = Rules(multi_play="identical")
    pos = Position(rules, ["RS RS G5 G6", "R1 R2", "G1 G2", "B1 B2"], top="R7", pile="Y9 Y8")
    python_seat(pos, 0, [parse_face("RS"), L.A_NO])
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "RS", "color": "R"}
    assert sorted(pos.hand(0)) == ["G5", "G6", "RS"] and pos.next_to_act == 2


def test_identical_offers_only_the_same_face_and_no_question_without_one():
    rules = Rules(multi_play="identical")
    pos = Position(rules, ["RS BS G5", "R1 R2", "G1 G2", "B1 B2"], top="R7", pile="Y9 Y8")
    g = python_seat(pos, 0, [parse_face("RS")])  # BS is not identical: nothing to ask
    events = pos.run(1)
    assert g[S.S_EXT_STOPPED] == 0
    assert events[0] == {"ev": "play", "p": 0, "card": "RS", "color": "R"}


def test_number_finish_keeps_an_action_set_from_emptying_the_hand():
    """Three Skips and nothing else: the second may follow the first, the third may not (the
    set would empty the hand with action cards). Three 4s may all go down."""
    rules = Rules(multi_play="identical", number_finish=True)
    pos = Position(rules, ["RS RS RS", "R1 R2", "G1 G2", "B1 B2"], top="R7", pile="Y9 Y8")
    g = python_seat(pos, 0, [parse_face("RS")])
    pos.run(1)
    question, legal, _ = asked(g)
    assert question == "extra_card" and legal == faces("RS") | {L.A_NO}
    pos = Position(rules, ["RS RS RS", "R1 R2", "G1 G2", "B1 B2"], top="R7", pile="Y9 Y8")
    g = python_seat(pos, 0, [parse_face("RS"), parse_face("RS")])
    events = pos.run(1)
    assert g[S.S_EXT_STOPPED] == 0 and events[0]["cards"] == ["RS", "RS"] and pos.hand(0) == ["RS"]
    pos = Position(rules, ["R4 R4 R4", "R1 R2", "G1 G2", "B1 B2"], top="R7", pile="Y9 Y8")
    g = python_seat(pos, 0, [parse_face("R4"), parse_face("R4")])
    pos.run(1)
    question, legal, _ = asked(g)
    assert question == "extra_card" and legal == faces("R4") | {L.A_NO}


def test_a_penalty_answer_may_be_a_multi_play():
    """stack_draw_two: after RD answers a pending Draw Two the seat is asked whether its second
    RD follows."""
    rules = Rules(multi_play="identical", stack_draw_two=True)
    pos = Position(rules, ["RD RD G5", "R1 R2", "G1 G2", "B1 B2"], top="BD", color="B", pending=2,
                   pending_kind=2, pile="Y9 Y8 Y7 Y6 Y5 Y4 Y3")
    g = python_seat(pos, 0, [parse_face("RD")])
    pos.run(1)
    question, legal, _ = asked(g)
    assert question == "extra_card" and legal == faces("RD") | {L.A_NO}


# ---------------------------------------------------------------- choosing a sum jump-in move

SUM_RULES = Rules(jump_in=True, sum_jump_in="any_color")
# Seat 0 plays G6 on G3 (its only legal card); seat 2 (Python) then holds three jump-in moves for
# it: the identical G6, and the sum sets R2 + Y4 and R2 + B4. Nobody else holds a move.
SUM_HANDS = ["G6 B8 B9", "B7 B7", "G6 R2 B4 Y4 Y9", "Y1 Y7"]
SUM_PILE = "B1 B2 B3 B5 B6 Y5 Y6 Y8 Y9"


def sum_jump(tape: list[int], seed: int = 7, hands=SUM_HANDS, rules=SUM_RULES, top="G3") -> tuple[Position, np.ndarray]:
    pos = Position(rules, hands, top=top, pile=SUM_PILE, seed=seed)
    g = python_seat(pos, 2, tape)
    return pos, g


def jumps(events: list[dict]) -> list[dict]:
    return [e for e in events if e["ev"] == "jump"]


def test_a_sum_jump_in_with_several_moves_is_chosen_card_by_card():
    """After A_YES to jump_in: every face of some move may come first, yes may not (nothing
    chosen yet); `moves` counts the moves by their lowest card in face order (R2 begins both
    sets, G6 is its own move); the argument is -1 before the first card."""
    pos, g = sum_jump([L.A_YES])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "jump_card" and legal == faces("G6 R2 Y4 B4")
    assert obs[L.OB_ARG] == -1 and obs[L.OB_TOP] == parse_face("G6")
    moves = {f: int(obs[L.OB_MOVES + f]) for f in np.flatnonzero(obs[L.OB_MOVES : L.OB_MOVES + L.MAX_FACES])}
    assert moves == {parse_face("R2"): 2, parse_face("G6"): 1}
    assert obs[L.OB_HAND + parse_face("R2")] == 1

    pos, g = sum_jump([L.A_YES, parse_face("R2")])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "jump_card" and legal == faces("Y4 B4")  # no yes: R2 alone is no move
    assert obs[L.OB_ARG] == parse_face("R2") and obs[L.OB_HAND + parse_face("R2")] == 0
    assert obs[L.OB_SIZES] == 5  # the chosen card is still in the hand until the move goes down
    moves = {f: int(obs[L.OB_MOVES + f]) for f in np.flatnonzero(obs[L.OB_MOVES : L.OB_MOVES + L.MAX_FACES])}
    assert moves == {parse_face("Y4"): 1, parse_face("B4"): 1}


@pytest.mark.parametrize("tape, event", [
    (["R2", "B4"], {"ev": "jump", "p": 2, "cards": ["R2", "B4"], "color": "B", "sum": 6}),
    (["Y4", "R2"], {"ev": "jump", "p": 2, "cards": ["Y4", "R2"], "color": "R", "sum": 6}),
    (["B4"], {"ev": "jump", "p": 2, "cards": ["B4", "R2"], "color": "R", "sum": 6}),  # R2 forced
    (["G6"], {"ev": "jump", "p": 2, "card": "G6", "color": "G"}),  # nothing extends G6
])
def test_the_chosen_move_goes_down_in_the_order_chosen(tape, event):
    """The cards chosen go down in that order, the last on top; a card that is the only one
    that may follow, or a move nothing extends, is taken without asking."""
    for seed in (1, 2, 3):  # the seat's move comes from the tape, not from the game's generator
        pos, g = sum_jump([L.A_YES] + [parse_face(t) for t in tape], seed=seed)
        events = pos.run(1)
        assert jumps(events)[0] == event
        # after a set nobody may jump in; after G6 the seat is asked whether it jumps in again
        assert g[S.S_EXT_STOPPED] == ("card" in event)
        put_down = event.get("cards") or [event["card"]]
        assert sorted(pos.hand(2)) == sorted(set("G6 R2 B4 Y4 Y9".split()) - set(put_down))


def test_yes_is_legal_once_the_cards_chosen_are_a_move_and_more_may_follow():
    """same_color with jump_in, R5 played: R5 alone (identical), R5 + R0 and R2 + R3 (+ R0) are
    moves; after R5 the seat may stop (yes) or add R0; after R5 R0 nothing extends."""
    rules = Rules(jump_in=True, sum_jump_in="same_color")
    hands = ["R5 B8 B9", "B7 B7", "R5 R0 R2 R3 Y9", "Y1 Y7"]
    pos, g = sum_jump([L.A_YES], hands=hands, rules=rules, top="R4")
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "jump_card" and legal == faces("R5 R0 R2 R3")
    moves = {f: int(obs[L.OB_MOVES + f]) for f in np.flatnonzero(obs[L.OB_MOVES : L.OB_MOVES + L.MAX_FACES])}
    # R5 | R0 R5 | R2 R3 | R0 R2 R3, by their lowest face (R0 < R1 < ... in face order)
    assert moves == {parse_face("R5"): 1, parse_face("R0"): 2, parse_face("R2"): 1}

    pos, g = sum_jump([L.A_YES, parse_face("R5")], hands=hands, rules=rules, top="R4")
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "jump_card" and legal == faces("R0") | {L.A_YES}
    pos, g = sum_jump([L.A_YES, parse_face("R5"), L.A_YES], hands=hands, rules=rules, top="R4")
    assert jumps(pos.run(1))[0] == {"ev": "jump", "p": 2, "card": "R5", "color": "R"}
    pos, g = sum_jump([L.A_YES, parse_face("R5"), parse_face("R0")], hands=hands, rules=rules, top="R4")
    assert jumps(pos.run(1))[0] == {"ev": "jump", "p": 2, "cards": ["R5", "R0"], "color": "R", "sum": 5}
    assert g[S.S_EXT_STOPPED] == 0


def test_a_single_move_of_one_face_is_not_asked():
    """Only the identical card (no sum set): no jump_card question."""
    hands = ["G6 B8 B9", "B7 B7", "G6 Y9 Y8", "Y1 Y7"]
    pos, g = sum_jump([L.A_YES], hands=hands)
    events = pos.run(1)
    assert g[S.S_EXT_STOPPED] == 0
    assert jumps(events)[0] == {"ev": "jump", "p": 2, "card": "G6", "color": "G"}


def test_a_single_sum_set_of_two_faces_asks_for_the_order():
    """The rules let the jumper order its set: one set of R2 and Y4 is still a choice of the
    card on top, so the first card is asked."""
    hands = ["G6 B8 B9", "B7 B7", "R2 Y4 Y9", "Y1 Y7"]
    pos, g = sum_jump([L.A_YES], hands=hands)
    pos.run(1)
    question, legal, _ = asked(g)
    assert question == "jump_card" and legal == faces("R2 Y4")


def moves_taken(policy, runs: int, hands, rules, top) -> Counter:
    """How often `policy`, seated at seat 2 and jumping in, makes each move (its cards in the
    order they went down), over `runs` deals of the same position."""
    seen = Counter()
    for seed in range(runs):
        tape = [L.A_YES]
        while True:
            pos, g = sum_jump(tape, seed=seed, hands=hands, rules=rules, top=top)
            events = pos.run(1)
            if g[S.S_EXT_STOPPED] and asked(g)[0] == "jump_card":
                _, legal, obs = asked(g)
                mask = np.zeros(L.N_ACTIONS, dtype=bool)
                mask[sorted(legal)] = True
                tape.append(policy(obs, mask))
                continue
            jump = jumps(events)[0]
            seen[tuple(jump.get("cards") or [jump["card"]])] += 1
            break
    return seen


@pytest.mark.parametrize("hands, rules, top, moves", [
    (SUM_HANDS, SUM_RULES, "G3", [("G6",), ("R2", "Y4"), ("R2", "B4")]),
    (["R5 B8 B9", "B7 B7", "R5 R0 R2 R3 Y9", "Y1 Y7"], Rules(jump_in=True, sum_jump_in="same_color"), "R4",
     [("R5",), ("R0", "R5"), ("R2", "R3"), ("R0", "R2", "R3")]),
])
def test_random_bot_makes_each_move_equally_often_in_face_order(hands, rules, top, moves):
    """RandomBot as the `random` bot: uniform over the moves (not over the cards at each
    step), a set in face order. A policy uniform over the legal actions at each step is told
    apart by the same test (chi-square, level 0.001)."""
    from scipy import stats

    from uno_sim.env import RandomBot
    from uno_sim.env.policies import uniform_policy

    runs = 1200
    seen = moves_taken(RandomBot(seed=3), runs, hands, rules, top)
    assert set(seen) == set(moves), seen
    assert stats.chisquare([seen[m] for m in moves]).pvalue > 0.001, seen
    card_by_card = moves_taken(uniform_policy(seed=3), runs, hands, rules, top)
    counts = Counter({m: n for m, n in card_by_card.items()})
    by_set = Counter()
    for m, n in counts.items():
        by_set[tuple(sorted(m, key=parse_face))] += n
    assert stats.chisquare([by_set[m] for m in moves]).pvalue < 0.001, by_set


def test_after_a_sum_set_each_face_of_it_held_is_a_move_of_one_card():
    """Seat 2 puts down R1 Y2 B3 for G6; seat 3 (Python) holds R1 and B3, each a jump-in move
    of one card: it is asked which, and the card chosen is jumped in alone."""
    hands = ["G6 B8 B9", "B7 B7", "R1 Y2 B3 G7 G8", "R1 B3 G9 G8"]
    pos = Position(SUM_RULES, hands, top="G3", pile=SUM_PILE)
    g = python_seat(pos, 3, [L.A_YES])
    events = pos.run(1)
    assert jumps(events)[0]["cards"] == ["R1", "Y2", "B3"]
    question, legal, obs = asked(g)
    assert question == "jump_card" and legal == faces("R1 B3") and obs[L.OB_ARG] == -1
    assert obs[L.OB_MOVES + parse_face("R1")] == 1 and obs[L.OB_MOVES + parse_face("B3")] == 1
    pos = Position(SUM_RULES, hands, top="G3", pile=SUM_PILE)
    python_seat(pos, 3, [L.A_YES, parse_face("B3")])
    assert jumps(pos.run(1))[1] == {"ev": "jump", "p": 3, "card": "B3", "color": "B"}
