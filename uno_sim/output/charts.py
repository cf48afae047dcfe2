"""matplotlib PNG charts: one figure per question, for one variant (`run`) or several
side by side (`compare`), the differences of a comparison (a forest plot), the sweep chart
and the rounds of a match.

Every chart's title states what it shows in numbers (the finding), with the preset(s),
players, bots and game count beneath; axes carry units, and legends sit below the axes (or,
with many variants, right of them), where they cover no data.

From MANY variants on (a compare of up to 20 or more), the charts that put variants side by
side give each variant a row of its own instead (one panel per seat or bot, a dot per variant;
the differences as a metric-by-variant matrix), overlaid curves keep one legend entry per
variant right of the plot, and every variant has a colour of its own (`palette`).
"""

from __future__ import annotations

import math
import os
import textwrap
from dataclasses import dataclass
from pathlib import Path

from matplotlib import colormaps, ticker
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
import numpy as np
import pandas as pd

from .chart_names import VARIANT_CHART_NAMES, variant_chart_names  # noqa: F401  (the names, here too)
from .files import atomic_path
from ..stats import Aggregate, IntHistogram

COLORS = colormaps["tab10"].colors
FAIR_COLOR = "#555555"
MANY = 5  # variants from which the charts give each variant a row of its own


def palette(n: int) -> list:
    """`n` colours, none repeated: tab10's up to 10 (as every chart of a few variants), tab20's
    up to 20 (its ten dark shades first, then the ten light ones, so that neighbours differ
    in hue), else evenly spaced samples of the perceptual map `turbo`."""
    if n <= 10:
        return list(COLORS[:max(n, 1)])
    if n <= 20:
        tab20 = colormaps["tab20"].colors
        return list(tab20[0::2] + tab20[1::2])[:n]
    return [colormaps["turbo"](x) for x in np.linspace(0.05, 0.95, n)]


@dataclass
class Variant:
    """What the charts need of one simulated variant."""

    name: str
    summary: pd.DataFrame
    aggregate: Aggregate
    players: int
    bots: str  # describe(bots), e.g. "random x4"
    bot_labels: list[str]
    games: int


def _subplots(*grid, figsize, layout=None, **options):
    """A new figure and its axes (`Figure.subplots`). Figures are made without pyplot: pyplot
    costs about 0.2 s to import, and its figure manager would keep every chart open and
    choose a display backend; a Figure renders to PNG (Agg) by itself and shows in a
    notebook as it is."""
    fig = Figure(figsize=figsize, layout=layout)
    return fig, fig.subplots(*grid, **options)


def save_figure(fig, path: str | os.PathLike) -> Path:
    """Save as PNG through a temporary file in the same folder, then rename (atomic)."""
    return write_png(png_bytes(fig), path)


