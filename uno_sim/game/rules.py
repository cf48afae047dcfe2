"""Rules: a rule set built from the knob table (knobs.py), its validation and kernel packing.

A `Rules` value is frozen and always valid: constructing one validates it, and every error
message names the offending knob. The kernel never sees a `Rules`; it reads the int array
built by `pack()` (knob i at index i, `knobs.K`). Presets and rule files: presets.py.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .packing import fixed_point
from .errors import BadInput
from .knobs import BY_NAME, CHOICES, DEFAULTS, INDEX, KNOBS, N_KNOBS, Knob


class RulesError(BadInput):
    """Bad rule input; the message names the knob or preset."""


def _field_type(knob: Knob) -> type:
    return str if knob.choices else knob.values


class _RulesMethods:
    """Methods of `Rules` (its fields come from the knob table, uno_sim/game/knobs.py)."""

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
        return build_rules(self.as_dict() | values)

    def pack(self):
        """The int64 rule array the kernel reads: knob i at index i (knobs.K), a word as its
        position in the knob's values, a probability in fixed point."""
        import numpy as np  # here, so that describing rules needs no numpy

        packed = np.zeros(N_KNOBS, dtype=np.int64)
        for knob in KNOBS:
            value = getattr(self, knob.name)
            if knob.choices:
                value = knob.choices.index(value)
            elif knob.values is float:
                value = fixed_point(value)
            packed[INDEX[knob.name]] = int(value)
        return packed


# One rule set: every knob of the table (defaults are the official rules). Frozen, and always
# valid: constructing one validates it, and every error message names the offending knob.
Rules = dataclasses.make_dataclass(
    "Rules",
    [(k.name, _field_type(k), dataclasses.field(default=k.default)) for k in KNOBS],
    bases=(_RulesMethods,),
    frozen=True,
)
Rules.__module__ = __name__
Rules.__doc__ = "One rule set: a field per knob of uno_sim/game/knobs.py (defaults: the official rules)."


def knob_type(name: str) -> type:
    """str for a choice knob, else bool, int or float."""
    return _field_type(BY_NAME[name])


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
        if name.strip() in out:
            raise RulesError(f"--set {name.strip()} is given twice ({name.strip()}={out[name.strip()]}, {item.strip()})")
        out[name.strip()] = value.strip()
    return out


def build_rules(values: dict[str, Any]) -> Rules:
    """Rules from knob values (text or typed); unknown knobs and bad values name the knob."""
    unknown = sorted(set(values) - set(DEFAULTS))
    if unknown:
        raise RulesError(f"unknown knob {unknown[0]!r} (see `uno-sim show standard` for the list)")
    typed = {name: parse_value(name, value) for name, value in values.items()}
    return Rules(**typed)


def _validate(r: Rules) -> None:
    def need(cond: bool, knob: str, why: str) -> None:
        if not cond:
            raise RulesError(f"invalid rules: {knob} {why}")

    for knob in KNOBS:  # each knob's own type and bounds, from the table
        name, value = knob.name, getattr(r, knob.name)
        if knob.choices:
            need(value in knob.choices, name, f"must be one of {', '.join(knob.choices)} (got {value!r})")
        elif knob.values is bool:
            need(isinstance(value, bool), name, f"must be true or false (got {value!r})")
        else:
            need(
                isinstance(value, (int, float)) and not isinstance(value, bool) and knob.low <= value <= knob.high,
                name,
                f"must be between {knob.describe_values().replace('..', ' and ')} (got {value!r})",
            )
    need(
        r.players * r.hand_size + 1 <= 108,
        "hand_size",
        f"{r.hand_size} is too large for {r.players} players (players * hand_size + 1 must be <= 108)",
    )
    need(r.teams >= 0 and r.teams != 1, "teams", f"must be 0 (no teams) or at least 2 (got {r.teams})")
    need(
        r.teams == 0 or r.players % r.teams == 0,
        "teams",
        f"{r.teams} does not divide players = {r.players}",
    )
    need(not r.deflect or r.stack_draw_two, "deflect", "needs stack_draw_two = true")
    need(
        not r.sum_jump_win_only or r.sum_jump_in != "off",
        "sum_jump_win_only",
        "needs sum_jump_in = same_color or any_color",
    )
    need(
        not (r.draw_rule == "until_playable" and r.play_drawn == "none"),
        "draw_rule",
        "until_playable cannot be combined with play_drawn = none",
    )
    need(
        r.mercy_limit == 0 or r.mercy_limit > r.hand_size,
        "mercy_limit",
        f"must be 0 (off) or above hand_size = {r.hand_size} (got {r.mercy_limit})",
    )
    need(r.mercy_limit == 0 or r.teams == 0, "mercy_limit", "cannot be combined with teams")
    need(
        r.match_scoring != "chips" or r.match_rounds > 0,
        "match_rounds",
        "must be at least 1 with match_scoring = chips (a chips match is a fixed number of rounds; "
        "target does not apply)",
    )

