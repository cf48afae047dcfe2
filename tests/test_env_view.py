"""uno_sim.env.View: a question by card texts and colour letters, and the example agent that
reads its cards through it (no face indices, no engine module)."""

from __future__ import annotations

import ast
import contextlib
import io
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import uno_sim.env as env
from uno_sim.game.decks import COLORS, NO_MERCY
from uno_sim.game.errors import BadInput

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "python_agent.py"


def _questions(table: env.Table, games: int = 20, limit: int = 400):
    """(table, view) at questions of a few games, each step a random legal action."""
    rng = np.random.default_rng(0)
    seen = 0
    for game in range(games):
        table.reset(game)
        while not table.done and seen < limit:
            yield table.view()
            seen += 1
            table.step(int(rng.choice(np.flatnonzero(table.mask))))


@pytest.mark.parametrize("rules, texts", [("standard", None), ("no-mercy", NO_MERCY.faces().texts)])
def test_a_view_names_what_the_observation_holds(rules, texts):
    table = env.Table(rules, players=3)
    faces = texts or table.rules.cards.faces().texts
    for view in _questions(table):
        named = env.describe(view.observation)
        assert sorted(view.hand) == sorted(faces[f] for f, k in named["hand"].items() for _ in range(k))
        assert view.top == faces[named["top"]] and view.color == COLORS[named["color"]]
        assert view.question == named["question"] and view.pending == named["pending"]
        legal = np.flatnonzero(table.mask).tolist()
        assert view.legal_actions == legal and [view.action(name) for name in view.legal] == legal
        for name, a in zip(view.legal, legal):
            if a < env.A_COLOR:
                assert name == faces[a] and view.is_card(name)
            elif a < env.A_SEAT:
                assert name == "RYGB"[a - env.A_COLOR] and not view.is_card(name)
            else:
                assert name in ("no", "yes") or name.startswith("seat+")
        for card in view.hand:
            assert view.color_of(card) in (None, card[0]) and view.points(card) >= 0


def test_a_policy_reads_a_list_of_legal_actions_as_the_command_line_gives_it():
    table = env.Table("standard", players=4)
    table.reset(0)
    legal = np.flatnonzero(table.mask).tolist()
    view = env.View(table.observation, legal)
    assert view.legal == table.view().legal and view.legal_actions == legal
    with pytest.raises(BadInput, match="not a legal action"):
        view.action("B9" if "B9" not in view.legal else "R0" if "R0" not in view.legal else "seat+9")


def test_a_view_told_other_rules_says_so():
    table = env.Table("no-mercy", players=4)
    table.reset(0)
    with pytest.raises(BadInput, match="give View the rule set the game plays"):
        env.View(table.observation, table.mask)  # standard's knobs: not no-mercy's
    with pytest.raises(BadInput, match="no card 'W4' in the no-mercy deck"):
        table.view().points("W4")


def test_the_example_agent_imports_no_engine_module():
    """examples/python_agent.py reads cards through View: no uno_sim.engine module, not
    uno_sim.game.cards (the old example imported engine.layout and game.cards)."""
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    modules = [a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names]
    modules += [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert "uno_sim.env" in modules
    bad = [m for m in modules if m.startswith("uno_sim.engine") or m.startswith("uno_sim.game")]
    assert not bad, bad


def test_the_example_agent_runs_and_beats_random():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("dump points  wins ") and lines[1].startswith("random       wins ")
    assert lines[2].startswith("difference ")


def test_the_example_policy_plays_from_the_command_line(tmp_path):
    """The example's `policy` (View over the list of legal actions) seated by --bots python:."""
    from uno_sim import cli

    code = cli.run_cli(["run", "standard", "--games", "200", "--bots",
                        f"python:{EXAMPLE}:policy,random,random,random", "--out", str(tmp_path / "out"), "--json"])
    assert code == 0


def test_the_first_table_says_once_that_the_engine_starts():
    """The first Table of a process loads the stepping engine (seconds; minutes to compile):
    one line before on standard error, one after, and nothing for the next table."""
    code = "import uno_sim.env as e; e.Table('standard'); e.Table('house')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("uno_sim.env: starting the engine"), lines
    assert lines[1].startswith("uno_sim.env: engine ready in ") and lines[1].endswith(" s")
    assert done.stdout == ""
