"""Rules: a rule set built from the knob table (knobs.py), its validation and kernel packing.

A `Rules` value is frozen and always valid: constructing one validates it, and every error
message names the offending knob. Besides the knobs it carries the deck played: the
built-in deck the `deck` knob names, or a rule file's own deck (`custom_deck`, with `deck`
then reading `custom`); `rules.cards` is that `Deck` either way. The kernel never sees a
`Rules`; it reads the int array built by `pack()` (kernel knob i at index i, `knobs.K`) and
the deck's face tables. Presets and rule files: presets.py.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from . import decks
from .errors import BadInput, RulesError, did_you_mean  # noqa: F401  (RulesError is imported from here too)
from .knobs import BY_NAME, CHOICES, DEFAULTS, INDEX, KERNEL_KNOBS, KNOBS, N_KNOBS, Knob
from .packing import fixed_point

CUSTOM_DECK = decks.CUSTOM  # the `deck` of a rule set playing a rule file's own deck
# The stacking knobs that go by the texts D and W4 (stack_by_value is the other way to stack).
CLASSIC_STACKING = ("stack_draw_two", "stack_draw_four", "stack_four_on_two", "stack_two_on_four", "deflect")


def _field_type(knob: Knob) -> type:
    return str if knob.choices else knob.values


class _RulesMethods:
    """Methods of `Rules` (its fields come from the knob table, uno_sim/game/knobs.py)."""

    def __post_init__(self) -> None:
        _validate(self)

    def replace(self, **changes: Any) -> "Rules":
        """This rule set with fields changed; a new `deck` drops a rule file's own deck."""
        if "deck" in changes and "custom_deck" not in changes:
            changes["custom_deck"] = None
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Every knob's value, in table order (`deck` is `custom` for a rule file's own deck)."""
        return {k.name: getattr(self, k.name) for k in KNOBS}

    @property
    def stacks(self) -> bool:
        """Can a pending penalty be answered (stacked)? A classic stacking knob (`stack_*`,
        `deflect`) or `stack_by_value`: the one answer to "is stacking on"."""
        return bool(self.stack_by_value or any(getattr(self, k) for k in CLASSIC_STACKING))

    @property
    def cards(self) -> decks.Deck:
        """The deck played: a rule file's own deck, else the built-in deck `deck` names."""
        return self.custom_deck if self.custom_deck is not None else decks.builtin_deck(self.deck)

    def with_deck(self, deck: decks.Deck) -> "Rules":
        """This rule set playing `deck`: `deck` names it when it is a built-in deck, else it is
        carried as the custom deck."""
        name = deck.knob_value
        return dataclasses.replace(self, deck=name, custom_deck=deck if name == CUSTOM_DECK else None)

    def with_overrides(self, overrides: dict[str, Any] | list[str]) -> "Rules":
        """Apply `--set KNOB=VALUE` overrides (text, parsed by the knob's type, or typed
        values); a rule file's own deck stays unless `deck` is among them."""
        if isinstance(overrides, list):
            overrides = parse_assignments(overrides)
        values = {name: parse_value(name, text) for name, text in overrides.items()}
        if not values:
            return self
        return self.replace(**values)

    def pack(self):
        """The int64 rule array the kernel reads: kernel knob i at index i (knobs.K), a word as
        its position in the knob's values, a probability in fixed point."""
        import numpy as np  # here, so that describing rules needs no numpy

        packed = np.zeros(N_KNOBS, dtype=np.int64)
        for knob in KERNEL_KNOBS:
            value = getattr(self, knob.name)
            if knob.choices:
                value = knob.choices.index(value)
            elif knob.values is float:
                value = fixed_point(value)
            packed[INDEX[knob.name]] = int(value)
        return packed


# One rule set: every knob of the table (defaults are the official rules), then the deck a rule
# file describes (None: the built-in deck the `deck` knob names). Frozen, and always valid:
# constructing one validates it, and every error message names the offending knob.
Rules = dataclasses.make_dataclass(
    "Rules",
    [(k.name, _field_type(k), dataclasses.field(default=k.default)) for k in KNOBS]
    + [("custom_deck", Any, dataclasses.field(default=None, repr=False))],
    bases=(_RulesMethods,),
    frozen=True,
)
Rules.__module__ = __name__
Rules.__doc__ = ("One rule set: a field per knob of uno_sim/game/knobs.py (defaults: the official rules), "
                 "and `custom_deck`, a rule file's own deck (`cards` is the deck played).")


def knob_type(name: str) -> type:
    """str for a choice knob, else bool, int or float."""
    return _field_type(BY_NAME[name])


def parse_value(name: str, text: Any) -> Any:
    """Parse a knob value given as text (or already typed, from TOML) into the knob's type."""
    if name not in DEFAULTS:
        raise RulesError(f"unknown knob {name!r}{did_you_mean(name, DEFAULTS)} (see `uno-sim show standard` for the list)")
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
        raise RulesError(f"unknown knob {unknown[0]!r}{did_you_mean(unknown[0], DEFAULTS)} (see `uno-sim show standard` for the list)")
    typed = {name: parse_value(name, value) for name, value in values.items()}
    return Rules(**typed)


def _validate(r: Rules) -> None:
    def need(cond: bool, knob: str, why: str) -> None:
        if not cond:
            raise RulesError(f"invalid rules: {knob} {why}")

    _validate_deck(r)
    for knob in KNOBS:  # each knob's own type and bounds, from the table
        name, value = knob.name, getattr(r, knob.name)
        if name == "deck" and r.custom_deck is not None:
            continue  # checked by _validate_deck
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
    # the deck against the numbers: a deal and a lead card, a number card for first_card = number
    decks.check_deck_fits(r.cards, r.players, r.hand_size, r.first_card, getattr(r, "mercy_limit", 0))
    need(r.teams >= 0 and r.teams != 1, "teams", f"must be 0 (no teams) or at least 2 (got {r.teams})")
    need(
        r.teams == 0 or r.players % r.teams == 0,
        "teams",
        f"{r.teams} does not divide players = {r.players}",
    )
    need(not r.deflect or r.stack_draw_two, "deflect", "needs stack_draw_two = true")
    need(
        not r.stack_by_value or not any(getattr(r, k) for k in CLASSIC_STACKING),
        "stack_by_value",
        f"cannot be combined with {', '.join(CLASSIC_STACKING[:-1])} or {CLASSIC_STACKING[-1]}",
    )
    need(not r.must_play_drawn or r.play_drawn == "any", "must_play_drawn", "needs play_drawn = any")
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



def _validate_deck(r: Rules) -> None:
    """`deck` and `custom_deck` agree: a built-in deck's name without a custom deck, or
    `custom` with a custom deck that is none of the built-in decks; and the deck fits the
    engine (decks.check_engine_limits)."""
    if r.custom_deck is None:
        return
    if not isinstance(r.custom_deck, (decks.Deck, decks.TwoSidedDeck)):
        raise RulesError(f"invalid rules: custom_deck must be a Deck (got {r.custom_deck!r})")
    if r.custom_deck.name != CUSTOM_DECK:
        raise RulesError(f"invalid rules: the custom deck is the built-in {r.custom_deck.name} deck; "
                         f"give deck = {r.custom_deck.name!r} instead (Rules.with_deck does)")
    if r.deck != CUSTOM_DECK:
        raise RulesError(f"invalid rules: deck must be {CUSTOM_DECK!r} with a rule file's own deck (got {r.deck!r})")
    decks.check_engine_limits(r.custom_deck)
