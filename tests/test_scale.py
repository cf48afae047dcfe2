"""Beyond one machine and one sitting: Dask clusters (byte-identical results), checkpoints
and resume (after SIGKILL, SIGINT, SIGTERM or a lost worker), and grid sweeps (presets as
an axis, heatmaps, the ranked table of grid points)."""

from __future__ import annotations

import filecmp
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from uno_sim import api
from uno_sim.running import checkpoint as ck_mod, chunks, cluster as cluster_mod
from uno_sim.game.bots import parse_bots
from uno_sim.cli import run_cli
from uno_sim.game.errors import RunFailure
from uno_sim.game.presets import load as load_preset

UNO = [sys.executable, "-m", "uno_sim"]


def cli(capsys, *args):
    code = run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def same_files(a: Path, b: Path, names) -> None:
    for name in names:
        assert filecmp.cmp(a / name, b / name, shallow=False), f"{name} differs"


def start_cli(*args) -> subprocess.Popen:
    """The command line in a child process that takes SIGINT like a terminal's Ctrl-C."""
    return subprocess.Popen([*UNO, *[str(a) for a in args]], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_chunks(folder: Path, count: int, proc: subprocess.Popen, timeout: float = 240.0,
                    unit: str = "unit-0000") -> int:
    """Wait until the checkpoint holds `count` chunk files of `unit` (the child still running)."""
    unit = folder / unit
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = len(list(unit.glob("chunk-*.npz"))) if unit.is_dir() else 0
        if found >= count:
            return found
        assert proc.poll() is None, f"the run ended early: {proc.communicate()}"
        time.sleep(0.02)
    raise AssertionError("no chunks recorded in time")


def local_cluster():
    """LocalCluster(n_workers=2, threads_per_worker=1, processes=True) on 127.0.0.1, no dashboard."""
    import warnings

    from distributed import LocalCluster

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "port 8787 in use" (the scheduler's HTTP endpoint, on 127.0.0.1)
        return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                            host="127.0.0.1", silence_logs=logging.CRITICAL)


@pytest.fixture(scope="module")
def scheduler():
    """A Dask cluster of two worker processes on 127.0.0.1 only; its scheduler's address."""
    cluster = local_cluster()
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


# ---------------------------------------------------------------- pieces


def test_fixed_plan_is_a_function_of_the_unit_and_covers_it():
    from uno_sim.running.games import GameWork

    for total in (1, 5000, 16384, 100_000, 1_000_000, 20_000_000, 10**9):
        size = chunks.fixed_chunk(GameWork, total)
        assert size & (size - 1) == 0 and GameWork.fixed_min <= size <= GameWork.fixed_max
        plan = chunks.fixed_plan(total, size)
        assert plan[0][0] == 0 and sum(n for _, n in plan) == total
        assert all(a + n == b for (a, n), (b, _) in zip(plan, plan[1:]))


def test_play_in_blocks_equals_the_rows_aggregated():
    """What a cluster worker sends back for a chunk: the aggregate of exactly its games."""
    from uno_sim.engine.batch import run_chunk
    from uno_sim.running.games import game_work
    from uno_sim import stats

    rules = load_preset("stacking", players=5)
    bots = parse_bots("expert,random,greedy,random,random", 5)
    work = game_work(rules, bots, seed=4, rotate_seats=True)
    work.cap = 700  # several blocks, the last one short
    played = chunks.play(work, 1234, 3000)
    rows = run_chunk(work.packed, work.codes, work.params, work.key, 1234, 3000, rotate=True, workers=2)
    labels = [b.label for b in bots]
    assert played.games == 3000
    pd.testing.assert_frame_equal(stats.summarize(played, "x", labels), stats.summarize(work.reduce(rows), "x", labels))


def test_aggregates_round_trip_through_checkpoint_arrays():
    from uno_sim import stats
    from uno_sim.running.matches import simulate_matches
    from uno_sim.stats.matches import summarize_matches
    from uno_sim.running.games import simulate

    bots = parse_bots("expert,random,random,random", 4)
    run = simulate(load_preset("standard"), bots, 4000, 3, workers=2, progress=False, rotate_seats=True)
    back = ck_mod.from_arrays(run.aggregate.__class__(4, rotate=True), ck_mod.to_arrays(run.aggregate))
    labels = [b.label for b in bots]
    pd.testing.assert_frame_equal(stats.summarize(back, "x", labels), run.summary("x"))
    pd.testing.assert_frame_equal(stats.distributions_frame(back, "x"), run.distributions("x"))
    chips = load_preset("chips")
    res = simulate_matches(chips, parse_bots(None, chips.players), 600, 5, workers=2, progress=False)
    template = res.aggregate.__class__(chips.players, chips.teams, False, chips.match_scoring, chips.match_rounds)
    back = ck_mod.from_arrays(template, ck_mod.to_arrays(res.aggregate))
    pd.testing.assert_frame_equal(summarize_matches(back, "x", [b.label for b in res.bots]), res.summary("x"))
    with pytest.raises(ValueError):  # settings are checked, not overwritten
        ck_mod.from_arrays(run.aggregate.__class__(5), ck_mod.to_arrays(run.aggregate))


def test_match_aggregates_merge_exactly():
    from uno_sim.engine.batch import run_matches
    from uno_sim.running.matches import match_work
    from uno_sim.stats.matches import summarize_matches

    rules = load_preset("standard", overrides={"match_scoring": "loser_penalty", "target": 200})
    bots = parse_bots("expert,random,random,random", 4)
    work = match_work(rules, bots, 8, rotate_seats=True)
    rows = run_matches(work.packed, work.codes, work.params, work.key, 0, 900, chunks_seatings(4), workers=2)
    whole = work.reduce(rows)
    parts = work.reduce(rows[:333])
    parts.merge(work.reduce(rows[333:]))
    labels = [b.label for b in bots]
    pd.testing.assert_frame_equal(summarize_matches(parts, "x", labels), summarize_matches(whole, "x", labels))


def chunks_seatings(players):
    from uno_sim.engine.match import seating_classes

    return seating_classes(players)


# ---------------------------------------------------------------- Dask


@pytest.mark.slow
def test_cluster_run_is_byte_identical_to_threads(capsys, tmp_path, scheduler):
    args = ["run", "standard", "--games", 70000, "--seed", 5, "--bots", "expert,random,greedy,random",
            "--rotate-seats"]
    code, _, err = cli(capsys, *args, "--workers", 2, "--out", tmp_path / "threads")
    assert code == 0, err
    code, out, err = cli(capsys, *args, "--cluster", scheduler, "--out", tmp_path / "cluster")
    assert code == 0, err
    assert f"the Dask cluster at {scheduler}" in " ".join(out.split())
    same_files(tmp_path / "threads", tmp_path / "cluster", ["summary.csv", "distributions.csv"])


@pytest.mark.slow
def test_cluster_compare_sweep_and_match_are_byte_identical(tmp_path, scheduler):
    from uno_sim import stats

    def written(result, folder):
        folder.mkdir()
        for name, write in result.files().items():
            if name.endswith(".csv"):
                write(folder / name)
        return sorted(p.name for p in folder.iterdir())

    for label, call in [
        ("compare", lambda **kw: api.compare(["standard", "stacking"], games=30000, seed=2, **kw)),
        ("sweep", lambda **kw: api.sweep("standard", ["players=2..4", "jump_in=false,true"], games=9000, seed=1,
                                         **kw)),
        ("match", lambda **kw: api.match("standard", matches=3000, seed=6, **kw)),
    ]:
        names = written(call(workers=2), tmp_path / f"{label}-threads")
        assert names == written(call(cluster=scheduler), tmp_path / f"{label}-cluster")
        same_files(tmp_path / f"{label}-threads", tmp_path / f"{label}-cluster", names)
    assert stats  # imported for the writers


@pytest.mark.slow
def test_a_rule_files_deck_plays_on_the_cluster_with_the_same_bytes(capsys, tmp_path, scheduler):
    """The cluster's workers play the rule set's own deck (it travels with the pickled work)."""
    example = Path(__file__).resolve().parent.parent / "examples" / "diy-wild-draw-six.toml"
    args = ["run", example, "--games", 30000, "--seed", 4]
    code, _, err = cli(capsys, *args, "--workers", 2, "--out", tmp_path / "threads")
    assert code == 0, err
    code, _, err = cli(capsys, *args, "--cluster", scheduler, "--out", tmp_path / "cluster")
    assert code == 0, err
    same_files(tmp_path / "threads", tmp_path / "cluster", ["summary.csv", "distributions.csv"])
    code, _, err = cli(capsys, "run", "standard", "--games", 30000, "--seed", 4, "--out", tmp_path / "classic")
    assert code == 0, err
    import pandas as pd

    values = [pd.read_csv(tmp_path / name / "summary.csv").set_index("metric")["value"] for name in ("classic", "cluster")]
    assert values[1]["mean_max_pending"] > values[0]["mean_max_pending"]  # Wild Draw Sixes were played


@pytest.mark.slow
def test_cluster_local_starts_its_own_workers(capsys, tmp_path):
    code, _, err = cli(capsys, "run", "stacking", "--games", 40000, "--seed", 9, "--out", tmp_path / "t")
    assert code == 0, err
    code, out, err = cli(capsys, "run", "stacking", "--games", 40000, "--seed", 9, "--cluster", "local:2",
                         "--out", tmp_path / "c")
    assert code == 0, err
    assert "a local Dask cluster of 2 worker processes" in " ".join(out.split())
    same_files(tmp_path / "t", tmp_path / "c", ["summary.csv", "distributions.csv"])


@pytest.mark.slow
def test_skill_games_play_on_the_cluster_too(capsys, tmp_path, monkeypatch, scheduler):
    """--skill with --cluster: the skill games go through the cluster like the main games
    (no chunk is played on this process's threads), with the same bytes as on threads."""
    args = ["compare", "standard", "stacking", "--games", 30000, "--seed", 4, "--skill"]
    code, _, err = cli(capsys, *args, "--workers", 2, "--out", tmp_path / "threads")
    assert code == 0, err
    threads_sweep = api.sweep("standard", ["players=2,3"], games=20000, seed=6, skill=True, workers=2)

    def played_here(*args, **kwargs):
        raise AssertionError("a chunk was played on this process's threads, not on the cluster")

    monkeypatch.setattr(chunks.Threads, "submit", played_here)
    code, out, err = cli(capsys, *args, "--cluster", "local:2", "--out", tmp_path / "cluster")
    assert code == 0, err
    assert "a local Dask cluster of 2 worker processes" in " ".join(out.split())
    assert "plus 60,000 skill-index games" in out
    same_files(tmp_path / "threads", tmp_path / "cluster", ["compare.csv", "differences.csv", "distributions.csv"])
    cluster_sweep = api.sweep("standard", ["players=2,3"], games=20000, seed=6, skill=True, cluster=scheduler)
    assert "skill_index" in set(cluster_sweep.summary["metric"])
    pd.testing.assert_frame_equal(cluster_sweep.summary, threads_sweep.summary)


def test_cluster_without_dask_says_what_to_install(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails as if not installed
    code, out, err = cli(capsys, "run", "standard", "--games", 1000, "--cluster", "local:2", "--out", tmp_path / "o")
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "pip install 'uno-sim[cluster]'" in err
    assert not (tmp_path / "o").exists()


from uno_sim.running.chunks import available_threads  # noqa: E402

MOST_LOCAL = 4 * available_threads()


@pytest.mark.parametrize("value, needle", [("nonsense", "scheduler address"), ("local:0", f"1-{MOST_LOCAL}"),
                                           ("http://x:1", "scheduler address"),
                                           # one worker process a core is what plays; local:1000 on 2 cores
                                           # started 1000 processes (load 72, SIGTERM ignored)
                                           (f"local:{MOST_LOCAL + 1}", f"1-{MOST_LOCAL} (this machine gives"),
                                           ("local:1000", "worker processes must be")])
def test_bad_cluster_values(capsys, tmp_path, value, needle):
    code, _, err = cli(capsys, "run", "standard", "--cluster", value, "--out", tmp_path / "o")
    assert code == 2 and needle in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


class _Listener:
    """A TCP server on 127.0.0.1 (a free port) that is not a Dask scheduler: `silent` accepts
    and says nothing (as a web server waiting for a request), `garbage` answers with bytes
    whose first eight read as a length of exabytes."""

    def __init__(self, answer: bytes):
        import socket

        self.answer = answer
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.held = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.answer:
                try:
                    conn.sendall(self.answer)
                except OSError:
                    pass

    def close(self):
        self.sock.close()
        for conn in self.held:
            conn.close()


def _cli_within(capsys, seconds, *args):
    """The command's (code, out, err, elapsed); an alarm stops it after `seconds` (it hung
    for minutes), which the elapsed time then shows."""
    def alarm(signum, frame):
        raise TimeoutError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        code = run_cli([str(a) for a in args])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - started


@pytest.mark.parametrize("kind", ["silent", "garbage", "http"])
def test_an_address_that_is_not_a_dask_scheduler_is_refused_fast(capsys, tmp_path, kind):
    """Only listeners of our own on 127.0.0.1. It hung silently for minutes (a web server),
    or ended in "MemoryError: Unable to allocate 3.07 EiB" (an answer in another protocol)."""
    if kind == "http":
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port, stop = server.server_address[1], server.shutdown
    else:
        listener = _Listener(b"" if kind == "silent" else b"\xff" * 8 + b"HTTP/1.1 400 Bad Request\r\n\r\n")
        port, stop = listener.port, listener.close
    try:
        code, _, err, elapsed = _cli_within(capsys, 30, "run", "standard", "--games", 1000, "--cluster",
                                            f"tcp://127.0.0.1:{port}", "--out", tmp_path / "o")
    finally:
        stop()
    assert code == 2 and elapsed < 8, (code, elapsed, err)
    assert err.count("\n") == 1 and err.startswith("error: --cluster tcp://127.0.0.1:")
    assert "is not a Dask scheduler" in err and "MemoryError" not in err
    assert not (tmp_path / "o").exists()


def test_unreachable_scheduler_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(cluster_mod, "CONNECT_SECONDS", 1)
    code, _, err = cli(capsys, "run", "standard", "--games", 1000, "--cluster", "tcp://127.0.0.1:9",
                       "--out", tmp_path / "o")
    assert code == 2 and "cannot reach a Dask scheduler" in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("extra", [["--cluster", "local:2"], ["--checkpoint", "CK"]])
def test_per_game_rows_are_refused_with_cluster_or_checkpoint(capsys, tmp_path, extra):
    extra = [str(tmp_path / "ck") if e == "CK" else e for e in extra]
    code, _, err = cli(capsys, "run", "standard", "--games", 1000, "--per-game", *extra, "--out", tmp_path / "o")
    assert code == 2 and "--per-game" in err and extra[0] in err
    assert not (tmp_path / "o").exists() and not (tmp_path / "ck").exists()


# ---------------------------------------------------------------- checkpoints


def test_sigkill_then_resume_gives_the_uninterrupted_bytes(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["run", "standard", "--games", 1_000_000, "--seed", 7, "--workers", 2]
    code, _, err = cli(capsys, *args, "--out", "whole")
    assert code == 0, err
    proc = start_cli(*args, "--out", "cut", "--checkpoint", "ck")
    found = wait_for_chunks(tmp_path / "ck", 3, proc)
    proc.kill()
    proc.wait()
    chunk_files = sorted((tmp_path / "ck" / "unit-0000").glob("chunk-*.npz"))
    assert found <= len(chunk_files) < 16  # 16 chunks of 65,536 in all
    assert not (tmp_path / "cut" / "summary.csv").exists()
    chunk_files[1].write_bytes(chunk_files[1].read_bytes()[:100])  # a damaged file is played again, not trusted
    code, out, err = cli(capsys, "resume", "ck")
    assert code == 0, err
    assert f"{65536 * len(chunk_files):,} of 1,000,000 games are kept" in " ".join(err.split())
    kept = 65536 * (len(chunk_files) - 1)  # all but the damaged one
    assert f"{1_000_000 - kept:,} games played" in " ".join(out.split())
    assert f"{kept:,} more taken from the checkpoint" in " ".join(out.split())
    same_files(tmp_path / "whole", tmp_path / "cut", ["summary.csv", "distributions.csv"])
    assert [p.name for p in (tmp_path / "ck" / "unit-0000").iterdir()] == ["total.npz"]
    # The same command again: nothing to play, the same bytes.
    code, out, err = cli(capsys, *args, "--out", "again", "--checkpoint", "ck")
    assert code == 0, err
    assert "all 1,000,000 games taken from the checkpoint" in " ".join(out.split())
    same_files(tmp_path / "whole", tmp_path / "again", ["summary.csv", "distributions.csv"])


@pytest.mark.parametrize("damage", ["empty", "truncated"])
def test_resume_of_a_damaged_checkpoint_file_says_it_is_damaged(capsys, tmp_path, monkeypatch, damage):
    """It said "holds no command line to repeat (made from Python?)"."""
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "run", "standard", "--games", 2000, "--checkpoint", "ck", "--out", "o")
    assert code == 0, err
    manifest = tmp_path / "ck" / "checkpoint.json"
    text = manifest.read_text()
    manifest.write_text("" if damage == "empty" else text[: len(text) // 2])
    code, out, err = cli(capsys, "resume", "ck")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "made from Python" not in err, err
    assert err.startswith(f"error: the checkpoint file 'ck/checkpoint.json' is damaged "
                          f"({'empty' if damage == 'empty' else 'cut short or not JSON'}")


def test_resume_of_an_edited_checkpoint_does_not_advise_resuming_it(capsys, tmp_path, monkeypatch):
    """It advised `uno-sim resume ck`, the very command that had just failed."""
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "run", "standard", "--games", 2000, "--seed", 3, "--checkpoint", "ck", "--out", "o")
    assert code == 0, err
    manifest = tmp_path / "ck" / "checkpoint.json"
    data = json.loads(manifest.read_text())
    data["units"][0]["seed"] = 99  # edited by hand
    manifest.write_text(json.dumps(data))
    code, _, err = cli(capsys, "resume", "ck")
    (error,) = [line for line in err.splitlines() if line.startswith("error: ")]  # after the "resuming: ..." note
    assert code == 2 and error == err.splitlines()[-1], err
    assert error.startswith("error: the checkpoint file 'ck/checkpoint.json' does not match its own command line "
                            "(seed: 99 in the checkpoint, 3 now)")
    assert "uno-sim resume" not in error and "remove the folder" in error


SIX = ('extends = "standard"\n[deck]\nbase = "classic"\n[[deck.kinds]]\ntext = "W6"\ncolored = false\n'
       'copies = 2\ndraw = {draw}\nrestricted = true\n')


def test_a_rule_file_edited_after_its_checkpoint_is_named_and_resume_is_not_advised(capsys, tmp_path, monkeypatch):
    """The same command after its rule file was edited advised `uno-sim resume ck`, and resume
    then said the checkpoint "was edited or damaged"; the difference read `deck.15.draw`. Now
    both name the kind by its text and say that a file the command reads changed; neither
    advises resume; with the file put back, the same command continues from the checkpoint."""
    monkeypatch.chdir(tmp_path)
    rules = tmp_path / "six.toml"
    rules.write_text(SIX.format(draw=6), encoding="utf-8")
    command = ["run", "six.toml", "--games", 2000, "--seed", 3, "--checkpoint", "ck", "--out", "o"]
    code, _, err = cli(capsys, *command)
    assert code == 0, err
    rules.write_text(SIX.format(draw=4), encoding="utf-8")
    code, out, err = cli(capsys, *command[:-2], "--out", "o2", "--workers", 1)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "the kind `W6`'s field `draw`: 6 in the checkpoint, 4 now" in err, err
    assert "a file the command reads (a rule file, a Python bot) was changed" in err
    assert "uno-sim resume" not in err and "deck.15" not in err
    assert not (tmp_path / "o2").exists()
    code, _, err = cli(capsys, "resume", "ck")
    error = err.splitlines()[-1]
    assert code == 2 and error.startswith("error: the checkpoint file 'ck/checkpoint.json' does not match its own "
                                          "command line (the kind `W6`'s field `draw`: 6 in the checkpoint, 4 now)")
    assert "a file the command reads (a rule file, a Python bot) was changed" in error and "damaged" not in error
    rules.write_text(SIX.format(draw=6), encoding="utf-8")
    code, _, err = cli(capsys, *command[:-2], "--out", "o3")
    assert code == 0 and "resuming from the checkpoint ck: 2,000 of 2,000 games are kept there" in err, err
    # Another command line (other games) still advises resume, which repeats the recorded one.
    code, _, err = cli(capsys, "run", "six.toml", "--games", 3000, "--seed", 3, "--checkpoint", "ck", "--out", "o4")
    assert code == 2 and "games: 2,000 in the checkpoint, 3,000 now" in err and "uno-sim resume ck" in err, err


def test_a_checkpoint_difference_names_deck_kinds_by_their_text():
    """`deck.15.draw` named a kind by its place; a kind is named by its text, in a paired
    compare's unit too, and a field left at its default says so."""
    kind = lambda text, **fields: {"text": text, "colored": False, "copies": 2, **fields}  # noqa: E731
    unit = lambda *kinds: {"kind": "games", "rules": {"players": 4}, "deck": list(kinds), "seed": 0}  # noqa: E731
    cases = [
        (unit(kind("W"), kind("W6", draw=6)), unit(kind("W"), kind("W6", draw=4)),
         "the kind `W6`'s field `draw`: 6 in the checkpoint, 4 now"),
        (unit(kind("W"), kind("W6", draw=6)), unit(kind("W"), kind("W6")),
         "the kind `W6`'s field `draw`: 6 in the checkpoint, not given (the default) now"),
        (unit(kind("W"), kind("W6")), unit(kind("W"), kind("W7")), "the deck's kind 2: W6 in the checkpoint, W7 now"),
        (unit(kind("W"), kind("W6")), unit(kind("W")), "the deck's kinds: 2 in the checkpoint, 1 now"),
        ({"kind": "games", "paired": [unit(kind("W")), unit(kind("W6", draw=6))]},
         {"kind": "games", "paired": [unit(kind("W")), unit(kind("W6", draw=5))]},
         "paired.1: the kind `W6`'s field `draw`: 6 in the checkpoint, 5 now"),
    ]
    for old, new, words in cases:
        assert ck_mod._unit_difference([old], [new]) == words


def test_a_checkpoint_made_from_python_is_not_sent_to_resume(capsys, tmp_path):
    """A checkpoint made by a Python call records no command line, and `resume` refuses it;
    the command met with it advised `uno-sim resume` all the same."""
    api.run("standard", games=2000, seed=3, checkpoint=tmp_path / "ck")
    code, _, err = cli(capsys, "run", "standard", "--games", 3000, "--seed", 3, "--checkpoint", tmp_path / "ck",
                       "--out", tmp_path / "o")
    assert code == 2 and "games: 2,000 in the checkpoint, 3,000 now" in err, err
    assert "uno-sim resume" not in err and "the same call that made it" in err
    code, _, err = cli(capsys, "resume", tmp_path / "ck")
    assert code == 2 and "holds no command line to repeat" in err


def test_a_full_disk_under_checkpoint_names_the_file(capsys, tmp_path, monkeypatch):
    """It said only "OSError: [Errno 28] No space left on device"."""
    import errno as errno_mod

    from uno_sim.output import files

    def full(fd):
        raise OSError(errno_mod.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    target = tmp_path / "ck" / "chunk.npz"
    target.parent.mkdir()
    with pytest.raises(OSError) as caught:
        files.durable_write(target, b"data")
    assert caught.value.errno == errno_mod.ENOSPC and caught.value.filename == str(target)
    assert list(target.parent.iterdir()) == []  # no temporary file left behind
    code, _, err = cli(capsys, "run", "standard", "--games", 2000, "--checkpoint", tmp_path / "ck2",
                       "--out", tmp_path / "o")
    assert code != 0 and err.count("\n") == 1, err
    assert "No space left on device" in err and str(tmp_path / "ck2") + "/" in err, err
    assert "unexpected failure" not in err


@pytest.mark.slow
@pytest.mark.parametrize("sig, status, name", [(signal.SIGINT, 130, "interrupted (Ctrl-C)"),
                                               (signal.SIGTERM, 143, "terminated (SIGTERM)")])
def test_signal_says_how_to_resume_and_resume_on_a_cluster(capsys, tmp_path, monkeypatch, scheduler, sig, status,
                                                           name):
    monkeypatch.chdir(tmp_path)
    args = ["sweep", "standard", "--vary", "players=3,4", "--games", 600_000, "--seed", 3]
    proc = start_cli(*args, "--out", "cut", "--checkpoint", "ck")
    wait_for_chunks(tmp_path / "ck", 2, proc)
    began = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == status
    assert time.monotonic() - began < 5.0
    lines = err.strip().splitlines()  # progress lines (no terminal: plain text), then the one error line
    line = lines[-1]
    assert line.startswith(f"error: {name} after ") and not any("error" in x for x in lines[:-1])
    assert "nothing was written" in line and "kept in the checkpoint ck: `uno-sim resume ck` continues" in line
    assert not (tmp_path / "cut").exists() or not any((tmp_path / "cut").iterdir())
    # Resumed on a cluster: the chunks are the same wherever they are played.
    code, _, err = cli(capsys, "resume", "ck", "--cluster", scheduler)
    assert code == 0, err
    code, _, err = cli(capsys, *args, "--out", "whole")
    assert code == 0, err
    same_files(tmp_path / "whole", tmp_path / "cut", ["sweep.csv"])


@pytest.mark.slow
def test_interrupted_cluster_run_stops_fast(tmp_path):
    proc = start_cli("run", "standard", "--games", 50_000_000, "--cluster", "local:2", "--out", tmp_path / "o",
                     "--checkpoint", tmp_path / "ck")
    wait_for_chunks(tmp_path / "ck", 1, proc)
    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    line = proc.stderr.readline()
    while not line.startswith("error:") and line:  # past the plain progress lines
        line = proc.stderr.readline()
    seconds = time.monotonic() - began
    proc.communicate(timeout=60)
    assert proc.returncode == 130 and "uno-sim resume" in line
    assert seconds < 3.0, seconds  # about 0.1 s on an idle machine


@pytest.mark.slow
def test_lost_workers_fail_with_the_checkpoint_kept_then_resume(tmp_path, monkeypatch):
    """A cluster that loses its workers (allowed-failures 0: no retries) stops the run with the
    finished chunks kept; continuing on threads gives the uninterrupted numbers."""
    import dask

    reference = api.run("standard", games=900_000, seed=11, workers=2).summary
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = local_cluster()
    try:
        saved = []
        original = ck_mod.UnitStore.save

        def save(self, first, n, agg):
            original(self, first, n, agg)
            saved.append(first)
            if len(saved) == 2:  # then lose every worker in the middle of their chunks
                for nanny in list(cluster.workers.values()):
                    os.kill(nanny.process.pid, signal.SIGKILL)

        monkeypatch.setattr(ck_mod.UnitStore, "save", save)
        plan = api.prepare_run("standard", games=900_000, seed=11, cluster=cluster.scheduler_address,
                               checkpoint=tmp_path / "ck")
        with pytest.raises(RunFailure) as failure:
            plan.execute()
        message = str(failure.value)
        assert "a chunk failed on the Dask cluster" in message
        assert "kept in the checkpoint" in message and "the same call with this checkpoint continues" in message
    finally:
        cluster.close()
    monkeypatch.setattr(ck_mod.UnitStore, "save", original)
    kept = ck_mod.Checkpoint.open(tmp_path / "ck", "run", [plan.unit_params()]).kept_items()
    assert 0 < kept < 900_000
    resumed = api.run("standard", games=900_000, seed=11, workers=2, checkpoint=tmp_path / "ck")
    assert resumed.result.resumed == kept
    pd.testing.assert_frame_equal(resumed.summary, reference)


def test_checkpoint_of_other_parameters_or_engine_is_refused(capsys, tmp_path):
    ck = tmp_path / "ck"
    code, _, err = cli(capsys, "run", "standard", "--games", 20000, "--checkpoint", ck, "--out", tmp_path / "a")
    assert code == 0, err
    for extra, needle in [(["--games", 30000], "games: 20,000 in the checkpoint, 30,000 now"),
                          (["--games", 20000, "--set", "jump_in=true"], "rules.jump_in: false in the checkpoint, "
                                                                        "true now"),
                          (["--games", 20000, "--seed", 1], "seed: 0 in the checkpoint, 1 now"),
                          (["--games", 20000, "--bots", "expert"], "bots.0.name: random in the checkpoint, expert now"),
                          (["--games", 20000, "--rotate-seats"], "rotate_seats: false in the checkpoint, true now")]:
        code, _, err = cli(capsys, "run", "standard", *extra, "--checkpoint", ck, "--out", tmp_path / "b")
        assert code == 2 and needle in err and err.count("\n") == 1, err
        assert "other parameters" in err
    code, _, err = cli(capsys, "compare", "standard", "stacking", "--games", 20000, "--checkpoint", ck,
                       "--out", tmp_path / "b")
    assert code == 2 and "`uno-sim run`" in err
    manifest = json.loads((ck / "checkpoint.json").read_text())
    manifest["engine"] = "0123456789abcdef"
    (ck / "checkpoint.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "run", "standard", "--games", 20000, "--checkpoint", ck, "--out", tmp_path / "b")
    assert code == 2 and "engine 0123456789abcdef" in err and "cannot be resumed" in err
    assert not (tmp_path / "b").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, _, err = cli(capsys, "run", "standard", "--checkpoint", other, "--out", tmp_path / "b")
    assert code == 2 and "not a checkpoint folder" in err
    code, _, err = cli(capsys, "resume", other)
    assert code == 2 and "not a checkpoint folder" in err


def test_skill_games_are_kept_in_the_checkpoint_and_resume_to_the_same_bytes(capsys, tmp_path, monkeypatch):
    """compare --skill --checkpoint: the skill games are units of the checkpoint like the main
    games (a paired compare: one unit of every variant's games of the same deals, one of their
    skill games); killed while they play, the resumed command gives the uninterrupted bytes."""
    monkeypatch.chdir(tmp_path)
    args = ["compare", "standard", "stacking", "--games", 300_000, "--seed", 8, "--skill", "--workers", 2]
    code, _, err = cli(capsys, *args, "--out", "whole")
    assert code == 0, err
    proc = start_cli(*args, "--out", "cut", "--checkpoint", "ck")
    wait_for_chunks(tmp_path / "ck", 2, proc, unit="unit-0001")  # the skill games of both variants
    proc.kill()
    proc.wait()
    ck = tmp_path / "ck"
    units = json.loads((ck / "checkpoint.json").read_text())["units"]
    assert [[u.get("skill_index", False) for u in unit["paired"]] for unit in units] == [[False, False], [True, True]]
    skill = units[1]["paired"][0]
    assert [b["name"] for b in skill["bots"]] == ["pro", "random", "random", "random"]  # the skill bot, pro
    assert skill["rotate_seats"] and skill["games"] == 300_000 and skill["seed"] == 8
    assert [p.name for p in (ck / "unit-0000").iterdir()] == ["total.npz"]  # played first, and complete
    skill_chunks = sorted((ck / "unit-0001").glob("chunk-*.npz"))
    assert skill_chunks and not (ck / "unit-0001" / "total.npz").exists()
    kept = 600_000 + 2 * 32768 * len(skill_chunks)  # chunks of 32,768 deals, each under both variants
    assert not (tmp_path / "cut" / "compare.csv").exists()
    code, out, err = cli(capsys, "resume", "ck")
    assert code == 0, err
    assert f"{kept:,} of 1,200,000 games are kept" in " ".join(err.split())
    assert "plus 600,000 skill-index games" in out
    same_files(tmp_path / "whole", tmp_path / "cut", ["compare.csv", "differences.csv", "distributions.csv"])
    assert [p.name for p in (ck / "unit-0001").iterdir()] == ["total.npz"]


def test_a_checkpoint_with_or_without_the_skill_games_refuses_the_other(capsys, tmp_path):
    args = ["compare", "standard", "stacking", "--games", 20000]
    # (a paired compare keeps one unit of the variants' games, and one of their skill games)
    for made, then, needle in [([], ["--skill"], "1 runs in the checkpoint, 2 now; it was made without --skill"),
                               (["--skill"], [], "2 runs in the checkpoint, 1 now; it was made with --skill")]:
        ck = tmp_path / f"ck{len(made)}"
        code, _, err = cli(capsys, *args, *made, "--checkpoint", ck, "--out", tmp_path / f"a{len(made)}")
        assert code == 0, err
        code, _, err = cli(capsys, *args, *then, "--checkpoint", ck, "--out", tmp_path / "b")
        assert code == 2 and err.count("\n") == 1, err
        assert "other parameters" in err and needle in err, err
        assert not (tmp_path / "b").exists()


def test_one_checkpoint_is_used_by_one_run_at_a_time(tmp_path):
    plan = api.prepare_run("standard", games=5000, checkpoint=tmp_path / "ck")
    plan.checkpoint.begin()
    try:
        again = ck_mod.Checkpoint.open(tmp_path / "ck", "run", [plan.unit_params()])
        with pytest.raises(ck_mod.CheckpointError, match="in use"):
            again.begin()
    finally:
        plan.checkpoint.end()


def test_match_checkpoint_resumes_to_the_same_bytes(capsys, tmp_path):
    args = ["match", "standard", "--matches", 5000, "--seed", 4]
    code, _, err = cli(capsys, *args, "--out", tmp_path / "whole")
    assert code == 0, err
    plan = api.prepare_match("standard", matches=5000, seed=4, checkpoint=tmp_path / "ck")
    plan.checkpoint.begin()
    store = plan.checkpoint.store(0)
    from uno_sim.running.matches import match_work

    work = match_work(plan.rules, plan.bots, 4)
    size = plan.unit_params()["chunk"]
    assert size == 2048  # chunks 0-2047, 2048-4095, 4096-4999
    store.save(size, size, chunks.play(work, size, size, threads=2))  # the middle and last chunks, as if
    store.save(2 * size, 5000 - 2 * size, chunks.play(work, 2 * size, 5000 - 2 * size, threads=2))  # cut short
    plan.checkpoint.end()
    code, out, err = cli(capsys, *args, "--checkpoint", tmp_path / "ck", "--out", tmp_path / "cut")
    assert code == 0, err
    assert f"2,048 matches played" in " ".join(out.split())
    assert f"{5000 - size:,} more taken from the checkpoint" in " ".join(out.split())
    same_files(tmp_path / "whole", tmp_path / "cut", ["match.csv"])
    assert [p.name for p in (tmp_path / "ck" / "unit-0000").iterdir()] == ["total.npz"]  # complete: one file


# ---------------------------------------------------------------- grid sweeps


def test_grid_with_presets_as_an_axis(capsys, tmp_path):
    rule_file = tmp_path / "short.toml"
    rule_file.write_text('description = "five cards"\nextends = "standard"\n[rules]\nhand_size = 5\n')
    code, out, err = cli(capsys, "sweep", "--vary", f"preset=standard,stacking,{rule_file}", "--vary", "players=3,5",
                         "--games", 4000, "--seed", 2, "--out", tmp_path / "o")
    assert code == 0, err
    frame = pd.read_csv(tmp_path / "o" / "sweep.csv")
    assert list(frame.columns[:4]) == ["variant", "preset", "players", "metric"]
    points = frame[["preset", "players"]].drop_duplicates().values.tolist()
    assert points == [["standard", 3], ["standard", 5], ["stacking", 3], ["stacking", 5], ["short", 3], ["short", 5]]
    code, _, err = cli(capsys, "run", str(rule_file), "--players", 5, "--games", 4000, "--seed", 2,
                       "--out", tmp_path / "single")
    assert code == 0, err
    single = pd.read_csv(tmp_path / "single" / "summary.csv")
    point = frame[(frame["preset"] == "short") & (frame["players"] == 5)].drop(columns=["preset", "players"])
    pd.testing.assert_frame_equal(point.reset_index(drop=True), single)
    assert {p.name for p in (tmp_path / "o").iterdir()} >= {"sweep.csv", "ranked.csv", "heatmap-mean_turns.png",
                                                             "heatmap-first_player_edge.png"}


def test_ranked_table_puts_fair_points_first_by_the_metric(capsys, tmp_path):
    code, out, err = cli(capsys, "sweep", "standard", "--vary", "players=2..5", "--vary", "stack_draw_two=false,true",
                         "--games", 6000, "--seed", 1, "--fair-within", 1.2, "--top", 3, "--out", tmp_path / "o")
    assert code == 0, err
    sweep = pd.read_csv(tmp_path / "o" / "sweep.csv")
    ranked = pd.read_csv(tmp_path / "o" / "ranked.csv")
    assert list(ranked["rank"]) == list(range(1, 9))
    edge = sweep[sweep["metric"] == "first_player_edge"].set_index(["players", "stack_draw_two"])
    turns = sweep[sweep["metric"] == "mean_turns"].set_index(["players", "stack_draw_two"])
    expected_fair = {k: bool(r["ci_low"] >= -0.012 and r["ci_high"] <= 0.012) for k, r in edge.iterrows()}
    got = {(r["players"], r["stack_draw_two"]): bool(r["fair"]) for _, r in ranked.iterrows()}
    assert got == expected_fair
    order = sorted(expected_fair, key=lambda k: (not expected_fair[k], turns.loc[k, "value"]))
    assert [(r["players"], r["stack_draw_two"]) for _, r in ranked.iterrows()] == order
    fair_count = sum(expected_fair.values())
    band = "the first-player edge's 95% interval within +-1.2 pp"
    assert (f"({fair_count} fair: {band})" if fair_count else f"None of the 8 grid points is fair ({band})") \
        in " ".join(out.split())


def test_a_grid_without_a_fair_point_says_so_in_one_sentence(capsys, tmp_path):
    """It printed "The 0 shortest fair grid points of 4" over an empty table."""
    code, out, err = cli(capsys, "sweep", "standard", "--vary", "players=2,3", "--vary", "jump_in=false,true",
                         "--games", 300, "--fair-within", 0.01, "--out", tmp_path / "o")
    assert code == 0, err
    ranked = pd.read_csv(tmp_path / "o" / "ranked.csv")
    assert len(ranked) == 4 and not ranked["fair"].any()
    text = " ".join(out.split())
    assert "None of the 4 grid points is fair (the first-player edge's 95% interval within +-0.01 pp)" in text
    assert "The 0 " not in text and "fair grid points of" not in text
    after = out[out.index("None of the 4"):]
    assert not any(c in after for c in "│┃━─") and "first-player edge [95%]" not in after  # no empty table
    page = (tmp_path / "o" / "report.html").read_text()
    assert "None of the 4 grid points is fair" in page and page.count("<table>") == 1  # the sweep table only


def test_sweep_skill_ranks_and_draws_the_skill_index(capsys, tmp_path):
    """`--metric skill_index` and `--rank-by skill_index` were refused ("not a metric of every
    grid point") although --skill puts it at every point; it ranks largest first."""
    code, out, err = cli(capsys, "sweep", "standard", "--vary", "players=2,3", "--vary", "jump_in=false,true",
                         "--games", 800, "--seed", 4, "--skill", "--metric", "skill_index", "--rank-by", "skill_index",
                         "--fair-within", 100, "--out", tmp_path / "o")
    assert code == 0, err
    sweep = pd.read_csv(tmp_path / "o" / "sweep.csv")
    skill = sweep[sweep["metric"] == "skill_index"].set_index(["players", "jump_in"])["value"]
    ranked = pd.read_csv(tmp_path / "o" / "ranked.csv")
    assert ranked["fair"].all()
    order = sorted(skill.index, key=lambda k: -skill[k])
    assert [(r["players"], r["jump_in"]) for _, r in ranked.iterrows()] == order
    assert list(ranked["skill_index"]) == sorted(skill, reverse=True)
    assert (tmp_path / "o" / "heatmap-skill_index.png").exists()
    text = " ".join(out.split())
    assert "highest skill_index fair grid points of 4" in text
    best = ranked.iloc[0]["skill_index"]
    # shown as an edge, in percentage points (ranked.csv's value may sit on a rounding tie: 147/800 - 1/2)
    shown = re.search(r"([+-]\d+\.\d\d) pp \[", out[out.index("highest skill_index"):])  # rank 1's
    assert shown and abs(float(shown.group(1)) - 100 * best) <= 0.005 + 1e-9, out


def test_sweep_metric_skill_index_without_skill_names_the_flag(capsys, tmp_path):
    code, _, err = cli(capsys, "sweep", "standard", "--vary", "players=2,3", "--vary", "jump_in=false,true",
                       "--rank-by", "skill_index", "--out", tmp_path / "o")
    assert code == 2 and len(err.splitlines()) == 1 and "it needs --skill" in err, err


def test_heatmaps_follow_metric_and_three_knobs_make_small_multiples(capsys, tmp_path):
    from PIL import Image

    code, _, err = cli(capsys, "sweep", "standard", "--vary", "players=3,4", "--vary", "jump_in=false,true",
                       "--vary", "stack_draw_two=false,true", "--games", 2000, "--metric", "no_winner_rate",
                       "--metric", "mean_draws", "--out", tmp_path / "o")
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "o").iterdir() if p.suffix == ".png")
    assert names == ["heatmap-mean_draws.png", "heatmap-no_winner_rate.png"]
    width, height = Image.open(tmp_path / "o" / "heatmap-mean_draws.png").size
    assert width > 1.5 * height  # two panels side by side
    assert len(pd.read_csv(tmp_path / "o" / "ranked.csv")) == 8
    page = (tmp_path / "o" / "report.html").read_text()
    assert "<h2>no winner rate at every grid point</h2>" in page and "heatmap-" not in page.split("<img")[0]


def test_heatmap_layout_and_panel_limit():
    def layout(axes):
        import itertools

        knobs = list(axes)
        points = [dict(zip(knobs, combo)) for combo in itertools.product(*axes.values())]
        return api.Sweep("x", knobs, points, []).heatmap_layout()

    assert layout({"jump_in": [False, True], "players": list(range(2, 11))}) == ("players", "jump_in", [])
    assert layout({"a": [0, 1], "b": [0, 1, 2], "c": [0, 1]}) == ("b", "a", ["c"])
    assert layout({"players": [2, 3]}) is None
    many = {k: [False, True] for k in "abcdef"}  # 2 x 2 axes, 16 panels
    assert layout(many) is None


@pytest.mark.parametrize("args, needle", [
    (["sweep", "standard", "--vary", "players=3,4", "--metric", "nope"], "--metric 'nope'"),
    (["sweep", "standard", "--vary", "players=3,4", "--vary", "jump_in=false,true", "--rank-by", "nope"],
     "--rank-by 'nope'"),
    (["sweep", "standard", "--vary", "preset=standard,stacking"], "not both"),
    (["sweep", "--vary", "players=3,4"], "needs a PRESET"),
    (["sweep", "--vary", "preset=standard,nosuch"], "nosuch"),
    (["sweep", "--vary", "preset=standard,standard"], "listed twice"),
    (["sweep", "standard", "--vary", "players=3,4", "--fair-within", "0"], "--fair-within"),
])
def test_bad_sweep_input(capsys, tmp_path, args, needle):
    code, _, err = cli(capsys, *args, "--out", tmp_path / "o")
    assert code == 2 and needle in err and err.count("\n") == 1, err
    assert not (tmp_path / "o").exists()
