"""Integer layouts shared by the kernel and the Python side: rule array indices, per-game
record columns, trace event codes, bot codes. Plain module constants, so numba folds them.
"""

# ---------------------------------------------------------------- rule array (int64)
R_PLAYERS = 0
R_HAND_SIZE = 1
R_FIRST_CARD = 2  # 0 official, 1 number
R_LEAD_D2_SKIPS = 3
R_LEAD_REVERSE = 4  # 0 dealer, 1 right, 2 left
R_WD4_RULE = 5  # 0 no_color, 1 no_match, 2 free
R_CHALLENGE = 6
R_CHALLENGE_EXTRA = 7
R_CHALLENGE_WIN_PLAYS = 8
R_DRAW_RULE = 9  # 0 one, 1 until_playable
R_PLAY_DRAWN = 10  # 0 any, 1 numbers, 2 none
R_VOLUNTARY_DRAW = 11
R_TWO_PLAYER_REVERSE = 12  # 0 skip, 1 noop
R_STACK_D2 = 13
R_STACK_D4 = 14
R_STACK_4_ON_2 = 15
R_STACK_2_ON_4 = 16
R_DEFLECT = 17
R_JUMP_IN = 18
R_MULTI_PLAY = 19  # 0 off, 1 identical, 2 same_symbol
R_MULTI_SKIP = 20  # 0 each, 1 once
R_SEVEN_SWAP = 21
R_ZERO_ROTATE = 22
R_NUMBER_FINISH = 23
R_LAST_CARD_PENALTY = 24
R_UNO_PENALTY = 25
R_EMPTY_PILE = 26  # 0 reshuffle, 1 void
R_ZERO_POINTS = 27
R_MODE = 28  # 0 first_out, 1 last_standing
R_TEAMS = 29
R_TARGET = 30
R_MATCH_SCORING = 31  # 0 winner_takes, 1 loser_penalty
R_NEXT_DEALER = 32  # 0 left, 1 winner
R_MAX_TURNS = 33
N_RULE_INTS = 34

RULE_INDEX = {
    "players": R_PLAYERS,
    "hand_size": R_HAND_SIZE,
    "first_card": R_FIRST_CARD,
    "lead_draw_two_skips": R_LEAD_D2_SKIPS,
    "lead_reverse": R_LEAD_REVERSE,
    "wd4_rule": R_WD4_RULE,
    "challenge": R_CHALLENGE,
    "challenge_extra": R_CHALLENGE_EXTRA,
    "challenge_win_plays": R_CHALLENGE_WIN_PLAYS,
    "draw_rule": R_DRAW_RULE,
    "play_drawn": R_PLAY_DRAWN,
    "voluntary_draw": R_VOLUNTARY_DRAW,
    "two_player_reverse": R_TWO_PLAYER_REVERSE,
    "stack_draw_two": R_STACK_D2,
    "stack_draw_four": R_STACK_D4,
    "stack_four_on_two": R_STACK_4_ON_2,
    "stack_two_on_four": R_STACK_2_ON_4,
    "deflect": R_DEFLECT,
    "jump_in": R_JUMP_IN,
    "multi_play": R_MULTI_PLAY,
    "multi_skip": R_MULTI_SKIP,
    "seven_swap": R_SEVEN_SWAP,
    "zero_rotate": R_ZERO_ROTATE,
    "number_finish": R_NUMBER_FINISH,
    "last_card_penalty": R_LAST_CARD_PENALTY,
    "uno_penalty": R_UNO_PENALTY,
    "empty_pile": R_EMPTY_PILE,
    "zero_points": R_ZERO_POINTS,
    "mode": R_MODE,
    "teams": R_TEAMS,
    "target": R_TARGET,
    "match_scoring": R_MATCH_SCORING,
    "next_dealer": R_NEXT_DEALER,
    "max_turns": R_MAX_TURNS,
}

# rule array (float64)
RF_UNO_CATCH = 0
N_RULE_FLOATS = 1

# ---------------------------------------------------------------- per-game record (int64)
# Fixed columns, then points_i at COL_POINTS + i and cards_i at COL_CARDS + i (10 seats max).
COL_WINNER = 0
COL_REASON = 1  # REASON_* below
COL_TURNS = 2
COL_PLAYS = 3
COL_DRAWS = 4
COL_RESHUFFLES = 5
COL_MAX_PENDING = 6
COL_CHALLENGES = 7
COL_WINNER_POINTS = 8
COL_CHALLENGES_WON = 9  # challenges that found the Wild Draw Four guilty
COL_JUMPS = 10
COL_SWAPS = 11
COL_ROTATES = 12
COL_UNO_CAUGHT = 13
COL_LEAD = 14  # face of the accepted lead card (-1 if none)
COL_PENALTY_DRAWN = 15  # cards drawn as Draw Two/Four penalties in total
COL_STACKS = 16  # draw cards added onto an already pending penalty
COL_WINNER_BOT = 17  # the winner's bot slot (index into the --bots list; = winner unless seats rotate)
COL_POINTS = 20
COL_CARDS = 30
N_COLS = 40
MAX_PLAYERS = 10

REASON_OUT = 0
REASON_VOID = 1
REASON_STALL = 2
REASON_CAP = 3
REASONS = ("out", "void", "stall", "cap")

# ---------------------------------------------------------------- trace events (int32 buffer)
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

WHY_TURN = 0
WHY_PENALTY = 1
WHY_CHALLENGE = 2
WHY_UNO = 3
WHY_LEAD = 4
WHYS = ("turn", "penalty", "challenge", "uno", "lead")

# ---------------------------------------------------------------- bots
BOT_RANDOM = 0
BOT_GREEDY = 1
BOT_EXPERT = 2
BOT_BLUFFER = 3

# bot parameter array (float64, one row per seat)
BP_FORGET_UNO = 0
BP_CHALLENGE_PROB = 1
BP_BLUFF_PROB = 2
BP_JUMP_IN_PROB = 3
N_BOT_PARAMS = 4

# ---------------------------------------------------------------- per-match record (int64)
# A "side" is a seat, or a team (seat % teams) when teams are on; with seats rotated
# (--rotate-seats) a player (the bot slot). Totals are per side.
M_WINNER = 0  # winning side, -1 if the match hit the round limit
M_ROUNDS = 1
M_FIRST_DEALER = 2  # the first dealer's seat; its player with seats rotated
M_COMEBACK = 3  # 1 when the winner trailed after half the rounds (rounds // 2)
M_MARGIN = 4  # final total of the winner minus the runner-up's (loser_penalty: runner-up minus winner)
M_TURNS = 5  # summed over the match's rounds
M_PLAYS = 6
M_DRAWS = 7
M_NO_WINNER_ROUNDS = 8
M_TOTALS = 10  # + side: final totals
M_ROUND_WINS = 20  # + seat (the player with seats rotated): rounds won
N_MATCH_COLS = 30
MAX_MATCH_ROUNDS = 10000  # a match still undecided after this many rounds ends with no winner
