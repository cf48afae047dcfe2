"""The race of a design plan, round by round: play the points left (running/rounds.py), fold
their per-game values into the paired moments, judge every point (stats/racing.py) and drop
the infeasible and the beaten, until one point, a tie, no point or the budget is left; then
the tidy frames of the result (race.csv, the rounds, standings.csv)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..output.race import fmt
from ..running.interrupts import Interrupted
from ..running.progress import Progress
from ..stats import racing
from . import grids

DEFAULT_RATE_TOLERANCE = 0.005  # a tie: rates within half a percentage point
DEFAULT_RELATIVE_TOLERANCE = 0.01  # a tie: means within 1% of the best estimate of round 1


class _Race:
    """The state of a race: the points left, the paired moments of every metric, the rows."""

    def __init__(self, plan) -> None:
        """`plan`: a designs.DesignPlan."""
        self.plan = plan
        self.metrics = list(dict.fromkeys([plan.objective] + [c.metric for c in plan.constraints]))
        self.specs = [racing.RACE_METRICS[m] for m in self.metrics]
        # streams of games a point plays (racing.race_streams); metric j's (y, d) are columns
        # 2 * column[j], +1 of a point's values (streams side by side)
        self.streams = racing.race_streams(self.metrics)
        order = [j for skill in self.streams for j, spec in enumerate(self.specs) if spec.skill == skill]
        self.column = {j: position for position, j in enumerate(order)}
        n = len(plan.points)
        self.moments = [racing.Moments(n) for _ in self.metrics]
        self.offsets = [[spec.offset(p.rules.players) for p in plan.plans] for spec in self.specs]
        self.cumulative = racing.schedule(plan.budget // len(self.streams), n, plan.round_games)
        self.looks = racing.race_looks(len(self.cumulative), n, len(plan.constraints))
        self.z = racing.race_z(self.looks)
        self.alive = list(range(n))
        self.race_rows: list[dict] = []
        self.round_rows: list[dict] = []
        self.dropped: dict[int, dict] = {}  # point -> its last row, with the round and reason
        self.last: dict[int, dict] = {}  # point -> its last row
        self.tolerance = plan.tolerance
        self.used = 0
        self.played = 0  # games a point still in the race has played
        self.leader: int | None = None
        self.certified: set[int] = set()
        self.outcome = ""

    def values(self, point: int, stream: int, rows: np.ndarray) -> np.ndarray:
        """Per-game (y, d) of every metric of this stream, side by side."""
        skill = self.streams[stream]
        return np.column_stack([col for spec in self.specs if spec.skill == skill for col in spec.columns(rows)])

    def fold(self, values: list[np.ndarray]) -> None:
        for j, m in enumerate(self.moments):
            c = 2 * self.column[j]
            m.add(self.alive, [v[:, c] for v in values], [v[:, c + 1] for v in values])

    def judge(self, round_no: int) -> None:
        """After a round: every point's intervals, the infeasible and the beaten dropped."""
        plan, names = self.plan, self.plan.names
        est = [racing.estimates(m, self.alive, [off[i] for i in self.alive], spec.is_rate and not spec.ratio)
               for m, off, spec in zip(self.moments, self.offsets, self.specs)]
        rows: dict[int, dict] = {}
        broken: dict[int, str] = {}
        certified = set()
        for k, point in enumerate(self.alive):
            row = {"round": round_no, "games": self.played, "point": names[point]}
            row |= {knob: grids.setting(plan.points[point][knob]) for knob in plan.knobs}
            intervals = {}
            for j, (metric, spec) in enumerate(zip(self.metrics, self.specs)):
                low, high = est[j].interval(k, self.z, spec, self.offsets[j][point])
                intervals[metric] = (low, high)
                row |= {metric: est[j].value[k], f"{metric}_ci_low": low, f"{metric}_ci_high": high}
            verdicts = [(c, c.verdict(*intervals[c.metric])) for c in plan.constraints]
            bad = [c for c, v in verdicts if v == "broken"]
            if bad:
                c = bad[0]
                low, high = intervals[c.metric]
                broken[point] = f"infeasible: {c} broken ({c.metric} {fmt(c.metric, low)} to {fmt(c.metric, high)})"
            elif all(v == "met" for _, v in verdicts):
                certified.add(point)
            rows[point] = row
        obj = est[0]
        index = {point: k for k, point in enumerate(self.alive)}
        candidates = [p for p in self.alive if p in certified and obj.value[index[p]] == obj.value[index[p]]]
        sign = 1.0 if plan.minimize else -1.0
        leader = min(candidates, key=lambda p: (sign * obj.value[index[p]], p)) if candidates else None
        if self.tolerance is None:  # the default, fixed after round 1: from the best estimate of any point
            values = obj.value[np.isfinite(obj.value)]
            best = (values.min() if plan.minimize else values.max()) if len(values) else 0.0
            self.tolerance = (DEFAULT_RATE_TOLERANCE if self.specs[0].is_rate else
                              DEFAULT_RELATIVE_TOLERANCE * abs(float(best)))
        beaten: dict[int, str] = {}
        diffs = []
        for point in self.alive:
            row = rows[point]
            row["leader"] = names[leader] if leader is not None else ""
            diff = low = high = math.nan
            if leader is not None and point != leader:
                diff, low, high = obj.difference(index[point], index[leader], self.z)
                if point not in broken and racing.beaten(low, high, plan.minimize):
                    o = plan.objective
                    beaten[point] = (f"beaten by {names[leader]}: {o} {fmt(o, diff, True)} "
                                     f"({fmt(o, low, True)} to {fmt(o, high, True)})")
                if point not in broken:
                    diffs.append((low, high))
            elif point == leader:
                diff = low = high = 0.0
            row |= {"vs_leader": diff, "vs_leader_ci_low": low, "vs_leader_ci_high": high,
                    "meets_constraints": "yes" if point in certified else "no" if point in broken else "open"}
            reason = broken.get(point) or beaten.get(point) or ""
            row["status"] = "dropped" if reason else "kept"
            row["reason"] = reason
            self.race_rows.append(row)
            self.last[point] = row
            if reason:
                self.dropped[point] = row
        n_round = len(self.alive)
        self.alive = [p for p in self.alive if p not in broken and p not in beaten]
        self.leader, self.certified = leader, certified
        self.round_rows.append({"round": round_no, "games_per_point": self.played, "points": n_round,
                                "dropped_infeasible": len(broken), "dropped_beaten": len(beaten),
                                "left": len(self.alive), "leader": names[leader] if leader is not None else "",
                                plan.objective: float(obj.value[index[leader]]) if leader is not None else math.nan,
                                "games_used": self.used})
        if not self.alive:
            self.outcome = "no feasible point"
        elif len(self.alive) == 1 and self.alive[0] in certified:
            self.outcome = "one point left"
        elif (leader is not None and all(p in certified for p in self.alive)
              and racing.tie_within(diffs, self.tolerance)):
            self.outcome = "tie"

    def player(self, progress: Progress):
        """What plays the rounds: every point's games (and skill games) on this machine's threads."""
        from ..running.games import game_work
        from ..running.rounds import RacePlayer
        from ..running.tournaments import skill_bots

        plans = self.plan.plans
        works = [[game_work(p.rules, skill_bots(p.rules), p.seed, True) if skill else
                  game_work(p.rules, p.bots, p.seed, p.rotate_seats) for skill in self.streams] for p in plans]
        names = [[f"{p.progress_label or p.name}{' (skill index)' if skill else ''}" for skill in self.streams]
                 for p in plans]
        return RacePlayer(works, names, self.values, self.plan.workers, progress)

    def run(self, player) -> None:
        """Play rounds with `player` (running.rounds.RacePlayer, or any object with its
        `play_round`) until the race is decided or the budget cannot pay the next round."""
        for round_no, target in enumerate(self.cumulative, 1):
            new = target - self.played
            if self.used + new * len(self.alive) * len(self.streams) > self.plan.budget:
                break
            try:
                player.play_round(self.alive, self.played, new,
                                  f"round {round_no}: {len(self.alive)} points x {new:,} games", self.fold)
            except Interrupted as exc:  # counted within the round: count the race's games against its budget
                exc.done = self.used + (exc.done or 0)
                exc.total = self.plan.budget
                exc.what = f"games of the race's budget ({len(self.plan.points)} grid points)"
                raise
            self.used += new * len(self.alive) * len(self.streams)
            self.played = target
            self.judge(round_no)
            if self.outcome:
                return
        self.outcome = "budget"


