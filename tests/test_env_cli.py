"""`--bots python:MODULE:CALLABLE` / `python:path/file.py:CALLABLE` seats a Python policy in
run, compare and tournament (match: tests/test_env_matches.py) (docs/BOTS.md, "Your own bot in Python"); bad ones are one line
and exit status 2."""

from __future__ import annotations

import pandas as pd
import pytest

from uno_sim import cli

POLICY = '''
from uno_sim.env import A_NO

def cautious(observation, legal_actions):
    """Never plays a card it is not made to: draws, keeps, accepts (a sure loser)."""
    return A_NO if A_NO in legal_actions else legal_actions[0]

def first(observation, legal_actions):
    return legal_actions[0]

class Counter:
    def __init__(self):
        self.calls = 0
    def policy(self, observation, legal_actions):
        self.calls += 1
        return legal_actions[-1]

def wrong(observation, legal_actions):
    return 999
'''


@pytest.fixture
def policy_file(tmp_path):
    path = tmp_path / "my_policy.py"
    path.write_text(POLICY)
    return path


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def seat_rate(folder, metric):
    table = pd.read_csv(folder / "summary.csv")
    return table.set_index("metric").loc[metric]


def test_run_seats_a_python_policy_and_reports_it(capsys, tmp_path, policy_file):
    out = tmp_path / "o"
    code, text, err = invoke(capsys, "run", "standard", "--players", "4", "--games", "400", "--seed", "1",
                             "--bots", f"python:{policy_file}:cautious,random,random,random", "--out", out,
                             "--workers", "2")
    assert code == 0, err
    # games with a Python seat play in this process, one at a time: the timing line says so, not "2 threads"
    assert "games/s on one thread (a Python seat plays in this process)" in text and "2 threads" not in text
    # a seat that never plays a card by choice wins well under its fair quarter
    row = seat_rate(out, "win_rate_seat_0")
    assert row["ci_high"] < 0.25
    assert seat_rate(out, "win_rate_seat_1")["ci_high"] > 0.25


def test_the_same_seed_gives_the_same_games(capsys, tmp_path, policy_file):
    texts = []
    for name in ("a", "b"):
        out = tmp_path / name
        code, _, err = invoke(capsys, "run", "standard", "--players", "3", "--games", "200", "--per-game",
                              "--bots", f"python:{policy_file}:first,expert,random", "--out", out)
        assert code == 0, err
        texts.append((out / "games.csv").read_text())
    assert texts[0] == texts[1]


def test_compare_and_tournament_seat_a_python_policy(capsys, tmp_path, policy_file):
    code, out, err = invoke(capsys, "compare", "standard", "house", "--players", "4", "--games", "200",
                            "--bots", f"python:{policy_file}:Counter,random,random,random", "--out", tmp_path / "c")
    assert code == 0, err
    code, out, err = invoke(capsys, "tournament", "--presets", "standard", "--players", "2", "--deals", "60",
                            "--bots", f"random,python:{policy_file}:first", "--out", tmp_path / "t")
    assert code == 0, err
    assert f"python:{policy_file}:first" in out


@pytest.mark.parametrize("entry, needle", [
    ("python:no_such_module_here:policy", "cannot load no_such_module_here (ModuleNotFoundError"),
    ("python:{file}:missing", "has no 'missing'"),
    ("python:/nowhere/x.py:policy", "no file /nowhere/x.py"),
    ("python:justaname", "expected python:MODULE:CALLABLE"),
])
def test_a_bad_python_bot_is_one_line_and_exit_2(capsys, tmp_path, policy_file, entry, needle):
    out = tmp_path / "o"
    code, _, err = invoke(capsys, "run", "standard", "--games", "100", "--bots", entry.format(file=policy_file),
                          "--out", out)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert not out.exists()


def test_an_illegal_answer_names_the_policy(capsys, tmp_path, policy_file):
    code, _, err = invoke(capsys, "run", "standard", "--games", "10", "--bots",
                          f"python:{policy_file}:wrong,random,random,random", "--out", tmp_path / "o")
    assert code == 2
    assert "answered 999" in err and "Traceback" not in err

