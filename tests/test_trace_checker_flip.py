"""The independent trace checker (tests/trace_checker.py) on SPEC section 11: two-sided decks (UNO Flip).

Tiny hand-written games, each derived by hand from the SPEC text: the legal trace is
accepted (no violation at all) and a minimal change of it is rejected with the violation
the rule names. The decks are written as the `deal` event's `sides` (two lists of kinds,
SPEC 10.1 fields), the physical cards as LIGHT/DARK, independently of uno_sim.game.decks.
"""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from test_trace_checker import accepts_and_rejects, inserted, removed, replaced
from test_trace_checker import all_violations as violations
from trace_checker import DEFAULT_RULES, SECTION10_DEFAULTS, check_trace_lines

LIGHT, DARK = "RYGB", "PTOV"  # SPEC 11.1


# ---------------------------------------------------------------------------- helpers
def num(*digits, copies=2):
    return [{"text": str(d), "colored": True, "copies": copies} for d in digits]


def kind(text, colored, copies=1, **fields):
    return {"text": text, "colored": colored, "copies": copies, **fields}


def faces(k, colors):
    return [c + k["text"] for c in colors] if k["colored"] else [k["text"]]


def side_cards(kinds, colors) -> Counter:
    out = Counter()
    for k in kinds:
        for f in faces(k, colors):
            out[f] += k["copies"]
    return out


def face_points(kinds, colors) -> dict:
    """SPEC 10.1: an explicit `points` wins; else a number its number, a coloured action 20, a wild 50."""
    out = {}
    for k in kinds:
        p = k.get("points", int(k["text"]) if k["text"].isdigit() else 20 if k["colored"] else 50)
        for f in faces(k, colors):
            out[f] = p
    return out


# A small two-sided deck, 56 cards a side: numbers 1-5 (2 each), Flip (2 a colour), a light
# Skip Everyone (DIY, for the lead E), the dark Draw Five, plain wilds, the light Wild Draw
# Two and the dark Wild Draw Colour (restricted, as in the `flip` deck).
MINI_LIGHT = num(1, 2, 3, 4, 5) + [kind("F", True, 2, flip=True), kind("E", True, 1, skip="all"),
                                   kind("W", False, 2), kind("W2", False, 2, draw=2, restricted=True)]
MINI_DARK = num(1, 2, 3, 4, 5) + [kind("F", True, 2, flip=True), kind("D5", True, 1, draw=5),
                                  kind("W", False, 2), kind("WDC", False, 2, draw_color=True, restricted=True)]


def deal(hands, pile_top=(), pile_bottom=(), *, light=MINI_LIGHT, dark=MINI_DARK, bots="greedy", dealer=None,
         **knobs):
    """A two-sided deal: the hands as given (LIGHT/DARK cards, all of one size), the pile
    `pile_top`, then the other light faces paired in sorted order with the other dark faces,
    then `pile_bottom` (after a flip reverses the pile, its last card is the top)."""
    n = len(hands)
    rest = [side_cards(light, LIGHT), side_cards(dark, DARK)]
    for card in [*pile_top, *pile_bottom, *(c for h in hands for c in h)]:
        for i, half in enumerate(card.split("/")):
            assert rest[i][half] > 0, card
            rest[i][half] -= 1
    middle = [f"{a}/{b}" for a, b in zip(sorted(rest[0].elements()), sorted(rest[1].elements()))]
    # UNO calls are not the subject here: nobody is caught (a greedy bot's call is optional)
    rules = {**DEFAULT_RULES, **SECTION10_DEFAULTS, "flip_discard": "whole", "deck": "custom", "uno_catch": 0.0,
             **knobs, "players": n, "hand_size": len(hands[0])}
    return {"ev": "deal", "game": 0, "players": n, "dealer": n - 1 if dealer is None else dealer, "rules": rules,
            "bots": [bots] * n if isinstance(bots, str) else list(bots),
            "sides": {"light": light, "dark": dark}, "hands": [list(h) for h in hands],
            "pile": [*pile_top, *middle, *pile_bottom]}


