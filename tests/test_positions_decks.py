"""The cards of other decks (docs/RULES.md, "Cards of other decks") from concrete positions:
stacking by value, Skip Everyone, Discard All, forced play of a drawn card, a reverse with a
draw between two players, the lead card and challenges of other kinds."""

import numpy as np

from positions import Position, start_from
from uno_sim.engine import state as S
from uno_sim.game.bots import Bot
from uno_sim.game.decks import CLASSIC, NO_MERCY, Kind, build_deck
from uno_sim.game.rules import Rules

BY_VALUE = Rules(stack_by_value=True)


def discard_pile(pos):
    """The discard pile, bottom first, as texts."""
    g = pos.g
    return [pos.table.texts[int(f)] for f in g[S.O_DISC : S.O_DISC + int(g[S.S_NDISC])]]


# ---------------------------------------------------------------- stacking by value


def test_a_wild_draw_six_answers_a_pending_draw_two():
    pos = Position(BY_VALUE, ["RD G1 G2", "W6 Y5 Y6", "Y1 Y2", "Y3"], top="R3", pile=" ".join(["B1"] * 9),
                   deck=NO_MERCY)
    events = pos.run(3)
    assert [(e["ev"], e["p"]) for e in events] == [("play", 0), ("play", 1), ("draw", 2)]
    assert events[1]["card"] == "W6"
    assert events[2] == {"ev": "draw", "p": 2, "cards": ["B1"] * 8, "why": "penalty"}
    assert pos.record["max_pending"] == 8 and pos.next_to_act == 3


def test_a_draw_two_cannot_answer_a_wild_draw_six():
    pos = Position(BY_VALUE, ["G1", "RD BD GD YD R4", "Y1", "Y3"], top="W6", color="R", pending=6, pending_draw=6,
                   to_act=1, pile=" ".join(["B1"] * 7), deck=NO_MERCY)
    events = pos.run(1)
    assert events == [{"ev": "draw", "p": 1, "cards": ["B1"] * 6, "why": "penalty"}]
    assert pos.next_to_act == 2 and pos.pending_now == 0


def test_an_answer_of_equal_value_in_another_colour_and_kind():
    # a pending coloured Draw Four (red) is answered by a Wild Reverse Draw Four, whatever the colour
    pos = Position(BY_VALUE, ["G1", "WR4 Y5", "Y1 Y2", "Y3 Y4"], top="RD4", pending=4, pending_draw=4, to_act=1,
                   pile=" ".join(["B1"] * 9), deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["card"] == "WR4"
    assert pos.pending_now == 8 and pos.direction_now == -1 and pos.next_to_act == 0  # reversed: p0 is next


def test_any_colour_of_draw_two_answers_on_the_classic_deck():
    pos = Position(BY_VALUE, ["G1", "BD Y5", "Y1 Y2", "Y3"], top="RD", pending=2, pending_kind=2, to_act=1,
                   pile="B1 B2 B3 B4 B5")
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 1, "card": "BD", "color": "B"}
    assert pos.pending_now == 4 and pos.next_to_act == 2


def test_answering_wild_draw_four_ignores_wd4_rule_and_is_not_challenged():
    bots = [Bot("random", {"challenge_prob": 1.0})] * 4
    pos = Position(BY_VALUE, ["G1", "W4 R5 R6", "Y1 Y2", "Y3"], top="RD", pending=2, pending_kind=2, to_act=1,
                   bots=bots, pile=" ".join(["B1"] * 9))
    events = pos.run(2)
    assert [e["ev"] for e in events] == ["play", "draw"] and events[0]["card"] == "W4"
    assert len(events[1]["cards"]) == 6 and pos.record["challenges"] == 0


