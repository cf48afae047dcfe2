"""Coverage of precision runs, by simulation with the engine (docs/METRICS.md quotes it).

    PYTHONPATH=. .venv/bin/python tools/precision_coverage.py [REPETITIONS] [REFERENCE_GAMES]

A reference run (seed 0, REFERENCE_GAMES games, default 4,000,000) stands in for the true
values; then REPETITIONS runs (default 1,000; seeds 1, 2, ...) of `standard` with
`--precision first_player_edge=0.0088 --precision mean_turns=0.49` each stop at their first
narrow look, and the script counts how often each reported interval holds the reference
value (and both at once), beside the games the runs took. The targets are about the
half-widths expected at the 20,000-game look, so that runs stop at different looks, where
stopping on a narrow interval could bias what is reported.
"""

from __future__ import annotations

import math
import sys
from collections import Counter

import uno_sim

TARGETS = ["first_player_edge=0.0088", "mean_turns=0.49"]
METRICS = ["first_player_edge", "mean_turns"]


def main(repetitions: int = 1000, reference_games: int = 4_000_000) -> None:
    reference = uno_sim.run("standard", games=reference_games, seed=0).summary.set_index("metric")
    truth = {m: float(reference.loc[m, "value"]) for m in METRICS}
    halves = {m: (reference.loc[m, "ci_high"] - reference.loc[m, "ci_low"]) / 2 for m in METRICS}
    print(f"reference ({reference_games:,} games, seed 0): " + ", ".join(
        f"{m} {truth[m]:.5f} ±{halves[m]:.5f}" for m in METRICS), flush=True)
    hits, both, games, met = Counter(), 0, Counter(), 0
    for seed in range(1, repetitions + 1):
        res = uno_sim.run("standard", precision=TARGETS, seed=seed)
        rows = res.summary.set_index("metric")
        inside = {m: rows.loc[m, "ci_low"] <= truth[m] <= rows.loc[m, "ci_high"] for m in METRICS}
        hits.update(m for m in METRICS if inside[m])
        both += all(inside.values())
        games[res.precision.games] += 1
        met += res.precision.met
        if seed % 100 == 0:
            print(f"{seed} runs: " + ", ".join(f"{m} {hits[m] / seed:.3f}" for m in METRICS), flush=True)
    print(f"{repetitions} runs, targets {' '.join(TARGETS)}, each interval at "
          f"{100 * res.precision.confidence:.2f}% ({len(res.precision.looks)} looks planned)")
    for m in METRICS:
        p = hits[m] / repetitions
        print(f"  {m}: covered {hits[m]} of {repetitions} = {p:.3f} "
              f"(±{1.96 * math.sqrt(p * (1 - p) / repetitions):.3f})")
    print(f"  both at once: {both / repetitions:.3f}; targets met: {met} of {repetitions}")
    print("  games taken: " + ", ".join(f"{g:,}: {c}" for g, c in sorted(games.items())))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
