"""The independent trace checker (tests/trace_checker.py) on SPEC section 10: decks as data.

Tiny hand-written games, each derived by hand from the SPEC text: the legal trace is
accepted (no violation at all) and a one-event change of it is rejected with the
violation the rule names. The decks here are written as the `deal` event's `deck` list
(objects with the fields of SPEC 10.1), independently of uno_sim.game.decks.
"""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from test_trace_checker import accepts_and_rejects, removed, replaced
from test_trace_checker import all_violations as violations
from trace_checker import DEFAULT_RULES, SECTION10_DEFAULTS

COLORS = "RYGB"


# ---------------------------------------------------------------------------- helpers
def num(*digits, copies=2):
    return [{"text": str(d), "colored": True, "copies": copies} for d in digits]


def kind(text, colored, copies=1, **fields):
    return {"text": text, "colored": colored, "copies": copies, **fields}


def faces(k):
    return [c + k["text"] for c in COLORS] if k["colored"] else [k["text"]]


def deck_cards(kinds) -> Counter:
    out = Counter()
    for k in kinds:
        for f in faces(k):
            out[f] += k["copies"]
    return out


def face_points(kinds, zero_points=0) -> dict:
    """SPEC 10.1: an explicit `points` wins; else a number its number (0: zero_points), a
    coloured action 20, a wild 50."""
    out = {}
    for k in kinds:
        if "points" in k:
            p = k["points"]
        elif k["colored"] and k["text"].isdigit():
            p = zero_points if k["text"] == "0" else int(k["text"])
        else:
            p = 20 if k["colored"] else 50
        for f in faces(k):
            out[f] = p
    return out


def deal(kinds, hands, pile_top, *, bots="greedy", dealer=None, **knobs):
    """A deal with the given deck: the hands as given (all of one size), the pile starting
    with pile_top, then the rest of the deck sorted."""
    n = len(hands)
    rest = deck_cards(kinds)
    for c in list(pile_top) + [c for h in hands for c in h]:
        assert rest[c] > 0, c
        rest[c] -= 1
    # UNO calls are not the subject here: nobody is caught (a greedy bot's call is optional)
    rules = {**DEFAULT_RULES, **SECTION10_DEFAULTS, "uno_catch": 0.0, **knobs, "players": n,
             "hand_size": len(hands[0])}
    return {"ev": "deal", "game": 0, "players": n, "dealer": n - 1 if dealer is None else dealer,
            "rules": rules, "bots": [bots] * n, "deck": kinds, "hands": [list(h) for h in hands],
            "pile": list(pile_top) + sorted(rest.elements())}


def end(events, winner, reason, turns, **extra):
    """The end event, with points from plain bookkeeping of the events (a knocked-out seat
    scores mercy_points)."""
    d = events[0]
    pts = face_points(d["deck"], d["rules"]["zero_points"])
    hands = [Counter(h) for h in d["hands"]]
    out = set()
    for e in events[1:]:
        if e["ev"] in ("play", "jump"):
            hands[e["p"]] -= Counter(e.get("cards") or [e["card"]]) + Counter(e.get("discard", []))
        elif e["ev"] == "draw":
            hands[e["p"]] += Counter(e["cards"])
        elif e["ev"] == "swap":
            hands[e["p"]], hands[e["with"]] = hands[e["with"]], hands[e["p"]]
        elif e["ev"] == "shuffle":
            hands = [Counter(h) for h in e["hands"]]
        elif e["ev"] == "knockout":
            out.add(e["p"])
            hands[e["p"]] = Counter()
    points = [d["rules"]["mercy_points"] if i in out else sum(pts[c] for c in h.elements())
              for i, h in enumerate(hands)]
    ev = {"ev": "end", "winner": winner, "reason": reason, "turns": turns, "points": points}
    ev.update(extra)
    return events + [ev]


def P(p, card, color=None, **kw):
    ev = {"ev": "play", "p": p, "color": color or (card[-1] if isinstance(card, list) else card)[0]}
    ev.update({"cards": card} if isinstance(card, list) else {"card": card})
    ev.update(kw)
    return ev


