#!/usr/bin/env python3
"""Independent replay checker for uno-sim traces (SPEC section 7, JSON Lines), any deck (SPEC 10),
one-sided or two-sided (SPEC 11, UNO Flip).

Standard library only and deliberately independent of uno-sim's engine (it reads
nothing but the knob names and defaults of the knob table, ``uno_sim/game/knobs.py``): it replays every game
from its ``deal`` event and checks each event against SPEC.md and docs/RULES.md, then
computes the SPEC 6 per-game record itself and compares it with the ``end`` event (and,
when given, with the per-game CSV rows).

Design: a ``Game`` keeps the table state plus an *agenda*, a queue of the steps that must
happen before the next regular turn (UNO call, ``out``, swap/rotate, penalty draw,
challenge window, jump-in window, ...). ``Game.apply(event)`` offers the event to the
front step, which consumes it (DONE / KEEP when it waits for more events, e.g. a draw
split around a reshuffle) or steps aside (PASS: it is complete or optional, the event is
offered to the next step). An empty agenda means the next regular turn (or a forced end).

Checked at every event: card conservation and pile order (every drawn card is the pile
top as the trace last gave it; deal, return and reshuffle piles), who acts (direction,
Skip, Reverse, two-player rules, lead card rules, players out), the legality of every
play / answer / jump-in / multi-play under the rule knobs, the colour, draw counts per
cause, reshuffle and empty-draw conditions, void / stall / cap endings, UNO and caught
calls, swaps and rotations, challenge verdicts, last-card penalties, out places, the
house rules of SPEC 3.8 (sum jump-ins and the matching set they leave, hand-sum wins and the
cards they take out of play, Wild swaps, UNO catchers), the `random` bot policy (SPEC 4),
decks as data (SPEC 10: the face table built from the deal's `deck` list, classic when it
is absent; draw, skip / skip all, reverse, restricted, Discard All, roulette, swap and
shuffle hands in the order of 10.2; stack_by_value; the mercy rule and its knockouts;
must_play_drawn), two-sided decks (SPEC 11: the deal's `sides` and its LIGHT/DARK pairing, the
pinned `flip` deck, the side in play read by every rule through `Game.face`, the flip at step
3a with `flip_discard`, the choose for a wild top, draw_color and its challenge, the lead
kinds of 11.4, the event order of 11.6, no window after a play that flips), and finally the
`end` event (and CSV row) against the record computed here.

Violations that leave the replay in sync (an illegal card, a wrong count, a broken bot
policy) are recorded and the replay goes on; an event the replay cannot place at all
(wrong player acting, missing event) stops the replay of that game.

Usage: python tests/trace_checker.py FILE.jsonl [--csv FILE.csv]
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

# --------------------------------------------------------------------------------------
# Readings the checker had to choose where SPEC.md + docs/RULES.md leave room, all listed
# here; each is marked "R<n>" where the code applies it.
# --------------------------------------------------------------------------------------
# R1 MULTI_PLAY_WILDS: multi-play sets never contain a Wild or Wild Draw Four, in either
#    mode (SPEC 3.6 says "never Wilds" for same_symbol; SPEC 6 lists only Draw Two,
#    Reverse and Skip effects for a set, so a Wild set is not a thing).
MULTI_PLAY_WILDS = False
# R2 TWO_PLAYER_NEEDS_PLAYER_IN: the two-player Reverse / deflect rules apply when the
#    player who put the card down is one of the two players still in. A last_standing
#    player who just went out with a Reverse leaves its effect as an ordinary flip.
TWO_PLAYER_NEEDS_PLAYER_IN = True
# R3 JUMP_WHILE_PENDING_MUST_ANSWER: while a penalty is pending, a jump-in "acts as the
#    jumper's answer" (SPEC 9), so it must also be a legal answer under the stack knobs.
JUMP_WHILE_PENDING_MUST_ANSWER = True
# R4 Cap timing: SPEC/RULES do not say whether the effects (UNO, penalty draws, jump-ins)
#    of the max_turns-th turn are still written before `end` reason `cap`. The checker
#    reads "a round that reaches this many turns ends" as: the turn is completed with all
#    its effects, and the round ends where the next regular turn would begin
#    (Game.next_step); after max_turns consecutive jump-ins it ends where the next jump-in
#    could happen or the next turn would begin (JumpWindow, Game.next_step).
# R5 Deflect with three or more players sends the penalty to the player who would take
#    the next turn after the Skip(s)/Reverse(s) (RULES "Turn order"); several Skips under
#    multi_skip=each therefore pass it further. See Game._penalty_target.
# R6 Stall counts regular turns in which no card was played or drawn by anyone (from the
#    start of that turn to the start of the next); any card moved resets the count.
#    See Game.next_step.
# R7 number_finish: a play (single, set, answer, drawn card or jump-in) that empties
#    the hand must consist of number cards. See Game.check_play.
# R8 "Holding a playable card" (voluntary draw, random bot policy) means a card that
#    could be played alone without a bluff, number_finish respected.
# R9 A Draw Two / Wild Draw Four penalty cut short by `void` still counts the cards drawn
#    for max_pending (as RULES says for a penalty cut short by an empty pile). See DrawStep.
#
# SPEC 3.8 (seed extras) and its readings in SPEC 9:
# R10 Knobs of SPEC 3.8 (SEED_DEFAULTS) that a deal's `rules` lacks take their defaults
#     silently: older traces predate them. Any other missing knob is a violation.
# R11 Sum jump-in window: a sum jump-in is a `jump` event with a `cards` list (an identical
#     jump-in has `card`); it must carry `sum` equal to the number N it answers. It opens
#     after a number card put down singly or on top of a multi-play on a turn, from a drawn
#     card or as an identical jump-in, never after a sum set or the lead. Candidates are the
#     players still in (the one who just played included). A sum jump-in counts towards
#     the `max_turns` consecutive jump-ins (cap), like any jump-in (it is "counted by the
#     jump_ins metrics"). Sets of 2 or more number cards only. See JumpWindow.
# R12 The matching set of a sum set (colour or number of any of its cards) decides every
#     "matches" question until the next card is put down: legality, "playable" (R8),
#     voluntary draws, until_playable, play_drawn and the random bot's checks. wd4_rule
#     still judges against the top card and current colour only. See Game.matches.
# R13 Hand-sum claim: checked after the card's effects (UNO call and caught penalty, swaps,
#     rotations) and before the jump-in window, over the players still in the round other
#     than the player of N, in the direction of play from that player; bots always claim,
#     so a possible claim that is not made is a violation. Under last_standing the claimant
#     takes the next place, the next turn goes to next(player of N) among those still in
#     (recomputed after the claimant is out), and the jump-in window still follows; if one
#     player is left the round ends. `place` on a first_out hand-sum `out` is a violation.
#     The laid-down cards leave play (Game.laid): conservation counts them; they are
#     neither `plays` nor reshuffled. See HandSumStep.
# R14 Wild swap: `swap: true` is legal only on a Wild played alone on a turn or as a
#     drawn card, with wild_swap on, when the Wild was not the player's last card; its
#     `color` must be the colour current before the Wild. The `swap3` event follows the UNO
#     call (and the caught penalty draw); k = min(3, own, target's) is measured then; `gave`
#     must come from the player's hand and `got` from the target's (as multisets; order is
#     not significant); the target is another player still in the round. See Swap3Step.
# R15 UNO catchers: under `each` a `caught` must carry `by`, a non-empty list of distinct
#     other players still in the round (all of them when uno_catch = 1), and the penalty
#     draw is uno_penalty x len(by) in one `draw`. Under `one`, `by` may be absent or name
#     at most one player; the penalty is uno_penalty. See UnoStep.
# R16 Random bot (SPEC 4) in the jump-in window: it must move when it has any legal move
#     (a held face identical to the top card, or after a sum set to any card of the set;
#     or a sum set for N); its sum sets go down sorted by colour R, Y, G, B then number.
#     Its Wild swap target and cards are random: only legality is checked.
#
# SPEC 10 (decks as data) and its readings in SPEC 10.8:
# R17 The four knobs of SPEC 10 (SECTION10_DEFAULTS) that a deal's `rules` lacks take their
#     defaults silently, as R10. The record (and the CSV row compared with it) has the
#     `knockouts` column only when the deal's rules carry `mercy_limit` (a trace of an
#     engine that knows SPEC 10); an `end` event's `knockouts` is checked whenever present.
# R18 Skip all: the player takes another turn, whatever the number of skip-all cards in a
#     set and the number of players; played by a last_standing player who went out with
#     it, the next turn goes to the next player still in (everyone else lost one turn).
# R19 Mercy rule: the knockouts after an event go in the direction of play from the player
#     who acted (the drawer; the player of the swap, rotate, shuffle or Wild swap); the last
#     player still in is never knocked out (they have won), except by the last-card penalty
#     of a round already decided (SPEC 10.8): under last_standing the winning card's player
#     is out, and its victim, the last player left, is knocked out like any other player
#     pushed over the limit by that penalty. The replay sets the cards aside
#     at once; the `knockout` events must follow before anything else, with `cards` the
#     hand size and (last_standing) `place` the worst place still free. A player knocked
#     out by the UNO penalty of its own play takes no more part: that play's swap, shuffle,
#     rotation and Wild swap (step 3) do not happen; its steps 4-5 act from the player's seat.
# R20 Discard All: the `discard` list (in the play or jump event) must be exactly the
#     player's other cards of the colour of each Discard All card in the play (as a
#     multiset; the order is free); they go under the top card and count as plays. A
#     `discard` list without a Discard All card is a violation.
# R21 Shuffle hands: the dealt-out hands must be the gathered cards (as a multiset) and each
#     seat still in gets its share of a deal one at a time from the next player in the
#     direction of play before the card's own reverse (the first total % m seats of that
#     order get one more); seats not in the round get []. The order of the cards within
#     the hands is random and not checked.
# R22 Random bot (10.6): its roulette colour, shuffle colour and swap_hands target are random;
#     only legality is checked.
#
# SPEC 11 (two-sided decks, UNO Flip) and its readings in SPEC 11.6. Every rule reads a card
# through Game.face(card), the face on the side in play; flip special cases live in FlipStep,
# Game.flip, PlayColorStep and the few lines of put_down / _effects / apply_lead marked 11.x.
# R23 The deal: `sides` in place of `deck` (both is a violation); every dealt card is a string
#     LIGHT/DARK; the light halves of hands + pile are exactly the light side's cards and the
#     dark halves the dark side's (as multisets), which is a one-to-one pairing with the right
#     counts; the physical cards of the game are the dealt ones (conservation, reshuffles). A
#     deal whose rules say deck=flip must carry the kinds of SPEC 11.3 (FLIP_DECK) field for
#     field, SPEC 10.1 defaults filled in (so a missing `points` of D1, E, W, WDC is a
#     violation). `flip_discard` absent means whole (as R10/R17); values other than whole / top
#     are a violation. A one-sided deal under deck=flip is a violation.
# R24 Lead: the extended list of 11.4/11.6 (S R D D1 D5 E F W and numbers) applies to two-sided
#     decks only; one-sided decks keep 10.5's list (S R D W and numbers: "sections 1-10 stay
#     exactly as they are"). Lead E: its colour stands, the direction stays clockwise, the dealer
#     takes the first turn. Lead F: a `flip` with p -1 (the pile turned over too); a wild new
#     top is named by the first player (11.4 "naming a colour first"), who then takes the turn.
#     Lead D1 / D5 draw their kind's draw as a lead D (lead_draw_two_skips applies).
# R25 A wild face with `flip` (a DIY card; the `flip` deck has none, and a multi-play never
#     holds a wild, R1): its player names its colour after its flip(s), among the new side's
#     colours, and that naming is the `choose` event that follows the (last) flip - always,
#     whatever the new top shows (one naming: never a second choose for a wild top); the play's
#     `color` equals it. A coloured Flip card: a `choose` follows a flip only for a wild new top.
# R26 Steps 4-5 use the faces as played (captured at the play, before the flip): reverse, skip,
#     draw, draw_color, and the challenge verdict (wd4_rule judged on the side in play at the
#     play). Under stack_by_value the value a chain's answers must reach is the `draw` of the
#     face the last draw card was played with (a chain started by a flip + draw face keeps its
#     value across the flip); the answers are read on the side now in play. A face with `flip`
#     or `draw_color` never answers.
# R27 draw_color: the colour is the colour in play when step 5 acts (the play's colour; after a
#     flip, the choose's); the turning up stops at the first face of that colour on the side in
#     play, wild faces never count; one `draw` (why draw_color), split only around a reshuffle,
#     not in max_pending. Its challenge: guilty, the player turns up cards until the colour; not
#     guilty, the challenger turns up cards until the colour and then challenge_extra more; each
#     is one `draw` with why challenge. A random victim never challenges (R22's check of 3.3).
# R28 A play that flips opens no window: a `jump` event or a hand-sum `out` right after it is a
#     desync reported as such. The flag lasts until the next card is put down.
# R29 The record of a two-sided game has `flips` (each flip event: Flip cards played, k for a
#     multi-play of k, and a lead F) and `side` (light / dark at the end); the `end` event must
#     carry both, and a CSV row is compared on them. A one-sided game's record has neither; if its
#     `end` carries them they must say 0 / light. Hand points at the end are read on the side in
#     play then (after a last card's flip).
# R30 Order of a Flip play's steps: UNO call (and caught draw), step 3 (swap / shuffle, 7-swap,
#     0-rotate, Wild swap), one flip each (a choose after each wild top), then under
#     last_standing the `out` of an emptied hand, then steps 4-5, then the end (first_out, or
#     one player left). The 7-swap and 0-rotate read the numbers on the side in play at the
#     play; Wild swap belongs to the face with text W on either side.

COLORS = "RYGB"
LEAD_TEXTS = ("S", "R", "D")  # 3.1 / 10.5 / 10.8: coloured lead kinds that stay (with numbers and W)
LEAD_TEXTS_TWO_SIDED = ("S", "R", "D", "D1", "D5", "E", "F")  # 11.4 / 11.6 (R24)
# The knob names and defaults are the one knob table's data (uno_sim/game/knobs.py is a plain table,
# not engine code); what each knob means is implemented here independently.
from uno_sim.game.knobs import DEFAULTS as _TABLE_DEFAULTS  # noqa: E402

DEFAULT_RULES = {name: value for name, value in _TABLE_DEFAULTS.items() if name != "players"}
KNOBS = tuple(DEFAULT_RULES)
# R10: the knobs of SPEC 3.8 with their defaults; a deal lacking one of them assumes the
# default silently (older traces predate them). Read with `self.r.get(name, SEED_DEFAULTS[name])`
# so the checker works whether or not the knob table lists them yet.
SEED_DEFAULTS = {"sum_jump_in": "off", "sum_jump_win_only": False, "hand_sum_win": False,
                 "wild_swap": False, "uno_catchers": "one", "match_rounds": 0,
                 "deck": "classic"}  # the deck knob (SPEC 10.1): older deals lack it and play classic
# R17: the knobs of SPEC 10 with their defaults (the knob table's once it lists them).
SECTION10_DEFAULTS = {name: _TABLE_DEFAULTS.get(name, value) for name, value in
                      {"stack_by_value": False, "must_play_drawn": False, "mercy_limit": 0, "mercy_points": 250}.items()}
# R23: the knob of SPEC 11 with its default ("flip_discard absent means whole", 11.6).
SECTION11_DEFAULTS = {"flip_discard": _TABLE_DEFAULTS.get("flip_discard", "whole")}
EXTRA_END_FIELDS = ("winner_points", "plays", "draws", "reshuffles", "max_pending", "challenges", "cards",
                    "knockouts")

# ---- decks (SPEC 10.1), written from SPEC alone ----------------------------------------
# A face's text is its colour letter + the kind's text (coloured) or the kind's text (wild,
# which starts with W), and a coloured kind whose text is a digit is exactly that number
# kind (SPEC 10.8). So colour, kind text, "is a number" and the number read off the text
# for every deck; everything else (points, effects) comes from the deal's deck list.
KIND_FIELDS = ("text", "colored", "copies", "points", "number", "draw", "skip", "reverse", "restricted",
               "discard_color", "roulette", "swap_hands", "shuffle_hands", "flip", "draw_color")
FLAGS = ("reverse", "restricted", "discard_color", "roulette", "swap_hands", "shuffle_hands", "flip", "draw_color")
CLASSIC_KINDS = (  # SPEC 10.1: the classic deck as kinds
    *({"text": str(d), "colored": True, "copies": 1 if d == 0 else 2, "number": d} for d in range(10)),
    {"text": "S", "colored": True, "copies": 2, "skip": 1},
    {"text": "R", "colored": True, "copies": 2, "reverse": True},
    {"text": "D", "colored": True, "copies": 2, "draw": 2},
    {"text": "W", "colored": False, "copies": 4},
    {"text": "W4", "colored": False, "copies": 4, "draw": 4, "restricted": True},
)
_ALNUM = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

# ---- two-sided decks (SPEC 11) ---------------------------------------------------------
SIDES = ("light", "dark")
SIDE_COLORS = ("RYGB", "PTOV")  # SPEC 11.1: light R Y G B, dark P T O V (index order 0..3 on each side)
# SPEC 11.3: the built-in deck `flip`, texts, counts and points pinned (a deal of deck `flip`
# must carry exactly these kinds, R23)
FLIP_DECK = {
    "light": [*({"text": str(d), "colored": True, "copies": 2, "points": d} for d in range(1, 10)),
              {"text": "D1", "colored": True, "copies": 2, "points": 10, "draw": 1},
              {"text": "R", "colored": True, "copies": 2, "points": 20, "reverse": True},
              {"text": "S", "colored": True, "copies": 2, "points": 20, "skip": 1},
              {"text": "F", "colored": True, "copies": 2, "points": 20, "flip": True},
              {"text": "W", "colored": False, "copies": 4, "points": 40},
              {"text": "W2", "colored": False, "copies": 4, "points": 50, "draw": 2, "restricted": True}],
    "dark": [*({"text": str(d), "colored": True, "copies": 2, "points": d} for d in range(1, 10)),
             {"text": "D5", "colored": True, "copies": 2, "points": 20, "draw": 5},
             {"text": "R", "colored": True, "copies": 2, "points": 20, "reverse": True},
             {"text": "E", "colored": True, "copies": 2, "points": 30, "skip": "all"},
             {"text": "F", "colored": True, "copies": 2, "points": 20, "flip": True},
             {"text": "W", "colored": False, "copies": 4, "points": 40},
             {"text": "WDC", "colored": False, "copies": 4, "points": 60, "draw_color": True, "restricted": True}],
}


@dataclass(frozen=True)
class Face:
    text: str
    kind: str
    color: str | None
    number: int | None
    points: int
    draw: int = 0
    skip: object = 0          # 0, 1 or "all"
    reverse: bool = False
    restricted: bool = False
    discard_color: bool = False
    roulette: bool = False
    swap_hands: bool = False
    shuffle_hands: bool = False
    flip: bool = False
    draw_color: bool = False


def _int(v, lo, hi) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def kind_problem(k, two_sided=False) -> str | None:
    """What makes a deck entry an invalid kind by SPEC 10.1 / 11.2 / 11.6 (None when it is valid)."""
    if not isinstance(k, dict):
        return f"a kind must be an object, got {k!r}"
    extra = [f for f in k if f not in KIND_FIELDS]
    if extra:
        return f"unknown fields {extra}"
    text, colored = k.get("text"), k.get("colored")
    if not isinstance(colored, bool) or not isinstance(text, str) or not text:
        return "text and colored are required"
    if colored and not (len(text) == 1 and text.isdigit()
                        or 1 <= len(text) <= 3 and text[0].isalpha() and set(text) <= _ALNUM):
        return "a coloured kind's text is a digit or 1-3 of A-Z 0-9 starting with a letter"
    if not colored and not (1 <= len(text) <= 4 and text[0] == "W" and set(text) <= _ALNUM):
        return "a wild kind's text is 1-4 of A-Z 0-9 starting with W"
    if not _int(k.get("copies"), 0, 16):
        return "copies must be 0-16"
    if k.get("points") is not None and not _int(k["points"], 0, 1000):
        return "points must be 0-1000"
    if not _int(k.get("draw", 0), 0, 50):
        return "draw must be 0-50"
    if k.get("skip", 0) not in (0, 1, "all") or isinstance(k.get("skip", 0), bool):
        return "skip must be 0, 1 or 'all'"
    if any(not isinstance(k.get(f, False), bool) for f in FLAGS):
        return "flags must be true or false"
    number = k.get("number")
    digit = colored and text.isdigit()
    if number is not None and not (colored and _int(number, 0, 9)):
        return "number is 0-9 and only for a coloured kind"
    if number is not None and (not digit or number != int(text)):
        return f"number {number} with text {text!r} (a digit text is exactly its number kind)"
    effects = [f for f in ("draw", "skip") + FLAGS if k.get(f)]
    if digit and effects:
        return f"a number kind with effects {effects}"
    if k.get("draw") and (k.get("roulette") or k.get("skip")):
        return "draw with roulette or skip"
    if k.get("roulette") and k.get("skip"):
        return "roulette with skip"
    if k.get("draw_color") and (k.get("draw") or k.get("roulette") or k.get("skip")):
        return "draw_color with draw, roulette or skip"  # SPEC 11.2
    if k.get("restricted") and not (k.get("draw") or k.get("draw_color")):
        return "restricted without draw or draw_color"  # SPEC 11.2 / 11.6, every deck
    if colored and (k.get("restricted") or k.get("roulette")):
        return "a coloured kind with restricted or roulette"
    if colored and k.get("draw_color"):
        return "draw_color on a coloured kind (it is wild only)"
    if not colored and k.get("discard_color"):
        return "a wild kind with discard_color"
    if k.get("flip") and not two_sided:
        return "flip in a one-sided deck"  # SPEC 11.2
    return None


def full_kind(k, zero_points=0) -> dict:
    """A kind with every field written out (SPEC 10.1 defaults filled in)."""
    digit = k["colored"] and k["text"].isdigit()
    pts = k.get("points")
    if pts is None:
        pts = (zero_points if k["text"] == "0" else int(k["text"])) if digit else (20 if k["colored"] else 50)
    return {"text": k["text"], "colored": k["colored"], "copies": k["copies"], "points": pts,
            "number": int(k["text"]) if digit else None, "draw": k.get("draw", 0), "skip": k.get("skip", 0),
            **{f: k.get(f, False) for f in FLAGS}}


def text_face(text, colors=COLORS) -> Face:
    """A face read off its text alone (a card that is no face of the deck: the deal check
    reports it; the replay reads it as its text says, without effects)."""
    color = text[0] if text[:1] in colors and not text.startswith("W") else None
    kind = text[1:] if color else text
    return Face(text, kind, color, int(kind) if color and kind.isdigit() else None, 0)


class DeckFaces:
    """The face table of one deck or one side: `faces[text]` and `cards` (a Counter of the
    faces); `problems` lists the invalid kinds (SPEC 10.1, 11.2). `colors`: the side's colour
    letters (SPEC 11.1)."""

    def __init__(self, kinds, zero_points, colors=COLORS, two_sided=False):
        self.colors = colors
        self.faces: dict = {}
        self.cards: Counter = Counter()
        self.problems: list = []
        self.has_number = False
        texts = set()
        for k in kinds:
            problem = kind_problem(k, two_sided)
            if problem is None and k["text"] in texts:
                problem = "duplicate text"
            if problem:
                self.problems.append(f"deck kind {k.get('text') if isinstance(k, dict) else k!r}: {problem}")
                continue
            texts.add(k["text"])
            text, colored = k["text"], k["colored"]
            number = int(text) if colored and text.isdigit() else None
            pts = full_kind(k, zero_points)["points"]
            fields = {f: k.get(f, False) for f in FLAGS}
            for face, color in ([(c + text, c) for c in colors] if colored else [(text, None)]):
                self.faces[face] = Face(face, text, color, number, pts, k.get("draw", 0), k.get("skip", 0), **fields)
                self.cards[face] += k["copies"]
            if number is not None and k["copies"]:
                self.has_number = True
        self.cards = +self.cards
        self.size = sum(self.cards.values())

    def __getitem__(self, card) -> Face:
        return self.faces[card]

    def __contains__(self, card) -> bool:
        return isinstance(card, str) and self.cards[card] > 0

    def face(self, text) -> Face:
        f = self.faces.get(text)
        return f if f is not None else text_face(text, self.colors)


def play_cards(ev) -> list:
    return list(ev["cards"]) if "cards" in ev else [ev.get("card")]


def number_of(card: str) -> int:
    return int(card[1:])


def sum_set_order(cards) -> list:
    """R16: the random bot's order for a sum set (one-sided faces): colour R, Y, G, B, then number."""
    return sorted(cards, key=lambda c: (COLORS.index(c[0]), number_of(c)))


