"""The metrics of a run: every metric declared once, here.

Everything else is derived from `METRICS`: the metrics a run reports and how each is
computed from the aggregate, in report order (stats/measures.py), which metrics a race can
pair and their per-game columns (stats/racing.py), which metrics `--precision`, `design
--minimize/--maximize` and `--constraint` accept and the values they may take
(api/precision.py, api/designs.py), the headline's words for a change (output/headline.py)
and the generated metric table of docs/METRICS.md (game/metrics_doc.py, `make docs`).

A metric is computed from the per-game quantities its `source` names (the aggregate's
counters and histograms; the record's columns for a race):

| source | value | a race's per-game (y, d) |
|---|---|---|
| `seat_wins` | games won by seat i / games | (winner is i, 1) |
| `first_seat_edge` | games won by seat 0 / games - 1/n | (winner is 0, 1), minus 1/n |
| `bot_wins` | games won by the seats of a bot / games | not raced |
| `team_wins` | games won by team k / games | not raced |
| `no_winner` | games without a winner / games | (no winner, 1) |
| `reason` | games ended for reason `quantity` / games | (that reason, 1) |
| `happened` | games with `quantity` > 0 / games | (`quantity` > 0, 1) |
| `mean` | the mean of `quantity` (over the games, or `over`) | (`quantity`, 1 or `over`) |
| `median`, `p10`, `p90`, `maximum` | that order statistic of `quantity` | not raced |
| `ratio` | sum of `quantity` / sum of `over` | (`quantity`, `over`) |
| `skill` | the skill games' win rate of the skill bot - 1/n | (skill bot won, 1), minus 1/n |

Plain Python (no numpy, no pandas): the command line reads it for `--help` and the headline.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

KINDS = ("rate", "edge", "mean", "quantile", "max")
# How a kind is shown in the docs: its interval and its unpaired (`compare --unpaired`) test.
INTERVAL = {"rate": "Wilson", "edge": "Wilson, shifted by 1/n", "mean": "normal approx.",
            "quantile": "order statistics", "max": "none"}
UNPAIRED_TEST = {"rate": "two-proportion z", "edge": "two-proportion z (unpooled Wald z when the variants' player "
                 "counts differ)", "mean": "Welch t", "quantile": "none", "max": "none"}
# What a family's placeholder stands for, and the pattern of its values in a metric's name.
PLACEHOLDERS = {"{i}": r"(\d+)", "{k}": r"(\d+)", "{bot}": r"(.+)"}


@dataclass(frozen=True)
class MeanPhrase:
    """The headline's words for a change of a mean."""

    more: str  # "{rel}" is the relative change, e.g. "games are {rel} longer"
    less: str
    unit: str  # of the difference: "(+2.70 turns"
    noun: str  # for a change from or to zero: "stacked penalties" (a game)


@dataclass(frozen=True)
class Metric:
    """One metric, or a family of them (`win_rate_seat_{i}`: one per seat).

    kind: rate (a share; Wilson), edge (a rate minus a fair share), mean (normal
    approximation), quantile (an order statistic with its distribution-free interval) or max
    (the largest value seen; no interval). source / quantity / over: how it is computed (the
    module's docstring). `when`: the runs that report it ("" every run; "bots" when the bots
    are known, "teams" with teams, "skill" with the skill games of compare/sweep --skill,
    "two_sided" with a two-sided deck).
    `precision` / `design`: whether `--precision` / `design` (objective and constraints) may
    name it, `not_raced` the reason said when a race is asked for one it cannot pair;
    low..high its range (a bound or half-width outside it is refused). `phrase`: the
    headline's words (a MeanPhrase for a mean, the rate's name for a rate or an edge, None:
    the headline leaves it to the table). `doc`: its line in docs/METRICS.md.
    """

    name: str
    kind: str
    source: str
    doc: str
    unit: str
    quantity: str = ""
    over: str = ""
    when: str = ""
    precision: bool = True
    design: bool = True
    not_raced: str = ""
    low: float = 0.0
    high: float = math.inf
    phrase: MeanPhrase | str | None = None
    larger_is_better: bool = False  # ranked largest first (`sweep --rank-by`)

    @property
    def is_rate(self) -> bool:
        return self.kind in ("rate", "edge")

    @property
    def family(self) -> bool:
        return any(p in self.name for p in PLACEHOLDERS)

    def named(self, value) -> str:
        """A family member's name (`win_rate_seat_{i}` with 2: `win_rate_seat_2`)."""
        return _fill(self.name, value)

    def range_text(self) -> str:
        return f"{_number(self.low)}..{_number(self.high)}"


