"""The kernels for decks of the classic shape (engine/access.py, "the classic shape"): the facts
they answer from constants are the face table's, a deck is of that shape exactly when those facts
are the classic deck's, and every game they play is the game the kernels reading the table play."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from uno_sim.engine import access as A
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.batch import GAMES_KERNELS, run_key
from uno_sim.engine.threads import STOP
from uno_sim.engine.unowned import keep_alive, unowned, unowned_classic
from uno_sim.game import decks
from uno_sim.game.bots import pack_bots, parse_bots
from uno_sim.game.decks import CLASSIC, FLIP, MODERN, NO_MERCY, Deck, Kind
from uno_sim.game.presets import load
from uno_sim.game.rules import Rules


@njit(cache=True, inline="always")
def _facts(g, f, role, c, s):
    return (A.n_faces(g), A.colored_kinds(g), A.colored_faces(g), A.wild_kinds(g), A.n_candidates(g),
            A.face_at(g, c, s), A.is_wild(g, f), A.hand_effect(g, f), A.flips(g, f), A.draws_color(g, f),
            A.discards_color(g, f), A.roulette(g, f), A.swaps_hands(g, f), A.shuffles_hands(g, f),
            A.restricted(g, f), A.role_face(g, role, c))


@njit(cache=True)
def _facts_read(owner, f, role, c, s):
    out = _facts(unowned(owner), f, role, c, s)
    keep_alive(owner)
    return out


@njit(cache=True)
def _facts_folded(owner, f, role, c, s):
    out = _facts(unowned_classic(owner), f, role, c, s)
    keep_alive(owner)
    return out


def test_the_folded_facts_are_the_classic_face_tables():
    """Every fact the classic kernels answer from constants, for every face (NO_FACE too) and
    every role and colour, equals what the kernels reading the face table get."""
    rules = Rules(zero_points=3)
    codes, params = pack_bots(parse_bots(None, rules.players))
    g = S.make_config(rules.pack(), codes, params, CLASSIC)
    owner = np.zeros(S.N_GAME, dtype=np.int64)
    owner[: S.N_CONFIG] = g
    checked = 0
    for f in range(S.FACE_COLUMN_WIDTH):
        for role in range(S.N_ROLES):
            for c in range(decks.N_COLORS):
                s = f % A.CLASSIC_COLORED_KINDS
                assert _facts_folded(owner, f, role, c, s) == _facts_read(owner, f, role, c, s), (f, role, c)
                checked += 1
    assert checked == S.FACE_COLUMN_WIDTH * S.N_ROLES * decks.N_COLORS
    assert _facts_read(owner, 53, 0, 0, 0)[14] and not _facts_read(owner, 52, 0, 0, 0)[14]  # the W4 is the restricted face


def _kinds_but(text, **changes):
    return tuple(Kind(**{**k.__dict__, **changes}) if k.text == text else k for k in CLASSIC.kinds)


@pytest.mark.parametrize("deck,family", [
    (CLASSIC, "classic"),
    (Deck(_kinds_but("S", copies=5)), "classic"),  # copies and points are read, not folded
    (Deck(_kinds_but("D", draw=3)), "classic"),  # so is how many a draw card draws
    (Deck(_kinds_but("W4", points=40)), "classic"),
    (NO_MERCY, "one-sided"),
    (MODERN, "one-sided"),
    (Deck(_kinds_but("W4", restricted=False)), "one-sided"),  # the restricted face is folded
    (Deck(_kinds_but("R", discard_color=True)), "one-sided"),  # a rarer effect
    (Deck(CLASSIC.kinds + (Kind("X", True, 1),)), "one-sided"),  # another coloured kind
    (Deck(tuple(k for k in CLASSIC.kinds if k.text != "W4")), "one-sided"),
    (FLIP, "two-sided"),
])
def test_a_deck_is_of_the_classic_shape_when_the_folded_facts_are_the_classic_decks(deck, family):
    assert A.deck_family(deck) == family


def _records(preset, bots, family, n=3000, deck=None):
    rules = load(preset)
    if deck is not None:
        rules = rules.with_deck(deck)
    codes, params = pack_bots(parse_bots(bots, rules.players))
    config = S.make_config(rules.pack(), codes, params, rules.cards)
    out = np.zeros((n, L.N_COLS), dtype=np.int64)
    GAMES_KERNELS[False, family](config, np.uint64(run_key(5)), np.int64(0), True, out, STOP)
    return out


@pytest.mark.parametrize("preset,bots,deck", [
    ("standard", "random,random,random,random", None),
    ("house", "pro,expert,bluffer,random", None),
    ("seven-zero", "pro,greedy,expert,random", None),
    ("jump-in", "expert,random,greedy,pro", None),
    ("standard", "expert,pro,random,bluffer", Deck(_kinds_but("D", draw=3, copies=3))),
])
def test_the_classic_kernels_play_the_games_the_table_reading_kernels_play(preset, bots, deck):
    rules = load(preset) if deck is None else load(preset).with_deck(deck)
    assert A.deck_family(rules.cards) == "classic"
    classic = _records(preset, bots, "classic", deck=deck)
    read = _records(preset, bots, "one-sided", deck=deck)
    assert len(np.unique(read[:, L.COL_TURNS])) > 10  # real games of varying length
    assert np.array_equal(classic, read)
