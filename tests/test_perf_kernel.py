"""tools/perf_kernel.py: the perf map it writes names the engine's compiled functions at
addresses inside this process's compiled code (no perf needed to check that)."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_perf_map_names_the_engine_functions():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "perf_kernel.py"), "standard", "random", "200"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    match = re.search(r"(\d+) compiled functions mapped in (/tmp/perf-\d+\.map)", done.stderr)
    assert match, done.stderr
    path = Path(match.group(2))
    try:
        rows = [line.split(" ", 2) for line in path.read_text().splitlines()]
        assert len(rows) == int(match.group(1)) > 20
        starts = [int(start, 16) for start, _, _ in rows]
        assert starts == sorted(starts) and all(int(size, 16) > 0 for _, size, _ in rows)
        names = " ".join(name for _, _, name in rows)
        for function in ("_play_games", "continue_round", "choose_turn_card", "deal"):
            assert function in names, function
        # the functions follow one another without overlapping
        assert all(a + int(size, 16) <= b for a, (_, size, _), b in zip(starts, rows, starts[1:]))
    finally:
        os.unlink(path)
