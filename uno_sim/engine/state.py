"""The layout of one game: a single flat int64 array `g`.

Everything a round needs lives in `g` at the offsets below: the configuration (rules, seat
bots and their parameters), the generator state, the scalar state, the hands as count
vectors over the 54 faces, the piles, work space, the record row and (when tracing) the
event buffer. One array per call keeps numba's per-argument reference counting off the hot
path (a tuple of a dozen arrays cost ~2 us per turn), and it is the pgx/OpenSpiel habit of a
game state as plain arrays.

Probabilities (uno_catch, bot parameters) are stored as fixed-point thresholds out of 2**32,
so a chance is one integer comparison on the generator's high 32 bits.
"""

import numpy as np

from .layout import MAX_PLAYERS, N_BOT_PARAMS, N_COLS, N_RULE_INTS

N_FACES = 54
DECK = 108
ONE = 1 << 32  # probability 1 in fixed point

# ---- configuration block (copied once per block of games)
O_UNO_CATCH = N_RULE_INTS  # rule ints sit at 0 .. N_RULE_INTS, indexed by layout.R_*
O_CAPACITY = N_RULE_INTS + 1  # length of this game's array (the trace buffer ends there)
O_BOTS = 40  # bot code per seat
O_PARAMS = O_BOTS + MAX_PLAYERS  # seat * N_BOT_PARAMS + BP_*, fixed point
N_CONFIG = O_PARAMS + MAX_PLAYERS * N_BOT_PARAMS

# ---- generator state (xoshiro256**, 4 words)
O_RNG = N_CONFIG

# ---- scalar state
_S = O_RNG + 4
S_DIR = _S + 0  # +1 clockwise (increasing seat), -1 counter-clockwise
S_COLOR = _S + 1  # current colour 0..3
S_PENDING = _S + 2  # pending penalty P (stacking)
S_PKIND = _S + 3  # last draw card of the pending chain: 0 none, 2 Draw Two, 4 Wild Draw Four
S_CHAL_OK = _S + 4  # the victim may challenge the Wild Draw Four that started the chain
S_CHAL_PLAYER = _S + 5  # who played it
S_CHAL_GUILTY = _S + 6  # was it guilty when played
S_NEXT = _S + 7  # who takes the next regular turn (the victim while a penalty is pending)
S_NACTIVE = _S + 8  # players still in the round
S_ENDED = _S + 9  # the round is over
S_ACTIVITY = _S + 10  # a card was played or drawn during the current turn
S_NEXT_PLACE = _S + 11  # next finishing place (last_standing)
S_DRAW_OPEN = _S + 12  # trace position of the draw event being written, -1 if none
S_DRAW_WROTE = _S + 13  # the current draw obligation has written an event
S_TRACING = _S + 14
S_TPOS = _S + 15  # trace write position (absolute index into g)
S_OVERFLOW = _S + 16  # the trace buffer was too small
S_NPILE = _S + 17
S_NDISC = _S + 18
S_PLAYERS = _S + 19
S_JUMP_RUN = _S + 20  # consecutive jump-ins since the last regular turn
S_LAST_DRAWN = _S + 21  # last face drawn by the current draw obligation (-1 if none)
S_NPLAYED = _S + 22  # cards in the play being resolved (faces at O_PLAYED)
S_IDLE = _S + 23  # consecutive turns in which no card was played or drawn
S_PREV_COLOR = _S + 24  # the colour current before the last play (bots judge a Wild Draw Four by it)
N_STATE = 25

O_REC = _S + N_STATE  # the record row, layout.COL_* relative to it
O_HANDS = O_REC + N_COLS  # seat * 54 + face
O_HSIZE = O_HANDS + MAX_PLAYERS * N_FACES
O_PLACE = O_HSIZE + MAX_PLAYERS  # 0 while in the round, else finishing place
O_PILE = O_PLACE + MAX_PLAYERS  # draw pile, top at O_PILE + npile - 1
O_DISC = O_PILE + DECK  # discard pile, top at O_DISC + ndisc - 1
O_PLAYED = O_DISC + DECK  # the cards of the play being resolved
O_WORK = O_PLAYED + DECK  # work space: jump-in candidates, hand sizes
O_WORK_HANDS = O_WORK + 2 * MAX_PLAYERS + 4  # work space for a rotation
O_TRACE = O_WORK_HANDS + MAX_PLAYERS * N_FACES  # event buffer to the end of g
N_GAME = O_TRACE


def fixed_point(prob: float) -> int:
    """A probability in [0, 1] as a threshold out of 2**32."""
    return int(round(float(prob) * ONE))


def make_config(ri: np.ndarray, rf: np.ndarray, bot_codes: np.ndarray, bot_params: np.ndarray) -> np.ndarray:
    """The configuration block (int64[N_CONFIG]) from the packed rules and bots."""
    from .layout import BP_JUMP_IN_PROB, RF_UNO_CATCH

    config = np.zeros(N_CONFIG, dtype=np.int64)
    config[:N_RULE_INTS] = ri
    config[O_UNO_CATCH] = fixed_point(rf[RF_UNO_CATCH])
    players = len(bot_codes)
    config[O_BOTS : O_BOTS + players] = bot_codes
    for seat in range(MAX_PLAYERS):
        for k in range(N_BOT_PARAMS):
            if seat < players:
                config[O_PARAMS + seat * N_BOT_PARAMS + k] = fixed_point(bot_params[seat, k])
            elif k == BP_JUMP_IN_PROB:
                config[O_PARAMS + seat * N_BOT_PARAMS + k] = ONE
    return config
