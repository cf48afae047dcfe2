"""What a result looks like to a person: the headline sentences (headline.py), the terminal
and report tables (tables.py), the charts (charts.py, matplotlib without pyplot), the one-page
report.html (report.py, templates/), the progress a command shows while it works
(progress.py), and output files written all-or-nothing (files.py). It reads tidy DataFrames
and statistics; it never plays a game.
"""
