"""Nothing clobbered, nothing silently wrong: special output files, one run per folder,
leftover temporary files, signals, bounds, tiny runs, small surprises."""

import json
import re
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from uno_sim import cli

UNO = [sys.executable, "-m", "uno_sim"]


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err, needle):
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert "Traceback" not in err and "unexpected failure" not in err


# ---------------------------------------------------------------- output files


def test_trace_into_a_fifo_writes_through_it(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    code, _, err = invoke(capsys, "trace", "standard", "--games", 2, "--out", fifo)
    reader.join(timeout=60)
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a FIFO, not replaced by a file
    events = [json.loads(line) for line in received[0].splitlines()]
    assert [e["ev"] for e in events].count("end") == 2


def test_trace_to_dev_null_and_dash(capsys):
    code, _, err = invoke(capsys, "trace", "standard", "--out", "/dev/null")
    assert code == 0, err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    code, out, _ = invoke(capsys, "trace", "standard", "--out", "-")
    assert code == 0 and json.loads(out.splitlines()[0])["ev"] == "deal"
    assert not Path("-").exists()


def test_trace_through_a_symlink_replaces_its_target(capsys, tmp_path):
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    code, _, err = invoke(capsys, "trace", "standard", "--out", link)
    assert code == 2  # it would replace an existing file
    one_error(err, "exists; choose a new file name, or add --force")
    code, _, err = invoke(capsys, "trace", "standard", "--out", link, "--force")
    assert code == 0, err
    assert link.is_symlink() and json.loads(target.read_text().splitlines()[0])["ev"] == "deal"


def trace_lines(text):
    return [json.loads(line) for line in text.splitlines()]


def test_trace_to_dev_stdout_through_a_pipe():
    done = subprocess.run([*UNO, "trace", "standard", "--games", "2", "--out", "/dev/stdout"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "error" not in done.stderr
    assert [e["ev"] for e in trace_lines(done.stdout)].count("end") == 2


@pytest.mark.parametrize("target", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_trace_to_stdout_opened_for_appending_appends(tmp_path, target):
    log = tmp_path / "log.txt"
    log.write_text("previous line\n")
    with open(log, "a") as appending:  # the shell's `>> log.txt`
        done = subprocess.run([*UNO, "trace", "standard", "--out", target], stdout=appending,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first, *rest = log.read_text().splitlines()
    assert first == "previous line"
    assert [e["ev"] for e in trace_lines("\n".join(rest))][0] == "deal"
    assert [e["ev"] for e in trace_lines("\n".join(rest))][-1] == "end"


def test_trace_to_dev_stdout_into_a_closed_pipe_exits_quietly():
    proc = subprocess.Popen([*UNO, "trace", "standard", "--games", "100000", "--out", "/dev/stdout"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    assert proc.stderr.read() == b""


def test_trace_write_failures_are_one_line(tmp_path):
    full = [*UNO, "trace", "standard", "--games", "3"]
    done = subprocess.run([*full, "--out", "/dev/full"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    one_error(done.stderr, "No space left on device")
    with open("/dev/full", "w") as device:  # stdout itself is full: default, `-` and /dev/stdout
        for out in ([], ["--out", "-"], ["--out", "/dev/stdout"]):
            done = subprocess.run([*full, *out], stdout=device, stderr=subprocess.PIPE, text=True, timeout=300)
            assert done.returncode == 2, (out, done.stderr)
            one_error(done.stderr, "No space left on device")
    readonly = tmp_path / "readonly.txt"
    readonly.write_text("")
    with open(readonly) as reading:  # stdout open for reading only: refused before anything runs
        done = subprocess.run([*full, "--out", "/dev/stdout"], stdout=reading, stderr=subprocess.PIPE, text=True,
                              timeout=300)
    assert done.returncode == 2
    one_error(done.stderr, "--out '/dev/stdout': cannot write to it")


def test_atomic_path_writes_through_an_open_descriptor_without_truncating(tmp_path):
    from uno_sim.output.files import atomic_path, descriptor_of

    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        path = f"/dev/fd/{fd}"
        assert descriptor_of(path) == (os.getpid(), fd)
        with atomic_path(path) as tmp:
            Path(tmp).write_bytes(b"new\n")
        assert log.read_text() == "kept\nnew\n" and not log.is_symlink()
    finally:
        os.close(fd)
    assert descriptor_of(log) is None and descriptor_of(tmp_path) is None


def test_a_full_stdout_or_disk_is_one_line_not_an_unexpected_failure(capsys, tmp_path, monkeypatch):
    with open("/dev/full", "w") as device:
        done = subprocess.run([*UNO, "run", "standard", "--games", "300", "--out", str(tmp_path / "a")],
                              stdout=device, stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 1
    one_error(done.stderr, "cannot write to standard output: No space left on device")
    assert "unexpected" not in done.stderr

    from uno_sim.output import charts, writing_process

    def full_disk(data, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(charts, "write_png", full_disk)
    # the files written by this process (a writing process, used when a core is idle, has its own
    # test of a failing chart: test_writing_process.py)
    monkeypatch.setattr(writing_process, "cores_taken", lambda: True)
    code, _, err = invoke(capsys, "run", "standard", "--games", 300, "--out", tmp_path / "b")
    assert code == 2
    one_error(err, "--out")
    assert "No space left on device" in err and "unexpected" not in err
    assert not (tmp_path / "b").exists()


def test_a_folder_holds_one_run(capsys, tmp_path):
    out = tmp_path / "prev"
    assert invoke(capsys, "run", "standard", "--games", 300, "--per-game", "--out", out)[0] == 0
    (out / "notes.txt").write_text("mine")
    code, _, err = invoke(capsys, "run", "stacking", "--games", 300, "--out", out)
    assert code == 2
    one_error(err, "is not empty")
    assert (out / "games.csv").exists()  # untouched
    code, _, err = invoke(capsys, "run", "stacking", "--games", 300, "--out", out, "--force")
    assert code == 0, err
    assert not (out / "games.csv").exists()  # the earlier run's file is gone: no mix of two runs
    assert (out / "notes.txt").read_text() == "mine"  # not uno-sim's: kept
    assert set(pd.read_csv(out / "summary.csv")["variant"]) == {"stacking"}


def test_a_folder_another_run_writes_into_is_refused(capsys, tmp_path):
    """Two runs into one folder at once both said "wrote ..." and left a mix of both."""
    from uno_sim.output.files import LOCK, OutputFolder

    out = tmp_path / "o"
    with OutputFolder(out) as other:  # another run, writing into the folder right now
        for force in ([], ["--force"]):
            code, stdout, err = invoke(capsys, "run", "standard", "--games", 200, "--out", out, *force)
            assert code == 2 and stdout == ""
            one_error(err, f"--out '{out}' is in use by another uno-sim run (process {os.getpid()})")
        assert [p.name for p in out.iterdir()] == [LOCK]
        (other.path_for(out / "summary.csv")).write_text("the other run's\n")
    assert sorted(p.name for p in out.iterdir()) == [".uno-sim-files", "summary.csv"]  # the lock is gone
    code, _, err = invoke(capsys, "run", "standard", "--games", 200, "--out", out, "--force")
    assert code == 0, err


def test_a_folder_filled_after_the_check_is_refused_when_writing_begins(tmp_path):
    """A run checks its folder before it plays; another run may finish into it meanwhile."""
    from uno_sim.output.files import OutputError, OutputFolder, check_out_dir

    out = tmp_path / "o"
    check_out_dir(out)  # fine: it does not exist yet
    with OutputFolder(out) as first:
        first.path_for(out / "summary.csv").write_text("first\n")
    with pytest.raises(OutputError, match="is not empty"):
        with OutputFolder(out) as second:
            second.path_for(out / "summary.csv").write_text("second\n")
    assert (out / "summary.csv").read_text() == "first\n"
    assert not (out / ".uno-sim-lock").exists()


def test_two_runs_started_together_into_one_folder(tmp_path):
    out = tmp_path / "o"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    procs = [subprocess.Popen([*UNO, "run", name, "--games", "20000", "--out", str(out)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in ("standard", "stacking")]
    results = [(p.wait(timeout=600), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    (loser_err,) = [err for code, _, err in results if code == 2]
    assert loser_err.count("\n") == 1 and ("is in use by another uno-sim run" in loser_err
                                           or "is not empty" in loser_err), loser_err
    (winner_out,) = [o for code, o, _ in results if code == 0]
    assert winner_out.count("wrote ") >= 3
    variants = set(pd.read_csv(out / "summary.csv")["variant"]) | set(pd.read_csv(out / "distributions.csv")["variant"])
    assert len(variants) == 1  # every file from the one run that wrote


def test_trace_does_not_replace_an_existing_file_without_force(capsys, tmp_path):
    target = tmp_path / "t.jsonl"
    target.write_text("keep me\n")
    code, _, err = invoke(capsys, "trace", "standard", "--out", target)
    assert code == 2
    one_error(err, f"--out '{target}' exists; choose a new file name, or add --force to replace it")
    assert target.read_text() == "keep me\n"
    code, _, err = invoke(capsys, "trace", "standard", "--out", target, "--force")
    assert code == 0, err
    assert json.loads(target.read_text().splitlines()[0])["ev"] == "deal"


def test_leftover_temporary_files_are_removed(capsys, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    stale = out / ".games.csv.k2j4_x9a.tmp"
    stale.write_bytes(b"x" * 1000)
    other = out / ".keep.tmp"  # not uno-sim's pattern
    other.write_text("x")
    code, _, err = invoke(capsys, "run", "standard", "--games", 200, "--out", out, "--force")
    assert code == 0, err
    assert not stale.exists() and other.exists()


def test_a_killed_trace_leaves_a_temporary_file_the_next_trace_removes(capsys, tmp_path):
    import fcntl

    target = tmp_path / "x.jsonl"
    proc = subprocess.Popen([*UNO, "trace", "standard", "--games", "100000000", "--out", str(target)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while (not any(p.stat().st_size > 0 for p in tmp_path.glob(".x.jsonl.*.tmp")) and time.time() < deadline
           and proc.poll() is None):
        time.sleep(0.05)
    proc.kill()  # SIGKILL: no clean-up of its own
    proc.wait(timeout=60)
    (leftover,) = tmp_path.glob(".x.jsonl.*.tmp")
    # beside it: a write of the same file still under way (its writer holds the lock), another
    # file's leftover, and a file that is not uno-sim's
    running = tmp_path / ".x.jsonl.Run9ning.tmp"
    running.write_text("partial")
    holder = os.open(running, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    other = tmp_path / ".y.jsonl.abcd1234.tmp"
    other.write_text("y")
    mine = tmp_path / ".x.jsonl.tmp"
    mine.write_text("mine")
    try:
        code, _, err = invoke(capsys, "trace", "standard", "--out", target)
        assert code == 0, err
        assert not leftover.exists()
        assert running.read_text() == "partial" and other.exists() and mine.exists()
        assert json.loads(target.read_text().splitlines()[0])["ev"] == "deal"
        # a run into the folder removes every leftover, but not a running writer's file
        code, _, err = invoke(capsys, "run", "standard", "--games", 200, "--out", tmp_path, "--force")
        assert code == 0, err
        assert not other.exists() and running.exists() and mine.exists()
    finally:
        os.close(holder)
    code, _, err = invoke(capsys, "trace", "standard", "--out", target, "--force")
    assert code == 0, err
    assert not running.exists()  # its writer has gone now


# ---------------------------------------------------------------- signals


@pytest.mark.parametrize("signum, status, word", [(signal.SIGINT, 130, "interrupted"),
                                                 (signal.SIGTERM, 143, "terminated")])
def test_a_signal_stops_cleanly(tmp_path, signum, status, word):
    out = tmp_path / "o"
    proc = subprocess.Popen([*UNO, "run", "standard", "--games", "100000000", "--per-game", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while (not any(p.stat().st_size > 0 for p in out.glob(".games.csv.*.tmp")) and time.time() < deadline
           and proc.poll() is None):
        time.sleep(0.05)  # wait for the run to be under way: games written to its per-game file
    time.sleep(1.0)
    sent = time.time()
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert time.time() - sent < 5
    assert proc.returncode == status, err
    lines = err.strip().splitlines()
    # the progress lines of a run without a terminal (the engine's start-up, the run's start),
    # then exactly one error line, last
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1 and lines[-1] == errors[0], err
    assert lines[-1].startswith(f"error: {word}") and "games of standard" in lines[-1], err
    assert all(line.startswith(("compiling the engine", "engine compiled", "standard: ")) for line in lines[:-1]), err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())  # no temporary file left


@pytest.mark.parametrize("to_file", [True, False])
def test_a_signal_stops_a_trace_saying_how_far_it_got(tmp_path, to_file):
    """SIGINT during a trace: one line with the games traced; to a file nothing is left, to
    standard output the line says what went out (whole games, every one ending in `end`)."""
    target = tmp_path / "t.jsonl"
    out = ["--out", str(target)] if to_file else []
    with open(tmp_path / "stdout.txt", "w") as stdout:
        proc = subprocess.Popen([*UNO, "trace", "standard", "--games", "100000000", *out], stdout=stdout,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 300
        sink = target if to_file else tmp_path / "stdout.txt"
        grown = lambda: any(p.stat().st_size > 100_000 for p in [*tmp_path.glob(".t.jsonl.*.tmp"), sink] if p.exists())
        while not grown() and time.time() < deadline and proc.poll() is None:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    last = err.strip().splitlines()[-1]
    match = re.fullmatch(r"error: interrupted \(Ctrl-C\) after ([\d,]+) of 100,000,000 games traced; (.*)", last)
    assert match, err
    done = int(match.group(1).replace(",", ""))
    if to_file:
        assert match.group(2) == "nothing was written"
        assert not target.exists() and not list(tmp_path.glob(".t.jsonl.*"))
    else:
        assert match.group(2) == f"the events of {done:,} whole games went to standard output"
        ends = sum(1 for line in (tmp_path / "stdout.txt").read_text().splitlines() if '"ev":"end"' in line)
        assert ends >= done > 0


def test_trace_into_a_closed_pipe_exits_quietly():
    proc = subprocess.Popen([*UNO, "trace", "standard", "--games", "100000"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    assert proc.stderr.read() == b""


@pytest.mark.parametrize("argv", [["presets"], ["run", "standard", "--games", "2000"]])
def test_every_command_into_a_closed_pipe_exits_quietly(argv, tmp_path):
    """`uno-sim ... | head -1` under `set -o pipefail`: exit 0, nothing on stderr, and the
    folder of a run complete (it is written before the tables are printed)."""
    out = ["--out", str(tmp_path / "o")] if argv[0] == "run" else []
    done = subprocess.run(["bash", "-c", 'set -o pipefail; "$@" | head -1 > /dev/null', "sh", *UNO, *argv, *out],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr
    if out:
        assert (tmp_path / "o" / "summary.csv").is_file() and (tmp_path / "o" / "report.html").is_file()


def run_with_stdout_closed(argv, cwd):
    """The command started with standard output closed, as `uno-sim ... >&-` does."""
    return subprocess.run(["bash", "-c", '"$@" >&-', "sh", *UNO, *argv], cwd=cwd, stderr=subprocess.PIPE,
                          text=True, timeout=300)


@pytest.mark.parametrize("argv, message", [
    (["trace", "standard"], "error: standard output is closed: nowhere to write the trace (give --out FILE)"),
    (["run", "standard", "--games", "2000", "--json", "--out", "o"], "error: --json: standard output is closed"),
])
def test_output_meant_for_a_closed_stdout_is_refused_before_playing(argv, message, tmp_path):
    """With standard output closed (`>&-`) a trace or --json has nowhere to go: one line
    naming the problem, exit 2, nothing played or written (it was AttributeError, exit 1)."""
    done = run_with_stdout_closed(argv, tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_a_run_with_stdout_closed_writes_its_folder_and_says_the_tables_were_not_shown(tmp_path):
    done = run_with_stdout_closed(["run", "standard", "--games", "2000", "--out", "o"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "note: standard output is closed: the tables were not shown" in done.stderr
    assert "wrote o/summary.csv" in done.stderr and (tmp_path / "o" / "report.html").is_file()


# ---------------------------------------------------------------- bounds and small surprises


BAD = [
    (["run", "standard", "--set", f"max_turns={10**19}"], "max_turns"),
    (["run", "standard", "--set", f"challenge_extra={10**19}"], "challenge_extra"),
    (["run", "standard", "--set", f"zero_points={2**62}"], "zero_points"),
    (["run", "standard", "--set", "uno_penalty=1000"], "uno_penalty"),
    (["match", "standard", "--target", f"{10**19}"], "--target"),
    (["match", "standard", "--target", "1000000000"], "target"),
    (["run", "standard", "--games", f"{10**13}"], "--games"),
    (["run", "standard", "--set", "hand_size=5", "--set", "hand_size=6"], "hand_size is given twice"),
    (["sweep", "standard", "--vary", "players=2,3", "--vary", "players=4"], "given twice"),
    (["sweep", "standard", "--vary", "hand_size=1..200"], "at most 100"),
]


@pytest.mark.parametrize("args, needle", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bounds_and_repeats_exit_2(capsys, tmp_path, args, needle):
    code, _, err = invoke(capsys, *args, "--out", tmp_path / "o")
    assert code == 2
    one_error(err, needle)
    assert not (tmp_path / "o").exists()


def test_match_target_out_of_reach_is_refused(capsys, tmp_path):
    from uno_sim.running.warmup import warm_up

    warm_up("matches")  # else a cold cache adds the compile note to stderr
    code, _, err = invoke(capsys, "match", "standard", "--target", 1_000_000, "--out", tmp_path / "o")
    assert code == 2
    one_error(err, "out of reach")


def test_match_checks_out_before_its_pilot(capsys, tmp_path, monkeypatch):
    """A bad --out fails at once: the pilot (and the engine's start-up) never runs, and the
    folder's error wins over a target that the pilot would refuse."""
    import uno_sim.running.games

    def no_pilot(*args, **kwargs):
        raise AssertionError("the pilot played before --out was checked")

    monkeypatch.setattr(uno_sim.running.games, "simulate", no_pilot)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "mine.txt").write_text("kept")
    for extra in ([], ["--target", 1_000_000]):
        code, _, err = invoke(capsys, "match", "standard", "--matches", 10, *extra, "--out", busy)
        assert code == 2
        one_error(err, "is not empty")
    assert sorted(p.name for p in busy.iterdir()) == ["mine.txt"]


def test_match_plan_without_pilot_still_refuses_an_unreachable_target(tmp_path):
    from uno_sim import BadInput, api

    plan = api.prepare_match("standard", matches=10, target=1_000_000, pilot=False)
    assert plan.expected_rounds is None
    with pytest.raises(BadInput, match="out of reach"):
        plan.execute()


def test_tiny_runs_work_for_every_command(capsys, tmp_path):
    runs = [
        ["run", "standard", "--games", 1],
        ["compare", "standard", "stacking", "--games", 1],
        ["sweep", "standard", "--vary", "players=2,3", "--games", 1],
        ["sweep", "standard", "--vary", "jump_in=false,true", "--games", 1],
        ["match", "standard", "--matches", 1],
        ["trace", "standard", "--games", 1],
    ]
    for i, args in enumerate(runs):
        extra = ["--out", tmp_path / f"o{i}"] if args[0] != "trace" else []
        code, _, err = invoke(capsys, *args, *extra)
        assert code == 0, (args, err)


def test_compare_labels_stay_distinct(capsys, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.toml").write_text("[rules]\njump_in = true\n")
    (tmp_path / "p" / "x-2.toml").write_text("[rules]\nseven_swap = true\n")
    x, x2 = tmp_path / "p" / "x.toml", tmp_path / "p" / "x-2.toml"
    code, _, err = invoke(capsys, "compare", x, x2, x, "--games", 200, "--out", tmp_path / "o")
    assert code == 0, err
    labels = list(dict.fromkeys(pd.read_csv(tmp_path / "o" / "compare.csv")["variant"]))
    assert len(labels) == 3 and len(set(labels)) == 3 and labels[:2] == ["x", "x-2"]


def test_version(capsys):
    import uno_sim

    code, out, _ = invoke(capsys, "--version")
    assert code == 0 and out.strip() == f"uno-sim {uno_sim.__version__}"


def test_bench_write_checks_its_target_first(capsys, tmp_path):
    (tmp_path / "benchmarks.json").write_text('{"something": "else"}')
    started = time.time()
    code, _, err = invoke(capsys, "bench", "--write", tmp_path / "x.md")
    assert code == 2 and time.time() - started < 10
    one_error(err, "not a uno-sim benchmarks.json")
    assert not (tmp_path / "x.md").exists()


def test_bench_write_into_a_missing_folder_fails_before_running(capsys, tmp_path):
    started = time.time()
    code, _, err = invoke(capsys, "bench", "--write", tmp_path / "nowhere" / "b.md")
    assert code == 2 and time.time() - started < 10
    one_error(err, f"the folder '{tmp_path / 'nowhere'}' does not exist")


def test_unwritable_cache_folder_falls_back_with_a_note(tmp_path, monkeypatch, capsys):
    from uno_sim.engine import jit

    monkeypatch.setenv("NUMBA_CACHE_DIR", "/dev/null/cache")  # cannot be created, even by root
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    folder = jit.cache_dir()
    assert str(folder).startswith(str(tmp_path / "user-cache"))
    assert "NUMBA_CACHE_DIR /dev/null/cache is not writable" in capsys.readouterr().err
    package = Path(jit.__file__).resolve().parent.parent
    assert package not in folder.parents


def test_a_run_where_nobody_wins_says_so(tmp_path):
    """--set max_turns=1: every game ends by the cap. The headline says nobody won (it said the
    first player wins 0.00%, 25.00 pp less than the fair share), the charts draw without a
    matplotlib warning on stderr (an empty legend), and the cumulative curve of the game
    lengths shows its single value."""
    done = subprocess.run([*UNO, "run", "standard", "--set", "max_turns=1", "--games", "2000", "--out",
                           str(tmp_path / "o")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert "no game had a winner (ended by 100.00% cap)" in first and "percentage points" not in first
    assert "Warning" not in done.stderr and "legend" not in done.stderr
    from uno_sim import api
    from uno_sim.output.charts import game_lengths

    run = api.run("standard", games=500, overrides={"max_turns": 1})
    fig = game_lengths([run._chart_variant()])
    ecdf = fig.axes[1].lines[0]
    assert len(ecdf.get_xdata()) >= 2 and ecdf.get_ydata()[-1] == 1.0
