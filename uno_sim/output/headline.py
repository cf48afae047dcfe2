"""The headline: a few plain sentences that open a command's output, built from the tidy
frames alone (summary, differences, sweep and match tables), so they can be made and tested
without the command line.

- `run_headline(summary)`: who wins (the first player's edge), how long games last, points.
- `compare_headline(summary, differences)`: per variant, the differences that are significant
  after Holm's correction, largest first (by the standardised difference, diff / pooled_sd,
  the scale of differences.png), in words ("games are 5.4% longer (+2.70 turns, 95% CI
  +2.63 to +2.77)"); the first player's edge always, changed or not.
- `sweep_headline(frame, knobs)`: where the edge and the game length are largest/smallest.
- `match_headline(summary)`: match length, the best and worst side, first dealer, comebacks.

`quiet_metrics(summary)` names the metrics that say nothing in any variant (0 everywhere or
n/a everywhere): the terminal table leaves them out.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from ..game import metrics
from ..game.metrics import METRICS, MeanPhrase

if TYPE_CHECKING:  # pandas only for the annotations: tables.py imports this module on `--help`
    import pandas as pd

SIGNIFICANCE = 0.05
MAX_ITEMS = 5  # significant differences spelled out per variant


class Headline(list):
    """A list of sentences; str() puts one a line."""

    def __str__(self) -> str:
        return "\n".join(self)


# ---------------------------------------------------------------- numbers in words


def decimals(x: float, least: int = 2, most: int = 6) -> int:
    """Decimals that show a value with at least two significant digits when two decimals
    would round it to zero: 2 for 1.23 or 0.05, 4 for 0.0021 (never "+0.00" for a change)."""
    if x != x or x == 0 or abs(x) >= 10.0 ** -least:
        return least
    return min(most, max(least, -math.floor(math.log10(abs(x))) + 1))


def _pct(x: float, digits: int = 2) -> str:
    return "n/a" if x != x else f"{100 * x:.{digits}f}%"


def _pp(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:+.2f} pp"


def _num(x: float, digits: int = 2) -> str:
    return "n/a" if x != x else f"{x:,.{digits}f}"


def _g(x: float) -> str:
    return "n/a" if x != x else f"{x:,.1f}".removesuffix(".0")


def _p(p: float) -> str:
    if p != p:
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3f}" if p < 0.1 else f"{p:.2f}"


def _ci(low: float, high: float, scale: float = 1.0, unit: str = "", digits: int = 2) -> str:
    if low != low or high != high:
        return ""
    return f", 95% CI {scale * low:+,.{digits}f} to {scale * high:+,.{digits}f}{unit}"


# ---------------------------------------------------------------- what each metric means to a player


# The headline's words for each metric are the metric table's (game/metrics.py `phrase`): a
# MeanPhrase for a mean, the rate's name for a rate or an edge; MEANS is the means' view of it.
MEANS: dict[str, MeanPhrase] = {m.name: m.phrase for m in METRICS if isinstance(m.phrase, MeanPhrase)}


def rate_label(metric: str) -> str | None:
    """A rate's name in a sentence ("seat 2's win rate"), or None when the headline has none."""
    entry = metrics.find(metric)
    return metrics.phrase(metric) if entry is not None and entry.kind == "rate" else None


# Metrics a rule set is ranked for having more of (`sweep --rank-by`): largest first.
RANK_LARGEST_FIRST = tuple(m.name for m in METRICS if m.larger_is_better)


def rank_ascending(metric: str) -> bool:
    """Rule sets are ranked smallest first (shorter games, a smaller edge, fewer draws, ...),
    except by the metrics the table says are better larger (`sweep --rank-by`)."""
    entry = metrics.find(metric)
    return entry is None or not entry.larger_is_better


def metric_kind(metric: str, test: str = "") -> str:
    """rate, edge, mean, quantile or max: the metric table's kind, else (a match metric) from
    the metric's name (see docs/METRICS.md)."""
    entry = metrics.find(metric)
    if entry is not None:
        return entry.kind
    if metric.startswith("mean_"):
        return "mean"
    if metric.startswith(("median_", "p10_", "p90_")):
        return "quantile"
    if metric.startswith(("maximum_", "sd_")):
        return "max"
    if "rate" in metric:
        return "rate"
    return {"two-proportion z": "rate", "Welch t": "mean", "Mann-Whitney U": "quantile"}.get(test, "max")


