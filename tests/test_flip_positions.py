"""UNO Flip from concrete positions (docs/RULES.md, "Two-sided decks"): the flip and
`flip_discard`, the colour after a flip, the steps after the flip reading the face played, no
window after a flip, a Flip card that empties its hand, Wild Draw Colour, and the lead kinds."""

from flip_positions import FlipPosition
from uno_sim.game.bots import Bot
from uno_sim.game.decks import FLIP, Kind, TwoSidedDeck
from uno_sim.game.rules import Rules

FLIP_RULES = Rules(deck="flip")
TOP = Rules(deck="flip", flip_discard="top")


def test_a_flip_turns_the_discard_pile_over_as_a_whole():
    pos = FlipPosition(FLIP_RULES, ["RF/PF G2/T1 B6/V2", "Y1/O1 B2/V2", "G1/P1", "B1/T2"], top="R3/O7",
                       discard_below="G4/V9 Y5/P3", pile="Y2/T3 B4/O4 G7/P7")
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "RF/PF", "color": "V"}
    # the pile turned over as one stack: its bottom card is on top, its colour in force
    assert events[1] == {"ev": "flip", "p": 0, "side": "dark", "top": "G4/V9"}
    assert pos.side_now == "dark" and pos.color_now == "V"
    assert pos.discard_pile() == ["RF/PF", "R3/O7", "Y5/P3", "G4/V9"]
    assert pos.draw_pile() == ["G7/P7", "B4/O4", "Y2/T3"]  # the draw pile's order reverses too
    assert pos.next_to_act == 1 and pos.record["flips"] == 1
    assert pos.face_counts_match_cards()  # every hand is read on the dark side now


def test_with_flip_discard_top_each_card_turns_in_place():
    pos = FlipPosition(TOP, ["RF/PF G2/T1 B6/V2", "Y1/O1 B2/V2", "G1/P1", "B1/T2"], top="R3/O7",
                       discard_below="G4/V9 Y5/P3", pile="Y2/T3 B4/O4")
    events = pos.run(1)
    assert events[1] == {"ev": "flip", "p": 0, "side": "dark", "top": "RF/PF"}
    assert events[0]["color"] == "P" and pos.color_now == "P"
    assert pos.discard_pile() == ["G4/V9", "Y5/P3", "R3/O7", "RF/PF"]
    assert pos.draw_pile() == ["B4/O4", "Y2/T3"]


def test_a_wild_top_after_a_flip_has_its_colour_named_by_the_flipper():
    pos = FlipPosition(FLIP_RULES, ["RF/PF G2/T1 B6/V2", "Y1/O1", "G1/P1", "B1/T2"], top="R3/O7",
                       discard_below="Y5/W", pile="Y2/T3")
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "flip", "choose"]
    assert events[1]["top"] == "Y5/W" and events[2]["p"] == 0
    assert events[2]["color"] in ("P", "T", "O", "V") and events[0]["color"] == events[2]["color"]


def test_the_steps_after_a_flip_read_the_face_played_and_a_flip_flips_back():
    # a light Flip card with a skip (a DIY kind): after the flip its skip still hits the next player
    light = tuple(k if k.text != "F" else Kind("F", True, 2, points=20, flip=True, skip=1) for k in FLIP.light.kinds)
    deck = TwoSidedDeck(light, FLIP.dark.kinds)
    pos = FlipPosition(FLIP_RULES, ["RF/P3 G2/T1 B6/V2", "Y1/O1", "G1/P1 G2/P2", "B1/T2"], top="R3/O7", pile="Y2/T3",
                       deck=deck)
    pos.run(1)
    assert pos.next_to_act == 2 and pos.side_now == "dark"
    # the dark side's Flip card turns everything back to light
    pos = FlipPosition(FLIP_RULES, ["R9/PF G1/T1 B6/V2", "Y1/O1", "G1/P1", "B1/T2"], top="G7/P4", side="dark",
                       pile="Y2/T3")
    events = pos.run(1)
    assert events[1] == {"ev": "flip", "p": 0, "side": "light", "top": "G7/P4"}
    assert pos.side_now == "light" and pos.color_now == "G" and pos.face_counts_match_cards()


def test_a_flip_opens_no_jump_in_window():
    rules = Rules(deck="flip", jump_in=True)
    bots = [Bot("random", {"jump_in_prob": 1.0})] * 4
    # seat 2 holds a card identical to the Flip card's dark face (the top card after a `top` flip)
    pos = FlipPosition(rules.with_overrides({"flip_discard": "top"}), ["RF/PF G2/T1 B6/V2", "Y1/O1", "G1/PF", "B1/T2"],
                       top="R3/O7", pile="Y2/T3", bots=bots)
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "flip"]
    assert pos.next_to_act == 1


