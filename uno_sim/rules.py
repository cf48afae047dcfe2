"""Rules: every knob of SPEC 3, validation, presets from scenarios/*.toml, and kernel packing.

A `Rules` value is frozen and always valid: constructing one validates it, and every error
message names the offending knob. The kernel never sees a `Rules`; it reads the int array
built by `pack()` (indices in uno_sim/engine/layout.py).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .engine import layout as L

SCENARIOS_DIR = Path(__file__).resolve().parent.parent / "scenarios"


class RulesError(ValueError):
    """Bad rule input; the message names the knob or preset."""


# Choice knobs: the values, default first (SPEC 3). Their kernel code is the index.
CHOICES: dict[str, tuple[str, ...]] = {
    "first_card": ("official", "number"),
    "lead_reverse": ("dealer", "right", "left"),
    "wd4_rule": ("no_color", "no_match", "free"),
    "draw_rule": ("one", "until_playable"),
    "play_drawn": ("any", "numbers", "none"),
    "two_player_reverse": ("skip", "noop"),
    "multi_play": ("off", "identical", "same_symbol"),
    "multi_skip": ("each", "once"),
    "empty_pile": ("reshuffle", "void"),
    "mode": ("first_out", "last_standing"),
    "match_scoring": ("winner_takes", "loser_penalty"),
    "next_dealer": ("left", "winner"),
}


@dataclass(frozen=True)
class Rules:
    """One rule set: every knob of SPEC 3 plus the player count. Defaults are the official rules."""

    players: int = 4
    hand_size: int = 7
    first_card: str = "official"
    lead_draw_two_skips: bool = True
    lead_reverse: str = "dealer"
    wd4_rule: str = "no_color"
    challenge: bool = True
    challenge_extra: int = 2
    challenge_win_plays: bool = True
    draw_rule: str = "one"
    play_drawn: str = "any"
    voluntary_draw: bool = True
    two_player_reverse: str = "skip"
    stack_draw_two: bool = False
    stack_draw_four: bool = False
    stack_four_on_two: bool = False
    stack_two_on_four: bool = False
    deflect: bool = False
    jump_in: bool = False
    multi_play: str = "off"
    multi_skip: str = "each"
    seven_swap: bool = False
    zero_rotate: bool = False
    number_finish: bool = False
    last_card_penalty: bool = True
    uno_penalty: int = 2
    uno_catch: float = 1.0
    empty_pile: str = "reshuffle"
    zero_points: int = 0
    mode: str = "first_out"
    teams: int = 0
    target: int = 500
    match_scoring: str = "winner_takes"
    next_dealer: str = "left"
    max_turns: int = 5000

    def __post_init__(self) -> None:
        _validate(self)

    def replace(self, **changes: Any) -> "Rules":
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def with_overrides(self, overrides: dict[str, str] | list[str]) -> "Rules":
        """Apply `--set KNOB=VALUE` overrides (strings, parsed by the knob's type)."""
        if isinstance(overrides, list):
            overrides = parse_assignments(overrides)
        values = {name: parse_value(name, text) for name, text in overrides.items()}
        return _build(self.as_dict() | values)

    def pack(self) -> tuple[np.ndarray, np.ndarray]:
        """The (int64, float64) arrays the kernel reads; indices from engine.layout."""
        ints = np.zeros(L.N_RULE_INTS, dtype=np.int64)
        for name in KNOBS:
            if name == "uno_catch":
                continue
            value = getattr(self, name)
            ints[L.RULE_INDEX[name]] = CHOICES[name].index(value) if name in CHOICES else int(value)
        floats = np.zeros(L.N_RULE_FLOATS, dtype=np.float64)
        floats[L.RF_UNO_CATCH] = self.uno_catch
        return ints, floats


KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)}


def knob_type(name: str) -> type:
    return type(DEFAULTS[name])


def parse_value(name: str, text: Any) -> Any:
    """Parse a knob value given as text (or already typed, from TOML) into the knob's type."""
    if name not in DEFAULTS:
        raise RulesError(f"unknown knob {name!r} (see `uno-sim show standard` for the list)")
    kind = knob_type(name)
    if name in CHOICES:
        value = str(text)
        if value not in CHOICES[name]:
            raise RulesError(f"bad value {value!r} for knob {name!r}: choose one of {', '.join(CHOICES[name])}")
        return value
    if kind is bool:
        if isinstance(text, bool):
            return text
        lowered = str(text).strip().lower()
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise RulesError(f"bad value {text!r} for knob {name!r}: expected true or false")
    if kind is int:
        if isinstance(text, bool) or (isinstance(text, float) and not text.is_integer()):
            raise RulesError(f"bad value {text!r} for knob {name!r}: expected a whole number")
        try:
            return int(str(text).strip()) if not isinstance(text, (int, float)) else int(text)
        except ValueError:
            raise RulesError(f"bad value {text!r} for knob {name!r}: expected a whole number") from None
    if kind is float:
        try:
            return float(text)
        except (TypeError, ValueError):
            raise RulesError(f"bad value {text!r} for knob {name!r}: expected a number") from None
    raise AssertionError(name)


