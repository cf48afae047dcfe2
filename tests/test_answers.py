"""Answers first: the engine's start-up shown and kept out of games/s, the headline from the
tidy frames, Holm's correction, quiet rows, the forest plot, report.html (rendered in a real
headless Chromium when installed) and --json."""

import base64
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import uno_sim
from uno_sim import cli, stats
from uno_sim.output import headline
from uno_sim.running import warmup

ROOT = Path(__file__).resolve().parent.parent


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- Holm


def test_holm_hand_computed():
    # p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005 = 0.02,
    # 3*0.01 = 0.03, 2*0.03 = 0.06, 1*0.04 = 0.04 -> monotone: 0.02, 0.03, 0.06, 0.06
    adjusted = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # NaN entries are not tests: m = 2 here
    out = stats.holm([0.2, math.nan, 0.01])
    assert out[0] == pytest.approx(0.2) and math.isnan(out[1]) and out[2] == pytest.approx(0.02)
    assert stats.holm([0.9, 0.8]).tolist() == [1.0, 1.0]  # capped at 1


def test_differences_carry_holm_and_pooled_sd():
    a, b = stats.IntHistogram(), stats.IntHistogram()
    a.add(np.array([10, 12, 14, 16] * 50))
    b.add(np.array([11, 13, 15, 17] * 50))
    base = [stats.mean_measure("mean_turns", a), stats.rate_measure("stack_rate", 40, 200)]
    other = [stats.mean_measure("mean_turns", b), stats.rate_measure("stack_rate", 60, 200)]
    frame = stats.differences([("a", base), ("b", other)]).set_index("metric")
    raw = frame["p_value"]
    assert frame["p_adjusted"].tolist() == pytest.approx(stats.holm(raw.to_numpy()).tolist())
    assert (frame["significant"] == (frame["p_adjusted"] < 0.05)).all()
    # pooled sd: sqrt of the mean of the two variances; rates p(1-p)
    assert frame.loc["mean_turns", "pooled_sd"] == pytest.approx(math.sqrt((a.variance() + b.variance()) / 2))
    assert frame.loc["stack_rate", "pooled_sd"] == pytest.approx(math.sqrt((0.2 * 0.8 + 0.3 * 0.7) / 2))


# ---------------------------------------------------------------- headline from frames


def summary_rows(variant, games, rows):
    return pd.DataFrame([{"variant": variant, "metric": m, "value": v, "ci_low": lo, "ci_high": hi, "games": games}
                         for m, v, lo, hi in rows])


def diff_row(variant, metric, diff, low, high, p_adj, sd, test="Welch t"):
    return {"variant": variant, "baseline": "base", "metric": metric, "diff": diff, "diff_ci_low": low,
            "diff_ci_high": high, "p_value": p_adj, "p_adjusted": p_adj, "test": test, "significant": p_adj < 0.05,
            "pooled_sd": sd}


def test_compare_headline_in_words():
    nan = math.nan
    summary = pd.concat([
        summary_rows("base", 1000, [("mean_turns", 50.0, 49, 51), ("first_player_edge", 0.016, 0.01, 0.02),
                                    ("stack_rate", 0.0, 0.0, 0.004), ("mean_max_pending", 4.0, 3.9, 4.1),
                                    ("maximum_max_pending", 4, nan, nan), ("jump_in_rate", 0.0, 0.0, 0.004)]),
        summary_rows("v", 1000, [("mean_turns", 52.7, 51.7, 53.7), ("first_player_edge", 0.018, 0.012, 0.024),
                                 ("stack_rate", 0.40, 0.37, 0.43), ("mean_max_pending", 6.0, 5.9, 6.1),
                                 ("maximum_max_pending", 16, nan, nan), ("jump_in_rate", 0.0, 0.0, 0.004)]),
    ], ignore_index=True)
    diffs = pd.DataFrame([
        diff_row("v", "mean_turns", 2.70, 2.63, 2.77, 0.001, 20.0),
        diff_row("v", "first_player_edge", 0.002, -0.004, 0.008, 0.2, 0.44, "two-proportion z"),
        diff_row("v", "stack_rate", 0.40, 0.37, 0.43, 1e-9, 0.35, "two-proportion z"),
        diff_row("v", "mean_max_pending", 2.0, 1.9, 2.1, 1e-9, 2.0),
        diff_row("v", "maximum_max_pending", 12, nan, nan, nan, nan, ""),
        diff_row("v", "jump_in_rate", 0.0, nan, nan, nan, nan, "two-proportion z"),
    ])
    lines = headline.compare_headline(summary, diffs)
    assert lines[0].startswith("v against base (1,000 games each): 3 of 4 differences are significant")
    text = "\n".join(lines)
    # ranked by standardised size: stack_rate (0.40/0.35) > mean_max_pending (1.0) > mean_turns (0.135)
    order = [text.index(s) for s in ("share of games with a stacked penalty", "largest penalty of a game",
                                     "games are 5.4% longer")]
    assert order == sorted(order)
    assert "games are 5.4% longer (+2.70 turns, 95% CI +2.63 to +2.77)" in text
    assert "the largest penalty seen grows from 4 to 16 cards" in text
    assert "the first player's edge shows no significant change" in text and "p = 0.20" in text
    assert "jump" not in text  # nothing to say: 0 in both