def png_bytes(fig) -> bytes:
    """The figure as PNG bytes."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120, metadata={"Software": None})
    return buffer.getvalue()


def write_png(data: bytes, path: str | os.PathLike) -> Path:
    """PNG bytes to a file, through a temporary file in the same folder (atomic)."""
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(data)
    return Path(path)


def _value(summary: pd.DataFrame, name: str) -> tuple[float, float, float]:
    hit = summary.loc[summary["metric"] == name]
    if hit.empty:
        return (math.nan, math.nan, math.nan)
    row = hit.iloc[0]
    return (float(row["value"]), float(row["ci_low"]), float(row["ci_high"]))


def _distinct(values) -> str:
    return ", ".join(dict.fromkeys(str(v) for v in values))


def _title(ax, finding: str, variants: list[Variant], width: int | None = None) -> None:
    """The finding in bold, then what was played: presets, players, bots, games."""
    if width is None:  # characters of the bold 11-point title that fit across the figure
        width = int(ax.figure.get_figwidth() * 10.5)
    names = " vs ".join(v.name for v in variants)
    if len(variants) >= MANY:  # the names are on the chart's rows or in its legend
        names = f"{len(variants)} variants ({variants[0].name}, {variants[1].name}, ..., {variants[-1].name})"
    players = _distinct(v.players for v in variants)
    bots = _distinct(v.bots for v in variants)
    games = _distinct(f"{v.games:,}" for v in variants)
    each = " each" if len(variants) > 1 else ""
    subtitle = textwrap.fill(f"{names}: {players} players, bots: {bots}, {games} games{each}", width=width + 10)
    ax.set_title(subtitle, fontsize=9, color="#333333")
    ax.figure.suptitle(textwrap.fill(finding, width=width), fontsize=11, fontweight="bold")


def _per_variant(variants: list[Variant], text) -> str:
    """`stacking 52.8, nostacking 50.1` (one variant: just its text)."""
    if len(variants) == 1:
        return text(variants[0])
    return ", ".join(f"{v.name} {text(v)}" for v in variants)


def _finding(variants: list[Variant], single: str, several: str, text, value=None) -> str:
    """`single` with {} the one variant's text, or `several` followed by each variant's text;
    from MANY variants on (given `value`, a variant's number) only the lowest and highest."""
    if len(variants) == 1:
        return single.format(text(variants[0]))
    if len(variants) >= MANY and value is not None:
        return f"{several}: {_span(variants, text, value)}"
    return f"{several}: {_per_variant(variants, text)}"


def _span(variants: list[Variant], text, value) -> str:
    """`from 31.2 (nostacking) to 40.5 (stacking), 20 variants`."""
    known = [v for v in variants if np.isfinite(value(v))]
    if not known:
        return f"n/a in all {len(variants)} variants"
    low, high = min(known, key=value), max(known, key=value)
    return f"from {text(low)} ({low.name}) to {text(high)} ({high.name}), {len(variants)} variants"


def _legend_right(fig, ax, width: float) -> float:
    """One legend entry per labelled line of `ax`, right of the plots (many variants); returns
    the figure fraction left for the plots (the figure is widened by `width` inches for it)."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return 1.0  # nothing drawn with a label (no game had a winner, say): no empty legend
    total = fig.get_figwidth() + width
    fig.set_figwidth(total)
    right = 1.0 - width / total
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(right, 0.5), fontsize=7.5, frameon=False,
               ncol=1 if len(labels) <= 24 else 2)
    return right


def _by_variant_rows(variants: list[Variant], categories: list, cell, panel_title, xlabel: str,
                     finding: str, share_x: bool = True) -> Figure:
    """Small multiples for many variants: one panel per category (a seat, a bot), one row per
    variant (the first on top), each a point with its 95% interval and its fair share as a short
    dashed line. `cell(variant, category)`: (value, low, high, fair) or None. `share_x`: one
    axis for all panels (seats, whose fair shares agree), else each panel zoomed on its own."""
    k, n = len(variants), len(categories)
    ncols = min(n, 5)
    nrows = -(-n // ncols)
    colors = palette(k)
    fig, axes = _subplots(nrows, ncols, figsize=(min(16.0, 2.7 * ncols + 2.4), nrows * (0.25 * k + 1.1) + 1.9),
                          sharex=share_x, sharey=True, squeeze=False, layout="constrained")
    lows, highs = [], []
    for index, category in enumerate(categories):
        ax = axes[index // ncols][index % ncols]
        if not share_x:
            lows, highs = [], []
        for j, v in enumerate(variants):
            got = cell(v, category)
            if got is None:
                continue
            value, low, high, fair = got
            y = k - 1 - j
            ax.errorbar([value], [y], xerr=_errors([value], [low], [high]), fmt="o", color=colors[j],
                        ecolor=colors[j], capsize=2.5, markersize=4.5, linewidth=1.2)
            ax.vlines(fair, y - 0.42, y + 0.42, colors=FAIR_COLOR, linestyles="--", linewidth=1.1)
            lows += [low, value, fair]
            highs += [high, value, fair]
        if not share_x:
            _zoom(ax, lows, highs)
        ax.set_title(panel_title(category), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
        ax.xaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=1))
        ax.xaxis.set_major_locator(MaxNLocator(4))
        ax.tick_params(axis="x", labelsize=7.5)
    for index in range(n, nrows * ncols):
        axes[index // ncols][index % ncols].axis("off")
    if share_x:
        _zoom(axes[0][0], lows, highs)
    axes[0][0].set_ylim(-0.6, k - 0.4)
    axes[0][0].set_yticks(range(k))
    axes[0][0].set_yticklabels([v.name for v in reversed(variants)])
    for ax in axes[:, 0]:
        ax.tick_params(axis="y", labelsize=8)
    width = int(fig.get_figwidth() * 10.5)
    fig.suptitle(textwrap.fill(finding, width=width), fontsize=11, fontweight="bold")
    fig.supxlabel(f"{xlabel}; points: 95% intervals (Wilson); dashed: the fair share\n{_subtitle_text(variants)}",
                  fontsize=8.5)
    return fig


def _zoom(ax, lows: list, highs: list) -> None:
    lo, hi = _finite_range(np.array(lows, dtype=float), np.array(highs, dtype=float))
    pad = max(0.1 * (hi - lo), 0.005)
    ax.set_xlim(max(0.0, lo - pad), min(1.0, hi + pad))


def _subtitle_text(variants: list[Variant]) -> str:
    players = _distinct(v.players for v in variants)
    bots = _distinct(v.bots for v in variants)
    games = _distinct(f"{v.games:,}" for v in variants)
    return textwrap.shorten(f"{len(variants)} variants: {players} players, bots: {bots}, {games} games each", 160)


def _legend_below(ax, ncol: int, handles=None, labels=None, tick_lines: int = 1) -> None:
    """The legend under the axes, below the x axis's label (`tick_lines`: the most lines a tick
    label of that axis takes, each pushing the axis label down)."""
    kwargs = {} if handles is None else {"handles": handles, "labels": labels}
    if handles is None and not ax.get_legend_handles_labels()[0]:
        return  # nothing drawn with a label (no game had a winner, say): no empty legend
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14 - 0.045 * (tick_lines - 1)), ncol=max(1, ncol),
              fontsize=8, frameon=False, **kwargs)


def _bar_groups(n_groups: int, n_bars: int) -> tuple[np.ndarray, float]:
    width = 0.8 / n_bars
    return np.arange(n_groups), width


def _errors(values, low, high) -> np.ndarray:
    values, low, high = (np.asarray(a, dtype=float) for a in (values, low, high))
    return np.vstack([np.nan_to_num(values - low), np.nan_to_num(high - values)])


# ---------------------------------------------------------------- win rates


def seat_win_rates(variants: list[Variant]) -> Figure:
    """Seat win rates as points with 95% (Wilson) intervals on an axis zoomed around the fair
    share 1/n (dashed), variants side by side; the title states the first player's edge."""
    seats = max(v.players for v in variants)
    k = len(variants)
    if k >= MANY:
        return _many_seat_win_rates(variants)
    fig, ax = _subplots(figsize=(max(7.5, 0.45 * seats * k + 4.0), 5.4))
    spread = 0.6 / max(k, 1)
    lows, highs = [], []
    for j, v in enumerate(variants):
        rows = [_value(v.summary, f"win_rate_seat_{i}") for i in range(v.players)]
        values, low, high = (np.array(col) for col in zip(*rows))
        pos = np.arange(v.players) - 0.3 + spread * (j + 0.5)
        ax.errorbar(pos, values, yerr=_errors(values, low, high), fmt="o", color=COLORS[j], ecolor=COLORS[j],
                    capsize=4, markersize=6, linewidth=1.4, label=f"{v.name} (95% interval, Wilson)")
        lows.append(np.nanmin(low))
        highs.append(np.nanmax(high))
    for n in sorted({v.players for v in variants}):
        ax.hlines(1.0 / n, -0.5, n - 0.5, colors=FAIR_COLOR, linestyles="--", linewidth=1.2,
                  label=f"fair share 1/{n} = {100 / n:.2f}% ({n} players)")
        lows.append(1.0 / n)
        highs.append(1.0 / n)
    lo, hi = _finite_range(np.array(lows), np.array(highs))
    pad = 0.15 * (hi - lo) or 0.01
    ax.set_ylim(max(0.0, lo - pad), min(1.0, hi + pad))
    ax.set_xticks(np.arange(seats))
    ax.set_xticklabels([f"seat {i}" for i in range(seats)])
    ax.set_xlim(-0.5, seats - 0.5)
    ax.set_xlabel("seat (seat 0 acts first; the dealer is seat n-1)")
    ax.set_ylabel("win rate (% of games; axis zoomed around 1/n)")
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=1))
    ax.grid(axis="y", alpha=0.3)

    def edge(v: Variant) -> str:
        value, low, high = _value(v.summary, "first_player_edge")
        if not (low > 0 or high < 0):
            return f"{100 * value:+.2f} pp (not significant)"
        return f"{100 * value:+.2f} pp (95% CI {100 * low:+.2f} to {100 * high:+.2f})"

    fair = _distinct(f"{100 / v.players:.2f}%" for v in variants)
    _title(ax, f"First player's edge over the fair {fair}: {_per_variant(variants, edge)}", variants)
    _legend_below(ax, min(k + 1, 3))
    fig.tight_layout()
    return fig


def _many_seat_win_rates(variants: list[Variant]) -> Figure:
    """seat_win_rates for MANY variants or more: a panel per seat, a row per variant."""
    def cell(v: Variant, seat: int):
        if seat >= v.players:
            return None
        return (*_value(v.summary, f"win_rate_seat_{seat}"), 1.0 / v.players)

    edge = lambda v: _value(v.summary, "first_player_edge")[0]  # noqa: E731
    significant = sum(1 for v in variants if (lambda r: r[1] > 0 or r[2] < 0)(_value(v.summary, "first_player_edge")))
    finding = (f"First player's edge over the fair share: {_span(variants, lambda v: f'{100 * edge(v):+.2f} pp', edge)}"
               f" ({significant} significant)")
    return _by_variant_rows(variants, list(range(max(v.players for v in variants))), cell,
                            lambda seat: f"seat {seat}" + (" (acts first)" if seat == 0 else ""),
                            "win rate (% of games; the dealer is seat n-1)", finding)


