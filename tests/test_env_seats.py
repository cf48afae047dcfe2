"""`--bots python:...` seats that sleep, crawl, fail, print or cheat: a signal still stops the
run at once with the right count, an edited policy never takes the old one's checkpoint, and a
policy that raises, exits or answers a non-integer is one line naming its seat (docs/BOTS.md,
"Your own bot in Python")."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from uno_sim import cli
from uno_sim.game.errors import BadInput

UNO = [sys.executable, "-m", "uno_sim"]

POLICY = '''
import sys, time
from pathlib import Path

import numpy as np

MARK = Path(__file__).with_suffix(".called")

def first(observation, legal_actions):
    return legal_actions[0]

def sleepy(observation, legal_actions):
    MARK.touch()
    time.sleep(1000)
    return legal_actions[0]

def slow(observation, legal_actions):
    MARK.touch()
    end = time.perf_counter() + 0.05
    while time.perf_counter() < end:  # busy: holds the interpreter, as a heavy policy would
        pass
    return legal_actions[0]

def boom(observation, legal_actions):
    raise ValueError("boom")

def exit0(observation, legal_actions):
    sys.exit(0)

def exit3(observation, legal_actions):
    sys.exit(3)

def half(observation, legal_actions):
    return legal_actions[0] + 0.5

def nine_tenths(observation, legal_actions):
    return legal_actions[0] + 0.9

def text(observation, legal_actions):
    return str(legal_actions[0])

def true_when_one_is_legal(observation, legal_actions):
    return True if 1 in legal_actions else legal_actions[0]

def numpy_int(observation, legal_actions):
    return np.int64(legal_actions[-1])

def talkative(observation, legal_actions):
    print("thinking about", len(legal_actions), "actions")
    return legal_actions[0]

def widen(observation, legal_actions):
    legal_actions.append(999)
    return 999

def shuffle_in_place(observation, legal_actions):
    legal_actions.reverse()
    return legal_actions.pop()
'''


@pytest.fixture
def policy_file(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(POLICY)
    return path


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "unexpected failure" not in err, err
    return lines[0]


# ---------------------------------------------------------------- signals


def start(args, until, timeout=600):
    """The command started in a process of its own, once `until()` holds (it is under way)."""
    proc = subprocess.Popen([*UNO, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + timeout
    while not until() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    return proc


def stop(proc, signum) -> str:
    """Send `signum`; the process must end well before the policy would (a sleeping policy
    sleeps 1,000 s a decision): its standard error."""
    proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the run did not stop on the signal")
    return err


@pytest.mark.parametrize("name, signum, status, word", [
    ("sleepy", signal.SIGINT, 130, "interrupted (Ctrl-C)"),
    ("slow", signal.SIGTERM, 143, "terminated (SIGTERM)"),
])
def test_a_signal_stops_a_python_seat_that_never_returns_or_crawls(tmp_path, policy_file, name, signum, status, word):
    out = tmp_path / "o"
    mark = policy_file.with_suffix(".called")
    proc = start(["run", "standard", "--players", "2", "--games", "5000", "--bots",
                  f"python:{policy_file}:{name},random", "--out", out], mark.exists)
    time.sleep(0.5)
    err = stop(proc, signum)
    assert proc.returncode == status, err
    last = err.strip().splitlines()[-1]
    assert last == f"error: {word} after 0 of 5,000 games of standard; nothing was written", err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())  # no lock, no temporary file left


def test_a_signal_counts_the_chunk_a_fast_policy_finished_and_the_checkpoint_keeps(tmp_path, policy_file):
    """30,000 games are two chunks of a checkpoint: stopped while the second plays, the first
    is kept and counted (it was "after 0 of 30,000 games", nothing kept)."""
    out, ck = tmp_path / "o", tmp_path / "ck"
    chunks = lambda: list((ck / "unit-0000").glob("chunk-*.npz")) if (ck / "unit-0000").is_dir() else []
    proc = start(["run", "standard", "--players", "2", "--games", "30000", "--bots",
                  f"python:{policy_file}:first,random", "--checkpoint", ck, "--out", out], lambda: chunks())
    err = stop(proc, signal.SIGINT)
    assert proc.returncode == 130, err
    kept = sum(int(p.stem.split("-")[2]) for p in chunks())  # chunk-<first>-<n>.npz on disk
    assert len(chunks()) == 1 and 0 < kept < 30000
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: interrupted (Ctrl-C) after {kept:,} of 30,000 games of standard; "), err
    assert f"; {kept:,} games are kept in the checkpoint {ck}" in last, err
    assert not out.exists() or not any(out.iterdir())


# ---------------------------------------------------------------- checkpoints


def test_an_edited_policy_never_gets_the_old_policys_games(capsys, tmp_path, policy_file):
    ck = tmp_path / "ck"
    args = ["run", "standard", "--players", "2", "--games", "300", "--seed", "4", "--json",
            "--bots", f"python:{policy_file}:first,random", "--checkpoint", ck]
    code, out, err = invoke(capsys, *args)
    assert code == 0, err
    policy_file.write_text(POLICY.replace("return legal_actions[0]\n\ndef sleepy",
                                          "return legal_actions[-1]\n\ndef sleepy"))
    code, out, err = invoke(capsys, *args)
    assert code == 2 and out == "", (out, err)
    line = one_error(err)
    assert "edited" in line and "bots.0" in line and "remove the folder or choose another" in line, line


def test_an_unedited_policy_resumes_from_its_checkpoint(capsys, tmp_path, policy_file):
    ck = tmp_path / "ck"
    args = ["run", "standard", "--players", "2", "--games", "300", "--seed", "4", "--json",
            "--bots", f"python:{policy_file}:first,random"]
    code, plain, err = invoke(capsys, *args)
    assert code == 0, err
    for _ in range(2):  # played into the checkpoint, then taken from it
        code, out, err = invoke(capsys, *args, "--checkpoint", ck)
        assert code == 0, err
        assert json.loads(out)["summary"] == json.loads(plain)["summary"]


# ---------------------------------------------------------------- failures of the policy


@pytest.mark.parametrize("name, says", [
    ("boom", "raised ValueError: boom (question "),
    ("exit0", "called sys.exit(0) (question "),
    ("exit3", "called sys.exit(3) (question "),
    ("half", "(a float, not an integer) to the question "),
    ("nine_tenths", "(a float, not an integer) to the question "),
    ("text", "(a str, not an integer) to the question "),
    ("true_when_one_is_legal", "answered True (a bool, not an integer) to the question "),
])
def test_a_failing_policy_is_one_line_naming_its_seat(capsys, tmp_path, policy_file, name, says):
    out = tmp_path / "o"
    code, text, err = invoke(capsys, "run", "standard", "--players", "3", "--games", "300", "--seed", "2",
                             "--bots", f"random,python:{policy_file}:{name},random", "--out", out)
    assert code == 2, (code, err)
    line = one_error(err)
    assert line.startswith(f"error: seat 1 (python:{policy_file}:{name}) ") and says in line, line
    assert text == "" and not out.exists()


def test_a_failing_policy_in_a_match_names_its_seat(capsys, tmp_path, policy_file):
    code, _, err = invoke(capsys, "match", "standard", "--players", "2", "--matches", "20",
                          "--bots", f"expert,python:{policy_file}:exit0", "--out", tmp_path / "m")
    assert code == 2, err
    assert one_error(err).startswith(f"error: seat 1 (python:{policy_file}:exit0) called sys.exit(0)"), err


def test_numpy_integers_are_actions(capsys, tmp_path, policy_file):
    code, _, err = invoke(capsys, "run", "standard", "--players", "2", "--games", "200",
                          "--bots", f"python:{policy_file}:numpy_int,random", "--out", tmp_path / "o")
    assert code == 0, err


def test_a_policy_that_mutates_its_legal_actions_is_judged_against_the_true_ones(capsys, tmp_path, policy_file):
    code, _, err = invoke(capsys, "run", "standard", "--players", "2", "--games", "50",
                          "--bots", f"python:{policy_file}:widen,random", "--out", tmp_path / "o")
    assert code == 2
    line = one_error(err)
    assert f"seat 0 (python:{policy_file}:widen) answered 999" in line and "999]" not in line, line
    code, _, err = invoke(capsys, "run", "standard", "--players", "2", "--games", "50",
                          "--bots", f"python:{policy_file}:shuffle_in_place,random", "--out", tmp_path / "p")
    assert code == 0, err


def test_what_a_policy_prints_goes_to_standard_error(capsys, tmp_path, policy_file):
    code, out, err = invoke(capsys, "run", "standard", "--players", "2", "--games", "50", "--json",
                            "--bots", f"python:{policy_file}:talkative,random")
    assert code == 0, err
    assert json.loads(out)["summary"]  # standard output is the JSON alone
    assert "thinking about" in err and "thinking about" not in out


# ---------------------------------------------------------------- the environments


def test_a_non_integer_action_is_no_action_in_the_environments():
    from uno_sim.env import Table, gym_env, uno_env

    env = gym_env(rules="standard", players=2, opponents="random", illegal="raise")
    _, info = env.reset(seed=3)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad in (legal + 0.9, float(legal), str(legal), np.float64(legal)):
        with pytest.raises(BadInput, match="not an integer action"):
            env.step(bad)
    lenient = gym_env(rules="standard", players=2, opponents="random")
    _, info = lenient.reset(seed=3)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    *_, info = lenient.step(legal + 0.9)
    assert info["illegal_action"]  # the seat's default was played, not action `legal`
    _, info = env.reset(seed=3)
    env.step(np.int64(np.flatnonzero(info["action_mask"])[0]))  # numpy integers are actions

    table = Table("standard", players=2, python_seats=[0, 1])
    table.reset(0)
    with pytest.raises(BadInput, match="not an integer action"):
        table.step(int(np.flatnonzero(table.mask)[0]) + 0.5)
    aec = uno_env(rules="standard", players=2)
    aec.reset(seed=0)
    legal = int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0])
    with pytest.raises(BadInput, match="not an integer action"):
        aec.step(legal + 0.5)
