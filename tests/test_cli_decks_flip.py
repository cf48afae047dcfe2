"""Two-sided decks on the command line: `uno-sim decks` lists and shows them side by side, and
`show` shows a two-sided rule file's deck. Nothing here compiles the engine (the commands that
play them: tests/test_flip_play.py)."""

from __future__ import annotations

import re

import pytest

from uno_sim import cli

FLIP_FILE = '''description = "UNO Flip, a Wild Draw Four on the light side"
[rules]
hand_size = 7
[deck]
base = "flip"
remove = ["light:W2"]
[[deck.light]]
text = "W4"
colored = false
copies = 4
draw = 4
restricted = true
'''


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def sides(out: str) -> list[dict[str, list[str]]]:
    """The rows of each drawn table (a side), by their first cell: kind -> the other cells."""
    found: list[dict[str, list[str]]] = []
    for line in out.splitlines():
        if line.startswith("┏"):
            found.append({})
        cells = [c.strip() for c in re.split(r"[│|]", line) if c.strip()]
        if len(cells) >= 5 and found:
            found[-1][cells[0]] = cells[1:]
    return found


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def test_decks_lists_flip_as_two_sided(capsys):
    code, out, _ = invoke(capsys, "decks")
    assert code == 0
    assert "flip: two-sided, 112 cards: light side" in out and "flip: two-sided, 112 cards: dark side" in out
    assert out.index("modern: 112 cards") < out.index("flip: two-sided")


def test_decks_flip_shows_both_sides(capsys):
    code, out, _ = invoke(capsys, "decks", "flip")
    assert code == 0
    light, dark = sides(out)
    assert list(light) == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "D1", "R", "S", "F", "W", "W2"]
    assert list(dark) == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "D5", "R", "E", "F", "W", "WDC"]
    assert light["D1"] == ["R Y G B", "2 each", "8", "draw 1", "10"]
    assert light["F"] == ["R Y G B", "2 each", "8", "flip (everything turns over)", "20"]
    assert light["W2"][:3] == ["wild", "4", "4"] and light["W2"][-1] == "50"
    assert dark["E"] == ["P T O V", "2 each", "8", "skip everyone (the player goes again)", "30"]
    assert dark["WDC"][-2:] == ["wild, only as the Wild Draw Four rule allows (challengeable), "
                                "draw until the named colour", "60"]
    assert dark["W"] == ["wild", "4", "4", "wild", "40"]
    assert out.count("15 kinds, 112 cards") == 2


def test_decks_and_show_of_a_two_sided_rule_file(capsys, tmp_path):
    path = tmp_path / "flipw4.toml"
    path.write_text(FLIP_FILE)
    code, out, err = invoke(capsys, "decks", path)
    assert code == 0, err
    assert "flipw4: the custom two-sided deck, 112 cards: light side" in out
    light, dark = sides(out)
    assert "W2" not in light and light["W4"][3].startswith("wild, draw 4") and "WDC" in dark
    code, out, err = invoke(capsys, "show", path)
    assert code == 0, err
    assert "deck: custom (two-sided, 112 cards): dark side" in out
    *_, light, dark = sides(out)
    assert light["W4"][0] == "wild" and dark["D5"][0] == "P T O V"


def test_a_malformed_two_sided_rule_file_is_one_line_exit_2(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(FLIP_FILE.replace('"light:W2"', '"W2"'))
    code, out, err = invoke(capsys, "decks", path)
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "deck remove: 'W2' must name a side" in err