def bot_win_rates(variants: list[Variant]) -> Figure:
    """Win rate of each bot (all seats playing it together) as points with 95% (Wilson)
    intervals on an axis zoomed around the fair shares (seats with the bot / players, dashed),
    variants side by side, like the seat chart."""
    labels = list(dict.fromkeys(label for v in variants for label in v.bot_labels))
    k = len(variants)
    if k >= MANY:
        return _many_bot_win_rates(variants, labels)
    fig, ax = _subplots(figsize=(max(7.5, 1.2 * len(labels) * k + 3.0), 5.2))
    spread = 0.6 / max(k, 1)
    lows, highs = [], []
    fair_drawn = False
    for j, v in enumerate(variants):
        for i, label in enumerate(labels):
            if label not in v.bot_labels:
                continue
            value, low, high = _value(v.summary, f"win_rate_bot_{label}")
            pos = i - 0.3 + spread * (j + 0.5)
            ax.errorbar([pos], [value], yerr=_errors([value], [low], [high]), fmt="o", color=COLORS[j],
                        ecolor=COLORS[j], capsize=4, markersize=6, linewidth=1.4,
                        label=f"{v.name} (95% interval, Wilson)" if i == 0 else None)
            fair = v.bot_labels.count(label) / v.players
            ax.hlines(fair, pos - spread / 2, pos + spread / 2, colors=FAIR_COLOR, linestyles="--", linewidth=1.5,
                      label=None if fair_drawn else "fair share (seats with the bot / players)")
            fair_drawn = True
            lows += [low, value, fair]
            highs += [high, value, fair]
    lo, hi = _finite_range(np.array(lows, dtype=float), np.array(highs, dtype=float))
    pad = max(0.15 * (hi - lo), 0.005)  # a point at 100% (one bot in every seat) stays inside the frame
    bottom, top = max(0.0, lo - pad), hi + pad
    ax.set_ylim(bottom, top)
    ax.set_yticks([t for t in ax.get_yticks() if bottom - 1e-9 <= t <= min(top, 1.0) + 1e-9])  # none above 100%
    ax.set_ylim(bottom, top)  # setting the ticks may have widened the limits
    ax.set_xticks(np.arange(len(labels)))
    tick_labels = [textwrap.fill(label, 24) for label in labels]  # a python:path:policy label takes two lines
    ax.set_xticklabels(tick_labels, fontsize=9)
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.set_xlabel("bot (all seats playing it)")
    ax.set_ylabel("win rate (% of games; axis zoomed around the fair shares)")
    if all(len(set(v.bot_labels)) == 1 for v in variants):
        ax.set_xlabel("bot (all seats playing it; one bot in every seat, so its win rate is 1 - no-winner rate)")
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0, decimals=1))
    ax.grid(axis="y", alpha=0.3)

    def best(v: Variant) -> str:
        rates = [(label, _value(v.summary, f"win_rate_bot_{label}")[0], v.bot_labels.count(label) / v.players)
                 for label in dict.fromkeys(v.bot_labels)]
        label, rate, fair = max(rates, key=lambda lrf: lrf[1] / lrf[2])  # most above its fair share
        return f"{label} wins {100 * rate:.1f}% of games against a fair share of {100 * fair:.1f}%"

    def only(v: Variant) -> str:
        return f"{100 * _value(v.summary, 'win_rate_bot_' + v.bot_labels[0])[0]:.1f}%"

    if all(len(set(v.bot_labels)) == 1 for v in variants):
        finding = f"One bot in every seat: it wins every game with a winner ({_per_variant(variants, only)})"
    else:
        finding = _finding(variants, "The strongest bot: {}", "The strongest bot (win rate against fair share)", best)
    _title(ax, finding, variants)
    _legend_below(ax, min(k + 1, 3), tick_lines=max(t.count("\n") + 1 for t in tick_labels))
    fig.tight_layout()
    return fig


def _many_bot_win_rates(variants: list[Variant], labels: list[str]) -> Figure:
    """bot_win_rates for MANY variants or more: a panel per bot, a row per variant."""
    def cell(v: Variant, label: str):
        if label not in v.bot_labels:
            return None
        return (*_value(v.summary, f"win_rate_bot_{label}"), v.bot_labels.count(label) / v.players)

    def best(v: Variant) -> str:
        rates = [(label, _value(v.summary, f"win_rate_bot_{label}")[0] / (v.bot_labels.count(label) / v.players))
                 for label in dict.fromkeys(v.bot_labels)]
        return max(rates, key=lambda lr: lr[1])[0]

    leaders = pd.Series([best(v) for v in variants]).value_counts()
    finding = ("The strongest bot (win rate against its fair share): "
               + ", ".join(f"{label} in {count} of {len(variants)} variants" for label, count in leaders.items()))
    return _by_variant_rows(variants, labels, cell, lambda label: textwrap.shorten(label, 30),
                            "win rate of the bot (all seats playing it; % of games)", finding, share_x=False)


# ---------------------------------------------------------------- distributions


def _arrays(hist: IntHistogram) -> tuple[np.ndarray, np.ndarray]:
    values = np.arange(hist.offset, hist.offset + len(hist.counts))
    return values, hist.counts.astype(float)


def _upper(hists: list[IntHistogram], q: float = 0.995) -> float:
    tops = [h.quantile_interval(q)[0] for h in hists if h.n]
    return max(tops) if tops else 1.0