class Desync(Exception):
    """The event cannot be placed in the replay; checking of this game stops."""


DONE, KEEP, PASS = "done", "keep", "pass"


# --------------------------------------------------------------------------------------
# Agenda steps. offer(game, event) -> DONE | KEEP | PASS, or raises Desync.
# --------------------------------------------------------------------------------------
class Step:
    def offer(self, g: "Game", ev: dict) -> str:  # pragma: no cover - interface
        raise NotImplementedError


class LeadStep(Step):
    """Flip the lead card (official: W4 goes back; first_card=number: non-numbers go back)."""

    def offer(self, g, ev):
        t = ev["ev"]
        if t == "end":
            if any(g.acceptable_lead(c) for c in g.pile):
                g.violate("round ended void at the lead although the pile holds an acceptable lead card")
            g.finish(ev, "void", -1)
            return DONE
        if t != "lead":
            raise Desync(f"expected a lead card flip, got '{t}'")
        card = ev.get("card")
        g.take_pile_top(card, "lead card")
        g.discard.append(card)
        if not g.acceptable_lead(card):
            g.push_front([ReturnStep(card), LeadStep()])
        else:
            g.apply_lead(card)
        return DONE


class ReturnStep(Step):
    def __init__(self, card):
        self.card = card

    def offer(self, g, ev):
        if ev["ev"] != "return":
            raise Desync(f"lead card {self.card} is not acceptable: expected 'return', got '{ev['ev']}'")
        if ev.get("card") != self.card:
            g.violate(f"return names {ev.get('card')} but the lead card was {self.card}")
        g.discard.pop()
        new_pile = list(ev.get("pile", []))
        if Counter(new_pile) != Counter(g.pile) + Counter([self.card]):
            g.violate("return pile is not the old pile plus the returned lead card")
        g.pile = new_pile
        return DONE


