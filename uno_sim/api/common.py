"""What every command's API shares: the checks of counts and rules, rule loading, unique
names, the `uno-sim ...` command line that reproduces a result, and opening a cluster or a
checkpoint."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..game import presets
from ..game.errors import BadInput, InputError
from ..game.knobs import BY_NAME, MAX_PLAYERS
from ..game.rules import Rules, parse_assignments

MAX_GAMES = 10**12  # games (or matches) per variant: far beyond a day's run, well inside int64 counts
MAX_SEED = 2**63 - 1
# Defaults of sweep and design that their command-line options show too (kept here, so that the
# command line's --help does not load those modules for them)
DEFAULT_FAIR_WITHIN = 1.0  # percentage points: the first-player edge's 95% interval within +-this is "fair"
DEFAULT_TOP = 10  # fair grid points listed
DEFAULT_MAX_GAMES = 2_000_000  # a design's whole budget of games

RuleSpec = str | Path | Rules


# Command-line options named in BadInput messages, and the API parameter each one is (the others
# are the option with "-" as "_": --games is games, --rotate-seats rotate_seats).
PARAMETER_OF_OPTION = {"set": "overrides", "constraint": "constraints", "metric": "metrics", "parquet": "per_game", "all_metrics": "all_metrics"}
_OPTION = re.compile(r"(?<![\w-])--([a-z][a-z-]*)")


def python_terms(message: str) -> str:
    """A BadInput message in the API's words: each `--option` as its parameter name, and
    `uno-sim rules` (the knob list) as `uno_sim.KNOBS`."""
    def name(match: re.Match) -> str:
        option = match.group(1).replace("-", "_")
        return PARAMETER_OF_OPTION.get(option, option)

    return _OPTION.sub(name, message).replace("`uno-sim rules`", "uno_sim.KNOBS")


# The parameters several API functions share, documented once (numpy style, as a function's
# docstring writes them). A docstring names one by a line `$name` in its Parameters section
# (`shared_parameters` fills it in); `$raises_bad_input` is the Raises section they share.
SHARED_PARAMETERS = {
 "players": "players : int, optional\n    Seats at the table, 2 to 10 (default None: the rule set's own, 4 for the presets).\n",
 "workers": "workers : int, optional\n    Threads to play on (default None: every core).\n",
 "bots": 'bots : str or list of str, optional\n    One bot per seat, or one for every seat: ``"expert,random,random,random"`` or\n    ``["expert", "random", "random", "random"]``; parameters after colons\n    (``"random:forget_uno=0.3"``; docs/BOTS.md). Default None: ``random`` in every seat.\n',
 "seed": "seed : int, default 0\n    The run's seed: the same seed plays the same games (0 to 2**63 - 1).\n",
 "overrides": 'overrides : dict or list of str, optional\n    Knob values applied on top of the rule set: ``{"hand_size": 5}`` or\n    ``["hand_size=5"]`` (``uno_sim.KNOBS`` lists the knobs). Default None.\n',
 "cluster": 'cluster : str, optional\n    A Dask scheduler address (``"tcp://host:8786"``) or ``"local"`` / ``"local:N"``: the\n    same numbers, played by a cluster\'s workers. Default None: threads here.\n',
 "checkpoint": "checkpoint : str or Path, optional\n    A folder keeping every finished chunk; the same call after an interruption continues\n    where it stopped. Default None.\n",
 "rotate_seats": "rotate_seats : bool, default False\n    Move the bots one seat on every game, so that each bot plays every seat equally often.\n",
 "max_games": "max_games : int, optional\n    With `precision`: the games of the last look, reported when the targets were not met\n    by then. Default None: 10,000,000.\n",
 "raises_bad_input": "Raises\n------\nBadInput\n    Any bad argument, before anything is played; the message names the parameter.\n",
}
_PLACEHOLDER = re.compile(r"^( *)\$(\w+) *$", re.M)


def shared_parameters(function):
    """Fill each `$name` line of `function`'s docstring with SHARED_PARAMETERS[name], indented
    as the line was (an unknown name is a programming error: KeyError at import)."""
    def fill(match: re.Match) -> str:
        pad, name = match.groups()
        return "".join(pad + line if line.strip() else line for line in SHARED_PARAMETERS[name].splitlines(True)).rstrip("\n")

    function.__doc__ = _PLACEHOLDER.sub(fill, function.__doc__ or "")
    return function


def speaks_python(function):
    """A public API function whose BadInput messages name its parameters, not the command
    line's options (the command line calls the prepare_* functions, which keep them)."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except BadInput as exc:
            if exc.args and isinstance(exc.args[0], str):
                exc.args = (python_terms(exc.args[0]), *exc.args[1:])
            raise

    return wrapper


