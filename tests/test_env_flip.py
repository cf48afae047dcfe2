"""Seats played from Python at a two-sided deck (UNO Flip, docs/BOTS.md "The observation"): from
concrete positions (tests/flip_positions.py), the observation on the dark side and on the light
side shows the hand and the top card on the side in play, the side, the other side of every
other player's cards and of the draw pile's top card; colour questions offer the side's four
colours; a Flip card played from the tape asks its colour on the new side. Then whole games: a
Python seat's games (RandomBot, a policy uniform over the legal actions) replay in the
independent checker, `uno-sim run flip --bots python:...` plays them, and the environments pass
their libraries' API checks on `flip`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from flip_positions import FlipPosition
from positions import asked, python_seat
from trace_checker import check_trace_lines
from uno_sim import cli
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.env import RandomBot, Table, View, describe
from uno_sim.env.policies import uniform_policy
from uno_sim.game.decks import FLIP
from uno_sim.game.rules import Rules
from uno_sim.running.trace import trace_table

FLIP_RULES = Rules(deck="flip")
LIGHT, DARK = (side.faces(FLIP_RULES.zero_points) for side in FLIP.sides)  # the face tables of the sides
def backs(obs: np.ndarray, k: int) -> np.ndarray:
    return obs[L.OB_BACKS + k * L.MAX_FACES : L.OB_BACKS + (k + 1) * L.MAX_FACES]


def counts(table, texts: str) -> np.ndarray:
    """A count vector over a side's faces (MAX_FACES long) of the texts given."""
    v = np.zeros(L.MAX_FACES, dtype=np.int64)
    for t in texts.split():
        v[table.face(t)] += 1
    return v


HANDS = ["R5/P5 Y2/TD5 G3/OE B4/V1 W/WDC", "Y1/O1 B2/V2", "G1/P1", "B1/T2 RS/OF"]


def test_on_the_dark_side_the_observation_shows_dark_faces_and_the_light_backs():
    """Dark side in play, P4 on top: the hand, top, discard and legal cards are dark faces (only
    P5 matches; the Wild Draw Colour is not legal while a pink card is held); each other
    player's cards are seen by their light faces, and the draw pile's top card by its light face."""
    pos = FlipPosition(FLIP_RULES, HANDS, top="G7/P4", discard_below="G4/V9", pile="Y2/T3 B4/O4", side="dark")
    g = python_seat(pos, 0, [])
    pos.run(1)
    light, dark = LIGHT, DARK
    question, legal, obs = asked(g)
    assert question == "turn"
    assert legal == {L.A_FACE + dark.face("P5"), L.A_NO}
    assert obs[L.OB_SIDE] == 1
    assert np.array_equal(obs[L.OB_HAND : L.OB_HAND + L.MAX_FACES], counts(dark, "P5 TD5 OE V1 WDC"))
    assert obs[L.OB_TOP] == dark.face("P4") and obs[L.OB_COLOR] == 0  # pink
    assert np.array_equal(obs[L.OB_DISCARD : L.OB_DISCARD + L.MAX_FACES], counts(dark, "V9 P4"))
    assert obs[L.OB_PILE] == 2 and obs[L.OB_PILE_BACK] == light.face("Y2")
    assert not backs(obs, 0).any()  # your own hand: the side in play only
    assert np.array_equal(backs(obs, 1), counts(light, "Y1 B2"))
    assert np.array_equal(backs(obs, 2), counts(light, "G1"))
    assert np.array_equal(backs(obs, 3), counts(light, "B1 RS"))
    assert list(obs[L.OB_SIZES : L.OB_SIZES + 4]) == [5, 2, 1, 2]
    assert not obs[L.OB_BACKS + 4 * L.MAX_FACES :].any()  # no seats past the table's
    # the same by card texts
    view = View(obs, sorted(legal), FLIP_RULES)
    assert view.side == "dark" and view.hand == ["P5", "TD5", "OE", "V1", "WDC"]
    assert (view.top, view.color, view.legal) == ("P4", "P", ["P5", "no"])
    assert view.backs == [[], ["Y1", "B2"], ["G1"], ["RS", "B1"]] and view.pile_back == "Y2"
    assert view.discard == {"P4": 1, "V9": 1} and view.color_of("TD5") == "T" and view.points("WDC") == 60
    named = describe(obs)
    assert named["side"] == 1 and named["pile_back"] == light.face("Y2")
    assert named["backs"][0] == {} and named["backs"][1] == {light.face("Y1"): 1, light.face("B2"): 1}


