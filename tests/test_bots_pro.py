"""The `pro` bot (docs/BOTS.md): each of its own decisions from a concrete position, and what
the table saw that it reads (a player's draw recorded as what that player lacks)."""

import numpy as np
import pytest

from positions import Position
from replay import assert_clean
from uno_sim.engine import state as S
from uno_sim.engine.bots import pro
from uno_sim.game.bots import Bot
from uno_sim.game.cards import COLORS
from uno_sim.game.presets import load as load_preset, preset_names
from uno_sim.game.rules import Rules

PRO, RANDOM = Bot("pro"), Bot("random")
FULL = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"  # an opponent far from going out
PILE = "B1 B2 B3 B4 B5 B6 B7 B8 B9 G9 G8 G7 G6"
RED, BLUE = COLORS.index("R"), COLORS.index("B")


def position(rules, hand, top, others=(FULL, FULL, FULL), pile=PILE, lacks=None, **kw):
    n = rules.players
    pos = Position(rules, [hand, *others][:n], top=top, pile=pile, bots=[PRO] + [RANDOM] * (n - 1), **kw)
    pos.build()
    for seat, bits in (lacks or {}).items():
        pos.g[S.O_LACKS + seat] = bits
    return pos


def first(rules, hand, top, **kw):
    pos = position(rules, hand, top, **kw)
    return pos.run(1)[0], pos


def played(rules, hand, top, **kw):
    ev, _ = first(rules, hand, top, **kw)
    assert ev["ev"] == "play", ev
    return ev["card"]


def lacking(*colours, wild=True):
    bits = sum(1 << COLORS.index(c) for c in colours)
    return bits | ((1 << S.LACK_WILD) if wild else 0)


# ---------------------------------------------------------------- what the table saw


def test_a_turn_draw_records_the_colour_the_wild_cards_and_the_kind_the_player_lacked():
    pos = Position(Rules(players=2), ["R1 R2 G5 G6", "G1 G2 G3"], top="R7", pile="B1 B2",
                   bots=[PRO, RANDOM], to_act=1)
    assert pos.run(1) == [{"ev": "draw", "p": 1, "cards": ["B1"], "why": "turn"}]
    slot7 = 7  # classic deck: the number's slot
    assert pos.g[S.O_LACKS + 1] == (1 << RED) | (1 << S.LACK_WILD) | (1 << (S.LACK_SLOT0 + slot7))
    assert pos.g[S.O_LACKS + 0] == 0


def test_taking_cards_forgets_what_was_seen_and_a_swap_moves_it_with_the_hand():
    # seat 0 (random) plays a Draw Two on seat 1, who was seen to lack red: it takes 2 cards
    pos = Position(Rules(players=3), ["RD G9", "G1 G2 G3", FULL], top="R7", pile=PILE, bots=[RANDOM] * 3)
    pos.build()
    pos.g[S.O_LACKS + 1] = lacking("R")
    pos.run(2)
    assert pos.hand_size(1) == 5 and pos.g[S.O_LACKS + 1] == 0
    # a 7-swap: seat 0 swaps with the smallest hand (seat 2); what was seen of each hand follows it
    pos = Position(Rules(players=3, seven_swap=True), ["R7 G1 G2", FULL, "B1 B2"], top="R5", pile=PILE,
                   bots=[PRO, RANDOM, RANDOM])
    pos.build()
    pos.g[S.O_LACKS + 2] = lacking("R")
    pos.run(1)
    assert pos.g[S.O_LACKS + 0] == lacking("R") and pos.g[S.O_LACKS + 2] == 0


# ---------------------------------------------------------------- which card


def test_pro_keeps_wild_cards_while_a_coloured_card_can_be_played():
    assert played(Rules(), "W W4 R2 G1", "R5") == "R2"


def test_pro_moves_to_the_colour_it_holds_most():
    assert played(Rules(), "R2 B5 B1 B3 B7", "R5") == "B5"


def test_pro_draws_rather_than_play_a_wild_card_with_many_other_cards():
    # a Wild with more than 2 other cards, a Wild Draw Four with more than 4: it draws
    ev, pos = first(Rules(), "W G1 G2 G3", "R5")
    assert ev == {"ev": "draw", "p": 0, "cards": ["B1"], "why": "turn"} and "W" in pos.hand(0)
    assert played(Rules(), "W G1 G2", "R5") == "W"
    ev, _ = first(Rules(), "W4 G1 G2 G3 G4 G6", "R5")
    assert ev["ev"] == "draw"
    assert played(Rules(), "W4 G1 G2 G3 G4", "R5") == "W4"
    # it must play when drawing is no choice, plays it when a draw would be until a playable card,
    # and against a player close to going out
    assert played(Rules(voluntary_draw=False), "W G1 G2 G3", "R5") == "W"
    assert played(Rules(draw_rule="until_playable"), "W G1 G2 G3", "R5") == "W"
    assert played(Rules(), "W4 G1 G2 G3 G4 G6", "R5", others=(FULL.replace("Y3 Y4 Y5 Y6 Y7", ""), FULL, FULL)) == "W4"


def test_pro_at_two_players_draws_rather_than_play_a_wild_draw_four_beside_more_than_3_cards():
    ev, _ = first(Rules(players=2), "W4 G1 G2 G3 G4", "R5", others=(FULL,))
    assert ev["ev"] == "draw"
    assert played(Rules(players=2), "W4 G1 G2 G3", "R5", others=(FULL,)) == "W4"