class ChooseStep(Step):
    """A colour named outside a play: for a lead Wild, or for a wild top after a flip (11.2)."""

    def __init__(self, p, what="lead Wild"):
        self.p, self.what = p, what

    def offer(self, g, ev):
        if ev["ev"] != "choose" or ev.get("p") != self.p:
            raise Desync(f"{self.what}: expected seat {self.p} to choose a colour, got {g.short(ev)}")
        if ev.get("color") not in g.colors:
            g.violate(f"invalid colour {ev.get('color')!r} chosen for the {self.what} (the {SIDES[g.side]} "
                      f"side's colours are {g.colors})")
        else:
            g.color = ev["color"]
        return DONE


class FlipStep(Step):
    """11.2 step 3a: everything turns over (`p`: the Flip card's player, -1 for a lead flip;
    `chooser` names a colour when the new top is a wild face, or always with `named`, R25)."""

    def __init__(self, p, chooser, named=False):
        self.p, self.chooser, self.named = p, chooser, named

    def offer(self, g, ev):
        if ev["ev"] != "flip" or ev.get("p") != self.p:
            raise Desync(f"a Flip card turns everything over: expected 'flip' with p {self.p}, got {g.short(ev)}")
        g.flip()
        if ev.get("side") != SIDES[g.side]:
            g.violate(f"flip to side {ev.get('side')!r}, the replay turns to the {SIDES[g.side]} side")
        if ev.get("top") != g.top:
            g.violate(f"flip: the new top card is {g.top} (flip_discard={g.r['flip_discard']}), "
                      f"the trace says {ev.get('top')!r}")
        wild = g.color_of(g.top) is None
        g.color = g.color_of(g.top)
        if wild or self.named:
            g.push_front([ChooseStep(self.chooser, "wild top after a flip" if wild else "wild Flip card")])
        return DONE


class PlayColorStep(Step):
    """11.6: the `play` of a Flip card carries the colour in play after the whole play."""

    def __init__(self, color, card):
        self.color, self.card = color, card

    def offer(self, g, ev):
        if self.color != g.color:
            g.violate(f"the play of {self.card} says colour {self.color!r}; the colour in play after its "
                      f"flip is {g.color}")
        return PASS


class DrawStep(Step):
    """One draw obligation: `need` cards (None = until the first playable card, or with
    `until` until a card for which until(card) holds: a roulette's or draw_color's colour,
    then `extra` more: a failed draw_color challenger's, 11.2). A player knocked out by the
    mercy rule owes nothing more (10.5)."""

    def __init__(self, p, why, need, pending=False, then=None, until=None, extra=0):
        self.p, self.why, self.need, self.pending, self.then, self.until = p, why, need, pending, then, until
        self.extra = extra
        self.got = []
        self.events = 0

    def describe(self):
        n = ("until the colour" if self.until else "until playable") if self.need is None else self.need
        return f"draw by seat {self.p} (why '{self.why}', {n} cards)"

    def owes(self, g) -> bool:
        if self.p in g.knocked:
            return False
        if self.need is None:
            if self.until is None:
                return not self.got or not g.playable(self.p, self.got[-1])
            found = next((i for i, c in enumerate(self.got) if self.until(c)), None)
            return found is None or len(self.got) - found - 1 < self.extra
        return len(self.got) < self.need

    def complete(self, g):
        if self.pending:
            g.max_pending = max(g.max_pending, len(self.got))
        if self.then:
            self.then(self)

    def offer(self, g, ev):
        t = ev["ev"]
        if not self.owes(g):
            self.complete(g)
            return PASS
        if not g.pile:
            if g.r["empty_pile"] == "void":
                if t != "end":
                    raise Desync(f"a card is owed ({self.describe()}) from an empty pile under "
                                 f"empty_pile=void: the round should end void, got '{t}'")
                if self.pending:  # R9: a penalty cut short by void counts what was drawn
                    g.max_pending = max(g.max_pending, len(self.got))
                g.finish(ev, "void", -1)
                return DONE
            if g.can_reshuffle():
                if t != "reshuffle":
                    raise Desync(f"{self.describe()}: pile empty, expected a reshuffle, got '{t}'")
                g.reshuffle(ev)
                return KEEP
            if self.events:  # nothing left anywhere: the obligation ends short
                self.complete(g)
                return PASS
            if t == "draw" and ev.get("p") == self.p and ev.get("why") == self.why and not ev.get("cards"):
                self.events += 1
                self.complete(g)
                return DONE
            raise Desync(f"{self.describe()}: nothing can be drawn, expected an empty draw, got {g.short(ev)}")
        if t == "reshuffle":
            g.violate(f"reshuffle while the pile still holds {len(g.pile)} cards")
            g.reshuffle(ev)
            return KEEP
        if t != "draw" or ev.get("p") != self.p or ev.get("why") != self.why:
            raise Desync(f"expected {self.describe()}, got {g.short(ev)}")
        cards = list(ev.get("cards") or [])
        if not cards:
            g.violate(f"empty draw although the pile holds {len(g.pile)} cards")
        for c in cards:
            if not self.owes(g):
                g.violate(f"draw ({self.why}) takes more cards than owed ({len(self.got)} owed, "
                          f"{len(cards)} drawn)")
            g.draw_card(self.p, c)
            self.got.append(c)
        self.events += 1
        g.knockouts_due(self.p)
        if self.owes(g):
            if g.pile:
                g.violate(f"draw ({self.why}) stops after {len(self.got)} cards although more are owed "
                          f"and the pile is not empty")
                self.complete(g)
                return DONE
            return KEEP  # pile ran dry: reshuffle / void / ends short
        self.complete(g)
        return DONE


class TurnStep(Step):
    """A regular turn of seat p (a pending penalty P > 0 makes p the victim)."""

    def __init__(self, p):
        self.p = p

    def offer(self, g, ev):
        t, p = ev["ev"], self.p
        if t == "challenge":
            if g.chain_w4 is None:
                raise Desync(f"challenge by seat {ev.get('p')} but no Wild Draw Four can be challenged here")
            w4p, guilty, draw = g.chain_w4
            g.challenge(ev, p, w4p, guilty, draw)
            return DONE
        if g.last_flipped and (t == "jump" or (t == "out" and ev.get("how") == "hand_sum")):  # R28
            raise Desync(f"{g.short(ev)} after a play that flips: a flip opens no jump-in, sum jump-in or "
                         f"hand-sum window")
        if t in ("play", "draw", "jump") and ev.get("p") != p:
            raise Desync(f"wrong player: seat {ev.get('p')} acts ('{t}') but it is seat {p}'s turn")
        if t == "play":
            g.begin_turn()
            cards = play_cards(ev)
            g.check_play(p, cards, "turn", ev.get("discard"))
            g.put_down(p, cards, ev.get("color"), "turn", swap=ev.get("swap") is True, discard=ev.get("discard"))
            return DONE
        if t in ("draw", "reshuffle") or (t == "end" and ev.get("reason") == "void"):
            g.begin_turn()
            if g.P > 0:
                if g.is_random(p) and g.has_legal(p):
                    g.violate(f"random bot seat {p} accepts a pending penalty of {g.P} although it can answer")
                g.push_front([DrawStep(p, "penalty", g.P, pending=True, then=g.accepted)])
            else:
                if g.has_legal(p):
                    if g.is_random(p):
                        g.violate(f"random bot seat {p} draws voluntarily although it holds a legal card")
                    elif not g.r["voluntary_draw"]:
                        g.violate(f"seat {p} draws although it holds a playable card (voluntary_draw=false)")
                need = None if g.r["draw_rule"] == "until_playable" else 1
                g.push_front([DrawStep(p, "turn", need, then=g.turn_drawn)])
            return PASS
        raise Desync(f"expected seat {p} to take its turn, got {g.short(ev)}")


class DrawnStep(Step):
    """After a turn draw: the last drawn card may be played (play_drawn)."""

    def __init__(self, p, card):
        self.p, self.card = p, card

    def offer(self, g, ev):
        p = self.p
        if ev["ev"] == "play" and ev.get("p") == p:
            cards = play_cards(ev)
            if cards != [self.card]:
                g.violate(f"after a turn draw seat {p} may play only the drawn card {self.card}, alone; "
                          f"played {cards}")
            elif not g.may_play_drawn(p, self.card):
                g.violate(f"seat {p} plays drawn card {self.card} which is not playable or not allowed "
                          f"by play_drawn={g.r['play_drawn']}")
            g.check_play(p, cards, "drawn", ev.get("discard"))
            g.put_down(p, cards, ev.get("color"), "drawn", swap=ev.get("swap") is True, discard=ev.get("discard"))
            return DONE
        if g.may_play_drawn(p, self.card):
            if g.is_random(p):
                g.violate(f"random bot seat {p} did not play its playable drawn card {self.card}")
            elif g.r.get("must_play_drawn"):
                g.violate(f"seat {p} keeps its playable drawn card {self.card} (must_play_drawn)")
        return PASS


class UnoStep(Step):
    def __init__(self, p):
        self.p = p

    def offer(self, g, ev):
        p, t = self.p, ev["ev"]
        if t == "uno" and ev.get("p") == p:
            return DONE
        if t == "caught" and ev.get("p") == p:
            if g.is_random(p):
                g.violate(f"random bot seat {p} forgot to call UNO (caught)")
            if g.r["uno_catch"] <= 0:
                g.violate("caught although uno_catch is 0")
            g.push_front([DrawStep(p, "uno", g.r["uno_penalty"] * self.catchers(g, ev))])
            return DONE
        if g.is_random(p):
            g.violate(f"random bot seat {p} holds one card but no 'uno' call follows")
        elif g.r["uno_catch"] >= 1:
            g.violate(f"seat {p} holds one card: neither 'uno' nor 'caught' follows (uno_catch=1)")
        return PASS

    def catchers(self, g, ev) -> int:
        """R15: how many players caught the forgotten call (the penalty is that many times
        uno_penalty)."""
        p, by = self.p, ev.get("by")
        if g.r.get("uno_catchers", SEED_DEFAULTS["uno_catchers"]) != "each":
            if by is not None and (not isinstance(by, list) or len(by) > 1):
                g.violate(f"caught by {by!r}: under uno_catchers=one a call is caught once")
            return 1
        if not isinstance(by, list) or not by:
            g.violate(f"caught under uno_catchers=each needs a non-empty 'by' list, got {by!r}")
            return 1
        others = [q for q in range(g.n) if q != p and g.in_round[q]]
        bad = [q for q in by if q not in others]
        if bad or len(set(by)) != len(by):
            g.violate(f"caught by {by}: catchers must be distinct other players still in the round {others}")
        elif g.r["uno_catch"] >= 1 and len(by) != len(others):
            g.violate(f"caught by {by}: with uno_catch=1 every other player still in the round catches {others}")
        return len(by)


