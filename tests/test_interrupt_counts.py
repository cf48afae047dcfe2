"""What an interruption says it kept: the games played in the whole command against all it
planned, not the one pipeline (a race's round or block, a tournament's rule set) that was
playing when the signal came."""

from __future__ import annotations

import re
import signal

import pytest

from uno_sim import cli
from uno_sim.running import chunks, interrupts


@pytest.fixture
def interrupt_after(monkeypatch):
    """Stop the command (as Ctrl-C does) once `games[0]` games were consumed; returns the list
    of games consumed chunk by chunk, counted here. The signal is forgotten afterwards."""
    consumed: list[int] = []
    after = [0]
    real = chunks.Scheduler.consume

    def consume(self):
        unit, _, n, _ = self.pending[0]
        real(self)
        consumed.append(n * unit.weight)
        if sum(consumed) >= after[0] and interrupts.received() is None:
            interrupts._received = signal.SIGINT  # what the handler records while chunks play

    monkeypatch.setattr(chunks.Scheduler, "consume", consume)
    yield after, consumed
    interrupts.reset()  # the recorded signal would stop the next test's games in this process


def _run(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_interrupted_design_counts_the_races_games_against_its_budget(interrupt_after, capsys, tmp_path):
    after, consumed = interrupt_after
    after[0] = 3 * 4096 + 1  # within round 2 (round 1: 3 points x 4,096 games; no point shown fair yet)
    code, out, err = _run(capsys, "design", "standard", "--vary", "hand_size=5..7", "--minimize", "mean_turns",
                          "--constraint", "abs(first_player_edge)<0.5pp", "--round-games", 4096, "--max-games", 200_000, "--out", tmp_path / "d")
    assert code == 130, err
    assert f"after {sum(consumed):,} of 200,000 games of the race's budget (3 grid points)" in err, err
    assert sum(consumed) > 3 * 4096


def test_an_interrupted_tournament_counts_every_rule_sets_games(interrupt_after, capsys, tmp_path):
    after, consumed = interrupt_after
    after[0] = 3000 * 2 + 1  # within the second rule set (each: 1 table x 3,000 deals x 2 seatings)
    code, out, err = _run(capsys, "tournament", "--presets", "standard,house", "--players", 2, "--bots",
                          "random,expert", "--deals", 3000, "--out", tmp_path / "t")
    assert code == 130, err
    found = re.search(r"after ([\d,]+) of ([\d,]+) games of the tournament \(2 rule sets\)", err)
    assert found, err
    assert int(found[1].replace(",", "")) == sum(consumed) > 6000 and found[2] == "12,000"
