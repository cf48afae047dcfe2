"""`uno-sim bench --vs COMMIT`: the pairing and its order, the ratio summary, the table, the
baseline's tree, and bad input; all on synthetic timings (a fake runner), nothing compiled
except in the slow test at the end."""

import math
import subprocess
from pathlib import Path

import pytest

from uno_sim import cli
from uno_sim.running import bench_pairs as bp
from uno_sim.running.bench import BenchRow, write_results

BASE = bp.Build("base123", Path("/nowhere/base"), Path("/nowhere/base-cache"))
CUR = bp.Build("cur4567", Path("/nowhere/cur"), Path("/nowhere/cur-cache"))
STANDARD = bp.Case("standard", 4, "random", 2)
HOUSE = bp.Case("house", 4, "random", 2)
INFO = {"pairs": 4, "games": 1000, "date": "today", "cpu": "cpu", "cores": 2, "load_before": "1.00 1.00 1.00",
        "load_after": "2.00 1.50 1.00"}


class FakeRunner:
    """Records every call; baseline plays `base_rate` games/s and current `cur_rate`, both slowed
    by a load that grows with every timed run (what the alternating order is there to cancel)."""

    def __init__(self, base_rate=1000.0, cur_rate=800.0, drift=0.0, fail=None):
        self.calls = []
        self.rates = {"base123": base_rate, "cur4567": cur_rate}
        self.drift, self.fail = drift, fail

    def __call__(self, build, case, games, seed):
        self.calls.append((build.label, case.key, games, seed))
        if self.fail and self.fail == (build.label, case.key):
            raise bp.CaseFailed("unknown preset 'house'")
        timed = sum(1 for c in self.calls if c[2] != bp.WARM_GAMES)
        rate = self.rates[build.label] / (1 + self.drift * timed)
        # CPU: baseline 2 ms a game, current 1.6 ms (0.8x the work), whatever the drift
        cpu_rate = 500.0 if build.label == "base123" else 625.0
        return bp.Sample(rate, games / rate + 1.0, cpu_rate)


def test_pair_order_alternates_which_build_runs_first():
    assert bp.pair_order(5) == [("baseline", "current"), ("current", "baseline"), ("baseline", "current"),
                                ("current", "baseline"), ("baseline", "current")]


def test_run_pairs_warms_both_builds_then_alternates_with_the_same_seed_per_pair():
    runner = FakeRunner()
    rows = bp.run_pairs([STANDARD], BASE, CUR, 4, 1000, runner=runner)
    key = STANDARD.key
    assert runner.calls == [
        ("base123", key, bp.WARM_GAMES, 0), ("cur4567", key, bp.WARM_GAMES, 0),
        ("base123", key, 1000, 0), ("cur4567", key, 1000, 0),
        ("cur4567", key, 1000, 1), ("base123", key, 1000, 1),
        ("base123", key, 1000, 2), ("cur4567", key, 1000, 2),
        ("cur4567", key, 1000, 3), ("base123", key, 1000, 3),
    ]
    assert rows[0].ratios() == pytest.approx([0.8] * 4)
    # wall: 1000/800 + 1 = 2.25 s against 1000/1000 + 1 = 2 s
    assert rows[0].wall_ratios() == pytest.approx([1.125] * 4)


def test_alternating_order_cancels_a_steady_drift_in_the_median():
    # the machine slows 5 % a run: pairs with current second read it slower, pairs with current
    # first read it faster; the median ratio stays near the true 0.8
    rows = bp.run_pairs([STANDARD], BASE, CUR, 4, 1000, runner=FakeRunner(drift=0.05))
    ratios = rows[0].ratios()
    assert ratios[0] < 0.8 < ratios[1] and ratios[2] < 0.8 < ratios[3]
    assert rows[0].summary().median == pytest.approx(0.8, abs=0.005)


def test_a_case_one_build_cannot_play_is_reported_and_the_others_still_run():
    runner = FakeRunner(fail=("base123", HOUSE.key))
    rows = bp.run_pairs([HOUSE, STANDARD], BASE, CUR, 2, 1000, runner=runner)
    assert rows[0].error == "base123: unknown preset 'house'" and rows[0].pairs == []
    assert len(rows[1].pairs) == 2 and rows[1].error is None
    assert not any(call[1] == HOUSE.key and call[2] == 1000 for call in runner.calls)
    text = bp.markdown_section(rows, BASE, CUR, INFO)
    assert "| house/4p/random/2w | not played: base123: unknown preset 'house' |" in text


