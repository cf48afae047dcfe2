"""Playing many games (or matches) and gathering them: the games, matches and tournaments
of a run as chunk work (games.py, matches.py, tournaments.py), the chunk scheduler that
plays every unit's chunks on an executor (chunks.py: this process's threads, or a Dask
cluster, cluster.py), checkpoints that keep every finished chunk (checkpoint.py), the
engine's start-up (warmup.py), signals (interrupts.py), per-game records and traces
decoded from the engine's arrays (records.py, trace.py) and the benchmark (bench.py).
It drives the compiled engine and folds its rows into the statistics of `stats`; it says
how far it got only through the progress callback it is given, never by drawing itself.
"""
