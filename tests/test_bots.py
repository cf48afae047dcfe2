"""The strategy bots (docs/BOTS.md): each decision rule from a concrete position, legality of
every move in replayed traces, seat rotation, and the statistical claims (expert beats random,
challenging pays off against a bluffer)."""

import numpy as np
import pytest

from positions import Position
from replay import assert_clean
from uno_sim.game.bots import AUTO, Bot, pack_bots, parse_bots
from uno_sim.engine import layout as L
from uno_sim.engine.batch import run_chunk, run_key
from uno_sim.game.presets import load as load_preset
from uno_sim.game.rules import Rules
from uno_sim.running.games import simulate
from uno_sim.stats import Aggregate, metric

EXPERT, GREEDY, BLUFFER, RANDOM = Bot("expert"), Bot("greedy"), Bot("bluffer"), Bot("random")
FULL = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"  # an opponent far from going out
PILE = "B1 B2 B3 B4 B5 B6 B7 B8 B9 G9 G8 G7 G6"


def first(rules, hand, top, bot=EXPERT, others=(FULL, FULL, FULL), pile=PILE, **kw):
    """The first event of seat 0's turn with `hand` against `top`; returns (event, position)."""
    n = rules.players
    hands = [hand, *others][:n]
    bots = kw.pop("bots", [bot] + [RANDOM] * (n - 1))
    pos = Position(rules, hands, top=top, pile=pile, bots=bots, **kw)
    events = pos.run(1)
    return events[0], pos


def played(rules, hand, top, **kw):
    ev, _ = first(rules, hand, top, **kw)
    assert ev["ev"] == "play", ev
    return ev.get("card") or ev["cards"]


# ---------------------------------------------------------------- greedy


def test_greedy_plays_the_most_points():
    assert played(Rules(), "R2 R9 RS G5", "R5", bot=GREEDY) == "RS"
    assert played(Rules(), "R2 R9 G5", "R5", bot=GREEDY) == "R9"
    assert played(Rules(), "R2 W RS", "R5", bot=GREEDY) == "W"


def test_greedy_prefers_wild_draw_four_to_wild_and_names_the_colour_held_most():
    ev, _ = first(Rules(), "W W4 G1 G2 B3", "R5", bot=GREEDY)
    assert ev["card"] == "W4" and ev["color"] == "G"


def test_greedy_ties_go_to_the_colour_held_most_after():
    assert played(Rules(), "Y9 B9 B1 B2", "R9", bot=GREEDY) == "B9"


def test_greedy_answers_with_the_most_points():
    rules = Rules(stack_draw_two=True, stack_four_on_two=True)
    ev, _ = first(rules, "RD W4 G1", "BD", bot=GREEDY, pending=2, pending_kind=2)
    assert ev["card"] == "W4"


def test_greedy_plays_every_drawn_card_and_never_draws_voluntarily():
    ev, pos = first(Rules(), "G1 G2 G3 G4 G5", "R6", bot=GREEDY, pile="W4 B1")
    assert ev == {"ev": "draw", "p": 0, "cards": ["W4"], "why": "turn"}
    ev, _ = first(Rules(), "W4 G1 G2 G3 G4", "R5", bot=GREEDY)
    assert ev["ev"] == "play" and ev["card"] == "W4"


def test_greedy_drawn_wild_draw_four_is_played():
    pos = Position(Rules(), ["G1 G2 G3 G4 G5", FULL, FULL, FULL], top="R6", pile="W4 B1 B2 B3 B4",
                   bots=[GREEDY] + [RANDOM] * 3)
    events = pos.run(1)
    assert [e["ev"] for e in events][:2] == ["draw", "play"] and events[1]["card"] == "W4"


def test_greedy_multi_play_puts_down_the_whole_set_colour_held_most_on_top():
    rules = Rules(multi_play="same_symbol")
    assert played(rules, "R5 G5 B5 G1 G2", "R3", bot=GREEDY) == ["R5", "B5", "G5"]
    rules = Rules(multi_play="identical")
    assert played(rules, "RS RS G1", "R3", bot=GREEDY) == ["RS", "RS"]


