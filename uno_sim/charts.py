"""matplotlib (Agg) PNG charts of a summary table."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .files import atomic_path  # noqa: E402


def save_figure(fig, path: str | os.PathLike) -> Path:
    """Save as PNG through a temporary file in the same folder, then rename (atomic)."""
    try:
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format="png", dpi=120, metadata={"Software": None})
    finally:
        plt.close(fig)
    return Path(path)


def seat_win_rates(
    summary: pd.DataFrame,
    path: str | os.PathLike,
    preset: str,
    players: int,
    bots: str,
    games: int,
) -> Path:
    """Bar chart of seat win rates with 95% interval bars and a 1/n reference line."""
    rows = [summary.loc[summary["metric"] == f"win_rate_seat_{i}"].iloc[0] for i in range(players)]
    values = np.array([row["value"] for row in rows], dtype=float)
    low = np.array([row["ci_low"] for row in rows], dtype=float)
    high = np.array([row["ci_high"] for row in rows], dtype=float)
    errors = np.vstack([np.nan_to_num(values - low), np.nan_to_num(high - values)])

    fig, ax = plt.subplots(figsize=(max(7.0, 0.8 * players + 3.0), 5.0))
    seats = np.arange(players)
    ax.bar(seats, values, color="#3b75af", width=0.65, label="win rate")
    ax.errorbar(seats, values, yerr=errors, fmt="none", ecolor="black", capsize=4, linewidth=1.2,
                label="95% interval (Wilson)")
    ax.axhline(1.0 / players, color="#c44e52", linestyle="--", linewidth=1.2, label=f"1/{players} (fair share)")
    ax.set_xticks(seats)
    ax.set_xticklabels([f"seat {i}" for i in seats])
    ax.set_xlabel("seat (seat 0 acts first; dealer is seat n-1)")
    ax.set_ylabel("win rate")
    top = np.nanmax(np.concatenate([high, [1.0 / players]]))
    ax.set_ylim(0.0, min(1.0, top * 1.25) if np.isfinite(top) and top > 0 else 1.0)
    subtitle = textwrap.fill(f"{players} players, {games:,} games, bots: {bots}", width=80)
    ax.set_title(f"{preset}: seat win rates\n{subtitle}", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=8, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return save_figure(fig, path)