def test_summary_of_a_clear_loss_is_significant():
    s = bp.summarize([0.70, 0.72, 0.75, 0.77])
    assert s.median == pytest.approx(0.735)
    assert (s.low, s.high) == (0.70, 0.77)
    assert s.geo_mean == pytest.approx(math.exp(sum(map(math.log, [0.70, 0.72, 0.75, 0.77])) / 4))
    assert s.ci_low < s.geo_mean < s.ci_high < 1.0
    assert s.significant and s.p_value < 0.01 and s.faster == 0


def test_summary_of_noise_around_one_is_not_significant():
    s = bp.summarize([0.97, 1.04, 0.99, 1.02])
    assert s.ci_low < 1.0 < s.ci_high
    assert not s.significant and s.p_value > 0.5 and s.faster == 2


def test_summary_of_identical_ratios_has_no_spread():
    s = bp.summarize([1.1, 1.1])
    assert s.ci_low == s.ci_high == pytest.approx(1.1) and s.significant


@pytest.mark.parametrize("pairs", [0, 1, 51, -3, True, 2.5])
def test_bad_pair_counts_are_refused(pairs):
    with pytest.raises(bp.InputError, match="--pairs must be a whole number from 2 to 50"):
        bp.check_pairs(pairs)


def test_markdown_section_lists_every_pair_and_the_summary():
    rows = bp.run_pairs([STANDARD], BASE, CUR, 4, 1000, runner=FakeRunner())
    text = bp.markdown_section(rows, BASE, CUR, INFO)
    assert text.startswith(bp.SECTION[0]) and text.rstrip().endswith(bp.SECTION[1])
    assert "## Paired: cur4567 against base123" in text
    assert "load average 1.00 1.00 1.00 before, 2.00 1.50 1.00 after" in text
    assert ("| standard/4p/random/2w | 0.800 0.800 0.800 0.800 | 0.800 | 0.800-0.800 | 0.800 [0.800, 0.800] | "
            "0 | yes | 0 of 4 | 1.125 | 1,000 | 800 |") in text
    cpu_table = text.split("Games per CPU second", 1)[1]
    assert ("| standard/4p/random/2w | 1.250 1.250 1.250 1.250 | 1.250 | 1.250-1.250 | 1.250 [1.250, 1.250] | "
            "0 | yes | 4 of 4 |") in cpu_table


def test_write_section_replaces_its_own_section_and_keeps_the_rest(tmp_path):
    md = tmp_path / "BENCHMARKS.md"
    md.write_text("# Benchmarks\n\nabsolute table\n")
    rows = bp.run_pairs([STANDARD], BASE, CUR, 2, 1000, runner=FakeRunner())
    bp.write_section(md, bp.markdown_section(rows, BASE, CUR, INFO))
    first = md.read_text()
    assert first.startswith("# Benchmarks\n\nabsolute table\n\n" + bp.SECTION[0])
    rows = bp.run_pairs([STANDARD], BASE, CUR, 2, 1000, runner=FakeRunner(cur_rate=1200.0))
    bp.write_section(md, bp.markdown_section(rows, BASE, CUR, INFO))
    second = md.read_text()
    assert second.count(bp.SECTION[0]) == 1 and "absolute table" in second
    assert "| 1.200 1.200 |" in second and "| 0.800 0.800 |" not in second


def test_rewriting_the_absolute_table_keeps_the_paired_section(tmp_path):
    md = tmp_path / "BENCHMARKS.md"
    rows = bp.run_pairs([STANDARD], BASE, CUR, 2, 1000, runner=FakeRunner())
    section = bp.markdown_section(rows, BASE, CUR, INFO)
    md.write_text("# Benchmarks\n\nold absolute table\n\n" + section)
    info = {"cpu": "cpu", "cores": 2, "python": "3", "numba": "0", "numpy": "2", "date": "today"}
    write_results([BenchRow("standard", 4, "random", 2, 1000, 1234.5, [1234.5])], info, 1, md,
                  tmp_path / "benchmarks.json")
    text = md.read_text()
    assert "old absolute table" not in text and "| 1,234 |" in text
    assert text.endswith(section) and "not comparable" in text