class OutStep(Step):
    def __init__(self, p, place):
        self.p, self.place = p, place

    def offer(self, g, ev):
        if ev["ev"] != "out" or ev.get("p") != self.p:
            raise Desync(f"seat {self.p} emptied its hand: expected 'out', got {g.short(ev)}")
        if ev.get("place") != self.place:
            g.violate(f"out place {ev.get('place')} for seat {self.p}, expected {self.place}")
        return DONE


class SwapStep(Step):
    """Swap whole hands: a 7 under seven_swap, or a swap_hands card (10.4)."""

    def __init__(self, p):
        self.p = p

    def offer(self, g, ev):
        if self.p in g.knocked:  # R19: knocked out by its own UNO penalty, the player takes no more part
            return PASS
        if ev["ev"] != "swap" or ev.get("p") != self.p:
            raise Desync(f"seat {self.p} played a 7 under seven_swap or a swap_hands card: expected 'swap', "
                         f"got {g.short(ev)}")
        w = ev.get("with")
        if not isinstance(w, int) or not 0 <= w < g.n or w == self.p or not g.in_round[w]:
            g.violate(f"invalid swap target {w!r} for seat {self.p}")
        else:
            g.hands[self.p], g.hands[w] = g.hands[w], g.hands[self.p]
            g.knockouts_due(self.p)
        return DONE


class RotateStep(Step):
    def __init__(self, p):
        self.p = p  # who played the 0 (knockouts are checked from there)

    def offer(self, g, ev):
        if self.p in g.knocked:  # R19 (as SwapStep)
            return PASS
        if ev["ev"] != "rotate":
            raise Desync(f"a 0 was played under zero_rotate: expected 'rotate', got {g.short(ev)}")
        seats = [i for i in range(g.n) if g.in_round[i]]
        new = {g.nxt(i): g.hands[i] for i in seats}
        for i in seats:
            g.hands[i] = new[i]
        g.knockouts_due(self.p)
        return DONE


class ShuffleStep(Step):
    """Shuffle hands (10.4): every hand still in the round gathered and dealt one at a time
    from the next player in the direction of play (before the card's own reverse, 10.8)."""

    def __init__(self, p):
        self.p = p

    def offer(self, g, ev):
        p = self.p
        if p in g.knocked:  # R19 (as SwapStep)
            return PASS
        if ev["ev"] != "shuffle" or ev.get("p") != p:
            raise Desync(f"seat {p} played a shuffle_hands card: expected 'shuffle', got {g.short(ev)}")
        hands = ev.get("hands")
        if not isinstance(hands, list) or len(hands) != g.n or not all(isinstance(h, list) for h in hands):
            raise Desync(f"shuffle hands must be a list of {g.n} lists, got {hands!r}")
        order = []
        q = p
        for _ in range(g.n):
            q = g.nxt(q)
            if q in order:
                break
            order.append(q)
        gathered = Counter()
        for i in order:
            gathered += Counter(g.hands[i])
        dealt = Counter()
        for i in order:
            dealt += Counter(hands[i])
        if dealt != gathered:
            g.violate(f"shuffle deals out {sorted(dealt.elements())}, but the hands still in hold "
                      f"{sorted(gathered.elements())}")
        total, m = sum(gathered.values()), len(order)
        for k, i in enumerate(order):
            want = total // m + (1 if k < total % m else 0)
            if len(hands[i]) != want:
                g.violate(f"shuffle gives seat {i} {len(hands[i])} cards; dealing {total} cards one at a time "
                          f"from seat {order[0]} gives it {want}")
        for i in range(g.n):
            if i not in order and hands[i]:
                g.violate(f"shuffle deals cards to seat {i}, which is not in the round")
        if dealt == gathered:
            for i in order:
                g.hands[i] = list(hands[i])
            g.knockouts_due(p)
        return DONE


class RouletteStep(Step):
    """Roulette (10.4): the victim names the colour (the play's colour), then turns up cards
    until one of that colour (wilds never count), takes them all and loses the turn."""

    def __init__(self, victim):
        self.victim = victim

    def offer(self, g, ev):
        v = self.victim
        if ev["ev"] != "roulette" or ev.get("p") != v:
            raise Desync(f"a roulette card hits seat {v}: expected 'roulette', got {g.short(ev)}")
        color = ev.get("color")
        if color not in g.colors:
            g.violate(f"invalid roulette colour {color!r}")
        elif color != g.color:
            g.violate(f"roulette colour {color} differs from the colour {g.color} the roulette card's play carries")
        g.push_front([DrawStep(v, "roulette", None, until=lambda c: g.color_of(c) == color)])
        return DONE


class KnockoutStep(Step):
    """A player knocked out by the mercy rule (10.5); the replay already set them aside."""

    def __init__(self, p, cards, place):
        self.p, self.cards, self.place = p, cards, place

    def offer(self, g, ev):
        if ev["ev"] != "knockout" or ev.get("p") != self.p:
            raise Desync(f"seat {self.p} holds {self.cards} cards (mercy_limit {g.r['mercy_limit']}): expected "
                         f"'knockout', got {g.short(ev)}")
        if ev.get("cards") != self.cards:
            g.violate(f"knockout of seat {self.p} says {ev.get('cards')!r} cards, it holds {self.cards}")
        if self.place is not None and ev.get("place") != self.place:
            g.violate(f"knockout place {ev.get('place')!r} for seat {self.p}, expected {self.place} "
                      f"(the worst place still free)")
        if self.place is None and "place" in ev:
            g.violate("a knockout carries 'place' only under last_standing")
        return DONE


class EffectStep(Step):
    """10.2 steps 4-5 of a card, worked out after its swap / shuffle / rotate (and any
    knockout they caused), so that the victim is the next player still in."""

    def __init__(self, p, cards, emptied, guilty, how):
        self.args = (p, cards, emptied, guilty, how)

    def offer(self, g, ev):
        g.push_front(g._effects(*self.args))
        return PASS


class W4VictimStep(Step):
    """Victim of a non-stacked restricted card (Wild Draw Four; with `color` a restricted
    draw_color card, 11.2): challenge now, or draw / turn up cards until the colour."""

    def __init__(self, victim, w4p, guilty, draw=4, color=None):
        self.victim, self.w4p, self.guilty, self.draw, self.color = victim, w4p, guilty, draw, color

    def offer(self, g, ev):
        if ev["ev"] == "challenge":
            if not g.can_challenge():
                g.violate("challenge although challenge is off or wd4_rule is free")
            g.challenge(ev, self.victim, self.w4p, self.guilty, self.draw, self.color)
            return DONE
        if self.color is not None:
            g.push_front([DrawStep(self.victim, "draw_color", None, until=g.until_color(self.color))])
        else:
            g.push_front([DrawStep(self.victim, "penalty", self.draw, pending=True)])
        return PASS


class Swap3Step(Step):
    """Wild swap (R14): k = min(3, own, target's) cards each way, measured now."""

    def __init__(self, p):
        self.p = p

    def offer(self, g, ev):
        p = self.p
        if p in g.knocked:  # R19 (as SwapStep)
            return PASS
        if ev["ev"] != "swap3" or ev.get("p") != p:
            raise Desync(f"seat {p} played a Wild with swap: expected 'swap3', got {g.short(ev)}")
        w = ev.get("with")
        if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w < g.n or w == p or not g.in_round[w]:
            g.violate(f"invalid Wild swap target {w!r} for seat {p}")
            return DONE
        gave, got = list(ev.get("gave") or []), list(ev.get("got") or [])
        k = min(3, len(g.hands[p]), len(g.hands[w]))
        if len(gave) != k or len(got) != k:
            g.violate(f"Wild swap of seat {p} with seat {w}: k must be min(3, {len(g.hands[p])}, "
                      f"{len(g.hands[w])}) = {k}, gave {len(gave)} and got {len(got)}")
        if Counter(gave) - Counter(g.hands[p]):
            g.violate(f"Wild swap: seat {p} gives {gave} which it does not hold")
        elif Counter(got) - Counter(g.hands[w]):
            g.violate(f"Wild swap: seat {p} gets {got} which seat {w} does not hold")
        else:
            for c in gave:
                g.hands[p].remove(c)
            for c in got:
                g.hands[w].remove(c)
            g.hands[p].extend(got)
            g.hands[w].extend(gave)
            g.knockouts_due(p)
        return DONE


class HandSumStep(Step):
    """Hand-sum win (R13): after number card N from seat p, the first other player (in the
    direction of play) whose hand is all number cards adding up to N lays it down and goes out."""

    def __init__(self, p, n):
        self.p, self.n = p, n

    def offer(self, g, ev):
        p, n = self.p, self.n
        claimant = g.hand_sum_claimant(p, n)
        if ev["ev"] != "out" or ev.get("how") != "hand_sum":
            if claimant is not None:
                g.violate(f"seat {claimant}'s hand {sorted(g.hands[claimant])} adds up to {n}: "
                          f"its hand-sum win must be claimed, no claim follows")
            return PASS
        q = ev.get("p")
        if not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < g.n or not g.in_round[q] or q == p:
            raise Desync(f"hand-sum claim by seat {q!r}, which is not another player still in the round")
        hand = g.hands[q]
        if claimant is None:
            g.violate(f"hand-sum claim by seat {q} on {n}, but no hand can claim it "
                      f"(seat {q} holds {sorted(hand)})")
        elif q != claimant:
            g.violate(f"wrong hand-sum claimant: seat {q} claims, but seat {claimant} is the first "
                      f"in the direction of play after seat {p}")
        if claimant is None or q != claimant:
            if not all(g.is_number(c) for c in hand):
                g.violate(f"seat {q} claims a hand-sum win holding an action or wild card {sorted(hand)}")
            elif sum(g.number_of(c) for c in hand) != n:
                g.violate(f"seat {q} claims a hand-sum win on {n} but its hand adds up to "
                          f"{sum(g.number_of(c) for c in hand)}")
        if Counter(ev.get("cards") or []) != Counter(hand):
            g.violate(f"hand-sum claim lays down {ev.get('cards')}, but seat {q} holds {sorted(hand)}")
        g.laid.extend(hand)
        g.hands[q] = []
        g.moved = True
        if g.r["mode"] != "last_standing":
            if "place" in ev:
                g.violate("the 'out' of a hand-sum win carries 'place' under first_out")
            g.agenda.clear()
            g.push_front([ExpectEnd("out", q)])
            return DONE
        g.places[q] = g.free_place(best=True)
        g.in_round[q] = False
        if ev.get("place") != g.places[q]:
            g.violate(f"out place {ev.get('place')} for seat {q}, expected {g.places[q]}")
        g.cur = g.nxt(p)
        if g.n_in() <= 1:
            g.agenda.clear()
            g.push_front([ExpectEnd("out", min(g.places, key=g.places.get))])
        return DONE


