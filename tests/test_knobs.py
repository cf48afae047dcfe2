"""The one knob table: every knob appears everywhere it must, derived from the table."""

import dataclasses

import pytest

from uno_sim import cli
from uno_sim.game.knobs import BY_NAME, DEFAULTS, INDEX, KERNEL_NAMES, KNOBS, K, N_KNOBS, NAMES
from uno_sim.game.rules import Rules

import trace_checker
import replay


def test_rules_fields_are_the_table():
    """A field per knob, then the deck a rule file describes (not a knob: `deck` names it)."""
    fields = dataclasses.fields(Rules)
    assert [f.name for f in fields] == list(NAMES) + ["custom_deck"]
    assert {f.name: f.default for f in fields} == DEFAULTS | {"custom_deck": None}
    assert Rules().as_dict() == DEFAULTS


def test_kernel_indices_are_the_table_order():
    assert list(K) == list(range(N_KNOBS))
    assert K._fields == KERNEL_NAMES and INDEX == {name: i for i, name in enumerate(KERNEL_NAMES)}
    assert KERNEL_NAMES == tuple(name for name in NAMES if BY_NAME[name].kernel)


def test_only_the_deck_stays_out_of_the_kernel_array():
    """The engine reads the deck's face tables (engine/state.py, deck_block), not the knob."""
    assert [k.name for k in KNOBS if not k.kernel] == ["deck"]
    packed = Rules().pack()
    for word in BY_NAME["deck"].choices:
        assert (Rules(deck=word).pack() == packed).all()


# Words that are valid only together with another knob (rules._validate).
NEEDS = {("match_scoring", "chips"): {"match_rounds": 10}}


@pytest.mark.parametrize("knob", KNOBS, ids=lambda k: k.name)
def test_every_knob_is_described_packed_and_validated(knob):
    assert knob.meaning and knob.detail and knob.group
    packed = Rules().pack()
    assert len(packed) == N_KNOBS
    if knob.choices:  # every word is valid and, for a kernel knob, packs to its position
        for code, word in enumerate(knob.choices):
            rules = Rules(**{knob.name: word, **NEEDS.get((knob.name, word), {})})
            assert getattr(rules, knob.name) == word
            if knob.kernel:
                assert rules.pack()[INDEX[knob.name]] == code
    elif knob.values is not bool:  # bounds are enforced, with the knob named
        with pytest.raises(ValueError, match=knob.name):
            Rules(**{knob.name: type(knob.default)(knob.high) + 1})
        with pytest.raises(ValueError, match=knob.name):
            Rules(**{knob.name: type(knob.default)(knob.low) - 1})


def test_checker_knows_every_knob_with_its_default():
    assert trace_checker.DEFAULT_RULES == {k: v for k, v in DEFAULTS.items() if k != "players"}


def test_hypothesis_rule_sets_draw_every_knob():
    for knob in KNOBS:
        if knob.values is bool or knob.choices:
            continue
        assert knob.name in replay._NUMBER_RANGES, f"{knob.name}: give it a range to draw"


def test_show_and_rules_list_every_knob(capsys):
    assert cli.run_cli(["show", "standard"]) == 0
    shown = capsys.readouterr().out
    assert cli.run_cli(["rules"]) == 0
    listed = capsys.readouterr().out
    for knob in KNOBS:
        assert knob.name in shown and knob.name in listed
        assert knob.meaning[:30] in listed.replace("\n", " ") or knob.meaning.split()[0] in listed


def test_rules_knob_prints_the_full_entry(capsys):
    assert cli.run_cli(["rules", "stack_four_on_two"]) == 0
    out = capsys.readouterr().out
    knob = BY_NAME["stack_four_on_two"]
    assert out.startswith(f"stack_four_on_two: {knob.meaning}")
    assert "王牌为大" in out and "default: false" in out
    assert cli.run_cli(["rules", "colour"]) == 2
    assert "unknown knob 'colour'" in capsys.readouterr().err


def test_every_knob_is_read_by_the_engine_and_the_map_is_current():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))  # a doc tool, not shipped
    from knob_index import index_section, readers

    unread = [name for name, funcs in readers().items() if not funcs]
    assert not unread, f"knobs parsed but read by no engine function: {unread}"
    doc = (Path(__file__).resolve().parent.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert index_section().strip() in doc, "docs/ARCHITECTURE.md is stale: run `make docs`"
