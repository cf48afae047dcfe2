"""The metric table (uno_sim/game/metrics.py) is the one place a metric is declared.

What a run reports and in which order, what a race can pair, what `--precision` and `design`
accept (and the values they refuse), the headline's words and docs/METRICS.md's metric table
all come from it. Nothing here plays a game.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from pathlib import Path

import pytest

from uno_sim import cli, stats
from uno_sim.api import designs, precision
from uno_sim.engine import layout as L
from uno_sim.game import metrics
from uno_sim.game.errors import InputError
from uno_sim.game.metrics import METRICS, MeanPhrase, find
from uno_sim.game.metrics_doc import BEGIN, END, metric_section, update_metrics_doc
from uno_sim.output import headline

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "METRICS.md"

# summary.csv's metric column of `uno-sim run house --games 20000` as written before the
# table existed (4 players, random bots): the names a run reports, in report order.
HOUSE_SUMMARY = """win_rate_seat_0 win_rate_seat_1 win_rate_seat_2 win_rate_seat_3 first_player_edge
win_rate_bot_random no_winner_rate void_rate stall_rate cap_rate mean_turns median_turns p10_turns p90_turns
maximum_turns mean_plays median_plays p10_plays p90_plays maximum_plays mean_draws median_draws p10_draws
p90_draws maximum_draws mean_winner_points median_winner_points p10_winner_points p90_winner_points
maximum_winner_points mean_loser_points median_loser_points p10_loser_points p90_loser_points
maximum_loser_points reshuffle_rate mean_reshuffles mean_max_pending median_max_pending p90_max_pending
maximum_max_pending mean_penalty_drawn stack_rate mean_stacks challenge_rate mean_challenges
challenge_success_rate jump_in_rate mean_jumps swap_rate mean_swaps rotation_rate mean_rotations
mean_uno_caught sum_jump_rate mean_sum_jumps hand_sum_win_rate wild_swap_rate mean_uno_catchers knockout_rate
mean_knockouts mercy_win_rate mean_roulette_cards hand_shuffle_rate""".split()


def expanded(players: int, labels: list[str] | None, teams: int, skill: bool = False,
             two_sided: bool = False) -> list[str]:
    """The table's metrics a run of these seats reports, families spelled out, in table order."""
    out = []
    for m in METRICS:
        if (m.when == "bots" and labels is None) or (m.when == "teams" and not teams) or (m.when == "skill" and not skill):
            continue
        if m.when == "two_sided" and not two_sided:
            continue
        values = {"seat_wins": range(players), "bot_wins": dict.fromkeys(labels or []),
                  "team_wins": range(teams)}.get(m.source)
        out += [m.name] if values is None else [m.named(v) for v in values]
    return out


def test_a_run_reports_what_it_reported_before_the_table():
    names = [m.name for m in stats.measures(stats.Aggregate(players=4), ["random"] * 4)]
    assert names == HOUSE_SUMMARY


@pytest.mark.parametrize("players, labels, teams, two_sided", [
    (4, ["random"] * 4, 0, False), (6, ["expert", "random"] * 3, 2, False), (2, None, 0, False),
    (10, [f"b{i % 3}" for i in range(10)], 5, False), (4, ["random"] * 4, 0, True)])
def test_measures_are_the_table_in_its_order(players, labels, teams, two_sided):
    """Every measure has an entry of its kind, and every entry a run can have is measured:
    a metric built by hand in measures() or an entry measures() skips fails here (a two-sided
    deck's run also reports the two-sided entries)."""
    ms = stats.measures(stats.Aggregate(players=players, teams=teams), labels, teams=teams, two_sided=two_sided)
    assert [m.name for m in ms] == expanded(players, labels, teams, two_sided=two_sided)
    for m in ms:
        assert find(m.name).kind == m.kind, m.name


def test_the_reasons_a_game_ends_without_a_winner_each_have_a_rate():
    reasons = [m.quantity for m in METRICS if m.source == "reason"]
    assert reasons == [r for r in L.REASONS if r != "out"]


def test_every_entry_is_complete():
    for m in METRICS:
        assert m.kind in metrics.KINDS and m.doc.strip() and m.unit.strip(), m.name
        assert m.low < m.high, m.name
        assert m.design or m.not_raced, f"{m.name}: say why a race cannot pair it"
        assert not (m.design and m.kind in ("quantile", "max")), m.name
        assert m.precision == (m.kind != "max"), m.name
        if isinstance(m.phrase, MeanPhrase):
            assert m.kind == "mean" and "{rel}" in m.phrase.more and "{rel}" in m.phrase.less, m.name
    assert len({m.name for m in METRICS}) == len(METRICS)


# ---------------------------------------------------------------- racing