def test_a_small_change_keeps_its_digits_in_the_headline_and_the_table():
    """1.05% vs 1.18% of games reshuffle: 0.0105 vs 0.0118 reshuffles a game; the change must
    not read "+0.00 reshuffles a game"."""
    from uno_sim.output import tables

    summary = pd.concat([
        summary_rows("base", 10**6, [("mean_reshuffles", 0.0105, 0.0103, 0.0107), ("mean_turns", 50.0, 49.9, 50.1)]),
        summary_rows("v", 10**6, [("mean_reshuffles", 0.0118, 0.0116, 0.0120), ("mean_turns", 50.0, 49.9, 50.1)]),
    ], ignore_index=True)
    diffs = pd.DataFrame([diff_row("v", "mean_reshuffles", 0.0013, 0.00101, 0.00159, 1e-6, 0.11),
                          diff_row("v", "mean_turns", 0.0, -0.1, 0.1, 1.0, 20.0)])
    text = "\n".join(headline.compare_headline(summary, diffs))
    assert "the pile is reshuffled 12.4% more often (+0.0013 reshuffles a game, 95% CI +0.0010 to +0.0016)" in text
    assert "+0.00 reshuffles" not in text
    assert tables.fmt_diff("mean", diffs.iloc[0]) == "+0.0013 [+0.0010, +0.0016]"
    assert tables.fmt_diff("mean", diffs.iloc[1]) == "+0.00 [-0.10, +0.10]"  # a zero is a zero
    assert tables.fmt_diff("rate", {"diff": 0.4, "diff_ci_low": 0.37, "diff_ci_high": 0.43}) == "+40.00 [+37.00, +43.00]"


def test_quiet_metrics_all_zero_all_na_always_one():
    nan = math.nan
    summary = pd.concat([
        summary_rows("a", 10, [("jump_in_rate", 0.0, 0, 0.3), ("challenge_success_rate", nan, nan, nan),
                               ("win_rate_bot_random", 1.0, 0.7, 1.0), ("mean_turns", 0.0, 0, 0),
                               ("stack_rate", 0.0, 0, 0.3), ("maximum_turns", 7, nan, nan)]),
        summary_rows("b", 10, [("jump_in_rate", 0.0, 0, 0.3), ("challenge_success_rate", nan, nan, nan),
                               ("win_rate_bot_random", 1.0, 0.7, 1.0), ("mean_turns", 0.0, 0, 0),
                               ("stack_rate", 0.2, 0.1, 0.3), ("maximum_turns", 7, nan, nan)]),
    ], ignore_index=True)
    assert headline.quiet_metrics(summary) == ["jump_in_rate", "challenge_success_rate", "win_rate_bot_random",
                                               "mean_turns"]


