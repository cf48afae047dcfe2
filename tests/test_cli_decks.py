"""Decks on the command line: `uno-sim decks`, `show` printing a deck that is not classic, and
every path that plays (run, compare, sweep, match, tournament, trace, cluster work,
checkpoints) playing the rule set's deck, the same seed giving the same numbers."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pandas as pd
import pytest

import uno_sim
from uno_sim import api, cli
from uno_sim.game import presets as P
from uno_sim.game.decks import CLASSIC, MODERN, NO_MERCY

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "diy-wild-draw-six.toml"


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def rows(out: str) -> dict[str, list[str]]:
    """The rows of a drawn table by their first cell: kind -> the other cells."""
    found = {}
    for line in out.splitlines():
        cells = [c.strip() for c in re.split(r"[│|]", line) if c.strip()]
        if len(cells) >= 5:
            found[cells[0]] = cells[1:]
    return found


# ---------------------------------------------------------------- uno-sim decks


def test_decks_lists_the_built_in_decks_with_kinds_and_total_cards(capsys):
    code, out, err = invoke(capsys, "decks")
    assert code == 0 and err == ""
    for title in ("classic: 108 cards", "no-mercy: 168 cards", "modern: 112 cards"):
        assert title in out
    assert "15 kinds, 108 cards" in out and "20 kinds, 168 cards" in out and "17 kinds, 112 cards" in out
    code, out, _ = invoke(capsys, "decks", "no-mercy")
    assert code == 0 and "classic: 108" not in out
    table = rows(out)
    assert table["WC"] == ["wild", "8", "8", "wild, colour roulette", "50"]
    assert table["E"] == ["R Y G B", "2 each", "8", "skip everyone (the player goes again)", "20"]
    assert table["A"][3] == "discard all of its colour" and table["D4"][3] == "draw 4"
    assert table["WR4"][3] == "wild, reverse, draw 4"
    assert table["0"] == ["R Y G B", "2 each", "8", "number 0", "0 (zero_points)"]
    assert set(table) - {"kind"} == set(NO_MERCY.texts)


def test_decks_of_an_unknown_name_is_one_line_exit_2(capsys):
    code, out, err = invoke(capsys, "decks", "mercy")
    assert code == 2 and out == ""
    assert err.startswith("error: unknown deck or preset 'mercy' (built-in decks: classic, no-mercy, modern, flip; presets: ")
    assert err.count("\n") == 1 and "give a path to a .toml rule file" in err


def test_decks_of_a_rule_file_lists_its_own_deck(capsys):
    """`uno-sim decks FILE.toml` shows the file's deck as `show` does (it was refused)."""
    code, out, err = invoke(capsys, "decks", EXAMPLE)
    assert code == 0, err
    assert "diy-wild-draw-six: the custom deck, 116 cards" in out and "17 kinds, 116 cards" in out
    table = rows(out)
    assert table["W6"] == ["wild", "4", "4", "wild, draw 6", "50"]
    assert table["E"] == ["R Y G B", "1 each", "4", "skip everyone (the player goes again)", "20"]
    code, out, err = invoke(capsys, "decks", "no-mercy-missing.toml")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no-mercy-missing.toml" in err


def test_decks_of_a_preset_lists_the_deck_it_plays(capsys):
    code, out, err = invoke(capsys, "decks", "stacking")
    assert code == 0, err
    assert "stacking: the classic deck, 108 cards" in out and set(rows(out)) - {"kind"} == set(CLASSIC.texts)


# ---------------------------------------------------------------- uno-sim show


def test_show_prints_a_rule_files_deck(capsys):
    code, out, err = invoke(capsys, "show", EXAMPLE)
    assert code == 0, err
    assert "deck: custom (116 cards)" in out and "17 kinds, 116 cards" in out
    table = rows(out)
    assert table["W6"] == ["wild", "4", "4", "wild, draw 6", "50"]
    assert table["E"] == ["R Y G B", "1 each", "4", "skip everyone (the player goes again)", "20"]
    assert table["W4"][3] == "wild, draw 4, only as the Wild Draw Four rule allows (challengeable)"
    assert re.search(r"deck\s*│\s*custom\s*│\s*classic\s*│\s*\*", out)  # the knob row: custom, default classic


