"""Build concrete positions in the kernel's game array and play on from them.

A position names the hands, the top of the discard pile, the current colour, the draw pile
(top first), who is to act and any pending penalty; `Position.run(turns)` takes that many
regular turns with tracing on and returns the SPEC 7 events, so a test can assert exactly
what the engine did (the rule sheets' worked examples are written this way).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from uno_sim.game.bots import Bot, pack_bots
from uno_sim.game.cards import COLORS, parse_face
from uno_sim.game.decks import CLASSIC, ROLE_DRAW_TWO, ROLE_NONE, ROLE_WILD_DRAW_FOUR, Deck
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.play import continue_round, start_round
from uno_sim.engine.rng import seed_game
from uno_sim.engine.unowned import keep_alive, unowned, unowned_two_sided
from uno_sim.running.records import record_dict
from uno_sim.game.rules import Rules
from uno_sim.running.trace import decode_events


@njit(cache=True)
def _continue(owner, turns):
    continue_round(unowned(owner), turns)
    keep_alive(owner)


@njit(cache=True)
def _continue_two_sided(owner, turns):
    continue_round(unowned_two_sided(owner), turns)
    keep_alive(owner)


@njit(cache=True)
def _start(owner, dealer):
    start_round(unowned(owner), dealer)
    keep_alive(owner)


@njit(cache=True)
def _start_two_sided(owner, dealer):
    start_round(unowned_two_sided(owner), dealer)
    keep_alive(owner)


def continue_from(owner, turns):
    """continue_round on a game array (the engine takes a pointer to it, of the type of the
    game's deck: one-sided or two-sided, engine/unowned.py)."""
    (_continue_two_sided if owner[S.O_TWO_SIDED] else _continue)(owner, turns)


def start_from(owner, dealer):
    """start_round (lead card and its effect) on a game array."""
    (_start_two_sided if owner[S.O_TWO_SIDED] else _start)(owner, dealer)


def cards(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


@dataclass
class Position:
    rules: Rules
    hands: list[str]  # one string of cards per seat, e.g. "R5 R7 W"
    top: str  # top of the discard pile
    color: str | None = None  # current colour (default: the top card's)
    pile: str = ""  # draw pile, top first
    discard_below: str = ""  # discard pile under the top card, bottom first
    to_act: int = 0
    direction: int = 1
    pending: int = 0
    pending_kind: int = 0  # 2: last draw card a Draw Two, 4: a Wild Draw Four (stored as its role)
    challengeable_by_victim: tuple[int, bool] | None = None  # (player who played the W4, guilty)
    bots: list[Bot] | None = None
    out: dict[int, int] = field(default_factory=dict)  # seat -> place (last_standing)
    seed: int = 7
    prev_color: str | None = None  # colour current before the top card (default: the current colour)
    deck: Deck = CLASSIC  # cards are written in this deck's face texts
    pending_draw: int = 0  # stack_by_value: draw value of the chain's last draw card (default: pending_kind)
    g: np.ndarray | None = None

    def build(self) -> np.ndarray:
        n = self.rules.players
        assert len(self.hands) == n
        packed = self.rules.pack()
        codes, params = pack_bots(self.bots or [Bot("random")] * n)
        table = self.deck.faces(self.rules.zero_points)
        self.table = table

        def cards(text: str) -> list[int]:
            return [table.face(t) for t in text.split()]

        g = np.zeros(S.O_TRACE + 200_000, dtype=np.int64)
        g[: S.N_CONFIG] = S.make_config(packed, codes, params, self.deck)
        g[S.O_CAPACITY] = len(g)
        seed_game(g, np.uint64(12345), self.seed)
        g[S.S_DIR] = self.direction
        g[S.S_PLAYERS] = n
        g[S.S_NACTIVE] = n - len(self.out)
        g[S.S_NEXT_PLACE] = 1 + len(self.out)
        g[S.S_TRACING] = 1
        g[S.S_TPOS] = S.O_TRACE
        g[S.S_DRAW_OPEN] = -1
        g[S.O_REC + L.COL_WINNER] = -1
        for seat, place in self.out.items():
            g[S.O_PLACE + seat] = place
        for seat, text in enumerate(self.hands):
            for f in cards(text):
                g[S.O_HANDS + seat * S.HAND_WIDTH + f] += 1
                g[S.O_HSIZE + seat] += 1
        disc = cards(self.discard_below) + [table.face(self.top)]
        g[S.O_DISC : S.O_DISC + len(disc)] = disc
        g[S.S_NDISC] = len(disc)
        pile = cards(self.pile)[::-1]  # stored bottom first
        g[S.O_PILE : S.O_PILE + len(pile)] = pile
        g[S.S_NPILE] = len(pile)
        top = table.face(self.top)
        color = self.color or (COLORS[table.color[top]] if table.color[top] >= 0 else None)
        assert color is not None, "a wild top card needs a colour"
        g[S.S_COLOR] = COLORS.index(color)
        g[S.S_PREV_COLOR] = COLORS.index(self.prev_color or color)
        g[S.S_NEXT] = self.to_act
        g[S.S_PENDING] = self.pending
        g[S.S_PKIND] = {0: ROLE_NONE, 2: ROLE_DRAW_TWO, 4: ROLE_WILD_DRAW_FOUR}[self.pending_kind]
        if self.rules.stack_by_value and self.pending:
            g[S.S_PKIND] = S.PKIND_BY_VALUE
            g[S.S_PDRAW] = self.pending_draw or self.pending_kind
        if self.challengeable_by_victim is not None:
            g[S.S_CHAL_OK] = 1
            g[S.S_CHAL_DRAW] = table.draw[table.face("W4")]
            g[S.S_CHAL_PLAYER] = self.challengeable_by_victim[0]
            g[S.S_CHAL_GUILTY] = int(self.challengeable_by_victim[1])
        self.g = g
        return g

    def run(self, turns: int = 1) -> list[dict]:
        """Take `turns` regular turns from the position; returns the events written."""
        if self.g is None:
            self.build()
        g = self.g
        start = int(g[S.S_TPOS])
        continue_from(g, turns)
        end = int(g[S.S_TPOS])
        assert not g[S.S_OVERFLOW]
        return list(decode_events(g[start:end], end - start, self.rules.players, self.table.texts))

    # ---- reading the state after run()
    def hand(self, seat: int) -> list[str]:
        n = self.table.n_faces
        row = self.g[S.O_HANDS + seat * S.HAND_WIDTH : S.O_HANDS + seat * S.HAND_WIDTH + n]
        return [self.table.texts[f] for f in range(n) for _ in range(int(row[f]))]

    def hand_size(self, seat: int) -> int:
        return int(self.g[S.O_HSIZE + seat])

    @property
    def next_to_act(self) -> int:
        return int(self.g[S.S_NEXT])

    @property
    def pending_now(self) -> int:
        return int(self.g[S.S_PENDING])

    @property
    def direction_now(self) -> int:
        return int(self.g[S.S_DIR])

    @property
    def color_now(self) -> str:
        return COLORS[int(self.g[S.S_COLOR])]

    @property
    def ended(self) -> bool:
        return bool(self.g[S.S_ENDED])

    @property
    def record(self) -> dict:
        return record_dict(self.g[S.O_REC : S.O_REC + L.N_COLS], self.rules.players, 0)

    def place(self, seat: int) -> int:
        return int(self.g[S.O_PLACE + seat])


# ---- a Python seat in a position (tests/test_env_positions.py, tests/test_env_flip.py)
ROOM = 4096  # the output block and the tape, at the end of the position's array


def python_seat(pos, seat: int, tape: list[int]) -> np.ndarray:
    """Build the position (a Position or a flip_positions.FlipPosition) with `seat` played from
    the tape (after the trace buffer)."""
    g = pos.build()
    end = len(g) - ROOM
    g[S.O_CAPACITY] = end
    g[S.O_EXT_SEATS] = 1 << seat
    g[S.O_EXT_OUT] = end
    g[S.O_EXT_TAPE] = end + L.N_ACTIONS + L.N_OBS
    g[S.O_EXT_TAPE_LEN] = len(tape)
    g[int(g[S.O_EXT_TAPE]) : int(g[S.O_EXT_TAPE]) + len(tape)] = tape
    return g


def asked(g: np.ndarray) -> tuple[str, set[int], np.ndarray]:
    """The question the Python seat stopped at, its legal actions and (a copy of) its observation."""
    assert g[S.S_EXT_STOPPED] == 1 and g[S.S_ENDED] == 1
    out = int(g[S.O_EXT_OUT])
    mask = g[out : out + L.N_ACTIONS]
    obs = g[out + L.N_ACTIONS : out + L.N_ACTIONS + L.N_OBS].copy()
    return L.QUESTIONS[int(obs[L.OB_QUESTION])], set(np.flatnonzero(mask).tolist()), obs