def _binned(hist: IntHistogram, width: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Shares of observations per bin [lo + i*width, lo + (i+1)*width), i.e. a step histogram."""
    values, counts = _arrays(hist)
    edges = np.arange(lo, hi + width, width)
    binned, _ = np.histogram(values, bins=edges, weights=counts)
    return edges, binned / max(hist.n, 1)


def _nice_width(span: float, bins: int = 60) -> int:
    raw = max(1.0, span / bins)
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if w >= raw:
            return w
    return int(raw)


def _bins(hists: list) -> tuple[int, int, int]:
    """(lo, hi, width) shared by overlaid histograms: from the smallest value seen to the 99.5th
    percentile (_upper), in bins of a round width starting at a multiple of it."""
    hi = int(_upper(hists)) + 1
    lo = min((h.offset for h in hists if h.n), default=0)
    width = _nice_width(hi - lo)
    return (lo // width) * width, hi, width


def _overlay(ax, variants: list[Variant], hists: list, bins: tuple[int, int, int], centre: str, fmt: str):
    """Each variant's step histogram on ax with a dotted line at its `centre` ("median" or
    "mean", labelled with fmt); yields (colour, variant, histogram) of each one drawn, so a
    caller can draw the same variant elsewhere in its colour."""
    lo, hi, width = bins
    colors = palette(len(variants))
    many = len(variants) >= MANY  # one legend entry per variant, with its centre
    for j, (v, h) in enumerate(zip(variants, hists)):
        if not h.n:
            continue
        color = colors[j]
        edges, shares = _binned(h, width, lo, hi)
        x = (h.median_interval() if centre == "median" else h.mean_interval())[0]
        ax.stairs(shares, edges, color=color, linewidth=1.3 if many else 1.6,
                  label=f"{v.name} ({centre} {fmt.format(x)})" if many else v.name)
        ax.axvline(x, color=color, linestyle=":", linewidth=1.0 if many else 1.2,
                   label=None if many else f"{v.name}: {centre} {fmt.format(x)}")
        yield color, v, h


def game_lengths(variants: list[Variant]) -> Figure:
    """Game length (regular turns): step histogram (left) and ECDF (right), variants overlaid."""
    hists = [v.aggregate.hists["turns"] for v in variants]
    lo, hi, width = _bins(hists)
    fig, (left, right) = _subplots(1, 2, figsize=(12.0, 5.2))
    for color, v, h in _overlay(left, variants, hists, (lo, hi, width), "median", "{:g}"):
        values, counts = _arrays(h)
        cdf = np.cumsum(counts) / h.n
        # carried on to the axis' end, so that a single value (every game as long) still shows
        values, cdf = np.append(values, max(hi, values[-1])), np.append(cdf, cdf[-1])
        right.step(values, cdf, where="post", color=color, linewidth=1.6,
                   label=None if len(variants) >= MANY else v.name)
    left.set_xlim(lo, hi)
    left.set_xlabel(f"game length (regular turns; bins of {width})")
    left.set_ylabel(f"share of games per {width}-turn bin")
    left.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
    left.grid(alpha=0.3)
    right.set_xlim(lo, hi)
    right.set_ylim(0.0, 1.01)
    right.set_xlabel("game length (regular turns)")
    right.set_ylabel("share of games with at most x turns (ECDF)")
    right.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
    right.grid(alpha=0.3)
    def mean_turns(v: Variant) -> str:
        h = v.aggregate.hists["turns"]
        return f"{h.mean_interval()[0]:.1f}" if h.n else "n/a"

    def mean_value(v: Variant) -> float:
        h = v.aggregate.hists["turns"]
        return h.mean_interval()[0] if h.n else math.nan

    _title(left, _finding(variants, "Games last {} turns on average", "Mean game length (turns)", mean_turns,
                          mean_value), variants, width=int(10.5 * fig.get_figwidth()))
    right.set_title("cumulative (x axis cut at the 99.5th percentile)", fontsize=10)
    if len(variants) >= MANY:
        fig.tight_layout(rect=(0, 0, _legend_right(fig, left, 2.6), 1))
        return fig
    _legend_below(left, 2)
    _legend_below(right, len(variants))
    fig.tight_layout()
    return fig


def winner_points(variants: list[Variant]) -> Figure:
    """Distribution of the winner's points (games with a winner), step histograms overlaid."""
    hists = [v.aggregate.winner_points for v in variants]
    fig, ax = _subplots(figsize=(9.0, 5.2))
    if any(h.n for h in hists):
        lo, hi, width = _bins(hists)
        for _ in _overlay(ax, variants, hists, (lo, hi, width), "mean", "{:,.1f}"):
            pass
        ax.set_xlim(lo, hi)
        ax.set_xlabel(f"winner's points (sum of the losers' hands; bins of {width} points; cut at the 99.5th percentile)")
        ax.set_ylabel(f"share of won games per {width}-point bin")
    else:
        ax.text(0.5, 0.5, "no game had a winner", ha="center", va="center", transform=ax.transAxes)
        ax.set_xlabel("winner's points")
        ax.set_ylabel("share of won games")
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
    ax.grid(alpha=0.3)
    def mean_points(v: Variant) -> str:
        h = v.aggregate.winner_points
        return f"{h.mean_interval()[0]:.1f}" if h.n else "n/a"

    def mean_value(v: Variant) -> float:
        h = v.aggregate.winner_points
        return h.mean_interval()[0] if h.n else math.nan

    _title(ax, _finding(variants, "The winner scores {} points on average", "Mean winner's points", mean_points,
                        mean_value), variants)
    if len(variants) >= MANY:
        fig.tight_layout(rect=(0, 0, _legend_right(fig, ax, 2.8), 1))
        return fig
    _legend_below(ax, 2)
    fig.tight_layout()
    return fig


def max_pending(variants: list[Variant]) -> Figure:
    """Share of games by the largest penalty drawn at once (a stacked chain counts once)."""
    hists = [v.aggregate.hists["max_pending"] for v in variants]
    values = sorted({value for h in hists for value, _ in h.items()})
    k = len(variants)
    many = k >= MANY  # lines with markers instead of bars side by side
    x, width = _bar_groups(len(values), k)
    fig, ax = _subplots(figsize=(max(8.0, 0.3 * len(values) * (1 if many else k) + 4.0), 5.2))
    colors = palette(k)
    for j, (v, h) in enumerate(zip(variants, hists)):
        shares = np.array([h.count(value) / h.n if h.n else 0.0 for value in values])
        if many:
            ax.plot(x, np.where(shares > 0, shares, np.nan), "o-", color=colors[j], markersize=3.5, linewidth=1.1,
                    label=v.name)
            continue
        pos = x - 0.4 + width * (j + 0.5)
        ax.bar(pos, np.where(shares > 0, shares, np.nan), width=width * 0.92, color=colors[j], label=v.name)
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10.0))
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{100 * y:.6g}%"))
    ax.set_xticks(x)
    ax.set_xticklabels([str(value) for value in values], fontsize=8 if len(values) > 20 else 10)
    ax.set_xlim(-0.5, len(values) - 0.5)
    ax.set_xlabel("largest penalty drawn at once in the game (cards; 0 = no Draw Two / Four penalty)")
    ax.set_ylabel("share of games (log scale)")
    ax.grid(axis="y", alpha=0.3, which="major")
    def largest(v: Variant) -> str:
        h = v.aggregate.hists["max_pending"]
        return f"{h.maximum:.0f}" if h.n else "n/a"

    def largest_value(v: Variant) -> float:
        h = v.aggregate.hists["max_pending"]
        return float(h.maximum) if h.n else math.nan

    _title(ax, _finding(variants, "The largest penalty drawn at once reaches {} cards",
                        "Largest penalty drawn at once (cards)", largest, largest_value), variants)
    if many:
        fig.tight_layout(rect=(0, 0, _legend_right(fig, ax, 2.2), 1))
        return fig
    _legend_below(ax, k)
    fig.tight_layout()
    return fig


# The charts of a run or comparison, by name (the file is NAME.png); max_pending only when
# some variant stacks penalties.
_VARIANT_DRAWERS = {"win_rates": seat_win_rates, "game_length": game_lengths, "winner_points": winner_points,
                    "bot_win_rates": bot_win_rates, "max_pending": max_pending}
VARIANT_CHARTS = {name: _VARIANT_DRAWERS[name] for name in VARIANT_CHART_NAMES}


# ---------------------------------------------------------------- differences (compare)


def _change_text(metric: str, row, base: float) -> str:
    """The difference in the metric's own unit: `-56.71 pp`, `-2.67 (-5.1%)`, `+0.0021 (+23.9%)`."""
    from .headline import metric_kind

    diff = float(row["diff"])
    if metric_kind(metric) in ("rate", "edge"):
        return f"{100 * diff:+.2f} pp"
    rel = f" ({100 * diff / base:+.1f}%)" if base else ""
    number = f"{diff:+,.2f}" if abs(diff) >= 0.1 or diff == 0 else f"{diff:+.2g}"
    return f"{number}{rel}"