def D(p, cards, why="turn"):
    return {"ev": "draw", "p": p, "cards": list(cards), "why": why}


def lead(card):
    return {"ev": "lead", "card": card}


def ko(p, cards, **kw):
    return {"ev": "knockout", "p": p, "cards": cards, **kw}


# ---------------------------------------------------------------------------- 10.1 the deck
def test_deck_absent_is_classic_and_a_given_deck_must_be_dealt():
    kinds = num(1, 2, 3, 4, 5)
    good = [deal(kinds, [["R2", "G3"], ["B4", "Y5"]], ["R1"], max_turns=1)]
    good += [lead("R1"), P(0, "R2")]
    good = end(good, -1, "cap", 1, plays=1)
    bad = copy.deepcopy(good)
    del bad[0]["deck"]  # the classic 108 cards: this deal is not them
    accepts_and_rejects(good, bad, "deal is not the 108-card deck")


@pytest.mark.parametrize("bad_kind,expect", [
    (kind("6", True, 1, draw=2), "a number kind with effects"),
    (kind("WQ", False, 1, restricted=True), "restricted without draw"),
    (kind("X", True, 1, roulette=True), "coloured kind with restricted or roulette"),
    (kind("WZ", False, 1, draw=2, skip=1), "draw with roulette or skip"),
    (kind("WA", False, 1, discard_color=True), "wild kind with discard_color"),
    (kind("1", True, 1), "duplicate text"),
    (kind("X", True, 17), "copies must be 0-16"),
])
def test_invalid_kinds_are_violations(bad_kind, expect):
    kinds = num(1, 2, 3, 4, 5)
    good = [deal(kinds, [["R2", "G3"], ["B4", "Y5"]], ["R1"], max_turns=1)]
    good += [lead("R1"), P(0, "R2")]
    good = end(good, -1, "cap", 1, plays=1)
    bad = copy.deepcopy(good)
    bad[0]["deck"].append(bad_kind)
    assert violations(good) == []
    assert any(expect in v for v in violations(bad))


def test_deck_too_small_for_the_deal():
    kinds = num(1, 2, copies=1)  # 8 cards: 3 players x 2 cards + 1 = 7 fits, 3 x 3 + 1 does not
    good = [deal(kinds, [["R2", "G2"], ["B2", "Y2"], ["Y1", "G1"]], ["R1"], max_turns=1)]
    good += [lead("R1"), P(0, "R2")]
    good = end(good, -1, "cap", 1, plays=1)
    assert violations(good) == []
    bad = copy.deepcopy(good)
    bad[0]["rules"]["hand_size"] = 3
    assert any("+ 1 > 8 cards" in v for v in violations(bad))


@pytest.mark.parametrize("knobs,expect", [
    (dict(stack_by_value=True, stack_draw_two=True), "stack_by_value with another"),
    (dict(must_play_drawn=True, play_drawn="numbers"), "must_play_drawn needs play_drawn=any"),
    (dict(mercy_limit=2), "mercy_limit 2 is not above hand_size"),
    (dict(mercy_limit=9, teams=2), "mercy_limit with teams"),
])
def test_invalid_section_10_rule_sets(knobs, expect):
    kinds = num(1, 2, 3, 4, 5)
    g = [deal(kinds, [["R2", "G3"], ["B4", "Y5"]], ["R1"], max_turns=1, **knobs)]
    g += [lead("R1"), P(0, "R2")]
    g = end(g, -1, "cap", 1, plays=1)
    assert any(expect in v for v in violations(g))


def test_explicit_points_win_over_the_default():
    kinds = num(1, 2, 3, 4) + [kind("5", True, 2, points=0), kind("X", True, 1, points=7)]
    good = [deal(kinds, [["R2", "G5", "BX"], ["B4", "Y5", "Y1"]], ["R1"], max_turns=1)]
    good += [lead("R1"), P(0, "R2")]
    good = end(good, -1, "cap", 1, plays=1)
    assert good[-1]["points"] == [7, 5]  # G5 counts 0, BX 7; B4 + Y5 (0) + Y1
    bad = replaced(good, -1, {**good[-1], "points": [25, 10]})  # the classic defaults
    accepts_and_rejects(good, bad, "end points")


