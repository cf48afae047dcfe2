"""The rulebook (docs/RULES.md) is complete and self-contained.

- its knob reference is exactly what the knob table generates (`uno-sim rules --markdown`);
- every knob has a meaning and is explained in the prose too, every trace event and every
  per-game column is described;
- nothing user-facing (README, docs, the strings of the package outside the engine, the
  presets) points at files outside the repository or at the contract it was built from, and
  every link between the docs lands on a file and a heading that exist.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from uno_sim.game.knobs import KNOBS
from uno_sim.running.records import columns
from uno_sim.game.rulebook import BEGIN, END, knob_section, update_rulebook

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
TEXT = RULES.read_text(encoding="utf-8")
PROSE = TEXT[: TEXT.find(BEGIN)]

TRACE_EVENTS = ("deal lead return choose play jump draw reshuffle challenge swap rotate uno caught out "
                "end swap3").split()


def _section(text: str, heading: str) -> str:
    """The body of the `## heading` section of a Markdown text."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_knob_section_is_generated_verbatim():
    assert TEXT.count(BEGIN) == 1 and TEXT.count(END) == 1
    assert knob_section() in TEXT, "docs/RULES.md is stale: run `make rulebook`"
    assert update_rulebook(TEXT) == TEXT


def test_sections_are_not_repeated():
    """One section per subject: a merge that brings a second copy of a section shows here."""
    headings = re.findall(r"^##+ .+$", PROSE, flags=re.M)
    assert len(headings) == len(set(headings)), sorted(h for h in headings if headings.count(h) > 1)


def test_update_rulebook_replaces_only_the_section():
    stale = "# Title\n\nprose\n\n" + BEGIN + "\nold entries\n" + END + "\n\n## After\n"
    fresh = update_rulebook(stale)
    assert fresh == "# Title\n\nprose\n\n" + knob_section() + "\n## After\n"
    with pytest.raises(ValueError):
        update_rulebook("no markers here")


def test_knob_section_groups_each_group_once():
    headings = re.findall(r"^### (.+)$", knob_section(), flags=re.M)
    assert len(headings) == len(set(headings)) == len({k.group for k in KNOBS})
    entries = re.findall(r"^#### `(\w+)`$", knob_section(), flags=re.M)
    assert sorted(entries) == sorted(k.name for k in KNOBS)


@pytest.mark.parametrize("knob", KNOBS, ids=lambda k: k.name)
def test_every_knob_is_described(knob):
    assert knob.meaning.strip(), f"knob {knob.name} has no meaning"
    assert knob.detail.strip(), f"knob {knob.name} has no rulebook entry (detail)"
    assert f"#### `{knob.name}`" in TEXT
    mentioned = re.search(rf"`{knob.name}( = [^`]+)?`", PROSE)  # `knob` or `knob = value`
    assert mentioned, f"knob {knob.name} is not explained in the rulebook's prose"


@pytest.mark.parametrize("event", TRACE_EVENTS)
def test_every_trace_event_is_described(event):
    trace = _section(PROSE, "The trace")
    assert re.search(rf"^\| `{event}` \|", trace, flags=re.M), f"trace event {event} has no row"


@pytest.mark.parametrize("field", ["cards", "sum", "how", "swap", "gave", "got", "by", "place", "why", "guilty"])
def test_trace_fields_of_the_house_rules_are_described(field):
    assert f"`{field}`" in _section(PROSE, "The trace")


def test_every_per_game_column_is_described():
    record = _section(PROSE, "The per-game record")
    names = [c for c in columns(3) if not re.fullmatch(r"(points|cards)_\d", c)] + ["points_i", "cards_i"]
    for name in names:
        assert re.search(rf"^\| `{name}` \|", record, flags=re.M), f"column {name} has no row"
    order = ", ".join(c for c in columns(2) if not re.fullmatch(r"(points|cards)_\d", c))
    assert order in " ".join(record.split()), "the column order is not stated as written"


# ------------------------------------------------------------------ self-contained

def _docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _package_sources() -> list[Path]:
    pkg = ROOT / "uno_sim"
    return sorted(pkg.glob("*.py")) + sorted((pkg / "cli").glob("*.py"))


FORBIDDEN = re.compile(r"\bSPEC\b|shared/|\.\./shared|the contract")


@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_docs_do_not_point_outside(path):
    text = path.read_text(encoding="utf-8")
    assert not FORBIDDEN.findall(text), f"{path.name} mentions {FORBIDDEN.findall(text)}"


def _slugs(path: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown file."""
    slugs: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#{1,6} (.+)$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            slugs.add(slug if n == 0 else f"{slug}-{n}")
    return slugs


@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_doc_links_stay_inside_and_land(path):
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.is_relative_to(ROOT), f"{path.name}: link {target} leaves the repository"
        assert dest.exists(), f"{path.name}: link {target} points at a missing file"
        if anchor and dest.suffix == ".md":
            assert anchor in _slugs(dest), f"{path.name}: link {target}: no such heading"


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


@pytest.mark.parametrize("path", _package_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_package_strings_do_not_point_outside(path):
    """Help texts, messages and docstrings of the package (the engine aside) name no outside file."""
    bad = [s for s in _strings(path) if FORBIDDEN.search(s)]
    assert not bad, f"{path.relative_to(ROOT)}: {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "uno_sim" / "presets").glob("*.toml")), ids=lambda p: p.name)
def test_presets_do_not_point_outside(path):
    assert not FORBIDDEN.findall(path.read_text(encoding="utf-8"))


def test_forbidden_pattern_catches_what_it_should():
    assert FORBIDDEN.search("see SPEC 5") and FORBIDDEN.search("../shared/SPEC.md")
    assert not FORBIDDEN.search("RECORD_COLUMNS, spectrum, a special rule")


def test_the_decks_chapter_holds_the_worked_example_as_shipped():
    """The rulebook's DIY example is the file in examples/, word for word, and it parses."""
    from uno_sim.game import presets

    chapter = _section(PROSE, "Decks and your own cards")
    example = ROOT / "examples" / "diy-wild-draw-six.toml"
    blocks = re.findall(r"```toml\n(.*?)```", chapter, flags=re.S)
    assert example.read_text(encoding="utf-8") in blocks
    assert presets.load(str(example)).cards.size == 116
    for field in ("text", "colored", "copies", "points", "number", "draw", "skip", "reverse", "restricted",
                  "discard_color", "roulette", "swap_hands", "shuffle_hands"):
        assert re.search(rf"^\| `{field}` \|", chapter, flags=re.M), f"deck field {field} has no row"
    for deck in ("classic", "no-mercy", "modern"):
        assert f"**`{deck}`**" in chapter