class JumpWindow(Step):
    """Out-of-turn plays after a card: identical jump-ins with any of `faces` (jump_in),
    and sum jump-ins answering number `sum_n` of colour `sum_color` (sum_jump_in, R11)."""

    def __init__(self, faces, sum_n=None, sum_color=None):
        self.faces, self.sum_n, self.sum_color = tuple(dict.fromkeys(faces)), sum_n, sum_color

    def identical_moves(self, g, q) -> list:
        """The held cards identical on the side in play (11.6) to one of `faces` that q may jump in with."""
        return [c for c in set(g.hands[q]) if g.face(c).text in self.faces and g.may_jump(q, c)]

    def has_move(self, g, q) -> bool:
        return bool(self.identical_moves(g, q)) or (
            self.sum_n is not None and g.has_sum_set(q, self.sum_n, self.sum_color))

    def offer(self, g, ev):
        if g.jumps_in_row >= g.r["max_turns"]:  # R4
            if ev["ev"] == "end":
                g.finish(ev, "cap", -1)
                return DONE
            raise Desync(f"{g.jumps_in_row} consecutive jump-ins: the round should have ended (cap), "
                         f"got {g.short(ev)}")
        if ev["ev"] == "jump":
            q = ev.get("p")
            if not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < g.n:
                raise Desync(f"jump-in by seat {q!r}")
            if not g.in_round[q]:
                g.violate(f"seat {q} jumps in but is out of the round")
            if "cards" in ev:
                cards = list(ev.get("cards") or [])
                if not all(g.is_card(c) for c in cards):
                    raise Desync(f"malformed cards {cards!r}")
                g.jumps_in_row += 1
                self.check_sum_jump(g, q, cards, ev)
                g.put_down(q, cards, ev.get("color"), "sum")
                return DONE
            card = ev.get("card")
            if not g.is_card(card) or g.face(card).text not in self.faces:
                what = self.faces[0] if len(self.faces) == 1 else f"any card of {list(self.faces)}"
                g.violate(f"jump-in with {card}, not identical to {what}"
                          if self.faces else f"identical jump-in with {card} but jump_in is off")
            if card not in g.hands[q]:
                g.violate(f"seat {q} jumps in with {card} but does not hold it (or is out)")
            g.jumps_in_row += 1
            g.check_play(q, [card], "jump", ev.get("discard"))
            g.put_down(q, [card], ev.get("color"), "jump", discard=ev.get("discard"))
            return DONE
        rnd = [q for q in range(g.n) if g.in_round[q] and g.is_random(q) and self.has_move(g, q)]
        if rnd:
            g.violate(f"random bot seat(s) {rnd} could jump in (on {g.top}), but no jump follows")
        return PASS

    def check_sum_jump(self, g, q, cards, ev):
        n, r = self.sum_n, g.r
        if n is None:
            why = ("sum_jump_in is off" if r.get("sum_jump_in", "off") == "off" else
                   "a sum set answers only a number card put down singly or on top of a multi-play")
            g.violate(f"sum jump-in {cards} is not allowed here ({why}; top {g.top})")
            return
        if ev.get("sum") != n:
            g.violate(f"sum jump-in carries sum {ev.get('sum')!r}, it answers {n}")
        if len(cards) < 2 or not all(g.is_number(c) for c in cards):
            g.violate(f"a sum set is two or more number cards, got {cards}")
            return
        if Counter(cards) - Counter(g.hands[q]):
            g.violate(f"seat {q} jumps in with {cards} but does not hold them")
        total = sum(g.number_of(c) for c in cards)
        if total != n:
            g.violate(f"sum set {cards} adds up to {total}, not to {n}")
        if r.get("sum_jump_in") == "same_color" and any(g.color_of(c) != self.sum_color for c in cards):
            g.violate(f"sum set {cards} is not all {self.sum_color} (sum_jump_in=same_color)")
        if r.get("sum_jump_win_only", False) and Counter(cards) != Counter(g.hands[q]):
            g.violate(f"sum jump-in {cards} does not empty seat {q}'s hand (sum_jump_win_only)")
        if g.is_random(q) and cards != g.sum_set_order(cards):
            g.violate(f"random bot seat {q} puts its sum set down as {cards}, not sorted by colour "
                      f"and number {g.sum_set_order(cards)}")


class ExpectEnd(Step):
    def __init__(self, reason, winner=-1):
        self.reason, self.winner = reason, winner

    def offer(self, g, ev):
        if ev["ev"] != "end":
            raise Desync(f"the round should end here (reason '{self.reason}'), got {g.short(ev)}")
        g.finish(ev, self.reason, self.winner)
        return DONE


# --------------------------------------------------------------------------------------
@dataclass
class GameReport:
    game: int
    violations: list = field(default_factory=list)
    record: dict | None = None

    @property
    def ok(self) -> bool:
        return not self.violations