# ---------------------------------------------------------------------------- matching and lead
def test_coloured_action_matches_by_colour_or_same_text():
    kinds = num(1, 2, 3, 4, 5) + [kind("X", True), kind("Z", True)]
    good = [deal(kinds, [["RX", "Y2", "Y3"], ["GX", "GZ", "B4"], ["B5", "Y4", "Y5"]], ["R1"], max_turns=2)]
    good += [lead("R1"), P(0, "RX"), P(1, "GX")]  # GX on RX: the same kind
    good = end(good, -1, "cap", 2, plays=2)
    bad = replaced(good, 3, P(1, "GZ"))  # neither red nor X
    accepts_and_rejects(good, bad, "does not match")


@pytest.mark.parametrize("back", ["RX", "W6"])
def test_lead_of_another_kind_goes_back(back):
    """10.5: under first_card=official only a number, S, R, D or W lead card stays."""
    kinds = num(1, 2, 3, 4, 5) + [kind("X", True), kind("W6", False, 1, draw=6)]
    g = [deal(kinds, [["R2", "G3"], ["B4", "Y5"]], [back, "R1"], max_turns=1)]
    pile = g[0]["pile"][1:] + [back]  # the returned card joins the pile (reshuffled: here at the bottom)
    good = g + [lead(back), {"ev": "return", "card": back, "pile": pile}, lead("R1"), P(0, "R2")]
    good = end(good, -1, "cap", 1, plays=1)
    bad = g + [lead(back), P(0, "R2")]
    bad = end(bad, -1, "cap", 1, plays=1)
    accepts_and_rejects(good, bad, "is not acceptable")


def test_lead_draw_kind_d_draws_its_own_draw():
    """10.8: a lead D draws its kind's draw (here 3); lead_draw_two_skips then skips seat 0."""
    kinds = num(1, 2, 3, 4, 5) + [kind("D", True, 1, draw=3)]
    g = [deal(kinds, [["G2", "G3"], ["R4", "Y5"]], ["RD", "B1", "B2", "B3"], max_turns=1)]
    good = g + [lead("RD"), D(0, ["B1", "B2", "B3"], "lead"), P(1, "R4")]
    good = end(good, -1, "cap", 1, plays=1, draws=3, max_pending=3)
    bad = replaced(good, 2, D(0, ["B1", "B2"], "lead"))
    accepts_and_rejects(good, bad, "more are owed")


# ---------------------------------------------------------------------------- draw kinds, 10.3
def test_other_draw_kinds_take_effect_at_once_under_classic_stacking():
    """10.3: without stack_by_value the stack knobs mean D and W4 only; W6 hits at once."""
    kinds = num(1, 2, 3, 4, 5) + [kind("W6", False, 2, draw=6)]
    hands = [["W6", "R2", "R3"], ["W6", "B4", "B5"], ["G2", "G3", "Y4"]]
    g = [deal(kinds, hands, ["R1"], max_turns=2, stack_draw_two=True, stack_draw_four=True)]
    pile = g[0]["pile"][1:]
    good = g + [lead("R1"), P(0, "W6", "G"), D(1, pile[:6], "penalty"), P(2, "G2")]
    good = end(good, -1, "cap", 2, plays=2, draws=6, max_pending=6)
    bad = replaced(good, 3, P(1, "W6", "B"))  # W6 never answers: it is not a chain
    accepts_and_rejects(good, bad, "expected draw by seat 1")


def test_stack_by_value_any_card_of_equal_or_higher_draw():
    """10.3: RD (2) answered by GD4 (4, another colour and text), then by W6 (6); seat 0
    cannot answer 6 and takes 12. A BD (2) cannot answer a 6."""
    kinds = num(1, 2, 3, 4, 5) + [kind("D", True, 1, draw=2), kind("D4", True, 1, draw=4),
                                  kind("W6", False, 1, draw=6)]
    hands = [["RD", "Y2", "Y3"], ["GD4", "B4", "B5"], ["W6", "BD", "G3"]]
    g = [deal(kinds, hands, ["R1"], max_turns=4, stack_by_value=True)]
    pile = g[0]["pile"][1:]
    # accepting is seat 0's turn (the 4th): the cap follows
    good = g + [lead("R1"), P(0, "RD"), P(1, "GD4"), P(2, "W6", "Y"), D(0, pile[:12], "penalty")]
    good = end(good, -1, "cap", 4, plays=3, draws=12, max_pending=12)
    bad = replaced(good, 4, P(2, "BD"))
    accepts_and_rejects(good, bad, "not a legal answer")