def end(events, winner, reason, turns, **extra):
    """The end event: hand points on the side in play after the trace's flip events (plain
    bookkeeping of the events), with `flips` and `side` (SPEC 11.5)."""
    d = events[0]
    pts = [face_points(d["sides"]["light"], LIGHT), face_points(d["sides"]["dark"], DARK)]
    hands = [Counter(h) for h in d["hands"]]
    side = flips = 0
    for e in events[1:]:
        if e["ev"] in ("play", "jump"):
            hands[e["p"]] -= Counter(e.get("cards") or [e["card"]])
        elif e["ev"] == "draw":
            hands[e["p"]] += Counter(e["cards"])
        elif e["ev"] == "flip":
            flips, side = flips + 1, 1 - side
    points = [sum(pts[side][c.split("/")[side]] for c in h.elements()) for h in hands]
    ev = {"ev": "end", "winner": winner, "reason": reason, "turns": turns, "points": points, "flips": flips,
          "side": ("light", "dark")[side]}
    ev.update(extra)
    return events + [ev]


def P(p, card, color, **kw):
    ev = {"ev": "play", "p": p, "color": color}
    ev.update({"cards": card} if isinstance(card, list) else {"card": card})
    ev.update(kw)
    return ev


def D(p, cards, why="turn"):
    return {"ev": "draw", "p": p, "cards": list(cards), "why": why}


def lead(card):
    return {"ev": "lead", "card": card}


def flip(p, side, top):
    return {"ev": "flip", "p": p, "side": side, "top": top}


def choose(p, color):
    return {"ev": "choose", "p": p, "color": color}


def after_flip(pile, taken=1):
    """The draw pile turned over after `taken` cards left its top (the lead)."""
    return list(reversed(pile[taken:]))


# ---------------------------------------------------------------------------- the flip, 11.2
HANDS = [["RF/P2", "R3/T4", "Y4/O5"], ["G2/P3", "B5/V1", "Y1/T2"]]


def flip_game(flip_discard):
    """Seat 0 flips on R1/O1. whole: the discard pile turns over as one stack, the lead is the
    top again, now O1; top: the Flip card stays on top, now P2. Seat 1 matches on the dark side;
    seat 0 (T4, O5) cannot and draws the top of the turned-over pile."""
    g = [deal(HANDS, ["R1/O1"], flip_discard=flip_discard, max_turns=3)]
    top, color, answer = ("R1/O1", "O", P(1, "B5/V1", "V")) if flip_discard == "whole" else \
        ("RF/P2", "P", P(1, "G2/P3", "P"))
    g += [lead("R1/O1"), P(0, "RF/P2", color), flip(0, "dark", top), answer, D(0, after_flip(g[0]["pile"])[:1])]
    return end(g, -1, "cap", 3, plays=2, draws=1)


@pytest.mark.parametrize("flip_discard", ["whole", "top"])
def test_flip_turns_hands_and_piles_over(flip_discard):
    good = flip_game(flip_discard)
    assert violations(good) == []
    # the draw pile turned over: its old top (after the lead) is now at the bottom
    old_top = good[0]["pile"][1]
    assert any("is not the pile top" in v for v in violations(replaced(good, 5, D(0, [old_top]))))
    # the flip event names the side and the new top
    assert any("flip to side 'light'" in v for v in violations(replaced(good, 3, {**good[3], "side": "light"})))
    # the play carries the colour after the flip, in the dark side's letters
    assert any("colour in play after its flip" in v for v in violations(replaced(good, 2, {**good[2], "color": "R"})))


def test_discard_pile_order_whole_against_top():
    """A trace written under one flip_discard reading is rejected under the other."""
    for written, read in (("whole", "top"), ("top", "whole")):
        bad = flip_game(written)
        bad[0]["rules"]["flip_discard"] = read
        vs = violations(bad)
        assert any("flip: the new top card is" in v for v in vs), vs
        assert any("does not match" in v for v in vs), vs


def test_flip_discard_absent_means_whole():
    good = flip_game("whole")
    del good[0]["rules"]["flip_discard"]
    assert violations(good) == []