def parse_assignments(items: list[str]) -> dict[str, str]:
    """Split `KNOB=VALUE` strings; a malformed one is a RulesError naming it."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesError(f"bad --set {item!r}: expected KNOB=VALUE")
        out[name.strip()] = value.strip()
    return out


def _build(values: dict[str, Any]) -> Rules:
    unknown = sorted(set(values) - set(DEFAULTS))
    if unknown:
        raise RulesError(f"unknown knob {unknown[0]!r} (see `uno-sim show standard` for the list)")
    typed = {name: parse_value(name, value) for name, value in values.items()}
    return Rules(**typed)


def _validate(r: Rules) -> None:
    def need(cond: bool, knob: str, why: str) -> None:
        if not cond:
            raise RulesError(f"invalid rules: {knob} {why}")

    for name in KNOBS:
        value = getattr(r, name)
        if name in CHOICES:
            need(value in CHOICES[name], name, f"must be one of {', '.join(CHOICES[name])} (got {value!r})")
        elif knob_type(name) is bool:
            need(isinstance(value, bool), name, f"must be true or false (got {value!r})")
    need(2 <= r.players <= 10, "players", f"must be between 2 and 10 (got {r.players})")
    need(r.hand_size >= 1, "hand_size", f"must be at least 1 (got {r.hand_size})")
    need(
        r.players * r.hand_size + 1 <= 108,
        "hand_size",
        f"{r.hand_size} is too large for {r.players} players (players * hand_size + 1 must be <= 108)",
    )
    need(r.challenge_extra >= 0, "challenge_extra", f"must not be negative (got {r.challenge_extra})")
    need(r.uno_penalty >= 0, "uno_penalty", f"must not be negative (got {r.uno_penalty})")
    need(0.0 <= r.uno_catch <= 1.0, "uno_catch", f"must be a probability between 0 and 1 (got {r.uno_catch})")
    need(r.zero_points >= 0, "zero_points", f"must not be negative (got {r.zero_points})")
    need(r.target >= 1, "target", f"must be at least 1 (got {r.target})")
    need(r.max_turns >= 1, "max_turns", f"must be at least 1 (got {r.max_turns})")
    need(r.teams >= 0 and r.teams != 1, "teams", f"must be 0 (no teams) or at least 2 (got {r.teams})")
    need(
        r.teams == 0 or r.players % r.teams == 0,
        "teams",
        f"{r.teams} does not divide players = {r.players}",
    )
    need(not r.deflect or r.stack_draw_two, "deflect", "needs stack_draw_two = true")
    need(
        not (r.draw_rule == "until_playable" and r.play_drawn == "none"),
        "draw_rule",
        "until_playable cannot be combined with play_drawn = none",
    )


# ---------------------------------------------------------------- presets


def preset_names() -> list[str]:
    return sorted(p.stem for p in SCENARIOS_DIR.glob("*.toml"))


def _preset_file(name: str) -> Path:
    path = SCENARIOS_DIR / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(preset_names())
        raise RulesError(f"unknown preset {name!r} (known: {known})")
    return path


def preset_table(name: str, _seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The merged knob table of a preset, following `extends` chains."""
    if name in _seen:
        raise RulesError(f"preset {name!r} extends itself (via {' -> '.join(_seen)})")
    path = _preset_file(name)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"preset {name!r}: {path.name} is not valid TOML ({exc})") from None
    knobs = dict(data.get("rules", {}))
    parent = data.get("extends")
    base = preset_table(parent, _seen + (name,)) if parent else {}
    return base | knobs


def preset_description(name: str) -> str:
    data = tomllib.loads(_preset_file(name).read_text(encoding="utf-8"))
    return str(data.get("description", ""))


def load_preset(name: str, overrides: list[str] | dict[str, str] | None = None, players: int | None = None) -> Rules:
    """Rules of a preset, with `--set` overrides and the `--players` option applied last."""
    table = preset_table(name)
    try:
        rules = _build(table)
    except RulesError as exc:
        raise RulesError(f"preset {name!r}: {exc}") from None
    values = rules.as_dict()
    if overrides:
        if isinstance(overrides, list):
            overrides = parse_assignments(overrides)
        values |= {k: parse_value(k, v) for k, v in overrides.items()}
    if players is not None:
        values["players"] = players
    return _build(values)
