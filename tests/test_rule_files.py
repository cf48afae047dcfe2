"""Rule files of one's own: accepted wherever a preset is, `extends` by name or relative path,
and every problem reported as one line naming the file (exit 2)."""

import pandas as pd
import pytest

from uno_sim import cli
from uno_sim.game import presets as P
from uno_sim.game.rules import Rules, RulesError


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def house(tmp_path):
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "table.toml").write_text(
        'description = "our table"\nextends = "stacking"\n[rules]\nhand_size = 5\n', encoding="utf-8")
    path = tmp_path / "house.toml"
    path.write_text('description = "house"\nextends = "base/table.toml"\n[rules]\njump_in = true\n', encoding="utf-8")
    return path


def test_extends_a_preset_through_a_relative_file(house):
    rules = P.load(str(house))
    assert (rules.hand_size, rules.jump_in, rules.stack_draw_two, rules.stack_draw_four) == (5, True, True, True)
    assert rules == P.load("stacking").replace(hand_size=5, jump_in=True)
    assert P.find(str(house)).name == "house"


def test_every_command_takes_a_rule_file(capsys, tmp_path, house):
    code, out, _ = invoke(capsys, "show", house)
    assert code == 0 and "house: house" in out
    code, out, err = invoke(capsys, "run", house, "--games", 500, "--out", tmp_path / "r")
    assert code == 0, err
    summary = pd.read_csv(tmp_path / "r" / "summary.csv")
    assert set(summary["variant"]) == {"house"}
    code, _, err = invoke(capsys, "compare", "stacking", house, "--games", 500, "--out", tmp_path / "c")
    assert code == 0, err
    assert list(dict.fromkeys(pd.read_csv(tmp_path / "c" / "compare.csv")["variant"])) == ["stacking", "house"]
    code, _, err = invoke(capsys, "sweep", house, "--vary", "players=2,3", "--games", 300, "--out", tmp_path / "s")
    assert code == 0, err
    code, out, err = invoke(capsys, "trace", house, "--games", 1)
    assert code == 0 and '"hand_size":5' in out
    code, _, err = invoke(capsys, "match", house, "--matches", 20, "--out", tmp_path / "m")
    assert code == 0, err


BAD_FILES = [
    ("[rules\n", "not valid TOML"),
    ('extend = "stacking"\n', "unknown top-level key 'extend' (did you mean 'extends'?)"),
    ('jump_in = true\n', "unknown top-level key 'jump_in'"),
    ('rules = "abc"\n', "'rules' must be a table"),
    ('[rules]\njumpin = true\n', "unknown knob 'jumpin'"),
    ('[rules]\nhand_size = "many"\n', "hand_size"),
    ('[rules]\ndeflect = true\n', "deflect"),
    ('extends = "nope"\n', "unknown preset 'nope'"),
    ('extends = "missing.toml"\n', "rule file 'missing.toml' not found"),
    ('extends = "bad.toml"\n', "extends itself"),
    ('extends = 3\n', "'extends' must be a string"),
]


