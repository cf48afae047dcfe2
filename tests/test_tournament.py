"""Tournaments (uno_sim.running.tournaments): the table design, the Luce ratings and their intervals on
rigged data with a known answer, the skill index, the games actually played (common deals,
rotated seats), the files, `compare/sweep --skill` and bad input."""

import dataclasses
import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

from uno_sim import api, cli
from uno_sim.game.rules import Rules
from uno_sim.running.tournaments import MAX_TABLES, table_design
from uno_sim.stats.ratings import PresetGames, fit_ratings, rating_covariance, skill_index, skill_table, table_name


def invoke(capsys, *args):
    code = cli.run_cli([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- design


def test_design_is_every_multiset_with_two_or_more_bots():
    tables, design = table_design(5, 4)
    assert design == "all"
    assert len(tables) == len(set(tables)) == math.comb(5 + 4 - 1, 4) - 5
    every = {tuple(sorted(c)) for c in itertools.product(range(5), repeat=4) if len(set(c)) > 1}
    assert set(tables) == every
    tables, _ = table_design(2, 2)
    assert tables == [(0, 1)]


def test_too_many_multisets_give_the_balanced_pair_design():
    tables, design = table_design(5, 10)
    assert math.comb(14, 10) - 5 > MAX_TABLES and design == "pairs"
    assert len(tables) == len(set(tables)) == 10 * 9
    # every bot sits at the same number of tables with each seat count
    seats = Counter((b, t.count(b)) for t in tables for b in set(t))
    assert set(seats.values()) == {4}  # 4 partners, each split once
    for best, worst in itertools.permutations(range(5), 2):
        assert skill_table(best, worst, 10) in tables


def test_table_names():
    assert table_name((0, 1, 1, 1), ["expert", "random"]) == "expert + random x3"


# ---------------------------------------------------------------- ratings on rigged data


def rigged(strengths, players, deals, seed):
    """Games whose winners follow a Luce model with these strengths exactly."""
    rng = np.random.default_rng(seed)
    tables, _ = table_design(len(strengths), players)
    winners = np.zeros((len(tables), deals * players), dtype=np.int8)
    for t, table in enumerate(tables):
        w = np.array([strengths[b] for b in table], dtype=float)
        winners[t] = rng.choice(players, size=deals * players, p=w / w.sum())
    return PresetGames("rigged", Rules(players=players), tables, winners, 0.0)


def direct_mle(pg, k):
    """The Luce maximum likelihood by scipy on the aggregated counts (independent of choix)."""
    rows = []
    for t, table in enumerate(pg.tables):
        seats = np.bincount(np.array(table), minlength=k)
        wins = np.bincount(np.array(table)[pg.winners[t][pg.winners[t] >= 0]], minlength=k)
        rows.append((seats, wins))

    def nll(x):
        theta = np.concatenate([[0.0], x])
        total = 0.0
        for seats, wins in rows:
            total -= wins @ theta - wins.sum() * np.log(seats @ np.exp(theta))
        return total

    x = minimize(nll, np.zeros(k - 1), method="BFGS").x
    theta = np.concatenate([[0.0], x])
    return theta - theta.mean()


def test_ratings_recover_the_order_and_the_strengths_of_a_rigged_tournament():
    true = np.log([1.0, 2.0, 4.0])
    pg = rigged([1.0, 2.0, 4.0], players=4, deals=400, seed=1)
    theta = fit_ratings(pg, 3)
    assert list(np.argsort(theta)) == [0, 1, 2]
    assert np.allclose(theta, direct_mle(pg, 3), atol=1e-4)  # choix finds the maximum likelihood
    se = np.sqrt(np.diag(rating_covariance(pg, theta)))
    assert np.all(np.abs(theta - (true - true.mean())) < 4 * se)


def test_rating_intervals_match_the_spread_of_repeated_tournaments():
    estimates, ses = [], []
    for seed in range(30):
        pg = rigged([1.0, 1.5, 3.0], players=3, deals=150, seed=100 + seed)
        theta = fit_ratings(pg, 3)
        estimates.append(theta)
        ses.append(np.sqrt(np.diag(rating_covariance(pg, theta))))
    spread = np.std(estimates, axis=0, ddof=1)
    ratio = spread / np.mean(ses, axis=0)
    assert np.all((ratio > 0.6) & (ratio < 1.5)), ratio


def test_skill_index_of_a_known_case():
    # best bot 0 wins 2 of the 4 rotations of every deal at the table (0, 1, 1, 1)
    tables, _ = table_design(2, 4)
    winners = np.full((len(tables), 400), -1, dtype=np.int8)
    t = tables.index((0, 1, 1, 1))
    winners[t] = np.tile([0, 0, 1, 2], 100)
    pg = PresetGames("known", Rules(players=4), tables, winners, 0.0)
    row = skill_index(pg, best=0, worst=1)
    assert row["win_rate"] == 0.5 and row["skill_index"] == pytest.approx(0.25)
    assert row["ci_low"] < 0.25 < row["ci_high"] and row["ci_high"] - row["ci_low"] < 0.11


# ---------------------------------------------------------------- real games


def test_tournament_plays_common_deals_with_rotated_seats():
    t = api.tournament("standard", bots="expert,random", deals=300, seed=3, workers=2)
    tables = t.tables
    assert set(tables["table"]) == {"expert + random x3", "expert x2 + random x2", "expert x3 + random"}
    # the table expert + 3 random is exactly `run --rotate-seats` with those bots on the same deals
    run = api.run("standard", games=1200, bots="expert,random,random,random", rotate_seats=True, seed=3)
    row = tables[(tables["table"] == "expert + random x3") & (tables["bot"] == "expert")].iloc[0]
    assert row["wins"] == int(run.result.aggregate.bot_wins[0]) and row["games"] == 1200
    assert row["fair_share"] == 0.25
    shares = tables.groupby("table")["win_rate"].sum()
    assert (shares <= 1.0 + 1e-12).all()
    ratings = t.ratings.set_index("bot")
    assert ratings.loc["expert", "rating"] > ratings.loc["random", "rating"]
    assert ratings.loc["expert", "ci_low"] > ratings.loc["random", "ci_high"]
    skill = t.skill.iloc[0]
    assert (skill["best"], skill["worst"]) == ("expert", "random")
    assert skill["skill_index"] == pytest.approx(row["win_rate"] - 0.25)
    again = api.tournament("standard", bots="expert,random", deals=300, seed=3, workers=1)
    pd.testing.assert_frame_equal(again.tables, tables)


def test_tournament_command_writes_every_file(tmp_path, capsys):
    out = tmp_path / "t"
    code, stdout, err = invoke(capsys, "tournament", "--bots", "random,greedy,expert", "--presets",
                               "standard,jump-in", "--deals", "100", "--out", out)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "ratings.csv", "ratings.png", "report.html", "skill.csv", "skill_index.png", "tournament.csv"]
    ratings = pd.read_csv(out / "ratings.csv")
    assert set(ratings["preset"]) == {"standard", "jump-in"} and len(ratings) == 6
    assert abs(ratings.groupby("preset")["rating"].sum()).max() < 1e-9  # mean-0 ratings
    tables = pd.read_csv(out / "tournament.csv")
    assert len(tables.drop_duplicates(["preset", "table"])) == 2 * (math.comb(6, 4) - 3)
    assert "skill index" in stdout and "jump-in" in stdout
    assert stdout.splitlines()[0].startswith("Of 3 bots (random, greedy, expert), ")  # the headline first
    skill = pd.read_csv(out / "skill.csv")
    assert list(skill["worst"]) == ["random", "random"]  # by definition
    assert skill["chosen"].str.contains("worst: random by definition").all()


def test_tournament_json_and_report(tmp_path, capsys):
    """tournament had no --json, no headline and no report.html, unlike every other command
    that writes a folder."""
    out = tmp_path / "t"
    code, stdout, err = invoke(capsys, "tournament", "--bots", "random,expert", "--presets", "standard",
                               "--deals", "100", "--seed", "2", "--json", "--out", out)
    assert code == 0, err
    import json

    data = json.loads(stdout)  # nothing else on standard output
    skill = pd.read_csv(out / "skill.csv")
    assert data["headline"][0] == "Of 2 bots (random, expert), expert is rated highest under standard."
    assert data["skill"][0]["skill_index"] == pytest.approx(skill.loc[0, "skill_index"])
    assert data["skill"][0]["best"] == "expert" and data["skill"][0]["worst"] == "random"
    assert [r["bot"] for r in data["ratings"]] == ["random", "expert"]
    assert data["command"] == "uno-sim tournament --bots random,expert --presets standard --deals 100 --seed 2"
    assert sorted(data["files"]) == sorted(str(out / n) for n in (
        "tournament.csv", "ratings.csv", "skill.csv", "skill_index.png", "ratings.png", "report.html"))
    assert f"wrote {out / 'report.html'}" in err
    page = (out / "report.html").read_text()
    assert "<title>uno-sim tournament: random, expert under standard</title>" in page
    assert data["headline"][1] in page  # the skill-index sentence
    assert "Luce ratings (log strength, mean 0) with 95% intervals" in page and page.count("<img") == 2
    assert data["command"] in page
    tables = len(pd.read_csv(out / "tournament.csv").drop_duplicates("table"))
    assert f"{tables * 400:,} games ({tables} tables x 100 deals x 4 seat rotations)" in page


# ---------------------------------------------------------------- which bots the skill index compares


def analysed(labels, strengths, players=4, deals=1500, seed=5):
    from uno_sim.game.bots import Bot
    from uno_sim.running.tournaments import TournamentResult

    pg = rigged(strengths, players, deals, seed)
    result = TournamentResult([Bot(label) for label in labels], "all", deals, seed, [pg])
    return result.analyse()


def test_skill_index_takes_random_as_the_worst_by_definition():
    """greedy is (a little) weaker than random here; the index still compares with random, as
    compare --skill does, instead of switching to greedy on a point estimate."""
    ratings, skill = analysed(["random", "greedy", "expert"], [1.0, 0.97, 3.0])
    row = skill.iloc[0]
    assert (row["best"], row["worst"]) == ("expert", "random")
    assert "worst: random by definition" in row["chosen"] and "best: expert, rated above" in row["chosen"]


def test_skill_index_refuses_a_worst_bot_the_ratings_cannot_tell_apart():
    ratings, skill = analysed(["greedy", "bluffer", "expert"], [1.0, 1.0, 3.0])
    r = ratings.set_index("bot")
    assert r.loc["greedy", "ci_high"] > r.loc["bluffer", "ci_low"]  # overlapping: not separable
    row = skill.iloc[0]
    assert row["worst"] == "" and math.isnan(row["skill_index"]) and row["games"] == 0
    assert row["chosen"].startswith("no worst bot: ") and "greedy" in row["chosen"] and "bluffer" in row["chosen"]


def test_skill_index_takes_a_separable_worst_and_refuses_an_inseparable_best():
    _, skill = analysed(["greedy", "bluffer", "expert"], [0.4, 1.0, 3.0])
    row = skill.iloc[0]
    assert (row["best"], row["worst"]) == ("expert", "greedy") and row["skill_index"] > 0
    assert "worst: greedy, rated below bluffer (95%)" in row["chosen"]
    _, skill = analysed(["random", "bluffer", "expert"], [1.0, 3.0, 3.0])
    row = skill.iloc[0]
    assert row["best"] == "" and row["worst"] == "random" and math.isnan(row["skill_index"])
    assert row["chosen"].startswith("no best bot: ")


@pytest.mark.parametrize("args, needle", [
    (["--bots", "expert"], "at least two bots"),
    (["--bots", "expert,random,expert"], "'expert' twice"),
    (["--bots", "expert,wizard"], "unknown bot 'wizard'"),
    (["--presets", "nope"], "unknown preset 'nope'"),
    (["--presets", "standard,"], "--presets"),
    (["--deals", "0"], "--deals"),
    (["--deals", "1"], "--deals must be at least 30 for a tournament (got 1): the ratings' 95% intervals count each"),
    (["--deals", "29"], "--deals must be at least 30"),
    (["--players", "1"], "--players"),
    (["--bots", "expert:jump_in_prob=3,random"], "jump_in_prob"),
])
def test_tournament_bad_input(tmp_path, capsys, args, needle):
    out = tmp_path / "t"
    code, _, err = invoke(capsys, "tournament", *args, "--deals", "30", "--out", out) if "--deals" not in args \
        else invoke(capsys, "tournament", *args, "--out", out)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
    assert not out.exists() or not any(out.iterdir())


def test_the_headline_names_no_leader_the_ratings_cannot_tell_apart():
    """With one deal every interval had zero width and the headline named a winner; such runs
    are refused now (above), and on any number of deals the headline names the highest rated
    bot only when its rating is told apart from the runner-up's."""
    from uno_sim.game.bots import Bot
    from uno_sim.running.tournaments import TournamentResult

    bots = [Bot("greedy"), Bot("bluffer"), Bot("expert")]
    tied = rigged([1.0, 3.0, 3.0], players=4, deals=1500, seed=5)
    clear = rigged([1.0, 1.5, 3.0], players=4, deals=1500, seed=5)
    t = api.Tournament(TournamentResult(bots, "all", 1500, 5, [tied]))
    first = t.headline[0]
    assert first.startswith("Of 3 bots (greedy, bluffer, expert), under rigged no bot is rated highest with "
                            "confidence: ") and first.endswith(" are not told apart (their ratings' difference is "
                                                               "within its 95% interval of 0).")
    assert {"bluffer", "expert"} <= set(first.split(": ")[1].split()), first
    assert "rated highest under" not in " ".join(t.headline)
    clear = dataclasses.replace(clear, name="other")
    t = api.Tournament(TournamentResult(bots, "all", 1500, 5, [clear, tied]))
    assert t.headline[0] == "Of 3 bots (greedy, bluffer, expert), expert is rated highest under other."
    assert t.headline[1].startswith("Under rigged no bot is rated highest with confidence: ")


# ---------------------------------------------------------------- --skill


def test_compare_skill_reports_the_pro_edge_over_random(tmp_path, capsys):
    out = tmp_path / "c"
    code, stdout, err = invoke(capsys, "compare", "standard", "jump-in", "--games", "4000", "--skill", "--seed", "5",
                               "--out", out)
    assert code == 0, err
    rows = pd.read_csv(out / "compare.csv")
    skill = rows[rows["metric"] == "skill_index"].set_index("variant")
    run = api.run("jump-in", games=4000, bots="pro,random,random,random", rotate_seats=True, seed=5)  # the skill bot
    expected = run.result.aggregate.bot_wins[0] / 4000 - 0.25
    assert skill.loc["jump-in", "value"] == pytest.approx(expected)
    assert skill.loc["jump-in", "ci_low"] < expected < skill.loc["jump-in", "ci_high"]
    diffs = pd.read_csv(out / "differences.csv")
    assert "skill_index" in set(diffs["metric"])
    assert "skill_index" in stdout
    # the timing lines: the main games, then the skill games played beside them
    assert "8,000 games in " in stdout
    assert "plus 8,000 skill-index games (one pro against random bots, seats rotated) in " in stdout


def test_sweep_skill_adds_a_row_per_point_and_without_it_none(tmp_path, capsys):
    code, stdout, err = invoke(capsys, "sweep", "standard", "--vary", "players=2,3", "--games", "1200", "--skill",
                               "--out", tmp_path / "s")
    assert code == 0, err
    rows = pd.read_csv(tmp_path / "s" / "sweep.csv")
    assert list(rows.loc[rows["metric"] == "skill_index", "players"]) == [2, 3]
    assert "skill index" in stdout
    assert "plus 2,400 skill-index games" in stdout
    plain = api.sweep("standard", ["players=2"], games=500)
    assert "skill_index" not in set(plain.summary["metric"])


def test_a_rule_set_plays_its_tables_under_one_progress_bar():
    """A tournament reports progress per rule set (one bar, plain lines without a terminal)
    rather than one short bar per table, each under the threshold and so never shown."""
    from uno_sim.running import tournaments as tournament_play
    from uno_sim.running.progress import SILENT
    from uno_sim.game.bots import Bot

    made = []

    class Recording:
        def starting(self, message, done, plain):
            return SILENT.starting(message, done, plain)

        def chunks(self, total, label, unit):
            made.append((total, label, unit))
            return SILENT.chunks(total, label, unit)

    bots = [Bot("random"), Bot("expert")]
    tables, _ = tournament_play.table_design(len(bots), 4)
    pg = tournament_play.play_preset("standard", Rules(), bots, tables, 50, 1, 1, progress=Recording())
    assert made == [(len(tables) * 50 * 4, f"standard: {len(tables)} tables", "games")]
    assert pg.winners.shape == (len(tables), 200) and (pg.winners >= -1).all()


def test_a_rule_set_without_a_skill_index_is_drawn_and_reported_as_such():
    from uno_sim.game.bots import Bot
    from uno_sim.running.tournaments import TournamentResult

    pg = rigged([1.0, 1.0, 3.0], players=4, deals=1500, seed=5)
    t = api.Tournament(TournamentResult([Bot("greedy"), Bot("bluffer"), Bot("expert")], "all", 1500, 5, [pg]))
    texts = [a.get_text() for a in t.plot_skill().axes[0].texts]
    assert texts == ["no index:\nbots not told apart"]
    assert t.headline[1].startswith("rigged: no skill index, no worst bot: greedy and bluffer are not told apart")
    page = t.to_html()
    assert "no worst bot: greedy and bluffer are not told apart" in page and ">n/a<" in page