def test_a_flip_card_that_empties_its_hand_still_flips_and_the_hands_score_on_the_new_side():
    pos = FlipPosition(FLIP_RULES, ["RF/PF", "Y1/OE", "G1/WDC", "B1/T2"], top="R3/O7", pile="Y2/T3")
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "flip"]
    record = pos.record
    assert record["winner"] == 0 and record["side"] == "dark" and record["flips"] == 1
    # scored on the dark side: OE (skip everyone) 30, WDC 60, T2 2
    assert [record[f"points_{q}"] for q in range(4)] == [0, 30, 60, 2]


def test_a_wild_draw_colour_victim_turns_up_cards_until_the_colour_named():
    pos = FlipPosition(FLIP_RULES, ["R9/WDC R2/T1 B6/V2", "Y1/O1", "G1/P2", "B1/T2"], top="G7/P4", side="dark",
                       pile="Y2/T3 B4/O4 Y6/W G7/P7 B8/V8")
    events = pos.run(1)
    assert events[0]["ev"] == "play" and events[0]["card"] == "R9/WDC"
    named = events[0]["color"]
    draw = events[1]
    assert draw["ev"] == "draw" and draw["p"] == 1 and draw["why"] == "draw_color"
    # the cards up to the first of the named colour (a wild face never counts)
    pile = ["Y2/T3", "B4/O4", "Y6/W", "G7/P7", "B8/V8"]
    upto = next(i for i, t in enumerate(pile) if t.split("/")[1][0] == named and t.split("/")[1] != "W")
    assert draw["cards"] == pile[: upto + 1]
    assert pos.next_to_act == 2 and pos.record["draws"] == upto + 1


def test_the_random_bot_never_challenges_a_wild_draw_colour():
    bots = [Bot("random", {"challenge_prob": 1.0})] * 4
    pos = FlipPosition(FLIP_RULES, ["R9/WDC R2/T1 B6/V2", "Y1/O1", "G1/P2", "B1/T2"], top="G7/O4", side="dark",
                       pile="Y2/T3 B4/O4 G7/P7 B8/T8 R2/V2", bots=bots)
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "draw"]


def test_a_lead_flip_card_turns_everything_over_before_the_first_turn():
    pos = FlipPosition(FLIP_RULES, ["R1/T1", "Y1/O1", "G1/P1", "B1/T2"], top="RF/O5", pile="Y2/T3 B4/O4")
    events = pos.lead(dealer=3)
    assert events[:2] == [{"ev": "lead", "card": "RF/O5"}, {"ev": "flip", "p": -1, "side": "dark", "top": "RF/O5"}]
    assert pos.side_now == "dark" and pos.color_now == "O" and pos.next_to_act == 0


def test_lead_skip_everyone_gives_the_dealer_the_first_turn_and_draw_one_makes_the_first_player_draw():
    pos = FlipPosition(FLIP_RULES, ["R1/T1", "Y1/O1", "G1/P1", "B1/T2"], top="G7/OE", side="dark",
                       pile="Y2/T3 B4/O4")
    pos.lead(dealer=3)
    assert pos.next_to_act == 3
    pos = FlipPosition(FLIP_RULES, ["R1/T1", "Y1/O1", "G1/P1", "B1/T2"], top="RD1/O5", pile="Y2/T3 B4/O4")
    events = pos.lead(dealer=3)
    assert events == [{"ev": "lead", "card": "RD1/O5"}, {"ev": "draw", "p": 0, "cards": ["Y2/T3"], "why": "lead"}]
    assert pos.next_to_act == 1  # lead_draw_two_skips: the draw costs the first player the turn


def test_a_drawn_card_played_is_that_very_card_not_another_showing_the_same_face():
    """number_finish: a lone W2 may not be the last card, so seat 0 draws; the drawn card is
    another W2 (light side) and is played: the card put down is the one drawn (W2/P9), the
    other (W2/T7) stays in the hand, whichever card the uniform pick among the hand's W2s
    would have taken (several seeds)."""
    for seed in range(8):
        pos = FlipPosition(Rules(deck="flip", players=2, number_finish=True), ["W2/T7", "R3/P6 G4/O2"], top="R8/P8",
                           pile="W2/P9 B4/O4", bots=[Bot("random"), Bot("random")], seed=seed)
        events = pos.run(1)
        assert events[0] == {"ev": "draw", "p": 0, "cards": ["W2/P9"], "why": "turn"}
        assert events[1]["ev"] == "play" and events[1]["card"] == "W2/P9", events
        assert pos.hand(0) == ["W2/T7"] and pos.face_counts_match_cards()