def test_show_prints_a_built_in_deck_chosen_with_set_and_no_deck_for_classic(capsys):
    code, out, _ = invoke(capsys, "show", "standard", "--set", "deck=modern", "--set", "zero_points=10")
    assert code == 0 and "deck: modern (112 cards)" in out
    table = rows(out)
    assert table["WSH"] == ["wild", "1", "1", "wild, shuffle hands", "50"]
    assert table["WX"] == ["wild", "3", "3", "wild", "50"]
    assert table["0"][-1] == "10 (zero_points)"  # points under the rule set's zero_points
    code, out, _ = invoke(capsys, "show", "modern")
    assert code == 0 and "deck: modern (112 cards)" in out
    code, out, _ = invoke(capsys, "show", "standard")
    assert code == 0 and "deck:" not in out and "kinds," not in out


def test_the_modern_preset_is_the_official_rules_with_the_modern_deck():
    rules = P.load("modern")
    assert rules.cards == MODERN and rules.deck == "modern"
    assert rules.replace(deck="classic") == P.load("standard")


def test_the_worked_example_parses():
    rules = P.load(str(EXAMPLE))
    assert rules.deck == "custom" and rules.cards.texts[-2:] == ("W6", "E") and rules.cards.size == 116
    assert rules.cards.kinds[:-2] == CLASSIC.kinds


# ---------------------------------------------------------------- playing the deck


def deal_cards(event: dict) -> list[str]:
    return [c for hand in event["hands"] for c in hand] + event["pile"]


def test_trace_deals_from_the_rule_sets_deck(capsys, tmp_path):
    for spec, extra, size, texts in [("standard", [], 108, {"W4"}),
                                     ("standard", ["--set", "deck=modern"], 112, {"WSH", "WX"}),
                                     (EXAMPLE, [], 116, {"W6", "RE", "BE"})]:
        out_file = tmp_path / f"t{size}.jsonl"
        code, _, err = invoke(capsys, "trace", spec, "--games", 3, "--seed", 4, *extra, "--out", out_file)
        assert code == 0, err
        events = [json.loads(line) for line in out_file.read_text().splitlines()]
        deals = [e for e in events if e["ev"] == "deal"]
        assert len(deals) == 3
        for deal in deals:
            cards = deal_cards(deal)
            assert len(cards) == size and texts <= set(cards), spec
        assert deals[0]["rules"]["deck"] == {108: "classic", 112: "modern", 116: "custom"}[size]


def test_a_deck_changes_the_games_and_the_same_seed_repeats_them():
    classic = uno_sim.run("standard", games=3000, seed=5, workers=1)
    modern = uno_sim.run("standard", games=3000, seed=5, workers=1, overrides={"deck": "modern"})
    assert modern.rules.cards == MODERN
    diff = modern.summary.set_index("metric")["value"] - classic.summary.set_index("metric")["value"]
    assert diff.abs().max() > 0
    one = uno_sim.run(str(EXAMPLE), games=3000, seed=5, workers=1)
    two = uno_sim.run(str(EXAMPLE), games=3000, seed=5, workers=2)
    pd.testing.assert_frame_equal(one.summary, two.summary)
    assert not one.summary["value"].equals(classic.summary["value"])


def test_sweep_varies_the_deck(capsys, tmp_path):
    code, _, err = invoke(capsys, "sweep", "standard", "--vary", "deck=classic,modern", "--games", 2000,
                          "--out", tmp_path / "s")
    assert code == 0, err
    sweep = pd.read_csv(tmp_path / "s" / "sweep.csv")
    assert list(dict.fromkeys(sweep["deck"])) == ["classic", "modern"]
    turns = sweep[sweep["metric"] == "mean_turns"].set_index("deck")["value"]
    assert turns["classic"] != turns["modern"]