class Game:
    def __init__(self, deal: dict, evno: int):
        self.evno, self.ev = evno, deal
        self.report = GameReport(game=deal.get("game", -1))
        self.desynced = False
        self.result = None
        self._conservation_reported = False
        self.r = dict(deal.get("rules") or {})
        missing = [k for k in KNOBS if k not in self.r and k not in SEED_DEFAULTS
                   and k not in SECTION10_DEFAULTS and k not in SECTION11_DEFAULTS]  # R10, R17, R23
        if missing:
            self.violate(f"deal rules lack knobs {missing}; their defaults are assumed")
        self.section10 = "mercy_limit" in self.r  # R17: the record then has `knockouts`
        self.r = {**SEED_DEFAULTS, **SECTION10_DEFAULTS, **SECTION11_DEFAULTS, **DEFAULT_RULES, **self.r}
        zp = self.r.get("zero_points", 0)
        zp = zp if isinstance(zp, int) else 0
        self.two_sided = "sides" in deal  # SPEC 11: a two-sided deck, cards written LIGHT/DARK
        if self.two_sided:
            self.sides = self._two_sided_deck(deal, zp)
        else:
            kinds = deal.get("deck", CLASSIC_KINDS)
            if not isinstance(kinds, list) and kinds is not CLASSIC_KINDS:
                self.violate(f"deal deck must be a list of kinds, got {kinds!r}")
                kinds = CLASSIC_KINDS
            self.sides = [DeckFaces(kinds, zp)]
            for problem in self.sides[0].problems:
                self.violate(f"invalid deck: {problem}")
            if self.r.get("deck") == "flip":
                self.violate("deck=flip but the deal carries no two-sided 'sides'")
        self.side = 0             # the side in play (SPEC 11.1): 0 light, 1 dark; always light at the deal
        self.flips = 0            # SPEC 11.5: Flip cards played or flipped as lead
        self._faces = ({}, {})    # face() cache per side
        self.n = deal.get("players", self.r.get("players"))
        self.dealer = deal.get("dealer")
        self.bots = list(deal.get("bots") or [])
        self.hands = [list(h) for h in deal.get("hands") or []]
        self.pile = list(deal.get("pile") or [])
        if self.two_sided:  # R23: the physical cards are the dealt ones (_check_deal checks the pairing)
            self.cards = sum((Counter(h) for h in self.hands), Counter(self.pile))
        else:
            self.cards = self.sides[0].cards
        self.size = sum(self.cards.values())
        self.discard: list = []
        self.laid: list = []      # R13: cards laid down by hand-sum winners (out of play)
        self.aside: list = []     # SPEC 10.5: cards of knocked-out players (join the next reshuffle)
        self.knocked: list = []   # seats knocked out by the mercy rule, in order
        self.sum_set = None       # R12: the cards of a sum set until the next card is put down
        self.last_flipped = False  # R28: the last card(s) put down flipped (no window follows)
        self.in_round = [True] * (self.n or 0)
        self.places: dict = {}
        self.dir = 1
        self.color = None
        self.cur = None
        self.P = 0                # pending penalty of a stacked chain
        self.chain_last = None    # the last draw card of the chain (a face)
        self.chain_w4 = None      # (player, guilty, draw) while the chain's first restricted card may be challenged
        self.turns = self.plays = self.draws = self.reshuffles = self.max_pending = self.challenges = 0
        self.idle = 0
        self.turn_taken = False
        self.moved = False
        self.jumps_in_row = 0
        self.agenda: deque = deque([LeadStep()])
        self.ko_queue: list = []  # knockout events due after the current event (10.5)
        self.decided = False      # a winning card was played: the round ends after its effects
        self._check_deal(deal)
        r = self.r
        self.stack_d2 = bool(r.get("stack_draw_two") or r.get("stack_four_on_two") or r.get("deflect"))
        self.stack_w4 = bool(r.get("stack_draw_four") or r.get("stack_two_on_four"))
        self.by_value = bool(r.get("stack_by_value"))

    # ---- bookkeeping ------------------------------------------------------------------
    def violate(self, msg: str):
        self.report.violations.append(f"game {self.report.game} event {self.evno} ({self.short(self.ev)}): {msg}")

    @staticmethod
    def short(ev) -> str:
        if not isinstance(ev, dict):
            return repr(ev)
        parts = [str(ev.get("ev"))]
        for k in ("p", "card", "cards", "color", "swap", "sum", "how", "by", "why", "with", "gave", "got",
                  "target", "guilty", "place", "reason", "side", "top"):
            if k in ev:
                parts.append(f"{k}={ev[k]}")
        return " ".join(parts)

    def _check_deal(self, deal):
        r, n = self.r, self.n
        if not isinstance(n, int) or not 2 <= n <= 10:
            self.violate(f"invalid players {n!r}")
            self.desynced = True
            return
        if r.get("players", n) != n:
            self.violate(f"rules.players {r.get('players')} differs from players {n}")
        if self.dealer not in range(n):
            self.violate(f"invalid dealer {self.dealer!r}")
            self.dealer = n - 1
        if len(self.hands) != n or len(self.bots) != n:
            self.violate(f"{len(self.hands)} hands and {len(self.bots)} bots for {n} players")
            self.desynced = True
            return
        for i, h in enumerate(self.hands):
            if len(h) != r.get("hand_size", 7):
                self.violate(f"seat {i} is dealt {len(h)} cards, hand_size is {r.get('hand_size')}")
        size = self.sides[0].size
        if n * r.get("hand_size", 7) + 1 > size:
            self.violate(f"invalid rule set: {n} players x hand_size {r.get('hand_size')} + 1 > {size} cards")
        if r.get("first_card") == "number" and not self.sides[0].has_number:  # the light side (11.6)
            self.violate("invalid rule set: first_card=number with no number kind in the deck")
        ml = r.get("mercy_limit", 0)
        if ml and ml <= r.get("hand_size", 7):
            self.violate(f"invalid rule set: mercy_limit {ml} is not above hand_size {r.get('hand_size')}")
        if ml and r.get("teams"):
            self.violate("invalid rule set: mercy_limit with teams")
        if r.get("stack_by_value") and any(r.get(x) for x in ("stack_draw_two", "stack_draw_four", "stack_four_on_two",
                                                               "stack_two_on_four", "deflect")):
            self.violate("invalid rule set: stack_by_value with another stack_* knob or deflect")
        if r.get("must_play_drawn") and r.get("play_drawn") != "any":
            self.violate("invalid rule set: must_play_drawn needs play_drawn=any")
        k = r.get("teams", 0) or 0
        if k and n % k:
            self.violate(f"teams={k} does not divide players={n}")
        if r.get("deflect") and not r.get("stack_draw_two"):
            self.violate("invalid rule set: deflect without stack_draw_two")
        if r.get("draw_rule") == "until_playable" and r.get("play_drawn") == "none":
            self.violate("invalid rule set: draw_rule=until_playable with play_drawn=none")
        if r.get("flip_discard") not in ("whole", "top"):
            self.violate(f"invalid flip_discard {r.get('flip_discard')!r} (whole or top)")
        total = Counter(self.pile)
        for h in self.hands:
            total += Counter(h)
        if self.two_sided:
            self._check_pairing(total)
        elif total != self.cards:
            self.violate(f"deal is not the {size}-card deck (hands + pile)")

    def _two_sided_deck(self, deal, zp) -> list:
        """SPEC 11.1-11.3, R23: the deal's `sides` as two face tables (light R Y G B, dark P T O V)."""
        sides = deal.get("sides")
        if "deck" in deal:
            self.violate("a two-sided deal carries 'sides' in place of 'deck', not both")
        if not isinstance(sides, dict) or not all(isinstance(sides.get(s), list) for s in SIDES):
            self.violate(f"deal sides must be {{'light': [KIND, ...], 'dark': [KIND, ...]}}, got {sides!r}")
            sides = {s: [] for s in SIDES}
        decks = [DeckFaces(sides[s], zp, SIDE_COLORS[i], two_sided=True) for i, s in enumerate(SIDES)]
        for s, d in zip(SIDES, decks):
            for problem in d.problems:
                self.violate(f"invalid deck ({s} side): {problem}")
        if decks[0].size != decks[1].size:
            self.violate(f"invalid deck: the light side holds {decks[0].size} cards, the dark side "
                         f"{decks[1].size} (the sides differ in size)")
        if self.r.get("deck") == "flip":  # SPEC 11.3: texts, counts and points pinned
            for s in SIDES:
                want = {k["text"]: full_kind(k) for k in FLIP_DECK[s]}
                got = {k["text"]: full_kind(k, zp) for k in sides[s] if kind_problem(k, True) is None}
                diff = sorted(t for t in set(want) | set(got) if want.get(t) != got.get(t))
                if diff:
                    self.violate(f"deck=flip: the {s} side differs from the pinned flip deck in kinds {diff}")
        return decks

    def _check_pairing(self, total: Counter):
        """R23: every dealt card is LIGHT/DARK, and its light faces are the light side's cards and
        its dark faces the dark side's: a one-to-one pairing of the two sides with the right counts."""
        bad = [c for c in total if not (isinstance(c, str) and c.count("/") == 1)]
        if bad:
            self.violate(f"two-sided deal: cards {bad[:3]} are not written LIGHT/DARK")
            return
        for i, s in enumerate(SIDES):
            halves = Counter()
            for c, k in total.items():
                halves[c.split("/")[i]] += k
            want = self.sides[i].cards
            if halves != want:
                self.violate(f"deal is not a pairing of the two sides: its {s} faces are not the {s} side's "
                             f"{self.sides[i].size} cards (extra {sorted((halves - want).elements())[:4]}, "
                             f"missing {sorted((want - halves).elements())[:4]})")

    def check_conservation(self):
        n = sum(map(len, self.hands)) + len(self.pile) + len(self.discard) + len(self.laid) + len(self.aside)
        if n != self.size and not self._conservation_reported:
            self._conservation_reported = True
            self.violate(f"card conservation broken: hands + pile + discard + laid down + set aside hold {n} "
                         f"cards, the deck {self.size}")

    def is_random(self, p) -> bool:
        return 0 <= p < len(self.bots) and self.bots[p] == "random"

    def push_front(self, steps):
        self.agenda.extendleft(reversed(steps))

    # ---- seats ------------------------------------------------------------------------
    def n_in(self) -> int:
        return sum(self.in_round)

    def nxt(self, p) -> int:
        q = p
        for _ in range(self.n):
            q = (q + self.dir) % self.n
            if self.in_round[q]:
                return q
        return p

    def advance(self, p, k) -> int:
        for _ in range(k):
            p = self.nxt(p)
        return p

    def two_left(self, p) -> bool:
        # R2 TWO_PLAYER_NEEDS_PLAYER_IN
        return self.n_in() == 2 and (self.in_round[p] or not TWO_PLAYER_NEEDS_PLAYER_IN)

    # ---- cards and faces -----------------------------------------------------------------
    def face(self, card, side=None) -> Face:
        """The face of a physical card on the side in play (or on `side`): every rule reads the
        card through this (SPEC 11.1). A one-sided deck's card is its own face."""
        side = self.side if side is None else side
        f = self._faces[side].get(card)
        if f is None:
            text = card
            if self.two_sided:
                parts = card.split("/")
                text = parts[side] if len(parts) == 2 else card
            f = self._faces[side][card] = self.sides[side].face(text)
        return f

    def color_of(self, card):
        return self.face(card).color

    def symbol_of(self, card) -> str:
        """The kind's text of the face in play."""
        return self.face(card).kind

    def is_number(self, card) -> bool:
        return self.face(card).number is not None

    def number_of(self, card) -> int:
        return self.face(card).number

    @property
    def colors(self) -> str:
        """The colour letters of the side in play (SPEC 11.1)."""
        return SIDE_COLORS[self.side]

    def is_card(self, card) -> bool:
        return isinstance(card, str) and self.cards[card] > 0

    def sum_set_order(self, cards) -> list:
        """R16: the random bot's order for a sum set: by colour (R, Y, G, B; on the dark side P,
        T, O, V, 11.6), then number."""
        return sorted(cards, key=lambda c: (self.colors.index(self.color_of(c)), self.number_of(c)))

    @property
    def top(self):
        return self.discard[-1] if self.discard else None

    def take_pile_top(self, card, what):
        if not self.pile:
            self.violate(f"{what} {card} taken from an empty pile")
        elif self.pile[0] != card:
            self.violate(f"{what} {card} is not the pile top {self.pile[0]}")
            if card in self.pile:
                self.pile.remove(card)
        else:
            self.pile.pop(0)

    def draw_card(self, p, card):
        self.take_pile_top(card, "drawn card")
        self.hands[p].append(card)
        self.draws += 1
        self.moved = True

    def take(self, p, card):
        if card in self.hands[p]:
            self.hands[p].remove(card)
        else:
            self.violate(f"seat {p} puts down {card} which it does not hold")

    def reshuffle(self, ev):
        new_pile = list(ev.get("pile") or [])
        if not self.can_reshuffle():
            self.violate("reshuffle although the discard pile holds fewer than 2 cards")
        if Counter(new_pile) != Counter(self.discard[:-1]) + Counter(self.aside):
            self.violate("reshuffle pile is not the discard pile minus its top card"
                         + (" plus the set-aside cards" if self.aside else ""))
        self.aside = []
        self.discard = self.discard[-1:]
        self.pile = new_pile
        self.reshuffles += 1

    def acceptable_lead(self, card) -> bool:
        """3.1 + 10.5: official keeps a number card or a kind S, R, D (coloured) or W; number
        keeps number cards only. Two-sided decks (11.4, 11.6, R24) also keep D1, D5, E and F."""
        f = self.face(card)
        if self.r["first_card"] == "number":
            return f.number is not None
        texts = LEAD_TEXTS_TWO_SIDED if self.two_sided else LEAD_TEXTS
        return f.number is not None or f.text == "W" or (f.color is not None and f.kind in texts)

    def restricted(self, card) -> bool:
        return self.face(card).restricted

    @staticmethod
    def is_wd4(face: Face) -> bool:
        """The classic stacking knobs' Wild Draw Four: the wild kind with text W4 (10.8)."""
        return face.text == "W4"

    @staticmethod
    def is_d2(face: Face) -> bool:
        """The classic stacking knobs' Draw Two: the coloured kind with text D (10.8)."""
        return face.color is not None and face.kind == "D"

    def stacks(self, face: Face) -> bool:
        """Does this face start or raise a pending penalty (3.4; 10.3: under stack_by_value
        every draw card, else only D and W4 by text under their knobs)?"""
        if not face.draw:
            return False
        if self.by_value:
            return True
        return (self.is_d2(face) and self.stack_d2) or (self.is_wd4(face) and self.stack_w4)

    def matches(self, card) -> bool:
        f = self.face(card)
        top = self.face(self.top) if self.top is not None else None
        if f.color == self.color or (
                top is not None and top.color is not None and f.color is not None and f.kind == top.kind):
            return True
        # R12: after a sum set, any card of the set is matched by colour or number
        return bool(self.sum_set) and f.color is not None and any(
            f.color == s.color or f.kind == s.kind for s in map(self.face, self.sum_set))

    def until_color(self, color):
        """Roulette / draw_color (10.4, 11.2): the turning up stops at a face of `color` on the
        side in play (wild faces never count)."""
        return lambda c: self.color_of(c) == color

    def has_sum_set(self, q, n, color) -> bool:
        """R11: does q hold two or more number cards adding up to n (all of `color` under
        same_color; the whole hand under sum_jump_win_only)?"""
        r, hand = self.r, self.hands[q]
        vals = [self.number_of(c) for c in hand
                if self.is_number(c) and (r.get("sum_jump_in") == "any_color" or self.color_of(c) == color)]
        if r.get("sum_jump_win_only", False):
            return len(hand) >= 2 and len(vals) == len(hand) and sum(vals) == n
        reach = {(0, 0)}  # (sum, cards used, capped at 2)
        for v in vals:
            reach |= {(t + v, min(k + 1, 2)) for t, k in reach if t + v <= n}
        return (n, 2) in reach

    def hand_sum_claimant(self, p, n):
        """R13: the first player after p in the direction of play, still in and other than p,
        whose hand is number cards only, at least one, adding up to n; None if nobody."""
        q = p
        for _ in range(self.n - 1):
            q = (q + self.dir) % self.n
            h = self.hands[q]
            if self.in_round[q] and h and all(self.is_number(c) for c in h) and sum(map(self.number_of, h)) == n:
                return q
        return None

    def wd4_guilty(self, p) -> bool:
        """SPEC 9: would a Wild Draw Four from p's current hand break wd4_rule?"""
        rule, top = self.r["wd4_rule"], self.face(self.top)
        if rule == "free":
            return False
        for f in map(self.face, self.hands[p]):
            if f.color is None:
                continue
            if f.color == self.color:
                return True
            if rule == "no_match" and top.color is not None and f.kind == top.kind:
                return True
        return False

    def wd4_allowed(self, p) -> bool:
        return not self.wd4_guilty(p)

    def legal_answer(self, card) -> bool:
        r = self.r
        if self.chain_last is None:
            return False
        f = self.face(card)
        if f.flip or f.draw_color:  # 11.2, 11.6: a flip or draw_color card never answers
            return False
        if self.by_value:  # 10.3: any card whose draw is at least the last draw card's (R26)
            return f.draw >= max(1, self.chain_last.draw)
        if not self.is_wd4(f) and not self.matches(card):
            return False
        s = f.kind if f.color is not None else None
        if self.is_d2(self.chain_last):
            return ((s == "D" and r["stack_draw_two"]) or (self.is_wd4(f) and r["stack_four_on_two"])
                    or (s in ("S", "R") and r["deflect"]))
        if self.is_wd4(self.chain_last):
            return ((self.is_wd4(f) and r["stack_draw_four"])
                    or (s == "D" and f.color == self.color and r["stack_two_on_four"]))
        return False

    def playable(self, p, card) -> bool:
        """R8: could p put `card` down alone now, without a bluff?"""
        if self.P > 0:
            ok = self.legal_answer(card)
        elif self.color_of(card) is None:
            ok = not self.restricted(card) or self.wd4_allowed(p)
        else:
            ok = self.matches(card)
        if ok and self.r["number_finish"] and not self.is_number(card) and self.empties_hand(p, card):
            ok = False
        return ok

    def empties_hand(self, p, card) -> bool:
        """Would putting `card` down alone leave p no card: its last card, or a Discard All that
        takes every other card p holds down with it (SPEC 10.2 step 2: number_finish judges the
        Discard All card, put down last)?"""
        hand = self.hands[p]
        if len(hand) == 1:
            return True
        face = self.face(card)
        return bool(face.discard_color) and all(self.color_of(c) == face.color for c in hand)

    def has_legal(self, p) -> bool:
        return any(self.playable(p, c) for c in set(self.hands[p]))

    def may_play_drawn(self, p, card) -> bool:
        pd = self.r["play_drawn"]
        return pd != "none" and (pd == "any" or self.is_number(card)) and self.playable(p, card)

    def may_jump(self, q, card) -> bool:
        """Could q legally jump in with `card` (identical to the top card, held by q)?"""
        if self.r["number_finish"] and not self.is_number(card) and self.empties_hand(q, card):
            return False
        return self.P == 0 or not JUMP_WHILE_PENDING_MUST_ANSWER or self.legal_answer(card)  # R3

    def can_challenge(self) -> bool:
        return bool(self.r["challenge"]) and self.r["wd4_rule"] != "free"

    # ---- plays ------------------------------------------------------------------------
    def check_play(self, p, cards, how, discard=None):
        """Legality of putting `cards` down (before they leave the hand); `discard`: the cards
        a Discard All puts down with them (10.2)."""
        r = self.r
        if not cards or not all(self.is_card(c) for c in cards):
            raise Desync(f"malformed cards {cards!r}")
        if len(cards) > 1:
            if how != "turn":
                self.violate(f"multi-play is not allowed for a {how} play")
            if r["multi_play"] == "off":
                self.violate("multi-play with multi_play=off")
            elif not MULTI_PLAY_WILDS and any(self.color_of(c) is None for c in cards):
                self.violate(f"multi-play set {cards} contains a Wild")  # R1
            elif r["multi_play"] == "identical" and len({self.face(c).text for c in cards}) > 1:  # 11.6
                self.violate(f"multi-play set {cards} is not identical cards")
            elif r["multi_play"] == "same_symbol" and len({self.symbol_of(c) for c in cards}) > 1:
                self.violate(f"multi-play set {cards} does not share one symbol")
            if self.is_random(p):
                self.violate(f"random bot seat {p} puts down {len(cards)} cards (it plays one)")
        if (r["number_finish"] and Counter(cards) + Counter(discard or []) == Counter(self.hands[p])
                and not all(self.is_number(c) for c in cards)):  # R7; a Discard All card is put down last
            self.violate(f"seat {p} goes out with {cards[-1]}: number_finish needs a number card last")
        if self.P > 0 and (how != "jump" or JUMP_WHILE_PENDING_MUST_ANSWER):  # R3
            if not any(self.legal_answer(c) for c in cards):
                self.violate(f"{cards if len(cards) > 1 else cards[0]} is not a legal answer to the pending "
                             f"penalty of {self.P} (top {self.top}, colour {self.color})")
            return
        if not any(self.color_of(c) is None or self.matches(c) for c in cards):
            self.violate(f"{cards if len(cards) > 1 else cards[0]} does not match the top card {self.top} "
                         f"(colour {self.color})")
        if len(cards) == 1 and self.restricted(cards[0]) and not self.wd4_allowed(p):
            if not r["challenge"]:
                self.violate(f"Wild Draw Four against wd4_rule={r['wd4_rule']} with challenge=false")
            elif self.is_random(p):
                self.violate(f"random bot seat {p} bluffs a Wild Draw Four (wd4_rule={r['wd4_rule']})")

    def set_color(self, top, color):
        c = self.color_of(top)
        if c is not None:
            if color != c:
                self.violate(f"colour after {top} must be {c}, the trace says {color!r}")
            self.color = c
        elif color not in self.colors:
            self.violate(f"invalid colour {color!r} named for {top} (the {SIDES[self.side]} side's colours "
                         f"are {self.colors})")
        else:
            self.color = color

    def _penalty_target(self, p, two, skips) -> int:
        """Victim of a deflecting Skip/Reverse (R5); the direction is already flipped."""
        if two:
            return self.nxt(p)
        return self.advance(p, 1 + skips)

    def put_down(self, p, cards, color, how, swap=False, discard=None):
        """Cards leave p's hand; queue everything that follows (RULES 'Order of events', SPEC 10.2).
        how: turn, drawn, jump (identical jump-in) or sum (sum jump-in). `discard`: the cards
        a Discard All puts down with them (the trace's `discard` list)."""
        r = self.r
        faces = [self.face(c) for c in cards]  # the faces played: steps 4-5 use them, after a flip too (11.6)
        guilty = self.P == 0 and any(f.restricted for f in faces) and not self.wd4_allowed(p)  # hand at the moment of playing
        for c in cards:
            self.take(p, c)
        # 10.2 step 1 / 10.4: each Discard All takes the player's other cards of its colour,
        # after the whole set is down; they go under the top card and have no effects
        colors = {f.color for f in faces if f.discard_color}
        if colors and how != "sum":
            owed = Counter(c for c in self.hands[p] if self.color_of(c) in colors)
            if discard is None or Counter(discard) != owed:
                self.violate(f"Discard All: seat {p} must put down {sorted(owed.elements())} with {cards[-1]}, "
                             f"the trace says {discard!r}")
        elif discard:
            self.violate(f"a 'discard' list {discard} without a Discard All card")
        discard = [c for c in (discard or []) if isinstance(c, str)]
        for c in discard:
            self.take(p, c)
        self.discard.extend(cards[:-1] + discard + cards[-1:])
        self.plays += len(cards) + len(discard)
        self.moved = True
        self.sum_set = list(cards) if how == "sum" else None  # R12: a new card ends the matching set
        emptied = not self.hands[p]
        flips = sum(f.flip for f in faces) if how != "sum" else 0  # 11.2 step 3a: one flip per Flip card
        self.last_flipped = bool(flips)
        if swap:  # R14; Wild swap belongs to the kind W on either side (11.6)
            if not r.get("wild_swap", SEED_DEFAULTS["wild_swap"]):
                self.violate("Wild swap with wild_swap off")
            if len(cards) != 1 or faces[0].text != "W":
                self.violate(f"swap with {cards}: only a Wild played alone may swap")
            elif emptied:
                self.violate(f"seat {p} swaps although the Wild was its last card (it names a colour)")
            swap = len(cards) == 1 and faces[0].text == "W" and not emptied
        if swap:
            if color != self.color:
                self.violate(f"a Wild swap keeps the colour {self.color}, the trace says {color!r}")
        elif not flips:  # a play that flips carries the colour after its flips (PlayColorStep)
            self.set_color(cards[-1], color)
        steps = [UnoStep(p)] if len(self.hands[p]) == 1 else []
        if not emptied and how != "sum":  # a card that empties the hand does no swap, shuffle or rotate
            for f in faces:  # 10.2 step 3: swap_hands / shuffle_hands, then 7-swap / 0-rotate
                if f.swap_hands:
                    steps.append(SwapStep(p))
                if f.shuffle_hands:
                    steps.append(ShuffleStep(p))
            for f in faces:  # the numbers on the side in play (11.6)
                if f.number == 7 and r["seven_swap"]:
                    steps.append(SwapStep(p))
                if f.number == 0 and r["zero_rotate"]:
                    steps.append(RotateStep(p))
        if swap:
            steps.append(Swap3Step(p))
        if flips:  # 11.2 step 3a / 11.6: after step 3, a flip each (R25: a wild Flip card names its colour)
            steps += [FlipStep(p, p, named=faces[-1].color is None and k == flips - 1) for k in range(flips)]
            steps.append(PlayColorStep(color, cards[-1]))
        if emptied and r["mode"] == "last_standing":  # judged after the flip (11.6)
            self.places[p] = self.free_place(best=True)
            self.in_round[p] = False
            steps.append(OutStep(p, self.places[p]))
        if how == "sum":  # a sum set has no effects; play continues from the jumper
            self.cur = self.nxt(p)
            effect = []
        else:
            effect = [EffectStep(p, faces, emptied, guilty, how)]  # 10.2 steps 4-5, after swaps/shuffles/flips
        if emptied and (r["mode"] == "first_out" or self.n_in() <= 1):
            self.decided = True
            winner = p if r["mode"] == "first_out" else min(self.places, key=self.places.get)
            steps += effect + [ExpectEnd("out", winner)]
        else:
            steps += effect
            top = faces[-1]
            answerable = how != "sum" and top.number is not None and not flips  # R11, R13: played singly or atop a multi-play
            if answerable and r.get("hand_sum_win", SEED_DEFAULTS["hand_sum_win"]):
                steps.append(HandSumStep(p, top.number))
            faces_in = ([f.text for f in faces] if how == "sum" else [top.text]) \
                if r["jump_in"] and top.color is not None and not flips else []  # 11.6: a flip opens no window
            sum_open = answerable and r.get("sum_jump_in", SEED_DEFAULTS["sum_jump_in"]) != "off"
            if faces_in or sum_open:
                steps.append(JumpWindow(faces_in, top.number if sum_open else None, top.color))
        self.push_front(steps)

    def _effects(self, p, faces, emptied, guilty, how) -> list:
        """10.2 steps 4-5 (reverse, then the victim: skip, draw, roulette, draw_color) of the
        faces played (after a flip too, 11.6): set self.cur (who takes the next turn), update the
        pending chain, and return the steps of an immediate penalty, roulette or draw_color. A
        set (multi-play) is cards of one kind."""
        r = self.r
        n_rev = sum(f.reverse for f in faces)
        for _ in range(n_rev):
            self.dir = -self.dir
        two = self.two_left(p)
        # two players, two_player_reverse=skip: a reverse is a skip (with skip as well, one skip)
        rev_skips = sum(f.reverse and not f.skip for f in faces) if two and r["two_player_reverse"] == "skip" else 0
        skips = sum(f.skip == 1 for f in faces) + rev_skips
        if r["multi_skip"] == "once":
            skips, rev_skips = min(skips, 1), min(rev_skips, 1)
        skip_all = any(f.skip == "all" for f in faces)  # any number of them skip everyone once
        add = sum(f.draw for f in faces)
        roulette = any(f.roulette for f in faces)
        draw_color = any(f.draw_color for f in faces)
        restricted = any(f.restricted for f in faces)
        # the victim of a draw or roulette: the next player in the (new) direction; with two
        # players a reverse makes it the player (10.8); a winning card's penalty always hits
        # the next other player still in
        hit = self.nxt(p) if emptied else self.advance(p, 1 + rev_skips)
        # a winning card ends the round; under last_standing a card that empties its player's
        # hand while two or more others stay in is no winning card (SPEC 9): its effects are
        # those of any turn, a penalty pending under stacking
        winning = emptied and (r["mode"] == "first_out" or self.n_in() <= 1)

        if self.P > 0 or (add and self.stacks(faces[-1])):  # a stacked chain starts, grows or is deflected
            starting = self.P == 0
            if add:
                self.P += add
                self.chain_last = faces[-1]  # R26: the face it was played with
                victim = hit
            else:
                victim = self._penalty_target(p, two, skips)
            if not winning:
                self.cur = victim
                self.chain_w4 = ((p, guilty, add) if starting and restricted and how in ("turn", "drawn")
                                 and self.can_challenge() else None)
                return []
            penalty, self.P, self.chain_last = self.P, 0, None
            if r["last_card_penalty"]:
                self.cur = self.nxt(victim)
                return [DrawStep(victim, "penalty", penalty, pending=True)]
            self.cur = self.advance(p, 1 + skips)
            return []
        if add or roulette or draw_color:  # a draw card taking effect at once, a roulette, a draw_color
            victim = hit
            if winning and not r["last_card_penalty"]:
                self.cur = self.nxt(p)  # the penalty is dropped: nobody draws, nobody is skipped
                return []
            self.cur = self.nxt(victim)
            if roulette:
                return [RouletteStep(victim)]
            if draw_color:  # 11.2 step 5, R27: until the colour named (the colour in play now)
                if winning or not restricted:
                    return [DrawStep(victim, "draw_color", None, until=self.until_color(self.color))]
                return [W4VictimStep(victim, p, guilty, None, self.color)]
            if winning or not restricted:
                return [DrawStep(victim, "penalty", add, pending=True)]
            return [W4VictimStep(victim, p, guilty, add)]
        if skip_all:  # every other player loses the turn: the player goes again (R18)
            self.cur = p if self.in_round[p] else self.nxt(p)
            return []
        self.cur = self.advance(p, 1 + skips)
        return []

    def challenge(self, ev, victim, w4p, guilty, draw=4, color=None):
        """3.3 + 10.8: a restricted card's challenge uses its own `draw` in place of 4; a
        restricted draw_color card's (`color`, 11.2, R27): until the colour named (the failed
        challenger then challenge_extra more), one `draw` event each."""
        r = self.r
        if ev.get("p") != victim:
            self.violate(f"challenge by seat {ev.get('p')}, but seat {victim} is the Wild Draw Four's victim")
        if ev.get("target") != w4p:
            self.violate(f"challenge target {ev.get('target')}, but seat {w4p} played the Wild Draw Four")
        if ev.get("guilty") is not guilty:
            self.violate(f"challenge verdict guilty={ev.get('guilty')}, but the player's hand says guilty={guilty}")
        if self.is_random(victim):
            self.violate(f"random bot seat {victim} challenges (it never does)")
        self.challenges += 1
        self.P, self.chain_last, self.chain_w4 = 0, None, None
        until = self.until_color(color) if color is not None else None
        if guilty:
            steps = [DrawStep(w4p, "challenge", draw, until=until)]
            self.cur = victim if r["challenge_win_plays"] else self.nxt(victim)
        elif until:
            steps = [DrawStep(victim, "challenge", None, until=until, extra=r["challenge_extra"])]
            self.cur = self.nxt(victim)
        else:
            steps = [DrawStep(victim, "challenge", draw + r["challenge_extra"])]
            self.cur = self.nxt(victim)
        self.push_front(steps)

    # ---- turn flow --------------------------------------------------------------------
    def apply_lead(self, card):
        """3.1 by the texts S, R, D, W (10.8); a lead D draws its kind's draw. Two-sided decks
        (11.4, R24): D1 and D5 draw as D; E: the dealer takes the first turn; F: everything flips
        at once (`flip` with p -1) and the first player names a colour for a wild top."""
        r, n = self.r, self.n
        first = (self.dealer + 1) % n
        self.dir = 1
        f = self.face(card)
        self.color = f.color
        s = f.kind if f.color is not None else None
        if f.text == "W":
            self.push_front([ChooseStep(first)])
            self.cur = first
        elif s == "D" or (self.two_sided and s in ("D1", "D5")):
            self.push_front([DrawStep(first, "lead", f.draw, pending=True)])
            self.cur = self.nxt(first) if r["lead_draw_two_skips"] else first
        elif self.two_sided and s == "E":
            self.cur = self.dealer
        elif self.two_sided and s == "F":
            self.push_front([FlipStep(-1, first)])
            self.cur = first
        elif s == "R":
            self.dir = -1
            self.cur = {"dealer": self.dealer, "right": (self.dealer - 1) % n,
                        "left": (self.dealer + 1) % n}[r["lead_reverse"]]
        elif s == "S":
            self.cur = self.nxt(first)
        else:
            self.cur = first

    def flip(self):
        """11.2 step 3a: the side in play changes; the draw pile turns over as a whole (its order
        reverses); the discard pile per flip_discard: `whole` reverses it, `top` keeps the order."""
        self.side = 1 - self.side
        self.flips += 1
        self.pile.reverse()
        if self.r["flip_discard"] != "top":
            self.discard.reverse()

    def begin_turn(self):
        self.turns += 1
        self.turn_taken = True
        self.moved = False
        self.jumps_in_row = 0
        self.chain_w4 = None

    def accepted(self, step):
        self.P, self.chain_last = 0, None
        self.cur = self.nxt(step.p)

    def turn_drawn(self, step):
        self.cur = self.nxt(step.p)
        if step.got and self.in_round[step.p]:
            self.push_front([DrawnStep(step.p, step.got[-1])])

    def cap_reached(self) -> bool:
        return self.turns >= self.r["max_turns"] or self.jumps_in_row >= self.r["max_turns"]

    # ---- mercy rule (10.5, 10.8) ---------------------------------------------------------
    def free_place(self, best: bool) -> int:
        """last_standing: going out takes the best place still free, a knockout the worst."""
        free = [k for k in range(1, self.n + 1) if k not in self.places.values()]
        return free[0] if best else free[-1]

    def knockouts_due(self, actor):
        """After an event that added cards to hands: every player still in holding
        mercy_limit or more cards is knocked out, in the direction of play from `actor`.
        R19: the last player left is never knocked out (they have won), unless the round is
        decided already (a last-card penalty)."""
        k = self.r.get("mercy_limit") or 0
        if not k:
            return
        for i in range(self.n):
            q = (actor + i * self.dir) % self.n
            if self.n_in() <= 1 and not self.decided:
                break
            if self.in_round[q] and len(self.hands[q]) >= k:
                place = None
                if self.r["mode"] == "last_standing":
                    place = self.places[q] = self.free_place(best=False)
                self.ko_queue.append(KnockoutStep(q, len(self.hands[q]), place))
                self.aside.extend(self.hands[q])
                self.hands[q] = []
                self.in_round[q] = False
                self.knocked.append(q)

    def push_knockouts(self):
        steps, self.ko_queue = self.ko_queue, []
        if self.n_in() <= 1 and not any(isinstance(s, ExpectEnd) for s in self.agenda):
            # the last player left wins (first_out) / takes the last free place (last_standing)
            self.agenda.clear()
            left = next(i for i in range(self.n) if self.in_round[i])
            if self.r["mode"] == "last_standing":
                self.places[left] = self.free_place(best=True)
                left = min(self.places, key=self.places.get)
            steps.append(ExpectEnd("out", left))
        self.push_front(steps)

    def can_reshuffle(self) -> bool:
        """10.8: the discard pile but its top card plus the set-aside cards hold any card."""
        return len(self.discard) - 1 + len(self.aside) >= 1

    def next_step(self) -> Step:
        if self.turn_taken:  # R6
            self.idle = 0 if self.moved else self.idle + 1
            self.turn_taken = False
        if self.idle >= self.n_in():
            return ExpectEnd("stall")
        if self.cap_reached():
            return ExpectEnd("cap")
        if not self.in_round[self.cur]:  # a knocked-out player is passed over; a penalty
            self.cur = self.nxt(self.cur)  # they were to take ends with them (10.5)
            if self.knocked:
                self.P, self.chain_last, self.chain_w4 = 0, None, None
        return TurnStep(self.cur)

    def apply(self, ev: dict, evno: int):
        self.evno, self.ev = evno, ev
        if self.desynced:
            return
        if self.result is not None:
            self.violate("event after the round's end")
            return
        try:
            if not isinstance(ev, dict) or "ev" not in ev:
                raise Desync("malformed event")
            for _ in range(1000):
                if not self.agenda:
                    self.agenda.append(self.next_step())
                step = self.agenda.popleft()
                res = step.offer(self, ev)
                if res == KEEP:
                    self.agenda.appendleft(step)
                if self.ko_queue:  # the knockouts come before anything else (10.5, 10.8)
                    self.push_knockouts()
                if res in (DONE, KEEP):
                    break
            else:
                raise Desync("internal: event could not be placed")
        except Desync as e:
            self.violate(f"{e}; replay of this game stops here")
            self.desynced = True
            return
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            self.violate(f"malformed event ({type(e).__name__}: {e}); replay of this game stops here")
            self.desynced = True
            return
        self.check_conservation()

    # ---- end --------------------------------------------------------------------------
    def team(self, i):
        k = self.r.get("teams") or 0
        return i % k if k else i

    def record(self, reason, winner) -> dict:
        n, zp = self.n, self.r.get("zero_points", 0)
        mercy = self.r.get("mercy_points", SECTION10_DEFAULTS["mercy_points"])
        pts = [mercy if i in self.knocked else sum(self.face(c).points for c in h)  # the side in play (11.3)
               for i, h in enumerate(self.hands)]
        wp = 0
        if winner >= 0:
            if self.r["mode"] == "last_standing":
                places = dict(self.places)
                free = [k for k in range(1, n + 1) if k not in places.values()]
                for i in range(n):
                    if i not in places and free:
                        places[i] = free.pop(0)  # the player left takes the place still free
                wp = sum(n + 1 - 2 * places[i] for i in range(n) if self.team(i) == self.team(winner))
            else:
                wp = sum(pts[i] for i in range(n) if self.team(i) != self.team(winner))
        rec = {"game": self.report.game, "winner": winner, "reason": reason, "turns": self.turns,
               "plays": self.plays, "draws": self.draws, "reshuffles": self.reshuffles,
               "max_pending": self.max_pending, "challenges": self.challenges, "winner_points": wp}
        rec.update({f"points_{i}": pts[i] for i in range(n)})
        rec.update({f"cards_{i}": len(self.hands[i]) for i in range(n)})
        if self.section10:  # R17
            rec["knockouts"] = len(self.knocked)
        if self.two_sided:  # SPEC 11.5, R29
            rec["flips"], rec["side"] = self.flips, SIDES[self.side]
        return rec

    def finish(self, ev, reason, winner):
        rec = self.record(reason, winner)
        self.result = rec
        self.report.record = rec
        total = Counter(self.pile) + Counter(self.discard) + Counter(self.laid) + Counter(self.aside)
        for h in self.hands:
            total += Counter(h)
        if total != self.cards and not self._conservation_reported:
            self._conservation_reported = True
            self.violate("card conservation broken at the end (hands + pile + discard + laid down != deck)")
        for key, want in (("winner", winner), ("reason", reason), ("turns", rec["turns"])):
            if key not in ev:
                self.violate(f"end lacks '{key}'")
            elif ev[key] != want:
                self.violate(f"end {key} is {ev[key]!r}, the replay gives {want!r}")
        pts = [rec[f"points_{i}"] for i in range(self.n)]
        if ev.get("points") != pts:
            self.violate(f"end points {ev.get('points')!r}, the replay gives {pts}")
        for key in ("flips", "side"):  # R29: a two-sided game's end carries them; a one-sided one's says 0 / light
            want = rec[key] if self.two_sided else (0 if key == "flips" else "light")
            if key not in ev:
                if self.two_sided:
                    self.violate(f"the end of a two-sided game lacks '{key}'")
            elif ev[key] != want:
                self.violate(f"end {key} is {ev[key]!r}, the replay gives {want!r}")
        for key in EXTRA_END_FIELDS:
            if key not in ev:
                continue
            want = ([rec[f"cards_{i}"] for i in range(self.n)] if key == "cards"
                    else len(self.knocked) if key == "knockouts" else rec[key])
            if ev[key] != want:
                self.violate(f"end {key} is {ev[key]!r}, the replay gives {want!r}")