def test_run_sweep_match_headlines_from_real_frames():
    run = uno_sim.run("standard", games=4000, seed=3, bots="expert,random,random,random")
    lines = run.headline
    # a mixed table opens with the bots, with intervals and fair shares; then the seats
    rows = run.summary.set_index("metric")
    expert = rows.loc["win_rate_bot_expert"]
    assert lines[0].startswith("Games won by bot in 4,000 games of standard with 4 players: expert ")
    assert (f"expert {100 * expert['value']:.2f}% (95% CI {100 * expert['ci_low']:.2f}% to "
            f"{100 * expert['ci_high']:.2f}%; fair share 25.0%)") in lines[0]
    assert "random" in lines[0] and "fair share 75.0%" in lines[0]
    assert lines[1].startswith("In 4,000 games of standard with 4 players, the first player (seat 0) wins")
    assert f"{100 * rows.loc['win_rate_seat_0', 'value']:.2f}%" in lines[1]
    plain = uno_sim.run("standard", games=2000, seed=3).headline  # one bot: the seats come first
    assert plain[0].startswith("In 2,000 games of standard") and not any("Games won by bot" in x for x in plain)
    sweep = uno_sim.sweep("standard", {"players": [2, 3]}, games=2000)
    assert sweep.headline[0] == "2 settings of players, 2,000 games each."
    turns = sweep.summary.loc[sweep.summary["metric"] == "mean_turns"].set_index("players")["value"]
    longest = int(turns.idxmax())
    assert f"Games are longest at players = {longest} ({turns.max():,.1f} turns" in sweep.headline[2]
    match = uno_sim.match("standard", matches=200, target=200, seed=1)
    assert match.headline[0].startswith("In 200 matches to 200, a match lasts")


# ---------------------------------------------------------------- the engine's start-up


def test_warm_up_reports_plain_lines_without_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(warmup, "_ready", set())
    monkeypatch.setattr(warmup, "cached", lambda kind: False)
    startup = warmup.warm_up("games", progress=True)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert re.fullmatch(r"compiling the engine's game kernel, once: about \d+ (s|minutes) "
                        r"on this machine \.\.\.", lines[0])
    assert re.fullmatch(r"engine compiled in \d+\.\d s \(cached for later runs\)", lines[1])
    assert "\x1b" not in err  # no control codes
    assert startup.compiled and startup.seconds > 0
    assert startup.note().startswith("not counting") and "to compile the engine" in startup.note()
    assert warmup.warm_up("games", progress=True).seconds == 0.0  # once per process
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(warmup, "_ready", set())
    monkeypatch.setattr(warmup, "cached", lambda kind: True)
    loaded = warmup.warm_up("games", progress=True)
    assert capsys.readouterr().err == ""  # a second's load: no lines without a terminal
    assert "to load the engine" in loaded.note()
    monkeypatch.setattr(warmup, "_ready", set())
    warmup.warm_up("games", progress=False)
    assert capsys.readouterr().err == ""


def test_a_cold_start_compiles_only_the_kernels_the_command_needs(monkeypatch):
    """A plain run compiles the games kernel and nothing else; a later command that needs
    another kernel compiles just that one, and a kernel already cached is only loaded."""
    played, cache = [], {"trace"}  # a cache holding the trace kernel only
    monkeypatch.setattr(warmup, "_play_one", lambda kind: (played.append(kind), cache.add(kind)))
    monkeypatch.setattr(warmup, "_ready", set())
    monkeypatch.setattr(warmup, "cached", lambda kind: kind in cache)
    assert warmup.warm_up("games").compiled
    assert played == ["games"]
    assert warmup.warm_up("games").seconds == 0.0 and played == ["games"]  # once per process
    assert warmup.warm_up("matches").compiled and played == ["games", "matches"]
    monkeypatch.setattr(warmup, "_ready", set())  # a later process: everything it needs is cached
    assert not warmup.warm_up("games", "matches", "trace").compiled
    assert played == ["games", "matches", "games", "matches", "trace"]


def test_a_run_warms_up_the_kernel_its_bots_are_played_by(monkeypatch):
    """The games kernel for compiled bots, the search bot's kernel (only) when a seat plays
    search, both for a comparison of the two; a two-sided deck's kernels for a two-sided deck
    (batch.start_chunk's choice of kernel)."""
    from uno_sim.game.bots import pack_bots, parse_bots
    from uno_sim.game.decks import CLASSIC, FLIP
    from uno_sim.running.games import warm_up_for

    class Executor:
        def __init__(self):
            self.kinds = []

        def warm_up(self, kind, progress):
            self.kinds.append(kind)
            return warmup.Startup(1.0, kind == "search")

    class Work:
        def __init__(self, bots, deck=CLASSIC):
            self.codes = pack_bots(parse_bots(bots, 4))[0]
            self.deck = deck

    executor = Executor()
    assert warm_up_for(executor, [Work("expert"), Work(None)]) == warmup.Startup(1.0, False)
    assert executor.kinds == ["games"]
    executor = Executor()
    assert warm_up_for(executor, [Work("search:rollouts=5,random,random,random")]) == warmup.Startup(1.0, True)
    assert executor.kinds == ["search"]
    executor = Executor()
    assert warm_up_for(executor, [Work("random"), Work("expert,search,random,random")]).seconds == 2.0
    assert executor.kinds == ["games", "search"]
    executor = Executor()  # a two-sided deck's games: the two-sided kernels, beside the one-sided
    warm_up_for(executor, [Work("random", FLIP), Work("search,random,random,random", FLIP), Work("random")])
    assert executor.kinds == ["two-sided games", "two-sided search", "games"]


