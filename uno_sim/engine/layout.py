"""Integer layouts shared by the kernel and the Python side: the per-game and per-match record
columns, trace event codes, bot codes and parameters, fixed-point probabilities.

Plain Python (no numba, no numpy), so the command line can read it without compiling
anything. Every list of names is written once; offsets and codes are derived from it, and
the engine reads them as plain ints (module constants or namedtuple fields) that numba folds.
The rule knobs and their indices live in uno_sim/game/knobs.py (`K`).
"""

from __future__ import annotations

from ..game.bots import BOT_NAMES, BOT_PARAMS, INFERS, SEES
from ..game.decks import MAX_FACES, N_COLORS
from ..game.knobs import MAX_PLAYERS, N_KNOBS
from ..game.packing import ONE, enum, fixed_point  # noqa: F401  (the engine reads them from here)


class Blocks:
    """Named blocks laid end to end: `block(name, size)` returns the next free offset.

    Offsets are derived from the order and sizes, so two blocks cannot overlap; `check()`
    proves it again at import time for the layouts built here."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.size = 0
        self.blocks: list[tuple[str, int, int]] = []  # (name, offset, size)

    def block(self, name: str, size: int = 1) -> int:
        if size < 1:
            raise ValueError(f"{self.what}: block {name!r} has size {size}")
        if name in self.offsets():
            raise ValueError(f"{self.what}: block {name!r} declared twice")
        offset = self.size
        self.blocks.append((name, offset, size))
        self.size += size
        return offset

    def offsets(self) -> dict[str, int]:
        return {name: offset for name, offset, _ in self.blocks}

    def check(self) -> None:
        end = 0
        for name, offset, size in self.blocks:
            assert offset == end, f"{self.what}: block {name!r} at {offset} overlaps or leaves a gap (expected {end})"
            end = offset + size
        assert end == self.size, f"{self.what}: size {self.size} != end of the last block {end}"


# ---------------------------------------------------------------- per-game record (int64)
# The record row a round leaves behind. Names are the per-game quantities (records.py names the
# per-game CSV columns, stats.py the histogrammed ones, both by these names).
RECORD = Blocks("record")
COL_WINNER = RECORD.block("winner")  # seat, -1 when nobody won
COL_REASON = RECORD.block("reason")  # a REASON code
COL_TURNS = RECORD.block("turns")
COL_PLAYS = RECORD.block("plays")
COL_DRAWS = RECORD.block("draws")
COL_RESHUFFLES = RECORD.block("reshuffles")
COL_MAX_PENDING = RECORD.block("max_pending")
COL_CHALLENGES = RECORD.block("challenges")
COL_WINNER_POINTS = RECORD.block("winner_points")
COL_CHALLENGES_WON = RECORD.block("challenges_won")  # challenges that found the Wild Draw Four guilty
COL_JUMPS = RECORD.block("jumps")
COL_SWAPS = RECORD.block("swaps")
COL_ROTATIONS = RECORD.block("rotations")
COL_UNO_CAUGHT = RECORD.block("uno_caught")
COL_LEAD = RECORD.block("lead")  # face of the accepted lead card (-1 if none)
COL_PENALTY_DRAWN = RECORD.block("penalty_drawn")  # cards drawn as Draw Two/Four penalties in total
COL_STACKS = RECORD.block("stacks")  # draw cards added onto an already pending penalty
COL_WINNER_BOT = RECORD.block("winner_bot")  # the winner's bot slot (= winner unless seats rotate)
COL_SUM_JUMPS = RECORD.block("sum_jumps")  # sum jump-ins (also counted in jumps)
COL_HAND_SUM_WINS = RECORD.block("hand_sum_wins")  # players who went out by a hand-sum claim
COL_WILD_SWAPS = RECORD.block("wild_swaps")  # Wilds played as a 3-card swap
COL_UNO_CATCHERS = RECORD.block("uno_catchers")  # catchers of forgotten UNO calls, summed over the calls
COL_KNOCKOUTS = RECORD.block("knockouts")  # players knocked out by the mercy rule (mercy_limit)
COL_MERCY_WIN = RECORD.block("mercy_win")  # 1 when the winner won by being the last player left after knockouts
COL_ROULETTE_CARDS = RECORD.block("roulette_cards")  # cards turned up by roulette victims
COL_HAND_SHUFFLES = RECORD.block("hand_shuffles")  # shuffle_hands cards resolved
COL_FLIPS = RECORD.block("flips")  # two-sided decks: Flip cards played, or turned up as the lead
COL_SIDE = RECORD.block("side")  # two-sided decks: the side in play at the end, 0 light, 1 dark
COL_DRAW_COLOR_CARDS = RECORD.block("draw_color_cards")  # cards turned up by draw_color victims (challenges included)
COL_POINTS = RECORD.block("points", MAX_PLAYERS)  # + seat: hand points at the end
COL_CARDS = RECORD.block("cards", MAX_PLAYERS)  # + seat: cards in hand at the end
N_COLS = RECORD.size
RECORD_COLUMN = RECORD.offsets()

REASONS = ("out", "void", "stall", "cap")
REASON = enum("Reason", REASONS)

# ---------------------------------------------------------------- trace events (int64 buffer)
# Each event is [code, length of payload, payload...]; trace.py decodes them.
EV_DEAL = 1  # payload: dealer, then for each seat: count, faces...; then pile count, faces (top first)
EV_LEAD = 2  # card
EV_RETURN = 3  # card, pile count, faces (top first)
EV_CHOOSE = 4  # p, color
EV_PLAY = 5  # p, color, n, faces...
EV_JUMP = 6  # p, color, card
EV_DRAW = 7  # p, why, n, faces...
EV_RESHUFFLE = 8  # pile count, faces (top first)
EV_CHALLENGE = 9  # p, target, guilty
EV_SWAP = 10  # p, with
EV_ROTATE = 11  # (no payload)
EV_UNO = 12  # p
EV_CAUGHT = 13  # p
EV_OUT = 14  # p, place
EV_END = 15  # the record is decoded from the record row instead
EV_SUM_JUMP = 16  # p, color, sum, faces... (bottom first, last on top)
EV_HAND_SUM = 17  # p, place (0 under first_out), faces... (the hand laid down)
EV_PLAY_SWAP = 18  # p, color (unchanged), card: a Wild played as a swap
EV_SWAP3 = 19  # p, with, k, gave (k faces), got (k faces)
EV_CAUGHT_BY = 20  # p, catchers... (uno_catchers = each)
# (codes 30+: the cards of other decks, docs/RULES.md "Decks and your own cards"; 21-29: the mercy rule and roulette)
EV_PLAY_DISCARD = 30  # p, color, k, faces (k, last on top), then the cards a Discard All took down
EV_JUMP_DISCARD = 31  # p, color, card, then the cards a jumped-in Discard All took down
EV_KNOCKOUT = 21  # p, cards, place (0 under first_out)
EV_ROULETTE = 22  # p, color
EV_SHUFFLE = 23  # p, then for each seat: count, faces...
# (codes 40+: two-sided decks, where every card in an event is a physical card, engine/sides.py)
EV_FLIP = 40  # p (-1: the lead), side (0 light, 1 dark), the new top card
EV_PAIRING = 41  # right after the deal: deck size, then each physical card's dark face (the light face is card i's)

WHYS = ("turn", "penalty", "challenge", "uno", "lead", "roulette", "draw_color")
WHY = enum("Why", WHYS)

# ---------------------------------------------------------------- bots
# The bot table (names, parameters, choices) lives in uno_sim/game/bots.py; the codes are positions.
BOT = enum("BotCode", BOT_NAMES)


def plays_search(bot_codes) -> bool:
    """A seat plays the search bot: its games are played by the search kernel
    (batch._play_games_searching), which keeps the turns the table saw (state.O_KEEP_TURNS)."""
    return any(int(code) == BOT.search for code in bot_codes)
# Bot parameters: one int64 row per seat (game/bots.py packs them: probabilities as fixed point,
# whole numbers as they are, choices as the index of the choice).
BP = enum("BotParam", BOT_PARAMS)
N_BOT_PARAMS = len(BOT_PARAMS)
SEE = enum("Sees", SEES)  # the search's `sees` (SEE.fair; the measurement cheats SEE.all, SEE.hands)
INFER = enum("Infers", INFERS)  # what a fair search infers the hidden hands from (INFER.draws, INFER.plays, INFER.history)

# ---------------------------------------------------------------- per-match record (int64)
# A "side" is a seat, or a team (seat % teams) when teams are on; with seats rotated
# (--rotate-seats) a player (the bot slot). Totals are per side.
MATCH_RECORD = Blocks("match record")
M_WINNER = MATCH_RECORD.block("winner")  # winning side; -1 if the match hit the round limit; M_TIE for a shared win
M_ROUNDS = MATCH_RECORD.block("rounds")
M_FIRST_DEALER = MATCH_RECORD.block("first_dealer")  # the first dealer's seat; its player with seats rotated
M_COMEBACK = MATCH_RECORD.block("comeback")  # 1 when the winner trailed after half the rounds (rounds // 2)
M_MARGIN = MATCH_RECORD.block("margin")  # winner's total minus the runner-up's (loser_penalty: the reverse)
M_TURNS = MATCH_RECORD.block("turns")  # summed over the match's rounds
M_PLAYS = MATCH_RECORD.block("plays")
M_DRAWS = MATCH_RECORD.block("draws")
M_NO_WINNER_ROUNDS = MATCH_RECORD.block("no_winner_rounds")
M_TOTALS = MATCH_RECORD.block("totals", MAX_PLAYERS)  # + side: final totals
M_ROUND_WINS = MATCH_RECORD.block("round_wins", MAX_PLAYERS)  # + seat (player, seats rotated): rounds won
M_TIED = MATCH_RECORD.block("tied")  # M_WINNER == M_TIE: bit s set for each side sharing the win
M_LOSER = MATCH_RECORD.block("loser")  # loser_penalty: the side with the highest total; -1 none; M_TIE shared
M_LOSER_TIED = MATCH_RECORD.block("loser_tied")  # M_LOSER == M_TIE: bit s set for each side sharing the loss
N_MATCH_COLS = MATCH_RECORD.size
MAX_MATCH_ROUNDS = 10000  # a match still undecided after this many rounds ends with no winner
M_TIE = -2  # M_WINNER / M_LOSER of a match whose sides tied: the tied sides are in the bit mask

# ---------------------------------------------------------------- seats played from Python
# A seat played by a Python policy (engine/bots/external.py, uno_sim/env/) answers the engine's
# questions from a tape of actions; when the tape runs out the engine writes the question, the
# legal actions and the observation below, and stops. docs/BOTS.md ("Your own bot in Python")
# documents both for users.
QUESTIONS = ("turn", "answer", "color", "roulette_color", "play_drawn", "challenge", "jump_in", "wild_swap",
             "swap_card", "swap_target", "extra_card", "jump_card")
QUESTION = enum("Question", QUESTIONS)  # codes 0..; the output block holds code + 1 (0: no question)

# The fixed action space: one action per face (play it, answer with it, give it away), per
# colour, per other seat (k seats after you in seat order), then "no" (draw, accept the
# penalty, keep the drawn card, do not challenge / jump in / swap, no more cards in a
# multi-play) and "yes" (also: the cards chosen for a jump-in are the move).
A_FACE = 0
A_COLOR = MAX_FACES
A_SEAT = A_COLOR + N_COLORS  # A_SEAT + k: the seat k places after you (k = 1 .. players - 1)
A_NO = A_SEAT + MAX_PLAYERS
A_YES = A_NO + 1
N_ACTIONS = A_YES + 1

# The observation (int64), what the asked seat may know; seats are relative: entry k of a
# per-seat block is the seat k places after the observer in seat order (k = 0: itself).
OBS = Blocks("observation")
OB_QUESTION = OBS.block("question")  # QUESTION code
OB_SEAT = OBS.block("seat")  # the observer's own seat
OB_ARG = OBS.block("argument")  # play_drawn / jump_in: the face; challenge: k of the player challenged;
# extra_card: the card on top of the multi-play so far; jump_card: the card on top of the
# jump-in move so far, -1 before its first card; else -1
OB_PLAYERS = OBS.block("players")
OB_TOP = OBS.block("top")  # face on top of the discard pile
OB_COLOR = OBS.block("color")  # the colour in force
OB_PENDING = OBS.block("pending")  # cards a pending penalty would make the victim draw
OB_DIRECTION = OBS.block("direction")  # +1 in seat order, -1 against it
OB_PILE = OBS.block("pile")  # cards in the draw pile
OB_TURNS = OBS.block("turns")  # turns taken so far in the round
OB_HAND = OBS.block("hand", MAX_FACES)  # + face: copies of that face in the observer's hand
OB_SIZES = OBS.block("hand_sizes", MAX_PLAYERS)  # + k: cards in hand
OB_PLACES = OBS.block("places", MAX_PLAYERS)  # + k: finishing place, 0 while in the round
OB_VOIDS = OBS.block("voids", MAX_PLAYERS)  # + k: bit c set when seen to lack colour c (drew and passed)
OB_DISCARD = OBS.block("discard", MAX_FACES)  # + face: copies in the discard pile (played since the last reshuffle)
OB_RULES = OBS.block("rules", N_KNOBS)  # + i: the value of kernel knob i (game/knobs.py KERNEL_NAMES), as the engine reads it
# jump_card: + face: the moves still possible whose lowest card still to choose (face order) is
# that face (with 1 for the cards chosen so far when they are a move, these add up to the moves
# still possible); 0 at every other question
OB_MOVES = OBS.block("moves", MAX_FACES)
# Two-sided decks (UNO Flip; after the blocks above, which keep their meaning on every deck: the
# faces of the hand, top card, discard pile, arguments and moves are those of the side in play,
# the colours its colours). On a one-sided deck: side 0, pile_back -1, backs all 0.
OB_SIDE = OBS.block("side")  # the side in play: 0 light, 1 dark
OB_PILE_BACK = OBS.block("pile_back")  # the other side's face of the draw pile's top card (-1: empty pile)
# + k * MAX_FACES + face: copies of that face of the other side among the cards of the player k
# seats after you (the backs face outwards: what you see of their hands); k = 0, your own, is 0
OB_BACKS = OBS.block("backs", MAX_PLAYERS * MAX_FACES)
N_OBS = OBS.size

RECORD.check()
MATCH_RECORD.check()
OBS.check()
