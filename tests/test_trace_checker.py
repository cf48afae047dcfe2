"""Tests of the independent trace checker (tests/trace_checker.py).

(a) the shared example traces replay cleanly and reproduce their CSV rows;
(b) corrupted examples are rejected;
(c) tiny hand-written games for rules the examples do not exercise: each legal trace is
    accepted and a one-event corruption of it is rejected.
"""
from __future__ import annotations

import copy
import csv
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from replay import SEED_KNOBS  # noqa: E402
from trace_checker import DEFAULT_RULES, check_trace_lines  # noqa: E402
from uno_sim.game.knobs import DEFAULTS  # noqa: E402


def _shared_dir():
    here = Path(__file__).resolve().parents[2] / "shared"
    if (here / "examples").is_dir():
        return here
    env = os.environ.get("UNO_SIM_SHARED")
    if env and (Path(env) / "examples").is_dir():
        return Path(env)
    return None


SHARED = _shared_dir()
needs_shared = pytest.mark.skipif(
    SHARED is None, reason="shared/examples not found (next to the repo or via UNO_SIM_SHARED)")
EXAMPLES = ["standard-4p", "stacking-deflect-5p", "jumpin-sevenzero-4p"]


def example_events(name):
    lines = (SHARED / "examples" / f"{name}.jsonl").read_text().splitlines()
    return [json.loads(x) for x in lines if x.strip()]


def run(events):
    return check_trace_lines(json.dumps(e) for e in events)


def all_violations(events):
    return [v for rep in run(events) for v in rep.violations]


