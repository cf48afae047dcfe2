"""The options the commands share, declared once (Typer `Annotated` types)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

Preset = Annotated[
    str,
    typer.Argument(metavar="PRESET", show_default=False,
                   help="A built-in preset (see `uno-sim presets`) or a path to a TOML rule file."),
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
Bots = Annotated[
    Optional[str],
    typer.Option("--bots", metavar="B1,B2,...", show_default=False,
                 help="One bot per seat, or one for every seat; parameters after colons, "
                      "e.g. random:forget_uno=0.3. Bots: random, greedy, expert, bluffer, search. Default: random."),
]
Seed = Annotated[int, typer.Option("--seed", help="Random seed (>= 0); the same seed gives the same numbers.")]
Workers = Annotated[
    Optional[int], typer.Option("--workers", show_default=False, help="Threads to use (default: all cores).")
]
Out = Annotated[
    Optional[Path],
    typer.Option("--out", show_default=False, help="Output folder (default: a new folder under reports/)."),
]
Force = Annotated[
    bool,
    typer.Option("--force", help="Write into an existing non-empty --out folder, replacing uno-sim's files there."),
]
RotateSeats = Annotated[
    bool,
    typer.Option("--rotate-seats",
                 help="Play each deal once per seat rotation (game i: deal i // players, bots shifted by "
                      "i % players), so seat advantage does not bias per-bot win rates."),
]
PerGame = Annotated[bool, typer.Option("--per-game", help="Also write the per-game rows as CSV.")]
Parquet = Annotated[bool, typer.Option("--parquet", help="Also write the per-game rows as Parquet (needs pyarrow).")]
Skill = Annotated[
    bool,
    typer.Option("--skill",
                 help="Also play as many games of one expert against random bots (seats rotated) and report the "
                      "skill index: the expert's win rate minus 1/n (metric skill_index)."),
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
