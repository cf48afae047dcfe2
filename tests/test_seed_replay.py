"""Traces of the sheets' remaining house rules (sum jump-in, hand-sum win, Wild swap, UNO
catchers): replayed by the independent trace checker, and followed card by card by a small
flow check written here from the rules, independent of the engine."""

import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import SEED_PRESETS, assert_clean, rule_sets
from uno_sim.game.bots import Bot, pack_bots
from uno_sim.engine import layout as L
from uno_sim.engine.batch import run_chunk, run_key
from uno_sim.game.presets import load as load_preset
from uno_sim.game.rules import Rules, RulesError
from uno_sim.running.trace import trace_one

FORGETFUL = Bot("random", {"forget_uno": 0.3})
MIXED = [Bot("expert"), Bot("greedy", {"forget_uno": 0.3}), Bot("bluffer"), FORGETFUL]
ALL_SEED = dict(sum_jump_in="any_color", hand_sum_win=True, wild_swap=True, uno_catchers="each", jump_in=True)

COMBINATIONS = [
    dict(sum_jump_in="same_color"),
    dict(sum_jump_in="any_color", jump_in=True),
    dict(sum_jump_in="any_color", sum_jump_win_only=True, hand_sum_win=True),
    dict(hand_sum_win=True, mode="last_standing", players=5),
    dict(wild_swap=True, uno_catchers="each", uno_catch=0.5),
    dict(ALL_SEED, stack_draw_two=True, stack_draw_four=True, deflect=True),
    dict(ALL_SEED, seven_swap=True, zero_rotate=True, multi_play="same_symbol"),
    dict(ALL_SEED, mode="last_standing", teams=2, players=6),
    dict(ALL_SEED, number_finish=True, draw_rule="until_playable", play_drawn="numbers"),
    dict(ALL_SEED, players=2, empty_pile="void", zero_points=10),
    dict(ALL_SEED, players=10, hand_size=10, max_turns=40),
]
IDS = [",".join(f"{a}={b}" for a, b in k.items()) for k in COMBINATIONS]


def bots_for(players, bots):
    return (bots * players)[:players]


# ---------------------------------------------------------------- the independent checker


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("name", SEED_PRESETS)
def test_seed_presets_replay_cleanly(name, players):
    rules = load_preset(name).replace(players=players)
    assert_clean(rules, 40, seed=21, bots=bots_for(players, [FORGETFUL]))


@pytest.mark.parametrize("knobs", COMBINATIONS, ids=IDS)
def test_seed_rule_combinations_replay_cleanly(knobs):
    rules = Rules(**knobs)
    assert_clean(rules, 30, seed=22, bots=bots_for(rules.players, [FORGETFUL]))
    assert_clean(rules, 20, seed=23, bots=bots_for(rules.players, MIXED))


@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "25")), deadline=None,
          derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"), suppress_health_check=[HealthCheck.too_slow])
@given(knobs=rule_sets(), seed=st.integers(0, 2**31))
def test_random_rule_sets_with_every_knob_replay_cleanly(knobs, seed):
    try:
        rules = Rules(**knobs)
    except RulesError:
        return
    bots = [Bot("random", {"forget_uno": 0.2, "challenge_prob": 0.3, "bluff_prob": 0.2})] * rules.players
    assert_clean(rules, 5, seed=seed % 1000, bots=bots)


# ---------------------------------------------------------------- card flow


COLORS = "RYGB"


def number(card):
    return int(card[1]) if card[0] != "W" and card[1:].isdigit() else None


def points(card, zero_points):
    if card[0] == "W":
        return 50
    n = number(card)
    if n is None:
        return 20
    return zero_points if n == 0 else n


def face_key(card):
    """Face order: colour R, Y, G, B, then number (the order random puts a sum set down)."""
    return COLORS.index(card[0]) * 13 + number(card)