def test_a_play_legal_only_on_the_light_side_is_rejected_on_the_dark_side():
    """After the flip the top is O1: Y1/T2 would match R1/O1 on the light side (the number 1),
    not T2 on O1."""
    good = flip_game("whole")
    accepts_and_rejects(good, replaced(good, 4, P(1, "Y1/T2", "T")), "does not match")


def test_wild_top_after_a_flip_the_flip_cards_player_names_a_dark_colour():
    g = [deal(HANDS, ["R1/W"], max_turns=2)]
    good = g + [lead("R1/W"), P(0, "RF/P2", "T"), flip(0, "dark", "R1/W"), choose(0, "T"), P(1, "Y1/T2", "T")]
    good = end(good, -1, "cap", 2, plays=2)
    accepts_and_rejects(good, removed(good, 4), "wild top after a flip: expected seat 0 to choose")
    accepts_and_rejects(good, replaced(good, 4, choose(1, "T")), "expected seat 0 to choose")
    # a light colour letter on the dark side
    bad = replaced(replaced(good, 4, choose(0, "Y")), 2, P(0, "RF/P2", "Y"))
    accepts_and_rejects(good, bad, "invalid colour 'Y' chosen for the wild top after a flip")
    accepts_and_rejects(good, replaced(good, 2, {**good[2], "color": "P"}), "colour in play after its flip is T")


def test_event_order_flip_after_the_uno_call():
    """11.6: play, its UNO events, then the flip (random bots always call UNO)."""
    hands = [["RF/P2", "R3/T4"], ["G2/P3", "B5/V1"]]
    g = [deal(hands, ["R1/O1"], bots="random", max_turns=2)]
    good = g + [lead("R1/O1"), P(0, "RF/P2", "O"), {"ev": "uno", "p": 0}, flip(0, "dark", "R1/O1"),
                P(1, "B5/V1", "V"), {"ev": "uno", "p": 1}]
    good = end(good, -1, "cap", 2, plays=2)
    bad = good[:3] + [good[4], good[3]] + good[5:]
    accepts_and_rejects(good, bad, "random bot seat 0 holds one card but no 'uno' call follows")


def test_a_wild_flip_card_names_its_colour_after_the_flip():
    """R25: a DIY wild Flip card: the new top O1 is coloured, yet its player names the colour
    (a choose after the flip, among the dark colours) and the play carries it."""
    light, dark = MINI_LIGHT + [kind("WF", False, 1, flip=True)], MINI_DARK + [kind("WZ", False, 1)]
    g = [deal([["WF/WZ", "R3/T4", "Y4/O5"], HANDS[1]], ["R1/O1"], light=light, dark=dark, max_turns=2)]
    good = g + [lead("R1/O1"), P(0, "WF/WZ", "T"), flip(0, "dark", "R1/O1"), choose(0, "T"), P(1, "Y1/T2", "T")]
    good = end(good, -1, "cap", 2, plays=2)
    accepts_and_rejects(good, removed(good, 4), "wild Flip card: expected seat 0 to choose")
    bad = replaced(removed(good, 4), 2, P(0, "WF/WZ", "O"))
    assert any("expected seat 0 to choose" in v for v in violations(bad))


# ---------------------------------------------------------------------------- going out, multi-play, windows
def test_a_flip_card_that_empties_the_hand_still_flips_and_hands_score_on_the_dark_side():
    g = [deal([["RF/P2"], ["G2/T3"]], ["R1/O1"])]
    good = g + [lead("R1/O1"), P(0, "RF/P2", "O"), flip(0, "dark", "R1/O1")]
    good = end(good, 0, "out", 1, plays=1, winner_points=3)
    assert good[-1]["points"] == [0, 3] and good[-1]["side"] == "dark"  # T3, not G2
    accepts_and_rejects(good, removed(good, 3), "expected 'flip' with p 0")
    for key, wrong, expect in (("points", [0, 2], "end points"), ("side", "light", "end side"),
                               ("flips", 0, "end flips")):
        assert any(expect in v for v in violations(replaced(good, -1, {**good[-1], key: wrong})))
    no_flips = copy.deepcopy(good)
    del no_flips[-1]["flips"]
    assert any("lacks 'flips'" in v for v in violations(no_flips))