def test_the_compile_message_estimates_from_the_machine_and_names_the_kernels():
    every = list(warmup.KERNELS)
    # the first kernel compiles alone, the others over its cached functions
    reference = warmup.REFERENCE_SECONDS["games"] + sum(warmup.REFERENCE_AFTER_ANOTHER[k] for k in every[1:])
    # the reference machine, idle: the reference time; twice as slow: twice; load 4 on 2 cores: twice again
    assert warmup.compile_estimate(every, warmup.REFERENCE_PROBE, 0.0, 2) == pytest.approx(reference)
    assert warmup.compile_estimate(every, warmup.REFERENCE_PROBE, 1.5, 2) == pytest.approx(reference)
    assert warmup.compile_estimate(every, 2 * warmup.REFERENCE_PROBE, 0.0, 2) == pytest.approx(2 * reference)
    assert warmup.compile_estimate(every, warmup.REFERENCE_PROBE, 4.0, 2) == pytest.approx(2 * reference)
    assert warmup.compile_estimate(["trace"], warmup.REFERENCE_PROBE, 0.0, 8) == warmup.REFERENCE_SECONDS["trace"]
    # with a kernel cached already, each costs what it costs after another one
    assert warmup.compile_estimate(["trace"], warmup.REFERENCE_PROBE, 0.0, 8, first=False) == (
        warmup.REFERENCE_AFTER_ANOTHER["trace"])
    assert warmup.rough_time(34) == "about 30 s"
    assert warmup.rough_time(3) == "about 10 s"
    assert warmup.rough_time(150) == "about 3 minutes"
    assert warmup.rough_time(200) == "about 3 minutes"
    assert warmup.compiling_message(["games"], 50) == "compiling the engine's game kernel, once: about 50 s on this machine"
    assert warmup.compiling_message(["matches", "trace"], 200) == (
        "compiling the engine's match and trace kernels, once: about 3 minutes on this machine")
    assert warmup.compiling_message(["games", "search", "matches"], 40) == (
        "compiling the engine's game, search bot's game and match kernels, once: about 40 s on this machine")


def test_a_two_sided_kernel_is_estimated_as_the_first_of_its_family(monkeypatch):
    # the two-sided kernels share little compiled code with the one-sided ones (their game
    # pointer's type differs): with only one-sided kernels cached, the first two-sided one
    # compiles alone
    import os

    monkeypatch.setattr(warmup, "cached", lambda kind: kind == "games")
    monkeypatch.setattr(warmup, "probe", lambda: warmup.REFERENCE_PROBE)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    estimate = warmup.machine_estimate(["search", "two-sided games", "two-sided trace"])
    assert estimate == pytest.approx(warmup.REFERENCE_AFTER_ANOTHER["search"] + warmup.REFERENCE_SECONDS["two-sided games"]
                                     + warmup.REFERENCE_AFTER_ANOTHER["two-sided trace"])
    assert warmup.compiling_message(["two-sided games"], 50) == (
        "compiling the engine's two-sided game kernel, once: about 50 s on this machine")