# ---------------------------------------------------------------- the baseline's tree
def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _tiny_repo(path):
    (path / "uno_sim").mkdir(parents=True)
    (path / "uno_sim" / "__init__.py").write_text("VERSION = 'old'\n")
    _git(path, "init", "-q")
    _git(path, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    _git(path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "old")
    return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_baseline_tree_is_extracted_once_and_reused(tmp_path):
    head = _tiny_repo(tmp_path)
    assert bp.resolve_commit(tmp_path, head[:7]) == head
    (tmp_path / "uno_sim" / "__init__.py").write_text("VERSION = 'new'\n")  # uncommitted change
    build = bp.baseline_build(tmp_path, head)
    assert build.root == tmp_path / ".bench" / head / "src" and build.label == head[:7]
    assert (build.root / "uno_sim" / "__init__.py").read_text() == "VERSION = 'old'\n"
    assert build.env()["PYTHONPATH"] == str(build.root)
    # the current build's cache folder (compiled code is filed there by the engine's sources)
    assert build.env()["NUMBA_CACHE_DIR"] == str(bp.current_build(tmp_path).numba_cache)
    (build.root / "marker").write_text("kept")
    notes = []
    again = bp.baseline_build(tmp_path, head, note=notes.append)
    assert again == build and (build.root / "marker").is_file() and notes == []


def test_an_unknown_commit_is_refused(tmp_path):
    _tiny_repo(tmp_path)
    with pytest.raises(bp.InputError, match="'deadbeef' is not a commit of the checkout"):
        bp.resolve_commit(tmp_path, "deadbeef")
    with pytest.raises(bp.InputError, match="is not a commit"):
        bp.resolve_commit(tmp_path, "--all")


# ---------------------------------------------------------------- the command line
def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error_line(err, needle):
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err


@pytest.mark.parametrize("args, needle", [
    (["--vs", "no-such-commit-0000"], "--vs: 'no-such-commit-0000' is not a commit"),
    (["--vs", "HEAD", "--pairs", "1"], "--pairs must be a whole number from 2 to 50 (got 1)"),
    (["--vs", "HEAD", "--pairs", "0"], "--pairs must be a whole number from 2 to 50 (got 0)"),
    (["--vs", "HEAD", "--pairs", "51"], "--pairs must be a whole number from 2 to 50 (got 51)"),
    (["--vs", "HEAD", "--pairs", "two"], "--pairs"),
    (["--pairs", "4"], "--pairs and --case need --vs COMMIT"),
    (["--vs", "HEAD", "--case", "standard/4p"], "--case: 'standard/4p' is not a bench case"),
])
def test_bench_vs_bad_input_is_one_line_and_exit_2(capsys, tmp_path, args, needle):
    code, out, err = invoke(capsys, "bench", *args, "--write", tmp_path / "B.md")
    assert code == 2
    assert_one_error_line(err, needle)
    assert not (tmp_path / "B.md").exists()


# ---------------------------------------------------------------- a real paired run
@pytest.mark.slow
def test_paired_bench_of_head_against_itself_reads_near_one(tmp_path):
    """HEAD against HEAD (its tree under .bench/, compiled there the first time: minutes)."""
    from uno_sim import api

    plan = api.prepare_paired_bench("HEAD", pairs=2, games=50_000, cases=["standard/4p/random/2w"])
    rows = plan.run()
    s = rows[0].summary()
    assert rows[0].error is None and len(s.ratios) == 2
    assert 0.5 < s.median < 2.0


def test_a_failed_run_is_told_by_its_message():
    err = ("Traceback (most recent call last):\n  File \"<string>\", line 5\n"
           "uno_sim.errors.InputError: unknown preset 'no-mercy' (known: chips, deflect; or give a path)\n")
    assert bp.failure_line(err, 1) == "unknown preset 'no-mercy'"
    assert bp.failure_line("", 139) == "exit status 139"


def test_a_run_failing_in_the_middle_marks_its_case_and_the_next_case_plays():
    runner = FakeRunner()
    real = runner.__call__

    def flaky(build, case, games, seed):
        if case.key == STANDARD.key and seed == 1 and games != bp.WARM_GAMES:
            raise bp.CaseFailed("killed")
        return real(build, case, games, seed)

    rows = bp.run_pairs([STANDARD, HOUSE], BASE, CUR, 3, 1000, runner=flaky)
    assert rows[0].error == "pair 2: killed" and rows[0].pairs == []
    assert rows[1].error is None and len(rows[1].pairs) == 3


def test_cpu_ratios_are_left_out_when_a_build_does_not_report_its_cpu_time():
    row = bp.PairRow(STANDARD, [(bp.Sample(1000.0, 2.0, 500.0), bp.Sample(800.0, 2.2, 625.0)),
                                (bp.Sample(1000.0, 2.0, None), bp.Sample(800.0, 2.2, 625.0))])
    assert row.cpu_ratios() == [1.25] and row.cpu_summary() is None
    assert "Games per CPU second" not in bp.markdown_section([row], BASE, CUR, INFO)