def test_last_standing_out_comes_after_the_flip():
    hands = [["RF/P2"], ["G2/T3"], ["Y3/O4"]]
    g = [deal(hands, ["R1/O1"], mode="last_standing", max_turns=2)]
    good = g + [lead("R1/O1"), P(0, "RF/P2", "O"), flip(0, "dark", "R1/O1"), {"ev": "out", "p": 0, "place": 1},
                D(1, after_flip(g[0]["pile"])[:1])]
    good = end(good, -1, "cap", 2, plays=1, draws=1)
    bad = good[:3] + [good[4], good[3]] + good[5:]
    accepts_and_rejects(good, bad, "expected 'flip' with p 0")


def multi_flip_game():
    """Two Flip cards, identical on the side in play (RF) though their dark faces differ:
    two flips, back on the light side; under `whole` the pile turned twice shows RF/T4 on top."""
    hands = [["RF/P2", "RF/T4", "Y4/O5"], ["R5/V1", "G3/P3", "B2/T2"]]
    g = [deal(hands, ["R1/O1"], multi_play="identical", max_turns=2)]
    g += [lead("R1/O1"), P(0, ["RF/P2", "RF/T4"], "R"), flip(0, "dark", "R1/O1"), flip(0, "light", "RF/T4"),
          P(1, "R5/V1", "R")]
    return end(g, -1, "cap", 2, plays=3)


def test_a_multi_play_of_two_flip_cards_flips_twice():
    good = multi_flip_game()
    assert good[-1]["flips"] == 2 and good[-1]["side"] == "light"
    accepts_and_rejects(good, removed(good, 4), "expected 'flip' with p 0")
    assert any("end flips" in v for v in violations(replaced(good, -1, {**good[-1], "flips": 1})))


def test_multi_play_identical_means_identical_on_the_side_in_play():
    good = multi_flip_game()
    bad = copy.deepcopy(good)
    bad[0]["hands"][0][1] = "YF/T4"  # same dark face, another light face (RF and YF are not identical)
    bad[2]["cards"][1] = "YF/T4"
    bad[4]["top"] = "YF/T4"
    bad[0]["pile"] = [c if c != "YF/T1" else "RF/T1" for c in bad[0]["pile"]]  # keep the deal a valid pairing
    assert any("is not identical cards" in v for v in violations(bad))


def test_no_jump_in_after_a_play_that_flips():
    """11.6: under `top` the new top is P2 (the Flip card's dark face); seat 1 holds another
    P2 but a flip opens no jump-in window: it plays it on its turn."""
    hands = [["RF/P2", "R3/T4", "Y4/O5"], ["B4/P2", "G3/V5", "Y2/V3"], ["G5/T5", "B5/O3", "B1/V4"]]
    g = [deal(hands, ["R1/O1"], flip_discard="top", jump_in=True, max_turns=2)]
    good = g + [lead("R1/O1"), P(0, "RF/P2", "P"), flip(0, "dark", "RF/P2"), P(1, "B4/P2", "P")]
    good = end(good, -1, "cap", 2, plays=2)
    bad = replaced(good, 4, {"ev": "jump", "p": 1, "card": "B4/P2", "color": "P"})
    accepts_and_rejects(good, bad, "a flip opens no jump-in")


def test_identical_jump_in_reads_the_side_in_play():
    """On the light side R3/T5 is identical to R3/P1; Y1/P1 (the same dark face) is not."""
    hands = [["R3/P1", "G1/T2", "B4/O4"], ["B2/V2", "B3/V3", "G5/O2"], ["R3/T5", "Y1/P1", "G4/V4"]]
    g = [deal(hands, ["R1/O1"], jump_in=True, max_turns=1)]
    good = g + [lead("R1/O1"), P(0, "R3/P1", "R"), {"ev": "jump", "p": 2, "card": "R3/T5", "color": "R"}]
    good = end(good, -1, "cap", 1, plays=2)
    accepts_and_rejects(good, replaced(good, 3, {"ev": "jump", "p": 2, "card": "Y1/P1", "color": "Y"}),
                        "not identical to R3")


