"""Every option (and argument) that more than one command has, declared once as a Typer
`Annotated` type; where commands give one a different help text (--games, --set in compare,
...), each text is declared here too.

A command names the shared options it takes as bare parameters, in the order its --help lists
them, and `shared_options` gives each its declaration and default from `SHARED`:

    @O.shared_options
    def run(preset, *, games: O.Games = 100_000, players, bots, seed, ...) -> None:

Parameters with an annotation (a command's own options, or a variant from here) keep theirs.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer
import typer.core

from ..game.bots import SKILL_BOT


def _flags_take_no_value() -> None:
    """Typer (0.29) shows a flag's type in --help as if it took a value (`--force <bool>`,
    `--help <bool>`), though `--force true` is refused: a flag (every bool option here, and
    --help) shows no type column."""
    option = getattr(typer.core, "TyperOption", None)
    show = getattr(option, "display_type_rich", None)
    if show is None or getattr(show, "_flags_plain", False):
        return

    def display_type_rich(self, ctx):
        if getattr(self, "is_flag", False) and self.metavar is None:
            return None
        return show(self, ctx)

    display_type_rich._flags_plain = True
    option.display_type_rich = display_type_rich


_flags_take_no_value()

Preset = Annotated[
    str,
    typer.Argument(metavar="PRESET", show_default=False,
                   help="A built-in preset (see `uno-sim presets`) or a path to a TOML rule file."),
]
OptionalPreset = Annotated[  # sweep: the rule set may be what is varied
    Optional[str],
    typer.Argument(metavar="[PRESET]", show_default=False,
                   help="A built-in preset or a path to a TOML rule file; leave it out with "
                        "--vary preset=A,B,..."),
]
Players = Annotated[
    Optional[int],
    typer.Option("--players", show_default=False, help="Number of players (2-10); default from the preset."),
]
Overrides = Annotated[
    Optional[list[str]],
    typer.Option("--set", metavar="KNOB=VALUE", show_default=False,
                 help="Override a rule knob (repeatable; `uno-sim rules` lists the knobs)."),
]
OverridesInEveryVariant = Annotated[  # compare
    Optional[list[str]],
    typer.Option("--set", metavar="KNOB=VALUE", show_default=False,
                 help="Override a rule knob in every variant (repeatable)."),
]
Bots = Annotated[
    Optional[str],
    typer.Option("--bots", metavar="B1,B2,...", show_default=False,
                 help="One bot per seat, or one for every seat; parameters after colons, "
                      "e.g. random:forget_uno=0.3. Bots: random, greedy, expert, bluffer, search, pro, or your own "
                      "policy as python:MODULE:CALLABLE or python:path/to/file.py:CALLABLE. Default: random."),
]
DistinctBots = Annotated[  # tournament: the bots compared, not the seats
    str,
    typer.Option("--bots", metavar="B1,B2,...",
                 help="Two or more distinct bots (parameters after colons, e.g. expert:challenge_prob=0)."),
]
Seed = Annotated[int, typer.Option("--seed", help="Random seed (>= 0); the same seed gives the same numbers.")]
Workers = Annotated[
    Optional[int], typer.Option("--workers", show_default=False, help="Threads to use (default: all cores).")
]
Out = Annotated[
    Optional[Path],
    typer.Option("--out", show_default=False, help="Output folder (default: a new folder under reports/)."),
]
OutFile = Annotated[  # trace: one file, or standard output
    Optional[Path],
    typer.Option("--out", show_default=False,
                 help="Output file (default, or `-`: standard output). A device, FIFO or open "
                      "descriptor (/dev/stdout, /dev/fd/N) is written directly, appending after >>."),
]
Force = Annotated[
    bool,
    typer.Option("--force", help="Write into an existing non-empty --out folder, replacing uno-sim's files there."),
]
ForceFile = Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")]  # trace
RotateSeats = Annotated[
    bool,
    typer.Option("--rotate-seats",
                 help="Play each deal once per seat rotation (game i: deal i // players, bots shifted by "
                      "i % players), so seat advantage does not bias per-bot win rates."),
]
RotateSeatsInMatches = Annotated[  # match: the seating changes between rounds
    bool,
    typer.Option("--rotate-seats",
                 help="Change the seating every PLAYERS rounds, through every seating up to rotation and "
                      "reflection (with 4 players: each partner pairing for 4 rounds); scores and match win "
                      "rates per player (the i-th bot), so the results are seat-fair."),
]


def _games(help: str) -> Any:
    return Annotated[int, typer.Option("--games", help=help)]


Games = _games("Number of games to simulate.")  # run
GamesPerVariant = _games("Games per variant.")  # compare
GamesPerPoint = _games("Games per value (grid point).")  # sweep
GamesToTrace = _games("Number of games to trace.")  # trace
GamesPerBenchRun = _games("Games per run.")  # bench

Precision = Annotated[  # run, compare
    Optional[list[str]],
    typer.Option("--precision", metavar="METRIC=HALF_WIDTH", show_default=False,
                 help="Play until this metric's interval (compare: every difference's) is at most +-HALF_WIDTH "
                      "instead of a fixed --games (repeatable; rates as fractions or with pp: "
                      "first_player_edge=0.3pp). Games are played in looks of 10,000, 20,000, 40,000, ... and the "
                      "intervals widened so that stopping early keeps 95% coverage."),
]
PrecisionPerPoint = Annotated[  # sweep
    Optional[list[str]],
    typer.Option("--precision", metavar="METRIC=HALF_WIDTH", show_default=False,
                 help="Play every grid point until this metric's interval is at most +-HALF_WIDTH at all of them, "
                      "instead of a fixed --games (repeatable; rates as fractions or with pp). The points are "
                      "played together in looks of 10,000, 20,000, 40,000, ... games, the intervals widened so "
                      "that stopping early keeps 95% coverage."),
]
MaxGames = Annotated[
    Optional[int],
    typer.Option("--max-games", metavar="N", show_default=False,
                 help="With --precision: stop at N games (a variant, a grid point) even if a target is not "
                      "met (default 10,000,000)."),
]


def given_on_command_line(option: str) -> bool:
    """Whether `option` (`--games`) was typed on the command line being run, not defaulted."""
    from . import session

    words = session.argv() or []
    if "--" in words:
        words = words[: words.index("--")]
    return any(w == option or w.startswith(option + "=") for w in words)


def check_games_or_precision(precision) -> None:
    """--games and --precision both say how many games to play: one of them."""
    from ..game.errors import BadInput

    if precision and given_on_command_line("--games"):
        raise BadInput("--games and --precision both set how many games to play; give one of them "
                       "(--max-games caps a --precision run)")


PerGame = Annotated[bool, typer.Option("--per-game", help="Also write OUT/games.csv (one row per game).")]
Parquet = Annotated[bool, typer.Option("--parquet", help="Also write OUT/games.parquet (needs pyarrow).")]
PerGameVariants = Annotated[bool, typer.Option("--per-game", help="Also write OUT/games-VARIANT.csv per variant.")]
ParquetVariants = Annotated[
    bool, typer.Option("--parquet", help="Also write OUT/games-VARIANT.parquet (needs pyarrow).")
]
Skill = Annotated[
    bool,
    typer.Option("--skill",
                 help=f"Also play as many games of one {SKILL_BOT} (the strongest bot fast enough for many games) "
                      f"against random bots (seats rotated) and report the skill index: the {SKILL_BOT}'s win rate "
                      "minus 1/n (metric skill_index; compare draws it in skill_index.png)."),
]
# Help texts are rich markup: a literal "[word]" needs a backslash before its "[".
Cluster = Annotated[
    Optional[str],
    typer.Option("--cluster", metavar="ADDRESS|local[:N]", show_default=False,
                 help="Play on a Dask cluster: a scheduler address (tcp://HOST:8786), or local[:N] to start N "
                      "worker processes here (default one per core). Same numbers as on threads. Needs "
                      "pip install 'uno-sim\\[cluster]'."),
]
Checkpoint = Annotated[
    Optional[Path],
    typer.Option("--checkpoint", metavar="DIR", show_default=False,
                 help="Keep every finished chunk in DIR; a stopped run continues from there "
                      "(`uno-sim resume DIR`, or the same command again) with the same numbers."),
]
Json = Annotated[
    bool,
    typer.Option("--json", help="Print the headline and the summary as JSON on standard output, and nothing else "
                                "there (progress and the files written go to standard error)."),
]

REQUIRED = inspect.Parameter.empty

# A command's bare parameter of one of these names is this option, with this default.
SHARED: dict[str, tuple[Any, Any]] = {
    "preset": (Preset, REQUIRED),
    "players": (Players, None),
    "bots": (Bots, None),
    "seed": (Seed, 0),
    "set_": (Overrides, None),
    "workers": (Workers, None),
    "out": (Out, None),
    "force": (Force, False),
    "rotate_seats": (RotateSeats, False),
    "skill": (Skill, False),
    "as_json": (Json, False),
    "cluster": (Cluster, None),
    "checkpoint": (Checkpoint, None),
}


def shared_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The command, its bare parameters declared from SHARED (by name, in their place), for
    Typer to read. Typer passes every parameter by keyword, so all become keyword-only here
    (a default may then precede a parameter without one)."""
    signature = inspect.signature(command, eval_str=True)
    parameters = []
    for p in signature.parameters.values():
        if p.annotation is inspect.Parameter.empty:
            if p.name not in SHARED:
                raise TypeError(f"{command.__name__}: no shared option {p.name!r}; annotate it")
            annotation, default = SHARED[p.name]
            p = p.replace(annotation=annotation, default=default)
        parameters.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    command.__signature__ = signature.replace(parameters=parameters)
    command.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": signature.return_annotation}
    return command
