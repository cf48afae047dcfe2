"""Matches (SPEC 5): scoring systems, dealer passing, teams and placements, the end at the
target; seat rotation (--rotate-seats)."""

import itertools
import math

import numpy as np
import pytest
from numba import njit

from uno_sim.game.bots import Bot, pack_bots, parse_bots
from uno_sim.cli import run_cli
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.batch import run_key
from uno_sim.engine.match import credit_players, match_leader, play_match, score_round_into, seating_classes
from uno_sim.engine.unowned import keep_alive, unowned
from uno_sim.running.matches import simulate_matches
from uno_sim.game.rules import Rules



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


# ---------------------------------------------------------------- chips, match_rounds, the loser

from positions import Position  # noqa: E402
from uno_sim.engine.batch import run_matches  # noqa: E402
from uno_sim.engine.match import extreme_sides, record_sides  # noqa: E402
from uno_sim.stats.matches import SHARE_UNITS, MatchAggregate, summarize_matches  # noqa: E402

CHIPS = dict(match_scoring="chips", match_rounds=10)


def _rows(rules: Rules, matches: int, rotate: bool = False, seed: int = 5) -> np.ndarray:
    codes, params = pack_bots([Bot("random")] * rules.players)
    seatings = seating_classes(rules.players) if rotate else None
    return run_matches(rules.pack(), codes, params, run_key(seed), 0, matches, seatings, workers=1)


def _summary(rules: Rules, matches: int, rotate: bool = False, seed: int = 5, bots=None):
    bots = bots or [Bot("random")] * rules.players
    return simulate_matches(rules, bots, matches, seed=seed, progress=False, rotate_seats=rotate).summary("x").set_index("metric")


def _round_from(pos: Position) -> list[int]:
    """Play a position to the end of its round; the chips each side gets from it."""
    pos.run(20)
    assert pos.ended
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    score_round_into(pos.g, totals)
    return list(totals[: pos.rules.teams or pos.rules.players])


def test_chips_every_loser_pays_the_winner_its_hand_points():
    # seat 0 goes out with R1; left in hand: G7 Y2 W = 59, B5 BS = 25, Y9 R3 = 12
    hands = ["R1", "G7 Y2 W", "B5 BS", "Y9 R3"]
    assert _round_from(Position(Rules(**CHIPS), hands, top="R5")) == [59 + 25 + 12, -59, -25, -12]
    # teams: seat 2 is seat 0's partner and pays nothing; team 1 pays its members' 59 + 12
    assert _round_from(Position(Rules(teams=2, **CHIPS), hands, top="R5")) == [71, -71]
    # winner_takes on the same round: the winner adds 96, nobody loses anything
    assert _round_from(Position(Rules(), hands, top="R5")) == [96, 0, 0, 0]


def test_chips_last_standing_placement_scores():
    # seats 1 and 2 are out (1st, 2nd); seat 0 goes out 3rd with R1; seat 3 is left, 4th
    pos = Position(Rules(mode="last_standing", **CHIPS), ["R1", "", "", "Y9 R3"], top="R5", out={1: 1, 2: 2})
    assert _round_from(pos) == [-1, 3, 1, -3]
    pos = Position(Rules(mode="last_standing", teams=2, **CHIPS), ["R1", "", "", "Y9 R3"], top="R5",
                   out={1: 1, 2: 2})
    assert _round_from(pos) == [-1 + 1, 3 - 3]  # team 0: seats 0, 2; team 1: seats 1, 3


def test_chips_no_winner_round_moves_nothing():
    assert scored(Rules(**CHIPS), -1, [10, 20, 30, 5]) == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "knobs,rotate",
    [
        (dict(), False),
        (dict(players=5, next_dealer="winner"), False),
        (dict(teams=2), False),
        (dict(players=6, teams=3), False),
        (dict(mode="last_standing"), False),
        (dict(mode="last_standing", teams=2), False),
        (dict(), True),
        (dict(teams=2), True),
    ],
    ids=lambda x: str(x),
)
def test_chip_totals_sum_to_zero_in_every_match(knobs, rotate):
    rules = Rules(**CHIPS, **knobs)
    rows = _rows(rules, 200, rotate)
    sides = rules.players if rotate or not rules.teams else rules.teams
    totals = rows[:, L.M_TOTALS : L.M_TOTALS + sides]
    assert (totals.sum(axis=1) == 0).all()
    assert (rows[:, L.M_ROUNDS] == 10).all()  # target does not apply
    assert (np.abs(totals) > 0).any()
    for match in range(3):  # and after every round
        out, history, _, _ = _one_match(rules, match, rotate=rotate)
        assert (history[1:11, :sides].sum(axis=1) == 0).all()