def differences(diffs: pd.DataFrame, summary: pd.DataFrame, variants: list[Variant],
                leave_out: list[str] | None = None) -> Figure:
    """A forest plot: every compared metric with an interval (rates and means) as a point
    with its 95% interval, as a standardised difference to the baseline (diff / pooled_sd:
    in per-game standard deviations, so that turns and rates share one axis), largest on
    top; filled where significant after Holm's correction. `leave_out`: metrics not drawn
    (those 0 or n/a in every variant)."""
    from .headline import metric_kind

    leave_out = set(leave_out or [])
    names = list(dict.fromkeys(diffs["variant"]))
    baseline = diffs["baseline"].iloc[0] if len(diffs) else variants[0].name
    rows = diffs.loc[diffs["metric"].map(lambda m: metric_kind(m) in ("rate", "edge", "mean"))
                     & ~diffs["metric"].isin(leave_out)].copy()
    rows = rows.loc[rows["pooled_sd"] > 0]
    rows["d"] = rows["diff"] / rows["pooled_sd"]
    rows["d_low"] = rows["diff_ci_low"] / rows["pooled_sd"]
    rows["d_high"] = rows["diff_ci_high"] / rows["pooled_sd"]
    order = (rows.assign(size=rows["d"].abs()).groupby("metric", sort=False)["size"].max()
             .sort_values(ascending=True, kind="stable").index.tolist())  # largest drawn on top
    values = {(v, m): float(x) for v, m, x in zip(summary["variant"], summary["metric"], summary["value"])}
    k = len(names)
    if k + 1 >= MANY:
        return _differences_matrix(rows, diffs, order, names, baseline, variants)
    # each variant a line of its own within a metric's row, one row tall enough for all of them
    step = 0.8 / k if k > 1 else 0.0
    offset = {name: (k - 1 - j - (k - 1) / 2) * step for j, name in enumerate(names)}  # the first on top
    height = max(4.0, (0.27 + 0.14 * (k - 1)) * len(order) + 2.6)
    fig, ax = _subplots(figsize=(11.0, height))
    y_of = {m: i for i, m in enumerate(order)}
    colors = palette(k + 1)
    for j, name in enumerate(names):
        part = rows.loc[rows["variant"] == name]
        y = np.array([y_of[m] for m in part["metric"]], dtype=float) + offset[name]
        color = colors[j + 1]
        sig = (part["p_adjusted"] < 0.05).to_numpy()
        d = part["d"].to_numpy()
        err = np.vstack([d - part["d_low"].to_numpy(), part["d_high"].to_numpy() - d])
        ax.errorbar(d, y, xerr=np.nan_to_num(err), fmt="none", ecolor=color, elinewidth=1.3, capsize=2.5)
        ax.scatter(d[sig], y[sig], color=color, s=28, zorder=3, label=f"{name} - {baseline}: significant (Holm, 5%)")
        ax.scatter(d[~sig], y[~sig], facecolor="white", edgecolor=color, s=28, zorder=3,
                   label=f"{name} - {baseline}: not significant")
        if k == 1:  # the difference in the metric's own unit, at the right edge
            for m, (_, row) in zip(part["metric"], part.iterrows()):
                ax.annotate(_change_text(m, row, values.get((baseline, m), 0.0)), (1.01, y_of[m]),
                            xycoords=("axes fraction", "data"), va="center", fontsize=7.5, color="#333333")
    ax.axvline(0.0, color=FAIR_COLOR, linewidth=1.0, linestyle="--")
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels(order, fontsize=8)
    ax.set_ylim(-0.7, len(order) - 0.3)
    if k > 1:  # rules between the metrics' rows, so that each variant's line is seen to be in its row
        for boundary in np.arange(len(order) - 1) + 0.5:
            ax.axhline(boundary, color="#dddddd", linewidth=0.6, zorder=0)
    lim, clipped = _forest_limit(rows)
    for j, name in enumerate(names):  # effects beyond the axis: an arrow at the edge with the value
        part = rows.loc[(rows["variant"] == name) & clipped]
        for m, d in zip(part["metric"], part["d"]):
            y = y_of[m] + offset[name]  # the arrow and its label on the variant's line of the row
            x = 0.97 * lim * np.sign(d)
            ax.scatter([x], [y], marker=">" if d > 0 else "<", color=colors[j + 1], s=45 if k == 1 else 30, zorder=4)
            ax.annotate(f"{d:+.2f}", (x, y), xytext=(-6 if d > 0 else 6, 0), textcoords="offset points",
                        ha="right" if d > 0 else "left", va="center", fontsize=7.5 if k == 1 else 6.5,
                        color=colors[j + 1])
    ax.set_xlim(-lim, lim)
    scale_note = " (arrows: beyond the axis, value written)" if clipped.any() else ""
    ax.set_xlabel(f"standardised difference to {baseline}: (variant - {baseline}) / per-game standard deviation, "
                  f"with 95% interval{scale_note}", fontsize=8.5)
    ax.grid(axis="x", alpha=0.3)
    if k == 1:
        ax.grid(axis="y", alpha=0.12)
    if k == 1:
        ax.annotate("difference\n(rates in pp)", (1.01, len(order) - 0.3), xycoords=("axes fraction", "data"),
                    va="bottom", fontsize=7.5, fontweight="bold")
    tested = diffs.loc[diffs["p_adjusted"].notna()]
    sig_count = int((tested["p_adjusted"] < 0.05).sum())
    if len(rows):
        lead = rows.assign(size=rows["d"].abs()).sort_values("size", ascending=False).iloc[0]
        largest = f"; the largest: {lead['metric']} {_change_text(lead['metric'], lead, values.get((baseline, lead['metric']), 0.0))}"
    else:
        largest = ""
    _title(ax, f"{sig_count} of {len(tested)} differences to {baseline} are significant after Holm's correction"
               f"{largest}", variants, width=95)
    handles, labels = ax.get_legend_handles_labels()
    bottom = 0.75 / height  # figure fraction kept for the legend and the footnote
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.3 * bottom), ncol=2, fontsize=8,
               frameon=False)
    fig.text(0.01, 0.005, "Medians, percentiles and maxima have no interval and are not drawn (they are in "
             "differences.csv); nor are metrics that are 0, n/a or 100% in every variant.", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, bottom, 1, 1))
    return fig


def _short_change(metric: str, diff: float) -> str:
    """A difference in a matrix cell: rates in percentage points to one decimal, others to
    three significant digits (`+1.2`, `+2.27`, `+0.0035`)."""
    from .headline import metric_kind

    if diff != diff:
        return "n/a"
    if metric_kind(metric) in ("rate", "edge"):
        return f"{100 * diff:+.1f}"
    return f"{diff:+.3g}"


