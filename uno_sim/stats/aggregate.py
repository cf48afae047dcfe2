"""Streaming aggregation of per-game record rows into counters and histograms.

The aggregator keeps integer counters and integer histograms only, never the rows, so a run
of 10^8 games needs a few kilobytes. Everything it holds is an exact integer, so the summary
is the same whatever the chunking, thread count or merge order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine import layout as L
from .histogram import IntHistogram

# Integer columns of the record kept as histograms over all games.
HIST_COLUMNS: dict[str, int] = {
    name: L.RECORD_COLUMN[name]
    for name in ("turns", "plays", "draws", "reshuffles", "max_pending", "challenges", "challenges_won", "jumps",
                 "swaps", "rotations", "uno_caught", "penalty_drawn", "stacks", "sum_jumps", "hand_sum_wins",
                 "wild_swaps", "uno_catchers", "knockouts", "mercy_win", "roulette_cards", "hand_shuffles", "flips",
                 "side", "draw_color_cards")
}
_HIST_COLUMN_INDEX = np.array(list(HIST_COLUMNS.values()), dtype=np.int64)


@dataclass
class Aggregate:
    """Everything a summary needs, streamed chunk by chunk from record arrays.

    Memory does not grow with the number of games: counters per seat and reason, and one
    integer histogram per record column (their width is the range of values seen, a few
    hundred to a few thousand bins), so 10^8 games take well under a megabyte.
    """

    players: int
    teams: int = 0
    games: int = 0
    wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    # rotate: seats rotate (--rotate-seats); bot_wins then counts the record's COL_WINNER_BOT
    # (the winner's --bots slot), else it equals wins (slot = seat).
    rotate: bool = False
    bot_wins: np.ndarray = field(default=None)  # type: ignore[assignment]
    reasons: np.ndarray = field(default=None)  # type: ignore[assignment]
    hists: dict[str, IntHistogram] = field(default_factory=dict)
    winner_points: IntHistogram = field(default_factory=IntHistogram)
    loser_points: IntHistogram = field(default_factory=IntHistogram)

    def __post_init__(self) -> None:
        if self.wins is None:
            self.wins = np.zeros(self.players, dtype=np.int64)
        if self.bot_wins is None:
            self.bot_wins = np.zeros(self.players, dtype=np.int64)
        if self.reasons is None:
            self.reasons = np.zeros(len(L.REASONS), dtype=np.int64)
        for name in HIST_COLUMNS:
            self.hists.setdefault(name, IntHistogram())

    def add(self, records: np.ndarray) -> None:
        """Fold in a block of records (int64[n, N_COLS])."""
        records = np.ascontiguousarray(records, dtype=np.int64)
        if records.ndim != 2 or records.shape[1] != L.N_COLS:
            raise ValueError(f"records must have shape (n, {L.N_COLS}), got {records.shape}")
        if len(records) == 0:
            return
        winner = records[:, L.COL_WINNER]
        if winner.min() < -1 or winner.max() >= self.players:
            raise ValueError("record winner outside -1..players-1")
        has_winner = winner >= 0
        self.games += len(records)
        self.wins += np.bincount(winner[has_winner], minlength=self.players)[: self.players]
        slot = records[:, L.COL_WINNER_BOT] if self.rotate else winner
        self.bot_wins += np.bincount(slot[has_winner], minlength=self.players)[: self.players]
        reason = records[:, L.COL_REASON]
        if reason.min() < 0 or reason.max() >= len(L.REASONS):
            raise ValueError("record reason outside the known reasons")
        self.reasons += np.bincount(reason, minlength=len(L.REASONS))
        from ..engine import binning  # (numba) here: unpickling or summarising an aggregate needs no compiler

        lows, highs = binning.column_ranges(records, _HIST_COLUMN_INDEX)
        widths = highs - lows + 1
        starts = np.concatenate(([0], np.cumsum(widths)[:-1]))
        counts = np.zeros(int(widths.sum()), dtype=np.int64)
        binning.count_columns(records, _HIST_COLUMN_INDEX, lows, starts, counts)
        for name, low, high, start in zip(HIST_COLUMNS, lows.tolist(), highs.tolist(), starts.tolist()):
            self.hists[name].add_counts(low, counts[start : start + high - low + 1])
        winner_points, loser_points = binning.round_points(
            records, self.players, self.teams, L.COL_WINNER, L.COL_WINNER_POINTS, L.COL_POINTS
        )
        self.winner_points.add(winner_points)
        self.loser_points.add(loser_points)

    def merge(self, other: "Aggregate") -> None:
        if other.players != self.players or other.teams != self.teams:
            raise ValueError("cannot merge aggregates with different player or team counts")
        if other.rotate != self.rotate:
            raise ValueError("cannot merge aggregates with and without seat rotation")
        self.games += other.games
        self.wins += other.wins
        self.bot_wins += other.bot_wins
        self.reasons += other.reasons
        for name in HIST_COLUMNS:
            self.hists[name].merge(other.hists[name])
        self.winner_points.merge(other.winner_points)
        self.loser_points.merge(other.loser_points)

    @property
    def no_winner(self) -> int:
        return self.games - int(self.wins.sum())

    def distribution(self, quantity: str) -> IntHistogram:
        """The histogram of one per-game quantity (see DISTRIBUTIONS)."""
        if quantity == "winner_points":
            return self.winner_points
        if quantity == "loser_points":
            return self.loser_points
        return self.hists[quantity]


# Quantities written to distributions.csv (one row per observed value).
DISTRIBUTIONS = ("turns", "plays", "draws", "winner_points", "loser_points", "max_pending", "stacks")
