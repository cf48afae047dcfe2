"""The layout of one game: a single flat int64 array `g`.

Everything a round needs lives in `g`, in the blocks declared below in order: the
configuration (rules, seat bots and their parameters), the generator state, the scalar
state, the record row, the hands as count vectors over the faces, the piles, work space
and (when tracing) the event buffer to the end of the array.

The deck is data in the configuration block: its face table (game/decks.py), one column per
property of a face, each MAX_FACES + 1 long, and the counts the engine needs (faces,
coloured kinds, wild kinds, cards). engine/access.py reads them through small named
accessors (color_of, number_of, draw_of, ...). Blocks are sized by the limits of
game/decks.py (MAX_FACES faces, MAX_DECK_SIZE cards), so one compiled engine serves every
deck that fits them; docs/ARCHITECTURE.md ("Cards as data in the engine") has the
measurements behind that choice. A hand is a count vector of HAND_WIDTH entries: the
deck's faces, then NO_FACE, a slot no card ever reaches (its count stays 0), which the
tables use for "no such face" so that a look-up needs no branch. Offsets are derived from the
(name, size) declarations (layout.Blocks), so no two blocks can overlap. One array per call
keeps numba's per-argument reference counting off the hot path (a tuple of a dozen arrays
cost ~2 us per turn), and it is the pgx/OpenSpiel habit of a game state as plain arrays.

Probabilities (uno_catch, bot parameters) are stored as fixed-point thresholds out of 2**32
(layout.fixed_point), so a chance is one integer comparison.
"""

import numpy as np

from ..game import decks
from ..game.decks import MAX_DECK_SIZE
from ..game.decks import MAX_FACES, N_COLORS
from ..game.knobs import K, MAX_PLAYERS, N_KNOBS
from .layout import N_BOT_PARAMS, N_COLS, Blocks, plays_search

GAME = Blocks("game array")

# ---- configuration block (copied once per block of games)
O_RULES = GAME.block("rules", N_KNOBS)  # knob i at O_RULES + i: read as g[K.<knob>] (O_RULES is 0)
O_CAPACITY = GAME.block("capacity")  # length of this game's array (the trace buffer ends there)
O_BOTS = GAME.block("bots", MAX_PLAYERS)  # bot code per seat
O_PARAMS = GAME.block("bot_params", MAX_PLAYERS * N_BOT_PARAMS)  # seat * N_BOT_PARAMS + BP.<param>

# ---- the deck (part of the configuration; read through engine/access.py)
HAND_WIDTH = MAX_FACES + 1  # a count vector: the faces, then NO_FACE
NO_FACE = MAX_FACES  # "no such face": every hand holds 0 of it
N_NUMBERS = 10  # number cards 0-9
N_ROLES = len(decks.ROLE_TEXTS) + 1  # the roles by text (decks.ROLE_*), ROLE_NONE included
PKIND_BY_VALUE = N_ROLES  # S_PKIND of a chain under stack_by_value (answers go by S_PDRAW, not by role)
O_DECK = GAME.block("deck_size")  # physical cards
O_N_FACES = GAME.block("faces")  # faces 0 .. faces - 1
O_N_COLORED = GAME.block("colored_kinds")  # coloured face = colour * colored_kinds + slot
O_N_COLORED_FACES = GAME.block("colored_faces")  # N_COLORS * colored_kinds: the first wild face
O_N_WILD = GAME.block("wild_kinds")  # wild faces colored_faces .. colored_faces + wild_kinds - 1
O_N_CANDIDATES = GAME.block("candidates")  # legal-move candidates: colored_kinds + 3 + wild_kinds (rules_check)
O_ZERO_CARDS = GAME.block("zero_cards")  # physical 0s (number 0)
O_ROLE_FACE = GAME.block("role_faces", N_ROLES * N_COLORS)  # role * N_COLORS + colour: its face (NO_FACE: none)
O_NUMBER_FACE = GAME.block("number_faces", N_COLORS * N_NUMBERS)  # colour * N_NUMBERS + number: its face (NO_FACE: none)
O_MOST_COPIES = GAME.block("most_copies", N_NUMBERS)  # copies of number v a sum set can use, any colours (sumsets)
O_SAME_COPIES = GAME.block("same_copies", N_NUMBERS)  # the same within one colour
O_CARDS = GAME.block("cards", MAX_DECK_SIZE)  # the deck's cards in face order (deck_size of them): a new deck
# per-face columns, HAND_WIDTH each (face f at + f): decks.FaceTable's columns, `slot`, the
# kind's place among the coloured kinds (-1 for a wild face), and `flags`, the yes/no facts
# of a face as bits (F_*), so that a decision asking several of them reads one word
FACE_COLUMNS = ("color", "slot", "number", "draw", "skip", "reverse", "restricted", "discard_color", "roulette",
                "swap_hands", "shuffle_hands", "points", "copies", "role", "lead", "flags", "flip", "draw_color",
                "lead_effect")
