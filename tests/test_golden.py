"""The project's own golden traces (tests/golden/): games the engine traced once, verified by
the independent checker, kept in the repository so that every clone checks them.

Each golden trace must (1) replay cleanly in the checker and reproduce its per-game CSV rows,
and (2) be exactly what the engine traces today: a change to the engine that alters any game
fails here. After an intended change, regenerate with UNO_SIM_WRITE_GOLDEN=1 and review the diff.
"""

import csv
import json
import os
from pathlib import Path

import pytest

from trace_checker import check_trace_file
import uno_sim
from uno_sim.running.trace import trace_events

GOLDEN = Path(__file__).resolve().parent / "golden"

# name: (preset, players, bots, overrides, games, seed)
CASES = {
    "standard-4p": ("standard", 4, None, {}, 4, 1),
    "deflect-5p": ("deflect", 5, None, {"stack_four_on_two": True}, 3, 2),
    "house-4p-forgetful": ("house", 4, "random:forget_uno=0.5:challenge_prob=0.5", {"uno_catch": 0.5}, 3, 3),
    "last-standing-teams-6p": ("last-standing", 6, None, {"teams": 2, "jump_in": True}, 2, 4),
    "multi-play-7p": ("seven-zero", 7, None, {"multi_play": "same_symbol", "number_finish": True}, 2, 5),
    "experts-strict-3p": ("strict-wd4", 3, "expert,bluffer,greedy", {"draw_rule": "until_playable"}, 3, 6),
}


def generate(name: str) -> tuple[str, str]:
    preset, players, bots, overrides, games, seed = CASES[name]
    run = uno_sim.run(preset, games=games, players=players, bots=bots, overrides=overrides, seed=seed,
                      per_game=True, workers=1)
    trace = "".join(json.dumps(e, separators=(",", ":")) + "\n"
                    for e in trace_events(run.rules, run.bots, seed, games))
    return trace, run.games.to_csv(index=False, lineterminator="\n")


@pytest.mark.parametrize("name", CASES)
def test_golden_trace_replays_and_is_what_the_engine_plays(name):
    trace_path, csv_path = GOLDEN / f"{name}.jsonl", GOLDEN / f"{name}.csv"
    trace, table = generate(name)
    if os.environ.get("UNO_SIM_WRITE_GOLDEN"):
        trace_path.write_text(trace, encoding="utf-8")
        csv_path.write_text(table, encoding="utf-8")
    reports = check_trace_file(trace_path, csv_path)
    assert [v for r in reports for v in r.violations] == []
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(reports) == len(rows) == CASES[name][4]
    assert trace_path.read_text(encoding="utf-8") == trace, "the engine now plays these games differently"
    assert csv_path.read_text(encoding="utf-8") == table