def test_chips_ignore_the_target():
    rows = _rows(Rules(match_scoring="chips", match_rounds=25, target=1), 100)
    assert (rows[:, L.M_ROUNDS] == 25).all()


@pytest.mark.parametrize("scoring", ["winner_takes", "loser_penalty", "chips"])
def test_match_rounds_stops_at_k_and_the_leader_wins(scoring):
    rules = Rules(match_scoring=scoring, match_rounds=3, target=300)
    rows = _rows(rules, 400)
    rounds = rows[:, L.M_ROUNDS]
    totals = rows[:, L.M_TOTALS : L.M_TOTALS + 4]
    reached = (totals >= 300).any(axis=1) if scoring != "chips" else np.zeros(len(rows), dtype=bool)
    assert (rounds <= 3).all() and (rounds[~reached] == 3).all()
    if scoring != "chips":
        assert reached.any() and (rounds[reached] < 3).any()  # some matches end at the target first
    best = totals.max(axis=1) if scoring != "loser_penalty" else totals.min(axis=1)
    tied_rows = 0
    for row, tot, top in zip(rows, totals, best):
        leaders = [s for s in range(4) if tot[s] == top]
        if row[L.M_WINNER] == L.M_TIE:
            tied_rows += 1
            assert len(leaders) > 1 and row[L.M_TIED] == sum(1 << s for s in leaders)
        elif row[L.M_ROUNDS] == 3 and not (tot >= 300).any():
            assert leaders == [row[L.M_WINNER]]
    assert tied_rows < len(rows)


def test_tie_bookkeeping():
    totals = np.array([10, 30, 30, 0] + [0] * 6, dtype=np.int64)
    assert extreme_sides(totals, 4, True) == 0b0110 and extreme_sides(totals, 4, False) == 0b1000
    out = np.zeros(L.N_MATCH_COLS, dtype=np.int64)
    record_sides(out, 0b0110, L.M_WINNER, L.M_TIED)
    assert out[L.M_WINNER] == L.M_TIE and out[L.M_TIED] == 0b0110
    record_sides(out, 0b1000, L.M_LOSER, L.M_LOSER_TIED)
    assert out[L.M_LOSER] == 3 and out[L.M_LOSER_TIED] == 0


