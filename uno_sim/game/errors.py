"""The one kind of error a user can fix: bad input.

Every check of user input (rules, rule files, bots, options, output locations) raises a
subclass of `BadInput` whose message names the bad value; the command line prints it as one
`error:` line and exits with status 2, the Python API lets it propagate.
"""


class BadInput(ValueError):
    """Bad user input; the message names the offending value."""


class RulesError(BadInput):
    """Bad rule input (a knob, a preset, a rule file, a deck); the message names it."""


class InputError(BadInput):
    """A bad option value (games, seed, workers, ...)."""


class RunFailure(Exception):
    """A run that could not finish for a reason outside the input (a cluster lost, a disk
    full): the command line prints the message as one `error:` line and exits with status 1;
    the message says how to resume when a checkpoint kept the work done."""