def describe_change(metric: str, base: float, other: float, row, baseline: str) -> str | None:
    """One difference (a differences row) in words, or None for metrics without a phrase."""
    kind = metric_kind(metric, row.get("test", ""))
    diff, low, high = row["diff"], row["diff_ci_low"], row["diff_ci_high"]
    if kind == "mean" and metric in MEANS:
        phrase = MEANS[metric]
        if base == 0:
            d = decimals(other)
            return f"{_num(other, d)} {phrase.noun} a game, up from none ({_ci(low, high, digits=d).removeprefix(', ')})"
        if other == 0:
            return f"no {phrase.noun}, down from {_num(base, decimals(base))} a game under {baseline}"
        rel = f"{abs(diff / base) * 100:.1f}%"
        words = (phrase.more if diff > 0 else phrase.less).format(rel=rel)
        d = decimals(diff)  # a small change keeps its digits: "+0.0012 reshuffles a game", not "+0.00"
        return f"{words} ({diff:+,.{d}f} {phrase.unit}{_ci(low, high, digits=d)})"
    if kind == "edge":
        grows = abs(other) > abs(base)
        return (f"{metrics.phrase(metric)} {'grows' if grows else 'shrinks'} from "
                f"{_pp(base)} to {_pp(other)} ({_pp(diff)}{_ci(low, high, 100, ' pp')})")
    if kind == "rate":
        label = rate_label(metric)
        if label is None:
            return None
        verb = "rises" if diff > 0 else "falls"
        return f"{label} {verb} from {_pct(base)} to {_pct(other)} ({_pp(diff)}{_ci(low, high, 100, ' pp')})"
    return None


# ---------------------------------------------------------------- which rows say something


def quiet_metrics(summary: pd.DataFrame) -> list[str]:
    """Metrics that say nothing in any variant (in summary order): 0 in every variant, n/a in
    every variant, or a rate of 100% in every variant (one bot in every seat, no game without
    a winner: nothing varies, nothing to test)."""
    out = []
    for metric, rows in summary.groupby("metric", sort=False):
        values = rows["value"].astype(float)
        always_one = metric_kind(metric) == "rate" and (values == 1).all()
        if values.isna().all() or (values == 0).all() or always_one:
            out.append(metric)
    return out


def _values(summary: pd.DataFrame) -> dict[tuple[str, str], float]:
    return {(v, m): float(x) for v, m, x in zip(summary["variant"], summary["metric"], summary["value"])}


def _row(summary: pd.DataFrame, metric: str):
    hit = summary.loc[summary["metric"] == metric]
    return None if hit.empty else hit.iloc[0]


def two_sided_sentence(summary: pd.DataFrame) -> str | None:
    """A two-sided deck's (UNO Flip's) own figures, from one variant's rows: how often
    everything flips, how often a game ends on the dark side; None for a one-sided deck."""
    flips, dark, colour = (_row(summary, m) for m in ("mean_flips", "dark_end_rate", "mean_draw_color_cards"))
    if flips is None or dark is None:
        return None
    text = (f"everything flips {_num(flips['value'])} times a game (95% CI {_num(flips['ci_low'])} to "
            f"{_num(flips['ci_high'])}) and {_pct(dark['value'], 1)} of games end on the dark side (95% CI "
            f"{_pct(dark['ci_low'], 1)} to {_pct(dark['ci_high'], 1)})")
    if colour is not None and colour["value"] > 0:
        text += f"; Wild Draw Colour victims turn up {_num(colour['value'], 1)} cards a game"
    return text


# ---------------------------------------------------------------- compare


# A count per game and the share of games with at least one: the headline says one of them.
PARTNERS = metrics.partners()
ALWAYS = ("mean_turns", "first_player_edge")  # said changed or not: how long, how fair


