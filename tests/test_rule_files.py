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