def bots_text(bots: str | Sequence[str] | None) -> str | None:
    """Bots as the command line's comma text: a list `["expert", "random"]` joined."""
    if bots is None or isinstance(bots, str):
        return bots
    if isinstance(bots, Sequence) and all(isinstance(b, str) for b in bots):
        if not bots:
            raise InputError("--bots is an empty list; name one bot for every seat, or one for all seats")
        return ",".join(bots)
    raise InputError(f"--bots must be a text like 'expert,random' or a list of bot names (got {bots!r})")


def rule_specs(specs: RuleSpec | Sequence[RuleSpec], option: str) -> list[RuleSpec]:
    """Rule sets given as a list, or one text of comma-separated presets or rule files
    ("standard,stacking"), or a single Path or Rules value."""
    if isinstance(specs, str):
        return [part.strip() for part in specs.split(",")]
    if isinstance(specs, (Path, Rules)):
        return [specs]
    if not isinstance(specs, Sequence):
        raise InputError(f"{option} must be a list of presets, rule files or Rules values (got {specs!r})")
    return list(specs)


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
               players: int | None = None, *, to_play: bool = True) -> tuple[str, Rules]:
    """A rule set by name, file or value, with overrides and a player count applied.

    Parameters
    ----------
    rules : str, Path or Rules, default "standard"
        A built-in preset name, the path of a TOML rule file, or a ``Rules`` value.
    overrides : dict or list of str, optional
        Knob values applied on top: ``{"hand_size": 5}`` or ``["hand_size=5"]``
        (``uno_sim.KNOBS`` lists the knobs). Default None.
    players : int, optional
        Seats at the table, 2 to 10 (default None: the rule set's own).
    to_play : bool, default True
        False accepts a deck this version shows but does not play (a two-sided deck, a Wild
        Draw Colour card): for the commands that only describe a rule set.

    Returns
    -------
    tuple of (str, Rules)
        The rule set's name (``"custom"`` for a Rules value) and the checked rules.

    Raises
    ------
    BadInput
        An unknown preset, a bad rule file, knob or value; the message names it.

    Examples
    --------
    >>> import uno_sim
    >>> name, rules = uno_sim.load_rules("stacking", {"hand_size": 5})
    >>> rules.hand_size
    5
    """
    check_count("--players", players, minimum=2, maximum=MAX_PLAYERS)
    return presets.load_rule_set(rules, override_dict(overrides), players, to_play=to_play)


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


def check_python_bots(bots: Sequence[Any], cluster: Any = None) -> None:
    """`python:...` bots (docs/BOTS.md, "Your own bot in Python"): each policy loads (else a
    BadInput naming it); they play in this process, so not on a cluster, and not beside the
    search bot (whose rollouts would replay them)."""
    python = [b for b in bots if b.python]
    if not python:
        return
    if cluster is not None:
        raise BadInput("python: bots play in this process; --cluster cannot run them")
    if any(b.name == "search" for b in bots):
        raise BadInput("the search bot cannot play beside a python: bot (its rollouts would replay the policy)")
    from ..env.policies import load_policy

    for bot in python:
        load_policy(bot.python)


def recorded_command(folder: Path) -> tuple[list[str], str]:
    """(argv, cwd) a checkpoint folder records (`uno-sim resume`); BadInput naming the problem."""
    from ..running.checkpoint import recorded_command as read

    return read(Path(folder))
