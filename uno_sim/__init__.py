"""uno-sim: a Monte Carlo simulator and analytics tool for UNO and its rule variants.

    import uno_sim
    res = uno_sim.run("stacking", games=200_000)
    res.summary

`run`, `compare`, `sweep`, `design`, `match` and `tournament` are documented in uno_sim.api; `rules()` lists the
knobs (uno_sim.game.knobs). Importing the package compiles nothing: the engine compiles (or loads
from its cache) on the first game played.
"""

from .api import compare, design, match, run, sweep, tournament
from .api import load_rules as _load_rules
from .api.common import speaks_python as _speaks_python
from .game.errors import BadInput
from .game.knobs import KNOBS
from .game.rules import Rules
from .game.version import VERSION as __version__

# The command line keeps api.load_rules' messages (they name its options); from Python they name the parameters.
load_rules = _speaks_python(_load_rules)

__all__ = ["run", "compare", "sweep", "design", "match", "tournament", "load_rules", "Rules", "KNOBS", "BadInput", "__version__"]