def test_the_first_wild_draw_four_of_a_chain_can_be_challenged():
    bots = [Bot("random"), Bot("random", {"challenge_prob": 1.0}), Bot("random"), Bot("random")]
    pos = Position(BY_VALUE, ["W4 G1 G2", "Y5", "Y1 Y2", "Y3"], top="R3", bots=bots, pile=" ".join(["B1"] * 9))
    events = pos.run(2)
    assert [e["ev"] for e in events] == ["play", "challenge", "draw"]
    assert events[1] == {"ev": "challenge", "p": 1, "target": 0, "guilty": False}
    assert len(events[2]["cards"]) == 6 and events[2]["p"] == 1


def test_random_bot_answers_uniformly_among_every_legal_answer():
    seen = set()
    for seed in range(40):
        pos = Position(BY_VALUE, ["G1", "W6 W10 BD Y5 WC", "Y1", "Y3"], top="RD", pending=2, pending_kind=2,
                       to_act=1, pile=" ".join(["B1"] * 20), deck=NO_MERCY, seed=seed)
        events = pos.run(1)
        assert events[0]["ev"] == "play"  # it always answers when it can
        seen.add(events[0]["card"])
    assert seen == {"W6", "W10", "BD"}  # never the roulette card nor a number


def test_expert_answers_with_the_smallest_sufficient_draw_card():
    bots = [Bot("expert")] * 4
    pos = Position(BY_VALUE, ["G1", "W10 W6 BD Y5", "Y1", "Y3"], top="RD", pending=2, pending_kind=2, to_act=1,
                   bots=bots, pile=" ".join(["B1"] * 20), deck=NO_MERCY)
    assert pos.run(1)[0]["card"] == "BD"
    pos = Position(BY_VALUE, ["G1", "W10 W6 BD Y5", "Y1", "Y3"], top="RD4", pending=4, pending_draw=4, to_act=1,
                   bots=bots, pile=" ".join(["B1"] * 20), deck=NO_MERCY)
    assert pos.run(1)[0]["card"] == "W6"


def test_without_stack_by_value_other_draw_kinds_act_at_once_and_never_answer():
    rules = Rules(stack_draw_two=True, stack_draw_four=True)
    pos = Position(rules, ["W6 G1 G2", "Y5 Y6", "Y1 Y2", "Y3"], top="R3", pile=" ".join(["B1"] * 9), deck=NO_MERCY)
    events = pos.run(1)
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["B1"] * 6, "why": "penalty"}
    assert pos.next_to_act == 2 and pos.pending_now == 0 and pos.record["max_pending"] == 6
    # a pending Draw Two chain is not answered by a Wild Draw Six nor a coloured Draw Four
    pos = Position(rules, ["G1", "W6 RD4 Y5", "Y1", "Y3"], top="RD", pending=2, pending_kind=2, to_act=1,
                   pile=" ".join(["B1"] * 9), deck=NO_MERCY)
    assert pos.run(1) == [{"ev": "draw", "p": 1, "cards": ["B1"] * 2, "why": "penalty"}]


# ---------------------------------------------------------------- Skip Everyone


def test_skip_everyone_with_four_players_gives_its_player_another_turn():
    pos = Position(Rules(), ["RE G7 G8", "B1", "B2", "B3"], top="R3", pile="Y1 Y2", deck=NO_MERCY)
    events = pos.run(2)
    assert events[0] == {"ev": "play", "p": 0, "card": "RE", "color": "R"}
    assert events[1] == {"ev": "draw", "p": 0, "cards": ["Y1"], "why": "turn"}  # its next turn
    assert pos.record["turns"] == 2


def test_skip_everyone_with_two_players_is_one_skip():
    pos = Position(Rules(players=2), ["RE G7 G8", "B1"], top="R3", pile="Y1 Y2", deck=NO_MERCY)
    pos.run(1)
    assert pos.next_to_act == 0


def test_several_skip_everyone_in_a_multi_play_skip_everyone_once():
    rules = Rules(multi_play="identical")
    pos = Position(rules, ["RE RE G1 G2", "B1", "B2", "B3"], top="R3", pile="Y1", deck=NO_MERCY,
                   bots=[Bot("greedy")] * 4)
    events = pos.run(1)
    assert events[0]["cards"] == ["RE", "RE"] and pos.next_to_act == 0