_PLACEHOLDER = re.compile("|".join(map(re.escape, PLACEHOLDERS)))


def _fill(text: str, value) -> str:
    """`text` with its family placeholder ({i}, {k} or {bot}) replaced by `value`."""
    return _PLACEHOLDER.sub(lambda _: str(value), text)  # (a bot's label is text, not a replacement pattern)


def _number(x: float) -> str:
    return "inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:g}"


SPREAD_NOT_RACED = "an order statistic or a maximum has no per-game value to pair"
RATE = dict(low=0.0, high=1.0)


def _rate(name: str, source: str, doc: str, phrase: str | None = None, quantity: str = "", **more) -> Metric:
    unit = more.pop("unit", "share of games")
    return Metric(name, "rate", source, doc, unit, quantity, phrase=phrase, **RATE, **more)


def _mean(quantity: str, doc: str, unit: str, phrase: MeanPhrase | None = None, **more) -> Metric:
    return Metric(f"mean_{quantity}", "mean", "mean", doc, unit, quantity, phrase=phrase, **more)


SPREAD = ("median", "p10", "p90", "maximum")
_SPREAD_DOC = {"median": "the median (exact, from the histogram)", "p10": "the 10th percentile",
               "p90": "the 90th percentile", "maximum": "the largest seen in the run (it grows with the games)"}


def _spread(quantity: str, what: str, unit: str, which: tuple[str, ...] = SPREAD) -> list[Metric]:
    """The order statistics of a per-game quantity (`what`: what it counts, for the docs)."""
    return [Metric(f"{stat}_{quantity}", "max" if stat == "maximum" else "quantile", stat,
                   f"{what}: {_SPREAD_DOC[stat]}", unit, quantity, precision=stat != "maximum", design=False,
                   not_raced=SPREAD_NOT_RACED) for stat in which]


def _count(quantity: str, rate: str, unit: str, rate_doc: str, mean_doc: str,
           rate_phrase: str | None = None, mean_phrase: MeanPhrase | None = None) -> list[Metric]:
    """A per-game count as its rate (the games with one or more) and its mean."""
    return [_rate(rate, "happened", rate_doc, rate_phrase, quantity), _mean(quantity, mean_doc, unit, mean_phrase)]


def _often(what: str, unit: str, noun: str) -> MeanPhrase:
    """"`what` {rel} more often" / "less often"."""
    return MeanPhrase(f"{what} {{rel}} more often", f"{what} {{rel}} less often", unit, noun)


PER_GAME = "RULES.md#the-per-game-record"

