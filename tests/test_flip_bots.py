"""The strategy bots on a two-sided deck (docs/BOTS.md, "Two-sided decks"), from concrete
positions of the `flip` deck: a Flip card valued by the hand the next player holds after it
(the other side of its cards, which the bot sees), the dark side's Wild Draw Colour valued as
the wild draw card it is, and the colour pro names with it."""

from __future__ import annotations

import pytest

from flip_positions import FlipPosition
from uno_sim.engine import state as S
from uno_sim.game.decks import SIDE_COLORS
from uno_sim.game.bots import Bot
from uno_sim.game.rules import Rules

FLIP_RULES = Rules(deck="flip")


def off_colour_discards() -> str:
    """48 light yellow, green and blue numbers (no 5) paired with dark numbers: down in the
    discard pile, they leave the unseen light cards mostly red, 5s and wild cards."""
    cards = []
    dark = [f"{c}{n}" for c in "TOV" for n in range(1, 10) for _ in range(2)]
    for colour in "YGB":
        for n in (1, 2, 3, 4, 6, 7, 8, 9):
            for _ in range(2):
                cards.append(f"{colour}{n}/{dark.pop(0)}")
    return " ".join(cards)


def flip_or_number(bot: str, next_hand: str, mine: str = "RF/TE R5/OE", third: str = "Y5/P5 G5/PD5",
                   before: str = "B5/TR R1/VR R6/PR") -> str:
    """Seat 0 (`bot`) holds a Flip card and a number, both legal on R3; seat 1 (next) holds
    `next_hand`, seat 2 `third`, seat 3 (the player before seat 0) `before`. The card seat 0
    plays."""
    bots = [Bot(bot), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, [mine, next_hand, third, before], top="R3/P1",
                       discard_below=off_colour_discards(), pile="R2/P2 R4/P4", bots=bots)
    events = pos.run(1)
    assert events[0]["ev"] == "play" and events[0]["p"] == 0
    return events[0]["card"]


def test_pro_flips_when_the_next_players_hand_after_it_cannot_match():
    # seat 3 would hold a Draw Five after the flip, so the flip has no FLIP_FIRST: it is chosen
    # on the next player's hand. Seat 1's one card shows P9 after the flip: it follows only a
    # pink card or a 9 (and, for a wild top, the one colour of four), while the unseen light
    # cards are mostly red, 5s and wild cards, which follow R5 (pro's estimate of a hand it
    # cannot see): 3000 x about 0.65 against 3000 x about 0.35
    assert flip_or_number("pro", "YS/P9", before="B5/TR R1/OD5 R6/PR") == "RF/TE"
    assert flip_or_number("pro", "YS/P9") == "RF/TE"


def test_pro_does_not_flip_when_it_leads_to_the_next_players_win():
    # the same positions, but seat 1's card is a wild card on the dark side: after a flip it
    # goes out (and it is an opponent close to going out handed a wild card: no FLIP_FIRST)
    for before in ("B5/TR R1/OD5 R6/PR", "B5/TR R1/VR R6/PR"):
        assert flip_or_number("pro", "YS/W", before=before) == "R5/OE"
        assert flip_or_number("pro", "YS/WDC", before=before) == "R5/OE"


def test_pro_flips_early_unless_the_player_before_it_holds_a_draw_card_after_the_flip():
    three = "YS/P9 GS/P8 BS/P7"
    # nothing against it: the Flip card goes first (FLIP_FIRST)
    assert flip_or_number("pro", three) == "RF/TE"
    # seat 3, whose draw cards hit pro, would hold a Wild Draw Colour: the R5 (its colour kept)
    assert flip_or_number("pro", three, before="B5/TR R1/WDC R6/PR") == "R5/OE"
    # seat 2, close to going out, would hold a Wild: the same
    assert flip_or_number("pro", three, third="Y5/W G5/PD5") == "R5/OE"


def test_expert_flips_against_a_next_player_close_to_going_out_with_no_wild_after_it():
    # two cards, no wild card on the dark side: the flip is an attack (after a Skip), before a number
    assert flip_or_number("expert", "YS/P9 GS/P8") == "RF/TE"
    # a wild card on the dark side: the flip goes last of all (it would hand over a wild card)
    assert flip_or_number("expert", "YS/P9 GS/W") == "R5/OE"


