"""Matches (SPEC 5): scoring systems, dealer passing, teams and placements, the end at the
target; seat rotation (--rotate-seats)."""

import itertools
import math

import numpy as np
import pytest
from numba import njit

from uno_sim.bots import Bot, pack_bots, parse_bots
from uno_sim.cli import run_cli
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.batch import run_key
from uno_sim.engine.match import credit_players, match_leader, play_match, score_round_into, seating_classes
from uno_sim.engine.unowned import keep_alive, unowned
from uno_sim.matches import simulate_matches
from uno_sim.rules import Rules



@njit(cache=True)
def play_match_on(owner, config, key, match, seatings, out, history, dealers, seated):
    """play_match on a game array (the engine takes a pointer to it)."""
    play_match(unowned(owner), config, key, match, seatings, out, history, dealers, seated)
    keep_alive(owner)

def game_array(rules: Rules, bots: list[Bot] | None = None) -> np.ndarray:
    packed = rules.pack()
    codes, params = pack_bots(bots or [Bot("random")] * rules.players)
    g = np.zeros(S.N_GAME, dtype=np.int64)
    g[: S.N_CONFIG] = S.make_config(packed, codes, params)
    g[S.O_CAPACITY] = len(g)
    return g


def hand_made_round(g: np.ndarray, rules: Rules, winner: int, points: list[int], places: list[int] | None = None):
    """Write a round's record by hand at O_REC (and the places under last_standing)."""
    g[S.O_REC + L.COL_WINNER] = winner
    for seat, pts in enumerate(points):
        g[S.O_REC + L.COL_POINTS + seat] = pts
    others = [pts for seat, pts in enumerate(points) if (seat != winner if not rules.teams else seat % rules.teams != winner % rules.teams)]
    g[S.O_REC + L.COL_WINNER_POINTS] = sum(others)
    for seat, place in enumerate(places or []):
        g[S.O_PLACE + seat] = place


def scored(rules: Rules, winner: int, points: list[int], places: list[int] | None = None, start=None):
    """Side totals after one hand-made round."""
    g = game_array(rules)
    hand_made_round(g, rules, winner, points, places)
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


def _one_match(rules: Rules, match: int = 0, rotate: bool = False, bots: list[Bot] | None = None, g=None):
    """Play one match; returns (record row, totals history, dealer seats, players per seat)."""
    g = game_array(rules, bots) if g is None else g
    seatings = seating_classes(rules.players) if rotate else np.zeros((0, rules.players), dtype=np.int64)
    out = np.zeros(L.N_MATCH_COLS, dtype=np.int64)
    history = np.zeros((1024, L.MAX_PLAYERS), dtype=np.int64)
    dealers = np.full(1024, -1, dtype=np.int64)
    seated = np.full((1024, L.MAX_PLAYERS), -1, dtype=np.int64)
    play_match_on(g, g[: S.N_CONFIG].copy(), np.uint64(run_key(3)), match, seatings, out, history, dealers, seated)
    return out, history, dealers, seated


@pytest.mark.parametrize("match", range(5))
def test_dealer_passes_left(match):
    out, _, dealers, _ = _one_match(Rules(), match)
    rounds = out[L.M_ROUNDS]
    assert dealers[0] == out[L.M_FIRST_DEALER]
    assert all(dealers[r + 1] == (dealers[r] + 1) % 4 for r in range(rounds - 1))


def test_dealer_passes_to_the_round_winner():
    # with next_dealer = winner, every dealer after the first won the round before; check
    # through the totals: the side whose total grew in round r deals round r + 1
    for match in range(5):
        out, history, dealers, _ = _one_match(Rules(next_dealer="winner"), match)
        for r in range(1, out[L.M_ROUNDS]):
            grew = np.flatnonzero(history[r, :4] - (history[r - 1, :4] if r > 1 else 0))
            assert list(grew) == [dealers[r]]


def test_match_ends_at_exactly_the_target():
    for match in range(5):
        out, history, _, _ = _one_match(Rules(target=200), match)
        totals = out[L.M_TOTALS : L.M_TOTALS + 4]
        rounds = out[L.M_ROUNDS]
        assert totals.max() >= 200 and out[L.M_WINNER] == totals.argmax()
        assert (history[rounds - 1, :4] < 200).all() or rounds == 1
    res = simulate_matches(Rules(target=1), [Bot("random")] * 4, 2000, seed=1, progress=False)
    assert res.aggregate.rounds.maximum <= 3 and res.aggregate.rounds.mean_interval()[0] < 1.01


def test_loser_penalty_lowest_total_wins():
    for match in range(5):
        out, _, _, _ = _one_match(Rules(match_scoring="loser_penalty", target=150), match)
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


# ---------------------------------------------------------------- seat rotation (--rotate-seats)


def circle_class(row) -> tuple:
    """A seating up to rotation and reflection of the table: the least of its turns, both ways round."""
    row = [int(p) for p in row]
    ways = (row, row[::-1])
    return min(tuple(way[i:] + way[:i]) for way in ways for i in range(len(row)))


