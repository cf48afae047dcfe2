"""uno-sim from Python: `run`, `compare`, `sweep` and `match`, for notebooks and scripts.

    import uno_sim
    res = uno_sim.run("stacking", games=200_000, players=5, seed=7)
    res.summary                 # tidy DataFrame, the columns of summary.csv
    res.plot_win_rates()        # a matplotlib Figure

    cmp = uno_sim.compare(["standard", "house.toml"], games=200_000, overrides={"jump_in": True})
    cmp.differences             # each variant minus the first, with intervals and p-values

Rules are given as a built-in preset name, a path to a TOML rule file (see uno_sim.game.presets),
or a `Rules` value; `overrides` is a dict of knob values (`{"hand_size": 5}`) applied on top;
`bots` a spec like "expert,random,random,random" (uno_sim.game.bots). Every argument is checked
before anything is played; bad input raises a `uno_sim.BadInput` whose message names it.
The command line is a thin layer over this module: `prepare_*` checks and plans, the plan's
`execute()` plays, and each result's `files()` names the files a command writes.

Every call takes `cluster` (a Dask scheduler address `tcp://host:8786`, or `local[:N]`: the
same numbers, played by a cluster's workers; uno_sim.running.cluster) and `checkpoint` (a folder
keeping every finished chunk, so that the same call after an interruption continues where it
stopped; uno_sim.running.checkpoint).

The package holds one job a module: common.py (checks, rule loading, the command line that
reproduces a result), result_base.py (what every result shares: charts, report, JSON rows),
then one module a command, each with its result, plan, `prepare_*` and function: runs.py,
comparisons.py and sweeps.py (both built on runs.py), designs.py and races.py (the rule
designer: a race over a sweep's grid), matches.py, tournaments.py (named in the
plural so that no module shares a name with the function `uno_sim.api.run`, ...), traces.py
(trace events of a run's plan), benchmarks.py (`uno-sim bench`); and what the command line
needs of the machine and the process: machine.py (threads, pyarrow), signals.py (Ctrl-C and
SIGTERM). Imports run one way (common, result_base <- runs <- comparisons, sweeps); this
module only gathers the public names, each loaded from its module on first use (PEP 562), so
that a command that plays nothing (`uno-sim --help`, `presets`) does not load them all.
"""


from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..game.errors import InputError

# Every public name the single module api.py had, so that `api.X` keeps working: its module here.
_HOMES = {
    "common": ["DEFAULT_FAIR_WITHIN", "DEFAULT_MAX_GAMES", "DEFAULT_TOP", "MAX_GAMES", "MAX_SEED", "RuleSpec", "check_count", "command_line", "load_rules", "override_dict"],
    "result_base": ["VariantCharts"],
    "runs": ["Run", "RunPlan", "check_per_game", "prepare_run", "run"],
    "comparisons": ["ComparePlan", "Comparison", "compare", "prepare_compare"],
    "grids": ["MAX_SWEEP_POINTS", "PRESET_AXIS", "parse_vary"],
    "sweeps": ["DEFAULT_METRICS", "MAX_PANELS", "Sweep", "SweepPlan", "is_fair", "metric_names", "prepare_sweep", "sweep"],
    "designs": ["Design", "DesignPlan", "design", "prepare_design"],
    "matches": ["PILOT_GAMES", "MatchPlan", "MatchRun", "expected_rounds", "match", "prepare_match"],
    "tournaments": ["Tournament", "TournamentPlan", "parse_bot_list", "prepare_tournament", "tournament"],
    "machine": ["available_threads", "check_parquet", "parquet_available"],
    "traces": ["trace_events"],
    "benchmarks": ["BenchPlan", "PairedBenchPlan", "bench_case_keys", "prepare_bench", "prepare_paired_bench"],
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = ["InputError", *_HOME]

if TYPE_CHECKING:  # for type checkers and editors; at run time, __getattr__ below
    from .benchmarks import BenchPlan, PairedBenchPlan, bench_case_keys, prepare_bench, prepare_paired_bench
    from .common import (DEFAULT_FAIR_WITHIN, DEFAULT_MAX_GAMES, DEFAULT_TOP, MAX_GAMES, MAX_SEED, RuleSpec, check_count,
                         command_line, load_rules, override_dict)
    from .comparisons import ComparePlan, Comparison, compare, prepare_compare
    from .designs import Design, DesignPlan, design, prepare_design
    from .machine import available_threads, check_parquet, parquet_available
    from .matches import PILOT_GAMES, MatchPlan, MatchRun, expected_rounds, match, prepare_match
    from .result_base import VariantCharts
    from .runs import Run, RunPlan, check_per_game, prepare_run, run
    from .grids import MAX_SWEEP_POINTS, PRESET_AXIS, parse_vary
    from .sweeps import DEFAULT_METRICS, MAX_PANELS, Sweep, SweepPlan, is_fair, metric_names, prepare_sweep, sweep
    from .tournaments import Tournament, TournamentPlan, parse_bot_list, prepare_tournament, tournament
    from .traces import trace_events


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for (a submodule's
    name, `api.runs`, imports that submodule)."""
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    elif not name.startswith("__"):
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # once: later reads do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