def test_the_race_pairs_exactly_the_raceable_entries():
    from uno_sim.stats import racing

    assert set(racing.RACE_METRICS) == set(metrics.race_names(L.MAX_PLAYERS))
    for name, spec in racing.RACE_METRICS.items():
        entry = find(name)
        assert spec.kind == entry.kind and spec.skill == (entry.source == "skill"), name
        assert spec.ratio == (entry.source == "ratio" or bool(entry.over)), name
    assert not hasattr(racing, "NOT_RACED") and not hasattr(racing, "_MEANS")


@functools.cache
def _plans(rules: str = "standard"):
    return designs.prepare_design(rules, {"hand_size": [5, 7]}, minimize="mean_turns").plans


@pytest.mark.parametrize("name", [m.name for m in METRICS if not m.family])
def test_design_accepts_exactly_the_raceable_metrics(name):
    entry = find(name)
    plans = _plans("flip" if entry.when == "two_sided" else "standard")  # (a two-sided deck's metrics: its runs)
    if entry.design:
        designs._check_race_metric(name, "--minimize", plans)
    else:
        with pytest.raises(InputError, match=f"cannot be raced: {entry.not_raced}"):
            designs._check_race_metric(name, "--minimize", plans)


def test_a_two_sided_metric_is_no_metric_of_a_one_sided_rule_set():
    with pytest.raises(InputError, match="--minimize dark_end_rate: not a metric of grid point standard"):
        designs._check_race_metric("dark_end_rate", "--minimize", _plans())


def test_design_reads_the_table(monkeypatch):
    """Mark mean_turns not raceable in the table: design refuses it, with the table's reason."""
    real = metrics.find
    monkeypatch.setattr(metrics, "find", lambda name: dataclasses.replace(real(name), design=False,
                                                                          not_raced="told so") if name == "mean_turns"
                        else real(name))
    with pytest.raises(InputError, match="--maximize mean_turns: cannot be raced: told so"):
        designs._check_race_metric("mean_turns", "--maximize", _plans())


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("extra, needle", [
    (["--constraint", "no_winner_rate<2"], "2 is outside the range of no_winner_rate, 0..1 (rates are fractions"),
    (["--constraint", "abs(first_player_edge)<3"], "3 is outside the absolute values of first_player_edge, 0..1"),
    (["--constraint", "mean_turns>-1"], "-1 is outside the range of mean_turns, 0..inf"),
    (["--constraint", "first_player_edge>-1.5"], "outside the range of first_player_edge, -1..1"),
])
def test_a_constraint_outside_the_metric_range_is_one_line(capsys, tmp_path, extra, needle):
    out = tmp_path / "out"
    code, _, err = invoke(capsys, "design", "standard", "--vary", "hand_size=5,7", "--minimize", "mean_turns",
                          *extra, "--out", out)
    assert code == 2 and len(err.splitlines()) == 1 and needle in err, err
    assert not out.exists()


def test_a_tolerance_wider_than_the_range_is_refused():
    with pytest.raises(InputError, match="outside the differences of no_winner_rate, 0..1"):
        designs._check_tolerance("5", "no_winner_rate")
    assert designs._check_tolerance("0.5pp", "no_winner_rate") == pytest.approx(0.005)
    assert designs._check_tolerance("50", "mean_turns") == 50


@pytest.mark.parametrize("text", ["no_winner_rate<1", "abs(first_player_edge)<0.02", "first_player_edge>-0.5",
                                  "mean_turns<500", "challenge_success_rate>0"])
def test_constraints_inside_the_range_are_kept(text):
    assert [str(c) for c in designs._check_constraints([text], _plans())] == [text]


# ---------------------------------------------------------------- precision


def _kinds(players=4, labels=("expert", "random", "random", "random"), teams=2):
    return {m.name: m.kind for m in stats.measures(stats.Aggregate(players=players, teams=teams), list(labels),
                                                   teams=teams)} | {"skill_index": "edge"}


@pytest.mark.parametrize("name", list(_kinds()))
def test_precision_accepts_exactly_the_targetable_metrics(name):
    target = stats.parse_target(f"{name}=0.01")
    if find(name).precision:
        precision.check_metrics([target], _kinds(), "of a run")
    else:
        with pytest.raises(InputError, match="has no interval to narrow"):
            precision.check_metrics([target], _kinds(), "of a run")


def test_precision_reads_the_table(monkeypatch):
    real = metrics.find
    monkeypatch.setattr(metrics, "find", lambda name: dataclasses.replace(real(name), precision=False)
                        if name == "mean_turns" else real(name))
    with pytest.raises(InputError, match="mean_turns has no interval to narrow"):
        precision.check_metrics([stats.parse_target("mean_turns=0.5")], _kinds(), "of a run")