def test_progress_lines_without_a_terminal(capsys):
    """The chunk runner's progress on stderr without a terminal: a line when a run expected
    to take over 3 s starts, one a quarter for one of over 10 s; none for short runs."""
    from uno_sim.output.progress import ChunkBar

    now = [0.0]
    bar = ChunkBar(1000, "standard", "games", clock=lambda: now[0])
    bar.update(100, 2.0, "standard")  # under 3 s to go: no line yet
    bar.update(200, 30.0, "standard")
    now[0] = 1.0
    bar.update(300, 20.0, "standard")
    bar.update(400, 15.0, "standard")
    now[0] = 3.0
    bar.update(500, 10.0, "standard (skill index)")
    bar.update(1000, 0.0, "standard")
    bar.close()
    assert capsys.readouterr().err.splitlines() == ["standard: 1,000 games, about 30 s to go",
                                                   "standard: 25% (300 of 1,000 games), about 7.0 s to go",
                                                   "standard: 50% (500 of 1,000 games), about 5.0 s to go"]
    short = ChunkBar(1000, "x", "matches")
    short.update(500, 5.0, "x")  # over 3 s but under 10 s: the first line only
    short.update(900, 1.0, "x")
    short.close()
    assert capsys.readouterr().err == "x: 1,000 matches, about 5 s to go\n"


def test_progress_quarter_lines_carry_the_measured_seconds_left(capsys):
    """Without a terminal only the first line said how long was left, an estimate made before
    most of the run ("about 30 s to go" for a run that took 2 s): each quarter's line says it
    too, at the rate measured since the first line."""
    from uno_sim.output.progress import ChunkBar

    now = [100.0]
    bar = ChunkBar(4000, "standard", "games", clock=lambda: now[0])
    bar.update(0, 30.0, "standard")  # the first line: the runner's estimate
    now[0] = 100.5
    bar.update(1000, 30.0, "standard")  # 1,000 games in 0.5 s: 1.5 s for the other 3,000
    now[0] = 101.0
    bar.update(2000, 30.0, "standard")
    now[0] = 103.0
    bar.update(3000, None, "standard")  # slower now: 3,000 in 3 s, 1,000 left
    bar.close()
    assert capsys.readouterr().err.splitlines() == ["standard: 4,000 games, about 30 s to go",
                                                   "standard: 25% (1,000 of 4,000 games), about 1.5 s to go",
                                                   "standard: 50% (2,000 of 4,000 games), about 1.0 s to go",
                                                   "standard: 75% (3,000 of 4,000 games), about 1.0 s to go"]


def test_the_api_takes_a_progress_object_or_a_flag():
    """`progress`: True, the terminal's (output.progress); False or None, silent; or an
    object told how far the one pipeline is, the skill games included."""
    from uno_sim.output.progress import TerminalProgress
    from uno_sim.running.progress import SILENT, as_progress

    assert isinstance(as_progress(True), TerminalProgress)
    assert as_progress(False) is SILENT and as_progress(None) is SILENT

    class Recording:
        def __init__(self):
            self.pipelines, self.updates, self.closed = [], [], 0

        def starting(self, message, done, plain):
            return SILENT.starting(message, done, plain)

        def chunks(self, total, label, unit):
            self.pipelines.append((total, label, unit))
            return self

        def update(self, done, seconds_left, description):
            self.updates.append((done, description))

        def close(self):
            self.closed += 1

    seen = Recording()
    assert as_progress(seen) is seen
    uno_sim.compare(["standard", "stacking"], games=3000, seed=2, skill=True, progress=seen)
    assert seen.pipelines == [(12000, "2 variants", "games")] and seen.closed == 1
    assert seen.updates[-1][0] == 12000
    # paired (the default): both variants play each chunk of deals together
    assert list(dict.fromkeys(d for _, d in seen.updates)) == ["2 variants", "2 variants (skill index)"]
    seen = Recording()
    uno_sim.compare(["standard", "stacking"], games=3000, seed=2, skill=True, progress=seen, paired=False)
    assert seen.pipelines == [(12000, "2 variants", "games")] and seen.updates[-1][0] == 12000
    assert list(dict.fromkeys(d for _, d in seen.updates)) == ["standard", "stacking", "standard (skill index)",
                                                               "stacking (skill index)"]
    seen = Recording()
    uno_sim.match("standard", matches=300, seed=1, progress=seen)
    assert seen.pipelines == [(300, "matches", "matches")] and seen.updates[-1] == (300, "matches")


