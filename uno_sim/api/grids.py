"""The grid of a sweep or a design: its axes from `--vary`, the checks of the knobs varied, the
grid points, their names, the run of each point, and how a knob's value is written in the
tables (sweep.csv, race.csv) and on the command line."""

from __future__ import annotations

import itertools
from typing import Any, Mapping, Sequence

from ..game import presets
from ..game.errors import InputError, did_you_mean
from ..game.knobs import BY_NAME
from ..game.rules import Rules, RulesError, parse_value
from .common import RuleSpec, _unique_names
from .runs import RunPlan, prepare_run

PRESET_AXIS = "preset"  # `--vary preset=A,B,...`: presets or rule files as one axis of the grid
MAX_SWEEP_POINTS = 1000


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """`KNOB=V1,V2,...` or `KNOB=A..B` (whole numbers, inclusive) -> (knob, typed values);
    `preset=A,B,...`: presets or rule files (checked to exist)."""
    knob, sep, spec = text.partition("=")
    knob, spec = knob.strip(), spec.strip()
    if not sep or not knob or not spec:
        raise InputError(f"bad --vary {text!r}: expected KNOB=V1,V2,... or KNOB=A..B")
    if knob == PRESET_AXIS:
        specs = [v.strip() for v in spec.split(",")]
        if any(not v for v in specs):
            raise InputError(f"bad --vary {text!r}: empty value in the list")
        if len(set(specs)) != len(specs):
            raise InputError(f"bad --vary {text!r}: a preset is listed twice")
        for item in specs:
            try:
                presets.find(item)
            except RulesError as exc:
                raise InputError(f"bad --vary {text!r}: {exc}") from None
        return knob, specs
    if knob not in BY_NAME:
        raise InputError(f"bad --vary {text!r}: unknown knob {knob!r}{did_you_mean(knob, BY_NAME)} (see `uno-sim rules` for the list; "
                         f"`{PRESET_AXIS}=A,B,...` varies the preset)")
    if ".." in spec:
        first, _, last = spec.partition("..")
        try:
            a, b = int(first), int(last)
        except ValueError:
            raise InputError(f"bad --vary {text!r}: a range A..B needs two whole numbers") from None
        if BY_NAME[knob].values is not int:
            raise InputError(f"bad --vary {text!r}: knob {knob!r} is not a whole number; list the values")
        if a > b:
            raise InputError(f"bad --vary {text!r}: the range {a}..{b} is empty")
        if b - a >= 100:
            raise InputError(f"bad --vary {text!r}: at most 100 values")
        texts = [str(v) for v in range(a, b + 1)]
    else:
        texts = [v.strip() for v in spec.split(",")]
        if any(not v for v in texts):
            raise InputError(f"bad --vary {text!r}: empty value in the list")
    try:
        typed = [parse_value(knob, v) for v in texts]
    except RulesError as exc:
        raise InputError(f"bad --vary {text!r}: {exc}") from None
    if len(set(typed)) != len(typed):
        raise InputError(f"bad --vary {text!r}: a value is listed twice")
    return knob, typed


def axes(vary: Mapping[str, Sequence[Any]] | Sequence[str] | str) -> list[tuple[str, list[Any]]]:
    """The grid's axes, (knob, typed values), from {knob: values} (values a list or a comma
    text) or `--vary` texts (one text, or a list of them)."""
    if isinstance(vary, str):  # one `KNOB=VALUES` text
        vary = [vary]
    if isinstance(vary, Mapping):
        found = []
        for knob, values in vary.items():
            if isinstance(values, str):  # "2,3,4" as the command line writes it
                values = [v.strip() for v in values.split(",")]
            elif not hasattr(values, "__iter__"):
                raise InputError(f"--vary {knob}: give a list of values (got {values!r})")
            values = list(values)
            if len(values) == 0:
                raise InputError(f"--vary {knob} has no values; give one or more")
            if knob == PRESET_AXIS:
                found.append(parse_vary(f"{knob}={','.join(str(v) for v in values)}"))
                continue
            if knob not in BY_NAME:
                raise InputError(f"bad vary: unknown knob {knob!r}{did_you_mean(knob, BY_NAME)} (see `uno-sim rules` for the list)")
            found.append((knob, [parse_value(knob, v) for v in values]))
    else:
        found = [parse_vary(text) for text in vary]
    if not found:
        raise InputError("sweep needs at least one --vary KNOB=VALUES")
    return found


