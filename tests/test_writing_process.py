"""`uno-sim run` writes its files in a process of its own (uno_sim/output/writing_process.py):
the same files as the command's own process writes, the same tables printed, no output library
imported by the command itself, and a failure there one line, exit status 2, nothing written."""

import json
import subprocess
import sys
from pathlib import Path

import uno_sim
from uno_sim.cli.render import print_run

FILES = [".uno-sim-files", "distributions.csv", "game_length.png", "report.html", "summary.csv", "win_rates.png",
         "winner_points.png"]
HEAVY = ("numba", "numpy", "pandas", "scipy", "matplotlib", "jinja2")


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def _run_cli(out: Path, before: str = "", *options: str) -> subprocess.CompletedProcess:
    """`uno-sim run standard --games 1000 --seed 5 --out OUT` in a fresh interpreter (after
    `before`), its writing process started however busy the machine is, which prints its exit
    status and the heavy libraries it loaded on stderr."""
    argv = ["run", "standard", "--games", "1000", "--seed", "5", "--out", str(out), *options]
    idle = "from uno_sim.output import writing_process\nwriting_process.cores_taken = lambda: False\n"  # whatever the load
    return _python(f"{idle}{before}\nimport sys\nfrom uno_sim.cli.app import run_cli\nstatus = run_cli({argv!r})\n"
                   f"print('status', status, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n")


def _status_line(stderr: str) -> tuple[int, list[str]]:
    line = [x for x in stderr.splitlines() if x.startswith("status ")][-1]
    status, loaded = line.split(" ", 2)[1:]
    return int(status), json.loads(loaded.replace("'", '"'))


def test_run_writes_every_file_as_its_own_process_would_and_imports_no_output_library(tmp_path, capsys):
    done = _run_cli(tmp_path / "cli")
    status, loaded = _status_line(done.stderr)
    assert status == 0, done.stderr
    assert loaded == ["numba", "numpy", "scipy"]  # pandas, matplotlib, Jinja2: only in the writing process
    assert sorted(p.name for p in (tmp_path / "cli").iterdir()) == FILES

    res = uno_sim.run("standard", games=1000, seed=5)  # the files written here, in this process
    (tmp_path / "api").mkdir()
    for name, write in res.files().items():
        write(tmp_path / "api" / name)
    for name in FILES[1:]:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "api" / name).read_bytes(), name

    capsys.readouterr()
    print_run(res)
    here = capsys.readouterr().out.splitlines()
    printed = done.stdout.splitlines()
    timing = next(i for i, line in enumerate(here) if " games in " in line)
    assert printed[:timing] == here[:timing]  # headline and tables; the timing line differs run to run
    assert printed[timing + 1:] == [f"wrote {tmp_path / 'cli' / name}" for name in
                                    ("summary.csv", "distributions.csv", "win_rates.png", "game_length.png",
                                     "winner_points.png", "report.html")]


def test_run_json_comes_from_the_writing_process_unchanged(tmp_path):
    done = _run_cli(tmp_path / "cli", "", "--json")
    assert _status_line(done.stderr)[0] == 0, done.stderr
    shown = json.loads(done.stdout)
    res = uno_sim.run("standard", games=1000, seed=5)
    assert shown["summary"] == json.loads(json.dumps(res.to_dict()["summary"]))
    assert shown["headline"] == list(res.headline)


def test_a_chart_failing_in_the_writing_process_is_one_line_exit_2_and_nothing_written(tmp_path):
    """(Before the writing process, the same failure was an 'unexpected failure', exit 1.)"""
    broken = ("from uno_sim.output import charts\n"
              "def png_bytes(fig):\n"
              "    raise RuntimeError('out of ink')\n"
              "charts.png_bytes = png_bytes\n")
    done = _run_cli(tmp_path / "out", broken)
    status, _ = _status_line(done.stderr)
    errors = [line for line in done.stderr.splitlines() if not line.startswith("status ")]
    assert status == 2
    assert errors == ["error: the files could not be written: RuntimeError: out of ink; nothing was written"]
    assert not (tmp_path / "out").exists()


def test_a_writing_process_that_dies_is_one_line_exit_2_and_nothing_written(tmp_path):
    dying = ("import os\n"
             "from uno_sim.output import charts\n"
             "charts.png_bytes = lambda fig: os._exit(9)\n")
    done = _run_cli(tmp_path / "out", dying)
    status, _ = _status_line(done.stderr)
    errors = [line for line in done.stderr.splitlines() if not line.startswith("status ")]
    assert status == 2
    assert len(errors) == 1 and errors[0].startswith("error: the files could not be written: ")
    assert "ended unexpectedly" in errors[0] and errors[0].endswith("; nothing was written")
    assert not (tmp_path / "out").exists()


