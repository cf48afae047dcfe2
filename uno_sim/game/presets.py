"""Rule files: the presets shipped in the package, and the user's own TOML files.

A rule file is TOML with at most four top-level keys:

    description = "one line shown by `uno-sim presets`"
    extends = "stacking"          # optional: a built-in preset, or another file (relative to this one)
    [rules]
    jump_in = true                # knobs (uno_sim/game/knobs.py); the rest comes from `extends` or the defaults
    [deck]                        # optional: the file's own deck (game/decks.py, deck_from_toml)
    base = "classic"
    remove = ["W4"]
    [[deck.kinds]]
    text = "W6"
    colored = false
    copies = 4
    draw = 6

Wherever a preset name is accepted, a path to such a file is accepted too: anything ending in
`.toml` or containing a path separator is read as a file. Every problem (a missing file, bad
TOML, a file that is not UTF-8, an unknown top-level key, `rules` that is not a table, an
unknown knob or bad value, an `extends` cycle or a missing parent, a bad deck or card kind, a
deck too small for the deal) is a `RulesError` naming the preset or file and the problem.

A two-sided deck (UNO Flip) is `[deck] base = "flip"` with `[[deck.light]]` / `[[deck.dark]]`
tables (the fields of `[[deck.kinds]]`) and `remove` naming `light:TEXT` or `dark:TEXT`; the
rule set's knob `deck` then reads `custom` (or `flip` for the built-in deck itself).

The deck follows `extends` like the knobs: a file without `[deck]` plays its parent's deck,
a `[deck]` table replaces the parent's deck as a whole (its `base` is a built-in deck), and
the knob `deck` under `[rules]` chooses a built-in deck instead (a file cannot give both).

The built-in presets are package data (uno_sim/game/preset_files/*.toml), read with importlib.resources,
so an installed copy finds them from any folder.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import did_you_mean
from .decks import CUSTOM, Deck, check_playable, deck_from_toml
from .rules import Rules, RulesError, build_rules, parse_assignments, parse_value

PRESETS = resources.files("uno_sim.game") / "preset_files"
TOP_LEVEL_KEYS = ("description", "extends", "rules", "deck")


@dataclass(frozen=True)
class RuleSource:
    """A built-in preset (`path` None) or a rule file of the user's."""

    name: str  # the preset name, or the file's stem: the variant's label in tables
    path: Path | None = None

    @property
    def what(self) -> str:
        return f"preset {self.name!r}" if self.path is None else f"rule file {str(self.path)!r}"

    def read_bytes(self) -> bytes:
        if self.path is None:
            return (PRESETS / f"{self.name}.toml").read_bytes()
        try:
            return self.path.read_bytes()
        except OSError as exc:
            raise RulesError(f"{self.what}: cannot read it ({exc.strerror or exc})") from None


def is_path(spec: str) -> bool:
    """A preset argument naming a file rather than a built-in preset."""
    return spec.endswith(".toml") or "/" in spec or os.sep in spec


def preset_names() -> list[str]:
    """The built-in presets, sorted."""
    return sorted(item.name[: -len(".toml")] for item in PRESETS.iterdir() if item.name.endswith(".toml"))


def find(spec: str, relative_to: Path | None = None) -> RuleSource:
    """The rule source a preset argument (or an `extends` value) names."""
    if is_path(spec):
        path = Path(spec).expanduser()
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        if not path.is_file():
            problem = "is not a file" if path.exists() else "not found"
            where = "" if relative_to is None else f" (looked in {relative_to})"
            raise RulesError(f"rule file {spec!r} {problem}{where}")
        return RuleSource(path.stem, path)
    if not (PRESETS / f"{spec}.toml").is_file():
        raise RulesError(f"unknown preset {spec!r}{did_you_mean(spec, preset_names())} (known: {', '.join(preset_names())}; or give a path to a .toml file)")
    return RuleSource(spec)


def read(source: RuleSource) -> dict[str, Any]:
    """The parsed top level of a rule file, checked strictly (keys, types, encoding)."""
    raw = source.read_bytes()
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark first (Windows editors) is not TOML
    except UnicodeDecodeError as exc:
        raise RulesError(f"{source.what}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{source.what}: not valid TOML ({exc})") from None
    unknown = [key for key in data if key not in TOP_LEVEL_KEYS]
    if unknown:
        hint = " (did you mean 'extends'?)" if unknown[0].startswith("extend") else ""
        raise RulesError(
            f"{source.what}: unknown top-level key {unknown[0]!r}{hint}; a rule file has "
            f"{', '.join(TOP_LEVEL_KEYS)}, and knobs go under [rules]"
        )
    if "rules" in data and not isinstance(data["rules"], dict):
        raise RulesError(f"{source.what}: 'rules' must be a table ([rules] with KNOB = VALUE lines)")
    for key in ("description", "extends"):
        if key in data and not isinstance(data[key], str):
            raise RulesError(f"{source.what}: {key!r} must be a string")
    for name, value in data.get("rules", {}).items():
        if isinstance(value, dict):
            raise RulesError(f"{source.what}: knob {name!r} must be a value, not a table")
    return data


