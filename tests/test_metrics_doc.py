"""Every metric uno-sim writes is explained in docs/METRICS.md.

A metric added to `stats.measures` (or to the match statistics) without a line in the
metrics page fails here. The metric names come from real runs over rule sets that switch
on every optional rule (so every conditional metric appears) and from matches under every
scoring; names with a seat, team, player or bot in them are matched by their pattern
(`win_rate_seat_{i}`, `match_win_rate_bot_{bot}`, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import uno_sim

DOC = Path(__file__).resolve().parent.parent / "docs" / "METRICS.md"


def documented_rows() -> list[list[str]]:
    """The backticked names of each table row of METRICS.md."""
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            rows.append(re.findall(r"`([^`]+)`", first_cell))
    return rows


def pattern(metric: str, bot_labels: set[str]) -> str:
    """`win_rate_seat_3` -> `win_rate_seat_{i}`, `win_rate_bot_expert` -> `win_rate_bot_{bot}`."""
    for label in sorted(bot_labels, key=len, reverse=True):
        if metric.endswith("_bot_" + label):
            return metric[: -len(label)] + "{bot}"
    metric = re.sub(r"_(seat|player)_\d+$", r"_\1_{i}", metric)
    return re.sub(r"_team_\d+$", "_team_{k}", metric)


def is_documented(name: str, rows: list[list[str]]) -> bool:
    """A row names it whole, or in the page's short forms: `mean_winner_points`, `median_`
    (a prefix standing for median_winner_points) or `match_loser_rate_seat_{i}`, `_team_{k}`
    (a suffix standing for match_loser_rate_team_{k})."""
    for tokens in rows:
        if name in tokens:
            return True
        for short in tokens:
            if short.endswith("_") and name.startswith(short):
                rest = name[len(short):]
                if any(t.endswith(rest) and t != short for t in tokens):
                    return True
            if short.startswith("_") and name.endswith(short):
                stem = name[: -len(short)]
                if any(t.startswith(stem) and t != short for t in tokens):
                    return True
    return False


def test_the_short_forms_are_read():
    rows = [["mean_winner_points", "median_", "p10_"], ["match_loser_rate_seat_{i}", "_team_{k}"]]
    assert is_documented("median_winner_points", rows)
    assert is_documented("match_loser_rate_team_{k}", rows)
    assert not is_documented("median_loser_points", rows)
    assert not is_documented("mean_turns", rows)


RUNS = [  # (preset, overrides, bots): together they switch on every conditional metric
    ("house", {}, "expert,random:forget_uno=0.5,bluffer,greedy"),
    ("teams", {}, None),
    ("stacking-full", {"jump_in": True, "seven_swap": True, "zero_rotate": True}, "random:forget_uno=0.3"),
    ("sum-jump-in", {"hand_sum_win": True, "wild_swap": True, "uno_catchers": "each"}, "random:forget_uno=0.3"),
    ("last-standing", {}, None),
]
MATCHES = [
    ("standard", {}, None, False),
    ("standard", {"match_scoring": "loser_penalty", "match_rounds": 5}, "expert,random,random,random", True),
    ("chips", {}, None, False),
    ("teams", {"match_scoring": "chips", "match_rounds": 3}, None, False),
]


@pytest.fixture(scope="module")
def produced() -> tuple[set[str], set[str]]:
    names, labels = set(), set()
    for preset, overrides, bots in RUNS:
        res = uno_sim.run(preset, games=400, overrides=overrides, bots=bots, seed=1)
        names.update(res.summary["metric"])
        labels.update(b.label for b in res.bots)
    skill = uno_sim.compare(["standard", "jump-in"], games=300, skill=True)
    names.update(skill.summary["metric"])
    for preset, overrides, bots, rotate in MATCHES:
        res = uno_sim.match(preset, matches=40, overrides=overrides, bots=bots, rotate_seats=rotate, target=100)
        names.update(res.summary["metric"])
        labels.update(b.label for b in res.bots)
    return names, labels


def test_every_metric_written_is_in_the_metrics_page(produced):
    names, labels = produced
    rows = documented_rows()
    missing = sorted({pattern(n, labels) for n in names} - {p for p in (pattern(n, labels) for n in names)
                                                              if is_documented(p, rows)})
    assert not missing, f"metrics written but not explained in docs/METRICS.md: {missing}"


def test_the_runs_reach_the_conditional_metrics(produced):
    """The check above is only as good as the metrics it sees: the rule sets here must
    produce the metrics that only some rules or bots produce."""
    names, _ = produced
    for expected in ("challenge_success_rate", "sum_jump_rate", "hand_sum_win_rate", "wild_swap_rate",
                     "mean_uno_catchers", "skill_index", "win_rate_team_0", "mean_chips_seat_0",
                     "match_loser_rate_player_0", "tie_rate", "mean_stacks", "swap_rate"):
        assert expected in names, expected


def _readme_compare_paragraph() -> str:
    """The README's paragraph on what `uno-sim compare` writes and how it tests."""
    text = (DOC.parent.parent / "README.md").read_text(encoding="utf-8")
    start = text.index("`uno-sim compare A B ...` writes to")
    return " ".join(text[start:text.index("\n\n", start)].replace("'s ", " ").split())


def test_the_readme_names_the_tests_compare_runs(tmp_path):
    """The README said compare tests rates with the two-proportion z test and means with
    Welch's t; by default it runs paired tests. Every method a default compare writes in
    differences.csv's `test` column is named there, and the unpaired ones only after
    `--unpaired`."""
    paired = uno_sim.compare(["standard", "stacking"], games=400, seed=1)
    unpaired = uno_sim.compare(["standard", "stacking"], games=400, seed=1, paired=False)
    paragraph = _readme_compare_paragraph()
    named = lambda result: {m.split(" (")[0] for m in result.differences["test"].dropna() if m}  # noqa: E731
    assert named(paired) >= {"McNemar exact", "paired t"}
    for method in named(paired):
        assert method.lower() in paragraph.lower(), method
    switch = paragraph.index("--unpaired")
    for method in named(unpaired):
        assert method in paragraph and paragraph.index(method) > switch, method