class Flow:
    """Follows every card of one traced game: deal, pile, discards, hands and the cards a
    hand-sum win takes out of play; checks the shape of the new events."""

    def __init__(self, deal):
        self.r = deal["rules"]
        self.n = deal["players"]
        self.bots = deal["bots"]
        self.hands = [Counter(h) for h in deal["hands"]]
        self.pile = list(deal["pile"])
        self.discard = []
        self.laid = Counter()
        self.aside = Counter()  # the cards of players knocked out by the mercy rule, until a reshuffle
        self.knocked = set()
        self.out = set()
        self.dir = 1
        self.color = None
        self.problems = []

    def check(self, cond, msg):
        if not cond:
            self.problems.append(msg)

    def take(self, p, cards):
        for c in cards:
            self.check(self.hands[p][c] > 0, f"seat {p} puts down {c} it does not hold")
            self.hands[p][c] -= 1
        self.hands[p] += Counter()

    def total(self):
        return (sum(sum(h.values()) for h in self.hands) + len(self.pile) + len(self.discard) + sum(self.laid.values())
                + sum(self.aside.values()))

    def apply(self, ev):
        t = ev["ev"]
        r = self.r
        if t == "lead":
            self.check(self.pile[0] == ev["card"], "lead is not the pile top")
            self.discard.append(self.pile.pop(0))
            self.color = ev["card"][0] if ev["card"][0] != "W" else None
            if ev["card"][1:] == "R":
                self.dir = -1
        elif t == "return":  # the lead goes back: no lead effect
            self.pile = list(ev["pile"])
            self.discard.pop()
            self.dir = 1
        elif t == "choose":
            self.color = ev["color"]
        elif t == "draw":
            k = len(ev["cards"])
            self.check(self.pile[:k] == ev["cards"], "drawn cards are not the pile top")
            del self.pile[:k]
            self.hands[ev["p"]] += Counter(ev["cards"])
        elif t == "reshuffle":
            self.check(Counter(ev["pile"]) == Counter(self.discard[:-1]) + self.aside,
                       "reshuffle is not the discards and the set-aside cards")
            self.pile, self.discard, self.aside = list(ev["pile"]), self.discard[-1:], Counter()
        elif t in ("play", "jump"):
            cards = ev.get("cards") or [ev["card"]]
            top = self.discard[-1]
            before = self.color
            self.take(ev["p"], cards)
            self.discard.extend(cards)
            for c in cards:
                if c[1:] == "R":
                    self.dir = -self.dir
            if "sum" in ev:
                n = number(top)
                self.check(r["sum_jump_in"] != "off", "sum jump-in while off")
                self.check(n == ev["sum"], f"sum {ev['sum']} answers {top}")
                self.check(len(cards) >= 2 and all(number(c) is not None for c in cards), f"bad sum set {cards}")
                self.check(sum(number(c) for c in cards) == ev["sum"], f"{cards} do not add up to {ev['sum']}")
                if r["sum_jump_in"] == "same_color":
                    self.check(all(c[0] == top[0] for c in cards), f"{cards} not all of {top}'s colour")
                if r["sum_jump_win_only"]:
                    self.check(not self.hands[ev["p"]], "a win-only sum set leaves cards")
                if self.bots[ev["p"]] == "random":
                    self.check(cards == sorted(cards, key=face_key), f"random puts {cards} down out of order")
            if ev.get("swap"):
                self.check(cards == ["W"] and r["wild_swap"], "swap on something else than a Wild")
                self.check(ev["color"] == before, "a Wild swap changed the colour")
                self.check(bool(self.hands[ev["p"]]), "a Wild swap on the last card")
            elif cards[-1][0] != "W":
                self.check(ev["color"] == cards[-1][0], "colour is not the top card's")
            self.color = ev["color"]
        elif t == "swap":
            a, b = ev["p"], ev["with"]
            self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        elif t == "rotate":
            seats = [q for q in range(self.n) if q not in self.out]
            nxt = {q: seats[(seats.index(q) + self.dir) % len(seats)] for q in seats}
            old = {q: self.hands[q] for q in seats}
            for q in seats:
                self.hands[nxt[q]] = old[q]
        elif t == "swap3":
            p, w = ev["p"], ev["with"]
            k = min(3, sum(self.hands[p].values()), sum(self.hands[w].values()))
            self.check(len(ev["gave"]) == k == len(ev["got"]), f"swap3 of {len(ev['gave'])} cards, k = {k}")
            self.check(w != p and w not in self.out, "swap3 with a player out")
            self.take(p, ev["gave"])
            self.take(w, ev["got"])
            self.hands[p] += Counter(ev["got"])
            self.hands[w] += Counter(ev["gave"])
        elif t == "caught":
            if r["uno_catchers"] == "each":
                by = ev.get("by") or []
                self.check(by and len(set(by)) == len(by) and ev["p"] not in by, f"caught by {by}")
                self.check(not set(by) & self.out, "a catcher who is out")
        elif t == "out":
            if ev.get("how") == "hand_sum":
                p = ev["p"]
                self.check(r["hand_sum_win"], "hand-sum win while off")
                self.check(Counter(ev["cards"]) == self.hands[p], "hand-sum cards are not the hand")
                top = self.discard[-1]
                self.check(all(number(c) is not None for c in ev["cards"]), "hand-sum hand holds a non-number")
                self.check(sum(number(c) for c in ev["cards"]) == number(top), f"{ev['cards']} vs {top}")
                self.check(("place" in ev) == (r["mode"] == "last_standing"), "place on a first_out hand-sum out")
                self.laid += Counter(ev["cards"])
                self.hands[p] = Counter()
            self.out.add(ev["p"])
        elif t == "knockout":  # SPEC 10.5: the hand is set aside and joins the next reshuffle
            p = ev["p"]
            self.check(r.get("mercy_limit", 0) > 0 and ev["cards"] == sum(self.hands[p].values()) >= r["mercy_limit"],
                       f"knockout of seat {p} holding {sum(self.hands[p].values())} cards")
            self.aside += self.hands[p]
            self.hands[p] = Counter()
            self.knocked.add(p)
            self.out.add(p)
        elif t == "end":
            zp = r["zero_points"]
            want = [r["mercy_points"] if q in self.knocked else sum(points(c, zp) * k for c, k in h.items())
                    for q, h in enumerate(self.hands)]
            self.check(ev["points"] == want, f"end points {ev['points']} != {want}")
        self.check(self.total() == 108, f"{self.total()} cards after {ev}")