METRICS: tuple[Metric, ...] = (
    # Who wins.
    _rate("win_rate_seat_{i}", "seat_wins", "share of games won by seat i", "seat {i}'s win rate"),
    Metric("first_player_edge", "edge", "first_seat_edge",
           "`win_rate_seat_0` - 1/n (n players): seat 0 acts first ([seats and dealer](RULES.md#seats-dealer-and-deal))",
           "share of games, from the fair share", low=-1.0, high=1.0,
           phrase="the first player's edge over the fair share"),
    _rate("win_rate_bot_{bot}", "bot_wins", "share of games won by any seat playing that bot; seats are grouped by "
          "the bot's label, its name plus the parameters set away from their defaults (`random`, "
          "`random:forget_uno=0.3`)", "{bot}'s win rate", when="bots", design=False,
          not_raced="the race pairs no per-bot columns"),
    _rate("win_rate_team_{k}", "team_wins", "(with `teams`) share of games won by team k (seats i with i mod teams "
          "= k)", "team {k}'s win rate", when="teams", design=False,
          not_raced="the race pairs no per-team columns"),
    _rate("no_winner_rate", "no_winner", "share of games that ended without a winner (`void`, `stall` or `cap`)",
          "the share of games without a winner"),
    _rate("void_rate", "reason", "share of games that ended void (no-winner rate by reason)",
          "the share of games that end void", "void"),
    _rate("stall_rate", "reason", "share of games that ended in a stall (no-winner rate by reason)",
          "the share of games that end in a stall", "stall"),
    _rate("cap_rate", "reason", "share of games stopped at the turn cap (no-winner rate by reason)",
          "the share of games stopped at the turn cap", "cap"),
    # How long.
    _mean("turns", f"regular turns per game ([`turns`]({PER_GAME}))", "turns",
          MeanPhrase("games are {rel} longer", "games are {rel} shorter", "turns", "turns")),
    *_spread("turns", "regular turns per game", "turns"),
    _mean("plays", "cards put on the discard pile after the lead, per game", "cards a game",
          MeanPhrase("{rel} more cards are played", "{rel} fewer cards are played", "cards a game", "cards played")),
    *_spread("plays", "cards played per game", "cards"),
    _mean("draws", "cards taken from the pile after the deal, per game", "cards a game",
          MeanPhrase("players draw {rel} more cards", "players draw {rel} fewer cards", "cards a game", "cards drawn")),
    *_spread("draws", "cards drawn per game", "cards"),
    # Points (games with a winner).
    _mean("winner_points", f"the winner's points ([`winner_points`]({PER_GAME})), over the games that have a "
          "winner", "points", MeanPhrase("winners score {rel} more points", "winners score {rel} fewer points",
                                      "points", "winner's points"), over="has_winner"),
    *_spread("winner_points", "the winner's points", "points"),
    _mean("loser_points", "the points left in each loser's hand at the end (one observation per losing seat; with "
          "`teams`, every seat outside the winning team), over the games that have a winner", "points a loser",
          MeanPhrase("losers are left with {rel} more points in hand", "losers are left with {rel} fewer points in hand",
                  "points a loser", "points left in a losing hand"), over="losers", design=False,
          not_raced="a game has several losers, so it has no one per-game value to pair"),
    *_spread("loser_points", "the points left in a loser's hand", "points"),
    # Pile, penalties, stacking.
    *_count("reshuffles", "reshuffle_rate", "reshuffles a game",
            "share of games with at least one reshuffle", "reshuffles per game",
            "the share of games with a reshuffle",
            _often("the pile is reshuffled", "reshuffles a game", "reshuffles")),
    _mean("max_pending", "per game, the most cards drawn at once as a Draw Two / Wild Draw Four penalty (a stacked "
          "chain counts once): the stack length", "cards",
          MeanPhrase("the largest penalty of a game is {rel} larger on average",
                  "the largest penalty of a game is {rel} smaller on average", "cards",
                  "cards in the largest penalty")),
    *_spread("max_pending", "the largest penalty of a game", "cards", ("median", "p90", "maximum")),
    _mean("penalty_drawn", "cards drawn as Draw Two / Wild Draw Four penalties per game", "cards a game",
          MeanPhrase("players draw {rel} more penalty cards", "players draw {rel} fewer penalty cards", "cards a game",
                  "penalty cards")),
    *_count("stacks", "stack_rate", "stacks a game",
            "share of games in which a draw card was played onto an already pending penalty",
            "draw cards played onto an already pending penalty, per game",
            "the share of games with a stacked penalty",
            _often("penalties are stacked", "stacks a game", "stacked penalties")),
    # Challenges, jump-ins, 7-0, UNO.
    *_count("challenges", "challenge_rate", "challenges a game",
            "share of games with at least one challenge", "challenges per game",
            "the share of games with a challenge",
            _often("players challenge", "challenges a game", "challenges")),
    _rate("challenge_success_rate", "ratio", "challenges that found the Wild Draw Four guilty / all challenges (NaN "
          "when nobody challenged; the `random` bot never does); its interval and test are over the challenges",
          "the share of challenges that succeed", "challenges_won", over="challenges", unit="share of challenges"),
    *_count("jumps", "jump_in_rate", "jump-ins a game",
            "share of games with at least one jump-in", "jump-ins per game",
            "the share of games with a jump-in", _often("players jump in", "jump-ins a game", "jump-ins")),
    *_count("swaps", "swap_rate", "swaps a game", "share of games with a 7-swap", "7-swaps per game",
            "the share of games with a 7-swap", _often("hands are swapped on a 7", "swaps a game", "7-swaps")),
    *_count("rotations", "rotation_rate", "rotations a game", "share of games with a 0-rotation",
            "0-rotations per game", "the share of games with a 0-rotation",
            _often("hands rotate on a 0", "rotations a game", "0-rotations")),
    _mean("uno_caught", "forgotten UNO calls that were caught, per game", "catches a game",
          MeanPhrase("{rel} more forgotten UNO calls are caught", "{rel} fewer forgotten UNO calls are caught",
                  "catches a game", "caught UNO calls")),
    # The rule sheets' remaining house rules (a sum jump-in is also a jump-in, above).
    *_count("sum_jumps", "sum_jump_rate", "sum jumps a game",
            "share of games with a sum jump-in (`sum_jump_in`); a sum jump-in is a jump-in: it is also counted by "
            "`jump_in_rate` and `mean_jumps`", "sum jump-ins per game (also counted by `mean_jumps`)"),
    _rate("hand_sum_win_rate", "happened", "share of games in which a player went out by a hand-sum claim "
          "(`hand_sum_win`; under `first_out` the games won that way)", quantity="hand_sum_wins"),
    _rate("wild_swap_rate", "happened", "share of games with at least one Wild played as a 3-card swap (`wild_swap`)",
          quantity="wild_swaps"),
    _mean("uno_catchers", "catchers of forgotten UNO calls per game, summed over the calls (`uno_catchers = each`: "
          "every player who caught; `one`: 1 per caught call, so it equals `mean_uno_caught`)", "uno catchers a game"),
    # Decks (the mercy rule, roulette, shuffling hands).
    *_count("knockouts", "knockout_rate", "knockouts a game",
            "share of games in which the mercy rule (`mercy_limit`) knocked at least one player out",
            "players knocked out by the mercy rule per game",
            "the share of games in which the mercy rule knocks a player out",
            MeanPhrase("{rel} more players are knocked out by the mercy rule",
                    "{rel} fewer players are knocked out by the mercy rule", "knockouts a game", "knockouts")),
    _rate("mercy_win_rate", "happened", "share of games won by being the last player left after the others were "
          "knocked out (the winner still holds cards)", "the share of games won by being the last player left",
          "mercy_win"),
    _mean("roulette_cards", "cards turned up by the victims of roulette cards (`roulette` kinds, e.g. no-mercy's "
          "`WC`), per game; they are also counted in `mean_draws`", "cards a game",
          MeanPhrase("roulette victims turn up {rel} more cards", "roulette victims turn up {rel} fewer cards",
                  "cards a game", "cards turned up by roulette")),
    _rate("hand_shuffle_rate", "happened", "share of games in which a `shuffle_hands` card (the modern deck's `WSH`) "
          "gathered and dealt out every hand", quantity="hand_shuffles"),
    # Two-sided decks (UNO Flip): reported by runs of a two-sided deck only.
    _mean("flips", "flips per game: Flip cards played (each card of a multi-play) and a Flip card turned up as the "
          "lead", "flips a game", MeanPhrase("everything flips {rel} more often", "everything flips {rel} less often",
                                             "flips a game", "flips"), when="two_sided"),
    _rate("dark_end_rate", "happened", "share of games that end with the dark side in play (the side their hands are "
          "scored on)", "the share of games that end on the dark side", "side", when="two_sided"),
    _mean("draw_color_cards", "cards turned up by the victims of `draw_color` cards (the Wild Draw Colour; a challenge's "
          "included), per game; they are also counted in `mean_draws`", "cards a game",
          MeanPhrase("Wild Draw Colour victims turn up {rel} more cards",
                     "Wild Draw Colour victims turn up {rel} fewer cards", "cards a game",
                     "cards turned up by Wild Draw Colour"), when="two_sided"),
    # The skill games (compare / sweep --skill).
    Metric("skill_index", "edge", "skill", "(`compare`/`sweep --skill`) one `pro` against n - 1 `random` bots, seats "
           "rotated, as many games as the main run and on the same deals: pro's win rate minus 1/n (see [Skill "
           "index](#skill-index))", "share of games, from the fair share", when="skill", low=-1.0, high=1.0,
           phrase="the skill index", larger_is_better=True),
)

BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}
FAMILIES: tuple[Metric, ...] = tuple(m for m in METRICS if m.family)
# The metrics of the skill games (compare / sweep --skill): reported only by the runs that play them.
SKILL_METRICS: tuple[Metric, ...] = tuple(m for m in METRICS if m.when == "skill")


def _pattern(m: Metric) -> re.Pattern:
    text = re.escape(m.name)
    for placeholder, group in PLACEHOLDERS.items():
        text = text.replace(re.escape(placeholder), group)
    return re.compile(text)


_FAMILY_PATTERNS = tuple((_pattern(m), m) for m in FAMILIES)


@lru_cache(maxsize=None)
def _lookup(name: str) -> tuple[Metric, str] | None:
    if name in BY_NAME and not BY_NAME[name].family:
        return BY_NAME[name], ""
    for pattern, m in _FAMILY_PATTERNS:
        hit = pattern.fullmatch(name)
        if hit:
            return m, hit.group(1)
    return None


def find(name: str) -> Metric | None:
    """The entry of a metric's name (a family's for `win_rate_seat_3`), or None."""
    hit = _lookup(name)
    return None if hit is None else hit[0]


def phrase(name: str) -> MeanPhrase | str | None:
    """The headline's words for a metric (a family member's with its seat, team or bot)."""
    hit = _lookup(name)
    if hit is None:
        return None
    m, value = hit
    if isinstance(m.phrase, str) and value:
        return _fill(m.phrase, value)
    return m.phrase


