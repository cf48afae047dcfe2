"""What a game of UNO is, before anyone plays it: the deck as data (decks.py: card kinds, the
built-in decks, rule-file decks, the face table) and the classic faces (cards.py), the rule knobs
(knobs.py: one table from which everything about a knob is derived), a checked rule set
(rules.py), the built-in presets and users' rule files (presets.py, preset_files/), the bots
a seat can hold with their parameters and the table of bot names (bots.py), the rulebook's
generated knob chapter (rulebook.py), the table of a run's metrics (metrics.py: one entry a
metric, from which the statistics, the checks of --precision and design, the headline's words
and the metrics page's generated table, metrics_doc.py, are derived), and the one kind of error
a user can fix (errors.py).
Nothing here plays a game or imports numba: describing rules (`uno-sim presets`, `show`,
`rules`, `--help`) needs nothing else. Every other subpackage builds on this one.
"""