def test_expert_flips_before_its_numbers_unless_it_hands_a_close_opponent_a_wild_card():
    many = "YS/P9 GS/P8 BS/P7 YR/P6"
    # nobody close to going out holds a wild card after the flip: the Flip card before a number
    assert flip_or_number("expert", many, mine="RF/TE R5/OE G5/VE") == "RF/TE"
    # seat 2 (two cards) would hold a Wild: the Flip card ranks with the Wilds, after the number
    assert flip_or_number("expert", many, mine="RF/TE R5/OE G5/VE", third="Y5/W G5/PD5") == "R5/OE"
    # seat 3, whose draw cards hit seat 0, would hold a Draw Five: the same
    assert flip_or_number("expert", many, mine="RF/TE R5/OE G5/VE", before="B5/TR R1/OD5 R6/PR") == "R5/OE"
    # ... and after a Reverse
    assert flip_or_number("expert", many, mine="RF/TE RR/OR G5/VE", third="Y5/W G5/PD5") == "RR/OR"


def test_greedy_flips_first_unless_it_hands_a_close_opponent_a_wild_card():
    mine = "RF/TE R5/OE W/OR"
    # before the Wild's 40 points
    assert flip_or_number("greedy", "YS/P9 GS/P8 BS/P7", mine=mine) == "RF/TE"
    # seat 2 (two cards) would hold a Wild Draw Colour: a bad flip goes last, after the Wild
    # and even after the R5 (5 points against its 20)
    assert flip_or_number("greedy", "YS/P9 GS/P8 BS/P7", mine=mine, third="Y5/WDC G5/PD5") == "W/OR"
    assert flip_or_number("greedy", "YS/P9 GS/P8 BS/P7", third="Y5/WDC G5/PD5") == "R5/OE"
    # ... as after a draw card handed to the player before it
    assert flip_or_number("greedy", "YS/P9 GS/P8 BS/P7", before="B5/TR R1/OD5 R6/PR") == "R5/OE"


def dark_attack(bot: str) -> list[dict]:
    """The dark side in play; seat 0 (`bot`) holds a teal 3 and a Wild Draw Colour (legal: no
    pink card) on P3, the next player one card."""
    bots = [Bot(bot), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["R7/T3 Y7/WDC G2/T2 G3/O5", "Y1/O1", "G1/V1 B2/V2", "B1/T1 B3/V3"],
                       top="R9/P3", side="dark", pile="R2/P2 R4/P4 Y2/P4 Y3/O3 Y4/V4 Y6/T6", bots=bots)
    return pos.run(1)


def test_a_wild_draw_colour_is_an_attack_on_a_next_player_close_to_going_out():
    for bot in ("expert", "pro"):
        events = dark_attack(bot)
        assert events[0]["card"] == "Y7/WDC", bot
        # its victim turned up cards until the colour named, and lost the turn
        draws = [e for e in events if e["ev"] == "draw"]
        assert draws and draws[0]["p"] == 1 and draws[0]["why"] == "draw_color"


def test_the_expert_keeps_a_wild_draw_colour_back_while_nobody_is_close():
    bots = [Bot("expert"), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["R7/T3 Y7/WDC G2/T2 G3/O5", "Y1/O1 Y2/O2 Y3/O3", "G1/V1 B2/V2", "B1/T1 B3/V3"],
                       top="R9/P3", side="dark", pile="R2/P2 R4/P4", bots=bots)
    assert pos.run(1)[0]["card"] == "R7/T3"


def test_pro_names_the_colour_its_wild_draw_colour_victim_turns_up_longest():
    # dark side; pro holds one teal and one orange card beside the Wild Draw Colour; most orange
    # cards are down in the discard pile, so the victim is expected to turn up more cards before
    # an orange one than before a teal one
    orange = " ".join(f"{light}/O{n}" for light, n in zip(
        ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "Y9", "G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9"],
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]))
    bots = [Bot("pro"), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["R7/WDC G2/T2 G3/O9", "Y5/V1", "B1/V2 B2/V3", "B3/V4 B4/V5"],
                       top="R9/P3", side="dark", discard_below=orange, pile="R2/P2 R4/P4 R6/T4 R8/T5", bots=bots)
    events = pos.run(1)
    assert events[0]["card"] == "R7/WDC" and events[0]["color"] == "O"