def race_names(players: int) -> list[str]:
    """Every metric a race can pair (families spelled out for `players` seats)."""
    out = []
    for m in METRICS:
        if m.design:
            out += [m.named(i) for i in range(players)] if m.family else [m.name]
    return out


def partners() -> dict[str, str]:
    """A count per game and the share of games with at least one (`mean_stacks`,
    `stack_rate`), both ways: the headline says one of them."""
    rates = {m.quantity: m.name for m in METRICS if m.source == "happened"}
    out = {f"mean_{q}": rate for q, rate in rates.items() if f"mean_{q}" in BY_NAME}
    return out | {rate: mean for mean, rate in out.items()}


def check_bound(name: str, value: float, what: str, absolute: bool = False, span: bool = False) -> str | None:
    """Why `value` cannot be a bound of metric `name` (outside its range; `absolute`: a bound
    of its absolute value; `span`: a tolerance, at most the range's width), or None."""
    m = find(name)
    if m is None:
        return None
    low, high = (0.0, max(abs(m.low), abs(m.high))) if absolute else (0.0, m.high - m.low) if span else (m.low, m.high)
    if low <= value <= high:
        return None
    hint = " (rates are fractions: 0.005 or 0.5pp is half a percentage point)" if m.is_rate else ""
    where = (f"the absolute values of {name}" if absolute else f"the differences of {name}" if span
             else f"the range of {name}")
    return f"{what}: {value:g} is outside {where}, {_number(low)}..{_number(high)}{hint}"


def check_half_width(name: str, width: float, what: str) -> str | None:
    """Why `width` cannot be a --precision half-width of `name` (no interval of a metric in
    low..high is wider than high - low, so a half-width above half of it says nothing), or None."""
    m = find(name)
    if m is None or not math.isfinite(m.high - m.low) or width <= (m.high - m.low) / 2:
        return None
    hint = " (rates are fractions: 0.01 or 1pp is one percentage point)" if m.is_rate else ""
    return (f"{what}: a half-width of {width:g} is more than any interval of {name} ({m.range_text()}) can have, "
            f"at most {_number((m.high - m.low) / 2)}{hint}")