def test_cache_index_files_tell_a_warm_cache(tmp_path, monkeypatch):
    import hashlib

    monkeypatch.setattr(warmup, "cache_folder", lambda: tmp_path)
    assert not warmup.cached("games")
    # numba's own naming (a subfolder from the module's absolute folder) is not where the
    # engine's kernels are filed (engine/cache.py): such an index does not make the cache warm
    engine_dir = Path(warmup.__file__).resolve().parent.parent / "engine"  # uno_sim/engine
    numbas = tmp_path / f"engine_{hashlib.sha1(str(engine_dir).encode()).hexdigest()}"
    numbas.mkdir()
    games_index = f"{warmup.KERNELS['games']}-46.py311.nbi"  # batch._play_games_classic-46.py311.nbi
    (numbas / games_index).write_bytes(b"")
    assert not warmup.cached("games")
    # the module's folder inside the package, whichever copy of the package this is
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / games_index).write_bytes(b"")
    assert warmup.cached("games") and not warmup.cached("matches")


def test_preparing_the_games_loads_no_compiled_code():
    """The start-up message comes before any compiling: getting a run's work ready (rules,
    bots, run key) must not import the compiled engine."""
    code = ("import sys\n"
            "from uno_sim.running import games\n"
            "from uno_sim.game.bots import parse_bots\n"
            "from uno_sim.game.rules import Rules\n"
            "games.game_work(Rules(), parse_bots(None, 4), seed=3)\n"
            "loaded = [m for m in ('uno_sim.engine.batch', 'uno_sim.engine.play') if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_games_per_second_exclude_the_start_up(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "warm_up", lambda *kinds, progress=False: warmup.Startup(42.5, True))
    code, out, err = invoke(capsys, "run", "standard", "--games", "3000", "--out", tmp_path / "o")
    assert code == 0, err
    line = next(l for l in out.splitlines() if l.startswith("3,000 games in"))
    seconds = float(re.search(r"in (\d+\.\d) s", line).group(1))
    assert seconds < 42.5  # the start-up is not in the time ...
    assert "not counting 42.5 s to compile the engine" in line  # ... and the line says so


# ---------------------------------------------------------------- compare: table, chart, report, JSON


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "o"
    code = cli.run_cli(["compare", "stacking", "nostacking", "--games", "20000", "--seed", "2", "--out", str(out)])
    assert code == 0
    return out


def test_compare_table_leaves_out_quiet_rows(capsys, tmp_path, compared):
    code, out, err = invoke(capsys, "compare", "stacking", "nostacking", "--games", "20000", "--seed", "2",
                            "--out", tmp_path / "a")
    assert code == 0, err
    rows = {line.split()[1] for line in out.splitlines() if line.startswith("│")}
    assert "mean_turns" in rows and "stack_rate" in rows
    assert "jump_in_rate" not in rows and "challenge_success_rate" not in rows
    assert re.search(r"left out, 0, n/a or a rate of 100% in every variant \(--all-metrics shows them\): .*jump_in_rate", out)
    diffs = pd.read_csv(compared / "differences.csv")
    assert "jump_in_rate" in set(diffs["metric"])  # still in the CSV
    code, out, err = invoke(capsys, "compare", "stacking", "nostacking", "--games", "20000", "--seed", "2",
                            "--all-metrics", "--out", tmp_path / "b")
    assert code == 0, err
    assert "jump_in_rate" in {line.split()[1] for line in out.splitlines() if line.startswith("│")}
    assert "left out" not in out
    first = out.splitlines()[0]
    assert first.startswith("nostacking against stacking (20,000 games each):")


def test_report_is_self_contained(compared):
    html = (compared / "report.html").read_text(encoding="utf-8")
    assert "nostacking against stacking" in html  # the headline
    assert "stack_draw_two=true" in html  # the rules away from the official ones
    assert "uno-sim compare stacking nostacking --games 20000 --seed 2" in html  # the command
    assert uno_sim.__version__ in html and "random x4" in html
    sources = re.findall(r'<img src="([^"]+)"', html)
    assert len(sources) == len(list(compared.glob("*.png")))
    for src in sources:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r"(src|href)=\"(https?:)?//", html)  # nothing fetched from a network
    assert "<script" not in html


