"""uno-sim: a Monte Carlo simulator and analytics tool for UNO and its rule variants.

    import uno_sim
    res = uno_sim.run("stacking", games=200_000)
    res.summary

`run`, `compare`, `sweep`, `design`, `match` and `tournament` are documented in uno_sim.api; `rules()` lists the
knobs (uno_sim.game.knobs). Importing the package compiles nothing: the engine compiles (or loads
from its cache) on the first game played.

The public names are loaded on first use (PEP 562), so that importing a part of the package (the
command line's `uno_sim.cli`, whose `--help` should answer at once) does not load the API and
what it imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Each public name, and the module that holds it.
_HOMES = {"run": ".api", "compare": ".api", "sweep": ".api", "design": ".api", "match": ".api", "tournament": ".api",
          "Rules": ".game.rules", "KNOBS": ".game.knobs", "BadInput": ".game.errors"}

__all__ = ["run", "compare", "sweep", "design", "match", "tournament", "load_rules", "Rules", "KNOBS", "BadInput",
           "__version__"]

if TYPE_CHECKING:  # for type checkers and editors; at run time, __getattr__ below
    from .api import compare, design, match, run, sweep, tournament
    from .api.common import load_rules
    from .game.errors import BadInput
    from .game.knobs import KNOBS
    from .game.rules import Rules
    from .game.version import VERSION as __version__


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name], __name__), name)
    elif name == "load_rules":
        # The command line keeps api.load_rules' messages (they name its options); from Python they name the parameters.
        from .api.common import load_rules, speaks_python

        value = speaks_python(load_rules)
    elif name == "__version__":
        from .game.version import VERSION as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # once: later reads do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