def test_random_bot_lays_a_dark_sum_set_in_colour_order_p_t_o_v():
    """11.6: after a lead flip, seat 0 plays O4; seat 1 (random) must jump in with P3 + T1,
    P before T (the light faces B1, R3 would sort the other way)."""
    hands = [["Y2/O4", "G1/V2", "B2/V3", "Y3/T5"], ["B1/P3", "R3/T1", "G4/V5", "Y5/O2"],
             ["R4/V5", "G5/P5", "B4/O3", "R5/T4"]]
    g = [deal(hands, ["RF/O5"], bots="random", sum_jump_in="any_color", max_turns=2)]
    good = g + [lead("RF/O5"), flip(-1, "dark", "RF/O5"), P(0, "Y2/O4", "O"),
                {"ev": "jump", "p": 1, "cards": ["B1/P3", "R3/T1"], "color": "T", "sum": 4}, P(2, "R5/T4", "T")]
    good = end(good, -1, "cap", 2, plays=4)
    bad = replaced(good, 4, {**good[4], "cards": ["R3/T1", "B1/P3"], "color": "P"})
    accepts_and_rejects(good, bad, "not sorted by colour")


# ---------------------------------------------------------------------------- draw_color, 11.2
DC_HANDS = [["W2/WDC", "G3/T5", "Y4/V1"], ["R5/P3", "B5/V3", "G1/T2"]]
TURNED_UP = ["Y2/P4", "G5/W", "B3/T1"]  # P, a wild face (never counts), then T


def draw_color_game(bots=("greedy", "random")):
    """A lead flip brings the dark side; seat 0 plays Wild Draw Colour naming T; seat 1 turns
    up cards until a T face."""
    g = [deal(DC_HANDS, ["RF/O3"], list(reversed(TURNED_UP)), bots=list(bots), max_turns=1)]
    g += [lead("RF/O3"), flip(-1, "dark", "RF/O3"), P(0, "W2/WDC", "T"), D(1, TURNED_UP, "draw_color")]
    return end(g, -1, "cap", 1, plays=1, draws=3, max_pending=0)


def test_draw_color_turns_up_cards_until_the_named_colour():
    good = draw_color_game()
    assert violations(good) == []
    for short in (TURNED_UP[:1], TURNED_UP[:2]):  # stops at the wrong colour / at a wild face
        assert any("more are owed" in v for v in violations(replaced(good, 4, D(1, short, "draw_color"))))
    more = TURNED_UP + [after_flip(good[0]["pile"])[3]]
    assert any("more cards than owed" in v for v in violations(replaced(good, 4, D(1, more, "draw_color"))))
    assert any("why 'draw_color'" in v for v in violations(replaced(good, 4, D(1, TURNED_UP, "penalty"))))


def test_random_bot_never_challenges_draw_color():
    good = draw_color_game()
    bad = replaced(good, 4, {"ev": "challenge", "p": 1, "target": 0, "guilty": False})
    bad = inserted(bad, 5, D(1, TURNED_UP + after_flip(good[0]["pile"])[3:5], "challenge"))
    bad[-1] = {**bad[-1], "challenges": 1, "draws": 5, "points": [bad[-1]["points"][0], 0]}
    accepts_and_rejects(good, bad, "random bot seat 1 challenges")


@pytest.mark.parametrize("guilty", [True, False])
def test_draw_color_challenge(guilty):
    """11.2: guilty (seat 0 held an O card, the colour in play): it turns up cards until T and
    seat 1 plays; not guilty: seat 1 turns up until T, then challenge_extra (2) more, in one
    draw, and loses the turn."""
    hands = copy.deepcopy(DC_HANDS)
    if guilty:
        hands[0][1] = "G3/O5"
    g = [deal(hands, ["RF/O3"], list(reversed(TURNED_UP)), max_turns=2)]
    pile = after_flip(g[0]["pile"])
    good = g + [lead("RF/O3"), flip(-1, "dark", "RF/O3"), P(0, "W2/WDC", "T"),
                {"ev": "challenge", "p": 1, "target": 0, "guilty": guilty}]
    if guilty:
        good += [D(0, TURNED_UP, "challenge"), P(1, "G1/T2", "T")]
        wrong = D(0, pile[:4], "challenge")  # four cards, as a Wild Draw Four
        expect = "more cards than owed"
    else:
        good += [D(1, pile[:5], "challenge"), P(0, "G3/T5", "T")]
        wrong = D(1, TURNED_UP, "challenge")  # without the two extra cards
        expect = "more are owed"
    good = end(good, -1, "cap", 2, plays=2, draws=len(good[5]["cards"]), challenges=1)
    accepts_and_rejects(good, replaced(good, 5, wrong), expect)