def _redundant(metric: str, metrics: set[str]) -> bool:
    """Rows the headline leaves to the table: order statistics and maxima (the means say it),
    seat 0's rate (the edge says it), the one bot's rate when every seat plays it."""
    if metric_kind(metric) in ("quantile", "max") or metric == "win_rate_seat_0":
        return True
    bots = [m for m in metrics if m.startswith("win_rate_bot_")]
    return metric.startswith("win_rate_bot_") and len(bots) == 1


def ranked_differences(differences: pd.DataFrame, variant: str) -> pd.DataFrame:
    """The variant's rows that are significant (Holm), largest standardised difference first."""
    rows = differences.loc[differences["variant"] == variant].copy()
    rows["size"] = (rows["diff"] / rows["pooled_sd"]).abs()
    sig = rows.loc[rows["p_adjusted"] < SIGNIFICANCE]
    return sig.sort_values("size", ascending=False, kind="stable")


def compare_headline(summary: pd.DataFrame, differences: pd.DataFrame, max_items: int = MAX_ITEMS) -> Headline:
    """Per variant after the first: the count of significant differences, the largest in
    words, and the first player's edge, from compare.csv and differences.csv frames."""
    values = _values(summary)
    metrics = set(summary["metric"])
    out = Headline()
    for variant in dict.fromkeys(differences["variant"]):
        rows = differences.loc[differences["variant"] == variant]
        baseline = rows["baseline"].iloc[0]
        tested = rows["p_adjusted"].notna().sum()
        ranked = ranked_differences(differences, variant)
        games = int(summary.loc[summary["variant"] == variant, "games"].iloc[0])
        intro = (f"{variant} against {baseline} ({games:,} games each): {len(ranked)} of {tested} differences "
                 f"are significant after Holm's correction")
        items: list[str] = []
        said: set[str] = set()
        for _, row in ranked.iterrows():
            metric = row["metric"]
            if _redundant(metric, metrics) or len(said) >= max_items or PARTNERS.get(metric) in said:
                continue
            text = describe_change(metric, values[(baseline, metric)], values[(variant, metric)], row, baseline)
            if text is None:
                continue
            items.append(text)
            said.add(metric)
            if metric == "mean_max_pending":
                items.append(_largest_penalty(values, baseline, variant) or "")
        out.append(intro + (f"; the largest {'is' if len(said) == 1 else 'are'}:" if said else "."))
        out.extend(f"- {i}" for i in items if i)
        for metric in ALWAYS:
            hit = rows.loc[rows["metric"] == metric]
            if metric not in said and not hit.empty:
                out.append(f"- {_unchanged(metric, hit.iloc[0], values, baseline, variant)}")
        more = len(set(ranked["metric"]) - said - set(ALWAYS))
        if more > 0:
            out.append(f"- and {more} more significant difference{'s' if more > 1 else ''} in the table")
        if (baseline, "mean_flips") not in values:  # a two-sided variant against a one-sided baseline
            flip = two_sided_sentence(summary.loc[summary["variant"] == variant])
            if flip is not None:
                out.append(f"- under {variant} (a two-sided deck), {flip}")
    return out


def _largest_penalty(values, baseline: str, variant: str) -> str | None:
    a, b = values.get((baseline, "maximum_max_pending")), values.get((variant, "maximum_max_pending"))
    if a is None or b is None or a != a or b != b or a == b:
        return None
    return f"the largest penalty seen {'grows' if b > a else 'shrinks'} from {_g(a)} to {_g(b)} cards"


def _unchanged(metric: str, row, values, baseline: str, variant: str) -> str:
    """A metric the headline always mentions: its change in words, or that it shows none."""
    a, b = values[(baseline, metric)], values[(variant, metric)]
    p = row["p_adjusted"]
    if p < SIGNIFICANCE:  # significant but not among the largest: say so in words anyway
        return describe_change(metric, a, b, row, baseline)
    if metric == "mean_turns":
        return (f"game length shows no significant change ({_num(a)} turns under {baseline}, {_num(b)} under "
                f"{variant}; adjusted p = {_p(p)})")
    return (f"the first player's edge shows no significant change ({_pp(a)} under {baseline}, {_pp(b)} under "
            f"{variant}; adjusted p = {_p(p)})")


