"""Concrete positions of a two-sided deck (UNO Flip) in the kernel's game array.

Cards are written `LIGHT/DARK` as in traces. Each written card becomes a physical card of the
deck whose light face is LIGHT, paired with DARK; the cards not written are paired with the
dark faces left over. The side in play is light unless `side="dark"`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from positions import continue_from, start_from
from uno_sim.engine import layout as L
from uno_sim.engine import state as S
from uno_sim.engine.rng import seed_game
from uno_sim.game.bots import Bot, pack_bots
from uno_sim.game.decks import FLIP, SIDE_COLORS, TwoSidedDeck
from uno_sim.game.rules import Rules
from uno_sim.running.records import record_dict
from uno_sim.running.trace import card_texts, decode_events

COLORS8 = SIDE_COLORS["light"] + SIDE_COLORS["dark"]


@dataclass
class FlipPosition:
    rules: Rules
    hands: list[str]  # one string of LIGHT/DARK cards per seat
    top: str
    pile: str = ""  # draw pile, top first
    discard_below: str = ""  # discard pile under the top card, bottom first
    color: str | None = None  # colour in force, in the letters of the side in play (default: the top card's)
    side: str = "light"
    to_act: int = 0
    direction: int = 1
    bots: list[Bot] | None = None
    deck: TwoSidedDeck = FLIP
    seed: int = 7
    g: np.ndarray | None = None

    def _pairing(self) -> tuple[dict[str, list[int]], np.ndarray]:
        """The physical card of each written card (a queue per text) and every card's dark face."""
        light, dark = (side.faces(self.rules.zero_points) for side in self.deck.sides)
        self.tables = (light, dark)
        light_cards = light.cards()
        free = {f: [c for c in range(len(light_cards)) if light_cards[c] == f] for f in range(light.n_faces)}
        dark_left = list(dark.cards())
        pairing = np.full(len(light_cards), -1, dtype=np.int64)
        written = " ".join([*self.hands, self.top, self.pile, self.discard_below]).split()
        codes: dict[str, list[int]] = {}
        for text in written:
            lt, dt = text.split("/")
            c = free[light.face(lt)].pop(0)
            d = dark.face(dt)
            dark_left.remove(d)
            pairing[c] = d
            codes.setdefault(text, []).append(c)
        for c in range(len(pairing)):
            if pairing[c] < 0:
                pairing[c] = dark_left.pop(0)
        return codes, pairing

    def build(self) -> np.ndarray:
        n = self.rules.players
        codes, pairing = self._pairing()
        self.texts = card_texts(self.tables, np.concatenate(([len(pairing)], pairing)))
        light, dark = self.tables
        packed = self.rules.pack()
        bot_codes, params = pack_bots(self.bots or [Bot("random")] * n)
        g = np.zeros(S.O_TRACE + 200_000, dtype=np.int64)
        g[: S.N_CONFIG] = S.make_config(packed, bot_codes, params, self.deck)
        g[S.O_CAPACITY] = len(g)
        seed_game(g, np.uint64(12345), self.seed)
        size = len(pairing)
        light_cards = light.cards()
        dark_side = self.side == "dark"
        for c in range(size):
            faces = (int(light_cards[c]), int(pairing[c]))
            g[S.O_CARD_FACE + c] = faces[dark_side]
            g[S.O_CARD_OTHER + c] = faces[not dark_side]
            g[S.O_OWNER + c] = -1
        if dark_side:
            width = S.O_DECK_END - S.O_DECK
            block = g[S.O_DECK : S.O_DECK_END].copy()
            g[S.O_DECK : S.O_DECK_END] = g[S.O_OTHER_SIDE : S.O_OTHER_SIDE + width]
            g[S.O_OTHER_SIDE : S.O_OTHER_SIDE + width] = block
            g[S.S_SIDE] = 1
        taken = {text: list(cs) for text, cs in codes.items()}

        def card(text: str) -> int:
            return taken[text].pop(0)

        g[S.S_DIR] = self.direction
        g[S.S_PLAYERS] = n
        g[S.S_NACTIVE] = n
        g[S.S_NEXT_PLACE] = 1
        g[S.S_TRACING] = 1
        g[S.S_TPOS] = S.O_TRACE
        g[S.S_DRAW_OPEN] = -1
        g[S.S_COLOR_POS] = -1
        g[S.O_REC + L.COL_WINNER] = -1
        for seat, text in enumerate(self.hands):
            for t in text.split():
                c = card(t)
                g[S.O_OWNER + c] = seat
                g[S.O_HANDS + seat * S.HAND_WIDTH + g[S.O_CARD_FACE + c]] += 1
                g[S.O_HSIZE + seat] += 1
        disc = [card(t) for t in self.discard_below.split()] + [card(self.top)]
        g[S.O_DISC : S.O_DISC + len(disc)] = disc
        g[S.S_NDISC] = len(disc)
        pile = [card(t) for t in self.pile.split()][::-1]  # stored bottom first
        g[S.O_PILE : S.O_PILE + len(pile)] = pile
        g[S.S_NPILE] = len(pile)
        table = self.tables[dark_side]
        top_face = int(g[S.O_CARD_FACE + disc[-1]])
        color = self.color or SIDE_COLORS[self.side][table.color[top_face]]
        g[S.S_COLOR] = SIDE_COLORS[self.side].index(color)
        g[S.S_PREV_COLOR] = g[S.S_COLOR]
        g[S.S_NEXT] = self.to_act
        self.g = g
        return g

    def _events(self, start: int) -> list[dict]:
        end = int(self.g[S.S_TPOS])
        assert not self.g[S.S_OVERFLOW]
        return list(decode_events(self.g[start:end], end - start, self.rules.players, self.texts))

    def run(self, turns: int = 1) -> list[dict]:
        """Take `turns` regular turns; the events written."""
        if self.g is None:
            self.build()
        start = int(self.g[S.S_TPOS])
        continue_from(self.g, turns)
        return self._events(start)

    def lead(self, dealer: int) -> list[dict]:
        """The top card as the lead card of a round (its effect, start_round); the events."""
        if self.g is None:
            self.build()
        g = self.g
        g[S.O_PILE + g[S.S_NPILE]] = g[S.O_DISC + g[S.S_NDISC] - 1]  # the top card goes on the pile, to be turned up
        g[S.S_NPILE] += 1
        g[S.S_NDISC] = 0
        start = int(g[S.S_TPOS])
        start_from(g, dealer)
        return self._events(start)

    # ---- reading the state after run()
    def hand(self, seat: int) -> list[str]:
        return sorted(self.texts[c] for c in range(len(self.texts)) if self.g[S.O_OWNER + c] == seat)

    def discard_pile(self) -> list[str]:
        return [self.texts[int(c)] for c in self.g[S.O_DISC : S.O_DISC + int(self.g[S.S_NDISC])]]

    def draw_pile(self) -> list[str]:
        """Top first."""
        return [self.texts[int(c)] for c in self.g[S.O_PILE : S.O_PILE + int(self.g[S.S_NPILE])]][::-1]

    @property
    def side_now(self) -> str:
        return ("light", "dark")[int(self.g[S.S_SIDE])]

    @property
    def color_now(self) -> str:
        return COLORS8[int(self.g[S.S_COLOR]) + 4 * int(self.g[S.S_SIDE])]

    @property
    def next_to_act(self) -> int:
        return int(self.g[S.S_NEXT])

    def face_counts_match_cards(self) -> bool:
        """Every hand's counts over the faces in play are those of the cards it holds."""
        for seat in range(self.rules.players):
            counts = np.zeros(S.HAND_WIDTH, dtype=np.int64)
            for c in range(len(self.texts)):
                if self.g[S.O_OWNER + c] == seat:
                    counts[self.g[S.O_CARD_FACE + c]] += 1
            if not np.array_equal(counts, self.g[S.O_HANDS + seat * S.HAND_WIDTH : S.O_HANDS + (seat + 1) * S.HAND_WIDTH]):
                return False
        return True

    @property
    def record(self) -> dict:
        return record_dict(self.g[S.O_REC : S.O_REC + L.N_COLS], self.rules.players, 0, two_sided=True)
