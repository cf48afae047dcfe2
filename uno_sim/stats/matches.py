"""Match statistics (docs/RULES.md, "Matches"): the streaming aggregate and the tidy summary.

The rounds of a match are played inside the engine (engine/match.py), the matches in chunks
by running/matches.py; this module keeps their counters and histograms (never the rows) and
builds the tidy `match.csv` table: `variant, metric, value, ci_low, ci_high, games` where `games` is the
number of matches. Metric names: `match_win_rate_seat_{i}` (or `match_win_rate_team_{k}`),
`match_win_rate_bot_{label}`, `undecided_rate`, `tie_rate` (with `match_rounds`),
`match_loser_rate_seat_{i}` / `_team_{k}` / `_bot_{label}` (`loser_penalty`),
`mean_chips_seat_{i}`, `sd_chips_seat_{i}` / `_team_{k}` / `_bot_{label}` (`chips`),
`mean_rounds`, `median_rounds`, `p10_rounds`, `p90_rounds`, `maximum_rounds`, `mean_margin`,
`median_margin`, `comeback_rate`, `first_dealer_win_rate`, `mean_turns_per_round`,
`no_winner_round_rate`, `round_win_rate_seat_{i}`; with seats rotated `_player_{i}` instead of
the per-seat and per-team names.

A tied match (`match_rounds`) counts 1/k of a win for each of the k sides sharing it (and a
shared loss 1/k of a loss each): the win counts are kept exactly, in units of 1/SHARE_UNITS.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine import layout as L
from ..game.rules import Rules
from .histogram import IntHistogram
from .measures import Measure, mean_measure, rate_measure, spread_measures, summary_frame

SHARE_UNITS = 2520  # lcm(1..10): a win shared by k <= 10 sides is SHARE_UNITS // k units each


def side_shares(rows: np.ndarray, col: int, mask_col: int, sides: int) -> np.ndarray:
    """int64[len(rows), sides]: each row's share of `col` per side, in 1/SHARE_UNITS: a side
    alone gets SHARE_UNITS; sides tied (col == M_TIE, bits of mask_col) SHARE_UNITS // k each; -1
    (nobody) nothing."""
    who = rows[:, col]
    side = np.arange(sides)
    alone = who[:, None] == side[None, :]
    in_tie = (who[:, None] == L.M_TIE) & (((rows[:, mask_col][:, None] >> side[None, :]) & 1) == 1)
    k = np.maximum(in_tie.sum(axis=1), 1)
    return alone * SHARE_UNITS + in_tie * (SHARE_UNITS // k)[:, None]


@dataclass
class MatchAggregate:
    players: int
    teams: int = 0
    rotate: bool = False  # seats rotated: the sides are the players
    scoring: str = "winner_takes"  # the rules' match_scoring
    fixed_rounds: int = 0  # the rules' match_rounds
    matches: int = 0
    undecided: int = 0  # matches without a winner (the round limit)
    ties: int = 0  # matches whose win was shared (match_rounds)
    wins: np.ndarray = field(default=None)  # per side, in 1/SHARE_UNITS of a win; undecided matches count nowhere
    losses: np.ndarray = field(default=None)  # per side, in 1/SHARE_UNITS (loser_penalty: the highest total)
    chips: list = field(default=None)  # per side: histogram of the final chip totals (chips)
    round_wins: np.ndarray = field(default=None)  # per seat, or per player with seats rotated
    first_dealer_wins: int = 0  # in 1/SHARE_UNITS
    comebacks: int = 0
    rounds: IntHistogram = field(default_factory=IntHistogram)
    margins: IntHistogram = field(default_factory=IntHistogram)
    total_rounds: int = 0
    total_turns: int = 0
    no_winner_rounds: int = 0

    def __post_init__(self) -> None:
        self.sides = self.teams if self.side_name == "team" else self.players
        self.wins = np.zeros(self.sides, dtype=np.int64)
        self.losses = np.zeros(self.sides, dtype=np.int64)
        self.chips = [IntHistogram() for _ in range(self.sides)]
        self.round_wins = np.zeros(self.players, dtype=np.int64)

    @property
    def side_name(self) -> str:
        return "player" if self.rotate else "team" if self.teams else "seat"

    def add(self, rows: np.ndarray) -> None:
        self.matches += len(rows)
        winners = rows[:, L.M_WINNER]
        decided = winners != -1
        self.undecided += int(np.count_nonzero(~decided))
        self.ties += int(np.count_nonzero(winners == L.M_TIE))
        shares = side_shares(rows, L.M_WINNER, L.M_TIED, self.sides)
        self.wins += shares.sum(axis=0)
        if self.scoring == "loser_penalty":
            self.losses += side_shares(rows, L.M_LOSER, L.M_LOSER_TIED, self.sides).sum(axis=0)
        if self.scoring == "chips":
            for s in range(self.sides):
                self.chips[s].add(rows[:, L.M_TOTALS + s])
        self.round_wins += rows[:, L.M_ROUND_WINS : L.M_ROUND_WINS + self.players].sum(axis=0)
        dealer_side = rows[:, L.M_FIRST_DEALER]
        if self.side_name == "team":
            dealer_side = dealer_side % self.teams
        self.first_dealer_wins += int(shares[np.arange(len(rows)), dealer_side].sum())
        self.comebacks += int(rows[:, L.M_COMEBACK].sum())
        self.rounds.add(rows[:, L.M_ROUNDS])
        self.margins.add(rows[decided, L.M_MARGIN])
        self.total_rounds += int(rows[:, L.M_ROUNDS].sum())
        self.total_turns += int(rows[:, L.M_TURNS].sum())
        self.no_winner_rounds += int(rows[:, L.M_NO_WINNER_ROUNDS].sum())

    def merge(self, other: "MatchAggregate") -> None:
        """Add another aggregate of the same rules (exact: integer counts only)."""
        if (other.players, other.teams, other.rotate, other.scoring) != (self.players, self.teams, self.rotate,
                                                                          self.scoring):
            raise ValueError("cannot merge match aggregates of different rules")
        for name in ("matches", "undecided", "ties", "first_dealer_wins", "comebacks", "total_rounds", "total_turns",
                     "no_winner_rounds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wins += other.wins
        self.losses += other.losses
        self.round_wins += other.round_wins
        for mine, theirs in zip(self.chips, other.chips):
            mine.merge(theirs)
        self.rounds.merge(other.rounds)
        self.margins.merge(other.margins)

    @property
    def decided(self) -> int:
        return self.matches - self.undecided


def match_length(rules: Rules) -> str:
    """How a match of these rules ends, for titles: `to 500`, `of 10 rounds`, `to 500 or 10 rounds`."""
    if rules.match_scoring == "chips":
        return f"of {rules.match_rounds} rounds"
    if rules.match_rounds:
        return f"to {rules.target} or {rules.match_rounds} rounds"
    return f"to {rules.target}"


def match_measures(agg: MatchAggregate, bot_labels: list[str]) -> list[Measure]:
    """Every match metric, in report order (names in the module docstring), built by the same
    measure functions as the per-game metrics of a run."""
    n = agg.matches
    side = agg.side_name
    out: list[Measure] = []
    by_label: dict[str, list[int]] = {}
    if side != "team":  # the sides are bot slots
        for slot, label in enumerate(bot_labels):
            by_label.setdefault(label, []).append(slot)

    def shared(units) -> float | int:
        """A count in 1/SHARE_UNITS as a number of matches (an int when no share is split)."""
        units = int(units)
        return units // SHARE_UNITS if units % SHARE_UNITS == 0 else units / SHARE_UNITS

    for s in range(agg.sides):
        out.append(rate_measure(f"match_win_rate_{side}_{s}", shared(agg.wins[s]), n))
    for label, slots in by_label.items():
        out.append(rate_measure(f"match_win_rate_bot_{label}", shared(agg.wins[slots].sum()), n * len(slots)))
    out.append(rate_measure("undecided_rate", agg.undecided, n))
    if agg.fixed_rounds:
        out.append(rate_measure("tie_rate", agg.ties, n))
    if agg.scoring == "loser_penalty":
        for s in range(agg.sides):
            out.append(rate_measure(f"match_loser_rate_{side}_{s}", shared(agg.losses[s]), n))
        for label, slots in by_label.items():
            out.append(rate_measure(f"match_loser_rate_bot_{label}", shared(agg.losses[slots].sum()),
                                          n * len(slots)))
    if agg.scoring == "chips":
        chips = [(f"{side}_{s}", agg.chips[s]) for s in range(agg.sides)]
        for label, slots in by_label.items():
            pooled = IntHistogram()
            for slot in slots:
                pooled.merge(agg.chips[slot])
            chips.append((f"bot_{label}", pooled))
        for name, hist in chips:
            out.append(mean_measure(f"mean_chips_{name}", hist))
            out.append(Measure(f"sd_chips_{name}", "value", math.sqrt(hist.variance()), math.nan, math.nan,
                                     n=hist.n))
    out.append(mean_measure("mean_rounds", agg.rounds))
    out.extend(spread_measures("rounds", agg.rounds))
    if agg.margins.n:
        out.append(mean_measure("mean_margin", agg.margins))
        out.extend(spread_measures("margin", agg.margins, quantiles=("median",)))
    out.append(rate_measure("comeback_rate", agg.comebacks, agg.decided))
    out.append(rate_measure("first_dealer_win_rate", shared(agg.first_dealer_wins), agg.decided))
    ratio = agg.total_turns / agg.total_rounds
    out.append(Measure("mean_turns_per_round", "value", ratio, float("nan"), float("nan")))
    out.append(rate_measure("no_winner_round_rate", agg.no_winner_rounds, agg.total_rounds))
    who = "player" if agg.rotate else "seat"
    for i in range(agg.players):
        out.append(rate_measure(f"round_win_rate_{who}_{i}", int(agg.round_wins[i]), agg.total_rounds))
    return out


def summarize_matches(agg: MatchAggregate, variant: str, bot_labels: list[str]) -> pd.DataFrame:
    """The tidy `match.csv` table (`games` = matches)."""
    return summary_frame(match_measures(agg, bot_labels), variant, agg.matches)
