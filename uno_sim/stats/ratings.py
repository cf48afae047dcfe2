"""Tournament statistics: each bot's win rate at each table, Luce ratings with cluster-robust
intervals, and the skill index (running/tournaments.py plays the games).

Ratings: a Luce (Plackett-Luce top-1) model, P(bot b wins table T) = m_b w_b / sum_c m_c w_c
(m_b seats of b at T), fitted to the winner of every game with a winner by choix's iterative
Luce spectral ranking (`choix.ilsr_top1`; a duplicated bot is listed once per seat). A
rating is log w_b, normalized to mean 0 over the bots. Its 95% interval is rating +-
1.96 SE, the SE from the Fisher information with a cluster-robust (sandwich) variance that
treats each deal, played at every table and rotation, as one independent unit.

Skill index of a rule set: the win rate of the best bot at the table of the best with n - 1
copies of the worst bot, minus the fair share 1/n; interval Wilson (as first_player_edge),
shifted by 1/n. The worst bot is `random` by definition when it plays (it has no skill: the
same reference as `--skill`); otherwise the lowest-rated bot, only when its rating is told
apart from the next one's (the 95% interval of their difference excludes 0). The best is the
highest-rated bot, only when told apart from the runner-up in the same way. When either
cannot be told apart the skill index is not given (`skill_pair`), rather than resting on an
order the games do not show. Beside a run (`--skill`), the skill index is one pro's (SKILL_BOT)
win rate against random bots (`skill_measure`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..game.rules import Rules
from .intervals import CONFIDENCE, wilson_interval, z_value

TABLE_COLUMNS = ["preset", "table", "bot", "seats", "games", "wins", "win_rate", "ci_low", "ci_high", "fair_share"]
RATING_COLUMNS = ["preset", "bot", "rating", "ci_low", "ci_high", "se", "games"]
SKILL_COLUMNS = ["preset", "players", "best", "worst", "games", "win_rate", "skill_index", "ci_low", "ci_high",
                 "chosen"]
NO_SKILL = "random"  # the bot without skill: the skill index's worst bot whenever it plays
RIDGE = 1e-3  # choix's regularization: negligible against the thousands of games of a table
# The fewest deals a tournament plays: the ratings' cluster-robust variance treats each deal as one
# independent unit, and with few of them it is no estimate at all (one deal: every score sums to
# about 0, so every interval had zero width and the headline named a winner the games could not
# tell apart); with fewer than about 30 clusters a sandwich variance is known to run small.
MIN_DEALS = 30


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


@dataclass
class PresetGames:
    """The games of one rule set: winners[t, i] = the winning bot slot of game i at table t
    (-1 when nobody won); game i is deal i // n in rotation i % n."""

    name: str
    rules: Rules
    tables: list[tuple[int, ...]]
    winners: np.ndarray  # int8[tables, games]
    seconds: float


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


def separable(theta: np.ndarray, cov: np.ndarray, above: int, below: int, confidence: float = CONFIDENCE) -> bool:
    """Is bot `above` rated higher than bot `below` at this confidence (the interval of the
    difference of their ratings, with its covariance, lies above 0)?"""
    se = math.sqrt(max(cov[above, above] + cov[below, below] - 2.0 * cov[above, below], 0.0))
    return theta[above] - theta[below] - z_value(confidence) * se > 0.0


def skill_pair(theta: np.ndarray, cov: np.ndarray, labels: list[str],
               confidence: float = CONFIDENCE) -> tuple[int | None, int | None, str]:
    """(best, worst, how they were chosen) for the skill index (see the module docstring);
    best or worst None, with the reason, when the ratings cannot tell the candidates apart."""
    order = [int(b) for b in np.argsort(-theta, kind="stable")]  # highest rated first
    if NO_SKILL in labels:
        worst = labels.index(NO_SKILL)
        how = f"worst: {NO_SKILL} by definition (no skill)"
    else:
        worst, next_up = order[-1], order[-2]
        if not separable(theta, cov, next_up, worst, confidence):
            return None, None, (f"no worst bot: {labels[worst]} and {labels[next_up]} are not told apart "
                                f"(their ratings' difference is within its 95% interval of 0)")
        how = f"worst: {labels[worst]}, rated below {labels[next_up]} (95%)"
    rest = [b for b in order if b != worst]
    best = rest[0]
    if len(rest) > 1 and not separable(theta, cov, best, rest[1], confidence):
        return None, worst, (f"no best bot: {labels[best]} and {labels[rest[1]]} are not told apart "
                             f"(their ratings' difference is within its 95% interval of 0); {how}")
    if len(rest) > 1:
        how = f"best: {labels[best]}, rated above {labels[rest[1]]} (95%); {how}"
    else:
        how = f"best: {labels[best]}, the other bot; {how}"
    return best, worst, how


def top_pair(theta: np.ndarray, cov: np.ndarray, confidence: float = CONFIDENCE) -> tuple[int, int, bool]:
    """(highest rated, runner-up, whether the highest is told apart from the runner-up)."""
    order = [int(b) for b in np.argsort(-theta, kind="stable")]
    return order[0], order[1], separable(theta, cov, order[0], order[1], confidence)


def skill_row(pg: PresetGames, labels: list[str], theta: np.ndarray, cov: np.ndarray,
              confidence: float = CONFIDENCE) -> dict:
    """A row of skill.csv: the skill index of the pair `skill_pair` picks, or NaN (empty best
    or worst) with the reason in `chosen`."""
    best, worst, how = skill_pair(theta, cov, labels, confidence)
    row = {"preset": pg.name, "players": pg.rules.players, "best": labels[best] if best is not None else "",
           "worst": labels[worst] if worst is not None else ""}
    if best is None or worst is None:
        nan = float("nan")
        return row | {"games": 0, "wins": 0, "win_rate": nan, "skill_index": nan, "ci_low": nan, "ci_high": nan,
                      "chosen": how}
    return row | skill_index(pg, best, worst, confidence) | {"chosen": how}


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


def skill_measure(result, confidence: float = CONFIDENCE):
    """The `skill_index` metric of a skill_games run: the skill bot's (seat 0's bot, pro) win rate minus 1/n, an
    "edge" measure (Wilson interval shifted by 1/n), so comparisons test it like
    first_player_edge."""
    from .measures import Measure

    agg = result.aggregate
    wins, games = int(agg.bot_wins[0]), agg.games
    fair = 1.0 / agg.players
    low, high = wilson_interval(wins, games, confidence)
    return Measure("skill_index", "edge", wins / games - fair, low - fair, high - fair, successes=wins,
                   trials=games, offset=fair, per_game=((("slot_0", 1.0),), (("one", 1.0),), "skill"))
