"""The search bot's strength against `pro` and its speed, for several rollout budgets.

For each budget, plays `search:rollouts=R` against pro (standard rules, seats rotated, one
run of the CLI's engine through the API) and writes one row: the budget, search's win rate
with its 95% interval, and games per second. With several budgets it draws the curve of
win rate against games per second (docs/search_curve.png):

    python tools/search_strength.py --players 2 --games 4000 --rollouts 25,50,100,200,400 \\
        --csv docs/search_curve.csv --png docs/search_curve.png
    python tools/search_strength.py --players 4 --games 20000 --rollouts 200   # the 4-player target

Speeds depend on the machine and on what else runs on it; the first run compiles the engine
(not timed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from uno_sim import BadInput, api


def measure(rollouts: int, players: int, games: int, workers: int, seed: int, rules: str) -> dict:
    """One budget: search's win rate against pro (95% interval) and games per second."""
    bots = ",".join([f"search:rollouts={rollouts}"] + ["pro"] * (players - 1))
    result = api.run(rules, games=games, players=players, bots=bots, rotate_seats=True, seed=seed, workers=workers)
    rows = result.summary.set_index("metric")
    search_row = rows.loc[[m for m in rows.index if m.startswith("win_rate_bot_search")][0]]
    return {"rules": rules, "players": players, "rollouts": rollouts, "games": games, "threads": workers,
            "win_rate": search_row["value"], "ci_low": search_row["ci_low"], "ci_high": search_row["ci_high"],
            "fair_share": 1 / players, "games_per_s": result.result.games / result.result.seconds}


def plot(frame: pd.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for players, part in frame.groupby("players"):
        part = part.sort_values("games_per_s")
        ax.errorbar(part["games_per_s"], 100 * part["win_rate"],
                    yerr=[100 * (part["win_rate"] - part["ci_low"]), 100 * (part["ci_high"] - part["win_rate"])],
                    marker="o", capsize=3, label=f"search vs {players - 1} pro ({players} players)")
        for _, row in part.iterrows():
            ax.annotate(f"rollouts={row['rollouts']}", (row["games_per_s"], 100 * row["win_rate"]),
                        textcoords="offset points", xytext=(5, 5), fontsize=8)
        ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel(f"games per second ({int(frame['threads'].iloc[0])} threads)")
    ax.set_ylabel("search's win rate (%, 95% interval)")
    ax.set_title("search against pro: strength for speed (standard, seats rotated)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rollouts", default="25,50,100,200,400", help="budgets, comma-separated")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--csv", type=Path, help="write (or add to) this CSV file")
    parser.add_argument("--png", type=Path, help="draw the curve of the CSV's rows with --players here")
    args = parser.parse_args(argv)
    try:
        budgets = [int(x) for x in args.rollouts.split(",")]
    except ValueError:
        print(f"error: --rollouts must be whole numbers separated by commas, not {args.rollouts!r}", file=sys.stderr)
        return 2
    rows = []
    for rollouts in budgets:
        try:
            row = measure(rollouts, args.players, args.games, args.workers, args.seed, args.rules)
        except BadInput as e:  # one line, as the command line does (nothing written)
            print(f"error: {e}", file=sys.stderr)
            return 2
        rows.append(row)
        print(f"rollouts={rollouts:>5}  win rate {100 * row['win_rate']:.2f}% ({100 * row['ci_low']:.2f}% - "
              f"{100 * row['ci_high']:.2f}%)  {row['games_per_s']:,.0f} games/s", flush=True)
    frame = pd.DataFrame(rows)
    if args.csv:
        if args.csv.exists():
            old = pd.read_csv(args.csv)
            keep = ~old.set_index(["rules", "players", "rollouts"]).index.isin(
                frame.set_index(["rules", "players", "rollouts"]).index)
            frame = pd.concat([old[keep], frame], ignore_index=True)
        frame.sort_values(["players", "rollouts"]).to_csv(args.csv, index=False)
    if args.png:  # the curve of this player count
        plot(frame[frame["players"] == args.players], args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
