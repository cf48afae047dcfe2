"""uno-sim: a Monte Carlo simulator and analytics tool for UNO and its rule variants.

    import uno_sim
    res = uno_sim.run("stacking", games=200_000)
    res.summary

`run`, `compare`, `sweep`, `match` and `tournament` are documented in uno_sim.api; `rules()` lists the
knobs (uno_sim.game.knobs). Importing the package compiles nothing: the engine compiles (or loads
from its cache) on the first game played.
"""

from .api import compare, load_rules, match, run, sweep, tournament
from .game.errors import BadInput
from .game.knobs import KNOBS
from .game.rules import Rules
from .game.version import VERSION as __version__

__all__ = ["run", "compare", "sweep", "match", "tournament", "load_rules", "Rules", "KNOBS", "BadInput", "__version__"]
