"""`python -m uno_sim`: the command line."""

from .cli import main

main()