def find(events, **match):
    """Index of the first event whose fields equal `match`."""
    for i, e in enumerate(events):
        if all(e.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no event {match}")


# ---------------------------------------------------------------------------- (a) examples
@needs_shared
@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_replay_clean_and_match_csv(name):
    table = SHARED / "examples" / f"{name}.csv"
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    # the example deals predate the knobs of the sheets' other house rules: they play at their defaults
    events = example_events(name)
    for e in events:
        if e["ev"] == "deal":
            e["rules"] = {**{k: DEFAULTS[k] for k in SEED_KNOBS}, **e["rules"]}
    reports = check_trace_lines((json.dumps(e) for e in events), [dict(r) for r in rows])
    assert [v for r in reports for v in r.violations] == []
    assert len(reports) == len(rows)
    for rep, row in zip(reports, rows):
        want = {k: (v if k == "reason" else int(v)) for k, v in row.items()}
        assert rep.record == want


@needs_shared
def test_csv_mismatch_is_reported():
    table = SHARED / "examples" / "standard-4p.csv"
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    rows[1]["draws"] = str(int(rows[1]["draws"]) + 1)
    lines = (SHARED / "examples" / "standard-4p.jsonl").read_text().splitlines()
    vs = [v for r in check_trace_lines(lines, rows) for v in r.violations]
    assert any("csv draws" in v for v in vs)


def test_cli_exit_status(tmp_path):
    from trace_checker import main
    events = stall_game()
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    assert main([str(good), "-q"]) == 0
    bad = tmp_path / "bad.jsonl"
    events[-1]["turns"] += 1
    bad.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    assert main([str(bad), "-q"]) == 1


# ---------------------------------------------------------------------------- (b) mutations
def mutated(name, fn):
    events = example_events(name)
    fn(events)
    return all_violations(events)


@needs_shared
def test_rejects_non_matching_play():
    def fn(ev):  # game 0: top R9 (red); seat 1 holds G0
        i = find(ev, ev="play", p=1, card="R2")
        ev[i].update(card="G0", color="G")
    assert any("does not match" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_drawn_card_not_pile_top():
    def fn(ev):
        ev[find(ev, ev="draw", p=1, cards=["R8"])]["cards"] = ["G6"]
    assert any("not the pile top" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_wrong_turns_in_end():
    def fn(ev):
        ev[find(ev, ev="end")]["turns"] -= 1
    assert any("end turns" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_wrong_player():
    def fn(ev):  # seat 2 must act after seat 1's draw; seat 3 holds a Y9 too
        ev[find(ev, ev="play", p=2, card="Y9")]["p"] = 3
    assert any("wrong player" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_wd4_bluff_without_challenge():
    def fn(ev):  # seat 0 holds G5 while the colour is green
        ev[0]["rules"]["challenge"] = False
        ev[find(ev, ev="play", p=0, card="R9")].update(card="W4", color="R")
    vs = mutated("standard-4p", fn)
    assert any("Wild Draw Four against wd4_rule" in v for v in vs)


@needs_shared
def test_rejects_random_bot_bluff_with_challenge():
    def fn(ev):
        ev[find(ev, ev="play", p=0, card="R9")].update(card="W4", color="R")
    assert any("bluffs a Wild Draw Four" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_missing_penalty_draw():
    def fn(ev):
        del ev[find(ev, ev="draw", p=3, why="penalty")]
    assert any("why 'penalty'" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_wrong_penalty_count():
    def fn(ev):
        i = find(ev, ev="draw", p=3, why="penalty")
        ev[i]["cards"] = ev[i]["cards"][:3]
    assert any("more are owed" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_random_bot_not_jumping_in():
    def fn(ev):
        del ev[find(ev, ev="jump", p=1, card="G8")]
    assert any("could jump in" in v for v in mutated("jumpin-sevenzero-4p", fn))


@needs_shared
def test_rejects_jump_with_different_card():
    def fn(ev):
        ev[find(ev, ev="jump", p=1, card="G8")]["card"] = "G5"
    assert any("not identical" in v for v in mutated("jumpin-sevenzero-4p", fn))


@needs_shared
def test_rejects_swap_with_self():
    def fn(ev):
        ev[find(ev, ev="swap", p=2, **{"with": 0})]["with"] = 2
    assert any("invalid swap target" in v for v in mutated("jumpin-sevenzero-4p", fn))


@needs_shared
def test_rejects_swap_with_wrong_player():
    def fn(ev):  # hands exchanged with the wrong seat: seat 0 later plays cards it lacks
        ev[find(ev, ev="swap", p=2, **{"with": 0})]["with"] = 1
    assert any("does not hold" in v for v in mutated("jumpin-sevenzero-4p", fn))


@needs_shared
def test_rejects_missing_rotate():
    def fn(ev):
        del ev[find(ev, ev="rotate")]
    assert any("expected 'rotate'" in v for v in mutated("jumpin-sevenzero-4p", fn))


@needs_shared
def test_rejects_missing_uno_call_of_random_bot():
    def fn(ev):
        del ev[find(ev, ev="uno", p=1)]
    assert any("no 'uno' call" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_random_bot_not_answering_stack():
    def fn(ev):  # stacking game 1: seat 0 answers YD with W4; make it accept instead
        i = find(ev, ev="play", p=0, card="W4", color="Y")
        ev[i] = {"ev": "draw", "p": 0, "cards": ["Y8", "R6"], "why": "penalty"}
    assert any("although it can answer" in v for v in mutated("stacking-deflect-5p", fn))


@needs_shared
def test_rejects_random_bot_keeping_playable_drawn_card():
    def fn(ev):  # standard game 0: seat 2 draws W4 and must play it
        del ev[find(ev, ev="play", p=2, card="W4", color="G")]
    assert any("playable drawn card" in v for v in mutated("standard-4p", fn))


@needs_shared
def test_rejects_bad_return_pile():
    def fn(ev):
        ev[find(ev, ev="return")]["pile"][0] = "R8"
    assert any("return pile" in v for v in mutated("stacking-deflect-5p", fn))


@needs_shared
def test_rejects_wrong_end_points():
    def fn(ev):
        ev[find(ev, ev="end")]["points"][2] += 1
    assert any("end points" in v for v in mutated("jumpin-sevenzero-4p", fn))


# ---------------------------------------------------------------------------- (c) tiny games


def deck():
    d = Counter({"W": 4, "W4": 4})
    for c in "RYGB":
        d[c + "0"] = 1
        for s in "123456789SRD":
            d[c + s] = 2
    return d


def points(cards):
    return sum(50 if c[0] == "W" else int(c[1]) if c[1].isdigit() else 20 for c in cards)


def deal(hands, pile_top, *, hand_size=None, bots="random", dealer=None, **knobs):
    """A deal event: hands given (filled up to hand_size from the rest of the deck), pile
    starting with pile_top, then the remaining cards in a fixed order."""
    n = len(hands)
    hand_size = hand_size or len(hands[0])
    rest = deck()
    for c in list(pile_top) + [c for h in hands for c in h]:
        assert rest[c] > 0, c
        rest[c] -= 1
    pool = sorted(rest.elements())
    hands = [list(h) for h in hands]
    for h in hands:
        while len(h) < hand_size:
            h.append(pool.pop(0))
    rules = {**DEFAULT_RULES, **knobs, "players": n, "hand_size": hand_size}
    return {"ev": "deal", "game": 0, "players": n, "dealer": n - 1 if dealer is None else dealer,
            "rules": rules, "bots": [bots] * n if isinstance(bots, str) else list(bots),
            "hands": hands, "pile": list(pile_top) + pool}


def end(events, winner, reason, turns, **extra):
    """The end event, with hand points from plain bookkeeping of the events."""
    hands = [Counter(h) for h in events[0]["hands"]]
    for e in events[1:]:
        if e["ev"] in ("play", "jump"):
            hands[e["p"]] -= Counter(e.get("cards") or [e["card"]])
        elif e["ev"] == "draw":
            hands[e["p"]] += Counter(e["cards"])
        elif e["ev"] == "swap":
            hands[e["p"]], hands[e["with"]] = hands[e["with"]], hands[e["p"]]
        elif e["ev"] == "swap3":  # Wild swap: k cards each way
            hands[e["p"]] = hands[e["p"]] + Counter(e["got"]) - Counter(e["gave"])
            hands[e["with"]] = hands[e["with"]] + Counter(e["gave"]) - Counter(e["got"])
        elif e["ev"] == "out" and e.get("how") == "hand_sum":  # the hand is laid down
            hands[e["p"]] -= Counter(e["cards"])
    ev = {"ev": "end", "winner": winner, "reason": reason, "turns": turns,
          "points": [points(h.elements()) for h in hands]}
    ev.update(extra)
    return events + [ev]


def P(p, card, color=None, **kw):
    ev = {"ev": "play", "p": p, "color": color or card[0]}
    ev.update({"cards": card} if isinstance(card, list) else {"card": card})
    ev.update(kw)
    return ev


def D(p, cards, why="turn"):
    return {"ev": "draw", "p": p, "cards": list(cards), "why": why}


def lead(card):
    return {"ev": "lead", "card": card}


def uno(p):
    return {"ev": "uno", "p": p}


def accepts_and_rejects(good, bad, expect):
    assert all_violations(good) == []
    vs = all_violations(bad)
    assert any(expect in v for v in vs), vs


def replaced(events, i, new):
    out = copy.deepcopy(events)
    out[i] = new
    return out


def removed(events, i):
    out = copy.deepcopy(events)
    del out[i]
    return out


def inserted(events, i, new):
    out = copy.deepcopy(events)
    out.insert(i, new)
    return out


# -- pile exhaustion: stall, void, reshuffle (2 players with huge hands; greedy bots may draw
#    voluntarily, only legality is checked for them)
def stall_game():
    g = [deal([[], []], ["R5", "G1"], hand_size=53, bots="greedy")]
    g += [lead("R5"), D(0, ["G1"]), D(1, []), D(0, [])]
    return end(g, -1, "stall", 3, plays=0, draws=1, reshuffles=0, max_pending=0, winner_points=0)


def test_stall():
    good = stall_game()
    accepts_and_rejects(good, removed(good, 4), "take its turn")  # ends after one idle turn


def test_void_mid_penalty():
    g = [deal([["RD"], []], ["R5", "G1"], hand_size=53, bots="greedy", empty_pile="void")]
    g += [lead("R5"), P(0, "RD"), D(1, ["G1"], "penalty")]
    good = end(g, -1, "void", 1, plays=1, draws=1, max_pending=1)
    bad = inserted(good, 4, D(1, [], "penalty"))  # no empty draw under void
    accepts_and_rejects(good, bad, "should end void")


def test_void_at_turn_start():
    g = [deal([[], []], ["R5", "G1"], hand_size=53, bots="greedy", empty_pile="void")]
    g += [lead("R5"), D(0, ["G1"])]
    good = end(g, -1, "void", 2, draws=1)
    bad = replaced(good, -1, {**good[-1], "turns": 1})  # the cut-short turn counts
    accepts_and_rejects(good, bad, "end turns")


def test_reshuffle():
    g = [deal([["R6"], ["R7"]], ["R5", "G1", "G2", "G3"], hand_size=52, bots="greedy", max_turns=7)]
    g += [lead("R5"), P(0, "R6"), P(1, "R7"), D(0, ["G1"]), D(1, ["G2"]), D(0, ["G3"]),
          {"ev": "reshuffle", "pile": ["R6", "R5"]}, D(1, ["R6"]), D(0, ["R5"])]
    good = end(g, -1, "cap", 7, reshuffles=1, draws=5, plays=2)
    bad = replaced(good, 7, {"ev": "reshuffle", "pile": ["R7", "R5"]})  # includes the top card
    accepts_and_rejects(good, bad, "discard pile minus its top")


def test_reshuffle_only_when_pile_empty():
    good = [deal([["R6"], ["R7"]], ["R5", "G1", "G2", "G3"], hand_size=52, bots="greedy", max_turns=7)]
    good += [lead("R5"), P(0, "R6"), P(1, "R7"), D(0, ["G1"]), D(1, ["G2"]), D(0, ["G3"]),
             {"ev": "reshuffle", "pile": ["R6", "R5"]}, D(1, ["R6"]), D(0, ["R5"])]
    good = end(good, -1, "cap", 7, reshuffles=1)
    bad = inserted(good, 5, {"ev": "reshuffle", "pile": ["R6", "R5"]})
    assert all_violations(good) == []
    assert any("reshuffle" in v for v in all_violations(bad))


def test_draw_split_around_reshuffle():
    # seat 1 owes 2 (Draw Two) with one card left in the pile: draw 1, reshuffle, draw 1
    g = [deal([["RD"], []], ["R5", "G1"], hand_size=53, bots="greedy", max_turns=1)]
    g += [lead("R5"), P(0, "RD"), D(1, ["G1"], "penalty"), {"ev": "reshuffle", "pile": ["R5"]},
          D(1, ["R5"], "penalty")]
    good = end(g, -1, "cap", 1, reshuffles=1, max_pending=2, draws=2)
    bad = removed(good, 5)  # the rest of the obligation is missing
    accepts_and_rejects(good, bad, "expected draw by seat 1")


# -- challenges
def test_challenge_guilty():
    g = [deal([["W4", "R1", "G2"], ["G7", "B8", "Y9"]], ["R5", "B1", "B2", "B3", "B4"],
              bots=["bluffer", "expert"], max_turns=2)]
    g += [lead("R5"), P(0, "W4", "G"), {"ev": "challenge", "p": 1, "target": 0, "guilty": True},
          D(0, ["B1", "B2", "B3", "B4"], "challenge"), P(1, "G7")]
    good = end(g, -1, "cap", 2, challenges=1, max_pending=0, draws=4)
    bad = replaced(good, 3, {"ev": "challenge", "p": 1, "target": 0, "guilty": False})
    accepts_and_rejects(good, bad, "verdict")


def test_challenge_guilty_without_win_plays():
    g = [deal([["W4", "R1", "G2"], ["G7", "B8", "Y9"]], ["R5", "B1", "B2", "B3", "B4"],
              bots=["bluffer", "expert"], max_turns=2, challenge_win_plays=False)]
    g += [lead("R5"), P(0, "W4", "G"), {"ev": "challenge", "p": 1, "target": 0, "guilty": True},
          D(0, ["B1", "B2", "B3", "B4"], "challenge"), P(0, "G2")]
    good = end(g, -1, "cap", 2, challenges=1)
    bad = replaced(good, 5, P(1, "G7"))  # the winning challenger is still skipped
    accepts_and_rejects(good, bad, "wrong player")


def test_challenge_not_guilty():
    g = [deal([["W4", "G1", "G2"], ["B7", "B8", "Y9"]], ["R5", "B1", "B2", "B3", "B4", "Y1", "Y2"],
              bots=["greedy", "expert"], max_turns=2)]
    g += [lead("R5"), P(0, "W4", "G"), {"ev": "challenge", "p": 1, "target": 0, "guilty": False},
          D(1, ["B1", "B2", "B3", "B4", "Y1", "Y2"], "challenge"), P(0, "G1"), uno(0)]
    good = end(g, -1, "cap", 2, challenges=1, draws=6, max_pending=0)
    bad = replaced(good, 4, D(1, ["B1", "B2", "B3", "B4"], "challenge"))  # 4 + challenge_extra owed
    accepts_and_rejects(good, bad, "more are owed")


def test_random_bot_never_challenges():
    g = [deal([["W4", "G1", "G2"], ["B7", "B8", "Y9"]], ["R5", "B1", "B2", "B3", "B4", "Y1", "Y2"],
              bots=["greedy", "random"], max_turns=2)]
    good = g + [lead("R5"), P(0, "W4", "G"), D(1, ["B1", "B2", "B3", "B4"], "penalty"), P(0, "G1"), uno(0)]
    good = end(good, -1, "cap", 2, max_pending=4)
    bad = g + [lead("R5"), P(0, "W4", "G"), {"ev": "challenge", "p": 1, "target": 0, "guilty": False},
               D(1, ["B1", "B2", "B3", "B4", "Y1", "Y2"], "challenge"), P(0, "G1"), uno(0)]
    bad = end(bad, -1, "cap", 2, challenges=1)
    accepts_and_rejects(good, bad, "random bot seat 1 challenges")


# -- lead cards
@pytest.mark.parametrize("skips", [True, False])
def test_lead_draw_two(skips):
    hands = [["R7"], ["R3"], ["B4"]]
    g = [deal(hands, ["RD", "Y1", "Y2"], lead_draw_two_skips=skips, max_turns=1)]
    g += [lead("RD"), D(0, ["Y1", "Y2"], "lead")]
    if skips:  # seat 0 loses the turn, seat 1 goes out
        good = end(g + [P(1, "R3")], 1, "out", 1, draws=2, max_pending=2, plays=1)
        bad = end(g + [P(0, "R7")], -1, "cap", 1)
    else:  # seat 0 draws 2 and plays
        good = end(g + [P(0, "R7")], -1, "cap", 1, draws=2, max_pending=2, plays=1)
        bad = end(g + [P(1, "R3")], 1, "out", 1)
    accepts_and_rejects(good, bad, "wrong player")


@pytest.mark.parametrize("mode,first", [("dealer", 3), ("right", 2), ("left", 0)])
def test_lead_reverse(mode, first):
    hands = [["R1"], ["R2"], ["R3"], ["R4"]]
    base = [deal(hands, ["RR"], lead_reverse=mode), lead("RR")]
    good = end(base + [P(first, hands[first][0])], first, "out", 1)
    wrong = {3: 2, 2: 0, 0: 3}[first]
    bad = end(base + [P(wrong, hands[wrong][0])], wrong, "out", 1)
    accepts_and_rejects(good, bad, "wrong player")


def test_lead_reverse_sets_counter_clockwise():
    hands = [["R1", "B1"], ["R2", "B2"], ["R3", "B3"], ["R4", "B4"]]
    g = [deal(hands, ["RR"], bots="greedy", max_turns=2), lead("RR"), P(3, "R4"), uno(3), P(2, "R3"), uno(2)]
    good = end(g, -1, "cap", 2)
    bad = replaced(good, 4, P(0, "R1"))
    accepts_and_rejects(good, bad, "wrong player")


def test_lead_wild_draw_four_returned_and_wild_chosen():
    d = deal([["R1"], ["G2"]], ["W4", "W", "B9"])
    g = [d, lead("W4"), {"ev": "return", "card": "W4", "pile": d["pile"][1:] + ["W4"]}, lead("W"),
         {"ev": "choose", "p": 0, "color": "R"}, P(0, "R1")]
    good = end(g, 0, "out", 1)
    bad = replaced(good, 4, {"ev": "choose", "p": 1, "color": "R"})
    accepts_and_rejects(good, bad, "choose a colour")


def test_first_card_number():
    d = deal([["G1"], ["B2"]], ["RS", "G5"], first_card="number")
    g = [d, lead("RS"), {"ev": "return", "card": "RS", "pile": d["pile"][1:] + ["RS"]}, lead("G5"),
         P(0, "G1")]
    good = end(g, 0, "out", 1)
    bad = removed(good, 2)  # a non-number lead must go back
    accepts_and_rejects(good, bad, "return")


# -- last_standing, teams
def test_last_standing():
    g = [deal([["R1"], ["R2"], ["B3"]], ["R5"], mode="last_standing"), lead("R5"),
         P(0, "R1"), {"ev": "out", "p": 0, "place": 1}, P(1, "R2"), {"ev": "out", "p": 1, "place": 2}]
    good = end(g, 0, "out", 2, winner_points=2, cards=[0, 0, 1])
    bad = replaced(good, 5, {"ev": "out", "p": 1, "place": 1})
    accepts_and_rejects(good, bad, "out place")


def test_last_standing_effects_from_out_seat():
    # seat 0 goes out with a Skip: the Skip applies from seat 0's seat and skips seat 1
    hands = [["R1", "RS"], ["R3", "B4"], ["R6", "R7"]]
    g = [deal(hands, ["R5"], mode="last_standing"), lead("R5"),
         P(0, "R1"), uno(0), P(1, "R3"), uno(1), P(2, "R6"), uno(2),
         P(0, "RS"), {"ev": "out", "p": 0, "place": 1}, P(2, "R7"), {"ev": "out", "p": 2, "place": 2}]
    good = end(g, 0, "out", 5, winner_points=2, cards=[0, 1, 0])
    bad = replaced(good, 10, P(1, "B4", "B"))
    accepts_and_rejects(good, bad, "wrong player")


def test_last_standing_a_draw_card_that_empties_a_hand_with_two_others_in_is_answered():
    # SPEC 9: with two or more others still in, the emptying Draw Two is no winning card: its
    # victim (random) answers it with GD, whose own victim accepts the four on a counted turn
    first = deal([["RD"], ["GD"], ["B3"], ["Y4"]], ["R5"], mode="last_standing", stack_draw_two=True, max_turns=3)
    pile = first["pile"]
    g = [first, lead("R5"), P(0, "RD"), {"ev": "out", "p": 0, "place": 1},
         P(1, "GD"), {"ev": "out", "p": 1, "place": 2}, D(2, pile[1:5], "penalty")]
    good = end(g, -1, "cap", 3, winner_points=0, max_pending=4, cards=[0, 0, 5, 1])
    # the old reading: seat 1 draws the two at once, without answering
    bad = [first, lead("R5"), P(0, "RD"), {"ev": "out", "p": 0, "place": 1}, D(1, pile[1:3], "penalty")]
    vs = all_violations(end(bad, -1, "cap", 1, winner_points=0))
    assert all_violations(good) == []
    assert any("answer" in v for v in vs), vs


def test_teams_winner_points():
    g = [deal([["R1"], ["G2"], ["B3"], ["Y4"]], ["R5"], teams=2), lead("R5"), P(0, "R1")]
    good = end(g, 0, "out", 1, winner_points=2 + 4)
    bad = end(g, 0, "out", 1, winner_points=2 + 3 + 4)
    accepts_and_rejects(good, bad, "winner_points")


def test_teams_last_standing_winner_points():
    g = [deal([["R1"], ["R2"], ["R3"], ["B4"]], ["R5"], teams=2, mode="last_standing"), lead("R5")]
    for p in range(3):
        g += [P(p, f"R{p + 1}"), {"ev": "out", "p": p, "place": p + 1}]
    good = end(g, 0, "out", 3, winner_points=3 - 1)  # seats 0 and 2: +3 and -1
    bad = end(g, 0, "out", 3, winner_points=3)
    accepts_and_rejects(good, bad, "winner_points")


# -- number_finish
def test_number_finish():
    base = [deal([["RS"], ["R7"]], ["R5", "B9"], number_finish=True), lead("R5")]
    good = end(base + [D(0, ["B9"]), P(1, "R7")], 1, "out", 2)
    bad = end(base + [P(0, "RS")], 0, "out", 1)
    accepts_and_rejects(good, bad, "number_finish")


# -- stacking with deflect, two players
def stack_rules():
    return dict(stack_draw_two=True, deflect=True, max_turns=4)


@pytest.mark.parametrize("deflector", ["RS", "RR"])
def test_stacking_deflect_two_players(deflector):
    g = [deal([["RD", "G1", "G2"], [deflector, "R8", "B4"]], ["R5", "Y1", "Y2"], **stack_rules())]
    g += [lead("R5"), P(0, "RD"), P(1, deflector), D(0, ["Y1", "Y2"], "penalty"), P(1, "R8"), uno(1)]
    good = end(g, -1, "cap", 4, max_pending=2)
    bad = replaced(good, 3, D(1, ["Y1", "Y2"], "penalty"))  # random accepts although it can deflect
    accepts_and_rejects(good, bad, "although it can answer")


def test_stacking_rejects_number_answer():
    g = [deal([["RD", "R1", "G2"], ["R9", "R8", "B4"]], ["R5", "Y1", "Y2"], bots="greedy",
              **{**stack_rules(), "max_turns": 3})]
    g += [lead("R5"), P(0, "RD"), D(1, ["Y1", "Y2"], "penalty"), P(0, "R1"), uno(0)]
    good = end(g, -1, "cap", 3, max_pending=2)
    bad = replaced(good, 3, P(1, "R9"))
    accepts_and_rejects(good, bad, "not a legal answer")


def test_stacked_chain_accumulates():
    rules = dict(stack_draw_two=True, stack_four_on_two=True, max_turns=3)
    g = [deal([["RD", "G1"], ["GD", "W4"], ["B1", "B2"]], ["R5", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"],
              **rules)]
    g += [lead("R5"), P(0, "RD"), uno(0), P(1, "GD"), uno(1), D(2, ["Y1", "Y2", "Y3", "Y4"], "penalty")]
    good = end(g, -1, "cap", 3, max_pending=4)
    bad = replaced(good, 6, D(2, ["Y1", "Y2"], "penalty"))
    accepts_and_rejects(good, bad, "more are owed")


# -- multi-play
@pytest.mark.parametrize("mode", ["same_symbol", "identical"])
def test_multi_play(mode):
    cards = ["G5", "B5"] if mode == "same_symbol" else ["B5", "B5"]
    g = [deal([cards + ["Y1"], ["B2", "Y7", "G8"]], ["R5"], bots="greedy", multi_play=mode, max_turns=2)]
    g += [lead("R5"), P(0, cards, "B"), uno(0), P(1, "B2")]
    good = end(g, -1, "cap", 2, plays=3)
    bad = replaced(good, 2, P(0, [cards[0], "Y1"], "Y"))
    accepts_and_rejects(good, bad, "multi-play set")


def test_multi_play_off_rejected():
    g = [deal([["G5", "B5", "Y1"], ["B2", "Y7", "G8"]], ["R5"], bots="greedy", multi_play="off",
              max_turns=2)]
    good = g + [lead("R5"), P(0, "G5"), P(1, "G8")]
    good = end(good, -1, "cap", 2)
    bad = g + [lead("R5"), P(0, ["G5", "B5"], "B"), uno(0), P(1, "B2")]
    bad = end(bad, -1, "cap", 2, plays=3)
    accepts_and_rejects(good, bad, "multi_play=off")


@pytest.mark.parametrize("multi_skip,next_seat", [("each", 0), ("once", 2)])
def test_multi_skip(multi_skip, next_seat):
    hands = [["RS", "GS", "G1", "G3"], ["B1", "B2", "B3", "B4"], ["G7", "G8", "G9", "B9"]]
    g = [deal(hands, ["R5"], bots="greedy", multi_play="same_symbol", multi_skip=multi_skip,
              max_turns=2), lead("R5"), P(0, ["RS", "GS"], "G")]
    follow = [P(next_seat, hands[next_seat][2])] + ([uno(0)] if next_seat == 0 else [])
    good = end(g + follow, -1, "cap", 2, plays=3)
    wrong = 2 if next_seat == 0 else 0
    bad = end(g + [P(wrong, hands[wrong][2])], -1, "cap", 2, plays=3)
    accepts_and_rejects(good, bad, "wrong player")


# -- UNO penalty, jump-in under stacking
def test_caught_uno_penalty():
    g = [deal([["R1", "B1"], ["R2", "B2"]], ["R5", "Y1", "Y2"], bots="greedy", max_turns=1)]
    g += [lead("R5"), P(0, "R1"), {"ev": "caught", "p": 0}, D(0, ["Y1", "Y2"], "uno")]
    good = end(g, -1, "cap", 1, draws=2, max_pending=0)
    bad = removed(good, 3)
    bad = removed(bad, 3)  # forgotten call, nothing written, but uno_catch = 1
    accepts_and_rejects(good, bad, "neither 'uno' nor 'caught'")


@pytest.mark.parametrize("mode,nxt", [("skip", 0), ("noop", 1)])
def test_two_player_reverse(mode, nxt):
    hands = [["RR", "R1", "G2"], ["R2", "B2", "B3"]]
    base = [deal(hands, ["R5"], bots="greedy", two_player_reverse=mode, max_turns=2), lead("R5"),
            P(0, "RR")]
    card = ["R1", "R2"]
    good = end(base + [P(nxt, card[nxt])] + ([uno(0)] if nxt == 0 else []), -1, "cap", 2)
    bad = end(base + [P(1 - nxt, card[1 - nxt])], -1, "cap", 2)
    accepts_and_rejects(good, bad, "wrong player")


# -- further flows: stacked challenge, jump-in under stacking, last-card penalty, draw rules
def test_stacked_chain_challenge():
    g = [deal([["W4", "R1", "G2"], ["G7", "B8", "Y9"]], ["R5", "B1", "B2", "B3", "B4"],
              bots=["bluffer", "expert"], stack_draw_four=True, max_turns=2)]
    g += [lead("R5"), P(0, "W4", "G"), {"ev": "challenge", "p": 1, "target": 0, "guilty": True},
          D(0, ["B1", "B2", "B3", "B4"], "challenge"), P(1, "G7")]
    good = end(g, -1, "cap", 2, challenges=1, max_pending=0)
    bad = replaced(good, 3, {"ev": "challenge", "p": 0, "target": 0, "guilty": True})
    accepts_and_rejects(good, bad, "is the Wild Draw Four's victim")


def test_jump_in_adds_to_pending_penalty():
    g = [deal([["RD", "G1", "G2"], ["B1", "B2", "B3"], ["RD", "Y1", "Y2"]], ["R5", "B4", "B5", "B6", "B7"],
              jump_in=True, stack_draw_two=True, max_turns=2)]
    g += [lead("R5"), P(0, "RD"), {"ev": "jump", "p": 2, "card": "RD", "color": "R"},
          D(0, ["B4", "B5", "B6", "B7"], "penalty")]
    good = end(g, -1, "cap", 2, max_pending=4, plays=2)
    accepts_and_rejects(good, removed(good, 3), "could jump in")


@pytest.mark.parametrize("lcp", [True, False])
def test_last_card_penalty_on_stacked_answer(lcp):
    g = [deal([["RD", "R1"], ["RD", "B2"]], ["R5", "Y1", "Y2", "Y3", "Y4"], stack_draw_two=True,
              last_card_penalty=lcp)]
    g += [lead("R5"), P(0, "R1"), uno(0), P(1, "RD"), uno(1), P(0, "RD")]
    if lcp:
        good = end(g + [D(1, ["Y1", "Y2", "Y3", "Y4"], "penalty")], 0, "out", 3, max_pending=4,
                   winner_points=2 + 1 + 2 + 3 + 4)
        bad = end(g, 0, "out", 3)
        accepts_and_rejects(good, bad, "why 'penalty'")
    else:
        good = end(g, 0, "out", 3, max_pending=0, winner_points=2)
        bad = end(g + [D(1, ["Y1", "Y2", "Y3", "Y4"], "penalty")], 0, "out", 3)
        accepts_and_rejects(good, bad, "should end")


def test_deflect_skip_three_players():
    g = [deal([["RD", "G1", "G2"], ["RS", "B1", "B2"], ["Y1", "Y2", "Y3"]], ["R5", "B4", "B5"],
              stack_draw_two=True, deflect=True, max_turns=3)]
    g += [lead("R5"), P(0, "RD"), P(1, "RS"), D(0, ["B4", "B5"], "penalty")]
    good = end(g, -1, "cap", 3, max_pending=2)
    bad = replaced(good, 4, D(2, ["B4", "B5"], "penalty"))
    accepts_and_rejects(good, bad, "wrong player")


def test_draw_until_playable():
    g = [deal([["B1", "B2"], ["Y1", "Y2"]], ["R5", "G1", "Y7", "R9"], draw_rule="until_playable",
              max_turns=1)]
    g += [lead("R5"), D(0, ["G1", "Y7", "R9"]), P(0, "R9")]
    good = end(g, -1, "cap", 1, draws=3, plays=1)
    bad = replaced(good, 2, D(0, ["G1", "Y7"]))
    accepts_and_rejects(good, bad, "more are owed")


def test_play_drawn_numbers_only():
    base = [deal([["B1", "B2"], ["Y1", "Y2"]], ["R5", "RS"], play_drawn="numbers", max_turns=1),
            lead("R5"), D(0, ["RS"])]
    good = end(base, -1, "cap", 1, draws=1)
    bad = end(base + [P(0, "RS")], -1, "cap", 1)
    accepts_and_rejects(good, bad, "play_drawn")


def test_random_bot_must_play_drawn_card():
    base = [deal([["B1", "B2"], ["Y1", "Y2"]], ["R5", "R7"], max_turns=1), lead("R5"), D(0, ["R7"])]
    good = end(base + [P(0, "R7")], -1, "cap", 1, draws=1, plays=1)
    bad = end(base, -1, "cap", 1)
    accepts_and_rejects(good, bad, "did not play its playable drawn card")