def _differences_matrix(rows: pd.DataFrame, diffs: pd.DataFrame, order: list[str], names: list[str],
                        baseline: str, variants: list[Variant]) -> Figure:
    """The differences of MANY variants or more as a metric-by-variant matrix: each cell the
    difference in the metric's unit, coloured by its standardised size (diff / pooled_sd, on a
    scale centred on 0) where significant after Holm's correction, grey where not."""
    from matplotlib.colors import TwoSlopeNorm

    order = order[::-1]  # the largest on top
    k, m = len(names), len(order)
    d = np.full((m, k), np.nan)
    sig = np.zeros((m, k), dtype=bool)
    text = [["" for _ in names] for _ in order]
    where = {(r.variant, r.metric): r for r in rows.itertuples()}
    for i, metric_name in enumerate(order):
        for j, name in enumerate(names):
            r = where.get((name, metric_name))
            if r is None:
                continue
            d[i, j] = r.d
            sig[i, j] = r.p_adjusted < 0.05
            text[i][j] = _short_change(metric_name, r.diff)
    width = min(16.0, 0.62 * k + 3.6)
    height = min(14.0, 0.3 * m + 3.2)
    fig, ax = _subplots(figsize=(max(width, 8.0), max(height, 5.0)), layout="constrained")
    finite = np.abs(d[sig & np.isfinite(d)])
    bound = float(np.percentile(finite, 90)) if finite.size else 1.0  # a few huge effects do not wash out the rest
    bound = bound or 1.0
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-bound, vmax=bound)
    cmap = colormaps["RdBu_r"]
    image = ax.imshow(np.ma.masked_where(~sig, np.clip(d, -bound, bound)), cmap=cmap, norm=norm, aspect="auto")
    grey = np.ma.masked_where(sig | ~np.isfinite(d), np.zeros_like(d))
    ax.imshow(grey, cmap=colormaps["Greys"], vmin=-1, vmax=8, aspect="auto")  # not significant: light grey
    for i in range(m):
        for j in range(k):
            if not text[i][j]:
                continue
            if sig[i, j]:
                r, g, b, _ = cmap(norm(np.clip(d[i, j], -bound, bound)))
                color = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"
            else:
                color = "#777777"
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=6.5, color=color,
                    fontweight="bold" if sig[i, j] else "normal")
    from .headline import metric_kind

    ax.set_yticks(range(m))
    ax.set_yticklabels([f"{name} (pp)" if metric_kind(name) in ("rate", "edge") else name for name in order],
                       fontsize=8)
    ax.set_xticks(range(k))
    ax.set_xticklabels(names, rotation=45, ha="right", rotation_mode="anchor", fontsize=8)
    ax.tick_params(length=0)
    ax.set_xlabel(f"variant (each cell: variant - {baseline}, in the metric's unit; rates in percentage points)",
                  fontsize=8.5)
    bar = fig.colorbar(image, ax=ax, shrink=0.8, pad=0.01)
    bar.set_label(f"standardised difference to {baseline}: (variant - {baseline}) / per-game SD;\n"
                  "coloured where significant after Holm's correction (5%), grey where not", fontsize=7.5)
    tested = diffs.loc[diffs["p_adjusted"].notna()]
    sig_count = int((tested["p_adjusted"] < 0.05).sum())
    _title(ax, f"{sig_count} of {len(tested)} differences to {baseline} are significant after Holm's correction "
               f"({k} variants against {baseline})", variants, width=int(10.5 * fig.get_figwidth()))
    fig.get_layout_engine().set(rect=(0, 0.03, 1, 0.97))
    fig.text(0.01, 0.005, "Medians, percentiles and maxima have no interval and are not drawn (they are in "
             "differences.csv); nor are metrics that are 0, n/a or 100% in every variant; a blank cell: the metric "
             "does not vary in either variant.", fontsize=7, color="#555555")
    return fig


SMALL_EFFECT = 0.25  # standardised differences up to this set the forest plot's axis


def _forest_limit(rows: pd.DataFrame) -> tuple[float, pd.Series]:
    """The half-width of the forest plot's axis: room for every interval of the small effects
    (|d| <= SMALL_EFFECT) and for the larger ones that fit within twice that; the rows beyond
    (the mask returned) are drawn as arrows at the edge."""
    bounds = rows[["d", "d_low", "d_high"]].abs().max(axis=1)
    small = bounds[rows["d"].abs() <= SMALL_EFFECT]
    if small.empty or not np.isfinite(small.max()) or small.max() == 0:
        lim = float(np.nanmax(bounds)) if len(bounds) else 1.0
        return 1.15 * (lim or 1.0), pd.Series(False, index=rows.index)
    lim = float(small.max())
    fitting = bounds[bounds <= 2 * lim]
    lim = float(fitting.max()) if not fitting.empty else lim
    return 1.15 * lim, bounds > lim * 1.0001


# ---------------------------------------------------------------- sweep


def sweep(frame: pd.DataFrame, knob: str, preset: str, bots: str, games: int, players_each: list[int]) -> Figure:
    """The first player's edge (seat 0's win rate minus 1/n, the title's finding) and mean
    turns against the varied value, with 95% bands; the edge on an axis around 0 (fair), so
    that a change of a point or two shows. `frame`: the tidy sweep table (a column named after
    the knob); `players_each`: the player count at each setting, in order."""
    settings = list(dict.fromkeys(frame[knob]))
    numeric = all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in settings)
    x = np.array(settings, dtype=float) if numeric else np.arange(len(settings), dtype=float)

    def series(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = frame.loc[frame["metric"] == name].set_index(knob).loc[settings]
        return (rows["value"].to_numpy(float), rows["ci_low"].to_numpy(float), rows["ci_high"].to_numpy(float))

    fig, (top, bottom) = _subplots(2, 1, figsize=(8.5, 8.0), sharex=True)

    def draw(ax, name: str, color, label: str, band_label: str) -> tuple[float, float]:
        value, low, high = series(name)
        if numeric:  # a line with a shaded 95% band
            ax.fill_between(x, low, high, color=color, alpha=0.25, linewidth=0, label=band_label)
            ax.plot(x, value, "o-", color=color, label=label)
        else:  # categories: points with 95% interval bars, no line between them
            ax.errorbar(x, value, yerr=_errors(value, low, high), fmt="o", color=color, capsize=5,
                        markersize=7, label=f"{label} with {band_label}")
        return _finite_range(value, low, high)

    lo, hi = draw(top, "first_player_edge", COLORS[0], "first player's edge", "95% interval (Wilson)")
    top.axhline(0.0, color=FAIR_COLOR, linestyle="--", linewidth=1.2, label="0: fair (seat 0 wins 1/n)")
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    pad = 0.1 * (hi - lo) or 0.005
    top.set_ylim(lo - pad, hi + pad)
    top.set_ylabel("first player's edge\n(seat 0 win rate minus 1/n, pp)")
    top.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{100 * y:+.1f}"))
    top.grid(alpha=0.3)
    top.legend(loc="upper center", bbox_to_anchor=(0.5, -0.05), ncol=3, fontsize=8, frameon=False)
    lo, hi = draw(bottom, "mean_turns", COLORS[1], "mean turns per game", "95% interval")
    pad = 0.1 * (hi - lo) or 1.0
    bottom.set_ylim(max(0.0, lo - pad), hi + pad)
    bottom.set_ylabel("mean game length (regular turns)")
    bottom.set_xlabel(knob if knob != "players" else "players (seats at the table)")
    bottom.grid(alpha=0.3)
    bottom.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)
    if not numeric:
        bottom.set_xlim(-0.5, len(settings) - 0.5)
    bottom.set_xticks(x)
    bottom.set_xticklabels([_fmt_setting(s) for s in settings])
    players = _distinct(players_each) if knob != "players" else f"{min(players_each)}-{max(players_each)}"
    subtitle = textwrap.fill(f"{preset}: sweep over {knob}; {players} players, bots: {bots}, {games:,} games per value",
                             width=100)
    top.set_title(subtitle, fontsize=9, color="#333333")
    edge = series("first_player_edge")[0]
    turns = series("mean_turns")[0]
    if len(settings) > 1 and np.isfinite(edge).any():
        i, t = int(np.nanargmax(edge)), int(np.nanargmax(turns))
        finding = (f"The first player's edge is largest at {knob} = {_fmt_setting(settings[i])} "
                   f"({100 * edge[i]:+.2f} pp); games are longest at {knob} = {_fmt_setting(settings[t])} "
                   f"({turns[t]:.1f} turns)")
    else:
        finding = f"First player's edge {100 * edge[0]:+.2f} pp; games last {turns[0]:.1f} turns on average"
    fig.suptitle(textwrap.fill(finding, width=85), fontsize=11, fontweight="bold")
    fig.tight_layout()
    return fig