F_NUMBER, F_WILD, F_SKIPS, F_REVERSES, F_DRAWS, F_RESTRICTED = 1, 2, 4, 8, 16, 32
F_HAND_EFFECT = 64  # roulette, swap_hands, shuffle_hands, flip or draw_color: the rarer effects, asked after this bit
# Each column has one entry past the hand's faces, PLAYED_FACE: the face of a Flip card being
# resolved, copied there from its own side before the flip turns the tables over, so that the
# steps after the flip read what was played (docs/RULES.md, "Two-sided decks").
PLAYED_FACE = HAND_WIDTH
FACE_COLUMN_WIDTH = HAND_WIDTH + 1
O_FACE = {name: GAME.block(f"face_{name}", FACE_COLUMN_WIDTH) for name in FACE_COLUMNS}
O_F_COLOR, O_F_SLOT, O_F_NUMBER, O_F_DRAW, O_F_SKIP, O_F_REVERSE, O_F_RESTRICTED = (
    O_FACE[n] for n in ("color", "slot", "number", "draw", "skip", "reverse", "restricted"))
O_F_POINTS, O_F_COPIES, O_F_ROLE, O_F_LEAD, O_F_FLAGS = (O_FACE[n] for n in ("points", "copies", "role", "lead", "flags"))
O_F_DISCARD_COLOR = O_FACE["discard_color"]
O_F_FLIP, O_F_DRAW_COLOR, O_F_LEAD_EFFECT = O_FACE["flip"], O_FACE["draw_color"], O_FACE["lead_effect"]
O_DECK_END = GAME.size
# ---- two-sided decks (UNO Flip): the deck block above is the side in play; the other side's
# block waits here and the two change places at every flip (effects.flip_over)
O_TWO_SIDED = GAME.block("two_sided")  # 1: a two-sided deck (every card is a light and a dark face)
O_OTHER_SIDE = GAME.block("other_side", O_DECK_END - O_DECK)  # the other side's deck block
# ---- seats played from Python (engine/bots/external.py; all 0: none). The tape and the output
# block live past the trace buffer, at absolute positions in g.
O_EXT_SEATS = GAME.block("external_seats")  # bit p: seat p answers from the tape
O_EXT_TAPE = GAME.block("tape_at")  # index in g of the tape of actions
O_EXT_TAPE_LEN = GAME.block("tape_length")  # actions on the tape
O_EXT_OUT = GAME.block("question_at")  # index in g of the output block: layout.N_ACTIONS mask entries, then the observation
O_EXT_SNAP = GAME.block("snapshot_at")  # index in g of the turn-start snapshot block (engine/snapshots.py); 0: none
# 1 when a seat plays `search`: only then does play.py keep the turns every player saw (O_SEEN,
# engine/seen_plays.py), which nothing else reads (0 in the search's own rollouts too)
O_KEEP_TURNS = GAME.block("keep_turns")
N_CONFIG = GAME.size

# ---- generator state (xoshiro256**, 4 words)
O_RNG = GAME.block("rng", 4)

