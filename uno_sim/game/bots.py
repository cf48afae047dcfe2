"""Bot names and parameters -> the integer codes and float rows the kernel reads (docs/BOTS.md).

A bot spec names one bot per seat, separated by commas; a single entry means every seat;
parameters follow the name after colons:

    random                                   every seat plays `random`
    random,random:forget_uno=0.3,random      three seats, the second forgets UNO 30% of the time
    random:forget_uno=0.1:jump_in_prob=0.5   every seat, two parameters

Parameters are probabilities (`forget_uno`, ...), whole numbers (`search:rollouts=200`) or
choices (`search:rollout_policy=random`); see PARAMS. Every error is a `BotError` (a
ValueError) whose message names the offending bot, parameter or value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import BadInput
from .packing import fixed_point

if TYPE_CHECKING:  # numpy only where the bots are packed: the command line's --help reads this table
    import numpy as np


class BotError(BadInput):
    """Bad bot input; the message names the bot, parameter or value."""


# The bot table: every bot the project knows; its kernel code is its position (engine/layout.py
# BOT). The engine declares how it plays each one (engine/bots/dispatch.py STYLE) and refuses to
# import when a bot here is missing there.
BOT_NAMES = ("random", "greedy", "expert", "bluffer", "search", "pro")
BOT_CODES: dict[str, int] = {name: code for code, name in enumerate(BOT_NAMES)}

# Bot parameters, in the kernel's column order (one int64 row per seat), and the choices of the
# search bot's choice parameters (index = packed value).
BOT_PARAMS = ("forget_uno", "challenge_prob", "bluff_prob", "jump_in_prob", "rollouts", "rollout_policy", "objective",
              "sees", "endgame", "infer")
ROLLOUT_POLICIES = ("random", "greedy", "expert", "pro")
OBJECTIVES = ("win", "points")
# What the search's determinizations are: `fair` deals the cards it cannot see at random
# (what a player may know); `all` plays the true hidden hands and draw pile, `hands` the true
# hands with the draw pile shuffled (cheats, only for measuring what hidden information costs
# the search; never a default).
SEES = ("fair", "all", "hands")
# What a fair search infers the hidden hands from: `draws` (the cards a player was seen to lack
# when it drew), `plays` (also that each player would have taken its last turn kept, by the
# rollout policy's rules, holding the hand dealt to it) or `history` (the same for every turn,
# plays and one-card draws, a player took since its hand last changed unseen, up to the last
# eight; engine/seen_plays.py).
INFERS = ("draws", "plays", "history")

# Bots the engine plays (docs/BOTS.md describes each).
IMPLEMENTED: frozenset[str] = frozenset(BOT_CODES)

# "Not set": expert, bluffer and search then decide challenges by their own odds rule
# (docs/BOTS.md). Packed as a negative fixed-point value, which the kernel reads as "use your
# own rule".
AUTO = -1.0

DEFAULT_ROLLOUTS = 100
MAX_ROLLOUTS = 100_000
MAX_ENDGAME = 1_000  # `endgame` beyond any hand: the same as 0 (search every turn)
# The search searches only once some hand holds at most this many cards (pro's choice before):
# as strong as searching every turn against pro, measured, and several times faster
# (docs/BOTS.md, "Searching near the end only"); `endgame=0` searches every turn.
DEFAULT_ENDGAME = 2


@dataclass(frozen=True)
class Param:
    """One bot parameter: a probability in [0, 1] (packed as fixed point), a whole number in
    [low, high] (packed as is) or one of `choices` (packed as its index). `only`: the bots
    that take it (empty: every bot)."""

    name: str
    kind: str  # "prob", "int" or "choice"
    default: float | int | str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    only: tuple[str, ...] = ()

    def parse(self, bot: str, text: str) -> float | int | str:
        text = text.strip()
        if self.kind == "choice":
            if text not in self.choices:
                raise BotError(f"bad value {text!r} for bot parameter {self.name!r}: "
                               f"expected one of {', '.join(self.choices)}")
            return text
        if self.kind == "int":
            try:
                number = int(text)
            except ValueError:
                raise BotError(f"bad value {text!r} for bot parameter {self.name!r}: expected a whole number") from None
            if not self.low <= number <= self.high:
                raise BotError(f"bad value {text!r} for bot parameter {self.name!r}: "
                               f"must be between {self.low:,} and {self.high:,}")
            return number
        try:
            number = float(text)
        except ValueError:
            raise BotError(f"bad value {text!r} for bot parameter {self.name!r}: expected a number") from None
        if not 0.0 <= number <= 1.0:  # also rejects nan
            raise BotError(f"bad value {text!r} for bot parameter {self.name!r}: must be a probability between 0 and 1")
        return number

    def pack(self, value: float | int | str) -> int:
        if self.kind == "choice":
            return self.choices.index(str(value))
        if self.kind == "int":
            return int(value)
        return fixed_point(float(value))

    def text(self, value: float | int | str) -> str:
        return f"{value:g}" if self.kind == "prob" else str(value)

    def takes(self, bot: str) -> bool:
        return not self.only or bot in self.only


# Every parameter, in the kernel's column order (BOT_PARAMS).
PARAMS: dict[str, Param] = {p.name: p for p in (
    Param("forget_uno", "prob", 0.0),
    Param("challenge_prob", "prob", 0.0),
    Param("bluff_prob", "prob", 0.0, only=("random", "greedy", "expert", "bluffer", "pro")),  # search never bluffs
    Param("jump_in_prob", "prob", 1.0),
    Param("rollouts", "int", DEFAULT_ROLLOUTS, low=1, high=MAX_ROLLOUTS, only=("search",)),
    Param("rollout_policy", "choice", "pro", choices=ROLLOUT_POLICIES, only=("search",)),
    Param("objective", "choice", "win", choices=OBJECTIVES, only=("search",)),
    Param("sees", "choice", "fair", choices=SEES, only=("search",)),
    Param("endgame", "int", DEFAULT_ENDGAME, low=0, high=MAX_ENDGAME, only=("search",)),
    Param("infer", "choice", "history", choices=INFERS, only=("search",)),
)}
assert tuple(PARAMS) == BOT_PARAMS, "bots.PARAMS must list BOT_PARAMS in order"

# Column of each parameter in the row; the defaults every bot starts from.
PARAM_INDEX: dict[str, int] = {name: i for i, name in enumerate(BOT_PARAMS)}
PARAM_DEFAULTS: dict[str, float | int | str] = {name: p.default for name, p in PARAMS.items()}

# Per-bot defaults where a bot differs from PARAM_DEFAULTS (docs/BOTS.md).
BOT_PARAM_DEFAULTS: dict[str, dict[str, float]] = {
    "random": {},
    "greedy": {},
    "expert": {"challenge_prob": AUTO},
    "bluffer": {"challenge_prob": AUTO, "bluff_prob": 0.5},
    "pro": {"challenge_prob": AUTO},
    "search": {},  # never challenges: in its model the others play the rollout policy, which never bluffs
}

DEFAULT_BOT = "random"
# The bot whose win rate against players - 1 random bots (seats rotated) is the skill index of
# `--skill` and the designer's skill_index: the strongest bot fast enough for 200,000 games a
# rule set (pro beats expert on every preset; search, with its defaults, plays hundreds of games a second,
# some 80 times fewer; docs/BOTS.md).
SKILL_BOT = "pro"
# The bots of a tournament unless told otherwise: every built-in bot fast enough to play every
# table of a tournament (not search).
TOURNAMENT_BOTS = "random,greedy,expert,bluffer,pro"


def default_param(name: str, key: str) -> float | int | str:
    """Bot `name`'s value of parameter `key` when the spec does not set it (AUTO: own rule)."""
    return BOT_PARAM_DEFAULTS.get(name, {}).get(key, PARAM_DEFAULTS[key])