def test_stack_by_value_reverse_answer_hits_the_next_player_in_the_new_direction():
    kinds = num(1, 2, 3, 4, 5) + [kind("D", True, 1, draw=2), kind("WR4", False, 1, draw=4, reverse=True)]
    hands = [["RD", "Y2", "Y3"], ["WR4", "B4", "B5"], ["G2", "G3", "Y4"]]
    g = [deal(kinds, hands, ["R1"], max_turns=4, stack_by_value=True)]
    pile = g[0]["pile"][1:]
    # seat 1 answers with WR4: direction now counter-clockwise, its victim is seat 0
    good = g + [lead("R1"), P(0, "RD"), P(1, "WR4", "Y"), D(0, pile[:6], "penalty"), P(2, "Y4")]
    good = end(good, -1, "cap", 4, plays=3, draws=6, max_pending=6)
    bad = replaced(good, 4, D(2, pile[:6], "penalty"))
    accepts_and_rejects(good, bad, "wrong player")


def test_two_players_reverse_draw_card_hits_its_own_player():
    """10.2 step 5 / 10.8: with two players and two_player_reverse=skip, WR4 makes its own
    player draw 4; then the other player takes the turn."""
    kinds = num(1, 2, 3, 4, 5) + [kind("WR4", False, 1, draw=4, reverse=True)]
    g = [deal(kinds, [["WR4", "R2", "R3"], ["G2", "B4", "B5"]], ["R1"], max_turns=2)]
    pile = g[0]["pile"][1:]
    good = g + [lead("R1"), P(0, "WR4", "G"), D(0, pile[:4], "penalty"), P(1, "G2")]
    good = end(good, -1, "cap", 2, plays=2, draws=4, max_pending=4)
    bad = replaced(good, 3, D(1, pile[:4], "penalty"))
    accepts_and_rejects(good, bad, "expected draw by seat 0")


def test_two_players_reverse_draw_card_under_stack_by_value_can_be_sent_back():
    kinds = num(1, 2, 3, 4, 5) + [kind("WR4", False, 1, draw=4, reverse=True), kind("W6", False, 1, draw=6)]
    g = [deal(kinds, [["WR4", "W6", "R3"], ["G2", "B4", "B5"]], ["R1"], max_turns=3, stack_by_value=True)]
    pile = g[0]["pile"][1:]
    # seat 0 is its own victim (P = 4) and answers with W6 (6 >= 4): seat 1 takes 10 (turn 3)
    good = g + [lead("R1"), P(0, "WR4", "G"), P(0, "W6", "B"), D(1, pile[:10], "penalty")]
    good = end(good, -1, "cap", 3, plays=2, draws=10, max_pending=10)
    bad = replaced(good, 3, P(1, "G2"))  # seat 1 may not act while seat 0 is the victim
    accepts_and_rejects(good, bad, "wrong player")


# ---------------------------------------------------------------------------- skip all, 10.1 / 10.4
def test_skip_all_the_player_goes_again():
    kinds = num(1, 2, 3, 4, 5) + [kind("E", True, 2, skip="all")]
    hands = [["RE", "R2", "Y3"], ["R3", "B4", "B5"], ["G2", "G3", "Y4"]]
    g = [deal(kinds, hands, ["R1"], max_turns=3)]
    good = g + [lead("R1"), P(0, "RE"), P(0, "R2"), P(1, "R3")]
    good = end(good, -1, "cap", 3, plays=3)
    bad = replaced(good, 3, P(1, "R3"))
    accepts_and_rejects(good, bad, "wrong player")