# ---------------------------------------------------------------- run


def run_headline(summary: pd.DataFrame, bot_seats: dict[str, int] | None = None) -> Headline:
    """Who wins, how long games last, what a win scores (one variant's summary frame).
    `bot_seats`: seats per bot label, for the bots' fair shares (default: from the names)."""
    seats = sorted(int(m.rsplit("_", 1)[1]) for m in summary["metric"] if re.fullmatch(r"win_rate_seat_\d+", m))
    players = len(seats)
    games = int(summary["games"].iloc[0])
    name = summary["variant"].iloc[0]
    out = Headline()
    seat0, edge = _row(summary, "win_rate_seat_0"), _row(summary, "first_player_edge")
    fair = 1.0 / players
    lead = f"In {games:,} games of {name} with {players} players, "
    none = _row(summary, "no_winner_rate")
    nobody_won = none is not None and none["value"] >= 1.0
    if nobody_won:  # no seat can have an edge: say why nobody won instead
        reasons = [f"{_pct(row['value'])} {reason}" for reason in ("void", "stall", "cap")
                   for row in [_row(summary, f"{reason}_rate")] if row is not None and row["value"] > 0]
        out.append(f"{lead}no game had a winner (ended by {', '.join(reasons) or 'no winner'}); "
                   "no seat wins more than another.")
    elif edge["ci_low"] > 0 or edge["ci_high"] < 0:
        more = "more" if edge["value"] > 0 else "less"
        out.append(f"{lead}the first player (seat 0) wins {_pct(seat0['value'])} of games (95% CI "
                   f"{_pct(seat0['ci_low'])} to {_pct(seat0['ci_high'])}): {abs(100 * edge['value']):.2f} percentage "
                   f"points {more} than the fair share of {_pct(fair)}.")
    else:
        out.append(f"{lead}the first player (seat 0) wins {_pct(seat0['value'])} of games (95% CI "
                   f"{_pct(seat0['ci_low'])} to {_pct(seat0['ci_high'])}): no significant edge over the fair "
                   f"share of {_pct(fair)}.")
    turns, median, p90 = (_row(summary, m) for m in ("mean_turns", "median_turns", "p90_turns"))
    out.append(f"A game lasts {_num(turns['value'], 1)} turns on average (median {_g(median['value'])}; 90% of games "
               f"end within {_g(p90['value'])} turns).")
    points = _row(summary, "mean_winner_points")
    if points is not None and points["value"] == points["value"]:
        out.append(f"The winner scores {_num(points['value'], 1)} points on average.")
    bots = [m for m in summary["metric"] if m.startswith("win_rate_bot_")]
    if len(bots) > 1:  # a mixed table: how the bots fare is the question, so it comes first
        parts = []
        for m in bots:
            label = m.removeprefix("win_rate_bot_")
            row = _row(summary, m)
            share = (bot_seats or {}).get(label)
            fair_text = f"; fair share {_pct(share / players, 1)}" if share else ""
            parts.append(f"{label} {_pct(row['value'])} (95% CI {_pct(row['ci_low'])} to {_pct(row['ci_high'])}"
                         f"{fair_text})")
        out.insert(0, f"Games won by bot in {games:,} games of {name} with {players} players: "
                      + ", ".join(parts) + ".")
    stack, top = _row(summary, "stack_rate"), _row(summary, "maximum_max_pending")
    if stack is not None and stack["value"] > 0:
        out.append(f"A penalty is stacked in {_pct(stack['value'], 1)} of games; the largest penalty seen is "
                   f"{_g(top['value'])} cards.")
    knocked, mercy = _row(summary, "knockout_rate"), _row(summary, "mercy_win_rate")
    if knocked is not None and knocked["value"] > 0:  # only a rule set with the mercy rule knocks out
        per_game = _row(summary, "mean_knockouts")
        out.append(f"The mercy rule knocks a player out in {_pct(knocked['value'], 1)} of games "
                   f"({_num(per_game['value'], 2)} knockouts a game); {_pct(mercy['value'], 1)} of games are won "
                   f"by being the last player left.")
    flip = two_sided_sentence(summary)
    if flip is not None:
        out.append(flip[0].upper() + flip[1:] + ".")
    roulette = _row(summary, "mean_roulette_cards")
    if roulette is not None and roulette["value"] > 0:
        out.append(f"Roulette victims turn up {_num(roulette['value'], 1)} cards a game.")
    if none is not None and 0 < none["value"] < 1.0:
        out.append(f"{_pct(none['value'])} of games end without a winner.")
    return out