@pytest.mark.parametrize("players", range(2, 7))
def test_seating_classes_hold_every_seating_once(players):
    table = seating_classes(players)
    k = 1 if players < 3 else math.factorial(players - 1) // 2
    assert table.shape == (k, players) and table.dtype == np.int64
    classes = {circle_class(row) for row in table}
    assert len(classes) == k  # distinct up to rotation and reflection
    assert classes == {circle_class(p) for p in itertools.permutations(range(players))}  # and all of them


def test_seating_order_spreads_neighbours_over_the_first_matches():
    table = seating_classes(9)  # K = 20,160; a default run of 10,000 matches sees half of them
    first = table[:100]
    # seat 1 (first after player 0) holds players 1..7 in canonical rows, seat 8 players 2..8;
    # the mirrored odd matches swap the two, so all 8 get both places within a few matches
    assert {int(p) for p in first[:, 1]} == set(range(1, 8))
    assert {int(p) for p in first[:, -1]} == set(range(2, 9))


def test_four_players_three_seatings_one_per_partner_pairing():
    pairings = {frozenset({frozenset(map(int, row[[0, 2]])), frozenset(map(int, row[[1, 3]]))}) for row in seating_classes(4)}
    assert len(pairings) == 3


@pytest.mark.parametrize("match", range(6))  # K = 3: odd matches play the mirror images
def test_rotated_four_players_twelve_round_cycle(match):
    out, _, dealers, seated = _one_match(Rules(target=5000), match, rotate=True)
    assert out[L.M_ROUNDS] >= 12
    first = seating_classes(4)[(match // 2) % 3]
    assert list(seated[0, :4]) == list(first if match % 2 == 0 else first[[0, 3, 2, 1]])
    opposite: dict[frozenset, int] = {}
    for r in range(12):
        for a, b in ((0, 2), (1, 3)):
            pair = frozenset((int(seated[r, a]), int(seated[r, b])))
            opposite[pair] = opposite.get(pair, 0) + 1
    assert len(opposite) == 6 and set(opposite.values()) == {4}  # every pair opposite for 4 rounds


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rotated_seating_lasts_n_rounds_and_each_player_deals_once_in_it(players):
    for match in range(4):
        out, _, dealers, seated = _one_match(Rules(players=players, target=3000), match, rotate=True)
        assert out[L.M_FIRST_DEALER] == seated[0, dealers[0]]
        blocks = min(out[L.M_ROUNDS], 1024) // players
        assert blocks >= 3
        for block in range(blocks):
            rounds = range(block * players, (block + 1) * players)
            assert all((seated[r, :players] == seated[rounds[0], :players]).all() for r in rounds)
            assert sorted(int(seated[r, dealers[r]]) for r in rounds) == list(range(players))
            if block and players > 3:
                assert (seated[rounds[0], :players] != seated[rounds[0] - 1, :players]).any()


def test_rotated_bots_move_with_their_players():
    rules = Rules(target=3000)
    bots = parse_bots("random,expert,random,random", 4)
    expert_seats = set()
    for match in range(6):
        g = game_array(rules, bots)
        out, _, _, seated = _one_match(rules, match, rotate=True, bots=bots, g=g)
        last = seated[out[L.M_ROUNDS] - 1, :4]
        assert list(g[S.O_BOTS : S.O_BOTS + 4] == L.BOT.expert) == list(last == 1)
        expert_seats.add(int(np.flatnonzero(last == 1)[0]))
    assert len(expert_seats) > 1


def test_rotated_deal_passes_to_the_round_winner_in_the_next_seating():
    # the player whose total grew in round r deals round r + 1, from wherever it sits then
    for match in range(6):
        out, history, dealers, seated = _one_match(Rules(next_dealer="winner", target=1000), match, rotate=True)
        assert out[L.M_ROUNDS] > 8
        for r in range(1, out[L.M_ROUNDS]):
            grew = np.flatnonzero(history[r, :4] - (history[r - 1, :4] if r > 1 else 0))
            assert list(grew) == [seated[r, dealers[r]]]


def test_rotated_round_credits_the_player_not_the_seat():
    seatings = seating_classes(4)  # [0 1 2 3], [0 1 3 2], [0 2 1 3]
    rules = Rules()
    g = game_array(rules)
    hand_made_round(g, rules, 2, [10, 20, 0, 5])
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    credit_players(g, seatings, 0, 4, totals)  # match 0, round 4: [0 1 3 2], player 3 in seat 2
    assert list(totals[:4]) == [0, 0, 0, 35]
    hand_made_round(g, rules, 1, [10, 0, 7, 5])
    credit_players(g, seatings, 1, 0, totals)  # match 1 (mirrored), round 0: [0 3 2 1], player 3 in seat 1
    assert list(totals[:4]) == [0, 0, 0, 57]
    rules = Rules(match_scoring="loser_penalty")
    g = game_array(rules)
    hand_made_round(g, rules, 2, [10, 20, 0, 5])
    totals[:] = 0
    credit_players(g, seatings, 4, 0, totals)  # match 4: [0 2 1 3], seats 1, 2 hold players 2, 1
    assert list(totals[:4]) == [10, 0, 20, 5]


def test_rotated_teams_credit_every_member_the_sides_points():
    seatings = seating_classes(4)
    rules = Rules(teams=2)
    g = game_array(rules)
    hand_made_round(g, rules, 1, [10, 0, 7, 5])  # team 1 (seats 1, 3) takes 10 + 7
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    credit_players(g, seatings, 0, 8, totals)  # [0 2 1 3]: seats 1, 3 hold players 2, 3
    assert list(totals[:4]) == [0, 0, 17, 17]
    rules = Rules(teams=2, match_scoring="loser_penalty")
    g = game_array(rules)
    hand_made_round(g, rules, 1, [10, 0, 7, 5])  # team 0 (seats 0, 2) adds its own 10 + 7
    totals[:] = 0
    credit_players(g, seatings, 2, 0, totals)  # match 2: [0 1 3 2], seats 0, 2 hold players 0, 3
    assert list(totals[:4]) == [17, 0, 0, 17]


def test_rotated_teams_match_partners_change_and_the_best_player_wins():
    for match in range(4):
        out, history, _, seated = _one_match(Rules(teams=2, target=800), match, rotate=True)
        rounds = out[L.M_ROUNDS]
        assert rounds > 8
        for r in range(rounds):
            gain = history[r + 1, :4] - (history[r, :4] if r else 0)
            row = seated[r, :4]
            assert gain[row[0]] == gain[row[2]] and gain[row[1]] == gain[row[3]]  # partners: the side's points
            assert (gain[row[0]] == 0) != (gain[row[1]] == 0)  # one side takes the round
        totals = out[L.M_TOTALS : L.M_TOTALS + 4]
        assert totals.max() >= 800 and out[L.M_WINNER] == totals.argmax()


def _rates(summary, prefix: str) -> list[float]:
    rates = summary.set_index("metric")["value"]
    return [rates[m] for m in rates.index if m.startswith(prefix)]


def _equal_rates(rates: list[float], n: int) -> bool:
    """Every pair within the two-proportion z test's 95% band."""
    return all(abs(a - b) < 1.96 * math.sqrt((a * (1 - a) + b * (1 - b)) / n) for a, b in itertools.combinations(rates, 2))


def test_rotated_seats_make_identical_players_equal():
    n = 12000
    bots = parse_bots("expert,random,random,random", 4)
    fixed = simulate_matches(Rules(), bots, n, seed=6, progress=False).summary("x")
    rotated = simulate_matches(Rules(), bots, n, seed=6, progress=False, rotate_seats=True).summary("x")
    assert not _equal_rates(_rates(fixed, "match_win_rate_seat_")[1:], n)  # seats 1-3 differ: where the expert sits
    players = _rates(rotated, "match_win_rate_player_")
    assert len(players) == 4 and not _rates(rotated, "match_win_rate_seat_")
    assert _equal_rates(players[1:], n)
    expert = rotated.set_index("metric").loc["match_win_rate_bot_expert"]
    assert expert["value"] == players[0] and expert["ci_low"] > 0.33


def test_rotated_identical_bots_win_a_quarter_each():
    summary = simulate_matches(Rules(), [Bot("random")] * 4, 12000, seed=7, progress=False, rotate_seats=True).summary("x")
    for rate in _rates(summary, "match_win_rate_player_") + _rates(summary, "round_win_rate_player_"):
        assert abs(rate - 0.25) < 0.015


def test_rotated_same_seed_same_numbers_for_any_workers():
    rules = Rules(players=5, next_dealer="winner")
    bots = parse_bots("expert,random,greedy,random,random", 5)
    a = simulate_matches(rules, bots, 3000, 4, workers=1, progress=False, rotate_seats=True).summary("x")
    b = simulate_matches(rules, bots, 3000, 4, workers=2, chunk_size=777, progress=False, rotate_seats=True).summary("x")
    assert a.equals(b)
    c = simulate_matches(rules, bots, 3000, 5, workers=2, progress=False, rotate_seats=True).summary("x")
    assert not a.equals(c)


def test_match_cli_rotate_seats(tmp_path, capsys):
    out = tmp_path / "m"
    assert run_cli(["match", "standard", "--matches", "500", "--bots", "expert,random,random,random",
                    "--rotate-seats", "--out", str(out)]) == 0
    assert "seats rotated every 4 rounds" in capsys.readouterr().out
    text = (out / "match.csv").read_text()
    assert "match_win_rate_player_3" in text and "round_win_rate_player_0" in text and "match_win_rate_bot_expert" in text
    assert "_seat_" not in text