# ---- scalar state (cleared at the start of every round)
S_DIR = GAME.block("dir")  # +1 clockwise (increasing seat), -1 counter-clockwise
S_COLOR = GAME.block("color")  # current colour 0..3
S_PENDING = GAME.block("pending")  # pending penalty P (stacking)
S_PKIND = GAME.block("pending_kind")  # role of the last draw card of the pending chain: ROLE_NONE (0) none, ROLE_DRAW_TWO, ROLE_WILD_DRAW_FOUR
S_PDRAW = GAME.block("pending_draw")  # stack_by_value: the draw value of the last draw card of the pending chain
S_CHAL_OK = GAME.block("challenge_ok")  # the victim may challenge the Wild Draw Four that started the chain
S_CHAL_PLAYER = GAME.block("challenge_player")  # who played it
S_CHAL_GUILTY = GAME.block("challenge_guilty")  # was it guilty when played
S_CHAL_DRAW = GAME.block("challenge_draw")  # the draw value of the card that may be challenged
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
S_LAST_DRAWN_CARD = GAME.block("last_drawn_card")  # its physical card (two-sided decks)
S_PUT_CARD = GAME.block("put_card")  # two-sided decks: 1 + the drawn card play_cards puts down (0: none)
S_NPLAYED = GAME.block("played_size")  # cards in the play being resolved (faces at O_PLAYED)
S_IDLE = GAME.block("idle")  # consecutive turns in which no card was played or drawn
S_PREV_COLOR = GAME.block("prev_color")  # the colour current before the last play (bots judge a Wild Draw Four by it)
S_SET_COLORS = GAME.block("set_colors")  # sum set in force (sum_jump_in): bit c for each colour in it; 0: no set
S_SET_NUMS = GAME.block("set_numbers")  # bit n for each number in the sum set in force
S_SET_FACES = GAME.block("set_faces")  # bit colour * N_NUMBERS + number for each face in the sum set in force
S_WILD_SWAP = GAME.block("wild_swap")  # the Wild being resolved is played as a swap (wild_swap)
S_PLAN = GAME.block("plan")  # a search bot's planned move for this turn: face + 2 (1: draw / accept), 0 none
S_PLAN_COLOR = GAME.block("plan_color")  # the colour it names with a planned wild card + 1, 0 none
S_PLAN_SEAT = GAME.block("plan_seat")  # the seat the plan is for
S_NASIDE = GAME.block("aside_size")  # cards set aside by the mercy rule, waiting for the next reshuffle (O_ASIDE)
S_KNOCKED = GAME.block("knocked")  # bit q for each seat q knocked out by the mercy rule (mercy_limit)
S_COLOR_POS = GAME.block("color_pos")  # trace position of the colour of the play event being resolved, -1: none
S_EXT_CURSOR = GAME.block("tape_cursor")  # next action to read from the tape
S_EXT_STOPPED = GAME.block("tape_stopped")  # the tape ran out at a question: the round stopped there
S_SIDE = GAME.block("side")  # two-sided decks: 0 light, 1 dark in play
S_BY_COLOR = GAME.block("by_color")  # the draw under way stops at the colour in force (a draw_color challenge)
S_COLOR_EXTRA = GAME.block("color_extra")  # ... and then takes this many more (a failed challenger)
S_SWAP_PLAY = GAME.block("swap_play")  # the play being resolved is a Wild swap (its roulette names no colour)
S_FLIPPED = GAME.block("flipped")  # the play being resolved flipped everything (no jump-in window follows)
O_VOIDS = GAME.block("voids", MAX_PLAYERS)  # colours (bit c) a seat was seen not to hold: drew and passed (bots/search.py)
O_LACKS = GAME.block("lacks", MAX_PLAYERS)  # what a seat was seen to lack since it last took a card (LACK_*; play.py, bots/pro.py)
LACK_WILD = 4  # O_LACKS bits: 0-3 the colours, LACK_WILD every wild card, LACK_SLOT0 + s the kind in slot s, any colour
LACK_SLOT0 = 5
# Each seat's turns as every player saw them since its hand last changed in a way the table
# could not follow (play.py, seen_plays.py; the search's `infer=plays` / `infer=history` check
# their deals against them): a play of one card from the hand on an ordinary turn, or a
# draw of one card on an ordinary turn, the card kept or played. SEEN_SEAT entries a seat, from
# O_SEEN + seat * SEEN_SEAT: the number of turns kept (0 .. SEEN_DEPTH), then the turns,
# oldest first, SEEN_WIDTH entries each (seen_plays.seen_play): its kind (SEEN_*_KIND), the
# face played (-1 for a draw), the top card and colour before it, the colour it left current,
# the seat's hand size and the discard pile's size just after it, the direction before it,
# the next player's hand size and O_LACKS entry before it, and the reshuffles of the round so
# far (the discard pile as it was can be read back while none came since).
(SEEN_KIND, SEEN_FACE, SEEN_TOP, SEEN_COLOR, SEEN_NAMED, SEEN_SIZE, SEEN_NDISC, SEEN_DIR, SEEN_NEXT_SIZE,
 SEEN_NEXT_LACKS, SEEN_SHUFFLES) = range(11)
SEEN_WIDTH = 11
SEEN_PLAYED_KIND, SEEN_DREW_KEPT_KIND, SEEN_DREW_PLAYED_KIND = range(3)  # a card played; drew one, kept it; drew one, played it
SEEN_DEPTH = 8  # turns kept a seat (the oldest is dropped for a new one)
SEEN_SEAT = 1 + SEEN_DEPTH * SEEN_WIDTH
O_SEEN = GAME.block("seen_plays", MAX_PLAYERS * SEEN_SEAT)

