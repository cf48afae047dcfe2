"""Tournaments: every table of bots on common deals with rotated seats, Luce ratings, skill index.

A tournament takes k distinct bots and plays, under each rule set, every *table*: a multiset
of n bots (n players) with at least two different bots in it (a table of one bot tells
nothing about who is better). Each table plays the same `deals` deals (deal d is seeded from
the run key and d, as everywhere in uno-sim), each deal once per seat rotation (game i = deal
i // n with bot slot b in seat (b + i) % n, engine/batch.py), so every bot sits in every seat
of every deal. When the multisets number more than MAX_TABLES (many players and bots), the
design is the *pair* design instead: for every pair of bots (a, b) and every split m = 1..n-1,
the table of m seats a and n - m seats b. Both designs hold the skill-index table (the best
bot with n - 1 copies of the worst) and treat every bot alike (docs/METRICS.md).

Ratings: a Luce (Plackett-Luce top-1) model, P(bot b wins table T) = m_b w_b / sum_c m_c w_c
(m_b seats of b at T), fitted to the winner of every game with a winner by choix's iterative
Luce spectral ranking (`choix.ilsr_top1`; a duplicated bot is listed once per seat). A
rating is log w_b, normalized to mean 0 over the bots. Its 95% interval is rating +-
1.96 SE, the SE from the Fisher information with a cluster-robust (sandwich) variance that
treats each deal, played at every table and rotation, as one independent unit.

Skill index of a rule set: the win rate of the best-rated bot at the table of the best with
n - 1 copies of the worst-rated bot, minus the fair share 1/n; interval Wilson (as
first_player_edge), shifted by 1/n.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .bots import Bot, pack_bots
from .chunks import Threads, Unit, available_threads, run_chunks
from .engine import layout as L
from .rules import Rules
from .stats import CONFIDENCE, wilson_interval, z_value

MAX_TABLES = 250
MAX_BOTS = 12
TABLE_COLUMNS = ["preset", "table", "bot", "seats", "games", "wins", "win_rate", "ci_low", "ci_high", "fair_share"]
RATING_COLUMNS = ["preset", "bot", "rating", "ci_low", "ci_high", "se", "games"]
SKILL_COLUMNS = ["preset", "players", "best", "worst", "games", "win_rate", "skill_index", "ci_low", "ci_high"]
RIDGE = 1e-3  # choix's regularization: negligible against the thousands of games of a table


# ---------------------------------------------------------------- design


def table_design(bots: int, players: int) -> tuple[list[tuple[int, ...]], str]:
    """(tables, design): each table a sorted tuple of bot indices, one per seat slot.
    "all": every multiset of `players` bots with two or more different bots; "pairs" (when
    that is more than MAX_TABLES): every pair of bots in every split of the seats."""
    if bots < 2:
        raise ValueError("a tournament needs at least two bots")
    tables = [t for t in itertools.combinations_with_replacement(range(bots), players) if len(set(t)) > 1]
    if len(tables) <= MAX_TABLES:
        return tables, "all"
    pairs = [(a,) * m + (b,) * (players - m)
             for a, b in itertools.combinations(range(bots), 2) for m in range(1, players)]
    return pairs, "pairs"


def skill_table(best: int, worst: int, players: int) -> tuple[int, ...]:
    """The sorted table of one `best` and players - 1 `worst`."""
    return tuple(sorted((best,) + (worst,) * (players - 1)))


def table_name(table: tuple[int, ...], labels: list[str]) -> str:
    """`expert + random x3`: the bots of a table in bot order, with their seat counts."""
    parts = []
    for b in dict.fromkeys(table):
        m = table.count(b)
        parts.append(labels[b] if m == 1 else f"{labels[b]} x{m}")
    return " + ".join(parts)


# ---------------------------------------------------------------- playing


@dataclass
class PresetGames:
    """The games of one rule set: winners[t, i] = the winning bot slot of game i at table t
    (-1 when nobody won); game i is deal i // n in rotation i % n."""

    name: str
    rules: Rules
    tables: list[tuple[int, ...]]
    winners: np.ndarray  # int8[tables, games]
    seconds: float


