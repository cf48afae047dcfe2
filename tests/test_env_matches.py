"""Matches with a seat played from Python (`uno-sim match --bots python:...`, env/matches.py):
the engine's own match steps (engine/match.py begin_match, before_round, after_round) with the
rounds stepped from Python.

The equality tests: a Python seat playing as the `random` bot (uno_sim.env.RandomBot behind a
`python:` policy) gives the compiled `random` bot's match statistics. Each comparison is a test
at level 0.001 (chi-square test of homogeneity on the match outcomes per seat or player, with
undecided and tied matches as outcomes of their own; Welch's z on the rounds per match, or under
`chips` on the Python player's final chips), so the four tests together would fail by chance in
under 0.5% of seeds; the seeds are fixed, so the outcome is reproducible. With 1,000 Python
matches against 20,000 engine matches a seat's match win rate is checked to about +-5.4
percentage points at two players (3.3 standard errors of the difference), and the mean rounds
per match to about +-0.45 rounds (random against random: 18.9 rounds).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import uno_sim
from uno_sim import cli
from uno_sim.engine import layout as L
from uno_sim.engine.batch import run_matches
from uno_sim.engine.keys import run_key
from uno_sim.engine.match import seating_classes
from uno_sim.engine.state import O_EXT_SNAP
from uno_sim.env import matches as env_matches
from uno_sim.env.matches import PythonMatches
from uno_sim.game import presets
from uno_sim.game.bots import Bot, pack_bots, parse_bots
from uno_sim.running.trace import trace_table

from trace_checker import check_trace_lines

LEVEL = 0.001
PYTHON_MATCHES = 1_000
ENGINE_MATCHES = 20_000

POLICY = '''
import numpy as np
from uno_sim.env import N_ACTIONS, RandomBot

_bot = RandomBot(seed=5)

def random_seat(observation, legal_actions):
    """The random bot's choices (RandomBot reads a mask)."""
    mask = np.zeros(N_ACTIONS, dtype=bool)
    mask[legal_actions] = True
    return _bot(observation, mask)

def first(observation, legal_actions):
    return legal_actions[0]

def wrong(observation, legal_actions):
    return 999
