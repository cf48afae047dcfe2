"""Official rules (SPEC 3.1-3.3, 3.7) from concrete positions, incl. the rule sheets' examples."""

import pytest

from positions import Position, cards, start_from
from uno_sim.game.bots import Bot
from uno_sim.game.cards import parse_face
from uno_sim.engine import state as S
from uno_sim.engine.rules_check import holds_forbidding_card, legal_turn_card
from uno_sim.game.rules import Rules
from uno_sim.running.trace import decode_events

R4 = Rules(players=4)


def legal_cards(rules, hand, top, color=None):
    pos = Position(rules, [hand] + [""] * (rules.players - 1), top=top, color=color)
    g = pos.build()
    c = int(g[S.S_COLOR])
    return sorted({t for t in hand.split() if legal_turn_card(g, 0, parse_face(t), c, parse_face(top), False)})


def test_red_three_allows_any_red_card_or_any_three():
    assert legal_cards(R4, "R7 RS G3 B3 B5 Y9 W", "R3") == ["B3", "G3", "R7", "RS", "W"]


def test_yellow_draw_two_allows_any_yellow_card_or_any_draw_two():
    assert legal_cards(R4, "Y2 YS GD BD B2 RS G7", "YD") == ["BD", "GD", "Y2", "YS"]


def test_wild_top_matches_only_the_named_colour():
    assert legal_cards(R4, "G5 B5 W", "W", color="G") == ["G5", "W"]


@pytest.mark.parametrize(
    "rule, hand, guilty",
    [
        ("no_color", "W4 R2", True),  # holds a card of the current colour
        ("no_color", "W4 G5", False),  # only a same-number card of another colour
        ("no_match", "W4 G5", True),  # no_match also forbids a card matching the symbol
        ("no_match", "W4 G4 W", False),  # a Wild never counts as a matching card
        ("free", "W4 R2", False),
    ],
)
def test_wild_draw_four_guilt(rule, hand, guilty):
    pos = Position(Rules(wd4_rule=rule), [hand, "", "", ""], top="R5")
    g = pos.build()
    assert holds_forbidding_card(g, 0, 0, parse_face("R5")) == guilty
    # the random bot never bluffs: the Wild Draw Four is legal for it only when not guilty
    assert legal_turn_card(g, 0, parse_face("W4"), 0, parse_face("R5"), False) == (not guilty)


def test_wild_draw_four_against_the_rule_is_a_hard_limit_without_challenge():
    pos = Position(Rules(challenge=False), ["W4 R2", "", "", ""], top="R5")
    g = pos.build()
    assert not legal_turn_card(g, 0, parse_face("W4"), 0, parse_face("R5"), True)


def test_skip_passes_over_the_next_player():
    pos = Position(R4, ["RS G1", "B1", "B2", "B3"], top="R3")
    assert pos.run(1)[0] == {"ev": "play", "p": 0, "card": "RS", "color": "R"}
    assert pos.next_to_act == 2


def test_reverse_turns_play_counter_clockwise():
    pos = Position(R4, ["RR G1", "B1", "B2", "B3"], top="R3")
    pos.run(1)
    assert pos.direction_now == -1 and pos.next_to_act == 3


@pytest.mark.parametrize("mode, nxt", [("skip", 0), ("noop", 1)])
def test_two_player_reverse(mode, nxt):
    pos = Position(Rules(players=2, two_player_reverse=mode), ["RR G1", "B1"], top="R3")
    pos.run(1)
    assert pos.next_to_act == nxt


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn():
    pos = Position(R4, ["RD G1 G2", "B1", "B2", "B3"], top="R3", pile="Y1 Y2 Y3")
    events = pos.run(1)
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["Y1", "Y2"], "why": "penalty"}
    assert pos.next_to_act == 2
    assert pos.record["max_pending"] == 2


def test_wild_draw_four_names_a_colour_and_next_player_draws_four():
    pos = Position(R4, ["W4 G1 G2", "B1", "B2", "B3"], top="R3", pile="Y1 Y2 Y3 Y4 Y5")
    events = pos.run(1)
    assert events[0]["card"] == "W4" and events[0]["color"] in "RYGB"
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["Y1", "Y2", "Y3", "Y4"], "why": "penalty"}
    assert pos.next_to_act == 2


def _challengers():
    return [Bot("random", {"bluff_prob": 1.0}), Bot("random", {"challenge_prob": 1.0}), Bot("random"), Bot("random")]


@pytest.mark.parametrize("win_plays, nxt", [(True, 1), (False, 2)])
def test_guilty_wild_draw_four_challenged(win_plays, nxt):
    pos = Position(
        Rules(challenge_win_plays=win_plays), ["W4 R1 R2", "B1 B4", "B2", "B3"], top="R3",
        pile="Y1 Y2 Y3 Y4 Y5 Y6", bots=_challengers(),
    )
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "challenge", "draw"]
    assert events[1] == {"ev": "challenge", "p": 1, "target": 0, "guilty": True}
    assert events[2] == {"ev": "draw", "p": 0, "cards": ["Y1", "Y2", "Y3", "Y4"], "why": "challenge"}
    assert pos.hand_size(1) == 2 and pos.next_to_act == nxt
    assert pos.record["challenges"] == 1
    assert pos.color_now == events[0]["color"]  # the named colour stands