def _finite_range(*arrays: np.ndarray) -> tuple[float, float]:
    """(min, max) over the finite entries (an interval is NaN for tiny samples); (0, 1) if none."""
    values = np.concatenate([np.asarray(a, dtype=float) for a in arrays])
    values = values[np.isfinite(values)]
    return (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)


def _fmt_setting(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


# ---------------------------------------------------------------- sweep grids

METRIC_LABELS = {
    "mean_turns": "mean game length (regular turns)",
    "first_player_edge": "first-player edge (seat 0 win rate minus 1/n, percentage points)",
    "no_winner_rate": "games without a winner",
    "mean_winner_points": "mean points scored by the winner",
}


def _metric_style(metric: str):
    """(format one number, unit text, diverging around 0?) for a metric's cells."""
    if metric.endswith("_edge"):
        return (lambda v: f"{100 * v:+.2f}"), " pp", True
    if "rate" in metric:
        return (lambda v: f"{100 * v:.1f}%"), "", False
    if metric.startswith(("median_", "p10_", "p90_", "maximum_")):
        return (lambda v: f"{v:g}"), "", False
    return (lambda v: f"{v:.2f}"), "", False


def sweep_heatmap(frame: pd.DataFrame, metric: str, x: str, y: str, facets: list[str], preset: str, bots: str,
                  games: int, players_each: list[int]) -> Figure:
    """One metric over a grid of two knobs (x across, y down), each cell holding the value and
    its 95% interval; with more knobs, one panel per combination of the others (small
    multiples on one colour scale). A diverging scale centred on 0 for edges."""
    from matplotlib.colors import Normalize, TwoSlopeNorm

    rows = frame.loc[frame["metric"] == metric]
    xs = list(dict.fromkeys(rows[x]))
    ys = list(dict.fromkeys(rows[y]))
    panels = list(dict.fromkeys(tuple(r) for r in rows[facets].itertuples(index=False))) if facets else [()]
    fmt, unit, diverging = _metric_style(metric)
    values = rows["value"].to_numpy(float)
    finite = values[np.isfinite(values)]
    if diverging:
        span = float(np.abs(finite).max()) if finite.size else 1.0
        norm = TwoSlopeNorm(vcenter=0.0, vmin=-(span or 1e-9), vmax=span or 1e-9)
        cmap = colormaps["RdBu_r"]
    else:
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        norm = Normalize(vmin=low, vmax=high if high > low else low + 1e-9)
        cmap = colormaps["viridis"]
    ncols = min(len(panels), 2 if len(xs) > 5 else 3)
    nrows = -(-len(panels) // ncols)
    cell_w, cell_h = 1.12, 0.62
    width = ncols * (len(xs) * cell_w + 1.6) + 1.2
    height = nrows * (len(ys) * cell_h + 1.0) + 1.9
    fig, axes = _subplots(nrows, ncols, figsize=(max(width, 7.5), height), squeeze=False, layout="constrained")
    image = None
    for index, panel in enumerate(panels):
        ax = axes[index // ncols][index % ncols]
        sub = rows
        for knob, value in zip(facets, panel):
            sub = sub.loc[sub[knob] == value]
        grid = np.full((len(ys), len(xs)), np.nan)
        low = np.full_like(grid, np.nan)
        high = np.full_like(grid, np.nan)
        for _, r in sub.iterrows():
            i, j = ys.index(r[y]), xs.index(r[x])
            grid[i, j], low[i, j], high[i, j] = r["value"], r["ci_low"], r["ci_high"]
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="auto")
        for i in range(len(ys)):
            for j in range(len(xs)):
                v = grid[i, j]
                if not np.isfinite(v):
                    ax.text(j, i, "n/a", ha="center", va="center", fontsize=8, color="#333333")
                    continue
                r, g, b, _ = cmap(norm(v))
                color = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"
                ax.text(j, i - 0.13, fmt(v) + unit, ha="center", va="center", fontsize=9, fontweight="bold",
                        color=color)
                interval = (f"[{fmt(low[i, j])}, {fmt(high[i, j])}]" if np.isfinite(low[i, j])
                            else "[no interval]")
                ax.text(j, i + 0.22, interval, ha="center", va="center", fontsize=8, color=color)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([_fmt_setting(v) for v in xs])
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels([_fmt_setting(v) for v in ys])
        ax.set_xlabel(x if x != "players" else "players (seats at the table)")
        ax.set_ylabel(y)
        ax.tick_params(length=0)
        if facets:
            ax.set_title(", ".join(f"{k}={_fmt_setting(v)}" for k, v in zip(facets, panel)), fontsize=9)
    for index in range(len(panels), nrows * ncols):
        axes[index // ncols][index % ncols].axis("off")
    label = METRIC_LABELS.get(metric, metric)
    bar = fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.9, pad=0.02)
    bar.set_label(label, fontsize=8)
    if diverging or "rate" in metric:
        bar.ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: fmt(v)))
    players = _distinct(players_each) if "players" not in (x, y, *facets) else f"{min(players_each)}-{max(players_each)}"
    subtitle = textwrap.fill(f"{players} players, bots: {bots}, {games:,} games per grid point; each cell: the "
                             "value and its 95% interval", width=110)
    fig.suptitle(f"{preset}: {label}\nby {x} and {y}" + (f", one panel per {', '.join(facets)}" if facets else "")
                 + f"\n{subtitle}", fontsize=10)
    return fig


# ---------------------------------------------------------------- matches


def rounds_per_match(result, preset: str, bots: str) -> Figure:
    """The distribution of rounds per match, with the mean and its interval."""
    from ..stats.matches import match_length

    hist = result.aggregate.rounds
    items = hist.items()
    rounds = [r for r, _ in items]
    share = [c / hist.n for _, c in items]
    fig, ax = _subplots(figsize=(8, 4.5))
    ax.bar(rounds, share, width=0.85, color="#4C72B0")
    mean, low, high = hist.mean_interval()
    ax.axvline(mean, color="#C44E52", linestyle="--", label=f"mean {mean:.2f} (95% CI {low:.2f}-{high:.2f})")
    rules = result.rules
    rotated = ", seats rotated" if result.rotate_seats else ""
    ax.set_title(f"{preset}: matches {match_length(rules)} ({rules.match_scoring}), {rules.players} players, bots "
                 f"{bots}{rotated}, {result.matches:,} matches", fontsize=9, color="#333333")
    median = hist.median_interval()[0] if hist.n else math.nan
    fig.suptitle(f"A match {match_length(rules)} lasts {mean:.1f} rounds on average (median {median:g})",
                 fontsize=11, fontweight="bold")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rounds in the match")
    ax.set_ylabel("share of matches")
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
    _legend_below(ax, 1)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- tournaments