def test_the_dark_sides_draw_five_and_skip_everyone_are_read_by_their_fields():
    # dark side, teal in force, the next player holds one card: the Draw Five (draw 5) is the
    # attack for expert and pro, before the teal number; with no draw card, the Skip Everyone
    # (skip 2: it skips them all)
    for bot in ("expert", "pro"):
        bots = [Bot(bot), Bot("random"), Bot("random"), Bot("random")]
        pos = FlipPosition(FLIP_RULES, ["R7/T3 Y7/TD5 G2/O2 G3/O6", "Y1/O1", "G1/V1 B2/V2", "B1/P1 B3/V3"],
                           top="R9/T8", side="dark", pile="R2/P2 R4/P4 Y2/P4 Y3/O3 Y4/V4 Y6/T6", bots=bots)
        events = pos.run(1)
        assert events[0]["card"] == "Y7/TD5", bot
        assert events[1] == {"ev": "draw", "p": 1, "cards": ["R2/P2", "R4/P4", "Y2/P4", "Y3/O3", "Y4/V4"],
                             "why": "penalty"}
        pos = FlipPosition(FLIP_RULES, ["R7/T3 Y7/TE G2/O2 G3/O6", "Y1/O1", "G1/V1 B2/V2", "B1/P1 B3/V3"],
                           top="R9/T8", side="dark", pile="R2/P2 R4/P4", bots=bots)
        assert pos.run(1)[0]["card"] == "Y7/TE", bot


def test_greedy_plays_the_dark_sides_points_wild_draw_colour_before_a_wild():
    bots = [Bot("greedy"), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["R7/W Y7/WDC G2/O2", "Y1/O1 Y2/O2 Y3/O3", "G1/V1 B2/V2", "B1/P1 B3/V3"],
                       top="R9/T8", side="dark", pile="R2/P2 R4/P4 Y4/T4", bots=bots)
    assert pos.run(1)[0]["card"] == "Y7/WDC"  # 60 points against 40


# ---------------------------------------------------------------- bluffing and challenging with the flip deck's restricted wild cards

def test_a_bluffer_bluffs_with_the_light_sides_wild_draw_two():
    # seat 0 holds R5, which matches R3 and so forbids the W2: with bluff_prob 1 it plays the W2 anyway
    bots = [Bot("bluffer", {"bluff_prob": 1.0}), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["R5/OE W2/P9 Y7/T7", "YS/P8 GS/P7", "Y5/P5 G5/PD5", "B5/TR R1/VR"], top="R3/P1",
                       pile="R2/P2 R4/P4 G2/V2", bots=bots)
    assert pos.run(1)[0]["card"] == "W2/P9"
    # the same bot without a card that forbids it plays the W2 as any legal card, by its own ranking
    plain = FlipPosition(FLIP_RULES, ["B5/OE W2/P9 Y7/T7", "YS/P8 GS/P7", "Y5/P5 G5/PD5", "B5/TR R1/VR"],
                         top="R3/P1", pile="R2/P2 R4/P4 G2/V2", bots=bots)
    assert plain.run(1)[0]["card"] == "W2/P9"  # (its only legal card)


