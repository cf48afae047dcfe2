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


def did_you_mean(name: str, known) -> str:
    """" (did you mean 'x'?)" for the closest of the `known` names to a misspelt `name`
    (difflib), or "" when none is close; as game/decks.py says it for card kinds."""
    import difflib

    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