def test_match_and_tournament_play_the_deck(monkeypatch):
    from uno_sim.running import games, matches

    played = []
    for cls in (games.GameWork, matches.MatchWork):
        original = cls.start

        def spy(self, *args, _original=original, **kwargs):
            played.append(self.deck)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "start", spy)
    rules = P.load(str(EXAMPLE))
    uno_sim.match(str(EXAMPLE), matches=20, seed=1, workers=1)
    assert played and all(d == rules.cards for d in played)
    played.clear()
    uno_sim.tournament(["standard", str(EXAMPLE)], bots="random,greedy", deals=30, seed=1, workers=1)
    assert {d.name for d in played} == {"classic", "custom"}


def test_cluster_work_carries_the_deck():
    """A cluster's workers get the pickled work: the deck goes with it."""
    from uno_sim.running.games import game_work
    from uno_sim.running.matches import match_work
    from uno_sim.game.bots import parse_bots

    rules = P.load(str(EXAMPLE))
    for make in (game_work, match_work):
        work = make(rules, parse_bots(None, rules.players), 3)
        assert pickle.loads(pickle.dumps(work)).deck == rules.cards


def test_a_checkpoint_records_a_custom_deck_and_refuses_another(capsys, tmp_path):
    rules_file = tmp_path / "six.toml"
    rules_file.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    ck = tmp_path / "ck"
    code, _, err = invoke(capsys, "run", rules_file, "--games", 20000, "--checkpoint", ck, "--out", tmp_path / "a")
    assert code == 0, err
    manifest = json.loads((ck / "checkpoint.json").read_text())
    stored = manifest["units"][0] if "units" in manifest else manifest
    assert "W6" in json.dumps(stored)
    code, out, err = invoke(capsys, "run", rules_file, "--games", 20000, "--checkpoint", ck, "--out", tmp_path / "b")
    assert code == 0 and "all 20,000 games taken from the checkpoint" in " ".join(out.split()), err
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a" / "summary.csv"), pd.read_csv(tmp_path / "b" / "summary.csv"))
    rules_file.write_text(rules_file.read_text().replace("draw = 6", "draw = 5"), encoding="utf-8")
    code, _, err = invoke(capsys, "run", rules_file, "--games", 20000, "--checkpoint", ck, "--out", tmp_path / "c")
    assert code == 2 and "the kind `W6`'s field `draw`: 6 in the checkpoint, 5 now" in err and err.count("\n") == 1, err


def test_report_of_a_rule_files_deck_shows_its_kinds_and_reproduces_from_the_page(capsys, tmp_path):
    """report.html of a rule file's own deck: the kinds as a table (it said only deck=custom),
    and the rule file written out whole, which, saved under the name the page's command reads,
    plays the same games."""
    import html as html_text

    code, _, err = invoke(capsys, "run", EXAMPLE, "--games", "300", "--seed", "4", "--out", tmp_path / "a")
    assert code == 0, err
    page = (tmp_path / "a" / "report.html").read_text(encoding="utf-8")
    assert "the deck: 17 kinds, 116 cards" in page
    assert re.search(r"<td class=\"left\">W6</td><td class=\"left\">wild</td><td class=\"right\">4</td>"
                     r"<td class=\"right\">4</td><td class=\"left\">wild, draw 6</td>", page)
    blocks = [html_text.unescape(b) for b in re.findall(r"<pre>(.*?)</pre>", page, re.S)]
    rule_file, command = blocks[0], blocks[-1]
    assert "[deck]" in rule_file and "save it under the file name the command below reads" in " ".join(page.split())
    saved = tmp_path / "elsewhere" / EXAMPLE.name
    saved.parent.mkdir()
    saved.write_text(rule_file, encoding="utf-8")
    argv = command.split()
    assert argv[0] == "uno-sim" and str(EXAMPLE) in argv, command
    argv = [str(saved) if a == str(EXAMPLE) else a for a in argv[1:]]
    argv = [a for a in argv if a != "--force"]
    if "--out" in argv:
        del argv[argv.index("--out") : argv.index("--out") + 2]
    code, _, err = invoke(capsys, *argv, "--out", tmp_path / "b")
    assert code == 0, err
    assert (tmp_path / "a" / "summary.csv").read_text() == (tmp_path / "b" / "summary.csv").read_text()
    assert P.load(str(saved)) == P.load(str(EXAMPLE))