def test_pro_against_a_last_card_plays_what_it_cannot_follow_over_the_colour_it_keeps():
    # the next player was seen to lack blue and wild cards: after B5 only another 5 follows,
    # after R2 any red card or 2. With one card left that chance outweighs the red kept; with two
    # cards the red kept decides
    hand = "R2 R3 B5"
    assert played(Rules(players=2), hand, "R5", others=("G7",), lacks={1: lacking("B")}) == "B5"
    assert played(Rules(players=2), hand, "R5", others=("G7 G8",), lacks={1: lacking("B")}) == "R2"


def test_pro_plays_a_drawn_wild_card_only_with_a_small_hand():
    pos = position(Rules(), "G1 G2 G3", "R6", pile="W B1 B2")
    assert pos.run(1) == [{"ev": "draw", "p": 0, "cards": ["W"], "why": "turn"}]
    assert "W" in pos.hand(0) and pos.next_to_act == 1
    pos = position(Rules(), "G1", "R6", pile="W B1 B2")
    events = pos.run(1)
    assert events[1]["ev"] == "play" and events[1]["card"] == "W"


def test_pro_attacks_a_next_player_close_to_going_out():
    close = ("G1 G2", FULL, FULL)
    assert played(Rules(), "R4 RS RD W4", "R5", others=close) == "RD"
    assert played(Rules(), "R4 RS RR", "R5", others=close) == "RS"
    assert played(Rules(), "G4 W4", "R5", others=close) == "W4"
    # far from going out: the Skip is no better than the number that keeps more cards of its colour
    assert played(Rules(), "RS G5 G1 G2", "R5") == "G5"


def test_pro_at_two_players_keeps_a_card_whose_kind_it_holds_in_another_colour():
    # R2 and R8 both keep one red; the R8 would spend the 8 that, with B8, changes colour later
    assert played(Rules(players=2), "R2 R8 B8 G3 G4", "R5", others=(FULL,)) == "R2"


def test_pro_plays_into_a_colour_the_next_player_was_seen_to_lack():
    # one red and one blue kept either way: the colour the next player lacks decides
    hand = "R2 R8 B5 B9"
    assert COLORS.index(played(Rules(), hand, "R5", lacks={1: lacking("B")})[0]) == BLUE
    assert COLORS.index(played(Rules(), hand, "R5", lacks={1: lacking("R")})[0]) == RED


def test_pro_names_the_colour_held_most_then_the_one_the_next_player_lacks():
    ev, _ = first(Rules(voluntary_draw=False), "W R1 G2 G3", "Y5")
    assert ev["card"] == "W" and ev["color"] == "G"
    ev, _ = first(Rules(), "W R1 B2", "Y5", lacks={1: lacking("B")})
    assert ev["color"] == "B"
    ev, _ = first(Rules(), "W R1 B2", "Y5", lacks={1: lacking("R")})
    assert ev["color"] == "R"


def test_pro_under_the_mercy_rule_plays_the_expert_s_turn_card():
    # no-mercy: the R7 swaps 7 cards for the next player's 3, the expert's first choice; without
    # the mercy rule pro's own ranking plays the B3, which keeps five blue cards
    hand, top, close = "R7 B3 B4 B5 B6 B8 B9 G1", "R3", ("G2 G4 G5", FULL, FULL)
    assert played(load_preset("no-mercy", players=4), hand, top, others=close) == "R7"
    assert played(load_preset("no-mercy", {"mercy_limit": 0}, players=4), hand, top, others=close) == "B3"


def test_pro_names_the_colour_with_most_cards_unseen_for_a_roulette():
    pos = position(Rules(), "R1 R2 R3 G1", "R5", discard_below="B1 B2 B3 B4 B5 B6")
    # unseen: red 25 - 4, yellow 25, green 24, blue 25 - 6: yellow turns up soonest
    assert COLORS[pro.roulette_color(pos.g, 0)] == "Y"


def test_pro_reads_no_hand_but_its_own():
    """The same own hand, discard pile, hand sizes and lacks: the same decision whatever the
    other hands hold."""
    a = position(Rules(), "R2 R8 B5 B9 W", "R5", others=("G1 G2 G3 G4", FULL, FULL))
    b = position(Rules(), "R2 R8 B5 B9 W", "R5", others=("B1 B2 B3 B4", "R1 R3 R4 R6 R7 B7 B8", FULL))
    assert np.array_equal(pro.unseen_faces(a.g, 0), pro.unseen_faces(b.g, 0))
    assert a.run(1)[0] == b.run(1)[0]


# ---------------------------------------------------------------- every preset: legal moves only


@pytest.mark.parametrize("preset", preset_names())
def test_pro_makes_only_legal_moves_in_every_preset(preset):
    """Traces of pro beside random and expert seats replay cleanly in the independent checker
    (every rule knob and card kind of the presets: stacking, jump-ins, 7-0, other decks, the
    mercy rule)."""
    rules = load_preset(preset)
    bots = ([PRO, RANDOM, Bot("expert"), PRO] * 3)[: rules.players]
    assert_clean(rules, 12, 21, bots)