def test_greedy_never_challenges_unless_told():
    hands = ["W4 R1 R2 R3 R4 R5 R6", "G1 G2 G3 G4 G5", FULL, FULL]
    bluff = Bot("random", {"bluff_prob": 1.0})
    pos = Position(Rules(), hands, top="R9", pile=PILE, bots=[bluff, GREEDY, RANDOM, RANDOM])
    events = pos.run(1)
    assert not [e for e in events if e["ev"] == "challenge"]
    pos = Position(Rules(), hands, top="R9", pile=PILE,
                   bots=[bluff, Bot("greedy", {"challenge_prob": 1.0}), RANDOM, RANDOM])
    events = pos.run(1)
    assert [e for e in events if e["ev"] == "challenge"] == [{"ev": "challenge", "p": 1, "target": 0, "guilty": True}]


# ---------------------------------------------------------------- expert: which card


def test_expert_numbers_before_actions():
    assert played(Rules(), "RS R4 RD RR", "R7") == "R4"


def test_expert_reverse_then_skip_then_draw_two():
    assert played(Rules(), "RS RD RR", "R7") == "RR"
    assert played(Rules(), "RS RD", "R7") == "RS"
    assert played(Rules(), "RD W", "R7") == "RD"


def test_expert_low_numbers_before_high_unless_the_colour_is_safe():
    assert played(Rules(), "R2 R8 G1", "R5") == "R2"  # one red left after either: not safe
    assert played(Rules(), "R2 R8 R3 R4 G1", "R5") == "R8"  # >= 2 reds kept: safe, high first


def test_expert_moves_to_the_colour_it_holds_most():
    assert played(Rules(), "R2 B5 B1 B3 B7", "R5") == "B5"


def test_expert_wilds_late_and_wild_draw_four_last():
    assert played(Rules(), "W G1", "R5") == "W"
    assert played(Rules(), "W W4 G1", "R5") == "W"
    assert played(Rules(), "W4 G1 G2", "R5") == "W4"  # small hand: no reason to keep it


def test_expert_keeps_its_wild_draw_four_with_a_big_hand_by_drawing():
    ev, pos = first(Rules(), "W4 G1 G2 G3 G4", "R5", pile="B1 B2")
    assert ev == {"ev": "draw", "p": 0, "cards": ["B1"], "why": "turn"}
    assert "W4" in pos.hand(0)
    # without voluntary_draw it must play it; an opponent close to going out: it plays it
    assert played(Rules(voluntary_draw=False), "W4 G1 G2 G3 G4", "R5") == "W4"
    assert played(Rules(), "W4 G1 G2 G3 G4", "R5", others=(FULL, "B1 B2", FULL)) == "W4"


def test_expert_keeps_a_drawn_wild_draw_four_with_a_big_hand():
    pos = Position(Rules(), ["G1 G2 G3 G4 G5", FULL, FULL, FULL], top="R6", pile="W4 B1 B2 B3 B4",
                   bots=[EXPERT] + [RANDOM] * 3)
    events = pos.run(1)
    assert events == [{"ev": "draw", "p": 0, "cards": ["W4"], "why": "turn"}]
    assert "W4" in pos.hand(0) and pos.next_to_act == 1


def test_expert_plays_a_drawn_card_otherwise():
    pos = Position(Rules(), ["G1 G2", FULL, FULL, FULL], top="R5", pile="R7 B1 B2 B3 B4",
                   bots=[EXPERT] + [RANDOM] * 3)
    events = pos.run(1)
    assert events[1] == {"ev": "play", "p": 0, "card": "R7", "color": "R"}


def test_expert_keeps_its_last_draw_two_when_stacking():
    rules = Rules(stack_draw_two=True)
    assert played(rules, "RD W G1", "R5") == "W"
    assert played(rules, "RD RD W G1", "R5") == "RD"  # two: one may go
    assert played(Rules(), "RD W G1", "R5") == "RD"  # no stacking: nothing to keep it for