# ---------------------------------------------------------------- sweep


def _setting(point: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in point.items())


def sweep_headline(frame: pd.DataFrame, knobs: list[str]) -> Headline:
    """Where the first player's edge and the game length are largest and smallest (sweep.csv)."""
    out = Headline()
    points = frame[knobs].drop_duplicates().to_dict("records")
    games = int(frame["games"].iloc[0])

    import pandas as pd

    def at(metric: str) -> list[tuple[dict, pd.Series]]:
        rows = frame.loc[frame["metric"] == metric]
        return [(p, rows.loc[(rows[knobs] == pd.Series(p)).all(axis=1)].iloc[0]) for p in points]

    edges = at("first_player_edge")
    turns = at("mean_turns")
    out.append(f"{len(points)} setting{'s' if len(points) > 1 else ''} of {', '.join(knobs)}, {games:,} games each.")
    if len(points) == 1:
        (p, e), (_, t) = edges[0], turns[0]
        out.append(f"At {_setting(p)} the first player's edge is {_pp(e['value'])}{_ci(e['ci_low'], e['ci_high'], 100, ' pp')}"
                   f" and a game lasts {_num(t['value'], 1)} turns on average.")
        return out
    hi = max(edges, key=lambda pe: pe[1]["value"])
    lo = min(edges, key=lambda pe: pe[1]["value"])
    significant = sum(1 for _, e in edges if e["ci_low"] > 0 or e["ci_high"] < 0)
    out.append(f"The first player's edge is largest at {_setting(hi[0])} ({_pp(hi[1]['value'])}"
               f"{_ci(hi[1]['ci_low'], hi[1]['ci_high'], 100, ' pp')}) and smallest at {_setting(lo[0])} "
               f"({_pp(lo[1]['value'])}); its interval excludes 0 at {significant} of {len(points)} settings.")
    long_ = max(turns, key=lambda pt: pt[1]["value"])
    short = min(turns, key=lambda pt: pt[1]["value"])
    out.append(f"Games are longest at {_setting(long_[0])} ({_num(long_[1]['value'], 1)} turns on average) and "
               f"shortest at {_setting(short[0])} ({_num(short[1]['value'], 1)} turns).")
    none = at("no_winner_rate")
    worst = max(none, key=lambda pn: pn[1]["value"])
    if worst[1]["value"] > 0:
        out.append(f"Games without a winner are most common at {_setting(worst[0])} ({_pct(worst[1]['value'])}).")
    return out


# ---------------------------------------------------------------- matches