@pytest.mark.parametrize("text, needle", BAD_FILES, ids=[n for _, n in BAD_FILES])
def test_bad_rule_file_one_line_exit_2(capsys, tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = invoke(capsys, "run", path, "--out", tmp_path / "out")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert "bad.toml" in err
    assert not (tmp_path / "out").exists()


def test_not_utf8_and_missing_file(capsys, tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes('description = "caf\xe9"\n'.encode("latin-1"))
    code, _, err = invoke(capsys, "show", path)
    assert code == 2 and "not UTF-8" in err and "latin.toml" in err
    code, _, err = invoke(capsys, "show", tmp_path / "none.toml")
    assert code == 2 and "not found" in err


def test_rule_file_with_a_byte_order_mark(capsys, tmp_path):
    """A rule file saved with a UTF-8 byte order mark (Notepad) was "not valid TOML (Invalid
    statement ...)"; it reads as without one."""
    path = tmp_path / "bom.toml"
    path.write_bytes('description = "café"\nextends = "stacking"\n[rules]\nhand_size = 5\n'.encode("utf-8-sig"))
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert P.load(str(path)) == P.load("stacking").replace(hand_size=5)
    code, out, err = invoke(capsys, "show", path)
    assert code == 0, err
    assert "bom: café" in out


def test_presets_lists_every_preset_and_flags_a_broken_one(capsys, tmp_path, monkeypatch):
    for name in P.preset_names():
        (tmp_path / f"{name}.toml").write_bytes((P.PRESETS / f"{name}.toml").read_bytes())
    (tmp_path / "aaa-broken.toml").write_text("[rules\n", encoding="utf-8")
    (tmp_path / "zzz-badknob.toml").write_text('description = "x"\n[rules]\nfoo = 1\n', encoding="utf-8")
    monkeypatch.setattr(P, "PRESETS", tmp_path)
    code, out, _ = invoke(capsys, "presets")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(P.preset_names())
    assert lines[0].startswith("aaa-broken") and "broken" in lines[0]
    assert lines[-1].startswith("zzz-badknob") and "unknown knob 'foo'" in lines[-1]
    assert any(line.startswith("standard ") for line in lines)


def test_built_in_presets_are_package_data():
    names = P.preset_names()
    assert {"standard", "stacking", "house"} <= set(names)
    for name in names:
        assert isinstance(P.load(name), Rules)


def test_a_built_in_preset_cannot_extend_a_file(tmp_path, monkeypatch):
    (tmp_path / "odd.toml").write_text('extends = "other.toml"\n', encoding="utf-8")
    (tmp_path / "other.toml").write_text("[rules]\njump_in = true\n", encoding="utf-8")
    monkeypatch.setattr(P, "PRESETS", tmp_path)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError, match="a built-in preset can only extend built-in presets"):
        P.load("odd")


# ---------------------------------------------------------------- [deck]: a rule file's own deck

def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def kind(text, colored, copies, **fields):
    """A [[deck.kinds]] entry as TOML."""
    lines = ["[[deck.kinds]]", f'text = "{text}"', f"colored = {str(colored).lower()}", f"copies = {copies}"]
    for name, value in fields.items():
        lines.append(f"{name} = {value}")
    return "\n".join(lines) + "\n"


def test_a_deck_table_adds_kinds_after_the_base(tmp_path):
    path = write(tmp_path / "six.toml", 'extends = "standard"\n[deck]\n'
                 + kind("W6", False, 4, draw=6) + kind("E", True, 1, skip='"all"'))
    rules = P.load(str(path))
    assert rules.deck == "custom" and rules.as_dict()["deck"] == "custom"
    deck = rules.cards
    assert deck.texts == tuple("0123456789") + ("S", "R", "D", "W", "W4", "W6", "E")
    assert deck.size == 108 + 4 + 4
    assert (deck.kind("W6").draw, deck.kind("W6").colored, deck.kind("E").skip, deck.kind("E").cards) == (6, False, "all", 4)
    # the knobs are the parent's: nothing but the deck changed
    assert rules.replace(deck="classic") == P.load("standard")


def test_a_kind_with_a_base_text_replaces_it_in_its_place(tmp_path):
    path = write(tmp_path / "d3.toml", "[deck]\n" + kind("D", True, 1, draw=3, points=30))
    deck = P.load(str(path)).cards
    assert deck.texts == P.load("standard").cards.texts  # same kinds, same order
    d = deck.kind("D")
    assert (d.draw, d.copies, d.points, d.cards) == (3, 1, 30, 4)
    assert deck.size == 108 - 4
    assert deck.faces().texts[12] == "RD"  # still the 13th face of red


def test_remove_drops_base_kinds(tmp_path):
    path = write(tmp_path / "no4.toml", '[deck]\nbase = "modern"\nremove = ["W4", "WX"]\n')
    rules = P.load(str(path))
    assert rules.deck == "custom" and rules.cards.texts == tuple("0123456789") + ("S", "R", "D", "W", "WSH")
    assert rules.cards.size == 112 - 4 - 3


def test_a_deck_table_that_is_a_built_in_deck_is_named_after_it(tmp_path):
    path = write(tmp_path / "m.toml", '[deck]\nbase = "modern"\n')
    rules = P.load(str(path))
    assert rules.deck == "modern" and rules.custom_deck is None and rules == P.load("modern")
    path = write(tmp_path / "c.toml", '[deck]\nremove = ["WX"]\n')  # WX is no classic kind: nothing removed
    assert P.load(str(path)).deck == "classic"


def test_the_deck_follows_extends_and_the_knob_replaces_it(tmp_path):
    write(tmp_path / "parent.toml", '[rules]\nhand_size = 5\n[deck]\n' + kind("W6", False, 4, draw=6))
    child = write(tmp_path / "child.toml", 'extends = "parent.toml"\n[rules]\njump_in = true\n')
    rules = P.load(str(child))
    assert (rules.deck, rules.hand_size, rules.jump_in, "W6" in rules.cards) == ("custom", 5, True, True)
    modern = write(tmp_path / "modern-child.toml", 'extends = "parent.toml"\n[rules]\ndeck = "modern"\n')
    assert P.load(str(modern)).cards.name == "modern"
    # a [deck] table below a parent's deck knob replaces the built-in deck
    write(tmp_path / "nm.toml", '[rules]\ndeck = "no-mercy"\n')
    own = write(tmp_path / "own.toml", 'extends = "nm.toml"\n[deck]\nbase = "classic"\n' + kind("E", True, 1, skip=1))
    assert P.load(str(own)).cards.texts[-1] == "E" and P.load(str(own)).cards.size == 112
    # --set deck=... replaces a file's own deck with a built-in one; other --set keep it
    assert P.load(str(child), ["deck=no-mercy"]).cards.name == "no-mercy"
    kept = P.load(str(child), ["players=3"])
    assert (kept.players, kept.deck, kept.cards) == (3, "custom", rules.cards)


def test_a_deck_that_holds_more_cards_allows_larger_hands(tmp_path):
    with pytest.raises(RulesError, match="hand_size 30 is too large for 4 players with the classic deck of 108 cards"):
        P.load("standard", ["hand_size=30"])
    assert P.load("standard", ["hand_size=30", "deck=no-mercy"]).cards.size == 168  # 4 * 30 + 1 <= 168


W = 'text = "WQ"\ncolored = false\ncopies = 2\n'  # the start of a wild kind WQ
C = 'text = "Q"\ncolored = true\ncopies = 1\n'  # the start of a coloured kind Q
ALL_NUMBERS = '"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"'

BAD_DECKS = [
    # (file text after `[deck]`, words of the one error line)
    ('bse = "classic"\n', "unknown key 'bse' in [deck] (did you mean 'base'?)"),
    ('base = "custom"\n', "deck base must be one of classic, no-mercy, modern, flip (got 'custom')"),
    ('remove = "WX"\n', "deck remove must be a list of kind texts"),
    ('remove = ["Q9"]\n', "deck remove: the classic deck has no kind 'Q9'"),
    ('remove = ["S", "S"]\n', "deck remove: 'S' is listed twice"),
    ('remove = ["S"]\n' + kind("S", True, 1, skip=1), "deck kind 'S': both removed and given in kinds"),
    ("[[deck.kinds]]\n" + C + 'colour = "red"\n', "deck kind 'Q': unknown field 'colour'"),
    ('[[deck.kinds]]\ntext = "Q"\ncolored = true\n', "deck kind 'Q': 'copies' is required"),
    ("[[deck.kinds]]\n" + C.replace("copies = 1", "copies = 17"), "deck kind 'Q': copies must be a whole number from 0 to 16 (got 17)"),
    ("[[deck.kinds]]\n" + C + "draw = 2.0\n", "deck kind 'Q': draw must be a whole number from 0 to 50 (got 2.0)"),
    ("[[deck.kinds]]\n" + C + "draw = 51\n", "deck kind 'Q': draw must be a whole number from 0 to 50"),
    ("[[deck.kinds]]\n" + C + "skip = 2\n", "deck kind 'Q': skip must be 0, 1 or \"all\" (got 2)"),
    ("[[deck.kinds]]\n" + C + 'reverse = "yes"\n', "deck kind 'Q': reverse must be true or false"),
    ("[[deck.kinds]]\n" + C + "points = 1001\n", "deck kind 'Q': points must be a whole number from 0 to 1000"),
    ('[[deck.kinds]]\ntext = "q"\ncolored = true\ncopies = 1\n', "deck kind 'q': a coloured kind's text must be"),
    ('[[deck.kinds]]\ntext = "X6"\ncolored = false\ncopies = 1\n', "deck kind 'X6': a wild kind's text must be"),
    ('[[deck.kinds]]\ntext = "7"\ncolored = true\ncopies = 1\ndraw = 2\n', "deck kind '7': a number kind has no effects"),
    ("[[deck.kinds]]\n" + C + "number = 3\n", "deck kind 'Q': number = 3 needs the text '3'"),
    ("[[deck.kinds]]\n" + W + "draw = 2\nroulette = true\n", "deck kind 'WQ': draw and roulette cannot go together"),
    ("[[deck.kinds]]\n" + C + "draw = 2\nskip = 1\n", "deck kind 'Q': draw and skip cannot go together"),
    ("[[deck.kinds]]\n" + W + "roulette = true\nskip = 1\n", "deck kind 'WQ': roulette and skip cannot go together"),
    ("[[deck.kinds]]\n" + W + "restricted = true\n", "deck kind 'WQ': restricted needs draw"),
    ("[[deck.kinds]]\n" + C + "draw = 4\nrestricted = true\n", "deck kind 'Q': a coloured kind cannot be restricted"),
    ("[[deck.kinds]]\n" + C + "roulette = true\n", "deck kind 'Q': a coloured kind cannot have roulette"),
    ("[[deck.kinds]]\n" + W + "number = 5\n", "deck kind 'WQ': a wild kind cannot have a number"),
    ("[[deck.kinds]]\n" + W + "discard_color = true\n", "deck kind 'WQ': a wild kind cannot have discard_color"),
    ("[[deck.kinds]]\n" + C + "[[deck.kinds]]\n" + C, "deck kind 'Q': duplicate text"),
    (f'remove = [{ALL_NUMBERS}, "S", "R", "D", "W4"]\n',  # 4 wilds left for a 4 x 7 + 1 deal
     "hand_size 7 is too large for 4 players with the custom deck of 4 cards (players * hand_size + 1 = 29 must be <= 4)"),
    (f'remove = [{ALL_NUMBERS}]\n[rules]\nfirst_card = "number"\n',  # (a [rules] table after [deck])
     "first_card = number needs number cards, and the custom deck has none"),
    # no card that can lead (first_card = official: a number, S, R, D or W): every round was void
    (f'remove = [{ALL_NUMBERS}, "S", "R", "D", "W", "W4"]\n' + kind("E", True, 8, skip='"all"'),
     "the custom deck has no card that can be turned up as the lead card"),
    (f'remove = [{ALL_NUMBERS}, "S", "R", "D", "W"]\n' + kind("W4", False, 16, draw=4, restricted="true")
     + kind("WD6", False, 16, draw=6, restricted="true"),
     "the custom deck has no card that can be turned up as the lead"),
    (f'remove = [{ALL_NUMBERS}, "S", "R", "D", "W", "W4"]\n' + kind("WSH", False, 16, shuffle_hands="true")
     + kind("WSX", False, 16, shuffle_hands="true"), "the custom deck has no card that can be turned up as the lead"),
    ("".join(kind(f"Q{i}", True, 0) for i in range(8)), "the custom deck has 21 coloured kinds; at most 20 are allowed"),
    ("".join(kind(f"WQ{i}", False, 1) for i in range(7)), "the custom deck has 9 wild kinds; at most 8 are allowed"),
]


@pytest.mark.parametrize("text, words", BAD_DECKS, ids=[w[:40] for _, w in BAD_DECKS])
def test_a_bad_deck_is_one_line_naming_the_file_and_the_kind_exit_2(capsys, tmp_path, text, words):
    path = write(tmp_path / "bad.toml", "[deck]\n" + text)
    for command in (["show", path], ["run", path, "--games", 10, "--out", tmp_path / "out"]):
        code, out, err = invoke(capsys, *command)
        assert code == 2 and out == "", (out, err)
        assert err.count("\n") == 1 and err.startswith(f"error: rule file {str(path)!r}: "), err
        assert words in err, err
        assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_the_engine_holds_at_most_432_cards(capsys, tmp_path):
    fits = write(tmp_path / "fits.toml", "[deck]\n" + "".join(kind(f"Q{i}", True, 16) for i in range(5)))
    assert P.load(str(fits)).cards.size == 108 + 5 * 16 * 4 == 428
    big = write(tmp_path / "big.toml", "[deck]\n" + "".join(kind(f"Q{i}", True, 16) for i in range(6)))
    code, _, err = invoke(capsys, "show", big)
    assert code == 2 and err.count("\n") == 1 and "big.toml" in err
    assert "the custom deck has 492 cards; at most 432 are allowed" in err


def test_the_deck_knob_and_a_deck_table_together_are_refused(capsys, tmp_path):
    path = write(tmp_path / "both.toml", '[rules]\ndeck = "modern"\n[deck]\nbase = "classic"\n')
    code, _, err = invoke(capsys, "show", path)
    assert code == 2 and err.count("\n") == 1 and "both.toml" in err
    assert "give the deck either as the knob deck under [rules] or as a [deck] table, not both" in err
    code, _, err = invoke(capsys, "show", "standard", "--set", "deck=custom")
    assert code == 2 and "bad value 'custom' for knob 'deck': choose one of classic, no-mercy, modern" in err


def test_a_long_extends_chain_loads(capsys, tmp_path):
    """A chain of 3,000 rule files, each extending the one before, was a RecursionError; the
    chain is followed in a loop, so any length loads, the nearest file's knobs winning."""
    (tmp_path / "r0.toml").write_text('extends = "stacking"\n[rules]\nhand_size = 5\n', encoding="utf-8")
    for i in range(1, 3000):
        knob = "jump_in = true\n" if i == 1500 else f"max_turns = {1000 + i}\n"
        (tmp_path / f"r{i}.toml").write_text(f'extends = "r{i - 1}.toml"\n[rules]\n{knob}', encoding="utf-8")
    rules = P.load(str(tmp_path / "r2999.toml"))
    assert rules == P.load("stacking").replace(hand_size=5, jump_in=True, max_turns=3999)
    code, out, err = invoke(capsys, "show", tmp_path / "r2999.toml")
    assert code == 0, err


def test_an_extends_cycle_spelled_differently_is_named(capsys, tmp_path):
    """A file that extends itself by another spelling of its path ("../d/a.toml") is the
    same file: a cycle, named, not a chain that grows for ever."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.toml").write_text('extends = "b.toml"\n', encoding="utf-8")
    (tmp_path / "d" / "b.toml").write_text('extends = "../d/a.toml"\n', encoding="utf-8")
    code, _, err = invoke(capsys, "show", tmp_path / "d" / "a.toml")
    assert code == 2 and err.count("\n") == 1 and "extends itself" in err, err
    assert "a.toml" in err and "b.toml" in err