@pytest.mark.parametrize("multi_skip", ["each", "once"])
def test_skip_all_multi_play_skips_everyone_once(multi_skip):
    kinds = num(1, 2, 3, 4, 5) + [kind("E", True, 2, skip="all")]
    hands = [["RE", "RE", "R2", "Y3"], ["R3", "B4", "B5", "G1"], ["G2", "G3", "Y4", "G4"]]
    g = [deal(kinds, hands, ["R1"], max_turns=2, multi_play="identical", multi_skip=multi_skip)]
    good = g + [lead("R1"), P(0, ["RE", "RE"]), P(0, "R2")]
    good = end(good, -1, "cap", 2, plays=3)
    bad = replaced(good, 3, P(2, "G2", "G"))  # two Skip Everyone are not two rounds of skips
    accepts_and_rejects(good, bad, "wrong player")


# ---------------------------------------------------------------------------- Discard All
def test_discard_all_puts_down_every_other_card_of_its_colour():
    kinds = num(1, 2, 3, 4, 5) + [kind("A", True, 1, discard_color=True)]
    hands = [["RA", "R2", "R3", "Y4"], ["R4", "B4", "B5", "G1"], ["G2", "G3", "Y5", "G4"]]
    g = [deal(kinds, hands, ["R1"], max_turns=2)]
    good = g + [lead("R1"), P(0, "RA", discard=["R3", "R2"]), P(1, "R4")]
    good = end(good, -1, "cap", 2, plays=4)
    bad = replaced(good, 2, P(0, "RA", discard=["R2"]))
    accepts_and_rejects(good, bad, "Discard All: seat 0 must put down")


def test_discard_all_emptying_the_hand_goes_out_but_not_under_number_finish():
    kinds = num(1, 2, 3, 4, 5) + [kind("A", True, 1, discard_color=True)]
    hands = [["RA", "R2"], ["B4", "B5"], ["G2", "G3"]]
    good = [deal(kinds, hands, ["R1"])]
    good += [lead("R1"), P(0, "RA", discard=["R2"])]
    good = end(good, 0, "out", 1, plays=2, winner_points=9 + 5)
    assert violations(good) == []
    bad = copy.deepcopy(good)
    bad[0]["rules"]["number_finish"] = True  # the Discard All card is the one put down last
    assert any("number_finish" in v for v in violations(bad))


# ---------------------------------------------------------------------------- roulette
def test_roulette_victim_turns_up_cards_until_the_named_colour():
    kinds = num(1, 2, 3, 4, 5) + [kind("WC", False, 1, roulette=True), kind("W", False, 1)]
    hands = [["WC", "R2", "R3"], ["B4", "B5", "Y1"], ["G2", "G3", "Y4"]]
    g = [deal(kinds, hands, ["R1", "Y2", "B3", "W", "G4"], max_turns=2)]
    # the wild W never counts; G4 ends it
    good = g + [lead("R1"), P(0, "WC", "G"), {"ev": "roulette", "p": 1, "color": "G"},
                D(1, ["Y2", "B3", "W", "G4"], "roulette"), P(2, "G2")]
    good = end(good, -1, "cap", 2, plays=2, draws=4, max_pending=0)
    accepts_and_rejects(good, replaced(good, 4, D(1, ["Y2", "B3", "W"], "roulette")), "more are owed")
    bad = replaced(good, 3, {"ev": "roulette", "p": 1, "color": "B"})
    assert any("roulette colour B differs" in v for v in violations(bad))


# ---------------------------------------------------------------------------- swap / shuffle hands
def test_swap_hands_kind_swaps_like_a_seven():
    kinds = num(1, 2, 3, 4, 5) + [kind("H", True, 1, swap_hands=True)]
    hands = [["RH", "R2", "Y3"], ["B3", "B4", "B5"], ["G2", "R3", "Y4"]]
    g = [deal(kinds, hands, ["R1"], max_turns=2)]
    # seat 1 holds no red card and no H: it draws
    good = g + [lead("R1"), P(0, "RH"), {"ev": "swap", "p": 0, "with": 2}, D(1, [g[0]["pile"][1]])]
    good = end(good, -1, "cap", 2, plays=1, draws=1)
    accepts_and_rejects(good, removed(good, 3), "expected 'swap'")