def test_expert_attacks_a_next_player_close_to_going_out():
    close = ("G1 G2", FULL, FULL)
    assert played(Rules(), "R4 RS RD W4", "R5", others=close) == "RD"
    assert played(Rules(), "R4 RS", "R5", others=close) == "RS"
    assert played(Rules(), "R4 RR", "R5", others=close) == "RR"
    assert played(Rules(), "G4 W4", "R5", others=close) == "W4"
    assert played(Rules(), "R4 RS RD", "R5", others=("G1 G2 G3", FULL, FULL)) == "R4"  # 3 cards: no
    # a team-mate is not attacked (4 players, 2 teams: seat 2 is seat 0's team-mate)
    rules = Rules(teams=2, mode="last_standing")
    ev, _ = first(rules, "R4 RS", "R5", others=("", "G1", FULL), out={1: 1})
    assert ev["card"] == "R4"


def test_expert_number_finish_puts_the_action_down_first():
    assert played(Rules(number_finish=True), "RS R4", "R5") == "RS"
    assert played(Rules(), "RS R4", "R5") == "R4"


def test_expert_names_the_colour_it_holds_most():
    ev, _ = first(Rules(), "W R1 G2 G3", "Y5")
    assert ev["card"] == "W" and ev["color"] == "G"
    ev, _ = first(Rules(), "W R9 G2", "Y5")  # one each: most points
    assert ev["color"] == "R"


def test_expert_without_coloured_cards_names_the_colour_seen_most():
    ev, _ = first(Rules(), "W W", "Y5", discard_below="B1 B2 B3 R1")
    assert ev["color"] == "B"


# ---------------------------------------------------------------- expert: penalties, challenges


def test_expert_answers_with_a_deflect_then_a_draw_two_then_a_wild_draw_four():
    rules = Rules(stack_draw_two=True, deflect=True, stack_four_on_two=True)
    ev, _ = first(rules, "RS BD W4 G1", "RD", pending=2, pending_kind=2)
    assert ev["card"] == "RS"
    ev, _ = first(rules, "BD W4 G1", "RD", pending=2, pending_kind=2)
    assert ev["card"] == "BD"
    ev, _ = first(rules, "W4 G1", "RD", pending=2, pending_kind=2)
    assert ev["card"] == "W4"


def _w4_then_victim(victim: Bot, w4_hand: str, w4_bot=Bot("bluffer", {"bluff_prob": 1.0})):
    hands = [w4_hand, "G1 G2 G3 G4 G5", FULL, FULL]
    pos = Position(Rules(), hands, top="R9", pile=PILE, bots=[w4_bot, victim, RANDOM, RANDOM])
    events = pos.run(1)
    return [e for e in events if e["ev"] == "challenge"]


def test_expert_challenges_a_big_hand_and_not_a_small_one():
    # 6 cards behind the Wild Draw Four: very likely one of them is red
    assert _w4_then_victim(EXPERT, "W4 Y1 Y2 Y3 Y4 Y5 R6") == [{"ev": "challenge", "p": 1, "target": 0, "guilty": True}]
    # one card behind it: about one chance in four that it is red, below the 1/3 break-even
    assert _w4_then_victim(EXPERT, "W4 G6") == []


def test_expert_challenge_prob_overrides_its_odds_rule():
    assert _w4_then_victim(Bot("expert", {"challenge_prob": 0.0}), "W4 Y1 Y2 Y3 Y4 Y5 R6") == []
    assert len(_w4_then_victim(Bot("expert", {"challenge_prob": 1.0}), "W4 G6")) == 1


def test_expert_challenge_judges_the_colour_before_the_wild_draw_four():
    # stacked chain: the victim challenges as its first action, judged on the colour before it
    rules = Rules(stack_draw_four=True)
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6", "G1 G2 G3", FULL, FULL]
    pos = Position(rules, hands, top="W4", color="B", prev_color="R", pending=4, pending_kind=4,
                   challengeable_by_victim=(0, False), to_act=1, pile=PILE, bots=[RANDOM, EXPERT, RANDOM, RANDOM])
    events = pos.run(1)
    assert events[0] == {"ev": "challenge", "p": 1, "target": 0, "guilty": False}


