"""The skill index of every built-in preset for one skill bot, and the before/after table.

    PYTHONPATH=. .venv/bin/python tools/skill_table.py measure BOT [GAMES] [CSV]
    PYTHONPATH=. .venv/bin/python tools/skill_table.py table BEFORE.csv AFTER.csv [CHART.png]

`measure` plays, for each preset (`uno-sim presets`, at its own number of players: 4 unless
the preset fixes it), GAMES games (default 200,000, seed 0) of one BOT against players - 1
random bots with the seats rotated (the table of `compare --skill`), and writes the skill
index (BOT's win rate minus 1/n, Wilson 95% interval shifted by 1/n) to CSV (default
docs/skill/skill_BOT.csv), one row a preset. Each preset's games are played on the same
deals whatever the bot (seed 0), so two bots' rows compare like with like.

`table` reads two such files (the bot before, then the bot after), prints the markdown
table (preset, each bot's index [95% interval], the difference with its 95% interval and
whether it is significant), sorted by the after bot's index, and draws the sorted chart
(default docs/skill_index.png). The difference's interval treats the two runs as
independent samples; as they share their deals it is conservative (too wide, not too
narrow).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

COLUMNS = ["variant", "bot", "players", "games", "wins", "value", "ci_low", "ci_high"]


def measure(bot: str, games: int = 200_000, seed: int = 0, presets: list[str] | None = None,
            progress: bool = True) -> pd.DataFrame:
    """The skill index of `bot` under every preset (or `presets`): one row a preset (COLUMNS)."""
    import uno_sim
    from uno_sim.api.common import load_rules
    from uno_sim.game.presets import preset_names
    from uno_sim.running.tournaments import skill_bots
    from uno_sim.stats.ratings import skill_measure

    rows = []
    for name in presets or preset_names():
        _, rules = load_rules(name, None, None)
        bots = [b.label for b in skill_bots(rules, bot)]
        played = uno_sim.run(name, games=games, bots=bots, rotate_seats=True, seed=seed, progress=progress)
        m = skill_measure(played.result, played.result.confidence)
        rows.append({"variant": name, "bot": bot, "players": rules.players, "games": m.trials, "wins": m.successes,
                     "value": m.value, "ci_low": m.low, "ci_high": m.high})
    return pd.DataFrame(rows, columns=COLUMNS)


def before_after(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """One row a preset: both bots' index and interval, the difference (after - before) with
    its 95% interval (independent samples: conservative for runs on the same deals) and
    whether it is significant; sorted by the after bot's index, highest first."""
    from uno_sim.stats.intervals import z_value

    z = z_value()
    both = before.merge(after, on="variant", suffixes=("_before", "_after"), validate="one_to_one")
    p0 = both["wins_before"] / both["games_before"]
    p1 = both["wins_after"] / both["games_after"]
    se = ((p0 * (1 - p0) / both["games_before"]) + (p1 * (1 - p1) / both["games_after"])) ** 0.5
    diff = both["value_after"] - both["value_before"]
    both["difference"] = diff
    both["diff_low"] = diff - z * se
    both["diff_high"] = diff + z * se
    both["significant"] = (both["diff_low"] > 0) | (both["diff_high"] < 0)
    return both.sort_values("value_after", ascending=False, ignore_index=True)


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def markdown(table: pd.DataFrame) -> str:
    """The before/after table in markdown, percentage points with 95% intervals."""
    bot0, bot1 = table["bot_before"].iloc[0], table["bot_after"].iloc[0]
    lines = [f"| preset | players | {bot0} [95% interval] | {bot1} [95% interval] | difference [95% interval] |",
             "|---|---:|---:|---:|---:|"]
    for r in table.itertuples():
        mark = "" if r.significant else " (not significant)"
        lines.append(f"| {r.variant} | {r.players_after} | {_pp(r.value_before)} [{_pp(r.ci_low_before)}, "
                     f"{_pp(r.ci_high_before)}] | {_pp(r.value_after)} [{_pp(r.ci_low_after)}, {_pp(r.ci_high_after)}] | "
                     f"{_pp(r.difference)} [{_pp(r.diff_low)}, {_pp(r.diff_high)}]{mark} |")
    return "\n".join(lines) + "\n"


def chart(before: pd.DataFrame, after: pd.DataFrame):
    """Both bots' skill index per preset with intervals, sorted by the after bot's."""
    from uno_sim.output.charts import skill_index_chart

    games = int(after["games"].iloc[0])
    subtitle = (f"every built-in preset, each bot against players - 1 random bots with rotated seats, "
                f"{games:,} games per preset and bot (the same deals)")
    return skill_index_chart(pd.concat([before, after], ignore_index=True), subtitle)


def main(argv: list[str]) -> None:
    if len(argv) >= 2 and argv[0] == "measure":
        bot = argv[1]
        games = int(argv[2]) if len(argv) > 2 else 200_000
        path = Path(argv[3]) if len(argv) > 3 else Path("docs/skill") / f"skill_{bot}.csv"
        frame = measure(bot, games)
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(path, index=False)
        print(frame.to_string(index=False))
    elif len(argv) >= 3 and argv[0] == "table":
        before, after = pd.read_csv(argv[1]), pd.read_csv(argv[2])
        print(markdown(before_after(before, after)), end="")
        from uno_sim.output.charts import save_figure

        save_figure(chart(before, after), argv[3] if len(argv) > 3 else "docs/skill_index.png")
    else:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