def test_shuffle_hands_deals_from_the_next_player_before_the_reverse():
    """10.8: a coloured shuffle + reverse kind: the deal-out starts at the next player in
    the direction before the card's own reverse. Seats hold 4, 4 and (after the play) 2:
    10 cards dealt from seat 0 give 4, 3, 3 (seat 0 first); after the reverse seat 1 plays."""
    kinds = num(1, 2, 3, 4, 5) + [kind("F", True, 1, shuffle_hands=True, reverse=True)]
    hands = [["Y2", "Y3", "Y4"], ["B3", "B4", "B5"], ["RF", "G2", "G3"]]
    g = [deal(kinds, hands, ["R1", "B1", "G1"], max_turns=4)]
    pre = g + [lead("R1"), D(0, ["B1"]), D(1, ["G1"]), P(2, "RF")]
    # the gathered cards: seat 0 Y2 Y3 Y4 B1, seat 1 B3 B4 B5 G1, seat 2 G2 G3
    shuffled = [["Y2", "Y3", "Y4", "B1"], ["G1", "B3", "B4"], ["B5", "G2", "G3"]]
    good = pre + [{"ev": "shuffle", "p": 2, "hands": shuffled}, D(1, [g[0]["pile"][3]])]
    good = end(good, -1, "cap", 4, plays=1, draws=3)
    wrong = [["Y2", "Y3", "Y4"], ["G1", "B3", "B4", "B1"], ["B5", "G2", "G3"]]  # dealt from seat 1
    bad = replaced(good, 5, {"ev": "shuffle", "p": 2, "hands": wrong})
    accepts_and_rejects(good, bad, "shuffle gives seat")


# ---------------------------------------------------------------------------- mercy rule, 10.5
def test_mercy_last_player_left_wins_and_scores_mercy_points():
    kinds = num(1, 2, 3, 4, 5)
    g = [deal(kinds, [["G2", "G3", "Y4"], ["R2", "B4", "B5"]], ["R1", "B1"], mercy_limit=4)]
    good = g + [lead("R1"), D(0, ["B1"]), ko(0, 4)]
    good = end(good, 1, "out", 1, draws=1, winner_points=250, knockouts=1, cards=[0, 3])
    assert good[-1]["points"] == [250, 11]
    accepts_and_rejects(good, removed(good, 3), "expected 'knockout'")
    bad = replaced(good, 3, ko(0, 3))
    assert any("knockout of seat 0 says 3 cards" in v for v in violations(bad))
    bad = replaced(good, -1, {**good[-1], "knockouts": 0})
    assert any("end knockouts" in v for v in violations(bad))


def mercy_game(mode):
    """3 players, mercy_limit 4, a 12-card deck: seat 1 draws to 4 and is knocked out; its
    cards join the reshuffle; turn order passes over it."""
    kinds = num(1, 2, 3, copies=1)
    hands = [["R2", "G1", "B1"], ["Y1", "Y3", "G3"], ["R3", "G2", "Y2"]]
    g = [deal(kinds, hands, ["R1"], mercy_limit=4, max_turns=5, mode=mode)]
    assert g[0]["pile"] == ["R1", "B2", "B3"]
    extra = {"place": 3} if mode == "last_standing" else {}
    g += [lead("R1"), P(0, "R2"), D(1, ["B2"]), ko(1, 4, **extra), P(2, "R3"), D(0, ["B3"]),
          {"ev": "reshuffle", "pile": ["Y1", "R2", "G3", "R1", "Y3", "B2"]}, D(2, ["Y1"])]
    return end(g, -1, "cap", 5, plays=2, draws=3, reshuffles=1, knockouts=1)


