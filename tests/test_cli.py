"""The command line: bad input (exit 2, one line, nothing written), run, trace, presets, show."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from uno_sim import cli

ROOT = Path(__file__).resolve().parent.parent


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error_line(err, needle):
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert needle in lines[0], err
    assert "Traceback" not in err


# ---------------------------------------------------------------- bad input


BAD_RUNS = [
    (["run", "nope"], "unknown preset 'nope'"),
    (["run", "standard", "--set", "colour=red"], "unknown knob 'colour'"),
    (["run", "standard", "--set", "hand_size=lots"], "hand_size"),
    (["run", "standard", "--set", "jump_in=maybe"], "jump_in"),
    (["run", "standard", "--set", "jump_in"], "KNOB=VALUE"),
    (["run", "standard", "--set", "deflect=true"], "deflect"),
    (["run", "standard", "--set", "teams=3"], "teams"),
    (["run", "standard", "--players", "9", "--set", "hand_size=12"], "hand_size"),
    (["run", "standard", "--set", "draw_rule=until_playable", "--set", "play_drawn=none"], "until_playable"),
    (["run", "standard", "--players", "1"], "--players"),
    (["run", "standard", "--players", "11"], "--players"),
    (["run", "standard", "--games", "0"], "--games"),
    (["run", "standard", "--games", "-5"], "--games"),
    (["run", "standard", "--games", "many"], "--games"),
    (["run", "standard", "--workers", "0"], "--workers"),
    (["run", "standard", "--seed", "-1"], "--seed"),
    (["run", "standard", "--bots", "expert,wizard,random,random"], "unknown bot 'wizard'"),
    (["run", "standard", "--bots", "random,random"], "2 bots for 4 players"),
    (["run", "standard", "--bots", "random:forget_uno=2"], "forget_uno"),
    (["run", "standard", "--bogus"], "--bogus"),
    (["run"], "PRESET"),
    (["frobnicate"], "frobnicate"),
    (["show", "nope"], "unknown preset 'nope'"),
    (["show", "standard", "--set", "colour=red"], "unknown knob 'colour'"),
    (["trace", "nope"], "unknown preset 'nope'"),
    (["trace", "standard", "--games", "0"], "--games"),
    (["trace", "standard", "--set", "hand_size=0"], "hand_size"),
    (["trace", "standard", "--bots", "greedy:bluff=1"], "unknown parameter 'bluff'"),
]


@pytest.mark.parametrize("args, needle", BAD_RUNS, ids=[" ".join(a) for a, _ in BAD_RUNS])
def test_bad_input_exit_2_one_line_nothing_written(capsys, tmp_path, args, needle):
    out_dir = tmp_path / "out"
    if args[0] in ("run", "trace") and len(args) > 1:
        target = out_dir if args[0] == "run" else out_dir / "trace.jsonl"
        args = args + ["--out", str(target)]
    code, out, err = invoke(capsys, *args)
    assert code == 2
    assert_one_error_line(err, needle)
    assert not out_dir.exists()


def test_out_that_cannot_be_created(capsys, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    before = sorted(p.name for p in tmp_path.iterdir())
    code, _, err = invoke(capsys, "run", "standard", "--games", "10", "--out", blocker / "sub")
    assert code == 2
    assert_one_error_line(err, "a-file")
    code, _, err = invoke(capsys, "run", "standard", "--games", "10", "--out", blocker)
    assert code == 2
    assert_one_error_line(err, "not a folder")
    code, _, err = invoke(capsys, "trace", "standard", "--out", tmp_path)
    assert code == 2
    assert_one_error_line(err, "is a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert blocker.read_text() == "x"


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_out_in_read_only_folder(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = invoke(capsys, "run", "standard", "--games", "10", "--out", locked / "x")
        assert code == 2
        assert_one_error_line(err, "cannot write")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_unexpected_failure_exit_1_one_line(capsys, tmp_path, monkeypatch):
    import uno_sim.running.games as sim

    def boom(*a, **k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(sim, "play_runs", boom)  # where `run` plays its games
    out_dir = tmp_path / "new" / "out"
    code, _, err = invoke(capsys, "run", "standard", "--games", "10", "--out", out_dir)
    assert code == 1
    assert_one_error_line(err, "kaboom")
    assert not (tmp_path / "new").exists()  # folders created for the run are removed again


def test_console_script_help_and_bad_input():
    exe = Path(sys.executable).parent / "uno-sim"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "uno_sim.cli"]
    done = subprocess.run(command + ["--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    for name in ("presets", "show", "run", "compare", "sweep", "trace"):
        assert name in done.stdout
    done = subprocess.run(command + ["run", "standard", "--set", "nope=1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["error: unknown knob 'nope' (see `uno-sim show standard` for the list)"]


# ---------------------------------------------------------------- presets / show


def test_presets_lists_all_with_description(capsys):
    code, out, _ = invoke(capsys, "presets")
    assert code == 0
    for name in ("standard", "stacking", "nostacking"):
        assert name in out
    assert "Stacking" in out


def test_show_marks_differences(capsys):
    code, out, _ = invoke(capsys, "show", "stacking", "--set", "hand_size=5", "--players", "3")
    assert code == 0
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("│")}
    assert "*" in lines["stack_draw_two"] and "*" in lines["hand_size"] and "*" in lines["players"]
    assert "*" not in lines["jump_in"]
    assert "5" in lines["hand_size"]


# ---------------------------------------------------------------- run


def summary_values(path):
    table = pd.read_csv(path)
    assert list(table.columns) == ["variant", "metric", "value", "ci_low", "ci_high", "games"]
    return table, dict(zip(table["metric"], table["value"]))


def test_run_writes_summary_and_chart_same_for_any_workers(capsys, tmp_path):
    outs = []
    for workers in (1, 2):
        out_dir = tmp_path / f"w{workers}"
        code, out, err = invoke(
            capsys, "run", "standard", "--games", "2000", "--seed", "11", "--workers", workers, "--out", out_dir
        )
        assert code == 0, err
        assert "summary.csv" in out and "win_rates.png" in out
        assert (out_dir / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        written = [  # standard, one bot: no stacking chart, no bot chart
            "distributions.csv", "game_length.png", "report.html", "summary.csv", "win_rates.png",
            "winner_points.png",
        ]
        assert sorted(p.name for p in out_dir.iterdir()) == [".uno-sim-files", *written]  # no temp files
        assert sorted((out_dir / ".uno-sim-files").read_text().split()) == written  # the manifest lists them
        outs.append((out_dir / "summary.csv").read_bytes())
    assert outs[0] == outs[1]
    table, value = summary_values(tmp_path / "w1" / "summary.csv")
    assert (table["games"] == 2000).all() and (table["variant"] == "standard").all()
    total = sum(value[f"win_rate_seat_{i}"] for i in range(4)) + value["no_winner_rate"]
    assert total == pytest.approx(1.0, abs=1e-9)
    for name in ("mean_turns", "median_turns", "mean_plays", "mean_draws", "mean_winner_points",
                 "reshuffle_rate", "win_rate_bot_random"):
        assert name in value
    assert not any("time" in m or "second" in m for m in value)


def test_run_per_game_matches_summary(capsys, tmp_path):
    out_dir = tmp_path / "pg"
    code, _, err = invoke(
        capsys, "run", "stacking", "--games", "500", "--players", "3", "--seed", "5", "--per-game",
        "--bots", "random,random:forget_uno=0.5,random", "--out", out_dir,
    )
    assert code == 0, err
    games = pd.read_csv(out_dir / "games.csv")
    assert list(games.columns) == (
        "game winner reason turns plays draws reshuffles max_pending challenges winner_points knockouts".split()
        + [f"points_{i}" for i in range(3)] + [f"cards_{i}" for i in range(3)]
    )
    assert list(games["game"]) == list(range(500))
    assert set(games["reason"]) <= {"out", "void", "stall", "cap"}
    _, value = summary_values(out_dir / "summary.csv")
    assert value["mean_turns"] == pytest.approx(games["turns"].mean())
    assert value["win_rate_seat_1"] == pytest.approx((games["winner"] == 1).mean())
    assert value["win_rate_bot_random:forget_uno=0.5"] == pytest.approx((games["winner"] == 1).mean())
    assert value["win_rate_bot_random"] == pytest.approx(games["winner"].isin([0, 2]).mean())


def test_run_default_out_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = invoke(capsys, "run", "nostacking", "--games", "200")
    assert code == 0, err
    (folder,) = (tmp_path / "reports").iterdir()
    assert folder.name.startswith("run-nostacking-")
    assert (folder / "summary.csv").exists() and (folder / "win_rates.png").exists()


# ---------------------------------------------------------------- trace


def test_trace_stdout_is_json_lines(capsys):
    code, out, err = invoke(capsys, "trace", "standard", "--games", "2", "--seed", "3")
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["ev"] for e in events].count("deal") == 2
    assert events[0]["ev"] == "deal" and events[-1]["ev"] == "end"
    assert events[0]["rules"]["hand_size"] == 7 and events[0]["bots"] == ["random"] * 4


def test_trace_to_file_matches_stdout(capsys, tmp_path):
    target = tmp_path / "sub" / "t.jsonl"
    code, _, err = invoke(capsys, "trace", "stacking", "--players", "3", "--seed", "9", "--out", target)
    assert code == 0, err
    code, out, _ = invoke(capsys, "trace", "stacking", "--players", "3", "--seed", "9")
    assert target.read_text() == out
    assert [p.name for p in target.parent.iterdir()] == ["t.jsonl"]
    assert json.loads(out.splitlines()[0])["players"] == 3


def test_trace_rotate_seats_traces_the_games_run_plays(capsys):
    from trace_checker import check_trace_lines
    from uno_sim.game.bots import pack_bots, parse_bots
    from uno_sim.engine import layout as L
    from uno_sim.engine.batch import run_chunk, run_key
    from uno_sim.game.presets import load as load_preset

    code, out, err = invoke(capsys, "trace", "standard", "--games", "8", "--seed", "5",
                            "--bots", "expert,random,random,greedy", "--rotate-seats")
    assert code == 0, err
    lines = out.splitlines()
    deals = [json.loads(line) for line in lines if '"ev":"deal"' in line]
    ends = [json.loads(line) for line in lines if '"ev":"end"' in line]
    assert deals[1]["bots"] == ["greedy", "expert", "random", "random"]  # game 1: bots shifted by 1
    assert deals[0]["hands"] == deals[3]["hands"] and deals[4]["hands"] != deals[0]["hands"]  # deal i // 4
    rules = load_preset("standard")
    packed = rules.pack()
    codes, params = pack_bots(parse_bots("expert,random,random,greedy", 4))
    rows = run_chunk(packed, codes, params, run_key(5), 0, 8, rotate=True)
    assert [e["winner"] for e in ends] == list(rows[:, L.COL_WINNER])
    assert [e["turns"] for e in ends] == list(rows[:, L.COL_TURNS])
    assert not [v for report in check_trace_lines(lines) for v in report.violations]


# ---------------------------------------------------------------- simulate (the layer under `run`)


def test_simulate_same_numbers_for_any_chunking_and_threads():
    from uno_sim.game.bots import parse_bots
    from uno_sim.game.presets import load as load_preset
    from uno_sim.running.games import simulate

    rules = load_preset("stacking", players=3)
    bots = parse_bots(None, 3)
    a = simulate(rules, bots, 3000, seed=4, workers=2, progress=False)
    b = simulate(rules, bots, 3000, seed=4, workers=1, chunk_size=700, progress=False)
    pd.testing.assert_frame_equal(a.summary("x"), b.summary("x"))
    c = simulate(rules, bots, 3000, seed=5, workers=2, progress=False)
    assert not a.summary("x").equals(c.summary("x"))  # the seed matters


def test_help_keeps_square_brackets(capsys):
    """Help texts are rich markup: an unescaped "[cluster]" vanished from --help."""
    import re

    import typer

    command = typer.main.get_command(cli.app)
    checked = 0
    for name, sub in command.commands.items():
        wanted = {m.replace("\\", "") for p in sub.params
                  for m in re.findall(r"\\?\[[a-z][^\]\s]*\]", getattr(p, "help", None) or "")}
        code, out, _ = invoke(capsys, name, "--help")
        assert code == 0
        for text in wanted:
            assert text in out, (name, text)
            checked += 1
    assert checked >= 4  # --cluster on run, compare, sweep and match
    code, out, _ = invoke(capsys, "run", "--help")
    assert "'uno-sim[cluster]'" in out


# What a command that plays nothing must not load: the compiler, numpy and every library of
# the output (each costs a noticeable part of a second to import).
HEAVY = ("numba", "numpy", "pandas", "scipy", "matplotlib", "jinja2", "dask")


def _modules_loaded(code: str, modules: tuple[str, ...] = HEAVY) -> list[str]:
    """Those of `modules` loaded after `code` ran in a fresh interpreter."""
    program = code + f"\nimport sys\nprint(sorted(m for m in {modules!r} if m in sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1].replace("'", '"'))


@pytest.mark.parametrize("argv", [["--help"], ["presets"], ["show", "standard"], ["show", "modern"], ["rules"],
                                  ["rules", "hand_size"], ["decks"], ["decks", "modern"], ["run", "--help"],
                                  ["design", "--help"], ["sweep", "--help"]])
def test_commands_that_simulate_nothing_import_no_heavy_library(argv):
    """--help, presets, show, rules and decks start in a fraction of a second: they import neither
    the compiler (numba) nor numpy, pandas, scipy, matplotlib, Jinja2 or Dask."""
    code = ("import io, contextlib\n"
            "from uno_sim.cli.app import run_cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert run_cli({argv!r}) == 0\n")
    assert _modules_loaded(code) == []


def test_importing_the_package_loads_neither_the_api_nor_a_heavy_library():
    """`import uno_sim` (as the command line does) loads its public names on first use."""
    api_modules = ("uno_sim.api.runs", "uno_sim.api.comparisons", "uno_sim.api.sweeps", "uno_sim.running.games")
    assert _modules_loaded("import uno_sim, uno_sim.api, uno_sim.cli", HEAVY + api_modules) == []
    assert _modules_loaded("import uno_sim\nuno_sim.run", api_modules) == ["uno_sim.api.runs"]


def test_a_run_loads_no_output_library_before_the_engine_starts(tmp_path):
    """Until the engine starts, a run needs numpy only: not the compiler (numba, which loads
    scipy; the engine's start imports it), nor pandas, matplotlib or Jinja2 (its files, written
    by the writing process afterwards: tests/test_writing_process.py)."""
    code = ("import sys\n"
            "from uno_sim.running import warmup\n"
            "def stop(*kinds, progress=None):\n"
            f"    print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
            "    raise SystemExit(0)\n"
            "warmup.warm_up = stop\n"
            "from uno_sim.cli.app import run_cli\n"
            f"run_cli(['run', 'standard', '--games', '1000', '--out', {str(tmp_path / 'out')!r}])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1].replace("'", '"')) == ["numpy"]
    assert not (tmp_path / "out").exists()


def test_the_public_names_resolve_to_their_modules_objects():
    import uno_sim
    from uno_sim import api
    from uno_sim.api import common, runs, sweeps

    assert set(uno_sim.__all__) <= set(dir(uno_sim)) and set(api.__all__) <= set(dir(api))
    assert [getattr(uno_sim, n) is not None for n in uno_sim.__all__] == [True] * len(uno_sim.__all__)
    assert (uno_sim.run, api.run, api.prepare_sweep, api.DEFAULT_TOP) == (api.runs.run, runs.run, sweeps.prepare_sweep,
                                                                          common.DEFAULT_TOP)
    assert uno_sim.__version__ == uno_sim.game.version.VERSION
    with pytest.raises(AttributeError):
        api.no_such_name  # noqa: B018


def test_make_demo_runs_again_into_its_own_folder(tmp_path):
    """`make demo` twice: the second run replaces the first one's files (not a user's)."""
    import shlex
    import shutil

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = ROOT
    out = tmp_path / "demo"
    # the demo's command line as make runs it (-o: without re-installing the environment)
    shown = subprocess.run(["make", "-s", "-n", "-o", ".venv/.uno-sim-installed", "demo", "DEMO_GAMES=300",
                            f"DEMO_OUT={out}"], cwd=root, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    (line,) = [x for x in shown.stdout.splitlines() if "compare" in x]
    words = shlex.split(line)
    assert words[0].endswith("uno-sim") and str(out) in words  # never the repository's own reports/demo
    command = [sys.executable, "-m", "uno_sim", *words[1:]]
    first = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    (out / "notes.txt").write_text("mine")
    before = (out / "compare.csv").stat().st_mtime_ns
    second = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    assert (out / "compare.csv").stat().st_mtime_ns > before  # written anew
    assert (out / "notes.txt").read_text() == "mine"  # not uno-sim's: kept
    assert sorted(set((out / ".uno-sim-files").read_text().split())) == sorted(
        p.name for p in out.iterdir() if p.name not in ("notes.txt", ".uno-sim-files"))


def test_table_title_on_a_narrow_terminal_is_not_padded():
    """A long table title on a terminal was wrapped by rich into centred lines padded with
    spaces: copied, it read "rates in  percentage points"."""
    import io

    from uno_sim.cli import render
    from uno_sim.output.tables import Table

    buffer = io.StringIO()
    console = render._Stdout(file=buffer, width=60, force_terminal=True, color_system=None, highlight=False)
    title = ("a vs b: differences to a with 95% intervals (rates in percentage points); "
             "tests in docs/METRICS.md")
    table = Table(title, [("metric", "left"), ("a", "right"), ("b", "right")])
    table.rows.append(["first_player_edge", "1.0", "2.0"])
    table.bold.append(False)
    render.print_table(console, table)
    out = buffer.getvalue()
    assert title in out
    assert "  percentage" not in " ".join(line.strip() for line in out.splitlines())
    assert out.splitlines()[0].startswith("a vs b")


@pytest.mark.parametrize("name", ["run", "compare", "sweep", "trace", "match", "tournament", "bench", "resume",
                                  "show"])
def test_help_shows_flags_without_a_value(capsys, monkeypatch, name):
    """--help showed `--force <bool>` (and --json, --per-game, --help ...) though a flag takes
    no value (`--force true` is refused)."""
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = invoke(capsys, name, "--help")
    assert code == 0
    assert "<bool>" not in out
    if name != "show":
        assert "--force" in out or "--timings" in out


@pytest.mark.parametrize("args, needle", [
    (["run", "standrad"], "unknown preset 'standrad' (did you mean 'standard'?)"),
    (["show", "stackng"], "did you mean 'stacking'?"),
    (["run", "standard", "--set", "stak_draw_two=true"], "unknown knob 'stak_draw_two' (did you mean 'stack_draw_two'?)"),
    (["show", "standard", "--set", "hand_sise=5"], "did you mean 'hand_size'?"),
    (["rules", "jump_inn"], "did you mean 'jump_in'?"),
    (["sweep", "standard", "--vary", "hand_sise=5,7"], "did you mean 'hand_size'?"),
])
def test_unknown_knob_or_preset_suggests_the_closest(capsys, tmp_path, args, needle):
    """A misspelt knob or preset: the one error line names the closest known one."""
    code, out, err = invoke(capsys, *args, *(["--out", tmp_path / "out"] if args[0] in ("run", "sweep") else []))
    assert code == 2
    assert_one_error_line(err, needle)


def test_unknown_name_far_from_any_has_no_suggestion(capsys):
    code, _, err = invoke(capsys, "run", "standard", "--set", "colour=red")
    assert code == 2
    assert_one_error_line(err, "unknown knob 'colour' (see")
