"""Two-sided decks on the command line: `uno-sim decks` lists and shows them side by side,
`show` shows a two-sided rule file's deck, and every command that plays refuses them (and
Wild Draw Colour cards) with one line, exit 2, nothing written: the engine does not play
them yet. Nothing here compiles the engine."""

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
    assert "deck: custom (two-sided, 112 cards; shown, not played by this version): dark side" in out
    *_, light, dark = sides(out)
    assert light["W4"][0] == "wild" and dark["D5"][0] == "P T O V"


def test_a_malformed_two_sided_rule_file_is_one_line_exit_2(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(FLIP_FILE.replace('"light:W2"', '"W2"'))
    code, out, err = invoke(capsys, "decks", path)
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "deck remove: 'W2' must name a side" in err


# ------------------------------------------------------------------ playing them is refused

DRAW_COLOUR_FILE = '''[deck]
base = "classic"
[[deck.kinds]]
text = "WDC"
colored = false
copies = 4
draw_color = true
restricted = true
'''
REFUSED = "can be shown (`uno-sim decks`) but not played by this version"


@pytest.mark.parametrize("args", [
    ["run", "{file}", "--games", 10, "--out", "{out}"],
    ["compare", "{file}", "standard", "--games", 10, "--out", "{out}"],
    ["sweep", "{file}", "--vary", "hand_size=5,7", "--games", 10, "--out", "{out}"],
    ["match", "{file}", "--matches", 2, "--out", "{out}"],
    ["tournament", "--presets", "{file}", "--bots", "random,greedy", "--deals", 30, "--out", "{out}"],
    ["trace", "{file}", "--out", "{out}.jsonl"],
    ["design", "{file}", "--vary", "hand_size=5,7", "--minimize", "mean_turns", "--out", "{out}"],
], ids=lambda a: a[0])
@pytest.mark.parametrize("text, words", [
    (FLIP_FILE, "the custom deck is two-sided (UNO Flip): two-sided decks " + REFUSED),
    (DRAW_COLOUR_FILE, "deck kind 'WDC': Wild Draw Colour cards (draw_color) " + REFUSED),
], ids=["two-sided", "draw-colour"])
def test_playing_a_deck_this_version_cannot_play_is_one_line_exit_2_nothing_written(capsys, tmp_path, args, text,
                                                                                    words):
    path = tmp_path / "rules" / "unplayed.toml"
    path.parent.mkdir()
    path.write_text(text)
    out_dir = tmp_path / "out"
    code, out, err = invoke(capsys, *(str(a).format(file=path, out=out_dir) for a in args))
    assert code == 2, err
    assert err.count("\n") == 1 and f"rule file '{path}': {words}" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules"]  # nothing written


def test_the_knob_deck_does_not_take_flip_and_says_why(capsys, tmp_path):
    code, out, err = invoke(capsys, "run", "standard", "--set", "deck=flip", "--games", 10, "--out", tmp_path / "o")
    assert code == 2 and not (tmp_path / "o").exists()
    assert err == ("error: bad value 'flip' for knob 'deck': flip is a two-sided deck, which can be shown "
                   "(`uno-sim decks flip`) but not played by this version; choose one of classic, no-mercy, modern\n")


def test_the_python_api_refuses_them_too(tmp_path):
    import uno_sim
    from uno_sim.game.decks import FLIP
    from uno_sim.game.rules import Rules

    with pytest.raises(uno_sim.BadInput, match=r"^the rule set: the flip deck is two-sided \(UNO Flip\): "):
        uno_sim.run(Rules().with_deck(FLIP), games=10)
    path = tmp_path / "f.toml"
    path.write_text(FLIP_FILE)
    with pytest.raises(uno_sim.BadInput, match=REFUSED.replace("(", r"\(").replace(")", r"\)")):
        uno_sim.load_rules(str(path))
