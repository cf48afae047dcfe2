"""The deck as data in the engine (engine/state.py deck_block, engine/access.py): the classic
deck's tables in the game array are exactly the card arithmetic they replace, other decks fit
the blocks, and the engine reads the card model only through the tables.

The arithmetic below (colour * 13 + symbol, 52 Wild, 53 Wild Draw Four) is written out here on
purpose: it is what the engine computed before the deck became data, and the tests pin that
the tables give the same answers face by face (runs stay reproducible across versions)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from uno_sim.engine import access as A
from uno_sim.engine import state as S
from uno_sim.engine.layout import N_BOT_PARAMS
from uno_sim.engine.unowned import keep_alive, unowned
from uno_sim.game import decks
from uno_sim.game.decks import CLASSIC, MODERN, NO_MERCY, Deck, DeckError, Kind
from uno_sim.game.rules import Rules

ENGINE = Path(__file__).resolve().parent.parent / "uno_sim" / "engine"

# ------------------------------------------------------------------ the old arithmetic
WILD, WILD_DRAW_FOUR, N_FACES, SKIP, REVERSE, DRAW_TWO = 52, 53, 54, 10, 11, 12


def old_points(f: int, zero_points: int) -> int:
    if f >= WILD:
        return 50
    s = f % 13
    if s >= SKIP:
        return 20
    return zero_points if s == 0 else s


def old_copies(f: int) -> int:
    if f >= WILD:
        return 4
    return 1 if f % 13 == 0 else 2


def config(rules: Rules = Rules(), deck: Deck = CLASSIC) -> np.ndarray:
    players = rules.players
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[: S.N_CONFIG] = S.make_config(rules.pack(), np.zeros(players, dtype=np.int64),
                                     np.zeros((players, N_BOT_PARAMS), dtype=np.int64), deck)
    return g


def column(g: np.ndarray, name: str) -> np.ndarray:
    return g[S.O_FACE[name] : S.O_FACE[name] + S.HAND_WIDTH]


@pytest.mark.parametrize("zero_points", [0, 7])
def test_the_classic_face_columns_are_the_arithmetic_they_replace(zero_points):
    g = config(Rules(zero_points=zero_points))
    for f in range(N_FACES):
        coloured = f < WILD
        s = f % 13 if coloured else -1
        assert column(g, "color")[f] == (f // 13 if coloured else -1)
        assert column(g, "slot")[f] == s
        assert column(g, "number")[f] == (s if coloured and s < 10 else -1)
        assert column(g, "draw")[f] == (2 if s == DRAW_TWO else (4 if f == WILD_DRAW_FOUR else 0))
        assert column(g, "skip")[f] == (1 if s == SKIP else 0)
        assert column(g, "reverse")[f] == (1 if s == REVERSE else 0)
        assert column(g, "restricted")[f] == (1 if f == WILD_DRAW_FOUR else 0)
        assert column(g, "points")[f] == old_points(f, zero_points)
        assert column(g, "copies")[f] == old_copies(f)
        assert column(g, "lead")[f] == (0 if f == WILD_DRAW_FOUR else 1)
        role = {SKIP: decks.ROLE_SKIP, REVERSE: decks.ROLE_REVERSE, DRAW_TWO: decks.ROLE_DRAW_TWO}.get(s, decks.ROLE_NONE)
        role = {WILD: decks.ROLE_WILD, WILD_DRAW_FOUR: decks.ROLE_WILD_DRAW_FOUR}.get(f, role)
        assert column(g, "role")[f] == role
        flags = ((S.F_NUMBER if coloured and s < 10 else 0) | (0 if coloured else S.F_WILD)
                 | (S.F_SKIPS if s == SKIP else 0) | (S.F_REVERSES if s == REVERSE else 0)
                 | (S.F_DRAWS if s == DRAW_TWO or f == WILD_DRAW_FOUR else 0)
                 | (S.F_RESTRICTED if f == WILD_DRAW_FOUR else 0))
        assert column(g, "flags")[f] == flags
    for name in ("discard_color", "roulette", "swap_hands", "shuffle_hands"):
        assert not column(g, name).any()
    # NO_FACE and the unused faces: no colour, no number, nothing else
    for name in S.FACE_COLUMNS:
        assert (column(g, name)[N_FACES:] == (-1 if name in ("color", "slot", "number") else 0)).all(), name


def test_the_classic_counts_and_look_ups_are_the_arithmetic_they_replace():
    g = config()
    assert [g[o] for o in (S.O_DECK, S.O_N_FACES, S.O_N_COLORED, S.O_N_COLORED_FACES, S.O_N_WILD,
                           S.O_N_CANDIDATES, S.O_ZERO_CARDS)] == [108, 54, 13, 52, 2, 18, 4]
    roles = {decks.ROLE_SKIP: [c * 13 + SKIP for c in range(4)], decks.ROLE_REVERSE: [c * 13 + REVERSE for c in range(4)],
             decks.ROLE_DRAW_TWO: [c * 13 + DRAW_TWO for c in range(4)], decks.ROLE_WILD: [WILD] * 4,
             decks.ROLE_WILD_DRAW_FOUR: [WILD_DRAW_FOUR] * 4, decks.ROLE_NONE: [S.NO_FACE] * 4}
    for role, faces in roles.items():
        assert list(g[S.O_ROLE_FACE + role * 4 : S.O_ROLE_FACE + role * 4 + 4]) == faces
    assert list(g[S.O_NUMBER_FACE : S.O_NUMBER_FACE + 40]) == [c * 13 + v for c in range(4) for v in range(10)]
    # the sum sets' copy bounds (sumsets.py had them as constants)
    assert list(g[S.O_MOST_COPIES : S.O_MOST_COPIES + 10]) == [0, 8, 4, 3, 2, 1, 1, 1, 1, 1]
    assert list(g[S.O_SAME_COPIES : S.O_SAME_COPIES + 10]) == [0, 2, 2, 2, 2, 1, 1, 1, 1, 1]
    new_deck = [f for f in range(N_FACES) for _ in range(old_copies(f))]
    assert list(g[S.O_CARDS : S.O_CARDS + 108]) == new_deck


@njit(cache=True)
def _reads(owner, f):
    g = unowned(owner)
    out = (A.color_of(g, f), A.slot_of(g, f), A.number_of(g, f), A.is_number(g, f), A.is_wild(g, f),
           A.draw_of(g, f), A.skip_of(g, f), A.reverses(g, f), A.restricted(g, f), A.points_of(g, f),
           A.copies_of(g, f), A.role_of(g, f), A.lead_ok(g, f))
    keep_alive(owner)
    return out


@njit(cache=True)
def _faces(owner, c, s, v):
    g = unowned(owner)
    out = (A.face_at(g, c, s), A.number_face(g, c, v), A.n_faces(g), A.colored_kinds(g), A.colored_faces(g),
           A.wild_kinds(g), A.n_candidates(g), A.deck_size(g), A.zero_cards(g))
    keep_alive(owner)
    return out


def test_the_compiled_accessors_read_the_classic_arithmetic():
    g = config(Rules(zero_points=3))
    for f in range(N_FACES):
        coloured = f < WILD
        s = f % 13 if coloured else -1
        number = s if coloured and s < 10 else -1
        draw = 2 if s == DRAW_TWO else (4 if f == WILD_DRAW_FOUR else 0)
        got = _reads(g, f)
        assert got[:9] == (f // 13 if coloured else -1, s, number, number >= 0, not coloured, draw,
                           1 if s == SKIP else 0, s == REVERSE, f == WILD_DRAW_FOUR)
        assert got[9:11] == (old_points(f, 3), old_copies(f))
        assert got[12] == (f != WILD_DRAW_FOUR)
    for c in range(4):
        for s in range(13):
            assert _faces(g, c, s, s % 10) == (c * 13 + s, c * 13 + s % 10, 54, 13, 52, 2, 18, 108, 4)


def test_the_built_in_decks_fit_and_their_blocks_follow_the_face_table():
    for deck in (NO_MERCY, MODERN):
        g = config(deck=deck)
        table = deck.faces()
        n, nck = table.n_faces, table.n_colored_kinds
        nwild = n - 4 * nck
        assert [g[o] for o in (S.O_DECK, S.O_N_FACES, S.O_N_COLORED, S.O_N_COLORED_FACES, S.O_N_WILD,
                               S.O_N_CANDIDATES)] == [deck.size, n, nck, 4 * nck, nwild, nck + 3 + nwild]
        for name in decks.FaceTable.COLUMNS:
            if name != "kind":
                assert list(column(g, name)[:n]) == list(getattr(table, name)), name
        assert list(g[S.O_CARDS : S.O_CARDS + deck.size]) == list(table.cards())
        for c in range(4):
            for v in range(10):
                face = g[S.O_NUMBER_FACE + c * 10 + v]
                if face != S.NO_FACE:
                    assert table.color[face] == c and table.number[face] == v
    assert config(deck=NO_MERCY)[S.O_N_CANDIDATES] == 16 + 3 + 4


def test_a_deck_beyond_the_engines_limits_is_refused_naming_the_limit():
    many = Deck(tuple(Kind(f"K{i}", True, 1) for i in range(decks.MAX_COLORED_KINDS + 1)))
    with pytest.raises(DeckError, match="coloured kinds"):
        S.make_config(Rules().pack(), np.zeros(4, dtype=np.int64), np.zeros((4, N_BOT_PARAMS)), many)
    wilds = Deck(CLASSIC.kinds + tuple(Kind(f"WX{i}", False, 1) for i in range(decks.MAX_WILD_KINDS - 1)))
    with pytest.raises(DeckError, match="wild kinds"):
        decks.check_engine_limits(wilds)
    big = Deck(tuple(Kind(str(d), True, 11) for d in range(10)))
    with pytest.raises(DeckError, match="cards"):
        decks.check_engine_limits(big)
    assert decks.MAX_CANDIDATES <= 32  # the candidate mask (rules_check.lowest_bit)


# ------------------------------------------------------------------ the engine reads only the tables

CLASSIC_NUMBERS = {13, 52, 53, 54, 108}  # faces per colour, Wild, Wild Draw Four, faces, cards


def _engine_sources():
    return sorted(ENGINE.rglob("*.py"))


def test_the_engine_computes_no_face_by_classic_arithmetic():
    """No `f % 13`, `f // 13`, `c * 13 + s` (nor the faces 52, 53, the 54 faces or the 108
    cards) in the engine: it reads the deck's tables (engine/access.py)."""
    found = []
    for path in _engine_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.BinOp) and any(isinstance(x, ast.Constant) and x.value == 13
                                                   for x in (node.left, node.right)):
                found.append(f"{path.name}:{node.lineno} arithmetic with 13")
            elif (isinstance(node, ast.Constant) and type(node.value) is int and node.value in CLASSIC_NUMBERS
                  and node.value != 13):
                found.append(f"{path.name}:{node.lineno} the constant {node.value}")
    assert found == []


def test_the_engine_takes_the_card_model_from_the_deck_tables_only():
    """The engine imports none of game/cards.py's classic constants (WILD, SKIP, N_FACES, ...):
    every card question goes through the tables in g."""
    for path in _engine_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").endswith("cards"), f"{path.name} imports {node.module}"
                assert "cards" not in [a.name for a in node.names], f"{path.name} imports cards"
