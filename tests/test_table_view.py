"""What the table saw is kept by an observer (engine/table_view.py) apart from the rules: the
turn code names none of its blocks, and keeping the turns seen changes no game."""

import re
from pathlib import Path

import numpy as np
import pytest

from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.deck_shape import deck_family
from uno_sim.engine.batch import GAMES_KERNELS, run_key
from uno_sim.engine.threads import STOP
from uno_sim.game.bots import pack_bots, parse_bots
from uno_sim.game.presets import load

ENGINE = Path(__file__).resolve().parents[1] / "uno_sim" / "engine"
# the blocks the observer keeps, and the functions that keep them
OBSERVER_NAMES = ("O_LACKS", "O_SEEN", "O_VOIDS", "O_KEEP_TURNS", "note_play", "note_draw", "forget_plays",
                  "seen_count", "LACK_WILD", "LACK_SLOT0")


@pytest.mark.parametrize("module", ["play.py", "hand_effects.py", "rules_check.py", "sumsets.py", "sides.py", "match.py"])
def test_the_rules_name_none_of_what_the_table_saw(module):
    source = (ENGINE / module).read_text()
    named = sorted({name for name in OBSERVER_NAMES if re.search(rf"\b{name}\b", source)})
    assert named == [], f"{module} reads or writes what the table saw directly: {named}"


def _games(preset, bots, keep_turns, n=3000):
    rules = load(preset)
    codes, params = pack_bots(parse_bots(bots, rules.players))
    config = S.make_config(rules.pack(), codes, params, rules.cards)
    config[S.O_KEEP_TURNS] = keep_turns
    out = np.zeros((n, L.N_COLS), dtype=np.int64)
    GAMES_KERNELS[False, deck_family(rules.cards)](config, np.uint64(run_key(21)), np.int64(0), True, out, STOP)
    return out


@pytest.mark.parametrize("preset,bots", [
    ("standard", "pro,expert,random,greedy"),
    ("house", "pro,pro,bluffer,random"),
    ("seven-zero", "pro,expert,pro,random"),
    ("flip", "pro,expert,greedy,random"),
])
def test_keeping_the_turns_seen_changes_no_game(preset, bots):
    """The turns seen (O_SEEN) are kept only at a table with a search seat. Kept at a table
    without one, whose bots never read them, every game is the same: the observer writes
    nothing the rules or these bots read."""
    plain = _games(preset, bots, 0)
    kept = _games(preset, bots, 1)
    assert len(np.unique(plain[:, 2])) > 10  # real games of varying length
    assert np.array_equal(plain, kept)