'''


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("policies") / "match_policy.py"
    path.write_text(POLICY)
    return path


def python_rows(preset: str, players: int, bots: str, seed: int, rotate: bool, n: int) -> np.ndarray:
    rules = presets.load(preset, None, players)
    seatings = seating_classes(players) if rotate else None
    return PythonMatches(rules, parse_bots(bots, players), run_key(seed), seatings).records(0, n)


def engine_rows(preset: str, players: int, seed: int, rotate: bool, n: int) -> np.ndarray:
    rules = presets.load(preset, None, players)
    codes, params = pack_bots([Bot("random")] * players)
    seatings = seating_classes(players) if rotate else None
    return run_matches(rules.pack(), codes, params, run_key(seed), 0, n, seatings, workers=1, deck=rules.cards)


def welch_p(a: np.ndarray, b: np.ndarray) -> float:
    z = (a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return float(2 * stats.norm.sf(abs(z)))


def outcome_p(py: np.ndarray, en: np.ndarray, players: int) -> float:
    outcomes = [-1, L.M_TIE, *range(players)]  # undecided, shared, each seat or player
    counts = np.array([[np.sum(x[:, L.M_WINNER] == o) for o in outcomes] for x in (py, en)])
    counts = counts[:, counts.sum(axis=0) > 0]
    return float(stats.chi2_contingency(counts).pvalue)


@pytest.mark.parametrize("preset, players, rotate", [("standard", 2, False), ("chips", 3, True)])
def test_a_python_random_seat_wins_matches_as_the_random_bot(policy_file, preset, players, rotate):
    """standard: matches to 500, the rounds per match compared; chips (10 rounds a match, seats
    rotated, shared wins): the Python player's final chips compared instead."""
    bots = ",".join([f"python:{policy_file}:random_seat"] + ["random"] * (players - 1))
    py = python_rows(preset, players, bots, 21, rotate, PYTHON_MATCHES)
    en = engine_rows(preset, players, 22, rotate, ENGINE_MATCHES)
    column = L.M_TOTALS if preset == "chips" else L.M_ROUNDS  # player 0's chips, or the rounds
    p_wins, p_column = outcome_p(py, en, players), welch_p(py[:, column], en[:, column])
    assert p_wins > LEVEL, (preset, [np.bincount(x[:, L.M_WINNER] + 1) for x in (py, en)])
    assert p_column > LEVEL, (preset, py[:, column].mean(), en[:, column].mean())


def test_the_comparison_sees_a_weaker_seat(policy_file):
    """The same test tells a seat that always takes its first legal action (it draws rather
    than plays whenever drawing is allowed first) apart from the random bot: it can fail."""
    py = python_rows("standard", 2, f"python:{policy_file}:first,random", 21, False, 300)
    en = engine_rows("standard", 2, 22, False, ENGINE_MATCHES)
    assert outcome_p(py, en, 2) < LEVEL


@pytest.mark.parametrize("rotate", [False, True])
def test_the_match_is_the_engines_around_the_python_rounds(policy_file, rotate):
    """The first dealer comes from the match's own generator before any card is played, so it
    is the compiled match's for the same seed; the rounds add up to the recorded totals."""
    py = python_rows("standard", 3, f"python:{policy_file}:first,random,expert", 7, rotate, 40)
    en = engine_rows("standard", 3, 7, rotate, 40)
    assert (py[:, L.M_FIRST_DEALER] == en[:, L.M_FIRST_DEALER]).all()
    assert (py[:, L.M_ROUND_WINS : L.M_ROUND_WINS + 3].sum(axis=1) + py[:, L.M_NO_WINNER_ROUNDS]
            == py[:, L.M_ROUNDS]).all()
    decided = py[:, L.M_WINNER] >= 0
    winners = py[decided, L.M_WINNER]
    assert (py[decided][np.arange(len(winners)), L.M_TOTALS + winners] >= 500).all()


@pytest.mark.parametrize("preset", ["standard", "house"])
def test_a_round_resumed_at_its_turn_is_the_round_replayed_from_its_deal(policy_file, preset):
    """Each step of a match's round resumes at the start of the turn it stopped in (engine/
    snapshots.py): the match records are the same as when every step plays the round again
    from its deal (the snapshot cleared before each step)."""
    def rows(replay: bool) -> np.ndarray:
        matches = PythonMatches(presets.load(preset, None, 3), parse_bots(f"python:{policy_file}:first,random,expert", 3),
                                run_key(9), seating_classes(3))
        table = matches.table
        if replay:
            answer = table._answer

            def replayed(action):
                table._g[table._g[O_EXT_SNAP]] = 0
                answer(action)
            table._answer = replayed
        return matches.records(0, 12)

    resumed = rows(False)
    assert resumed[:, L.M_ROUNDS].sum() > 12  # rounds were played
    assert np.array_equal(resumed, rows(True))


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_match_seats_a_python_policy_with_the_usual_outputs(capsys, tmp_path, policy_file):
    folders = []
    for name, workers in (("a", "1"), ("b", "2")):
        out = tmp_path / name
        code, text, err = invoke(capsys, "match", "standard", "--players", "2", "--matches", "60", "--seed", "4",
                                 "--workers", workers, "--bots", f"python:{policy_file}:first,expert", "--out", out)
        assert code == 0, err
        assert {"match.csv", "report.html"} <= {p.name for p in out.iterdir()}
        assert "matches/s on one thread (a Python seat plays in this process)" in text  # whatever --workers says
        folders.append(out)
    a, b = (pd.read_csv(f / "match.csv") for f in folders)
    pd.testing.assert_frame_equal(a, b)  # a deterministic policy: the same matches, whatever the workers
    rate = a.set_index("metric").loc["match_win_rate_seat_0"]
    assert rate["ci_high"] < 0.5  # always the first legal action loses to the expert


def test_the_api_match_seats_a_python_policy_with_seats_rotated(policy_file):
    result = uno_sim.match("standard", players=3, matches=30, seed=2, rotate_seats=True,
                           bots=f"python:{policy_file}:first,random,expert")
    rows = result.summary.set_index("metric")
    assert rows.loc["mean_rounds", "games"] == 30
    again = uno_sim.match("standard", players=3, matches=30, seed=2, rotate_seats=True,
                          bots=f"python:{policy_file}:first,random,expert")
    pd.testing.assert_frame_equal(result.summary, again.summary)


@pytest.mark.parametrize("entry, needle", [
    ("python:no_such_module_here:policy", "cannot load no_such_module_here (ModuleNotFoundError"),
    ("python:{file}:missing", "has no 'missing'"),
    ("python:/nowhere/x.py:policy", "no file /nowhere/x.py"),
])
def test_a_bad_python_bot_in_a_match_is_one_line_and_exit_2(capsys, tmp_path, policy_file, entry, needle):
    out = tmp_path / "o"
    code, _, err = invoke(capsys, "match", "standard", "--matches", "10", "--players", "2",
                          "--bots", entry.format(file=policy_file) + ",random", "--out", out)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert not out.exists()


def test_an_illegal_answer_in_a_match_names_the_policy(capsys, tmp_path, policy_file):
    code, _, err = invoke(capsys, "match", "standard", "--matches", "5", "--players", "2",
                          "--bots", f"python:{policy_file}:wrong,random", "--out", tmp_path / "o")
    assert code == 2
    assert "answered 999" in err and "Traceback" not in err


def test_a_python_match_refuses_a_cluster(capsys, tmp_path, policy_file):
    code, _, err = invoke(capsys, "match", "standard", "--matches", "5", "--players", "2", "--cluster", "local:1",
                          "--bots", f"python:{policy_file}:first,random", "--out", tmp_path / "o")
    assert code == 2 and "--cluster cannot run them" in err


def test_every_round_of_a_python_match_replays_in_the_trace_checker(policy_file, monkeypatch):
    """Each round played from the match's state (generator, dealer, seating) replays in the
    independent checker: legal moves, cards that add up, the random seat's kinds of choices."""
    lines: list[str] = []
    games = PythonMatches(presets.load("house", None, 3), parse_bots(
        f"python:{policy_file}:random_seat,random,expert", 3), run_key(3), None)
    real = env_matches.after_round

    def traced(g, *args):  # the round is over: trace it before the match scores it
        lines.extend(json.dumps(e) for e in trace_table(games.table, "random"))
        return real(g, *args)

    monkeypatch.setattr(env_matches, "after_round", traced)
    rows = games.records(0, 4)
    reports = check_trace_lines(lines)
    assert len(reports) == rows[:, L.M_ROUNDS].sum() > 4
    assert [v for r in reports for v in r.violations] == []