def test_expert_and_random_do_not_bluff_but_the_bluffer_does():
    assert played(Rules(), "W4 R1 G2", "R5") == "R1"
    assert played(Rules(), "W4 R1 G2", "R5", bot=Bot("bluffer", {"bluff_prob": 1.0})) == "W4"
    assert played(Rules(), "W4 R1 G2", "R5", bot=Bot("expert", {"bluff_prob": 1.0})) == "W4"
    assert played(Rules(challenge=False), "W4 R1 G2", "R5", bot=Bot("bluffer", {"bluff_prob": 1.0})) == "R1"


def test_a_restricted_wild_card_of_another_text_is_bluffed_the_wild_draw_four_first():
    from uno_sim.game.decks import Kind, build_deck

    w6 = Kind("W6", False, 4, draw=6, restricted=True)
    bluffer, rand = Bot("bluffer", {"bluff_prob": 1.0}), Bot("random", {"bluff_prob": 1.0})
    # a deck whose restricted wild card is a Wild Draw Six and has no Wild Draw Four
    no_w4 = build_deck("classic", remove=["W4"], kinds=[w6])
    for bot in (bluffer, rand):
        assert played(Rules(), "W6 R1 G2", "R5", bot=bot, deck=no_w4) == "W6", bot.name
    assert played(Rules(), "W6 R1 G2", "R5", deck=no_w4) == "R1"  # the expert does not bluff
    # both: the Wild Draw Four where it is held, else the Wild Draw Six
    both = build_deck("classic", kinds=[w6])
    for bot in (bluffer, rand):
        assert played(Rules(), "W6 W4 R1", "R5", bot=bot, deck=both) == "W4", bot.name
        assert played(Rules(), "W6 R1 G2", "R5", bot=bot, deck=both) == "W6", bot.name


def test_bot_parameter_defaults_and_labels():
    codes, params = pack_bots(parse_bots("expert,bluffer,greedy,bluffer:bluff_prob=0.2", 4))
    assert list(codes) == [L.BOT.expert, L.BOT.bluffer, L.BOT.greedy, L.BOT.bluffer]
    prob = params / L.ONE  # fixed point back to probabilities
    assert prob[0, L.BP.challenge_prob] == AUTO and prob[0, L.BP.bluff_prob] == 0.0
    assert prob[1, L.BP.bluff_prob] == 0.5 and abs(prob[3, L.BP.bluff_prob] - 0.2) < 1e-9
    assert prob[2, L.BP.challenge_prob] == 0.0 and prob[2, L.BP.jump_in_prob] == 1.0
    assert Bot("bluffer", {"bluff_prob": 0.5}).label == "bluffer"
    assert Bot("expert", {"challenge_prob": 0.0}).label == "expert:challenge_prob=0"


# ---------------------------------------------------------------- expert: 7-0, jump-in, multi-play, UNO


def test_expert_swaps_with_the_fewest_cards_and_plays_a_gaining_seven_first():
    rules = Rules(seven_swap=True)
    ev, pos = first(rules, "R3 R7 G1 G2 G3", "R5", others=("B1 B2 B3 B4 B5", "B6 B7", "Y1 Y2 Y3"))
    assert ev["card"] == "R7"
    assert pos.hand_size(0) == 2 and pos.hand_size(2) == 4


def test_expert_avoids_a_seven_that_swaps_into_a_bigger_hand():
    rules = Rules(seven_swap=True)
    assert played(rules, "R7 R3 G1", "R5") == "R3"
    # only the 7 is legal and the smallest other hand is bigger than its hand: draws instead
    ev, _ = first(rules, "R7 G1", "R5", pile="B1 B2")
    assert ev["ev"] == "draw"


def test_expert_plays_a_gaining_zero_under_zero_rotate():
    rules = Rules(zero_rotate=True)  # hands pass on clockwise: seat 0 receives seat 3's hand
    ev, pos = first(rules, "R3 R0 G1 G2 G3", "R5", others=(FULL, FULL, "B1 B2"))
    assert ev["card"] == "R0" and pos.hand_size(0) == 2