def test_innocent_wild_draw_four_challenged_costs_four_plus_extra():
    pos = Position(
        Rules(challenge_extra=2), ["W4 G1 G2", "B1", "B2", "B3"], top="R3",
        pile="Y1 Y2 Y3 Y4 Y5 Y6 Y7", bots=_challengers(),
    )
    events = pos.run(1)
    assert events[1] == {"ev": "challenge", "p": 1, "target": 0, "guilty": False}
    assert events[2] == {"ev": "draw", "p": 1, "cards": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], "why": "challenge"}
    assert pos.next_to_act == 2


def test_no_challenge_under_free_rule():
    pos = Position(Rules(wd4_rule="free"), ["W4 R1", "B1", "B2", "B3"], top="R3", pile="Y1 Y2 Y3 Y4 Y5",
                   bots=_challengers())
    events = [e for e in pos.run(1)]
    assert "challenge" not in [e["ev"] for e in events]


def test_draw_one_and_play_it():
    pos = Position(R4, ["G1 G2", "B1", "B2", "B3"], top="R3", pile="R9 Y1")
    events = pos.run(1)
    assert events == [
        {"ev": "draw", "p": 0, "cards": ["R9"], "why": "turn"},
        {"ev": "play", "p": 0, "card": "R9", "color": "R"},
    ]


@pytest.mark.parametrize("play_drawn, drawn, played", [("none", "R9", False), ("numbers", "RS", False),
                                                       ("numbers", "R9", True), ("any", "RS", True)])
def test_play_drawn(play_drawn, drawn, played):
    pos = Position(Rules(play_drawn=play_drawn), ["G1 G2", "B1", "B2", "B3"], top="R3", pile=f"{drawn} Y1")
    events = pos.run(1)
    assert (len(events) == 2 and events[1]["ev"] == "play") == played


def test_drawn_card_that_does_not_match_ends_the_turn():
    pos = Position(R4, ["G1 G2", "B1", "B2", "B3"], top="R3", pile="B9 R1")
    assert pos.run(1) == [{"ev": "draw", "p": 0, "cards": ["B9"], "why": "turn"}]
    assert pos.next_to_act == 1


def test_uno_call_and_caught_forgetter():
    pos = Position(R4, ["R1 R2", "B1", "B2", "B3"], top="R3")
    assert pos.run(1)[1] == {"ev": "uno", "p": 0}
    forgetful = [Bot("random", {"forget_uno": 1.0})] + [Bot("random")] * 3
    pos = Position(Rules(uno_penalty=2, uno_catch=1.0), ["R1 R2", "B1", "B2", "B3"], top="R3",
                   pile="Y1 Y2 Y3", bots=forgetful)
    events = pos.run(1)
    assert events[1:] == [{"ev": "caught", "p": 0}, {"ev": "draw", "p": 0, "cards": ["Y1", "Y2"], "why": "uno"}]
    pos = Position(Rules(uno_catch=0.0), ["R1 R2", "B1", "B2", "B3"], top="R3", pile="Y1 Y2 Y3", bots=forgetful)
    assert len(pos.run(1)) == 1 and pos.hand_size(0) == 1


def test_reshuffle_when_the_pile_runs_out():
    pos = Position(R4, ["G1", "B1 B2", "B2", "B3"], top="R3", pile="Y7", discard_below="G5 G6 G7", to_act=1)
    events = pos.run(1)
    assert events[0] == {"ev": "draw", "p": 1, "cards": ["Y7"], "why": "turn"}
    pos = Position(R4, ["G1", "B1 B2", "B2", "B3"], top="R3", pile="", discard_below="G5 G6 G7", to_act=1)
    events = pos.run(1)
    assert events[0]["ev"] == "reshuffle" and sorted(events[0]["pile"]) == ["G5", "G6", "G7"]
    assert events[1]["cards"] == [events[0]["pile"][0]]
    assert pos.record["reshuffles"] == 1


def test_empty_pile_void_ends_the_round_when_a_card_is_owed():
    pos = Position(Rules(empty_pile="void"), ["G1", "B1 B2", "B2", "B3"], top="R3", discard_below="G5 G6",
                   to_act=1)
    events = pos.run(1)
    assert events == []
    rec = pos.record
    assert pos.ended and rec["reason"] == "void" and rec["winner"] == -1 and rec["turns"] == 1