def test_the_writing_process_is_left_out_when_every_core_is_busy(tmp_path):
    """Then the command writes its files itself (and imports the output libraries), as before."""
    busy = ("from uno_sim.output import writing_process\n"
            "writing_process.cores_taken = lambda: True\n")
    argv = ["run", "standard", "--games", "1000", "--seed", "5", "--out", str(tmp_path / "out")]
    done = _python(f"{busy}import sys\nfrom uno_sim.cli.app import run_cli\nstatus = run_cli({argv!r})\n"
                   f"print('status', status, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n")
    status, loaded = _status_line(done.stderr)
    assert status == 0, done.stderr
    assert {"pandas", "matplotlib", "jinja2"} <= set(loaded)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == FILES


def test_cores_taken_compares_the_load_with_the_cores(monkeypatch):
    from uno_sim.output import writing_process

    monkeypatch.setattr(writing_process.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(writing_process.os, "getloadavg", lambda: (1.9, 5.0, 5.0))
    assert not writing_process.cores_taken()
    monkeypatch.setattr(writing_process.os, "getloadavg", lambda: (2.0, 0.0, 0.0))
    assert writing_process.cores_taken()


def test_a_full_disk_in_the_writing_process_reads_as_in_the_command(tmp_path):
    """The system's refusal there is the command's usual line naming the folder, exit 2."""
    full = ("from uno_sim.output import charts\n"
            "def write_png(data, path):\n"
            "    raise OSError(28, 'No space left on device')\n"
            "charts.write_png = write_png\n")
    done = _run_cli(tmp_path / "out", full)
    status, _ = _status_line(done.stderr)
    errors = [line for line in done.stderr.splitlines() if not line.startswith("status ")]
    assert status == 2
    assert errors == [f"error: --out {str(tmp_path / 'out')!r}: cannot write (No space left on device); "
                      "nothing was written"]
    assert not (tmp_path / "out").exists()


def test_the_console_script_starts_the_writing_process_before_the_command_line(tmp_path):
    """`uno-sim run` (cli.main) forks its writing process before Typer and the commands are
    imported; the files are those the run writes in its own process, and the command loads
    neither an output library nor scipy.linalg (numba's BLAS check: engine/blas_check.py)."""
    out = tmp_path / "cli"
    argv = ["uno-sim", "run", "standard", "--games", "1000", "--seed", "5", "--out", str(out)]
    code = ("import atexit, sys\n"
            "from uno_sim.output import writing_process\n"
            "writing_process.cores_taken = lambda: False\n"
            "original, started = writing_process.start, []\n"
            "def start():\n"
            "    started.append(('typer' in sys.modules, writing_process._process is None))\n"
            "    original()\n"
            "writing_process.start = start\n"
            "later = ('scipy.linalg', 'numpy.f2py', 'pandas', 'matplotlib', 'jinja2')\n"
            "atexit.register(lambda: print('seen', started, [m for m in later if m in sys.modules], file=sys.stderr))\n"
            f"sys.argv = {argv!r}\n"
            "from uno_sim.cli import main\n"
            "main()\n")
    done = _python(code)
    assert done.returncode == 0, done.stderr
    seen = [line for line in done.stderr.splitlines() if line.startswith("seen ")]
    # first from main, before Typer, forking; then the command's own start finds it running
    assert seen == ["seen [(False, True), (True, False)] []"], done.stderr
    assert sorted(p.name for p in out.iterdir()) == FILES
    res = uno_sim.run("standard", games=1000, seed=5)
    (tmp_path / "api").mkdir()
    for name, write in res.files().items():
        write(tmp_path / "api" / name)
    for name in FILES[1:]:
        assert (out / name).read_bytes() == (tmp_path / "api" / name).read_bytes(), name


def test_run_help_starts_no_writing_process():
    code = ("import sys\n"
            "from uno_sim.output import writing_process\n"
            "writing_process.cores_taken = lambda: False\n"
            "from uno_sim import cli\n"
            "cli.start_writing(['run', '--help'])\n"
            "cli.start_writing(['presets'])\n"
            "print('process', writing_process._process, 'numpy' in sys.modules)\n")
    done = _python(code)
    assert done.stdout.split() == ["process", "None", "False"], done.stderr