def test_expert_jump_in_follows_jump_in_prob():
    rules = Rules(jump_in=True)
    hands = ["R4 G1 G2", "R4 G3 G4", FULL, FULL]
    pos = Position(rules, hands, top="R5", pile=PILE, bots=[RANDOM, EXPERT, RANDOM, RANDOM])
    events = pos.run(1)
    assert events[1] == {"ev": "jump", "p": 1, "card": "R4", "color": "R"}
    pos = Position(rules, hands, top="R5", pile=PILE, bots=[RANDOM, Bot("expert", {"jump_in_prob": 0.0}), RANDOM, RANDOM])
    events = pos.run(1)
    assert [e["ev"] for e in events] == ["play"]


def test_expert_multi_play_sets():
    assert played(Rules(multi_play="identical"), "R5 R5 G1", "R3") == ["R5", "R5"]
    assert played(Rules(multi_play="same_symbol"), "R5 B5 B1 B2", "R3") == ["R5", "B5"]
    # the last Draw Two is kept back when stacking is on (next player close: it attacks)
    rules = Rules(multi_play="identical", stack_draw_two=True)
    assert played(rules, "RD RD G1 G2", "R3", others=("B1 B2", FULL, FULL)) == "RD"
    # sevens go alone under seven_swap
    assert played(Rules(multi_play="identical", seven_swap=True), "R7 R7 G1 G2 G3", "R3",
                  others=("B1", FULL, FULL)) == "R7"


def test_number_finish_multi_play_never_goes_out_on_actions():
    rules = Rules(multi_play="identical", number_finish=True)
    assert played(rules, "RS RS", "R3", bot=GREEDY) == "RS"


def test_forget_uno_is_used_by_every_bot():
    for bot in (GREEDY, EXPERT):
        ev_list = Position(Rules(), ["R4 G1", FULL, FULL, FULL], top="R5", pile=PILE,
                           bots=[bot] + [RANDOM] * 3).run(1)
        assert ev_list[1] == {"ev": "uno", "p": 0}
        forgetful = Bot(bot.name, {"forget_uno": 1.0})
        ev_list = Position(Rules(), ["R4 G1", FULL, FULL, FULL], top="R5", pile=PILE,
                           bots=[forgetful] + [RANDOM] * 3).run(1)
        assert ev_list[1] == {"ev": "caught", "p": 0}


# ---------------------------------------------------------------- legality: traces replay cleanly

MIXED = [EXPERT, GREEDY, Bot("bluffer", {"forget_uno": 0.3}), RANDOM]




@pytest.mark.parametrize(
    "knobs",
    [
        dict(),
        dict(stack_draw_two=True, stack_draw_four=True, stack_four_on_two=True, stack_two_on_four=True, deflect=True),
        dict(players=2, stack_draw_two=True, deflect=True),
        dict(jump_in=True, stack_draw_two=True),
        dict(seven_swap=True, zero_rotate=True, jump_in=True),
        dict(multi_play="identical", stack_draw_two=True, deflect=True),
        dict(multi_play="same_symbol", multi_skip="once", seven_swap=True, zero_rotate=True),
        dict(number_finish=True, multi_play="same_symbol", draw_rule="until_playable"),
        dict(mode="last_standing", players=5, jump_in=True),
        dict(teams=2, players=6, seven_swap=True),
        dict(wd4_rule="no_match", challenge_extra=0, voluntary_draw=False),
        dict(players=3, play_drawn="numbers", uno_catch=0.5),
    ],
    ids=lambda k: ",".join(f"{a}={b}" for a, b in k.items()) or "standard",
)
def test_strategy_bots_make_only_legal_moves(knobs):
    rules = Rules(**knobs)
    n = rules.players
    bots = (MIXED * 3)[:n]
    assert_clean(rules, 40, 11, bots)
    assert_clean(rules, 20, 12, [Bot("bluffer", {"bluff_prob": 0.8})] + [EXPERT] * (n - 1))


@pytest.mark.parametrize("preset", ["standard", "stacking"])
def test_strategy_bots_replay_cleanly_in_presets(preset):
    rules = load_preset(preset)
    assert_clean(rules, 60, 13, MIXED)


