"""The installed version of uno-sim (what reports, checkpoints and `--version` show)."""

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("uno-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    VERSION = "0+unknown"
