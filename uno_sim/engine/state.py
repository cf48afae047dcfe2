"""The layout of one game: a single flat int64 array `g`.

Everything a round needs lives in `g`, in the blocks declared below in order: the
configuration (rules, seat bots and their parameters), the generator state, the scalar
state, the record row, the hands as count vectors over the 54 faces, the piles, work space
and (when tracing) the event buffer to the end of the array. Offsets are derived from the
(name, size) declarations (layout.Blocks), so no two blocks can overlap. One array per call
keeps numba's per-argument reference counting off the hot path (a tuple of a dozen arrays
cost ~2 us per turn), and it is the pgx/OpenSpiel habit of a game state as plain arrays.

Probabilities (uno_catch, bot parameters) are stored as fixed-point thresholds out of 2**32
(layout.fixed_point), so a chance is one integer comparison.
"""

import numpy as np

from ..game.cards import DECK_SIZE as DECK
from ..game.cards import N_FACES
from ..game.knobs import MAX_PLAYERS, N_KNOBS
from .layout import N_BOT_PARAMS, N_COLS, Blocks

GAME = Blocks("game array")

# ---- configuration block (copied once per block of games)
O_RULES = GAME.block("rules", N_KNOBS)  # knob i at O_RULES + i: read as g[K.<knob>] (O_RULES is 0)
O_CAPACITY = GAME.block("capacity")  # length of this game's array (the trace buffer ends there)
O_BOTS = GAME.block("bots", MAX_PLAYERS)  # bot code per seat
O_PARAMS = GAME.block("bot_params", MAX_PLAYERS * N_BOT_PARAMS)  # seat * N_BOT_PARAMS + BP.<param>
N_CONFIG = GAME.size

# ---- generator state (xoshiro256**, 4 words)
O_RNG = GAME.block("rng", 4)

# ---- scalar state (cleared at the start of every round)
S_DIR = GAME.block("dir")  # +1 clockwise (increasing seat), -1 counter-clockwise
S_COLOR = GAME.block("color")  # current colour 0..3
S_PENDING = GAME.block("pending")  # pending penalty P (stacking)
S_PKIND = GAME.block("pending_kind")  # last draw card of the pending chain: 0 none, 2 Draw Two, 4 Wild Draw Four
S_CHAL_OK = GAME.block("challenge_ok")  # the victim may challenge the Wild Draw Four that started the chain
S_CHAL_PLAYER = GAME.block("challenge_player")  # who played it
S_CHAL_GUILTY = GAME.block("challenge_guilty")  # was it guilty when played
S_NEXT = GAME.block("next")  # who takes the next regular turn (the victim while a penalty is pending)
S_NACTIVE = GAME.block("active")  # players still in the round
S_ENDED = GAME.block("ended")  # the round is over
S_ACTIVITY = GAME.block("activity")  # a card was played or drawn during the current turn
S_NEXT_PLACE = GAME.block("next_place")  # next finishing place (last_standing)
S_DRAW_OPEN = GAME.block("draw_open")  # trace position of the draw event being written, -1 if none
S_DRAW_WROTE = GAME.block("draw_wrote")  # the current draw obligation has written an event
S_TRACING = GAME.block("tracing")
S_TPOS = GAME.block("trace_pos")  # trace write position (absolute index into g)
S_OVERFLOW = GAME.block("overflow")  # the trace buffer was too small
S_NPILE = GAME.block("pile_size")
S_NDISC = GAME.block("discard_size")
S_PLAYERS = GAME.block("players")
S_JUMP_RUN = GAME.block("jump_run")  # consecutive jump-ins since the last regular turn
S_LAST_DRAWN = GAME.block("last_drawn")  # last face drawn by the current draw obligation (-1 if none)
S_NPLAYED = GAME.block("played_size")  # cards in the play being resolved (faces at O_PLAYED)
S_IDLE = GAME.block("idle")  # consecutive turns in which no card was played or drawn
S_PREV_COLOR = GAME.block("prev_color")  # the colour current before the last play (bots judge a Wild Draw Four by it)
S_SET_COLORS = GAME.block("set_colors")  # sum set in force (sum_jump_in): bit c for each colour in it; 0: no set
S_SET_NUMS = GAME.block("set_numbers")  # bit n for each number in the sum set in force
S_SET_FACES = GAME.block("set_faces")  # bit f for each face in the sum set in force
S_WILD_SWAP = GAME.block("wild_swap")  # the Wild being resolved is played as a swap (wild_swap)
S_PLAN = GAME.block("plan")  # a search bot's planned move for this turn: face + 2 (1: draw / accept), 0 none
S_PLAN_COLOR = GAME.block("plan_color")  # the colour it names with a planned wild card + 1, 0 none
S_PLAN_SEAT = GAME.block("plan_seat")  # the seat the plan is for
O_VOIDS = GAME.block("voids", MAX_PLAYERS)  # colours (bit c) a seat was seen not to hold: drew and passed (bots/search.py)