# --------------------------------------------------------------------------------------
CSV_INT_COLUMNS = ("game", "winner", "turns", "plays", "draws", "reshuffles", "max_pending",
                   "challenges", "winner_points")


def compare_csv(reports, rows) -> None:
    """Compare SPEC 6 CSV rows (dicts of strings) with the computed records, in place."""
    by_game = {r.game: r for r in reports}
    seen = set()
    for row in rows:
        try:
            g = int(row["game"])
        except (KeyError, ValueError):
            if reports:
                reports[0].violations.append(f"csv row without a valid game: {row}")
            continue
        seen.add(g)
        rep = by_game.get(g)
        if rep is None:
            continue
        if rep.record is None:
            rep.violations.append(f"game {g}: csv row present but the replay computed no record")
            continue
        for key, want in rep.record.items():
            got = row.get(key)
            if got is None:
                rep.violations.append(f"game {g}: csv lacks column {key}")
                continue
            got_v = got if key == "reason" else _int_or_str(got)
            if got_v != want:
                rep.violations.append(f"game {g}: csv {key} is {got!r}, the replay gives {want!r}")
    for rep in reports:
        if rep.game not in seen:
            rep.violations.append(f"game {rep.game}: no csv row")


def _int_or_str(s):
    try:
        return int(s)
    except ValueError:
        try:
            f = float(s)
            return int(f) if f == int(f) else f
        except ValueError:
            return s