def play_preset(name: str, rules: Rules, bots: list[Bot], tables: list[tuple[int, ...]], deals: int, key: int,
                workers: int, progress: bool) -> PresetGames:
    """Play every table of one rule set on the common deals 0..deals-1 with rotated seats."""
    from .simulate import GameWork

    n = rules.players
    games = deals * n
    packed = rules.pack()
    winners = np.full((len(tables), games), -1, dtype=np.int8)
    executor = Threads(workers)
    began = time.perf_counter()
    units = []
    for t, table in enumerate(tables):
        codes, params = pack_bots([bots[b] for b in table])
        work = GameWork(packed, codes, params, key, True, n, rules.teams)
        out = winners[t]

        def consume(first: int, count: int, partial, records, out=out) -> None:
            out[first : first + count] = records[:, L.COL_WINNER_BOT]

        units.append(Unit(work, games, consume, f"{name}: table {t + 1}/{len(tables)}"))
    # one pipeline (and one progress bar, plain lines without a terminal) over the rule set's tables
    run_chunks(units, executor, progress, label=f"{name}: {len(tables)} tables")
    return PresetGames(name, rules, tables, winners, time.perf_counter() - began)


# ---------------------------------------------------------------- analysis


def table_rows(pg: PresetGames, labels: list[str], confidence: float = CONFIDENCE) -> list[dict]:
    """Each bot's win rate at each table (rows of tournament.csv)."""
    rows = []
    n = pg.rules.players
    games = pg.winners.shape[1]
    for t, table in enumerate(pg.tables):
        slot_bot = np.array(table)
        won = pg.winners[t]
        has = won >= 0
        wins_by_bot = np.bincount(slot_bot[won[has]], minlength=len(labels))
        for b in dict.fromkeys(table):
            wins = int(wins_by_bot[b])
            low, high = wilson_interval(wins, games, confidence)
            rows.append({"preset": pg.name, "table": table_name(table, labels), "bot": labels[b],
                         "seats": table.count(b), "games": games, "wins": wins, "win_rate": wins / games,
                         "ci_low": low, "ci_high": high, "fair_share": table.count(b) / n})
    return rows


def top1_data(pg: PresetGames) -> list[tuple[int, list[int]]]:
    """choix top-1 data: (winning bot, the bots of the other seats) for every game with a winner."""
    data = []
    for t, table in enumerate(pg.tables):
        won = pg.winners[t]
        slots, counts = np.unique(won[won >= 0], return_counts=True)
        for slot, count in zip(slots.tolist(), counts.tolist()):
            losers = [b for s, b in enumerate(table) if s != slot]
            data.extend([(table[slot], losers)] * count)
    return data


def fit_ratings(pg: PresetGames, n_bots: int) -> np.ndarray:
    """Luce log-strengths (mean 0) by choix's iterative Luce spectral ranking."""
    import choix

    data = top1_data(pg)
    if not data:
        return np.zeros(n_bots)
    theta = np.asarray(choix.ilsr_top1(n_bots, data, alpha=RIDGE, max_iter=500, tol=1e-10), dtype=float)
    return theta - theta.mean()


def rating_covariance(pg: PresetGames, theta: np.ndarray) -> np.ndarray:
    """Cluster-robust covariance of the mean-0 ratings: I^+ B I^+, with I the Fisher
    information of the Luce model at theta and B the sum over deals of the outer products of
    each deal's score (the deal played at every table and rotation is one unit)."""
    k = len(theta)
    n = pg.rules.players
    deals = pg.winners.shape[1] // n
    info = np.zeros((k, k))
    scores = np.zeros((deals, k))
    strength = np.exp(theta)
    for t, table in enumerate(pg.tables):
        seats = np.bincount(np.array(table), minlength=k).astype(float)
        q = seats * strength / (seats * strength).sum()  # P(bot b wins this table)
        won = pg.winners[t].reshape(deals, n)
        has = won >= 0
        info += has.sum() * (np.diag(q) - np.outer(q, q))
        slot_bot = np.array(table)
        winner_bot = np.where(has, slot_bot[np.clip(won, 0, None)], -1)
        for b in range(k):
            scores[:, b] += (winner_bot == b).sum(axis=1) - has.sum(axis=1) * q[b]
    pinv = np.linalg.pinv(info)
    return pinv @ (scores.T @ scores) @ pinv


