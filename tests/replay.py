"""Trace games with the engine and replay them in the independent checker (trace_checker.py)."""

import json

from trace_checker import check_trace_lines
from uno_sim.bots import Bot
from uno_sim.engine.batch import run_key
from uno_sim.rules import Rules
from uno_sim.trace import trace_one


def replay(rules: Rules, games: int, seed: int = 1, bots=None):
    """Trace `games` games, replay them; returns (reports, engine records)."""
    bots = bots or [Bot("random")] * rules.players
    key = run_key(seed)
    lines, records = [], []
    for game in range(games):
        events, record = trace_one(rules, bots, key, game)
        lines.extend(json.dumps(e) for e in events)
        records.append(record)
    return check_trace_lines(lines), records


def assert_clean(rules: Rules, games: int, seed: int = 1, bots=None):
    reports, records = replay(rules, games, seed, bots)
    assert len(reports) == games
    problems = [(r.game, v) for r in reports for v in r.violations]
    assert not problems, problems[:5]
    for report, record in zip(reports, records):
        assert report.record == record
