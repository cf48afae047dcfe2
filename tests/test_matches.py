"""Matches (SPEC 5): scoring systems, dealer passing, teams and placements, the end at the target."""

import numpy as np
import pytest

from uno_sim.bots import Bot, pack_bots
from uno_sim.cli import run_cli
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.batch import run_key
from uno_sim.engine.match import match_leader, play_match, score_round_into
from uno_sim.matches import simulate_matches
from uno_sim.rules import Rules


def game_array(rules: Rules) -> np.ndarray:
    ri, rf = rules.pack()
    codes, params = pack_bots([Bot("random")] * rules.players)
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[: S.N_CONFIG] = S.make_config(ri, rf, codes, params)
    return g


def scored(rules: Rules, winner: int, points: list[int], places: list[int] | None = None, start=None):
    """Side totals after one hand-made round (record written by hand at O_REC)."""
    g = game_array(rules)
    g[S.O_REC + L.COL_WINNER] = winner
    for seat, pts in enumerate(points):
        g[S.O_REC + L.COL_POINTS + seat] = pts
    others = [pts for seat, pts in enumerate(points) if (seat != winner if not rules.teams else seat % rules.teams != winner % rules.teams)]
    g[S.O_REC + L.COL_WINNER_POINTS] = sum(others)
    for seat, place in enumerate(places or []):
        g[S.O_PLACE + seat] = place
    totals = np.array(start if start is not None else [0] * L.MAX_PLAYERS, dtype=np.int64)
    score_round_into(g, totals)
    return list(totals[: rules.teams or rules.players])


def test_winner_takes_the_losers_points():
    assert scored(Rules(), 2, [10, 20, 0, 5]) == [0, 0, 35, 0]


def test_loser_penalty_losers_add_their_own_points():
    assert scored(Rules(match_scoring="loser_penalty"), 2, [10, 20, 0, 5]) == [10, 20, 0, 5]


def test_no_winner_scores_nothing():
    assert scored(Rules(), -1, [10, 20, 30, 5]) == [0, 0, 0, 0]


def test_teams_score_as_a_side():
    assert scored(Rules(teams=2), 1, [10, 0, 7, 5]) == [0, 17]  # team 1 (seats 1, 3) takes 10 + 7
    assert scored(Rules(teams=2, match_scoring="loser_penalty"), 1, [10, 0, 7, 5]) == [17, 0]


def test_last_standing_rounds_add_placement_scores():
    assert scored(Rules(mode="last_standing"), 1, [0, 0, 0, 9], places=[3, 1, 2, 4]) == [-1, 3, 1, -3]


def test_leader_is_highest_or_lowest_total():
    g = game_array(Rules())
    assert match_leader(g, np.array([10, 30, 30, 0] + [0] * 6), 4) == 1
    g = game_array(Rules(match_scoring="loser_penalty"))
    assert match_leader(g, np.array([10, 30, 5, 5] + [0] * 6), 4) == 2


def _one_match(rules: Rules, match: int = 0):
    g = game_array(rules)
    out = np.zeros(L.N_MATCH_COLS, dtype=np.int64)
    history = np.zeros((1024, L.MAX_PLAYERS), dtype=np.int64)
    dealers = np.full(1024, -1, dtype=np.int64)
    play_match(g, np.uint64(run_key(3)), match, out, history, dealers)
    return out, history, dealers


@pytest.mark.parametrize("match", range(5))
def test_dealer_passes_left(match):
    out, _, dealers = _one_match(Rules(), match)
    rounds = out[L.M_ROUNDS]
    assert dealers[0] == out[L.M_FIRST_DEALER]
    assert all(dealers[r + 1] == (dealers[r] + 1) % 4 for r in range(rounds - 1))


def test_dealer_passes_to_the_round_winner():
    # with next_dealer = winner, every dealer after the first won the round before; check
    # through the totals: the side whose total grew in round r deals round r + 1
    for match in range(5):
        out, history, dealers = _one_match(Rules(next_dealer="winner"), match)
        for r in range(1, out[L.M_ROUNDS]):
            grew = np.flatnonzero(history[r, :4] - (history[r - 1, :4] if r > 1 else 0))
            assert list(grew) == [dealers[r]]


def test_match_ends_at_exactly_the_target():
    for match in range(5):
        out, history, _ = _one_match(Rules(target=200), match)
        totals = out[L.M_TOTALS : L.M_TOTALS + 4]
        rounds = out[L.M_ROUNDS]
        assert totals.max() >= 200 and out[L.M_WINNER] == totals.argmax()
        assert (history[rounds - 1, :4] < 200).all() or rounds == 1
    res = simulate_matches(Rules(target=1), [Bot("random")] * 4, 2000, seed=1, progress=False)
    assert res.aggregate.rounds.maximum <= 3 and res.aggregate.rounds.mean_interval()[0] < 1.01


def test_loser_penalty_lowest_total_wins():
    for match in range(5):
        out, _, _ = _one_match(Rules(match_scoring="loser_penalty", target=150), match)
        totals = out[L.M_TOTALS : L.M_TOTALS + 4]
        assert totals.max() >= 150 and out[L.M_WINNER] == totals.argmin()


def test_loser_penalty_changes_rounds_and_winners():
    bots = [Bot("random")] * 4
    a = simulate_matches(Rules(), bots, 3000, seed=2, progress=False).summary("a")
    b = simulate_matches(Rules(match_scoring="loser_penalty"), bots, 3000, seed=2, progress=False).summary("b")
    mean_a = a.set_index("metric").loc["mean_rounds"]
    mean_b = b.set_index("metric").loc["mean_rounds"]
    assert mean_b["ci_low"] > mean_a["ci_high"]  # losers' own points reach 500 later than the winner's take


def test_match_cli_writes_csv(tmp_path):
    out = tmp_path / "m"
    assert run_cli(["match", "standard", "--matches", "500", "--out", str(out)]) == 0
    text = (out / "match.csv").read_text()
    assert "mean_rounds" in text and "match_win_rate_seat_0" in text and "match_win_rate_bot_random" in text
    assert (out / "rounds_per_match.png").stat().st_size > 1000


def test_match_cli_bad_input(tmp_path, capsys):
    assert run_cli(["match", "standard", "--matches", "-1", "--out", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()
    assert run_cli(["match", "standard", "--set", "next_dealer=right", "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("error: ") for line in err)