def rating_rows(pg: PresetGames, labels: list[str], theta: np.ndarray, cov: np.ndarray,
                confidence: float = CONFIDENCE) -> list[dict]:
    z = z_value(confidence)
    games = int(pg.winners.size)
    rows = []
    for b, label in enumerate(labels):
        se = math.sqrt(max(cov[b, b], 0.0))
        rows.append({"preset": pg.name, "bot": label, "rating": theta[b], "ci_low": theta[b] - z * se,
                     "ci_high": theta[b] + z * se, "se": se, "games": games})
    return rows


def skill_index(pg: PresetGames, best: int, worst: int, confidence: float = CONFIDENCE) -> dict:
    """The best bot's win rate at the table of the best and n - 1 worst, minus 1/n."""
    n = pg.rules.players
    table = skill_table(best, worst, n)
    t = pg.tables.index(table)
    slot = table.index(best)
    games = pg.winners.shape[1]
    wins = int((pg.winners[t] == slot).sum())
    low, high = wilson_interval(wins, games, confidence)
    fair = 1.0 / n
    return {"games": games, "wins": wins, "win_rate": wins / games, "skill_index": wins / games - fair,
            "ci_low": low - fair, "ci_high": high - fair}


# ---------------------------------------------------------------- the whole tournament


@dataclass
class TournamentResult:
    bots: list[Bot]
    design: str
    deals: int
    seed: int
    presets: list[PresetGames] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        return [b.label for b in self.bots]

    def tables_frame(self) -> pd.DataFrame:
        rows = [row for pg in self.presets for row in table_rows(pg, self.labels)]
        return pd.DataFrame(rows, columns=TABLE_COLUMNS)

    def analyse(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(ratings, skill): the rows of ratings.csv and skill.csv."""
        ratings, skill = [], []
        for pg in self.presets:
            theta = fit_ratings(pg, len(self.bots))
            cov = rating_covariance(pg, theta)
            ratings.extend(rating_rows(pg, self.labels, theta, cov))
            best, worst = int(np.argmax(theta)), int(np.argmin(theta))
            skill.append({"preset": pg.name, "players": pg.rules.players, "best": self.labels[best],
                          "worst": self.labels[worst]} | skill_index(pg, best, worst))
        return (pd.DataFrame(ratings, columns=RATING_COLUMNS),
                pd.DataFrame(skill, columns=SKILL_COLUMNS + ["wins"]).drop(columns="wins"))

    @property
    def games(self) -> int:
        return int(sum(pg.winners.size for pg in self.presets))

    @property
    def seconds(self) -> float:
        return sum(pg.seconds for pg in self.presets)


def play_tournament(rule_sets: list[tuple[str, Rules]], bots: list[Bot], deals: int, seed: int,
                    workers: int | None = None, progress: bool = False) -> TournamentResult:
    from .engine.keys import run_key

    workers = min(workers or available_threads(), available_threads())
    key = run_key(seed)
    players = {rules.players for _, rules in rule_sets}
    designs = {p: table_design(len(bots), p) for p in players}
    result = TournamentResult(list(bots), ", ".join(sorted({d for _, d in designs.values()})), deals, seed)
    for name, rules in rule_sets:
        tables, _ = designs[rules.players]
        result.presets.append(play_preset(name, rules, bots, tables, deals, key, workers, progress))
    return result


# ---------------------------------------------------------------- the skill index beside a run


SKILL_BEST, SKILL_WORST = "expert", "random"


def skill_games(rules: Rules, games: int, seed: int, workers: int | None = None, progress: bool = False,
                description: str = "skill index"):
    """`compare/sweep --skill`: `games` games of one expert against players - 1 random bots
    with rotated seats (the same deals as the main games); the simulate.RunResult."""
    from .simulate import simulate

    bots = [Bot(SKILL_BEST)] + [Bot(SKILL_WORST)] * (rules.players - 1)
    return simulate(rules, bots, games, seed, workers=workers, progress=progress, description=description,
                    rotate_seats=True)


def skill_measure(result, confidence: float = CONFIDENCE):
    """The `skill_index` metric of a skill_games run: the expert's win rate minus 1/n, an
    "edge" measure (Wilson interval shifted by 1/n), so comparisons test it like
    first_player_edge."""
    from .stats import Measure

    agg = result.aggregate
    wins, games = int(agg.bot_wins[0]), agg.games
    fair = 1.0 / agg.players
    low, high = wilson_interval(wins, games, confidence)
    return Measure("skill_index", "edge", wins / games - fair, low - fair, high - fair, successes=wins,
                   trials=games, offset=fair)