# ---------------------------------------------------------------------------- stacking across a flip
STACK_LIGHT = num(1, 2, 3, 4, 5, copies=1) + [kind("FD", True, 1, flip=True, draw=2), kind("D", True, 1, draw=2),
                                              kind("X", True, 1)]
STACK_DARK = num(1, 2, 3, 4, 5, copies=1) + [kind("FD", True, 1, flip=True, draw=2), kind("D5", True, 1, draw=5),
                                             kind("D1", True, 1, draw=1)]


def test_a_chain_goes_on_across_a_flip_with_the_faces_in_play():
    """11.6: a DIY flip + draw 2 starts a chain (flip at 3a, the penalty at step 5, from the face
    played); the victim answers with the dark D5; a flip never answers, nor YD/OD1: a light D
    (draw 2), on the dark side a Draw One, short of the 2 of the face that started the chain (R26)."""
    hands = [["RFD/O2", "R3/T4", "Y4/O5"], ["Y3/TD5", "G2/PFD", "YD/OD1"], ["G4/V2", "B5/P4", "B2/V5"]]
    g = [deal(hands, ["R1/P1"], light=STACK_LIGHT, dark=STACK_DARK, stack_by_value=True, max_turns=3)]
    good = g + [lead("R1/P1"), P(0, "RFD/O2", "P"), flip(0, "dark", "R1/P1"), P(1, "Y3/TD5", "T"),
                D(2, after_flip(g[0]["pile"])[:7], "penalty")]
    good = end(good, -1, "cap", 3, plays=2, draws=7, max_pending=7)
    accepts_and_rejects(good, replaced(good, 4, P(1, "G2/PFD", "P")), "not a legal answer")
    accepts_and_rejects(good, replaced(good, 4, P(1, "YD/OD1", "O")), "not a legal answer")


# ---------------------------------------------------------------------------- lead, 11.4
def test_lead_flip_starts_on_the_dark_side():
    hands = [["R2/O4", "G3/T5", "Y4/V1"], ["B2/P3", "B3/V3", "G1/T2"]]
    g = [deal(hands, ["RF/O3"], max_turns=1)]
    good = g + [lead("RF/O3"), flip(-1, "dark", "RF/O3"), P(0, "R2/O4", "O")]
    good = end(good, -1, "cap", 1, plays=1)
    assert good[-1]["flips"] == 1
    accepts_and_rejects(good, replaced(good, 2, flip(0, "dark", "RF/O3")), "expected 'flip' with p -1")
    accepts_and_rejects(good, removed(good, 2), "expected 'flip' with p -1")


def test_lead_flip_to_a_wild_face_the_first_player_names_the_colour():
    hands = [["R2/O4", "G3/T5", "Y4/V1"], ["B2/P3", "B3/V3", "G1/T2"]]
    g = [deal(hands, ["RF/W"], max_turns=1)]
    good = g + [lead("RF/W"), flip(-1, "dark", "RF/W"), choose(0, "T"), P(0, "G3/T5", "T")]
    good = end(good, -1, "cap", 1, plays=1)
    accepts_and_rejects(good, replaced(good, 3, choose(1, "T")), "expected seat 0 to choose")


def test_lead_skip_everyone_the_dealer_takes_the_first_turn():
    hands = [["R2/O4", "G3/T5"], ["B2/P3", "B3/V3"], ["R4/P1", "Y1/V4"]]
    g = [deal(hands, ["RE/O3"], max_turns=1)]
    good = g + [lead("RE/O3"), P(2, "R4/P1", "R")]
    good = end(good, -1, "cap", 1, plays=1)
    accepts_and_rejects(good, replaced(good, 2, P(0, "R2/O4", "R")), "wrong player")