def test_on_the_light_side_the_backs_are_the_dark_faces():
    pos = FlipPosition(FLIP_RULES, HANDS, top="G7/P4", discard_below="G4/V9", pile="Y2/T3 B4/O4")
    g = python_seat(pos, 0, [])
    pos.run(1)
    light, dark = LIGHT, DARK
    question, legal, obs = asked(g)
    assert question == "turn" and obs[L.OB_SIDE] == 0
    assert legal == {L.A_FACE + light.face("G3"), L.A_FACE + light.face("W"), L.A_NO}  # G7 on top
    assert np.array_equal(obs[L.OB_HAND : L.OB_HAND + L.MAX_FACES], counts(light, "R5 Y2 G3 B4 W"))
    assert obs[L.OB_TOP] == light.face("G7") and obs[L.OB_PILE_BACK] == dark.face("T3")
    view = View(obs, sorted(legal), FLIP_RULES)
    assert view.side == "light" and view.backs == [[], ["O1", "V2"], ["P1"], ["T2", "OF"]]
    assert view.pile_back == "T3" and view.top == "G7" and view.color == "G"


def test_a_colour_question_on_the_dark_side_offers_pink_teal_orange_violet():
    pos = FlipPosition(FLIP_RULES, ["R8/W Y2/TD5 B4/V1", "Y1/O1 B2/V2", "G1/P1", "B1/T2"], top="G7/P4",
                       pile="Y2/T3 B4/O4", side="dark")
    light, dark = LIGHT, DARK
    wild = L.A_FACE + dark.face("W")
    g = python_seat(pos, 0, [wild])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "color" and legal == {L.A_COLOR + c for c in range(4)}
    assert obs[L.OB_SIDE] == 1 and obs[L.OB_TOP] == dark.face("W")
    assert View(obs, sorted(legal), FLIP_RULES).legal == ["P", "T", "O", "V"]
    # violet from the tape: the play event names it in the dark side's letters
    pos = FlipPosition(FLIP_RULES, ["R8/W Y2/TD5 B4/V1", "Y1/O1 B2/V2", "G1/P1", "B1/T2"], top="G7/P4",
                       pile="Y2/T3 B4/O4", side="dark")
    python_seat(pos, 0, [wild, L.A_COLOR + 3])
    events = pos.run(1)
    assert events[0] == {"ev": "play", "p": 0, "card": "R8/W", "color": "V"} and pos.color_now == "V"


def test_a_flip_card_from_the_tape_asks_the_colour_of_the_wild_top_on_the_new_side():
    """Seat 0 plays RF/PF: everything turns over, the discard pile as a whole, so Y5/W, its
    bottom card, is on top, a wild face on the dark side: seat 0 names its colour among the dark
    ones, seeing its hand and the pile on the dark side and the others' cards by their light faces."""
    hands = ["RF/PF G2/T1 B6/V2", "Y1/O1", "G1/P1", "B1/T2"]
    pos = FlipPosition(FLIP_RULES, hands, top="R3/O7", discard_below="Y5/W", pile="Y2/T3 B4/O4")
    light, dark = LIGHT, DARK
    flip = L.A_FACE + light.face("RF")
    g = python_seat(pos, 0, [flip])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "color" and legal == {L.A_COLOR + c for c in range(4)}
    assert obs[L.OB_SIDE] == 1 and obs[L.OB_TOP] == dark.face("W")
    assert np.array_equal(obs[L.OB_HAND : L.OB_HAND + L.MAX_FACES], counts(dark, "T1 V2"))
    assert np.array_equal(obs[L.OB_DISCARD : L.OB_DISCARD + L.MAX_FACES], counts(dark, "W O7 PF"))
    assert np.array_equal(backs(obs, 1), counts(light, "Y1")) and np.array_equal(backs(obs, 3), counts(light, "B1"))
    assert obs[L.OB_PILE_BACK] == light.face("B4")  # the draw pile reversed: its bottom card on top, dark side up
    view = View(obs, sorted(legal), FLIP_RULES)
    assert view.legal == ["P", "T", "O", "V"] and view.hand == ["T1", "V2"] and view.top == "W"
    pos = FlipPosition(FLIP_RULES, hands, top="R3/O7", discard_below="Y5/W", pile="Y2/T3 B4/O4")
    python_seat(pos, 0, [flip, L.A_COLOR + 1])
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play", "flip", "choose"]
    assert events[0]["color"] == "T" and events[2] == {"ev": "choose", "p": 0, "color": "T"}
    assert pos.side_now == "dark" and pos.color_now == "T" and pos.next_to_act == 1


