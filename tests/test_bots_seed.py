"""Bot policies for the sheets' remaining house rules (docs/BOTS.md), from concrete positions:
the `random` bot's uniform choice among its jump moves, and the strategy bots' sum sets,
Wild swaps and hand-sum claims."""

from collections import Counter

import pytest

from positions import Position
from uno_sim.game.bots import Bot
from uno_sim.game.rules import Rules

RANDOM, EXPERT, GREEDY, BLUFFER = Bot("random"), Bot("expert"), Bot("greedy"), Bot("bluffer")
PILE = "B1 B2 B3 B4 B5 B6 B7 B8 B9 Y5 Y6 Y7 Y8 Y9"
RUNS = 300


def first_jumps(rules, hands, top, runs=RUNS, bots=None):
    """How often each first jump move (seat, cards) follows seat 0's turn, over `runs` seeds."""
    seen = Counter()
    for seed in range(runs):
        events = Position(rules, hands, top=top, pile=PILE, seed=seed, bots=bots).run(1)
        jumps = [e for e in events if e["ev"] == "jump"]
        if jumps:
            seen[(jumps[0]["p"], tuple(jumps[0].get("cards") or [jumps[0]["card"]]))] += 1
        else:
            seen[None] += 1
    return seen


def near(count, share, runs=RUNS):
    return abs(count / runs - share) < 4 * (share * (1 - share) / runs) ** 0.5


# ---------------------------------------------------------------- random


def test_random_picks_uniformly_among_the_identical_card_and_each_sum_set():
    rules = Rules(jump_in=True, sum_jump_in="any_color")
    seen = first_jumps(rules, ["G6 B8 B9", "B7 B7", "G6 R2 B4 Y4 Y9", "Y1 Y2"], "G3")
    assert set(seen) == {(2, ("G6",)), (2, ("R2", "Y4")), (2, ("R2", "B4"))}  # sets sorted R, Y, G, B
    assert all(near(n, 1 / 3) for n in seen.values()), seen


def test_random_counts_each_distinct_multiset_of_faces_once():
    # two R2s and two Y1s: {R2, G4}, {G4, Y1, Y1} and {R2, R2, Y1, Y1} add up to 6, once each
    rules = Rules(sum_jump_in="any_color")
    seen = first_jumps(rules, ["G6 B8 B9", "B7 B7", "R2 R2 G4 Y1 Y1 Y9", "Y7 Y8"], "G3")
    assert set(seen) == {(2, ("R2", "G4")), (2, ("Y1", "Y1", "G4")), (2, ("R2", "R2", "Y1", "Y1"))}
    assert all(near(n, 1 / 3) for n in seen.values()), seen


def test_random_after_a_sum_set_each_face_of_the_set_it_holds_is_one_move():
    rules = Rules(jump_in=True, sum_jump_in="any_color")
    hands = ["G6 B8 B9", "B7 B7", "R1 Y2 B3 G7 G8", "R1 B3 G9 G8"]
    seen = Counter()
    for seed in range(RUNS):
        events = Position(rules, hands, top="G3", pile=PILE, seed=seed).run(1)
        assert events[1] == {"ev": "jump", "p": 2, "cards": ["R1", "Y2", "B3"], "color": "B", "sum": 6}
        assert events[2]["ev"] == "jump" and events[2]["p"] == 3
        seen[events[2]["card"]] += 1
    assert set(seen) == {"R1", "B3"} and near(seen["R1"], 0.5), seen


def test_random_jump_in_prob_gates_sum_jump_ins_too():
    rules = Rules(sum_jump_in="same_color")
    hands = ["G6 B8 B9", "B7 B7", "G2 G4 Y9 Y8", "Y1 Y2"]
    shy = [RANDOM, RANDOM, Bot("random", {"jump_in_prob": 0.0}), RANDOM]
    assert first_jumps(rules, hands, "G3", runs=20, bots=shy) == {None: 20}
    half = [RANDOM, RANDOM, Bot("random", {"jump_in_prob": 0.5}), RANDOM]
    seen = first_jumps(rules, hands, "G3", bots=half)
    assert near(seen[None], 0.5), seen


def test_random_claims_every_hand_sum_win():
    rules = Rules(hand_sum_win=True)
    for seed in range(20):
        pos = Position(rules, ["R4 G7 G8", "B5 B6 B9", "R0 Y1 G3", "Y7 Y8"], top="R2", pile=PILE, seed=seed)
        assert pos.run(1)[1]["how"] == "hand_sum"


# ---------------------------------------------------------------- strategy bots


@pytest.mark.parametrize("bot", [EXPERT, GREEDY, BLUFFER])
def test_strategy_bots_shed_the_largest_sum_set(bot):
    rules = Rules(sum_jump_in="same_color")
    hands = ["G6 B8 B9", "B7 B7", "G1 G2 G3 G4 G5 Y9", "Y1 Y2"]
    events = Position(rules, hands, top="G3", pile=PILE, bots=[RANDOM, RANDOM, bot, RANDOM]).run(1)
    assert events[1]["p"] == 2 and sorted(events[1]["cards"]) == ["G1", "G2", "G3"]


@pytest.mark.parametrize("bot", [EXPERT, GREEDY])
def test_strategy_bots_prefer_a_sum_set_to_the_identical_card(bot):
    rules = Rules(jump_in=True, sum_jump_in="same_color")
    hands = ["G6 B8 B9", "B7 B7", "G6 G2 G4 Y9", "Y1 Y2"]
    events = Position(rules, hands, top="G3", pile=PILE, bots=[RANDOM, RANDOM, bot, RANDOM]).run(1)
    assert events[1] == {"ev": "jump", "p": 2, "cards": ["G2", "G4"], "color": "G", "sum": 6}


