"""Chart of a match run: the distribution of rounds per match (matplotlib, Agg, PNG)."""

from __future__ import annotations

import os

from matplotlib.ticker import MaxNLocator

from .charts import plt, save_figure


def rounds_chart(result, preset: str, bots: str, path: str | os.PathLike):
    hist = result.aggregate.rounds
    items = hist.items()
    rounds = [r for r, _ in items]
    share = [c / hist.n for _, c in items]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(rounds, share, width=0.85, color="#4C72B0")
    mean, low, high = hist.mean_interval()
    ax.axvline(mean, color="#C44E52", linestyle="--", label=f"mean {mean:.2f} (95% CI {low:.2f}-{high:.2f})")
    rules = result.rules
    rotated = ", seats rotated" if result.rotate_seats else ""
    ax.set_title(
        f"Rounds per match to {rules.target} ({rules.match_scoring})\n"
        f"{preset}, {rules.players} players, bots {bots}{rotated}, {result.matches:,} matches",
        fontsize=11,
    )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rounds in the match")
    ax.set_ylabel("share of matches")
    ax.legend(loc="upper right", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return save_figure(fig, path)