@pytest.mark.parametrize("mode", ["first_out", "last_standing"])
def test_mercy_knockout_set_aside_cards_and_turn_order(mode):
    good = mercy_game(mode)
    assert violations(good) == []
    no_aside = replaced(good, 7, {"ev": "reshuffle", "pile": ["R2", "R1"]})
    assert any("plus the set-aside cards" in v for v in violations(no_aside))
    assert any("wrong player" in v for v in violations(replaced(good, 5, D(1, ["B3"]))))
    if mode == "last_standing":
        bad = replaced(good, 4, ko(1, 4, place=1))
        assert any("knockout place 1" in v for v in violations(bad))
    else:
        bad = replaced(good, 4, ko(1, 4, place=3))
        assert any("only under last_standing" in v for v in violations(bad))


def test_mercy_knockout_ends_a_draw_split_by_a_reshuffle():
    """10.8: checked after each part of a draw: seat 1 owes 2, the pile holds 1; the first
    card makes 6 (mercy_limit 6): it is knocked out and owes nothing more (no reshuffle)."""
    kinds = num(1, 2, 3, copies=1) + [kind("D", True, 1, draw=2)]
    hands = [["R2", "RD", "G1", "B1"], ["Y1", "Y2", "Y3", "G3"], ["R3", "G2", "YD", "GD"]]
    g = [deal(kinds, hands, ["R1"], mercy_limit=6, max_turns=5)]
    assert g[0]["pile"] == ["R1", "B2", "B3", "BD"]
    good = g + [lead("R1"), P(0, "R2"), D(1, ["B2"]), D(2, ["B3"]), P(0, "RD"), D(1, ["BD"], "penalty"),
                ko(1, 6), P(2, "R3")]
    good = end(good, -1, "cap", 5, plays=3, draws=3, max_pending=1, knockouts=1)
    bad = good[:7] + [{"ev": "reshuffle", "pile": ["R1", "R2"]}, D(1, ["R1"], "penalty")] + good[7:]
    accepts_and_rejects(good, bad, "expected 'knockout'")


# ---------------------------------------------------------------------------- must_play_drawn
def test_must_play_drawn():
    kinds = num(1, 2, 3, 4, 5)
    g = [deal(kinds, [["G2", "G3", "Y4"], ["B2", "B4", "B5"]], ["R1", "R2", "B3"],
              must_play_drawn=True, max_turns=2)]
    good = g + [lead("R1"), D(0, ["R2"]), P(0, "R2"), P(1, "B2")]
    good = end(good, -1, "cap", 2, plays=2, draws=1)
    bad = g + [lead("R1"), D(0, ["R2"]), D(1, ["B3"])]
    bad = end(bad, -1, "cap", 2, draws=2)
    accepts_and_rejects(good, bad, "keeps its playable drawn card")
    free = copy.deepcopy(bad)
    free[0]["rules"]["must_play_drawn"] = False
    assert violations(free) == []


# ---------------------------------------------------------------------------- challenge, 10.8
@pytest.mark.parametrize("guilty", [True, False])
def test_challenge_of_a_restricted_kind_uses_its_own_draw(guilty):
    kinds = num(1, 2, 3, 4, 5) + [kind("W8", False, 1, draw=8, restricted=True)]
    own = "R3" if guilty else "Y3"  # holding red (the current colour) makes W8 a bluff
    g = [deal(kinds, [["W8", own, "G3"], ["B2", "B4", "B5"]], ["R1"], max_turns=2)]
    pile = g[0]["pile"][1:]
    n = 8 if guilty else 8 + 2
    drawer = 0 if guilty else 1
    good = g + [lead("R1"), P(0, "W8", "B"), {"ev": "challenge", "p": 1, "target": 0, "guilty": guilty},
                D(drawer, pile[:n], "challenge")]
    # guilty: the challenger plays (challenge_win_plays); not guilty: it lost the turn, and
    # seat 0 (Y3, G3 on blue) draws
    good += [P(1, "B2")] if guilty else [D(0, [pile[n]])]
    good = end(good, -1, "cap", 2, plays=2 if guilty else 1, draws=n + (0 if guilty else 1), challenges=1)
    bad = replaced(good, 4, D(drawer, pile[:4 if guilty else 6], "challenge"))  # the classic 4 / 4 + 2
    accepts_and_rejects(good, bad, "more are owed")