def bot_params(name: str) -> list[str]:
    """The parameters bot `name` takes."""
    return [key for key, p in PARAMS.items() if p.takes(name)]


@dataclass(frozen=True)
class Bot:
    """One seat's policy: a bot name and the parameters set explicitly (others default)."""

    name: str
    params: dict[str, float | int | str] = field(default_factory=dict)
    # `python:TARGET`: a Python policy (uno_sim/env/policies.py load_policy reads TARGET,
    # MODULE:CALLABLE or path/file.py:CALLABLE); the engine seats it as `random` with the
    # random bot's parameters for what it does not ask
    python: str = ""

    @property
    def code(self) -> int:
        return BOT_CODES[self.name]

    def param(self, key: str) -> float | int | str:
        """The parameter's value: the one set, else the bot's default (maybe AUTO)."""
        return self.params.get(key, default_param(self.name, key))

    @property
    def label(self) -> str:
        """Name plus the parameters that differ from their defaults, in the spec syntax."""
        if self.python:
            return f"{PYTHON_PREFIX}{self.python}"
        extra = [
            f"{key}={PARAMS[key].text(value)}"
            for key, value in sorted(self.params.items())
            if value != default_param(self.name, key)
        ]
        return ":".join([self.name, *extra])

    def __str__(self) -> str:
        return self.label