def check_trace_lines(lines: Iterable[str], csv_rows=None) -> list:
    reports: list = []
    game = None
    orphan = GameReport(game=-1)
    lineno = 0

    def close(g):
        if g is not None and g.result is None and not g.desynced:
            g.violate("the game has no 'end' event")

    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as e:
            (game.report if game else orphan).violations.append(f"event {lineno}: not JSON ({e})")
            continue
        if isinstance(ev, dict) and ev.get("ev") == "deal":
            close(game)
            game = Game(ev, lineno)
            reports.append(game.report)
        elif game is None:
            orphan.violations.append(f"event {lineno}: event before any 'deal'")
        else:
            game.apply(ev, lineno)
    close(game)
    if orphan.violations:
        reports.insert(0, orphan)
    if csv_rows is not None:
        compare_csv([r for r in reports if r.game >= 0], list(csv_rows))
    return reports


def check_trace_file(path, csv_path=None) -> list:
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    rows = None
    if csv_path is not None:
        with open(csv_path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    return check_trace_lines(lines, rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Replay-check a uno-sim JSON Lines trace (SPEC 7).")
    ap.add_argument("trace", type=Path)
    ap.add_argument("--csv", type=Path, help="per-game CSV rows (SPEC 6) to compare")
    ap.add_argument("-q", "--quiet", action="store_true", help="print violations only")
    a = ap.parse_args(argv)
    reports = check_trace_file(a.trace, a.csv)
    bad = 0
    for rep in reports:
        for v in rep.violations:
            print(v)
        bad += len(rep.violations)
        if not a.quiet:
            status = "ok" if rep.ok else f"{len(rep.violations)} violation(s)"
            print(f"game {rep.game}: {status}", file=sys.stderr)
    if not a.quiet:
        print(f"{len(reports)} game(s), {bad} violation(s)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