# ---- the record row (layout.COL_* relative to it), hands, piles, work space
O_REC = GAME.block("record", N_COLS)
O_HANDS = GAME.block("hands", MAX_PLAYERS * N_FACES)  # seat * 54 + face
O_HSIZE = GAME.block("hand_sizes", MAX_PLAYERS)
O_PLACE = GAME.block("places", MAX_PLAYERS)  # 0 while in the round, else finishing place
O_PILE = GAME.block("pile", DECK)  # draw pile, top at O_PILE + npile - 1
O_DISC = GAME.block("discard", DECK)  # discard pile, top at O_DISC + ndisc - 1
O_PLAYED = GAME.block("played", DECK)  # the cards of the play being resolved
O_WORK = GAME.block("work", 2 * MAX_PLAYERS + 4)  # work space: jump-in candidates, hand sizes
O_WORK_HANDS = GAME.block("work_hands", MAX_PLAYERS * N_FACES)  # work space for a rotation
N_SUM_FACES = 40  # number faces (4 colours x 0-9)
O_SUM_FACES = GAME.block("sum_faces", N_SUM_FACES)  # work space: the faces a sum set may use
O_SUM_AVAIL = GAME.block("sum_avail", N_SUM_FACES)  # how many of each the player holds
O_SUM_TAKE = GAME.block("sum_take", N_SUM_FACES)  # how many of each the set being enumerated takes
O_SUM_REST = GAME.block("sum_rest", N_SUM_FACES + 1)  # the most the faces from here on can add
O_SWAP3 = GAME.block("swap3", 6)  # work space of a Wild swap: the cards given, then the cards got
O_CATCHERS = GAME.block("catchers", MAX_PLAYERS)  # work space: who caught a forgotten UNO call (uno_catchers = each)
# What each hand can do with sums (sum_jump_in, hand_sum_win), kept per seat and recomputed only
# after the hand changed: every change to a hand must mark its seat's entry stale
# (sumsets.stale: a zero at O_SUM_CACHE + seat * SUM_CACHE_WIDTH). Layout: sumsets.C_*.
SUM_CACHE_WIDTH = 7
O_SUM_CACHE = GAME.block("sum_cache", MAX_PLAYERS * SUM_CACHE_WIDTH)
O_TRACE = GAME.size  # event buffer from here to the end of g (its length is g[O_CAPACITY])
N_GAME = O_TRACE

GAME.check()
assert O_RULES == 0, "the engine reads knob i at g[i]"


def make_config(rules: np.ndarray, bot_codes: np.ndarray, bot_params: np.ndarray) -> np.ndarray:
    """The configuration block (int64[N_CONFIG]) from the packed rules (Rules.pack) and bots
    (bots.pack_bots: codes, and parameters already in fixed point)."""
    config = np.zeros(N_CONFIG, dtype=np.int64)
    config[O_RULES : O_RULES + N_KNOBS] = rules
    players = len(bot_codes)
    config[O_BOTS : O_BOTS + players] = bot_codes
    config[O_PARAMS : O_PARAMS + players * N_BOT_PARAMS] = np.asarray(bot_params, dtype=np.int64).reshape(-1)
    return config