def match_headline(summary: pd.DataFrame, length: str = "") -> Headline:
    """How long a match lasts, which side wins most and least, the first dealer, comebacks
    (match.csv). `length`: how a match ends, e.g. "to 500"."""
    out = Headline()
    matches = int(summary["games"].iloc[0])
    rounds, median = _row(summary, "mean_rounds"), _row(summary, "median_rounds")
    what = f"matches {length}" if length else "matches"
    out.append(f"In {matches:,} {what}, a match lasts {_num(rounds['value'], 1)} rounds on average (95% CI "
               f"{_num(rounds['ci_low'], 1)} to {_num(rounds['ci_high'], 1)}; median {_g(median['value'])}).")
    sides = [(m, _row(summary, m)) for m in summary["metric"]
             if re.fullmatch(r"match_win_rate_(seat|team|player)_\d+", m)]
    if sides:
        side_name = sides[0][0].split("_")[3]
        fair = 1.0 / len(sides)
        best = max(sides, key=lambda s: s[1]["value"])
        worst = min(sides, key=lambda s: s[1]["value"])
        off = [s for s in sides if s[1]["ci_low"] > fair or s[1]["ci_high"] < fair]

        def who(m: str) -> str:
            return f"{side_name} {m.rsplit('_', 1)[1]}"

        if off:
            out.append(f"{who(best[0]).capitalize()} wins most often ({_pct(best[1]['value'])} of matches, 95% CI "
                       f"{_pct(best[1]['ci_low'])} to {_pct(best[1]['ci_high'])}) and {who(worst[0])} least often "
                       f"({_pct(worst[1]['value'])}), against a fair share of {_pct(fair)}.")
        else:
            out.append(f"No {side_name} wins significantly more or less than its fair share of {_pct(fair)} "
                       f"(from {_pct(worst[1]['value'])} to {_pct(best[1]['value'])} of matches).")
    bots = [m for m in summary["metric"] if m.startswith("match_win_rate_bot_")]
    if len(bots) > 1:
        parts = [f"{m.removeprefix('match_win_rate_bot_')} {_pct(_row(summary, m)['value'])}" for m in bots]
        out.append("Matches won per side playing each bot: " + ", ".join(parts) + ".")
    dealer, comeback = _row(summary, "first_dealer_win_rate"), _row(summary, "comeback_rate")
    if dealer is not None and comeback is not None:
        out.append(f"The first dealer's side wins {_pct(dealer['value'])} of decided matches; in "
                   f"{_pct(comeback['value'])} the winner was behind after half the rounds.")
    undecided = _row(summary, "undecided_rate")
    if undecided is not None and undecided["value"] > 0:
        out.append(f"{_pct(undecided['value'])} of matches were still undecided at the round cap.")
    tie = _row(summary, "tie_rate")
    if tie is not None and tie["value"] > 0:
        out.append(f"{_pct(tie['value'])} of matches end with the lead shared.")
    return out


# ---------------------------------------------------------------- tournaments


def tournament_headline(leaders: dict[str, tuple[str, str, bool]], skill: pd.DataFrame, bots: list[str]) -> Headline:
    """Who is rated highest under each rule set (`leaders`: the highest rated, the runner-up,
    whether the ratings tell them apart at 95%; a bot is named only then), and each rule
    set's skill index with the bots it compares (skill.csv rows)."""
    out = Headline()
    top = {preset: best for preset, (best, _, apart) in leaders.items() if apart}
    unclear = {preset: (best, second) for preset, (best, second, apart) in leaders.items() if not apart}
    named = list(dict.fromkeys(top.values()))
    of = f"Of {len(bots)} bots ({', '.join(bots)}), "
    if len(named) == 1:
        where = ("under every rule set" if len(top) == len(leaders) > 1
                 else "under " + ", ".join(top))
        out.append(f"{of}{named[0]} is rated highest {where}.")
        of = ""
    elif named:
        out.append(f"{of}the highest rated is " + "; ".join(f"{bot} under {preset}" for preset, bot in top.items())
                   + ".")
        of = ""
    for preset, (best, second) in unclear.items():
        text = (f"under {preset} no bot is rated highest with confidence: {best} and {second} are not told apart "
                "(their ratings' difference is within its 95% interval of 0).")
        out.append(of + text if of else text[0].upper() + text[1:])
        of = ""
    for row in skill.itertuples():
        n = int(row.players)
        if row.skill_index != row.skill_index:
            out.append(f"{row.preset}: no skill index, {row.chosen}.")
            continue
        out.append(f"{row.preset}: skill index {_pp(row.skill_index)}{_ci(row.ci_low, row.ci_high, 100, ' pp')}: "
                   f"{row.best} wins {_pct(row.win_rate)} at a table with {n - 1} {row.worst}, against a fair "
                   f"share of {_pct(1.0 / n)}.")
    given = skill.dropna(subset=["skill_index"])
    if len(given) > 1:
        most = given.loc[given["skill_index"].idxmax()]
        least = given.loc[given["skill_index"].idxmin()]
        out.append(f"Skill counts most under {most['preset']} ({_pp(most['skill_index'])}) and least under "
                   f"{least['preset']} ({_pp(least['skill_index'])}).")
    return out
