"""`python -m uno_sim`: the command line."""

from .cli import main

if __name__ == "__main__":  # not when a cluster's worker process re-imports the main module
    main()