def test_a_wild_draw_colour_asks_its_victim_whether_to_challenge():
    """Seat 0 (the random bot) can only play its WDC; seat 1, played from Python, is asked
    whether to challenge the player 3 seats after it (seat 0), on the dark side."""
    pos = FlipPosition(FLIP_RULES, ["R8/WDC Y9/V9", "Y1/O1 B2/V2", "G1/P1", "B1/T2"], top="G7/P4",
                       pile="Y2/T3 B4/O4 G5/O5 G6/P6", side="dark")
    g = python_seat(pos, 1, [])
    pos.run(1)
    question, legal, obs = asked(g)
    assert question == "challenge" and legal == {L.A_NO, L.A_YES}
    assert obs[L.OB_ARG] == 3 and obs[L.OB_SIDE] == 1 and obs[L.OB_SEAT] == 1
    light, dark = LIGHT, DARK
    assert obs[L.OB_TOP] == dark.face("WDC")
    assert np.array_equal(backs(obs, 3), counts(light, "Y9"))  # seat 0, 3 seats after seat 1


def test_a_python_seat_that_draws_by_choice_plays_the_very_card_it_drew():
    """Seat 0 holds B1/P7, which it could play on P2, but draws (voluntary_draw) YR/P7 and plays
    it: the card that goes down is the drawn one, not the other card showing P7."""
    for seed in range(6):  # (which of two cards showing a face goes down is otherwise drawn)
        pos = FlipPosition(FLIP_RULES, ["B1/P7 G9/T4", "Y1/O1 B2/V2", "G1/P1", "B1/T2"], top="R2/P2",
                           pile="YR/P7 B4/O4", side="dark", seed=seed)
        python_seat(pos, 0, [L.A_NO, L.A_YES])
        events = pos.run(1)
        assert [e["ev"] for e in events] == ["draw", "play"]
        assert events[0]["cards"] == ["YR/P7"] and events[1]["card"] == "YR/P7"
        assert pos.hand(0) == ["B1/P7", "G9/T4"] and pos.face_counts_match_cards()


# ---------------------------------------------------------------- whole games


def traced_games(policy, label: str, games: int, python_seats=(0,), players: int = 4, overrides=None,
                 bots: str = "random") -> list[str]:
    table = Table("flip", players=players, bots=bots, python_seats=python_seats, seed=3, overrides=overrides)
    lines = []
    for game in range(games):
        table.reset(game)
        while not table.done:
            obs = table.observation
            view = View(obs, table.mask, table.rules)  # every observation reads as the deck's cards
            assert sum(map(len, view.backs)) == sum(view.hand_sizes[1:])  # every card of the others, seen
            table.step(policy(obs, table.mask))
        lines += [json.dumps(e) for e in trace_table(table, label)]
    return lines


def violations(lines: list[str], games: int) -> list:
    reports = check_trace_lines(lines)
    assert len(reports) == games
    return [(r.game, v) for r in reports for v in r.violations]


@pytest.mark.parametrize("players", [2, 4])
def test_a_random_python_seat_at_flip_replays_as_the_random_bot(players):
    lines = traced_games(RandomBot(seed=1), "random", 40, players=players)
    assert violations(lines, 40) == []
    events = [json.loads(x) for x in lines]
    assert any(e["ev"] == "flip" for e in events)
    assert {e["side"] for e in events if e["ev"] == "end"} == {"light", "dark"}


@pytest.mark.parametrize("overrides", [None, {"flip_discard": "top"}, {"stack_by_value": True, "jump_in": True}])
def test_any_legal_python_choices_at_flip_replay_under_the_rules(overrides):
    """Every seat uniform over the legal actions (drawing by choice, keeping drawn cards,
    challenging Wild Draw Colours, any colour): every move is legal to the checker."""
    lines = traced_games(uniform_policy(seed=2), "python", 30, python_seats=(0, 1, 2, 3), overrides=overrides)
    assert violations(lines, 30) == []
    events = [json.loads(x) for x in lines]
    dark_colours = {e["color"] for e in events if e["ev"] == "choose"} & {"P", "T", "O", "V"}
    assert dark_colours and any(e["ev"] == "challenge" for e in events)