@pytest.mark.parametrize("rest, cards", [("Y7 Y8", ["R2", "Y4"]), ("R7 R8", ["Y4", "R2"])])
def test_strategy_bots_put_the_colour_they_hold_most_on_top(rest, cards):
    rules = Rules(sum_jump_in="any_color")
    hands = ["G6 B8 B9", "B7 B7", f"R2 Y4 {rest}", "Y1 Y2"]
    events = Position(rules, hands, top="G3", pile=PILE, bots=[RANDOM, RANDOM, EXPERT, RANDOM]).run(1)
    assert events[1]["cards"] == cards and events[1]["color"] == cards[-1][0]


def test_strategy_bots_follow_jump_in_prob_for_sum_jump_ins():
    rules = Rules(sum_jump_in="same_color")
    hands = ["G6 B8 B9", "B7 B7", "G2 G4 Y9 Y8", "Y1 Y2"]
    shy = [RANDOM, RANDOM, Bot("expert", {"jump_in_prob": 0.0}), RANDOM]
    assert [e["ev"] for e in Position(rules, hands, top="G3", pile=PILE, bots=shy).run(1)] == ["play"]


def test_expert_after_a_sum_set_jumps_in_with_its_best_card_of_the_set():
    # after R1 Y2 B3, the expert holds R1 and B3: it keeps the colour it holds most (blue)
    rules = Rules(jump_in=True, sum_jump_in="any_color")
    hands = ["G6 B8 B9", "B7 B7", "R1 Y2 B3 G7 G8", "R1 B3 B9 B6"]
    events = Position(rules, hands, top="G3", pile=PILE, bots=[RANDOM, RANDOM, RANDOM, EXPERT]).run(1)
    assert events[2] == {"ev": "jump", "p": 3, "card": "B3", "color": "B"}


@pytest.mark.parametrize("bot", [EXPERT, BLUFFER])
def test_expert_swaps_only_against_an_opponent_close_to_going_out(bot):
    rules = Rules(wild_swap=True)
    far = ["W G1 G2 G3 G4", "B1 B2 B3", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"]
    events = Position(rules, far, top="R5", pile=PILE, bots=[bot] + [RANDOM] * 3).run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "W", "color": "G"}  # names the colour it holds most
    close = ["W G1 G2 G3 G4", "B1 B2 B3", "Y1 Y2 Y3 Y4", "Y5 Y6"]
    events = Position(rules, close, top="R5", pile=PILE, bots=[bot] + [RANDOM] * 3).run(1)
    assert events[0]["swap"] and events[1]["with"] == 3 and sorted(events[1]["gave"]) == ["G3", "G4"]


def test_expert_does_not_swap_with_its_team_mate():
    rules = Rules(wild_swap=True, teams=2)  # seat 2 is seat 0's partner
    hands = ["W G1 G2 G3 G4", "B1 B2 B3", "Y1", "Y5 Y6 Y7"]
    events = Position(rules, hands, top="R5", pile=PILE, bots=[EXPERT] + [RANDOM] * 3).run(1)
    assert "swap" not in events[0]


def test_expert_gives_its_worst_coloured_cards_and_keeps_its_wilds():
    rules = Rules(wild_swap=True)
    hands = ["W W G1 Y9 YS", "B1", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"]
    events = Position(rules, hands, top="R5", pile=PILE, bots=[EXPERT] + [RANDOM] * 3).run(1)
    assert events[1] == {"ev": "swap3", "p": 0, "with": 1, "gave": ["YS"], "got": ["B1"]}
    # off-colour first among equal points: two 9s, the colour held least goes
    hands = ["W G9 Y9 Y1 Y2", "B1", "Y3 Y4 Y5 Y6", "Y7 Y8 R1 R2"]
    events = Position(rules, hands, top="R5", pile=PILE, bots=[EXPERT] + [RANDOM] * 3).run(1)
    assert events[1]["gave"] == ["G9"]


def test_greedy_swaps_when_its_worst_cards_are_worth_more_than_a_random_card():
    rules = Rules(wild_swap=True)
    hands = ["W YD YS Y1 Y2", "B1 B2 B3 B4", "Y3 Y4 Y5 Y6", "Y7 Y8 R1 R2 R3"]
    events = Position(rules, hands, top="R5", pile=PILE, bots=[GREEDY] + [RANDOM] * 3).run(1)
    assert events[0]["swap"] and sorted(events[1]["gave"]) == ["Y2", "YD", "YS"] and events[1]["with"] == 1
    hands = ["W Y1 Y2 Y3 Y4", "B1 B2 B3 B4", "Y5 Y6 Y7 Y8", "R1 R2 R3 R4 R5"]
    events = Position(rules, hands, top="R5", pile=PILE, bots=[GREEDY] + [RANDOM] * 3).run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "W", "color": "Y"}


def test_greedy_gives_away_a_wild_card():
    rules = Rules(wild_swap=True)
    hands = ["W W G1 Y9 YS", "B1", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7 Y8"]
    events = Position(rules, hands, top="R5", pile=PILE, bots=[GREEDY] + [RANDOM] * 3).run(1)
    assert events[1] == {"ev": "swap3", "p": 0, "with": 1, "gave": ["W"], "got": ["B1"]}


@pytest.mark.parametrize("bot", [EXPERT, GREEDY, BLUFFER])
def test_every_bot_claims_a_hand_sum_win(bot):
    rules = Rules(hand_sum_win=True)
    pos = Position(rules, ["R4 G7 G8", "B5 B6 B9", "R0 Y1 G3", "Y7 Y8"], top="R2", pile=PILE,
                   bots=[RANDOM, RANDOM, bot, RANDOM])
    assert pos.run(1)[1] == {"ev": "out", "p": 2, "how": "hand_sum", "cards": ["R0", "Y1", "G3"]}