PYTHON_PREFIX = "python:"


def parse_bot(text: str) -> Bot:
    """One seat's entry: `name` or `name:param=value:param=value`, or `python:TARGET`."""
    if text.strip().startswith(PYTHON_PREFIX):
        target = text.strip()[len(PYTHON_PREFIX):]
        module, sep, name = target.rpartition(":")
        if not sep or not module or not name:
            raise BotError(f"bad bot entry {text.strip()!r}: expected python:MODULE:CALLABLE or "
                           "python:path/to/file.py:CALLABLE")
        return Bot("random", {}, python=target)
    parts = [part.strip() for part in text.split(":")]
    name = parts[0]
    if not name:
        raise BotError(f"bad bot entry {text.strip()!r}: missing bot name")
    if name not in BOT_CODES:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(BOT_CODES)})")
    if name not in IMPLEMENTED:
        raise BotError(f"bot {name!r} is not implemented yet (available: {', '.join(sorted(IMPLEMENTED))})")
    params: dict[str, float | int | str] = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotError(f"bad parameter {part!r} for bot {name!r}: expected PARAM=VALUE")
        if key not in PARAMS or not PARAMS[key].takes(name):
            raise BotError(f"unknown parameter {key!r} for bot {name!r} (known: {', '.join(bot_params(name))})")
        if key in params:
            raise BotError(f"parameter {key!r} given twice for bot {name!r}")
        params[key] = PARAMS[key].parse(name, value)
    return Bot(name, params)


def parse_bots(spec: str | None, players: int) -> list[Bot]:
    """One Bot per seat from a spec like `random,random:forget_uno=0.3` (None: all random)."""
    if spec is None:
        return [Bot(DEFAULT_BOT) for _ in range(players)]
    entries = spec.split(",")
    if len(entries) == 1:
        bot = parse_bot(entries[0])
        return [bot for _ in range(players)]
    if len(entries) != players:
        raise BotError(
            f"--bots names {len(entries)} bots for {players} players "
            "(give one per seat, or a single bot for every seat)"
        )
    return [parse_bot(entry) for entry in entries]


def pack_bots(bots: list[Bot]) -> tuple[np.ndarray, np.ndarray]:
    """(codes int64[P], params int64[P, N_BOT_PARAMS]) for the kernel; probabilities as
    fixed-point thresholds (packing.fixed_point; AUTO packs as a negative value), whole numbers
    as they are, choices as their index."""
    import numpy as np

    codes = np.array([bot.code for bot in bots], dtype=np.int64)
    params = np.zeros((len(bots), len(BOT_PARAMS)), dtype=np.int64)
    for seat, bot in enumerate(bots):
        for key, column in PARAM_INDEX.items():
            params[seat, column] = PARAMS[key].pack(bot.param(key))
    return codes, params


def describe(bots: list[Bot]) -> str:
    """Short text for titles: `random x4` or `random, random:forget_uno=0.3, ...`."""
    labels = [bot.label for bot in bots]
    if len(set(labels)) == 1:
        return f"{labels[0]} x{len(labels)}"
    return ", ".join(labels)