def test_a_tie_splits_the_win():
    # three hand-made matches of 3 seats: seat 0 wins; seats 0 and 2 tie; all three tie
    rows = np.zeros((4, L.N_MATCH_COLS), dtype=np.int64)
    rows[:, L.M_ROUNDS] = 5
    rows[:, L.M_LOSER] = -1
    rows[0, L.M_WINNER] = 0
    rows[1, L.M_WINNER], rows[1, L.M_TIED] = L.M_TIE, 0b101
    rows[2, L.M_WINNER], rows[2, L.M_TIED] = L.M_TIE, 0b111
    rows[3, L.M_WINNER] = -1  # undecided
    rows[:, L.M_FIRST_DEALER] = 2
    agg = MatchAggregate(players=3, scoring="chips", fixed_rounds=5)
    agg.add(rows)
    assert list(agg.wins) == [SHARE_UNITS * 11 // 6, SHARE_UNITS // 3, SHARE_UNITS * 5 // 6]
    s = summarize_matches(agg, "x", ["random", "random", "greedy"]).set_index("metric")["value"]
    assert s["match_win_rate_seat_0"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 4)
    assert s["match_win_rate_seat_2"] == pytest.approx((1 / 2 + 1 / 3) / 4)
    assert s["match_win_rate_bot_greedy"] == pytest.approx((1 / 2 + 1 / 3) / 4)
    assert s["match_win_rate_bot_random"] == pytest.approx((1 + 1 / 2 + 2 / 3) / 8)
    assert s["undecided_rate"] == 0.25 and s["tie_rate"] == 0.5
    assert sum(s[f"match_win_rate_seat_{i}"] for i in range(3)) + s["undecided_rate"] == pytest.approx(1)
    assert s["first_dealer_win_rate"] == pytest.approx((1 / 2 + 1 / 3) / 3)  # over decided matches


def test_rounds_without_a_winner_tie_every_side():
    # max_turns = 1: every round is capped with no winner, so every total stays 0
    s = _summary(Rules(players=3, max_turns=1, match_rounds=2), 300)["value"]
    assert s["tie_rate"] == 1 and s["undecided_rate"] == 0
    assert all(s[f"match_win_rate_seat_{i}"] == pytest.approx(1 / 3) for i in range(3))


def test_loser_is_the_highest_total():
    rules = Rules(match_scoring="loser_penalty", target=150)
    rows = _rows(rules, 300)
    totals = rows[:, L.M_TOTALS : L.M_TOTALS + 4]
    for row, tot in zip(rows, totals):
        worst = [s for s in range(4) if tot[s] == tot.max()]
        if row[L.M_LOSER] == L.M_TIE:
            assert row[L.M_LOSER_TIED] == sum(1 << s for s in worst) and len(worst) > 1
        else:
            assert worst == [row[L.M_LOSER]]
    assert (_rows(Rules(), 50)[:, L.M_LOSER] == -1).all()  # only loser_penalty names a loser


def test_loser_rate_per_seat_bot_and_player():
    s = _summary(Rules(match_scoring="loser_penalty", target=200), 2000)
    rates = [s.loc[f"match_loser_rate_seat_{i}", "value"] for i in range(4)]
    assert sum(rates) + s.loc["undecided_rate", "value"] == pytest.approx(1)
    assert all(0.15 < r < 0.35 for r in rates)
    assert s.loc["match_loser_rate_bot_random", "value"] == pytest.approx(0.25, abs=1e-9)
    assert "mean_chips_seat_0" not in s.index and "tie_rate" not in s.index
    bots = parse_bots("expert,random,random,random", 4)
    r = _summary(Rules(match_scoring="loser_penalty", target=200), 2000, rotate=True, bots=bots)
    assert "match_loser_rate_seat_0" not in r.index
    assert r.loc["match_loser_rate_bot_expert", "value"] == r.loc["match_loser_rate_player_0", "value"]
    randoms = [r.loc[f"match_loser_rate_player_{i}", "value"] for i in (1, 2, 3)]
    assert r.loc["match_loser_rate_bot_random", "value"] == pytest.approx(sum(randoms) / 3)
    assert _equal_rates(randoms, 2000)  # seat-fair: the three random players lose alike
    assert "match_loser_rate_team_0" in _summary(Rules(match_scoring="loser_penalty", target=200, teams=2), 200).index


def test_chips_summary_per_seat_bot_player_and_team():
    s = _summary(Rules(**CHIPS), 2000)
    means = [s.loc[f"mean_chips_seat_{i}", "value"] for i in range(4)]
    assert sum(means) == pytest.approx(0, abs=1e-9)  # chips only change hands
    assert s.loc["mean_chips_bot_random", "value"] == pytest.approx(0, abs=1e-9)
    for i in range(4):
        row = s.loc[f"mean_chips_seat_{i}"]
        assert row["ci_low"] < row["value"] < row["ci_high"] and row["ci_low"] < 0 < row["ci_high"]
        assert s.loc[f"sd_chips_seat_{i}", "value"] > 50
    assert "match_loser_rate_seat_0" not in s.index
    bots = parse_bots("expert,random,random,random", 4)
    r = _summary(Rules(**CHIPS), 2000, rotate=True, bots=bots)
    assert r.loc["mean_chips_bot_expert", "value"] == r.loc["mean_chips_player_0", "value"]
    assert r.loc["mean_chips_bot_expert", "ci_low"] > 0  # the expert takes chips off the random bots
    assert r.loc["mean_chips_bot_random", "ci_high"] < 0
    t = _summary(Rules(teams=2, **CHIPS), 300)
    assert t.loc["mean_chips_team_0", "value"] == pytest.approx(-t.loc["mean_chips_team_1", "value"])
    assert "mean_chips_bot_random" not in t.index


def test_chips_preset_and_cli(tmp_path, capsys):
    out = tmp_path / "m"
    assert run_cli(["match", "chips", "--matches", "300", "--out", str(out)]) == 0
    assert "matches of 10 rounds (chips" in capsys.readouterr().out.replace("\n", " ")
    text = (out / "match.csv").read_text()
    assert "mean_chips_seat_0" in text and "sd_chips_bot_random" in text and "tie_rate" in text


def test_chips_without_match_rounds_is_bad_input(tmp_path, capsys):
    assert run_cli(["match", "standard", "--set", "match_scoring=chips", "--out", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "match_rounds" in err[0]
