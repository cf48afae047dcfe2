"""The rule knobs: every knob declared once, here.

Everything else is derived from `KNOBS`: the `Rules` fields, defaults and value checks
(rules.py), the kernel's rule-array indices (`INDEX`, read by the engine as `K.<name>`, for
every knob but those marked `kernel=False`),
`uno-sim show` and `uno-sim rules`, the rulebook's knob section (docs/RULES.md, checked by a
test), the trace checker's defaults and the hypothesis rule sets in the tests.

This module imports nothing heavy (no numpy, no numba): commands that only describe rules
stay fast.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any

MAX_PLAYERS = 10


@dataclass(frozen=True)
class Knob:
    """One rule knob.

    `values` is the knob's type: `bool`, `int`, `float`, or a tuple of the allowed words
    (default first; the kernel reads a word as its position in the tuple). Whole numbers and
    probabilities have inclusive bounds `low`..`high`. `meaning` is one line; `detail` the
    full rulebook entry; `sheet` the rule-sheet words it models (empty for extras).

    `kernel`: the knob is in the kernel's rule array and some engine function reads it as
    `K.<name>` (a test checks that each such knob is read). One knob is not: `deck` chooses
    the cards, and the engine reads the chosen deck's face tables from the game array
    (engine/state.py, deck_block), never the knob's word.
    """

    name: str
    values: Any
    default: Any
    meaning: str
    detail: str = ""
    sheet: str = ""
    low: float | None = None
    high: float | None = None
    group: str = ""
    kernel: bool = True

    @property
    def choices(self) -> tuple[str, ...] | None:
        return self.values if isinstance(self.values, tuple) else None

    @property
    def type_name(self) -> str:
        if self.choices:
            return "choice"
        return {bool: "bool", int: "int", float: "float"}[self.values]

    def describe_values(self) -> str:
        """The accepted values as a user reads them: `a, b, c` / `true, false` / `0..100`."""
        if self.choices:
            return ", ".join(self.choices)
        if self.values is bool:
            return "true, false"
        return f"{_number(self.low)}..{_number(self.high)}"


def _number(x: float | None) -> str:
    if x is None:
        return "?"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


G_TABLE = "table and deal"
G_LEAD = "lead card"
G_TURN = "playing and drawing"
G_WD4 = "Wild Draw Four and challenges"
G_STACK = "stacking"
G_OUT_OF_TURN = "out-of-turn plays"
G_SEVEN_ZERO = "7-0 and other hand changes"
G_UNO = "UNO calls"
G_END = "round end and scoring"
G_MATCH = "matches"

KNOBS: tuple[Knob, ...] = (
    # -------------------------------------------------------------- table and deal
    Knob("players", int, 4, "players at the table",
         "Seats 0..n-1, clockwise is increasing seat index. In a single game the dealer is seat "
         "n-1, so seat 0 acts first unless the lead card says otherwise. `players * hand_size + 1` "
         "must not exceed the cards in the deck (108 in the classic deck).",
         low=2, high=MAX_PLAYERS, group=G_TABLE),
    Knob("hand_size", int, 7, "cards dealt to each player",
         "Cards are dealt one at a time, starting left of the dealer. One sheet's quick game "
         "deals 5.",
         low=1, high=107, group=G_TABLE),
    # -------------------------------------------------------------- lead card
    Knob("first_card", ("official", "number"), "official", "which lead card is accepted",
         "`official`: the top of the pile is flipped; a Wild Draw Four goes back, the pile is "
         "reshuffled and another card is flipped; any other card stands and acts (Wild: the first "
         "player names the colour; Draw Two, Reverse, Skip as below). `number`: cards are flipped "
         "until a number card shows (each other card goes back and the pile is reshuffled). If no "
         "acceptable card can be flipped at all, the round ends `void`. Nobody jumps in on the lead "
         "card, and a lead 7 or 0 swaps or rotates nothing.",
         group=G_LEAD),
    Knob("lead_draw_two_skips", bool, True, "a lead Draw Two also costs the first player the turn",
         "A lead Draw Two is drawn at once by the first player (`why` `lead`; never stacked). "
         "`true`: that player also loses the turn; `false`: they draw 2 and then play.",
         group=G_LEAD),
    Knob("lead_reverse", ("dealer", "right", "left"), "dealer", "who starts after a lead Reverse",
         "A lead Reverse makes the direction counter-clockwise; then the dealer (`dealer`), the "
         "player right of the dealer (`right`, seat dealer-1) or left of the dealer (`left`, seat "
         "dealer+1) acts first. The sheets disagree, so all three are offered; it applies with two "
         "players too.",
         group=G_LEAD),
    # -------------------------------------------------------------- Wild Draw Four and challenges
    Knob("wd4_rule", ("no_color", "no_match", "free"), "no_color", "when a Wild Draw Four is legal",
         "`no_color`: only when the player holds no card of the current colour (a Wild or Wild Draw "
         "Four never counts as a colour); `no_match`: only with no card matching the current colour "
         "or the symbol of a coloured top card; `free`: always (and never challengeable). With "
         "`challenge` on, a Wild Draw Four played against the rule is a bluff that a challenge can "
         "catch; with `challenge` off the rule is a hard limit. A Wild Draw Four answering a stacked "
         "chain is legal whatever this rule says.",
         group=G_WD4),
    Knob("challenge", bool, True, "the victim of a Wild Draw Four may challenge it",
         "Only the player hit by a Wild Draw Four played on an ordinary turn may challenge, right "
         "after the play (for the first Wild Draw Four of a stacked chain: as the victim's first "
         "action). Guilty (the player held a card `wd4_rule` forbids): the player who played it "
         "draws 4 and the chain is dropped. Not guilty: the challenger draws 4 + `challenge_extra` "
         "and loses the turn. The named colour stands either way. Needs `wd4_rule` other than `free` "
         "(under `free` nothing is guilty and nobody challenges); a Wild Draw Four answering a chain "
         "or emptying its player's hand cannot be challenged. A challenge is not a turn.",
         group=G_WD4),
    Knob("challenge_extra", int, 2, "extra cards a failed challenger draws (4 + 2 = 6)",
         "A failed challenger draws 4 + this many cards in one draw and loses the turn (the sheets' "
         "6 cards with the default 2).",
         low=0, high=100, group=G_WD4),
    Knob("challenge_win_plays", bool, True, "after a successful challenge the challenger plays",
         "`true`: a challenger who wins draws nothing and then takes a regular (counted) turn; "
         "`false`: the challenger draws nothing but is still skipped. The sheets disagree.",
         group=G_WD4),
    # -------------------------------------------------------------- playing and drawing
    Knob("draw_rule", ("one", "until_playable"), "one", "how many cards a player with no play draws",
         "`one`: one card; `until_playable`: cards are drawn until the first one that could be "
         "played without a bluff (a common house rule). Either way the whole draw is one event, "
         "split only around a reshuffle.",
         group=G_TURN),
    Knob("play_drawn", ("any", "numbers", "none"), "any", "whether a playable drawn card may be played at once",
         "After a turn draw only the last card drawn may be played, alone, and only if it could be "
         "played without a bluff (a drawn Wild Draw Four only when `wd4_rule` allows it): `any` "
         "card, only `numbers`, or `none` (the turn ends). A drawn card is never part of a "
         "multi-play.",
         group=G_TURN),
    Knob("voluntary_draw", bool, True, "a player holding a playable card may draw instead",
         "A player who draws by choice draws as `draw_rule` says and may then play only the last "
         "card drawn, as `play_drawn` allows. Off: a player holding a playable card must play. The "
         "`random` bot never draws by choice.",
         group=G_TURN),
    Knob("two_player_reverse", ("skip", "noop"), "skip", "what a Reverse does with two players",
         "With two players still in the round, a Reverse acts as a Skip (`skip`: the same player "
         "goes again) or only flips the direction (`noop`: the other player goes). Under "
         "`last_standing` this holds once two players are left, for a Reverse put down by one of "
         "them. In a multi-play under `skip` each Reverse counts as one Skip for `multi_skip`.",
         group=G_TURN),
    # -------------------------------------------------------------- stacking
    Knob("stack_draw_two", bool, False, "a Draw Two may be answered with a Draw Two",
         "Stacking: while `stack_draw_two`, `stack_four_on_two` or `deflect` is on, a Draw Two does "
         "not take effect at once; its 2 cards are added to a pending penalty carried by the next "
         "player (the victim). The victim either answers with a draw card the stacking knobs allow "
         "and that matches the top card (adding to the penalty and passing it on; nothing else may "
         "be played while a penalty is pending) or draws the whole penalty at once and loses the "
         "turn, which ends the chain.",
         sheet="Drop2牌具有累积性", group=G_STACK),
    Knob("stack_draw_four", bool, False, "a Wild Draw Four may be answered with a Wild Draw Four",
         "While `stack_draw_four` or `stack_two_on_four` is on, a Wild Draw Four does not take "
         "effect at once: it adds 4 to the pending penalty carried by the next player. An "
         "answering Wild Draw Four is legal whatever "
         "`wd4_rule` says and cannot be challenged; the first of a chain can be challenged by its "
         "victim before answering.",
         sheet="4牌只能跟在2或4后面，或者没有与上家颜色一样的牌才可出", group=G_STACK),
    Knob("stack_four_on_two", bool, False, "a pending Draw Two chain may be answered with a Wild Draw Four",
         "The Wild Draw Four outranks the Draw Two: a Draw Two chain may be raised by 4 with a Wild "
         "Draw Four.",
         sheet="王牌为大", group=G_STACK),
    Knob("stack_two_on_four", bool, False, "a pending Wild Draw Four chain may be answered with a Draw Two of the named colour",
         "A Wild Draw Four chain may be raised by 2 with a Draw Two of the colour the Wild Draw Four "
         "named (an extra, not from the rule sheets).",
         group=G_STACK),
    Knob("deflect", bool, False, "a Draw Two chain may be passed on with a matching Skip or Reverse",
         "While a Draw Two chain is pending, a Skip matching the top card sends it, unchanged, to the "
         "player who would take the turn after the Skip (the player after next; k Skips put down "
         "together under `multi_skip = each` send it k + 1 seats on); a Reverse flips the direction "
         "and sends it to the new next player; with two players still in either sends it to the "
         "other player. Needs `stack_draw_two`.",
         group=G_STACK),
    # -------------------------------------------------------------- out-of-turn plays
    Knob("jump_in", bool, False, "a card identical to the one just played may be played out of turn",
         "After any coloured card is played and its effects are resolved, each player holding an "
         "identical card (colour and symbol), the player who just played included, may play it out "
         "of turn; if several want to, one is picked uniformly at random. Its effects apply as if "
         "played on the jumper's turn and play continues from the jumper; players passed over lose "
         "their turn. While a penalty is pending the jumped-in card is the jumper's answer and must "
         "be a legal one (a jumped-in Draw Two adds 2, its victim is the jumper's next player); a "
         "victim may jump in with a card just drawn as a penalty. Jump-ins chain; nobody jumps in "
         "on the lead card; a jump-in is a single card and is not a turn.",
         sheet="抢出", group=G_OUT_OF_TURN),
    Knob("multi_play", ("off", "identical", "same_symbol"), "off", "several cards may be put down at once",
         "With a legal card a player may put down further cards identical to it (`identical`) or "
         "with the same number or action in any colour (`same_symbol`); never Wilds, and at least "
         "one card of the set must be legal alone. The player "
         "chooses which card ends on top (its colour becomes current). Each Draw Two adds 2, each "
         "Reverse flips, Skips per `multi_skip`; each 7 swaps and each 0 rotates once. Allowed on "
         "an ordinary turn and as a penalty answer, not for a drawn card nor a jump-in.",
         group=G_OUT_OF_TURN),
    Knob("multi_skip", ("each", "once"), "each", "how many players several Skips put down together skip",
         "`each`: k Skips skip k players; `once`: one player. The sheets disagree. Skips deflecting "
         "a pending chain (`deflect`) pass it on the same way: k + 1 seats on (`each`) or 2 "
         "(`once`).",
         group=G_OUT_OF_TURN),
    # -------------------------------------------------------------- 7-0
    Knob("seven_swap", bool, False, "playing a 7 swaps hands with a player of your choice",
         "An extra rule (Seven-0): the player swaps whole hands with another player still in the "
         "round, after the UNO call; each 7 of a multi-play swaps once. A card that empties its "
         "player's hand does no swap, nor does a lead 7. A hand that reaches one card through a "
         "swap owes no UNO call.",
         group=G_SEVEN_ZERO),
    Knob("zero_rotate", bool, False, "playing a 0 passes every hand to the next player",
         "Every hand of a player still in passes to the next player still in, in the direction of "
         "play, after the UNO call; each 0 of a multi-play rotates once. A card that empties its "
         "player's hand rotates nothing, nor does a lead 0. A hand that reaches one card through "
         "a rotation owes no UNO call.",
         group=G_SEVEN_ZERO),
    # -------------------------------------------------------------- finishing, UNO, scoring
    Knob("number_finish", bool, False, "the last card must be a number card",
         "A player whose only card is an action card or a wild cannot play it and must draw "
         "instead; a play that empties a hand (a turn play, a multi-play, a drawn card, a jump-in) "
         "must consist of number cards, so a player down to one card cannot answer a pending "
         "penalty.",
         sheet="数字取胜", group=G_END),
    Knob("last_card_penalty", bool, True, "a Draw Two / Wild Draw Four played as the winning card still makes its victim draw",
         "With it on, the victim of a winning Draw Two / Wild Draw Four, or of a winning Skip / "
         "Reverse that deflects a chain, draws the whole pending penalty at once (no answer, no "
         "challenge), and those cards score. Off: the penalty is dropped: nobody draws it and "
         "nobody is skipped by it. A winning card is one that ends the round: under "
         "`last_standing` only the play that leaves one player in; a card that empties a hand "
         "while two or more others stay in acts as on any turn, its penalty pending under stacking.",
         sheet="若赢家最后出的是罚牌，或将罚牌转移给了下家，则下家须起上罚牌后再计输分", group=G_END),
    Knob("uno_penalty", int, 2, "cards drawn by a player caught not calling UNO",
         "A player left with one card after putting cards down must call UNO; a bot forgets with "
         "its `forget_uno` probability and is then caught with probability `uno_catch` before the "
         "next player acts.",
         low=0, high=100, group=G_UNO),
    Knob("uno_catch", float, 1.0, "probability that a forgotten UNO call is caught",
         "Checked once, right after the call was due (before any swap, penalty draw, challenge or "
         "jump-in).",
         low=0.0, high=1.0, group=G_UNO),
    Knob("empty_pile", ("reshuffle", "void"), "reshuffle", "what happens when a card is owed from an empty pile",
         "`reshuffle`: the discard pile except its top card is shuffled into a new pile (only when "
         "it holds at least 2 cards; if even then nothing can be drawn the player draws what there "
         "is, possibly nothing, and play goes on); `void`: the round is abandoned with no winner "
         "the moment a card is owed from an empty pile.",
         group=G_END),
    Knob("zero_points", int, 0, "points a 0 card counts",
         "Numbers count their value, actions 20, wilds 50; a 0 counts this many points (one sheet "
         "uses 10).",
         low=0, high=100, group=G_END),
    Knob("mode", ("first_out", "last_standing"), "first_out", "when the round ends",
         "`first_out`: the round ends when a player goes out; the winner scores the sum of the "
         "losers' hands. `last_standing`: going out takes the next place and play goes on until one "
         "player is left, who places last; place k of n scores n + 1 - 2k (four players: +3, +1, "
         "-1, -3) and the first player out is the round's winner.",
         group=G_END),
    Knob("teams", int, 0, "teams seated alternately (0: no teams)",
         "k teams (k = 1 is not allowed): seat i plays in team i mod k, and `players` must be "
         "divisible by k. A team wins when any member goes out (that member is the round's "
         "`winner`); its points are its members' sums.",
         low=0, high=MAX_PLAYERS, group=G_END),
    # -------------------------------------------------------------- matches
    Knob("target", int, 500, "the score that ends a match",
         "`winner_takes`: the first side to reach it wins; `loser_penalty`: when a side reaches it "
         "the lowest total wins. Not used by `chips`.",
         low=1, high=1_000_000, group=G_MATCH),
    Knob("match_scoring", ("winner_takes", "loser_penalty", "chips"), "winner_takes", "how rounds score in a match",
         "`winner_takes`: the round winner adds the losers' points; the first side to reach `target` "
         "wins. `loser_penalty` (输分制): every loser adds their own hand points; when a side reaches "
         "`target` the lowest total wins and the highest total is the match's loser (以输分最多者为输家). "
         "`chips` (筹码制): after each round every loser pays the winner chips equal to their own hand "
         "points (teams: the losing team pays its members' points, the winning team receives them; "
         "`last_standing`: each player's chips change by their placement score); chip totals start at "
         "0 and always sum to 0, `target` does not apply, and the match is `match_rounds` rounds, the "
         "highest total winning.",
         sheet="输分制；以输分最多者为输家；筹码制", group=G_MATCH),
    Knob("next_dealer", ("left", "winner"), "left", "who deals the next round of a match",
         "The first dealer is random; then the deal passes left, or to the round winner.",
         group=G_MATCH),
    Knob("max_turns", int, 5000, "a round reaching this many turns ends with reason `cap`",
         "Also ends a round after this many consecutive jump-ins. Stall (a full cycle of turns in "
         "which nobody plays or draws) is checked first.",
         low=1, high=1_000_000, group=G_END),
    # -------------------------------------------------------------- (appended) matches
    Knob("match_rounds", int, 0, "rounds in a match (0: play to the target)",
         "0: a match runs until a side reaches `target`. k > 0: the match ends after k rounds if "
         "no side reached `target` first; the leader wins (`winner_takes`, `chips`: the highest "
         "total; `loser_penalty`: the lowest), and sides tied for the lead share the win equally. "
         "`chips` needs it.",
         low=0, high=10_000, group=G_MATCH),
    # -------------------------------------------------------------- the rule sheets' remaining house rules
    Knob("sum_jump_in", ("off", "same_color", "any_color"), "off",
         "number cards adding up to a number card just played may be played out of turn",
         "Sum jump-in joins the jump-in window: after a number card N is played singly (on a turn, "
         "as an identical jump-in, or on top of a multi-play; never the lead), each player, the one "
         "who just played included, holding two or more number cards that add up to N (0s count 0) "
         "may put them down out of turn: all of N's colour (`same_color`) or any colours "
         "(`any_color`). The jumper chooses the order; the last card is on top and its colour "
         "becomes current. Until the next card is played, a card matches the pile when it matches "
         "any card of the set (its colour or its number), also across a reshuffle; a Wild Draw "
         "Four is judged against the top card only. The set's cards have no effects (no 7 swap, no "
         "0 rotation). Play continues from the jumper; players passed over lose their turn. A set "
         "that empties the hand goes out; one that leaves one card needs the UNO call. A set is not "
         "answered by another sum jump-in, but with `jump_in` a card identical to any card of the "
         "set may be jumped in. A sum jump-in counts as a jump-in and is not a turn.",
         sheet="求和抢牌；也有不必对颜色作出要求的约定；你的下家可以对这几张牌中的任意一张跟牌；"
               "只要有人有和你所出的这几张牌中的任何一张完全相同的牌时，就可抢牌",
         group=G_OUT_OF_TURN),
    Knob("sum_jump_win_only", bool, False, "a sum jump-in is allowed only when it empties the jumper's hand",
         "The sum set must be the jumper's whole hand (so it always wins the round, or takes the "
         "next place under `last_standing`). Needs `sum_jump_in`.",
         sheet="也有只能在获胜时才可用求和抢牌的约定", group=G_OUT_OF_TURN),
    Knob("hand_sum_win", bool, False,
         "a player whose hand is all number cards adding up to a number card just played wins at once",
         "Right after a number card N is played singly or on top of a multi-play (its effects "
         "resolved, before any jump-in), any other player still in whose hand holds only number "
         "cards, at least one, adding up to N lays the hand down and goes out; if several can, the "
         "first in the direction of play after the player of N. The laid-down cards leave play "
         "(they are not plays and count nothing). Under `last_standing` the claimant takes the next "
         "place and play goes on from the player after the one who played N. One claim per card "
         "played; bots always claim. Never on the lead card.",
         sheet="摊派胜出；手上剩下的牌，总数加起来如果和任意一家打出的牌相等时，亦可马上胜出",
         group=G_END),
    Knob("wild_swap", bool, False,
         "instead of naming a colour, the player of a Wild may swap 3 cards with another player",
         "A player who plays a Wild (never a Wild Draw Four, never a lead Wild) either names a "
         "colour or picks another player still in the round: k = min(3, own hand, their hand) "
         "cards of the player's choice go to that player and k cards picked at random from their "
         "hand come back; the current colour stays what it was before the Wild. k is measured "
         "after the UNO call and any penalty for forgetting it. A Wild that was the player's last "
         "card goes out and names a colour. (Peeking at a hand, the sheet's other Wild option, is "
         "information only and not simulated.)",
         sheet="Wild多功能", group=G_SEVEN_ZERO),
    Knob("uno_catchers", ("one", "each"), "one", "who catches a forgotten UNO call",
         "`one`: a forgotten call is caught once, with probability `uno_catch`, and costs "
         "`uno_penalty`. `each`: every other player still in the round catches it independently "
         "with probability `uno_catch` (in the direction of play, starting after the forgetful "
         "player) and the penalty is `uno_penalty` per catcher, drawn at once. Only matters with "
         "bots that forget UNO (`random:forget_uno=0.3`).",
         sheet="一个人捉到就罚3张牌，如此类推", group=G_UNO),
    # -------------------------------------------------------------- decks of other kinds (No Mercy)
    Knob("stack_by_value", bool, False, "any draw card at least as high as the last one answers a pending penalty",
         "Every card that makes its victim draw (any kind with a draw value: Draw Two, Wild Draw "
         "Four, a coloured Draw Four, Wild Draw Six or Ten, ...) starts or raises a pending penalty "
         "carried by the next player. The victim may answer with any card whose draw value is at "
         "least that of the last draw card of the chain, whatever its colour or kind, adding its "
         "value and passing the penalty on; otherwise they draw the whole penalty and lose the "
         "turn. A restricted answer (a Wild Draw Four) is legal whatever `wd4_rule` says and cannot "
         "be challenged; an answer that also reverses flips the direction and the new next player "
         "is the victim (with two players and `two_player_reverse = skip`: its own player). "
         "Cannot be combined with the other `stack_*` knobs nor `deflect`.",
         sheet="you can 'Stack' the penalty by playing a Draw Card from your hand of equal or higher value "
               "… until someone can't play a Draw Card that equals or exceeds the value of the last card "
               "played. That player then takes the full penalty",
         group=G_STACK),
    Knob("must_play_drawn", bool, False, "a playable card drawn on a turn must be played at once",
         "After a turn draw, the last card drawn must be played at once when it could be played "
         "without a bluff (a drawn Wild Draw Four only when `wd4_rule` allows it); the player has "
         "no choice to keep it. Needs `play_drawn = any`.",
         sheet="you MUST draw cards from the Draw Pile UNTIL YOU DRAW A CARD YOU CAN PLAY. Then, play that card",
         group=G_TURN),
    # -------------------------------------------------------------- (appended) the cards
    Knob("deck", ("classic", "no-mercy", "modern", "flip"), "classic", "the deck played",
         "`classic`: the 108 cards of the official rules. `no-mercy`: the 168 cards of UNO Show 'Em "
         "No Mercy (Draw Four and Draw Six to Draw Ten cards, Skip Everyone, Discard All, Wild "
         "Reverse Draw Four, Wild Colour Roulette; no plain Wild). `modern`: the classic cards plus "
         "a Wild Shuffle Hands and three Wild Customizable cards (plain Wilds until a rule file "
         "gives them effects), 112 cards. `flip`: UNO Flip's 112 two-sided cards (a light and a dark "
         "face each; \"Two-sided decks\"). A rule file may instead describe its own deck in a "
         "`[deck]` table (\"Decks and your own cards\"); the rule set's deck then reads `custom`, "
         "and `--set deck=...` replaces it with a built-in deck. The deck must hold "
         "`players * hand_size + 1` cards. `uno-sim decks` lists the built-in decks.",
         sheet="UNO牌中空白牌用处 … 也可以自己进行DIY，创造一些自己设定的功能牌", group=G_TABLE, kernel=False),
    Knob("mercy_limit", int, 0, "the mercy rule: a player holding this many cards or more is knocked out (0: off)",
         "After every event that adds cards to a hand (a draw, each part of a draw split by a "
         "reshuffle, a swap, a rotation, a shuffle of hands, a Wild swap), every player still in the "
         "round holding `mercy_limit` or more cards is knocked out, in the direction of play starting "
         "from the player who acts; a knocked-out player's remaining draw ends. Their cards are set "
         "aside and join the next reshuffle. Turn order passes over them and \"two players\" means two "
         "still in. When one player is left under `first_out`, that player wins the round; under "
         "`last_standing` a knockout takes the worst place still free. A knocked-out player's points "
         "are `mercy_points` and their cards 0. 0 is off; otherwise it must be above `hand_size`. "
         "Not with `teams`.",
         sheet="If a player ever has 25 or more cards in their hand, they are out of the game",
         low=0, high=432, group=G_END),
    Knob("mercy_points", int, 250, "points of a player knocked out by the mercy rule",
         "Each player knocked out by `mercy_limit` scores this many points (their `points_i`), which "
         "the winner collects under `first_out`.",
         sheet="250 for each player knocked out", low=0, high=10000, group=G_END),
    Knob("flip_discard", ("whole", "top"), "whole", "how a Flip card turns the discard pile over (two-sided decks)",
         "A Flip card (a two-sided deck's `flip` kind) turns every hand, the draw pile and the discard "
         "pile over. `whole`: the discard pile is turned over as one stack, as the box's rules say of "
         "both piles: its order reverses, so the card that was at the bottom becomes the top card. "
         "`top`: each card turns in place, so the Flip card just played stays on top, on its other "
         "side. Either way the new top card has no effect, its colour is the colour in force, and a "
         "wild top card's colour is named by the player of the Flip card. One-sided decks never flip.",
         group=G_TURN),
)

BY_NAME: dict[str, Knob] = {k.name: k for k in KNOBS}
NAMES: tuple[str, ...] = tuple(BY_NAME)
DEFAULTS: dict[str, Any] = {k.name: k.default for k in KNOBS}
CHOICES: dict[str, tuple[str, ...]] = {k.name: k.choices for k in KNOBS if k.choices}

# The kernel's rule array: kernel knob i at index i (a word as its position in `values`; a
# probability as a fixed-point threshold out of 2**32). The engine reads `K.<knob name>`, a
# module-level namedtuple of plain ints that numba folds into constants. Knobs with
# `kernel=False` (the deck) are not in it.
KERNEL_KNOBS: tuple[Knob, ...] = tuple(k for k in KNOBS if k.kernel)
KERNEL_NAMES: tuple[str, ...] = tuple(k.name for k in KERNEL_KNOBS)
INDEX: dict[str, int] = {name: i for i, name in enumerate(KERNEL_NAMES)}
K = namedtuple("KnobIndex", KERNEL_NAMES)(*range(len(KERNEL_NAMES)))
N_KNOBS = len(KERNEL_KNOBS)


def _check_table() -> None:
    for k in KNOBS:
        assert k.meaning and "\n" not in k.meaning, f"knob {k.name}: one-line meaning"
        if k.choices:
            assert k.default == k.choices[0], f"knob {k.name}: default first"
        elif k.values is bool:
            assert isinstance(k.default, bool), k.name
        else:
            assert k.low is not None and k.high is not None, f"knob {k.name}: bounds"
            assert k.low <= k.default <= k.high, f"knob {k.name}: default within bounds"
    assert len(BY_NAME) == len(KNOBS), "knob names are unique"


_check_table()