def ratings_heatmap(ratings: pd.DataFrame, presets: list[str], bots: list[str], subtitle: str) -> Figure:
    """Luce ratings, bots (rows, best on average first) x rule sets (columns), each cell the
    rating with its 95% interval; a diverging scale centred on 0 (the mean bot)."""
    table = ratings.pivot(index="bot", columns="preset", values="rating").reindex(index=bots, columns=presets)
    low = ratings.pivot(index="bot", columns="preset", values="ci_low").reindex(index=bots, columns=presets)
    high = ratings.pivot(index="bot", columns="preset", values="ci_high").reindex(index=bots, columns=presets)
    order = table.mean(axis=1).sort_values(ascending=False).index
    table, low, high = table.loc[order], low.loc[order], high.loc[order]
    values = table.to_numpy(float)
    bound = float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else 1.0
    fig, ax = _subplots(figsize=(max(6.5, 1.7 * len(presets) + 3.0), max(3.5, 0.75 * len(bots) + 2.2)))
    image = ax.imshow(values, cmap="RdBu", vmin=-bound, vmax=bound, aspect="auto")
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            dark = abs(v) > 0.55 * bound
            ax.text(j, i, f"{v:+.2f}\n[{low.iat[i, j]:+.2f}, {high.iat[i, j]:+.2f}]", ha="center", va="center",
                    fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(len(presets)))
    ax.set_xticklabels([textwrap.fill(p, 14) for p in presets], fontsize=9)
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels(list(order), fontsize=9)
    ax.set_xlabel("rule set")
    ax.set_ylabel("bot (best on average at the top)")
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03)
    bar.set_label("rating: log Luce strength (0 = the mean bot;\n+0.69 = twice the mean bot's strength)", fontsize=8)
    ax.set_title("Bot ratings by rule set (Luce model of who wins each table; 95% intervals in brackets)\n"
                 + textwrap.fill(subtitle, width=95), fontsize=10)
    fig.tight_layout()
    return fig


def skill_bars(skill: pd.DataFrame, subtitle: str) -> Figure:
    """The skill index of each rule set (best bot's win rate against n - 1 worst, minus 1/n),
    bars with 95% intervals, in the order given."""
    fig, ax = _subplots(figsize=(max(7.0, 1.3 * len(skill) + 3.0), 5.2))
    x = np.arange(len(skill))
    values = skill["skill_index"].to_numpy(float)
    ax.bar(x, values, width=0.6, color=COLORS[0], label="skill index")
    ax.errorbar(x, values, yerr=_errors(values, skill["ci_low"], skill["ci_high"]), fmt="none", ecolor="black",
                capsize=4, label="95% interval (Wilson, shifted by 1/n)")
    ax.axhline(0.0, color=FAIR_COLOR, linewidth=1.0, linestyle="--", label="0: the best bot wins its fair share")
    for xi, row in zip(x, skill.itertuples()):
        if row.skill_index != row.skill_index:  # the ratings did not tell the best or worst bot apart
            ax.annotate("no index:\nbots not told apart", (xi, 0.0), textcoords="offset points", xytext=(0, 4),
                        ha="center", va="bottom", fontsize=8, color="#555555")
            continue
        ax.annotate(f"{100 * row.skill_index:+.1f} pp\n{row.best} vs {row.worst}", (xi, max(row.ci_high, 0.0)),
                    textcoords="offset points", xytext=(0, 4), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x)
    ax.set_xticklabels([textwrap.fill(p, 14) for p in skill["preset"]], fontsize=9)
    ax.set_xlim(-0.6, len(skill) - 0.4)
    highs, lows = skill["ci_high"].dropna(), skill["ci_low"].dropna()  # a rule set without an index: NaN
    top = float(highs.max()) if len(highs) else 0.1
    bottom = float(lows.min()) if len(lows) else 0.0
    ax.set_ylim(min(0.0, bottom * 1.2), max(0.01, top * 1.3))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{100 * y:+.0f} pp"))
    ax.set_xlabel("rule set")
    ax.set_ylabel("skill index: best bot's win rate at a table of\nthe worst bots, minus 1/n (percentage points)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title("How much skill each rule set rewards\n" + textwrap.fill(subtitle, width=95), fontsize=10)
    _legend_below(ax, 3)
    fig.tight_layout()
    return fig


def skill_index_chart(skill: pd.DataFrame, subtitle: str) -> Figure:
    """The skill index of each variant (a skill bot's win rate against n - 1 random bots,
    minus 1/n) as a dot with its 95% interval, one row a variant, the highest on top.
    `skill`: tidy rows `variant, value, ci_low, ci_high` (the `skill_index` rows of a
    summary), with a `bot` column for several skill bots (one colour each, sorted by the last
    bot's index)."""
    frame = skill.copy()
    if "bot" not in frame:
        frame["bot"] = ""
    bots = list(dict.fromkeys(frame["bot"]))
    last = frame[frame["bot"] == bots[-1]].set_index("variant")["value"]
    order = sorted(last.index, key=lambda v: (last[v] != last[v], -last[v]))  # highest first, NaN last
    order += [v for v in dict.fromkeys(frame["variant"]) if v not in last.index]
    rows = {v: i for i, v in enumerate(reversed(order))}
    fig, ax = _subplots(figsize=(8.0, 2.4 + 0.3 * len(order) * max(1.0, 0.75 * len(bots))), layout="constrained")
    step = 0.0 if len(bots) == 1 else 0.32 / (len(bots) - 1)
    for k, (bot, color) in enumerate(zip(bots, palette(len(bots)))):
        part = frame[frame["bot"] == bot]
        y = np.array([rows[v] for v in part["variant"]], float) + (0.16 - k * step if step else 0.0)
        values = part["value"].to_numpy(float)
        ax.errorbar(values, y, xerr=_errors(values, part["ci_low"], part["ci_high"]), fmt="o", color=color,
                    ecolor=color, capsize=3, markersize=5, label=(bot or "skill index") + " (95% interval)")
        if len(order) <= 30:
            for x, yy, high in zip(values, y, part["ci_high"].to_numpy(float)):
                if x == x:
                    ax.annotate(f"{100 * x:+.1f}", (high, yy), textcoords="offset points", xytext=(4, 0),
                                va="center", fontsize=7, color=color)
    ax.axvline(0.0, color=FAIR_COLOR, linewidth=1.0, linestyle="--", label="0: no better than its fair share")
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels(list(reversed(order)), fontsize=9 if len(order) <= 12 else 8)
    ax.set_ylim(-0.7, len(order) - 0.3)
    lows, highs = frame["ci_low"].dropna(), frame["ci_high"].dropna()
    lo = min(0.0, float(lows.min())) if len(lows) else 0.0
    hi = max(0.01, float(highs.max())) if len(highs) else 0.1
    ax.set_xlim(lo - 0.04 * (hi - lo), hi + 0.12 * (hi - lo))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=8, steps=[1, 2, 5, 10]))  # whole, half, fifth points...
    ticks = ax.get_xticks()
    decimals = max(0, math.ceil(-math.log10(100 * (ticks[1] - ticks[0])) - 1e-9)) if len(ticks) > 1 else 1
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: f"{100 * x:+.{decimals}f} pp"))
    ax.set_xlabel("skill index: the skill bot's win rate minus 1/n (percentage points)")
    ax.grid(axis="x", alpha=0.3)
    top = frame[frame["bot"] == bots[-1]].dropna(subset=["value"])
    if len(top):
        best = top.loc[top["value"].idxmax()]
        finding = (f"Skill pays most under {best['variant']}: {100 * best['value']:+.1f} pp "
                   f"[{100 * best['ci_low']:+.1f}, {100 * best['ci_high']:+.1f}]")
        if len(top) > 1:
            worst = top.loc[top["value"].idxmin()]
            finding += f", least under {worst['variant']}: {100 * worst['value']:+.1f} pp"
    else:
        finding = "Skill index"
    ax.set_title(finding + "\n" + textwrap.fill(subtitle, width=90), fontsize=10)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=len(bots) + 1, fontsize=8,
               frameon=False)
    return fig
