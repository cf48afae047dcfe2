"""The search bot's strength against `pro` and its speed, for several rollout budgets.

For each budget (and each `endgame` setting), plays `search:rollouts=R:endgame=N` against pro
(standard rules, seats rotated, one run of the CLI's engine through the API) and writes one row: the
settings, search's win rate with its 95% interval, and games per second; a setting measured
with the fair search on every turn at the same budget (first in the same call) also gets the
paired difference to it on the same deals (95% interval, McNemar's p). With several rows it
draws the curve of win rate against games per second (docs/search_curve.png), one line for
the budgets searched on every turn and one per budget searched only near the end.
`--endgame` defaults to 0 (every turn, the reference the paired differences are taken
against), not to the bot's own default (2): name `--endgame 2` (or `0,2`) to measure that.
`--infer` (default `history`, the bot's default) is named in every spec and kept in every row;
the curve draws the rows of the `--infer` given (rows written before the column existed were
measured without inference from plays: `draws`).

    python tools/search_strength.py --players 2 --games 4000 --rollouts 25,50,100,200,400 \\
        --csv docs/search_curve.csv --png docs/search_curve.png
    python tools/search_strength.py --players 4 --games 20000 --rollouts 200   # the 4-player target
    python tools/search_strength.py --games 2000 --rollouts 100 --endgame 0,1,2,3,5   # search near the end only (2: the default)
    python tools/search_strength.py --games 2000 --rollouts 100 --sees fair,hands,all   # the cheats: the ceiling

Speeds depend on the machine and on what else runs on it; the first run compiles the engine
(not timed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from uno_sim import BadInput, api
from uno_sim.stats.paired import mcnemar_exact, newcombe_paired_interval


def measure(rollouts: int, players: int, games: int, workers: int, seed: int, rules: str,
            sees: str = "fair", endgame: int = 0, infer: str = "history") -> tuple[dict, np.ndarray]:
    """One setting: search's win rate against pro (95% interval) and games per second, and
    whether search won each game (for the paired comparisons)."""
    # endgame always named: left out, the bot's default (2, not every turn) would apply
    search = (f"search:rollouts={rollouts}" + (f":sees={sees}" if sees != "fair" else "") + f":endgame={endgame}"
              + f":infer={infer}")
    bots = ",".join([search] + ["pro"] * (players - 1))
    result = api.run(rules, games=games, players=players, bots=bots, rotate_seats=True, seed=seed, workers=workers,
                     per_game=True)
    rows = result.summary.set_index("metric")
    search_row = rows.loc[[m for m in rows.index if m.startswith("win_rate_bot_search")][0]]
    per_game = result.games.sort_values("game")
    won = (per_game["winner"] == per_game["game"] % players).to_numpy()  # search is slot 0: seat game % players
    assert abs(won.mean() - search_row["value"]) < 1e-12, "per-game wins disagree with the summary"
    return {"rules": rules, "players": players, "rollouts": rollouts, "sees": sees, "endgame": endgame, "infer": infer,
            "games": games, "threads": workers,
            "win_rate": search_row["value"], "ci_low": search_row["ci_low"], "ci_high": search_row["ci_high"],
            "fair_share": 1 / players, "games_per_s": result.result.games / result.result.seconds}, won


def paired(base: np.ndarray, other: np.ndarray) -> dict:
    """other's win rate minus base's on the same deals: Newcombe's paired 95% interval and
    McNemar's exact p-value (uno_sim.stats.paired, as compare's paired differences)."""
    both, base_only = int(np.sum(base & other)), int(np.sum(base & ~other))
    other_only, neither = int(np.sum(~base & other)), int(np.sum(~base & ~other))
    low, high = newcombe_paired_interval(both, base_only, other_only, neither)
    return {"diff_vs_every_turn": other.mean() - base.mean(), "diff_low": low, "diff_high": high,
            "diff_p": mcnemar_exact(base_only, other_only)}


KEY = ["rules", "players", "rollouts", "sees", "endgame", "infer"]


def series_label(endgame: int, players: int) -> str:
    who = f"search vs {players - 1} pro ({players} players)"
    return f"{who}, endgame={endgame}" if endgame else f"{who}, every turn"


def plot(frame: pd.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    frame = frame.assign(line=[series_label(r.endgame, r.players) for r in frame.itertuples()])
    for line, part in frame.groupby("line", sort=False):
        part = part.sort_values("games_per_s")
        ax.errorbar(part["games_per_s"], 100 * part["win_rate"],
                    yerr=[100 * (part["win_rate"] - part["ci_low"]), 100 * (part["ci_high"] - part["win_rate"])],
                    marker="o", capsize=3, label=line)
        for _, row in part.iterrows():
            ax.annotate(f"{row['rollouts']}", (row["games_per_s"], 100 * row["win_rate"]), textcoords="offset points",
                        xytext=(5, 5), fontsize=7)  # the budget (rollouts) beside each point
    for players in frame["players"].unique():
        ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.margins(x=0.15)  # room for the labels of the fastest points
    low, high = frame["games_per_s"].min(), frame["games_per_s"].max()
    ax.set_xticks([t for t in (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000) if low / 1.5 <= t <= high * 1.5])
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel(f"games per second ({int(frame['threads'].iloc[0])} threads)")
    ax.set_ylabel("search's win rate (%, 95% interval)")
    ax.set_title(f"search (infer={frame['infer'].iloc[0]}) against pro: strength for speed\n"
                 "(standard, seats rotated; labels: rollouts)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rollouts", default="25,50,100,200,400", help="budgets, comma-separated")
    parser.add_argument("--endgame", default="0", help="search only when a hand holds at most N cards "
                        "(0: every turn, this tool's default and the paired reference; the bot's "
                        "default is 2); comma-separated")
    parser.add_argument("--sees", default="fair", help="fair, all or hands (the cheats that see hidden cards); "
                        "comma-separated")
    parser.add_argument("--infer", default="history", help="what the search infers hidden hands from "
                        "(history, plays, draws); the curve draws the rows of this one")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--csv", type=Path, help="write (or add to) this CSV file")
    parser.add_argument("--png", type=Path, help="draw the curve of the CSV's rows with --players here")
    args = parser.parse_args(argv)
    try:
        budgets = [int(x) for x in args.rollouts.split(",")]
        endgames = [int(x) for x in args.endgame.split(",")]
    except ValueError:
        print(f"error: --rollouts and --endgame must be whole numbers separated by commas, not "
              f"{args.rollouts!r} / {args.endgame!r}", file=sys.stderr)
        return 2
    rows, wins = [], {}
    for rollouts in budgets:
        for sees in [s.strip() for s in args.sees.split(",")]:
            for endgame in endgames:
                try:
                    row, wins[rollouts, sees, endgame] = measure(rollouts, args.players, args.games, args.workers,
                                                                 args.seed, args.rules, sees, endgame, args.infer)
                except BadInput as e:  # one line, as the command line does (nothing written)
                    print(f"error: {e}", file=sys.stderr)
                    return 2
                base = wins.get((rollouts, "fair", 0))
                if base is not None and (sees, endgame) != ("fair", 0):
                    row |= paired(base, wins[rollouts, sees, endgame])
                rows.append(row)
                line = (f"rollouts={rollouts:>5} sees={sees} endgame={endgame} infer={args.infer}  win rate {100 * row['win_rate']:.2f}% "
                        f"({100 * row['ci_low']:.2f}% - {100 * row['ci_high']:.2f}%)  {row['games_per_s']:,.0f} games/s")
                if "diff_p" in row:
                    line += (f"  vs every turn {100 * row['diff_vs_every_turn']:+.2f} ({100 * row['diff_low']:+.2f} "
                             f"to {100 * row['diff_high']:+.2f}) points, p = {row['diff_p']:.3g}")
                print(line, flush=True)
    frame = pd.DataFrame(rows)
    if args.csv:
        if args.csv.exists():
            old = pd.read_csv(args.csv, keep_default_na=False)
            # files before sees / endgame / infer (rows measured before infer=plays existed: draws)
            old = old.assign(sees=old.get("sees", "fair"), endgame=old.get("endgame", 0), infer=old.get("infer", "draws"))
            keep = ~old.set_index(KEY).index.isin(frame.set_index(KEY).index)
            frame = pd.concat([old[keep], frame], ignore_index=True)
        frame = frame.sort_values(["players", "sees", "endgame", "rollouts"])
        frame[[*KEY, *[c for c in frame.columns if c not in KEY]]].to_csv(args.csv, index=False)
    if args.png:  # the curve of this player count, fair search only (the cheats are no setting to choose)
        plot(frame[(frame["players"] == args.players) & (frame["sees"] == "fair") & (frame["infer"] == args.infer)],
             args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