@pytest.mark.parametrize("text, refused", [("no_winner_rate=2", True), ("no_winner_rate=0.5", False),
                                           ("win_rate_seat_1=0.6", True), ("first_player_edge=1.5", True),
                                           ("first_player_edge=0.9", False), ("first_player_edge=2pp", False),
                                           ("mean_turns=1000", False), ("median_turns=1e6", False)])
def test_a_half_width_beyond_the_range_is_refused(text, refused):
    target = stats.parse_target(text)
    if refused:
        with pytest.raises(InputError, match=r"more than any interval of \w+ \(-?\d+\.\.1\) can have.*pp"):
            precision.check_metrics([target], _kinds(), "of a run")
    else:
        precision.check_metrics([target], _kinds(), "of a run")


def test_a_precision_half_width_beyond_the_range_is_one_line(capsys, tmp_path):
    out = tmp_path / "out"
    code, _, err = invoke(capsys, "run", "standard", "--precision", "no_winner_rate=3", "--out", out)
    assert code == 2 and len(err.splitlines()) == 1 and "--precision no_winner_rate=3: a half-width of 3" in err
    assert not out.exists()


# ---------------------------------------------------------------- headline


def _row(diff):
    return {"diff": diff, "diff_ci_low": diff - 0.1, "diff_ci_high": diff + 0.1, "test": ""}


@pytest.mark.parametrize("entry", [m for m in METRICS if m.kind in ("mean", "rate", "edge") and not m.family],
                         ids=lambda m: m.name)
def test_the_headline_says_a_change_in_the_table_words(entry):
    text = headline.describe_change(entry.name, 0.2, 0.3, _row(0.1), "base")
    if entry.phrase is None:
        assert text is None
    elif isinstance(entry.phrase, MeanPhrase):
        assert text.startswith(entry.phrase.more.format(rel="50.0%") + " (+0.10 " + entry.phrase.unit), text
    else:
        assert text.startswith(entry.phrase + (" grows" if entry.kind == "edge" else " rises")), text


def test_the_headline_names_family_members():
    assert headline.rate_label("win_rate_seat_3") == "seat 3's win rate"
    assert headline.rate_label("win_rate_team_1") == "team 1's win rate"
    assert headline.rate_label("win_rate_bot_random:forget_uno=0.3") == "random:forget_uno=0.3's win rate"
    assert headline.rate_label("match_win_rate_seat_0") is None  # (not a run metric)
    assert headline.metric_kind("skill_index") == "edge" and not headline.rank_ascending("skill_index")


def test_the_headline_partners_are_a_count_and_its_rate():
    for mean, rate in headline.PARTNERS.items():
        a, b = find(mean), find(rate)
        assert {a.kind, b.kind} == {"mean", "rate"} and a.quantity == b.quantity, (mean, rate)
    assert headline.PARTNERS["mean_stacks"] == "stack_rate" and headline.PARTNERS["knockout_rate"] == "mean_knockouts"


# Metric names the headline's sentences are about (run_headline, compare's ALWAYS, ...): a
# name list of its own (a MEANS or RATES dict) would add more.
HEADLINE_NAMES = {"win_rate_seat_0", "first_player_edge", "no_winner_rate", "mean_turns", "median_turns",
                  "p90_turns", "mean_winner_points", "stack_rate", "maximum_max_pending", "knockout_rate",
                  "mercy_win_rate", "mean_knockouts", "mean_roulette_cards", "mean_max_pending",
                  "skill_index", "mean_flips", "dark_end_rate", "mean_draw_color_cards"}  # (skill.csv's column, in the tournament's headline)


def _metric_literals(path: Path) -> set[str]:
    names = {m.name for m in METRICS if not m.family}
    return {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names}


@pytest.mark.parametrize("module, allowed", [
    ("stats/measures.py", set()), ("stats/racing.py", set()), ("api/precision.py", set()),
    ("api/designs.py", set()), ("api/races.py", set()), ("output/headline.py", HEADLINE_NAMES)])
def test_no_module_keeps_a_metric_list_of_its_own(module, allowed):
    found = _metric_literals(ROOT / "uno_sim" / module)
    assert found <= allowed, f"{module} names metrics the table should say: {sorted(found - allowed)}"


# ---------------------------------------------------------------- docs/METRICS.md


def test_the_metrics_page_carries_the_generated_table():
    text = DOC.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert metric_section() in text, "docs/METRICS.md is stale: run `make docs`"
    assert update_metrics_doc(text) == text


def test_the_generated_table_has_a_row_per_entry():
    rows = [line for line in metric_section().splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == [m.name for m in METRICS]
    stale = "prose\n\n" + BEGIN + "\n| `old_metric` | gone |\n" + END + "\n\n## After\n"
    assert update_metrics_doc(stale) == "prose\n\n" + metric_section() + "\n## After\n"
    with pytest.raises(ValueError):
        update_metrics_doc("no markers")