def check_knobs(knobs: list[str], rules: RuleSpec | None) -> bool:
    """Each knob varied once, and a PRESET exactly when the preset is not an axis; True when
    it is (`--vary preset=A,B,...`)."""
    if len(set(knobs)) != len(knobs):
        dup = next(k for k in knobs if knobs.count(k) > 1)
        raise InputError(f"--vary {dup} is given twice")
    by_preset = PRESET_AXIS in knobs
    if by_preset and rules is not None:
        raise InputError(f"give either PRESET or --vary {PRESET_AXIS}=A,B,..., not both")
    if not by_preset and rules is None:
        raise InputError(f"sweep needs a PRESET (or --vary {PRESET_AXIS}=A,B,... to vary the preset)")
    return by_preset


def check_conflicts(knobs: list[str], given: dict[str, Any], players: int | None) -> None:
    """A varied knob is not also set (--set, --players)."""
    for knob in knobs:
        if knob in given:
            raise InputError(f"--vary {knob} conflicts with --set {knob}=...")
        if knob == "players" and players is not None:
            raise InputError("--vary players conflicts with --players")


def grid(axes: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """Every grid point ({knob: value}), the last axis varying fastest; at most MAX_SWEEP_POINTS."""
    knobs = [k for k, _ in axes]
    points = [dict(zip(knobs, combo)) for combo in itertools.product(*(values for _, values in axes))]
    if len(points) > MAX_SWEEP_POINTS:
        raise InputError(f"--vary: the grid has {len(points):,} points; at most {MAX_SWEEP_POINTS:,}")
    return points


def grid_names(axes: list[tuple[str, list[Any]]], rules: RuleSpec | None,
                by_preset: bool) -> tuple[str, dict[str, str]]:
    """(label, names): the sweep's label (the preset's name, or the names of the presets
    varied) and, when the preset is an axis, each preset's unique name by its spec."""
    if not by_preset:
        return (presets.find(str(rules)).name if not isinstance(rules, Rules) else "custom"), {}
    specs = dict(axes)[PRESET_AXIS]
    names = dict(zip(specs, _unique_names([presets.find(spec).name for spec in specs])))
    return ", ".join(names.values()), names


def point_plan(point: dict[str, Any], rules: RuleSpec | None, names: dict[str, str], label: str,
                given: dict[str, Any], **run_options: Any) -> RunPlan:
    """The run of one grid point (a preset axis's value becomes its name in `point`), with the
    progress text naming the point; a point whose rules do not hold is an InputError naming it."""
    by_preset = PRESET_AXIS in point
    knob_values = {k: v for k, v in point.items() if k != PRESET_AXIS}
    spec = point[PRESET_AXIS] if by_preset else rules
    try:
        plan = prepare_run(spec, overrides=given | knob_values, name=names.get(spec, label) if by_preset else label,
                           **run_options)
    except RulesError as exc:
        where = ", ".join(f"{k}={setting(v)}" for k, v in point.items())
        raise InputError(f"grid point {where}: {exc}") from None
    if by_preset:
        point[PRESET_AXIS] = names[spec]
    plan.progress_label = " ".join(f"{k}={setting(v)}" for k, v in knob_values.items())
    if by_preset or len(plan.progress_label) < 40:
        plan.progress_label = f"{plan.name} {plan.progress_label}".strip()
    return plan


def setting(value: Any) -> Any:
    """A knob value as written in sweep.csv: numbers as numbers, booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def setting_text(value: Any) -> str:
    from ..output.tables import fmt_value

    return fmt_value(value)