# ---------------------------------------------------------------- seat rotation


def test_rotation_plays_each_deal_once_per_seat():
    rules = Rules()
    packed = rules.pack()
    codes, params = pack_bots([RANDOM] * 4)
    key = run_key(3)
    rows = run_chunk(packed, codes, params, key, 0, 400, rotate=True)
    # identical bots: the four rotations of a deal are the same game
    same = [c for c in range(L.N_COLS) if c != L.COL_WINNER_BOT]
    for d in range(100):
        assert (rows[4 * d : 4 * d + 4][:, same] == rows[4 * d, same]).all()
    plain = run_chunk(packed, codes, params, key, 0, 100)
    assert (rows[::4] == plain).all()  # deal d is game d of the unrotated run, rotation 0
    # mixed bots: the winner's slot is its seat shifted back by the rotation
    codes, params = pack_bots([EXPERT, RANDOM, GREEDY, RANDOM])
    rows = run_chunk(packed, codes, params, key, 8, 400, rotate=True)
    games = np.arange(8, 408)
    w = rows[:, L.COL_WINNER]
    has = w >= 0
    assert (rows[has, L.COL_WINNER_BOT] == (w[has] - games[has] % 4) % 4).all()
    assert (rows[~has, L.COL_WINNER_BOT] == -1).all()


def test_rotation_numbers_do_not_depend_on_workers_or_chunks():
    rules = Rules()
    bots = parse_bots("expert,random,greedy,random", 4)
    a = simulate(rules, bots, 5000, 9, workers=1, progress=False, rotate_seats=True).summary("x")
    b = simulate(rules, bots, 5000, 9, workers=2, chunk_size=777, progress=False, rotate_seats=True).summary("x")
    assert a.equals(b)
    assert {"win_rate_bot_expert", "win_rate_bot_random", "win_rate_bot_greedy"} <= set(a.metric)


def test_per_bot_wins_follow_the_bots_under_rotation():
    agg = Aggregate(players=4, rotate=True)
    rows = np.zeros((4, L.N_COLS), dtype=np.int64)
    rows[:, L.COL_WINNER] = [0, 1, 2, -1]
    rows[:, L.COL_WINNER_BOT] = [0, 0, 0, -1]
    agg.add(rows)
    assert list(agg.wins) == [1, 1, 1, 0] and list(agg.bot_wins) == [3, 0, 0, 0]
    plain = Aggregate(players=4)
    plain.add(rows)
    assert list(plain.bot_wins) == [1, 1, 1, 0]


# ---------------------------------------------------------------- statistics (fixed seeds)


# One strong bot against three `random` bots, seats rotated, 200,000 games: `expert` measured
# 31.2%, `greedy` 26.6% (fair share 25%). The bar sits between them, so a bot no better than
# greedy fails the expert's test, and the greedy row shows the bar can fail.
SKILL_BAR = 0.29


def test_expert_beats_random_with_rotated_seats_by_a_margin():
    bots = parse_bots("expert,random,random,random", 4)
    result = simulate(load_preset("standard"), bots, 200_000, 2024, progress=False, rotate_seats=True)
    row = metric(result.summary("standard"), "win_rate_bot_expert")
    assert row["ci_low"] > SKILL_BAR, row


def test_greedy_stays_below_the_expert_bar():
    bots = parse_bots("greedy,random,random,random", 4)
    result = simulate(load_preset("standard"), bots, 200_000, 2024, progress=False, rotate_seats=True)
    row = metric(result.summary("standard"), "win_rate_bot_greedy")
    assert 0.25 < row["ci_low"] and row["ci_high"] < SKILL_BAR, row


def _challenge_counts(opponent: str, games: int = 40_000):
    """(challenges, won) with a bluffer in slot 0 and three `opponent` bots, seats rotated."""
    bots = parse_bots(f"bluffer,{opponent},{opponent},{opponent}", 4)
    packed = load_preset("standard").pack()
    codes, params = pack_bots(bots)
    rows = run_chunk(packed, codes, params, run_key(5), 0, games, rotate=True)
    return int(rows[:, L.COL_CHALLENGES].sum()), int(rows[:, L.COL_CHALLENGES_WON].sum())