# ---------------------------------------------------------------- Discard All


def test_discard_all_puts_down_every_other_card_of_its_colour_under_it():
    pos = Position(Rules(), ["RA R5 R7 RS Y2", "B1 B2", "B3", "B4"], top="GA", color="G", pile="Y1",
                   deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["ev"] == "play" and events[0]["p"] == 0 and events[0]["card"] == "RA"
    assert events[0]["color"] == "R" and sorted(events[0]["discard"]) == ["R5", "R7", "RS"]
    assert pos.hand(0) == ["Y2"] and events[1] == {"ev": "uno", "p": 0}
    assert discard_pile(pos)[-1] == "RA" and sorted(discard_pile(pos)[1:4]) == ["R5", "R7", "RS"]
    assert pos.record["plays"] == 4 and pos.next_to_act == 1  # the Skip taken down skips nobody


def test_a_discard_all_with_nothing_else_of_its_colour_lists_an_empty_discard():
    """SPEC 10.6: the play of a Discard All carries `discard`, here the empty list (the trace
    left the field out, and the checker reads a missing field as a different play)."""
    pos = Position(Rules(), ["RA Y2 Y3", "B1 B2", "B3", "B4"], top="GA", color="G", pile="Y1", deck=NO_MERCY)
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "RA", "color": "R", "discard": []}
    assert pos.hand(0) == ["Y2", "Y3"] and pos.record["plays"] == 1