def _standings(race: _Race) -> tuple[Any, str | None, bool]:
    """Every point, the winner first: then the points still in the race (by the objective),
    then the dropped ones (the later dropped first); (frame, winner's name, certified)."""
    import pandas as pd

    plan = race.plan
    sign = 1.0 if plan.minimize else -1.0
    alive = race.alive
    winner = race.leader if race.leader in alive else None
    if winner is None and alive:
        winner = min(alive, key=lambda p: (sign * race.last[p][plan.objective], p))
    order = ([winner] if winner is not None else []) + sorted(
        (p for p in alive if p != winner), key=lambda p: (sign * race.last[p][plan.objective], p))
    order += sorted(race.dropped, key=lambda p: (-race.dropped[p]["round"], sign * race.last[p][plan.objective], p))
    rows = []
    for rank, point in enumerate(order, 1):
        last = dict(race.last[point])
        if point == winner:
            status = "winner"
        elif point in alive:
            status = "tied" if race.outcome == "tie" else "in the race"
        else:
            status = f"dropped in round {last['round']}"
        last.pop("status")
        last["last_round"] = last.pop("round")
        rows.append({"rank": rank, "standing": status} | last)
    frame = pd.DataFrame(rows)
    first = ["rank", "standing", "point"] + plan.knobs + ["last_round", "games"]
    frame = frame[first + [c for c in frame.columns if c not in first and c != "reason"] + ["reason"]]
    certified = winner is not None and winner in race.certified
    return frame, (plan.names[winner] if winner is not None else None), certified


def run_race(plan, progress: Progress, player=None) -> dict[str, Any]:
    """Run the race of a plan (designs.DesignPlan); what the result is made of, by field.
    `player(race)`: what plays its rounds instead of the engine (the tests' synthetic games)."""
    import pandas as pd

    race = _Race(plan)
    race.run(player(race) if player is not None else race.player(progress))
    if not race.race_rows:
        raise RuntimeError("the race played no round")
    standings, winner, certified = _standings(race)
    games_per_point = race.last[plan.names.index(winner)]["games"] if winner is not None else race.played
    return {"race": pd.DataFrame(race.race_rows), "rounds": pd.DataFrame(race.round_rows), "standings": standings,
            "winner": winner, "certified": certified, "outcome": race.outcome, "games_used": race.used,
            "full_grid_games": len(plan.points) * games_per_point * len(race.streams), "looks": race.looks,
            "confidence": 1.0 - racing.ALPHA / race.looks,
            "tolerance": float(race.tolerance if race.tolerance is not None else math.nan)}