def test_a_python_seat_among_the_strategy_bots_at_flip_replays():
    lines = traced_games(uniform_policy(seed=4), "python", 30, python_seats=(2,), bots="pro,expert,random,greedy")
    assert violations(lines, 30) == []


POLICY = '''
from uno_sim.env import View

def policy(observation, legal):
    """Dump points on the side in play; name the colour of the side held most."""
    view = View(observation, legal, "flip")
    if view.question in ("turn", "answer"):
        cards = [c for c in view.legal if view.is_card(c)]
        return view.action(max(cards, key=view.points) if cards else "no")
    if view.question in ("color", "roulette_color"):
        held = [view.color_of(c) for c in view.hand]
        return view.action(max(view.colors, key=held.count))
    return view.action("yes" if view.question == "play_drawn" else ("no" if "no" in view.legal else view.legal[0]))
'''


def run_and_trace(capsys, tmp_path, preset: str, bots: str, games: int, seed: int) -> tuple[list[dict], list[str]]:
    """`uno-sim run PRESET --per-game` (its games.csv rows) and `uno-sim trace PRESET` (its
    lines) with the same bots and seed."""
    import csv

    out = tmp_path / f"run-{preset}"
    code = cli.run_cli(["run", preset, "--bots", bots, "--games", str(games), "--seed", str(seed), "--per-game",
                        "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 0, err
    with open(out / "games.csv") as f:
        rows = list(csv.DictReader(f))
    trace = tmp_path / f"trace-{preset}.jsonl"
    code = cli.run_cli(["trace", preset, "--bots", bots, "--games", str(games), "--seed", str(seed),
                        "--out", str(trace)])
    _, err = capsys.readouterr()
    assert code == 0, err
    return rows, trace.read_text().splitlines()


def test_uno_sim_run_flip_with_a_python_seat_plays_the_games_its_trace_replays(capsys, tmp_path):
    """`uno-sim run flip --bots python:...` plays the policy's games; `uno-sim trace` with the
    same bots and seed traces those games (the same winners, turns and flips, the policy's seat
    labelled with it), and the traces replay in the checker with no violation."""
    path = tmp_path / "dump.py"
    path.write_text(POLICY)
    games, bots = 60, f"python:{path}:policy,random,random,random"
    rows, lines = run_and_trace(capsys, tmp_path, "flip", bots, games, 5)
    assert len(rows) == games and {r["side"] for r in rows} == {"light", "dark"}
    ends = [json.loads(x) for x in lines if json.loads(x)["ev"] == "end"]
    deals = [json.loads(x) for x in lines if json.loads(x)["ev"] == "deal"]
    assert [(e["winner"], e["turns"], e["flips"]) for e in ends] == [
        (int(r["winner"]), int(r["turns"]), int(r["flips"])) for r in rows]
    assert deals[0]["bots"] == bots.split(",") and "sides" in deals[0]
    assert violations(lines, games) == []
    # the policy played (dump points), not the random bot its seat sits as
    code = cli.run_cli(["trace", "flip", "--bots", "random", "--games", str(games), "--seed", "5"])
    random_lines, _ = capsys.readouterr()
    assert code == 0
    random_ends = [e for e in map(json.loads, random_lines.splitlines()) if e["ev"] == "end"]
    assert [e["turns"] for e in random_ends] != [e["turns"] for e in ends]


def test_uno_sim_trace_of_a_python_seat_is_the_policys_game_on_a_one_sided_deck(capsys, tmp_path):
    """(Before, `uno-sim trace --bots python:...` traced the random bot the seat sits as.)"""
    path = tmp_path / "dump.py"
    path.write_text(POLICY.replace('"flip"', '"standard"'))
    games, bots = 30, f"python:{path}:policy,expert,random,random"
    rows, lines = run_and_trace(capsys, tmp_path, "standard", bots, games, 2)
    ends = [e for e in map(json.loads, lines) if e["ev"] == "end"]
    assert [(e["winner"], e["turns"], e["points"][1]) for e in ends] == [
        (int(r["winner"]), int(r["turns"]), int(r["points_1"])) for r in rows]
    assert violations(lines, games) == []


def test_the_environments_play_flip_and_read_it_by_card_texts():
    """(Their libraries' API checks on flip: tests/test_env_api.py.) A Gymnasium game and an AEC
    game on flip: observations inside the space, views of the side in play."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from uno_sim.env import gym_env, uno_env

    env = gym_env(rules="flip", players=3, opponents="pro", seat=1)
    policy, sides = RandomBot(3), set()
    for game in range(6):
        obs, info = env.reset(seed=2) if game == 0 else env.reset()
        done = False
        while not done:
            assert env.observation_space.contains(obs) and obs[L.OB_SEAT] == 1
            view = env.view()
            sides.add(view.side)
            assert len(view.backs) == 3 and view.backs[0] == [] and len(view.hand) == view.hand_sizes[0]
            obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
            done = terminated or truncated
    assert sides == {"light", "dark"}
    aec = uno_env(rules="flip", players=4)
    aec.reset(seed=1)
    rng = np.random.default_rng(0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        assert aec.view().seat == int(agent.split("_")[1])
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert aec.table.done and aec.table.record["side"] in (0, 1)


MATCH_POLICY = """
import numpy as np
from uno_sim.env import RandomBot, N_ACTIONS

class Seat:
    def __init__(self):
        self.bot = RandomBot(5)

    def policy(self, observation, legal):
        mask = np.zeros(N_ACTIONS, dtype=bool)
        mask[legal] = True
        return self.bot(observation, mask)
"""


def test_every_round_of_a_python_match_at_flip_replays_in_the_checker(tmp_path, monkeypatch):
    """A match of flip with a Python seat: each round starts from the match's state (a round
    may begin after one that ended on the dark side) and replays in the checker."""
    from uno_sim.engine.keys import run_key
    from uno_sim.env import matches as env_matches
    from uno_sim.env.matches import PythonMatches
    from uno_sim.game import presets
    from uno_sim.game.bots import parse_bots

    path = tmp_path / "seat.py"
    path.write_text(MATCH_POLICY)
    lines: list[str] = []
    games = PythonMatches(presets.load("flip", None, 3), parse_bots(f"python:{path}:Seat,random,expert", 3),
                          run_key(3), None)
    real = env_matches.after_round

    def traced(g, *args):  # the round is over: trace it before the match scores it
        lines.extend(json.dumps(e) for e in trace_table(games.table, "random"))
        return real(g, *args)

    monkeypatch.setattr(env_matches, "after_round", traced)
    rows = games.records(0, 3)
    rounds = int(rows[:, L.M_ROUNDS].sum())
    assert rounds > 3 and violations(lines, rounds) == []
    ends = [json.loads(x) for x in lines if '"ev": "end"' in x]
    assert {e["side"] for e in ends} == {"light", "dark"}


def test_the_search_bot_is_refused_beside_python_seats_at_flip_as_on_every_deck():
    """(Its rollouts would replay the Python seat's decisions.)"""
    from uno_sim.game.errors import BadInput

    with pytest.raises(BadInput, match="search bot"):
        Table("flip", players=3, bots="search", python_seats=[0])


def test_a_view_told_the_wrong_deck_says_so():
    """A flip observation read with the classic deck's rules, or a classic one with flip's."""
    from uno_sim.game.errors import BadInput

    flip = Table("flip", players=3, bots="random", python_seats=[0], seed=1)
    flip.reset(0)
    standard = Table("standard", players=3, bots="random", python_seats=[0], seed=1)
    standard.reset(0)
    with pytest.raises(BadInput, match="give View the rule set the game plays"):
        View(flip.observation, flip.mask, "standard")
    with pytest.raises(BadInput, match="give View the rule set the game plays"):
        View(standard.observation, standard.mask, "flip")
    assert View(flip.observation, flip.mask, "flip").side in ("light", "dark")
    assert View(standard.observation, standard.mask, "standard").side is None


def test_a_one_sided_observation_keeps_its_entries_and_adds_no_other_side():
    """On the classic deck the appended entries say nothing: side 0, pile_back -1, backs 0, at
    every question of whole games; the entries before them are what they were (the snapshot and
    position tests of the one-sided presets compare them)."""
    table = Table("standard", players=4, bots="expert", python_seats=[0, 2], seed=6)
    policy, questions = RandomBot(1), 0
    for game in range(20):
        table.reset(game)
        while not table.done:
            obs = table.observation
            assert obs[L.OB_SIDE] == 0 and obs[L.OB_PILE_BACK] == -1 and not obs[L.OB_BACKS :].any()
            questions += 1
            table.step(policy(obs, table.mask))
    assert questions > 100 and L.OB_BACKS + L.MAX_PLAYERS * L.MAX_FACES == L.N_OBS