def test_stall_when_a_full_cycle_neither_plays_nor_draws():
    pos = Position(R4, ["G1", "B1", "B2", "B4"], top="R3")
    events = pos.run(10)
    assert events == [{"ev": "draw", "p": p, "cards": [], "why": "turn"} for p in range(4)]
    assert pos.record["reason"] == "stall" and pos.record["turns"] == 4


def test_max_turns_ends_with_cap():
    pos = Position(Rules(max_turns=3), ["G1 G2 G3", "B1 B2 B3", "Y1 Y2 Y3", "Y4 Y5 Y6"], top="R3",
                   pile="B9 B8 B7 B6 B5")
    pos.run(10)
    assert pos.record["reason"] == "cap" and pos.record["turns"] == 3


@pytest.mark.parametrize("lcp, drawn", [(True, 2), (False, 0)])
def test_last_card_penalty(lcp, drawn):
    pos = Position(Rules(last_card_penalty=lcp), ["RD", "B1", "B2", "B3"], top="R3", pile="Y9 Y8 Y7")
    pos.run(1)
    rec = pos.record
    assert rec["winner"] == 0 and rec["reason"] == "out"
    assert pos.hand_size(1) == 1 + drawn
    assert rec["points_1"] == 1 + (17 if lcp else 0)
    assert rec["winner_points"] == rec["points_1"] + 2 + 3


def test_zero_points_scores_zeros():
    for zp, pts in [(0, 0), (10, 10)]:
        pos = Position(Rules(zero_points=zp), ["R1", "B0", "G0 W", "B3"], top="R3")
        pos.run(1)
        assert pos.record["points_1"] == pts and pos.record["points_2"] == pts + 50


def test_teams_winner_points_count_only_the_other_team():
    pos = Position(Rules(teams=2), ["R1", "B5", "G7", "B3"], top="R3")
    pos.run(1)
    assert pos.record["winner_points"] == 5 + 3  # seats 1 and 3; seat 2 is the winner's partner


def _lead(rules, pile, dealer=3):
    pos = Position(rules, ["G1", "G2", "G3", "G4"], top="R3", pile=pile)
    g = pos.build()
    g[S.S_NDISC] = 0
    start_from(g, dealer)
    return pos, g


def test_lead_number_first_player_acts():
    pos, g = _lead(R4, "R5 Y1 Y2")
    assert pos.next_to_act == 0 and pos.color_now == "R"


def test_lead_skip_first_player_loses_the_turn():
    pos, g = _lead(R4, "RS Y1 Y2")
    assert pos.next_to_act == 1


@pytest.mark.parametrize("skips, nxt", [(True, 1), (False, 0)])
def test_lead_draw_two(skips, nxt):
    pos, g = _lead(Rules(lead_draw_two_skips=skips), "RD Y1 Y2 Y3")
    assert pos.hand(0) == ["Y1", "Y2", "G1"] or sorted(pos.hand(0)) == sorted(["Y1", "Y2", "G1"])
    assert pos.next_to_act == nxt and pos.record["max_pending"] == 2 and pos.record["draws"] == 2


@pytest.mark.parametrize("lead_reverse, nxt", [("dealer", 3), ("right", 2), ("left", 0)])
def test_lead_reverse(lead_reverse, nxt):
    pos, g = _lead(Rules(lead_reverse=lead_reverse), "RR Y1 Y2")
    assert pos.direction_now == -1 and pos.next_to_act == nxt


def test_lead_wild_draw_four_goes_back():
    pos, g = _lead(R4, "W4 W4 W4 W4 R5")
    assert int(g[S.O_DISC]) == parse_face("R5")
    assert int(g[S.S_NPILE]) == 4


def test_lead_nothing_acceptable_is_void():
    pos, g = _lead(R4, "W4 W4")
    assert pos.ended and pos.record["reason"] == "void"
    pos, g = _lead(Rules(first_card="number"), "RS W Y1")
    assert int(g[S.O_DISC]) == parse_face("Y1")


def test_lead_wild_first_player_names_the_colour():
    pos, g = _lead(R4, "W Y1")
    written = g[S.O_TRACE : int(g[S.S_TPOS])]
    events = list(decode_events(written, len(written), 4))
    assert [e["ev"] for e in events] == ["lead", "choose"]
    assert events[1]["p"] == 0 and events[1]["color"] == pos.color_now  # left of dealer 3 names it
    assert pos.next_to_act == 0


def test_number_finish_forbids_a_wild_as_last_card():
    pos = Position(Rules(number_finish=True), ["W", "B1", "B2", "B3"], top="R3", pile="G9 Y1")
    events = pos.run(1)
    assert events == [{"ev": "draw", "p": 0, "cards": ["G9"], "why": "turn"}]
    pos = Position(Rules(number_finish=False), ["W", "B1", "B2", "B3"], top="R3", pile="G9 Y1")
    assert pos.run(1)[0]["ev"] == "play"


def test_cards_helper_parses_text():
    assert cards("R5 W4") == [5, 53]
