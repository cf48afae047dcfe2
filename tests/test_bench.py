"""`uno-sim bench` output files (no timing is asserted: timing belongs to `make bench`)."""

import json

from uno_sim.running.bench import BenchRow, markdown, write_results


def test_bench_writes_table_json_and_readme(tmp_path):
    (tmp_path / "README.md").write_text("intro\n<!-- bench:start -->\nold\n<!-- bench:end -->\nrest\n")
    rows = [BenchRow("standard", 4, "random", 2, 1000, 1234.5, [1234.5], 300000, 1000.0)]
    info = {"cpu": "cpu", "cores": 2, "python": "3", "numba": "0", "numpy": "2", "date": "today"}
    write_results(rows, info, 1, tmp_path / "BENCHMARKS.md", tmp_path / "benchmarks.json")
    readme = (tmp_path / "README.md").read_text()
    assert "old" not in readme and "| standard | 4 | random | 2 | 1,000 | 1,234 | 1,000 | 300,000 |" in readme
    assert readme.startswith("intro\n") and readme.endswith("rest\n")
    data = json.loads((tmp_path / "benchmarks.json").read_text())
    assert data["rows"][0]["key"] == "standard/4p/random/2w" and data["rows"][0]["games_per_second"] == 1234.5
    assert (tmp_path / "BENCHMARKS.md").read_text() == markdown(rows, info, 1)


def test_bench_timings_table_and_json(tmp_path):
    from uno_sim.running.bench import TimingRow

    rows = [BenchRow("standard", 4, "random", 2, 1000, 1234.5, [1234.5], 300000, None)]
    timings = [TimingRow("kernel only: standard 4p, 2 threads", 650000.0, "games/s", [650000.0], 700000),
               TimingRow("--help", 0.21, "s", [0.21], 0.3, 0.5)]
    info = {"cpu": "cpu", "cores": 2, "python": "3", "numba": "0", "numpy": "2", "date": "today"}
    write_results(rows, info, 1, tmp_path / "BENCHMARKS.md", tmp_path / "benchmarks.json", timings)
    text = (tmp_path / "BENCHMARKS.md").read_text()
    assert "| kernel only: standard 4p, 2 threads | 650,000 games/s | - | 700,000 games/s |" in text
    assert "| --help | 0.21 s | 0.50 s | 0.30 s |" in text
    data = json.loads((tmp_path / "benchmarks.json").read_text())
    assert [t["key"] for t in data["timings"]] == ["kernel only: standard 4p, 2 threads", "--help"]


def test_bench_rates_of_the_python_environments_show_their_unit(tmp_path):
    from uno_sim.running.bench import TimingRow

    timings = [TimingRow("uno_env (AEC) standard 2p, random bot: decisions", 11157.4, "steps/s", [11157.4], 9175.0)]
    info = {"cpu": "cpu", "cores": 2, "python": "3", "numba": "0", "numpy": "2", "date": "today"}
    write_results([], info, 1, tmp_path / "BENCHMARKS.md", tmp_path / "benchmarks.json", timings)
    text = (tmp_path / "BENCHMARKS.md").read_text()
    assert "| uno_env (AEC) standard 2p, random bot: decisions | 11,157 steps/s | - | 9,175 steps/s |" in text