def flow(rules, games, seed, bots):
    key = run_key(seed)
    problems, seen = [], Counter()
    for game in range(games):
        events, _ = trace_one(rules, bots, key, game)
        f = Flow(events[0])
        for ev in events[1:]:
            f.apply(ev)
            seen[ev["ev"] + ("_sum" if "sum" in ev else "") + ("_hand_sum" if ev.get("how") else "")
                 + ("_swap" if ev.get("swap") else "")] += 1
        problems += [(game, p) for p in f.problems]
    assert not problems, problems[:5]
    return seen


@pytest.mark.parametrize("knobs", COMBINATIONS, ids=IDS)
def test_seed_rule_combinations_keep_every_card(knobs):
    rules = Rules(**knobs)
    seen = flow(rules, 40, 31, bots_for(rules.players, [FORGETFUL]))
    seen += flow(rules, 20, 32, bots_for(rules.players, MIXED))
    if rules.sum_jump_in != "off" and not rules.sum_jump_win_only:
        assert seen["jump_sum"] > 0
    if rules.wild_swap:
        assert seen["play_swap"] > 0 and seen["swap3"] == seen["play_swap"]


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("name", SEED_PRESETS)
def test_seed_presets_keep_every_card(name, players):
    rules = load_preset(name).replace(players=players)
    flow(rules, 40, 33, bots_for(players, [FORGETFUL]))


@settings(max_examples=int(os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES", "30")), deadline=None,
          derandomize=not os.environ.get("UNO_SIM_HYPOTHESIS_EXAMPLES"), suppress_health_check=[HealthCheck.too_slow])
@given(knobs=rule_sets(), seed=st.integers(0, 2**31))
def test_random_rule_sets_with_every_knob_keep_every_card(knobs, seed):
    try:
        rules = Rules(**knobs)
    except RulesError:
        return
    bots = [Bot("random", {"forget_uno": 0.2, "challenge_prob": 0.3, "bluff_prob": 0.2})] * rules.players
    flow(rules, 5, seed % 1000, bots)
    flow(rules, 3, seed % 1000 + 1, bots_for(rules.players, MIXED))


def test_hand_sum_wins_happen_and_score_as_going_out():
    rules = Rules(hand_sum_win=True, hand_size=5)
    seen = flow(rules, 300, 34, [Bot("random")] * 4)
    assert seen["out_hand_sum"] > 0


# ---------------------------------------------------------------- many games: records


@pytest.mark.parametrize("knobs", [ALL_SEED, dict(ALL_SEED, mode="last_standing", players=6, sum_jump_win_only=True)])
def test_many_games_end_and_count_consistently(knobs):
    rules = Rules(**knobs)
    codes, params = pack_bots(bots_for(rules.players, [FORGETFUL, Bot("expert")]))
    rows = run_chunk(rules.pack(), codes, params, run_key(35), 0, 20_000, workers=2)
    assert (rows[:, L.COL_SUM_JUMPS] <= rows[:, L.COL_JUMPS]).all()
    assert (rows[:, L.COL_UNO_CATCHERS] >= rows[:, L.COL_UNO_CAUGHT]).all()
    assert (rows[:, L.COL_UNO_CATCHERS] <= (rules.players - 1) * rows[:, L.COL_UNO_CAUGHT]).all()
    assert rows[:, L.COL_SUM_JUMPS].sum() > 0 and rows[:, L.COL_WILD_SWAPS].sum() > 0
    assert rows[:, L.COL_HAND_SUM_WINS].sum() > 0
    winners = rows[:, L.COL_WINNER]
    assert (rows[:, L.COL_REASON] == L.REASON.out).mean() > 0.9
    if rules.mode == "first_out":
        won = winners >= 0
        assert (rows[won, L.COL_CARDS + winners[won]] == 0).all()
        assert (rows[:, L.COL_HAND_SUM_WINS] <= 1).all()
    # the cards in the hands never exceed the deck
    assert (rows[:, L.COL_CARDS : L.COL_CARDS + rules.players].sum(axis=1) <= 108).all()
    assert np.isin(rows[:, L.COL_REASON], list(range(len(L.REASONS)))).all()
