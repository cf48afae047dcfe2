"""uno-sim: a Monte Carlo simulator and analytics tool for UNO and its rule variants.

    import uno_sim
    res = uno_sim.run("stacking", games=200_000)
    res.summary

`run`, `compare`, `sweep`, `match` and `tournament` are documented in uno_sim.api; `rules()` lists the
knobs (uno_sim.knobs). Importing the package compiles nothing: the engine compiles (or loads
from its cache) on the first game played.
"""

from importlib.metadata import PackageNotFoundError, version

from .api import compare, load_rules, match, run, sweep, tournament
from .errors import BadInput
from .knobs import KNOBS
from .rules import Rules

try:
    __version__ = version("uno-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = ["run", "compare", "sweep", "match", "tournament", "load_rules", "Rules", "KNOBS", "BadInput", "__version__"]