def test_lead_draw_one_draws_its_own_draw_and_skips():
    light, dark = MINI_LIGHT + [kind("D1", True, 1, draw=1)], MINI_DARK + [kind("X", True, 1)]
    hands = [["R2/O4", "G3/T5"], ["B2/P3", "R4/V3"]]
    g = [deal(hands, ["RD1/P4"], light=light, dark=dark, max_turns=1)]
    pile = g[0]["pile"]
    good = g + [lead("RD1/P4"), D(0, pile[1:2], "lead"), P(1, "R4/V3", "R")]
    good = end(good, -1, "cap", 1, plays=1, draws=1, max_pending=1)
    accepts_and_rejects(good, replaced(good, 2, D(0, pile[1:3], "lead")), "more cards than owed")


@pytest.mark.parametrize("back,knobs", [("W2/P1", {}), ("RF/P5", {"first_card": "number"})])
def test_lead_goes_back(back, knobs):
    """A restricted wild goes back (11.4); under first_card=number the light side is read: a
    light Flip card goes back although its dark face is a number."""
    hands = [["R3/O4", "G3/T5"], ["B2/P3", "B3/V3"]]
    g = [deal(hands, [back, "R2/O2"], max_turns=1, **knobs)]
    good = g + [lead(back), {"ev": "return", "card": back, "pile": g[0]["pile"][1:] + [back]}, lead("R2/O2"),
                P(0, "R3/O4", "R")]
    good = end(good, -1, "cap", 1, plays=1)
    bad = g + [lead(back), P(0, "R3/O4", "R")]
    accepts_and_rejects(good, end(bad, -1, "cap", 1, plays=1), "is not acceptable")


# ---------------------------------------------------------------------------- the deal, the deck
def test_the_deal_must_pair_the_two_sides_one_to_one():
    good = flip_game("whole")
    bad = copy.deepcopy(good)
    i = bad[0]["pile"].index(good[0]["pile"][-1])
    light, _ = bad[0]["pile"][i].split("/")
    bad[0]["pile"][i] = f"{light}/P1"  # one dark face too many, another missing
    assert any("deal is not a pairing of the two sides: its dark faces" in v for v in violations(bad))
    bad = copy.deepcopy(good)
    bad[0]["pile"][-1] = bad[0]["pile"][-1].split("/")[0]
    assert any("are not written LIGHT/DARK" in v for v in violations(bad))
    bad = copy.deepcopy(good)
    bad[0]["deck"] = MINI_LIGHT
    assert any("not both" in v for v in violations(bad))


@pytest.mark.parametrize("side,bad_kind,expect", [
    ("dark", kind("WX", False, 2, draw_color=True, draw=2), "draw_color with draw, roulette or skip"),
    ("dark", kind("WX", False, 2, draw_color=True, skip=1), "draw_color with draw, roulette or skip"),
    ("dark", kind("WX", False, 2, draw_color=True, roulette=True), "draw_color with draw, roulette or skip"),
    ("dark", kind("X", True, 0, draw_color=True), "draw_color on a coloured kind"),
    ("light", kind("6", True, 0, flip=True), "a number kind with effects"),
    ("light", kind("6", True, 0, draw_color=True), "a number kind with effects"),
    ("light", kind("WX", False, 2, restricted=True), "restricted without draw or draw_color"),
])
def test_invalid_two_sided_kinds(side, bad_kind, expect):
    good = flip_game("whole")
    bad = copy.deepcopy(good)
    bad[0]["sides"][side] = [k for k in bad[0]["sides"][side] if k["text"] != "W"] + [bad_kind]
    assert any(expect in v for v in violations(bad)), violations(bad)


def test_sides_of_different_size_are_invalid():
    bad = flip_game("whole")
    bad[0]["sides"]["dark"] = bad[0]["sides"]["dark"] + [kind("X", True, 1)]
    assert any("the sides differ in size" in v for v in violations(bad))


