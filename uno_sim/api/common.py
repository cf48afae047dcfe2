"""What every command's API shares: the checks of counts and rules, rule loading, unique
names, the `uno-sim ...` command line that reproduces a result, and opening a cluster or a
checkpoint."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game import presets
from ..game.errors import InputError
from ..game.knobs import BY_NAME, MAX_PLAYERS
from ..game.rules import Rules, parse_assignments, parse_value

MAX_GAMES = 10**12  # games (or matches) per variant: far beyond a day's run, well inside int64 counts
MAX_SEED = 2**63 - 1

RuleSpec = str | Path | Rules


def check_count(option: str, value: int | None, minimum: int = 1, maximum: int = MAX_GAMES) -> None:
    """An integer option within its bounds (None: not given)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{option} must be a whole number (got {value!r})")
    if value < minimum:
        raise InputError(f"{option} must be at least {minimum:,} (got {value:,})")
    if value > maximum:
        raise InputError(f"{option} must be at most {maximum:,} (got {value:,})")


def _check_common(games: int, seed: int, workers: int | None, games_option: str = "--games") -> None:
    check_count(games_option, games)
    check_count("--seed", seed, minimum=0, maximum=MAX_SEED)
    check_count("--workers", workers, maximum=1024)


def load_rules(rules: RuleSpec = "standard", overrides: Mapping[str, Any] | Sequence[str] | None = None,
               players: int | None = None) -> tuple[str, Rules]:
    """(name, Rules) of a preset name, rule file or Rules value, overrides and players applied."""
    check_count("--players", players, minimum=2, maximum=MAX_PLAYERS)
    given = override_dict(overrides)
    if isinstance(rules, Rules):
        values = {k: parse_value(k, v) for k, v in given.items()}
        if players is not None:
            values["players"] = players
        return "custom", rules.with_overrides(values)
    spec = str(rules)
    return presets.find(spec).name, presets.load(spec, given, players)


def override_dict(overrides: Mapping[str, Any] | Sequence[str] | None) -> dict[str, Any]:
    """Overrides as {knob: value}: a dict as is, `KNOB=VALUE` texts split (a knob given twice
    is an error naming it)."""
    if isinstance(overrides, Mapping):
        return dict(overrides)
    return dict(parse_assignments(list(overrides or [])))


def _unique_names(names: list[str]) -> list[str]:
    """Names made unique with -2, -3, ... (never colliding with another given name)."""
    taken = set(names)
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        if seen[name] == 1:
            out.append(name)
            continue
        k = seen[name]
        while f"{name}-{k}" in taken:
            k += 1
        seen[name] = k
        taken.add(f"{name}-{k}")
        out.append(f"{name}-{k}")
    return out


def _shell_word(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _spec_text(rules: RuleSpec) -> str:
    return "standard" if isinstance(rules, Rules) else str(rules)


def _rule_args(rules: RuleSpec, overrides: Mapping[str, Any] | Sequence[str] | None) -> list[str]:
    """`--set KNOB=VALUE` words of the overrides; a Rules value becomes its knobs away from the
    defaults on top of standard."""
    from ..output.tables import fmt_value

    given = override_dict(overrides)
    if isinstance(rules, Rules):
        given = {k: v for k, v in rules.as_dict().items() if v != BY_NAME[k].default} | given
    return [word for k, v in given.items() for word in ("--set", f"{k}={fmt_value(v)}")]


def command_line(command: str, specs: Sequence[RuleSpec], options: Sequence[str]) -> str:
    """The `uno-sim ...` command that reproduces a result, quoted for a POSIX shell."""
    words = ["uno-sim", command, *(_spec_text(s) for s in specs), *options]
    return " ".join(_shell_word(w) for w in words)


def _common_options(count_option: str, count: int, players: int | None, bots: str | None, seed: int,
                    rules: RuleSpec, overrides, rotate_seats: bool = False) -> list[str]:
    words = [count_option, str(count), "--seed", str(seed)]
    if players is not None:
        words += ["--players", str(players)]
    if bots is not None:
        words += ["--bots", bots]
    words += _rule_args(rules, overrides)
    if rotate_seats:
        words.append("--rotate-seats")
    return words


def _open_checkpoint(path: str | Path | None, command: str, units: Callable[[], list[dict]]) -> Any:
    if path is None:
        return None
    from ..running.checkpoint import Checkpoint

    return Checkpoint.open(path, command, units())


def _cluster(text: str | None) -> Any:
    from ..running.cluster import parse_cluster

    return parse_cluster(text)