# ---- the record row (layout.COL_* relative to it), hands, piles, work space
O_REC = GAME.block("record", N_COLS)
O_HANDS = GAME.block("hands", MAX_PLAYERS * HAND_WIDTH)  # seat * HAND_WIDTH + face
O_HSIZE = GAME.block("hand_sizes", MAX_PLAYERS)
O_PLACE = GAME.block("places", MAX_PLAYERS)  # 0 while in the round, else finishing place
O_PILE = GAME.block("pile", MAX_DECK_SIZE)  # draw pile, top at O_PILE + npile - 1
O_DISC = GAME.block("discard", MAX_DECK_SIZE)  # discard pile, top at O_DISC + ndisc - 1
O_ASIDE = GAME.block("aside", MAX_DECK_SIZE)  # knocked-out players' cards (mercy_limit), S_NASIDE of them
O_PLAYED = GAME.block("played", MAX_DECK_SIZE)  # the cards of the play being resolved
O_WORK = GAME.block("work", 2 * MAX_PLAYERS + 4)  # work space: jump-in candidates, hand sizes
O_WORK_HANDS = GAME.block("work_hands", MAX_PLAYERS * HAND_WIDTH)  # work space for a rotation
N_SUM_FACES = N_COLORS * N_NUMBERS  # number faces (4 colours x 0-9)
O_SUM_FACES = GAME.block("sum_faces", N_SUM_FACES)  # work space: the faces a sum set may use
O_SUM_AVAIL = GAME.block("sum_avail", N_SUM_FACES)  # how many of each the player holds
O_SUM_TAKE = GAME.block("sum_take", N_SUM_FACES)  # how many of each the set being enumerated takes
O_SUM_REST = GAME.block("sum_rest", N_SUM_FACES + 1)  # the most the faces from here on can add
# Two-sided decks: the piles and the trace hold physical cards (0 .. deck_size - 1, card i's
# light face the i-th of the light side's cards in face order, its dark face drawn at the deal);
# a one-sided deck's cards are its faces. The hands stay count vectors over the faces in play.
O_CARD_FACE = GAME.block("card_face", MAX_DECK_SIZE)  # + card: its face on the side in play
O_CARD_OTHER = GAME.block("card_other", MAX_DECK_SIZE)  # + card: its face on the other side
O_OWNER = GAME.block("owner", MAX_DECK_SIZE)  # + card: the seat holding it, -1: none
O_PLAYED_CARD = GAME.block("played_cards", MAX_DECK_SIZE)  # the physical cards put down for O_PLAYED's faces
O_SWAP3 = GAME.block("swap3", 6)  # work space of a Wild swap: the cards given, then the cards got
O_SWAP3_CARDS = GAME.block("swap3_cards", 6)  # the same as physical cards (two-sided decks)
O_CATCHERS = GAME.block("catchers", MAX_PLAYERS)  # work space: who caught a forgotten UNO call (uno_catchers = each)
# A Python seat choosing its sum jump-in move card by card (bots/external.py jump_move): the
# cards chosen so far (kept apart from O_PLAYED, which the moves are enumerated into), and for
# each face whether it may come next and how many moves still possible have it as their lowest
# card still to choose (face order).
O_JUMP_CHOSEN = GAME.block("jump_chosen", MAX_DECK_SIZE)
S_JUMP_NCHOSEN = GAME.block("jump_chosen_size")
S_JUMP_COMPLETE = GAME.block("jump_complete")  # the cards chosen so far are a move
O_JUMP_NEXT = GAME.block("jump_next", HAND_WIDTH)  # + face: 1 when it may be chosen next
O_JUMP_LOWEST = GAME.block("jump_lowest", HAND_WIDTH)  # + face: moves with it as their lowest card still to choose
# What each hand can do with sums (sum_jump_in, hand_sum_win), kept per seat and recomputed only
# after the hand changed: every change to a hand must mark its seat's entry stale
# (sumsets.stale: a zero at O_SUM_CACHE + seat * SUM_CACHE_WIDTH). Layout: sumsets.C_*.
SUM_CACHE_WIDTH = 7
O_SUM_CACHE = GAME.block("sum_cache", MAX_PLAYERS * SUM_CACHE_WIDTH)
O_TRACE = GAME.size  # event buffer from here to the end of g (its length is g[O_CAPACITY])
N_GAME = O_TRACE