def test_a_bluffer_bluffs_with_the_dark_sides_wild_draw_colour():
    bots = [Bot("bluffer", {"bluff_prob": 1.0}), Bot("random"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["R5/P5 Y7/WDC G7/T7", "YS/P8 GS/P7", "Y5/O5 G5/OD5", "B5/TR R1/VR"],
                       top="R3/P3", side="dark", pile="R2/P2 R4/P4 G2/V2", bots=bots)
    assert pos.run(1)[0]["card"] == "Y7/WDC"
    # without bluff_prob the expert ranks the P5 first (the WDC is forbidden: it holds a pink card)
    honest = FlipPosition(FLIP_RULES, ["R5/P5 Y7/WDC G7/T7", "YS/P8 GS/P7", "Y5/O5 G5/OD5", "B5/TR R1/VR"],
                          top="R3/P3", side="dark", pile="R2/P2 R4/P4 G2/V2",
                          bots=[Bot("expert"), Bot("random"), Bot("random"), Bot("random")])
    assert honest.run(1)[0]["card"] == "R5/P5"


def _dark_cards(texts: list[str]) -> str:
    """The dark faces `texts`, each paired with a light number card of its own."""
    light = [f"{c}{n}" for c in "RYGB" for n in range(1, 10) for _ in range(2)]
    return " ".join(f"{light.pop()}/{t}" for t in texts)


def _wdc_challenge_position(teal_down: bool):
    """Seat 0 has just played a Wild Draw Colour on the dark side (a pink top before it; teal
    named); seat 1, an expert, decides whether to challenge. 22 pink cards lie in the discard
    pile, and 24 teal ones (`teal_down`) or 24 orange and violet ones."""
    pinks = [f"P{n}" for n in range(1, 10) for _ in range(2)] + ["PD5", "PD5", "PR", "PR", "PE", "PE", "PF", "PF"]
    pinks.remove("P5")
    pinks.remove("P7")
    pinks = pinks[:22]
    teals = [f"T{n}" for n in range(1, 10) for _ in range(2)] + ["TD5", "TD5", "TR", "TR", "TE", "TE", "TF", "TF"]
    teals.remove("T5")
    teals.remove("T6")
    others = [f"O{n}" for n in range(3, 10) for _ in range(2)] + [f"V{n}" for n in range(1, 6) for _ in range(2)]
    down = teals[:24] if teal_down else others[:24]
    # the light faces of the hands and the top are ones _dark_cards leaves free (wild and action cards)
    pos = FlipPosition(FLIP_RULES, ["RS/T5 YS/T6 GS/P5", "BS/O1 RD1/O2", "YD1/V7", "GD1/V8"], top="W/WDC",
                       discard_below=_dark_cards(pinks + down), side="dark", color="T",
                       bots=[Bot("bluffer"), Bot("expert"), Bot("random"), Bot("random")])
    g = pos.build()
    g[S.S_PREV_COLOR] = SIDE_COLORS["dark"].index("P")
    return g


def test_the_expert_challenges_a_wild_draw_colour_by_the_cards_it_expects_to_turn_up():
    from uno_sim.engine.bots import strategy

    # 112 cards, 2 in its hand, 47 in the discard pile: 63 unseen, of which 4 pink (forbidding:
    # seat 0's 3 cards hold a pink one with chance q = 1 - C(59, 3) / C(63, 3))
    q = 1 - (59 * 58 * 57) / (63 * 62 * 61)
    few_teal = _wdc_challenge_position(teal_down=True)  # 2 teal cards unseen: 64 / 3 expected
    assert strategy.color_draw_expected(few_teal, 1) == pytest.approx(64 / 3)
    assert q * 64 / 3 > (1 - q) * 2
    assert strategy.wants_color_challenge(few_teal, 1, 0)
    many_teal = _wdc_challenge_position(teal_down=False)  # 26 teal cards unseen: 64 / 27 expected
    assert strategy.color_draw_expected(many_teal, 1) == pytest.approx(64 / 27)
    assert q * 64 / 27 < (1 - q) * 2
    assert not strategy.wants_color_challenge(many_teal, 1, 0)


def test_a_bluffer_holding_no_forbidding_card_does_not_bluff():
    # no red card (light) / no pink card (dark): the W2 and the WDC are legal, so no bluff; the
    # expert's ranking (nobody close to going out) plays the number matching the top card's
    # number before the wild card, as the expert itself does
    for bot in (Bot("bluffer", {"bluff_prob": 1.0}), Bot("expert")):
        bots = [bot, Bot("random"), Bot("random"), Bot("random")]
        light = FlipPosition(FLIP_RULES, ["B3/OE W2/P9 Y7/T7", "YS/P8 GS/P7 BS/P6 YR/P4", "Y5/P5 G5/PD5 Y6/O6",
                                          "B5/TR R1/VR R6/V6"],
                             top="R3/P1", pile="R2/P2 R4/P4 G2/V2", bots=bots)
        assert light.run(1)[0]["card"] == "B3/OE", bot.name
        dark = FlipPosition(FLIP_RULES, ["B3/T3 Y7/WDC G7/O7", "YS/P8 GS/P7 BS/P6 YR/P4", "Y5/O5 G5/OD5 Y6/O6",
                                         "B5/TR R1/VR R6/V6"],
                            top="R3/P3", side="dark", pile="R2/P2 R4/P4 G2/V2", bots=bots)
        assert dark.run(1)[0]["card"] == "B3/T3", bot.name
    # with challenge off the restriction is a hard limit: the red 5, never the W2
    bots = [Bot("bluffer", {"bluff_prob": 1.0}), Bot("random"), Bot("random"), Bot("random")]
    hard = FlipPosition(Rules(deck="flip", challenge=False), ["R5/OE W2/P9 Y7/T7", "YS/P8 GS/P7", "Y5/P5 G5/PD5",
                                                              "B5/TR R1/VR"],
                        top="R3/P1", pile="R2/P2 R4/P4 G2/V2", bots=bots)
    assert hard.run(1)[0]["card"] == "R5/OE"


def test_random_and_pro_with_bluff_prob_bluff_with_the_flip_decks_restricted_wild_cards():
    for bot in (Bot("random", {"bluff_prob": 1.0}), Bot("pro", {"bluff_prob": 1.0})):
        bots = [bot, Bot("random"), Bot("random"), Bot("random")]
        # light: R5 is the only card legal without a bluff
        pos = FlipPosition(FLIP_RULES, ["R5/OE W2/P9 Y7/T7", "YS/P8 GS/P7", "Y5/P5 G5/PD5", "B5/TR R1/VR"],
                           top="R3/P1", pile="R2/P2 R4/P4 G2/V2", bots=bots)
        assert pos.run(1)[0]["card"] == "W2/P9", bot.name
        pos = FlipPosition(FLIP_RULES, ["R5/P5 Y7/WDC G7/T7", "YS/P8 GS/P7", "Y5/O5 G5/OD5", "B5/TR R1/VR"],
                           top="R3/P3", side="dark", pile="R2/P2 R4/P4 G2/V2", bots=bots)
        assert pos.run(1)[0]["card"] == "Y7/WDC", bot.name


def _wild_draw_colour_played(teal_down: int, stale_draw: int) -> list[dict]:
    """Dark side, pink in force (top P3). Seat 0, greedy, holds T5 T6 V5 and a Wild Draw Colour,
    its only legal card: it plays it (no bluff) and names teal (the colour it holds most); seat 1,
    an expert holding two orange cards, decides whether to challenge. Under the top card lie 17
    pink cards, `teal_down` teal cards and orange / violet ones up to 48, so after the play the
    expert sees 50 cards down and its own 2: 60 unseen, 8 of them pink (q = 1 - C(52, 3) /
    C(60, 3), about 0.354, with seat 0's 3 cards left), and 26 - teal_down teal. S_CHAL_DRAW holds
    `stale_draw`, as an earlier draw card would have left it."""
    pinks = [f"P{n}" for n in range(1, 10) for _ in range(2)] + ["PD5", "PD5", "PR", "PR", "PE", "PE", "PF", "PF"]
    pinks.remove("P3")
    teals = [f"T{n}" for n in range(1, 10) for _ in range(2)] + ["TD5", "TD5", "TR", "TR", "TE", "TE", "TF", "TF"]
    for held in ("T5", "T6", "T9"):
        teals.remove(held)
    others = [f"{c}{n}" for c in "OV" for n in range(1, 10) for _ in range(2)]
    for held in ("V5", "O1", "O2", "V7", "V8", "V9", "O9", "O8", "O7", "V6"):
        others.remove(held)
    below = pinks[:17] + teals[:teal_down] + others[:48 - 17 - teal_down]
    bots = [Bot("greedy"), Bot("expert"), Bot("random"), Bot("random")]
    pos = FlipPosition(FLIP_RULES, ["RS/WDC YS/V5 GS/T5 BS/T6", "RR/O1 YR/O2", "YD1/V7 GR/V8", "GD1/V9 BR/O9"],
                       top="RD1/P3", discard_below=_dark_cards(below), side="dark",
                       pile="BD1/T9 RF/O8 YF/O7 GF/V6", bots=bots)
    g = pos.build()
    g[S.S_CHAL_DRAW] = stale_draw
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "RS/WDC", "color": "T"}
    return [e for e in events if e["ev"] == "challenge"]


def test_the_experts_wild_draw_colour_challenge_turns_on_the_named_colours_unseen_cards():
    q = 1 - (52 * 51 * 50) / (60 * 59 * 58)
    # 23 teal cards down: 3 unseen of 60, 61 / 4 = 15.25 cards expected: q * 15.25 > (1 - q) * 2
    assert q * 61 / 4 > (1 - q) * 2
    # 6 teal cards down: 20 unseen, 61 / 21 = 2.9 cards expected: q * 2.9 < (1 - q) * 2
    assert q * 61 / 21 < (1 - q) * 2
    for stale in (0, 1, 5):  # whatever a draw card played earlier left in S_CHAL_DRAW
        assert _wild_draw_colour_played(teal_down=23, stale_draw=stale) == [
            {"ev": "challenge", "p": 1, "target": 0, "guilty": False}], stale
        assert _wild_draw_colour_played(teal_down=6, stale_draw=stale) == [], stale
