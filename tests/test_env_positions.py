"""Seats played from Python (engine/bots/external.py): the question, the legal actions and the
observation the engine writes, and what it does with the action on the tape, from concrete
positions (tests/positions.py)."""

from __future__ import annotations

import numpy as np

from positions import Position
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.game.bots import Bot
from uno_sim.game.cards import parse_face
from uno_sim.game.rules import Rules

ROOM = 4096  # the output block and the tape, at the end of the position's array


def python_seat(pos: Position, seat: int, tape: list[int]) -> np.ndarray:
    """Build the position with `seat` played from the tape (after the trace buffer)."""
    g = pos.build()
    end = len(g) - ROOM
    g[S.O_CAPACITY] = end
    g[S.O_EXT_SEATS] = 1 << seat
    g[S.O_EXT_OUT] = end
    g[S.O_EXT_TAPE] = end + L.N_ACTIONS + L.N_OBS
    g[S.O_EXT_TAPE_LEN] = len(tape)
    g[int(g[S.O_EXT_TAPE]) : int(g[S.O_EXT_TAPE]) + len(tape)] = tape
    return g


def asked(g: np.ndarray) -> tuple[str, set[int], np.ndarray]:
    assert g[S.S_EXT_STOPPED] == 1 and g[S.S_ENDED] == 1
    out = int(g[S.O_EXT_OUT])
    mask = g[out : out + L.N_ACTIONS]
    obs = g[out + L.N_ACTIONS : out + L.N_ACTIONS + L.N_OBS]
    return L.QUESTIONS[int(obs[L.OB_QUESTION])], set(np.flatnonzero(mask).tolist()), obs


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