def rule_parts(source: RuleSource) -> tuple[dict[str, Any], Deck | None]:
    """(merged knobs, deck) of a rule source, following `extends` (parents first). The deck
    is the nearest `[deck]` table's (None: the built-in deck of the knob `deck`); a `deck`
    knob given after that table wins over it. The chain is walked in a loop, so a chain of
    any length works (each file is read once); a file met twice is a cycle, named."""
    chain: list[tuple[RuleSource, dict[str, Any]]] = []  # the source first, its root last
    seen: dict[Any, int] = {}  # a file by its resolved path (however `extends` spells it)
    while True:
        key = source.name if source.path is None else source.path.resolve()
        if key in seen:
            loop = [s.what for s, _ in chain[seen[key]:]] + [source.what]
            raise RulesError(f"{source.what} extends itself (via {' -> '.join(loop)})")
        seen[key] = len(chain)
        data = read(source)
        chain.append((source, data))
        parent = data.get("extends")
        if not parent:
            break
        try:
            parent_source = find(parent, source.path.parent if source.path is not None else None)
        except RulesError as exc:
            raise RulesError(f"{source.what}: extends {parent!r}: {exc}") from None
        if source.path is None and parent_source.path is not None:
            raise RulesError(f"{source.what}: a built-in preset can only extend built-in presets")
        source = parent_source
    base: dict[str, Any] = {}
    deck: Deck | None = None
    for source, data in reversed(chain):  # the root first
        knobs = dict(data.get("rules", {}))
        for name, value in knobs.items():
            try:
                parse_value(name, value)
            except RulesError as exc:
                raise RulesError(f"{source.what}: {exc}") from None
        if "deck" in data:
            if "deck" in knobs:
                raise RulesError(f"{source.what}: give the deck either as the knob deck under [rules] or as a [deck] "
                                 "table, not both")
            deck = deck_from_toml(data["deck"], source.what)
            base = {k: v for k, v in base.items() if k != "deck"}
        elif "deck" in knobs:
            deck = None
        base = base | knobs
    return base, deck


def description(source: RuleSource) -> str:
    return str(read(source).get("description", ""))


def load(spec: str, overrides: list[str] | dict[str, Any] | None = None, players: int | None = None, *,
         to_play: bool = True) -> Rules:
    """Rules of a preset or rule file, with `--set` overrides and `--players` applied last.
    `to_play=False` (the commands that only show a rule set) also accepts a deck this version
    cannot play (decks.check_playable)."""
    source = find(spec)
    table, deck = rule_parts(source)
    try:
        rules = build_rules(table) if deck is None else _with_deck(table, deck)
    except RulesError as exc:
        raise RulesError(f"{source.what}: {exc}") from None
    values: dict[str, Any] = {}
    if overrides:
        if isinstance(overrides, list):
            overrides = parse_assignments(overrides)
        values |= {k: parse_value(k, v) for k, v in overrides.items()}
    if players is not None:
        values["players"] = players
    rules = rules.with_overrides(values)
    if to_play:
        _check_playable(rules, source.what)
    return rules


def load_rule_set(spec: "str | os.PathLike | Rules", overrides: dict[str, Any] | None = None,
                  players: int | None = None, *, to_play: bool = True) -> tuple[str, Rules]:
    """(name, rules) of a preset name, a rule file's path or a Rules value ("custom"), with the
    overrides (knob -> value, values parsed as `--set` parses them) and the player count
    applied last: the one loader of the API and of the environments. A rule set to play
    (`to_play`, the default) must hold a deck this version plays (decks.check_playable)."""
    if isinstance(spec, Rules):
        values = {k: parse_value(k, v) for k, v in (overrides or {}).items()}
        if players is not None:
            values["players"] = players
        rules = spec.with_overrides(values) if values else spec
        if to_play:
            _check_playable(rules, "the rule set")
        return "custom", rules
    return find(str(spec)).name, load(str(spec), dict(overrides or {}), players, to_play=to_play)


def rule_file_text(rules: Rules, description: str = "") -> str:
    """A rule file that loads back to `rules`: every knob under `[rules]` (nothing inherited),
    and a rule file's own deck written out whole under `[deck]` (`Deck.to_table`; a deck no
    rule file can write is left out, the knob `deck` then reads `custom`). TOML text."""
    import tomli_w

    data: dict[str, Any] = {"description": description} if description else {}
    knobs = rules.as_dict()
    table = rules.custom_deck.to_table() if rules.custom_deck is not None else None
    if rules.custom_deck is not None:
        del knobs["deck"]
    data["rules"] = knobs
    if table is not None:
        data["deck"] = table
    return tomli_w.dumps(data)


def _check_playable(rules: Rules, what: str) -> None:
    """The rule set's deck is one this version plays (decks.check_playable), else a one-line
    RulesError naming the rule set: refused before anything plays or is written."""
    try:
        check_playable(rules.cards)
    except RulesError as exc:
        raise RulesError(f"{what}: {exc}") from None


def _with_deck(table: dict[str, Any], deck: Deck) -> Rules:
    """Rules of the knobs playing a rule file's deck (named when it is a built-in deck)."""
    knobs = {name: parse_value(name, value) for name, value in table.items()}
    name = deck.knob_value
    return Rules(**knobs, deck=name, custom_deck=deck if name == CUSTOM else None)