def test_discard_all_that_empties_the_hand_goes_out_and_is_refused_by_number_finish():
    pos = Position(Rules(), ["RA R5 R7", "B1 B2", "B3", "B4"], top="GA", color="G", deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["discard"] == ["R5", "R7"] and pos.ended and pos.record["winner"] == 0
    pos = Position(Rules(number_finish=True), ["RA R5 R7", "B1 B2", "B3", "B4"], top="GA", color="G",
                   pile="Y9", deck=NO_MERCY)
    events = pos.run(1)
    assert events == [{"ev": "draw", "p": 0, "cards": ["Y9"], "why": "turn"}]


def test_a_discard_all_in_a_multi_play_discards_each_colour():
    rules = Rules(multi_play="same_symbol")
    pos = Position(rules, ["RA BA R5 B7 G1", "Y1 Y2", "Y3", "Y4"], top="GA", color="G", deck=NO_MERCY,
                   bots=[Bot("greedy")] * 4)
    events = pos.run(1)
    assert sorted(events[0]["cards"]) == ["BA", "RA"]
    assert sorted(events[0]["discard"]) == ["B7", "R5"] and pos.hand(0) == ["G1"]
    assert discard_pile(pos)[-1] == events[0]["cards"][-1] and pos.record["plays"] == 4


def test_a_jumped_in_discard_all_takes_the_jumpers_colour_down():
    pos = Position(Rules(jump_in=True), ["RA R5 Y1", "B1 B2", "RA R8 R9 Y2", "B3 B4"], top="GA", color="G",
                   deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["discard"] == ["R5"] and events[1] == {"ev": "uno", "p": 0}
    assert events[2] == {"ev": "jump", "p": 2, "card": "RA", "color": "R", "discard": ["R8", "R9"]}
    assert pos.hand(2) == ["Y2"] and pos.next_to_act == 3 and pos.record["plays"] == 5
    assert discard_pile(pos)[-3:] == ["R8", "R9", "RA"]


# ---------------------------------------------------------------- forced play of a drawn card


def _expert_keeps_a_drawn_wild_draw_four(must):
    rules = Rules(must_play_drawn=must)
    bots = [Bot("expert")] * 4
    return Position(rules, ["G1 G2 G3 G4 G5", "B1 B2 B3 B4", "B5 B6 B7 B8", "Y1 Y2 Y3 Y4"], top="R9",
                    pile="W4 Y5 Y6 Y7 Y8", bots=bots)


def test_must_play_drawn_forces_a_playable_drawn_card():
    pos = _expert_keeps_a_drawn_wild_draw_four(False)
    events = pos.run(1)
    assert events == [{"ev": "draw", "p": 0, "cards": ["W4"], "why": "turn"}]  # expert keeps it
    pos = _expert_keeps_a_drawn_wild_draw_four(True)
    events = pos.run(1)
    assert events[0]["ev"] == "draw" and events[1]["ev"] == "play" and events[1]["card"] == "W4"


def test_must_play_drawn_forces_no_bluff():
    # expert draws rather than play a 7 whose swap brings a larger hand; the Wild Draw Four it draws
    # would be a bluff (it holds red), so it is not forced
    rules = Rules(must_play_drawn=True, seven_swap=True)
    pos = Position(rules, ["R7 G1 G2 G3", "B1 B2 B3 B4 B5 B6", "Y1 Y2 Y3 Y4 Y5 Y6", "G4 G5 G6 G7 G8 G9"],
                   top="R9", pile="W4 Y7", bots=[Bot("expert")] * 4)
    assert pos.run(1) == [{"ev": "draw", "p": 0, "cards": ["W4"], "why": "turn"}]
    assert pos.next_to_act == 1


# ---------------------------------------------------------------- a reverse with a draw, two players


def test_two_player_reverse_draw_hits_its_own_player():
    pos = Position(Rules(players=2), ["WR4 G1 G2", "B1 B2"], top="R3", pile="Y1 Y2 Y3 Y4 Y5", deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["card"] == "WR4"
    assert events[1] == {"ev": "draw", "p": 0, "cards": ["Y1", "Y2", "Y3", "Y4"], "why": "penalty"}
    assert pos.next_to_act == 1


def test_two_player_reverse_draw_under_stacking_is_pending_on_its_player():
    pos = Position(Rules(players=2, stack_by_value=True), ["G1", "WR4 G2 G3"], top="RD", pending=2,
                   pending_kind=2, to_act=1, pile=" ".join(["Y1"] * 12), deck=NO_MERCY)
    events = pos.run(1)
    assert events[0]["card"] == "WR4" and pos.next_to_act == 1 and pos.pending_now == 6
    events = pos.run(1)
    assert events == [{"ev": "draw", "p": 1, "cards": ["Y1"] * 6, "why": "penalty"}]
    assert pos.next_to_act == 0


def test_a_winning_reverse_draw_hits_the_other_player():
    pos = Position(Rules(players=2), ["WR4", "B1 B2"], top="R3", pile="Y1 Y2 Y3 Y4 Y5", deck=NO_MERCY)
    events = pos.run(1)
    assert events[1] == {"ev": "draw", "p": 1, "cards": ["Y1", "Y2", "Y3", "Y4"], "why": "penalty"}
    assert pos.record["winner"] == 0


def test_a_reverse_skip_kind_between_two_players_is_one_skip():
    deck = build_deck("classic", kinds=[Kind("X", True, 2, skip=1, reverse=True)])
    pos = Position(Rules(players=2), ["RX G1", "B1 B2"], top="R3", pile="Y1", deck=deck)
    pos.run(1)
    assert pos.next_to_act == 0
    pos = Position(Rules(players=3), ["RX G1", "B1 B2", "B3"], top="R3", pile="Y1", deck=deck)
    pos.run(1)
    assert pos.direction_now == -1 and pos.next_to_act == 1  # reversed, then the next (p2) skipped


# ---------------------------------------------------------------- lead card and challenges


def _lead(deck, pile, rules=Rules()):
    pos = Position(rules, ["G1", "G2", "G3", "G4"], top="G5", pile=pile, deck=deck)
    g = pos.build()
    g[S.S_NDISC] = 0
    start = int(g[S.S_TPOS])
    start_from(g, 3)
    from uno_sim.running.trace import decode_events

    end = int(g[S.S_TPOS])
    return pos, list(decode_events(g[start:end], end - start, 4, pos.table.texts))


def test_a_lead_card_of_another_kind_goes_back():
    pos, events = _lead(NO_MERCY, "RE R5 R6 R7")
    assert events[0] == {"ev": "lead", "card": "RE"} and events[1]["ev"] == "return"


def test_a_lead_draw_two_kind_draws_its_own_draw():
    deck = build_deck("classic", kinds=[Kind("D", True, 2, draw=3)])
    pos, events = _lead(deck, "RD Y1 Y2 Y3 Y4")
    assert events[0] == {"ev": "lead", "card": "RD"}
    assert events[1] == {"ev": "draw", "p": 0, "cards": ["Y1", "Y2", "Y3"], "why": "lead"}


def test_challenge_of_a_restricted_kind_uses_its_own_draw():
    deck = build_deck("classic", kinds=[Kind("W4", False, 4, draw=6, restricted=True)])
    bots = [Bot("random"), Bot("random", {"challenge_prob": 1.0}), Bot("random"), Bot("random")]
    pos = Position(Rules(), ["W4 G1 G2", "B1 B4", "B2", "B3"], top="R3", pile=" ".join(["Y1"] * 10),
                   bots=bots, deck=deck)
    events = pos.run(1)
    assert events[1] == {"ev": "challenge", "p": 1, "target": 0, "guilty": False}
    assert events[2] == {"ev": "draw", "p": 1, "cards": ["Y1"] * 8, "why": "challenge"}  # 6 + 2
    bots[0] = Bot("random", {"bluff_prob": 1.0})
    pos = Position(Rules(), ["W4 R1 R2", "B1 B4", "B2", "B3"], top="R3", pile=" ".join(["Y1"] * 10),
                   bots=bots, deck=deck)
    events = pos.run(1)
    assert events[1]["guilty"] is True
    assert events[2] == {"ev": "draw", "p": 0, "cards": ["Y1"] * 6, "why": "challenge"}


def test_classic_deck_tables_unchanged_by_the_new_columns():
    assert CLASSIC.faces().discard_color.sum() == 0 and NO_MERCY.faces().discard_color.sum() == 4
    assert np.array_equal(CLASSIC.faces().skip[CLASSIC.faces().skip > 0], [1, 1, 1, 1])


# ---------------------------------------------------------------- the trace


def test_trace_deal_lists_the_deck_unless_classic():
    from uno_sim.running.trace import trace_one

    rules = Rules(stack_by_value=True, must_play_drawn=True, draw_rule="until_playable")
    events, record = trace_one(rules, [Bot("random")] * 4, 12345, 0, deck=NO_MERCY)
    assert events[0]["deck"] == NO_MERCY.as_list(0)
    texts = set(NO_MERCY.faces().texts)
    held = [c for h in events[0]["hands"] for c in h] + events[0]["pile"]
    assert len(held) == 168 and set(held) <= texts
    events, _ = trace_one(Rules(), [Bot("random")] * 4, 12345, 0)
    assert "deck" not in events[0]


def test_many_no_mercy_games_keep_every_card():
    """Whole traced games with the no-mercy deck's cards: every card is somewhere at the end."""
    from collections import Counter

    from uno_sim.running.trace import trace_one

    rules = Rules(stack_by_value=True, must_play_drawn=True, draw_rule="until_playable", multi_play="same_symbol",
                  jump_in=True)
    bots = [Bot("random"), Bot("expert"), Bot("greedy"), Bot("random", {"jump_in_prob": 1.0})]
    discards = 0
    for game in range(30):
        events, record = trace_one(rules, bots, 99, game, deck=NO_MERCY)
        hands = [Counter(h) for h in events[0]["hands"]]
        for e in events:
            if e["ev"] == "draw":
                hands[e["p"]].update(e["cards"])
            elif e["ev"] in ("play", "jump"):
                put = e.get("cards") or [e["card"]]
                put = put + e.get("discard", [])
                discards += len(e.get("discard", []))
                hands[e["p"]].subtract(put)
                assert min(hands[e["p"]].values(), default=0) >= 0
        assert [sum(h.values()) for h in hands] == events[-1]["cards"]
    assert discards > 0