def test_challenging_experts_make_a_bluffer_pay_for_its_bluffs():
    # Only the bluffer bluffs, so every guilty verdict is 4 cards it draws for a failed bluff
    # (its own challenges of the others' legal Wild Draw Fours always fail). Random players
    # never challenge: its bluffs are free; experts catch them.
    made_r, won_r = _challenge_counts("random")
    made_e, won_e = _challenge_counts("expert")
    assert won_r == 0
    assert won_e > 5000  # 40,000 games: > 0.5 failed bluffs a game, 4 cards each
    assert made_e > made_r


def test_cli_run_rotate_seats_prints_and_writes_per_bot_win_rates(capsys, tmp_path):
    import pandas as pd

    from uno_sim import cli

    out = tmp_path / "out"
    code = cli.run_cli(["run", "standard", "--bots", "expert,random,random,random", "--rotate-seats",
                        "--games", "4000", "--out", str(out)])
    printed, _ = capsys.readouterr()
    assert code == 0
    assert "per bot (seats rotated)" in printed and "expert" in printed
    summary = pd.read_csv(out / "summary.csv")
    rows = summary.set_index("metric")
    assert rows.loc["win_rate_bot_expert", "ci_low"] < rows.loc["win_rate_bot_expert", "value"]
    total = rows.loc["win_rate_bot_expert", "value"] + rows.loc["win_rate_bot_random", "value"]
    assert abs(total - (1 - rows.loc["no_winner_rate", "value"])) < 1e-12
    # two kinds of bot at the table: the per-bot chart is drawn (with one kind it is left out)
    assert (out / "bot_win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "bot_win_rates.png" in (out / ".uno-sim-files").read_text().split()


# ---------------------------------------------------------------- the bot table reaches the engine

# What each style of engine/bots/dispatch.py STYLE means in the compiled switches: (answered by
# strategy.py rather than uniform.py, strategy's expert rules, plays a planned move, pro.py's
# own decisions first).
STYLE_SWITCHES = {"uniform": (False, False, False, False), "greedy": (True, False, False, False),
                  "expert": (True, True, False, False), "search": (True, True, True, True),
                  "pro": (True, True, False, True)}


def test_every_bot_plays_the_style_the_engine_declares():
    """A bot added to the bot table must be played as the engine's STYLE table says: the
    dispatch switches are asked for every bot code (a new code that no branch handles would
    otherwise fall through to `strategic = code != random` and play as an expert). A bot
    missing from STYLE fails earlier: the engine does not import."""
    from uno_sim.engine import state as S
    from uno_sim.engine.bots import dispatch, planned, strategy
    from uno_sim.game.bots import BOT_CODES, BOT_NAMES

    assert set(dispatch.STYLE) == set(BOT_NAMES)
    for name in BOT_NAMES:
        style = dispatch.STYLE[name]
        assert style in STYLE_SWITCHES, f"the engine has no branch for style {style!r} of bot {name!r}"
        g = np.zeros(S.GAME.size, dtype=np.int64)
        g[S.O_BOTS + 1] = BOT_CODES[name]
        g[S.S_PLAN], g[S.S_PLAN_SEAT] = 5, 1  # a planned move for seat 1
        # (the switches are inlined into their callers; their Python definitions are the same code)
        strategic = bool(dispatch.strategic.py_func(g, 1))
        seen = (strategic, strategic and bool(strategy.is_expert.py_func(g, 1)), bool(planned.has_move.py_func(g, 1)),
                bool(dispatch.is_pro.py_func(g, 1)))
        assert seen == STYLE_SWITCHES[style], f"bot {name!r} is played as {seen}, STYLE says {style!r}"


def test_the_bot_codes_are_the_positions_in_the_bot_table():
    from uno_sim.game.bots import BOT_CODES, BOT_NAMES

    assert [L.BOT._asdict()[n] for n in BOT_NAMES] == list(range(len(BOT_NAMES)))
    assert BOT_CODES == L.BOT._asdict()