def test_differences_chart_and_seat_chart(compared):
    for name in ("differences.png", "win_rates.png"):
        assert (compared / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cmp = uno_sim.compare(["stacking", "nostacking"], games=20000, seed=2)
    fig = cmp.plot_differences()
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "mean_turns" in labels and "median_turns" not in labels and "jump_in_rate" not in labels
    assert labels[-1] == "stack_rate"  # the largest on top
    assert "significant after Holm" in fig._suptitle.get_text()
    seats = cmp.plot_win_rates().axes[0]
    low, high = seats.get_ylim()
    assert low > 0.15 and high < 0.35  # zoomed around 1/4, not from 0


def test_bot_chart_points_with_intervals_on_a_zoomed_axis():
    from matplotlib.container import BarContainer, ErrorbarContainer

    run = uno_sim.run("standard", games=4000, seed=5, bots="expert,random,random,random")
    ax = run.plot_bot_win_rates().axes[0]
    assert not any(isinstance(c, BarContainer) for c in ax.containers)  # no bars from 0
    points = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    rates = run.summary.set_index("metric")["value"]
    drawn = sorted(float(c.lines[0].get_ydata()[0]) for c in points)
    assert drawn == pytest.approx(sorted([rates["win_rate_bot_expert"], rates["win_rate_bot_random"]]))
    low, high = ax.get_ylim()
    assert 0.1 < low < 0.25 and 0.75 < high < 0.9  # around the fair shares 25% and 75%, not from 0
    one_bot = uno_sim.run("standard", games=2000, seed=5)
    with pytest.raises(uno_sim.BadInput, match="needs more than one kind of bot"):
        one_bot.plot_bot_win_rates()  # the API, like the command line, does not draw it ...
    from uno_sim.output import charts

    single = charts.bot_win_rates(one_bot._variants()).axes[0]  # ... the chart itself still copes
    low, high = single.get_ylim()
    assert low > 0.9 and high >= 1.0  # one bot everywhere: its point at 100% stays inside the frame


def chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.skipif(chromium() is None, reason="headless Chromium is not installed")
def test_report_renders_in_headless_chromium(compared, tmp_path):
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}"]
    url = (compared / "report.html").resolve().as_uri()
    dom = subprocess.run([chromium(), *flags, "--dump-dom", url], capture_output=True, text=True, timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    images = re.findall(r'<img src="([^"]+)"', dom.stdout)
    assert images, "no images in the rendered page"
    for src in images:
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    shot = tmp_path / "report.png"
    done = subprocess.run([chromium(), *flags, f"--screenshot={shot}", "--window-size=1200,1600", url],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    from matplotlib.image import imread

    pixels = imread(shot)
    assert pixels.shape[0] == 1600 and pixels.shape[1] == 1200
    assert pixels[..., :3].std() > 0.05  # not a blank page
    top = pixels[:900, :, :3]
    assert (top.reshape(-1, 3).max(axis=1) - top.reshape(-1, 3).min(axis=1) > 0.2).mean() > 0.002  # the charts' colours


def test_json_is_the_only_thing_on_stdout(tmp_path):
    exe = Path(sys.executable).parent / "uno-sim"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "uno_sim.cli"]
    env = dict(os.environ)
    for args in (["run", "standard", "--games", "2000"], ["compare", "standard", "stacking", "--games", "2000"],
                 ["sweep", "standard", "--vary", "players=2,3", "--games", "1000"],
                 ["match", "standard", "--matches", "100", "--target", "200"]):
        out = tmp_path / args[0]
        done = subprocess.run(command + args + ["--json", "--out", str(out)], capture_output=True, text=True,
                              timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)  # all of standard output is one JSON document
        assert data["headline"] and data["summary"] and data["command"].startswith(f"uno-sim {args[0]} ")
        assert str(out / "report.html") in data["files"]
        assert f"wrote {out / 'report.html'}" in done.stderr
        assert "\x1b" not in done.stderr
        if args[0] == "compare":
            assert {"p_adjusted", "pooled_sd"} <= set(data["differences"][0])
        if args[0] == "run":
            table = pd.read_csv(out / "summary.csv")
            assert len(data["summary"]) == len(table)
            assert data["summary"][0]["metric"] == table["metric"][0]


def test_command_reproduces_the_numbers(tmp_path):
    res = uno_sim.run("stacking", games=1500, seed=4, players=3, overrides={"jump_in": True})
    assert res.command == "uno-sim run stacking --games 1500 --seed 4 --players 3 --set jump_in=true"
    argv = res.command.split()[1:] + ["--out", str(tmp_path / "again")]
    assert cli.run_cli(argv) == 0
    again = pd.read_csv(tmp_path / "again" / "summary.csv")
    pd.testing.assert_frame_equal(res.summary.reset_index(drop=True), again, check_dtype=False, rtol=1e-11)
