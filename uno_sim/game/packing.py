"""How the game's values become the integers the compiled engine reads: name lists as codes
(`enum`), probabilities as fixed-point thresholds (`fixed_point`). Plain Python: the rules and
the bots are packed with these, and the engine reads the same definitions.
"""

from __future__ import annotations

from collections import namedtuple

ONE = 1 << 32  # probability 1: a chance is one integer comparison on the generator's high 32 bits


def fixed_point(prob: float) -> int:
    """A probability in [0, 1] as a threshold out of 2**32."""
    return int(round(float(prob) * ONE))


def enum(typename: str, names: tuple[str, ...]):
    """A namedtuple instance mapping each name to its position: `enum("Why", WHYS).uno == 3`."""
    return namedtuple(typename, names)(*range(len(names)))