# ---------------------------------------------------------------------------- last card, 10.8
@pytest.mark.parametrize("mercy", [0, 4])
def test_winning_reverse_draw_card_hits_the_other_player_who_may_be_knocked_out(mercy):
    """10.8: a winning card's penalty always hits the next other player still in (with two
    players not its own player); a player pushed over the limit in a decided round is
    knocked out too."""
    kinds = num(1, 2, 3, 4, 5) + [kind("WR4", False, 1, draw=4, reverse=True)]
    g = [deal(kinds, [["WR4", "R2"], ["G2", "B4"]], ["R1"], mercy_limit=mercy)]
    pile = g[0]["pile"][1:]
    good = g + [lead("R1"), P(0, "R2"), D(1, [pile[0]]), P(0, "WR4", "G"), D(1, pile[1:5], "penalty")]
    extra = dict(plays=2, draws=5, max_pending=4)
    if mercy:
        good += [ko(1, 7)]
        good = end(good, 0, "out", 3, winner_points=250, knockouts=1, cards=[0, 0], **extra)
        assert good[-1]["points"] == [0, 250]
    else:
        good = end(good, 0, "out", 3, **extra)
    bad = replaced(good, 5, D(0, pile[1:5], "penalty"))
    accepts_and_rejects(good, bad, "expected draw by seat 1")


def test_mercy_last_standing_knockout_takes_the_worst_place_and_the_last_player_wins():
    kinds = num(1, 2, 3, 4, 5)
    g = [deal(kinds, [["G2", "G3", "Y4"], ["R2", "B4", "B5"]], ["R1", "B1"], mercy_limit=4, mode="last_standing")]
    # seat 0 takes place 2 (the worst free), seat 1 place 1: it scores 2 + 1 - 2 * 1 = 1
    good = g + [lead("R1"), D(0, ["B1"]), ko(0, 4, place=2)]
    good = end(good, 1, "out", 1, draws=1, winner_points=1, knockouts=1, cards=[0, 3])
    accepts_and_rejects(good, replaced(good, 3, ko(0, 4, place=1)), "knockout place 1")


def test_winning_roulette_card_still_makes_its_victim_turn_up_cards():
    """10.8: with last_card_penalty a winning roulette card still hits; without it the
    round ends at once."""
    kinds = num(1, 2, 3, 4, 5) + [kind("WC", False, 1, roulette=True)]
    g = [deal(kinds, [["WC"], ["B4"], ["G2"]], ["R1", "Y2", "G4"])]
    good = g + [lead("R1"), P(0, "WC", "G"), {"ev": "roulette", "p": 1, "color": "G"},
                D(1, ["Y2", "G4"], "roulette")]
    good = end(good, 0, "out", 1, plays=1, draws=2, winner_points=10 + 2)
    no_penalty = copy.deepcopy(good)
    no_penalty[0]["rules"]["last_card_penalty"] = False
    accepts_and_rejects(good, no_penalty, "the round should end here")
    dropped = end(copy.deepcopy(no_penalty[:3]), 0, "out", 1, plays=1, winner_points=4 + 2)
    assert violations(dropped) == []


def test_stack_by_value_identical_jump_in_answers_the_pending_penalty():
    """10.8: an identical jump-in during a pending penalty is an answer like any other: seat
    2 jumps in with the second RD, the penalty (4) passes to the player after it, seat 0."""
    kinds = num(1, 2, 3, 4, 5) + [kind("D", True, 2, draw=2)]
    hands = [["RD", "Y2", "Y3"], ["B3", "B4", "B5"], ["RD", "G2", "G3"]]
    g = [deal(kinds, hands, ["R1"], max_turns=2, stack_by_value=True, jump_in=True)]
    pile = g[0]["pile"][1:]
    good = g + [lead("R1"), P(0, "RD"), {"ev": "jump", "p": 2, "card": "RD", "color": "R"},
                D(0, pile[:4], "penalty")]
    good = end(good, -1, "cap", 2, plays=2, draws=4, max_pending=4)
    accepts_and_rejects(good, replaced(good, 4, D(1, pile[:4], "penalty")), "wrong player")