def one_sided_game(extra):
    from test_trace_checker_decks import deal as deal1, end as end1
    kinds = num(1, 2, 3, 4, 5) + [extra]
    g = [deal1(kinds, [["R2", "G3"], ["B4", "Y5"]], ["R1"], max_turns=1)]
    return end1(g + [lead("R1"), {"ev": "play", "p": 0, "card": "R2", "color": "R"}], -1, "cap", 1, plays=1)


def test_flip_is_invalid_in_a_one_sided_deck_draw_color_is_not():
    assert any("flip in a one-sided deck" in v for v in violations(one_sided_game(kind("F", True, 1, flip=True))))
    wdc = kind("WDC", False, 1, draw_color=True, restricted=True)
    assert violations(one_sided_game(wdc)) == []


# SPEC 11.3, typed here from the SPEC text
FLIP_LIGHT = num(*range(1, 10)) + [
    kind("D1", True, 2, draw=1, points=10), kind("R", True, 2, reverse=True, points=20),
    kind("S", True, 2, skip=1, points=20), kind("F", True, 2, flip=True, points=20),
    kind("W", False, 4, points=40), kind("W2", False, 4, draw=2, restricted=True, points=50)]
FLIP_DARK = num(*range(1, 10)) + [
    kind("D5", True, 2, draw=5, points=20), kind("R", True, 2, reverse=True, points=20),
    kind("E", True, 2, skip="all", points=30), kind("F", True, 2, flip=True, points=20),
    kind("W", False, 4, points=40), kind("WDC", False, 4, draw_color=True, restricted=True, points=60)]


def flip_deck_deal():
    """A deal of the built-in `flip` deck: 112 cards a side, randomly paired; the lead a light number."""
    light, dark = sorted(side_cards(FLIP_LIGHT, LIGHT).elements()), sorted(side_cards(FLIP_DARK, DARK).elements())
    assert len(light) == len(dark) == 112
    random.Random(11).shuffle(dark)
    cards = [f"{a}/{b}" for a, b in zip(light, dark)]
    random.Random(12).shuffle(cards)
    cards.sort(key=lambda c: not c.split("/")[0][1:].isdigit())  # a light number first: the lead stays
    lead_card, hands = cards[0], [cards[1:8], cards[8:15]]
    d = deal([["R1/P1"], ["R2/P2"]], light=FLIP_LIGHT, dark=FLIP_DARK, deck="flip", max_turns=0)
    d.update(hands=hands, pile=[lead_card] + cards[15:])
    d["rules"]["hand_size"] = 7
    g = [d, lead(lead_card)]
    return end(g, -1, "cap", 0)


def test_the_built_in_flip_deck_is_pinned():
    good = flip_deck_deal()
    assert violations(good) == []
    bad = copy.deepcopy(good)
    next(k for k in bad[0]["sides"]["dark"] if k["text"] == "WDC")["points"] = 50
    assert any("deck=flip: the dark side differs from the pinned flip deck in kinds ['WDC']" in v
               for v in violations(bad))
    bad = copy.deepcopy(good)
    del next(k for k in bad[0]["sides"]["light"] if k["text"] == "D1")["points"]  # 20 by default, 10 pinned
    assert any("in kinds ['D1']" in v for v in violations(bad))


# ---------------------------------------------------------------------------- the record, 11.5
def test_record_has_flips_and_side_and_the_csv_row_is_compared():
    events = flip_game("whole")
    rows = [{"game": "0", "winner": "-1", "reason": "cap", "turns": "3", "plays": "2", "draws": "1",
             "reshuffles": "0", "max_pending": "0", "challenges": "0", "winner_points": "0",
             "points_0": str(events[-1]["points"][0]), "points_1": str(events[-1]["points"][1]),
             "cards_0": "3", "cards_1": "2", "knockouts": "0", "flips": "1", "side": "dark"}]
    lines = [json.dumps(e) for e in events]
    reports = check_trace_lines(lines, copy.deepcopy(rows))
    assert [v for r in reports for v in r.violations] == []
    assert reports[0].record["flips"] == 1 and reports[0].record["side"] == "dark"
    rows[0]["side"] = "light"
    assert any("csv side is 'light'" in v for r in check_trace_lines(lines, rows) for v in r.violations)