GAME.check()
assert O_RULES == 0, "the engine reads knob i at g[i]"
assert O_REC == O_SEEN + MAX_PLAYERS * SEEN_SEAT, "rollouts and snapshots copy O_SEEN for the seats at the table, then from O_REC on"


def make_config(rules: np.ndarray, bot_codes: np.ndarray, bot_params: np.ndarray,
                deck: decks.Deck = decks.CLASSIC) -> np.ndarray:
    """The configuration block (int64[N_CONFIG]) from the packed rules (Rules.pack), bots
    (bots.pack_bots: codes, and parameters already in fixed point) and the deck (its face
    table under the rules' zero_points; a DeckError when it exceeds the engine's limits)."""
    config = np.zeros(N_CONFIG, dtype=np.int64)
    config[O_RULES : O_RULES + N_KNOBS] = rules
    players = len(bot_codes)
    config[O_BOTS : O_BOTS + players] = bot_codes
    config[O_PARAMS : O_PARAMS + players * N_BOT_PARAMS] = np.asarray(bot_params, dtype=np.int64).reshape(-1)
    if deck.two_sided:  # the light side in play, the dark side waiting (effects.flip_over)
        config[O_DECK:O_DECK_END] = deck_block(deck.light, int(rules[K.zero_points]))
        config[O_OTHER_SIDE:O_OTHER_SIDE + O_DECK_END - O_DECK] = deck_block(deck.dark, int(rules[K.zero_points]))
        config[O_TWO_SIDED] = 1
    else:
        config[O_DECK:O_DECK_END] = deck_block(deck, int(rules[K.zero_points]))
    config[O_KEEP_TURNS] = int(plays_search(bot_codes))
    return config


def deck_block(deck: decks.Deck, zero_points: int) -> np.ndarray:
    """The deck's part of the configuration block (g[O_DECK:O_DECK_END])."""
    decks.check_engine_limits(deck)
    table = deck.faces(zero_points)
    n, nck = table.n_faces, table.n_colored_kinds
    block = np.zeros(O_DECK_END - O_DECK, dtype=np.int64)

    def put(offset: int, values) -> None:
        values = np.asarray(values, dtype=np.int64)
        block[offset - O_DECK : offset - O_DECK + len(values)] = values

    put(O_DECK, [table.size, n, nck, N_COLORS * nck, n - N_COLORS * nck, nck + N_COLORS - 1 + n - N_COLORS * nck,
                 sum(int(table.copies[f]) for f in range(n) if table.number[f] == 0)])
    role_faces = np.full(N_ROLES * N_COLORS, NO_FACE)
    number_faces = np.full(N_COLORS * N_NUMBERS, NO_FACE)
    most = np.zeros(N_NUMBERS, dtype=np.int64)
    same = np.zeros(N_NUMBERS, dtype=np.int64)
    for f in range(n):
        color, role, number = int(table.color[f]), int(table.role[f]), int(table.number[f])
        if role != decks.ROLE_NONE:  # a coloured role has a face per colour, a wild one the same face
            for c in range(N_COLORS) if color < 0 else (color,):
                role_faces[role * N_COLORS + c] = f
        if number >= 0:
            number_faces[color * N_NUMBERS + number] = f
            if number > 0:  # more than 9 // number copies never fit a sum of at most 9
                same[number] = min(int(table.copies[f]), 9 // number)
                most[number] = min(most[number] + int(table.copies[f]), 9 // number)
    put(O_ROLE_FACE, role_faces)
    put(O_NUMBER_FACE, number_faces)
    put(O_MOST_COPIES, most)
    put(O_SAME_COPIES, same)
    put(O_CARDS, table.cards())
    derived = {
        "slot": np.where(table.color >= 0, np.arange(n) - table.color * nck, -1),
        "flags": (F_NUMBER * (table.number >= 0) + F_WILD * (table.color < 0) + F_SKIPS * (table.skip > 0)
                  + F_REVERSES * (table.reverse != 0) + F_DRAWS * (table.draw > 0) + F_RESTRICTED * (table.restricted != 0)
                  + F_HAND_EFFECT * ((table.roulette != 0) | (table.swap_hands != 0) | (table.shuffle_hands != 0)
                                     | (table.flip != 0) | (table.draw_color != 0))),
    }
    for name in FACE_COLUMNS:
        column = np.full(FACE_COLUMN_WIDTH, -1 if name in ("color", "slot", "number") else 0, dtype=np.int64)
        column[:n] = derived[name] if name in derived else getattr(table, name)
        put(O_FACE[name], column)
    return block
