"""uno-sim: a Monte Carlo simulator and analytics tool for UNO and its rule variants."""

__version__ = "0.1.0"
