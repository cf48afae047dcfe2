"""Per-game records (docs/RULES.md, "The per-game record"): kernel record rows -> dicts and DataFrames with the pinned columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..engine import layout as L

if TYPE_CHECKING:  # pandas where the per-game table is made
    import pandas as pd

# The per-game columns (pinned names and order) that come straight from the record row,
# before points_i and cards_i; each is a column of the record of the same name (layout.RECORD).
RECORD_COLUMNS = ("winner", "reason", "turns", "plays", "draws", "reshuffles", "max_pending", "challenges",
                "winner_points", "knockouts")
_FIXED = tuple((name, L.RECORD_COLUMN[name]) for name in RECORD_COLUMNS)
# A two-sided deck's games (UNO Flip) have two more, after knockouts: the flips and the side in
# play at the end (`light` / `dark`).
SIDES = ("light", "dark")


def columns(players: int, two_sided: bool = False) -> list[str]:
    """The per-game column names for a table of `players` seats, in order."""
    return (
        ["game"]
        + [name for name, _ in _FIXED]
        + (["flips", "side"] if two_sided else [])
        + [f"points_{i}" for i in range(players)]
        + [f"cards_{i}" for i in range(players)]
    )


def record_dict(row: np.ndarray, players: int, game: int, two_sided: bool = False) -> dict:
    """One game's per-game record; `reason` (and a two-sided game's `side`) as text."""
    rec: dict = {"game": int(game)}
    for name, col in _FIXED:
        rec[name] = int(row[col])
    rec["reason"] = L.REASONS[rec["reason"]]
    if two_sided:
        rec["flips"] = int(row[L.COL_FLIPS])
        rec["side"] = SIDES[int(row[L.COL_SIDE])]
    for i in range(players):
        rec[f"points_{i}"] = int(row[L.COL_POINTS + i])
    for i in range(players):
        rec[f"cards_{i}"] = int(row[L.COL_CARDS + i])
    return rec


def records_frame(rows: np.ndarray, players: int, first_game: int, two_sided: bool = False) -> pd.DataFrame:
    """Per-game table of a chunk of record rows (games first_game, first_game+1, ...)."""
    import pandas as pd

    data: dict = {"game": np.arange(first_game, first_game + len(rows), dtype=np.int64)}
    for name, col in _FIXED:
        data[name] = rows[:, col]
    data["reason"] = np.asarray(L.REASONS, dtype=object)[rows[:, L.COL_REASON]]
    if two_sided:
        data["flips"] = rows[:, L.COL_FLIPS]
        data["side"] = np.asarray(SIDES, dtype=object)[rows[:, L.COL_SIDE]]
    for i in range(players):
        data[f"points_{i}"] = rows[:, L.COL_POINTS + i]
    for i in range(players):
        data[f"cards_{i}"] = rows[:, L.COL_CARDS + i]
    return pd.DataFrame(data, columns=columns(players, two_sided))
