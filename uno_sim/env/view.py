"""A question as a person reads it: cards by their text, colours by their letter.

`View(observation, legal, rules)` names what the observation (int64[N_OBS]) and the legal
actions hold by the faces of the rule set's deck: the hand as card texts (`"R5"`, `"W4"`), the
top card, the colour in force (`"R"`), the legal actions as names, and `action(name)` turns a
name back into the action to return. Action names: a card's text for a face action, a colour
letter (R, Y, G, B) for a colour, `seat+k` for the player k seats after you, `no` and `yes`
(docs/BOTS.md, "Questions and actions", says what each means at each question). Card texts
never clash with the other names: a coloured card's text is its colour letter and the kind's
text ("R5", "RS"), a wild card's starts with W, which is no colour.

On a two-sided deck (UNO Flip) the faces and colours are those of the side in play (`side`):
on the dark side the hand reads `"P5"`, `"TD5"`, `"OE"`, `"WDC"` and the colours are P, T, O, V;
`backs` names what you see of the other players' hands (their cards' other side) and
`pile_back` the other side of the draw pile's top card, both in the other side's texts.

The observation does not say which deck is played, so a view is told the rule set (a preset
name, a rule file or a `Rules` value; `standard`, the classic deck, by default). The
environments' `view()` and `Table.view()` pass their own; a `--bots python:` policy passes the
rule set its command plays. A view checks that the observation's knobs are the rule set's
(players aside) and that every card it holds is a face of the deck, and says so when not.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np

from ..engine import layout as L
from ..game import presets
from ..game.decks import COLORS, SIDE_COLORS, SIDES
from ..game.errors import BadInput
from ..game.knobs import KERNEL_NAMES
from ..game.rules import Rules

__all__ = ["COLORS", "View"]

_PLAYERS = KERNEL_NAMES.index("players")


@functools.lru_cache(maxsize=32)
def _rules(spec: str) -> Rules:
    return presets.load(spec)


class View:
    """One question of a Python seat, by card texts and colour letters (module docstring).

    `legal` is the legal actions as a list of ints (what a `--bots python:` policy is given)
    or as the mask (an array of N_ACTIONS entries, as the environments give it)."""

    def __init__(self, observation, legal=None, rules: str | Rules = "standard") -> None:
        o = np.asarray(observation)
        if o.shape != (L.N_OBS,):
            raise BadInput(f"an observation has {L.N_OBS} entries (got shape {o.shape})")
        self.rules = rules if isinstance(rules, Rules) else _rules(str(rules))
        deck = self.rules.cards
        side = int(o[L.OB_SIDE])
        if deck.two_sided:
            if side not in (0, 1):
                raise BadInput(f"the observation's side is {side} (0 light, 1 dark)")
            self.side: str | None = SIDES[side]
            self._faces = deck.sides[side].faces(self.rules.zero_points)
            self._other = deck.sides[1 - side].faces(self.rules.zero_points)
            self.colors: tuple[str, ...] = SIDE_COLORS[self.side]
        else:
            self.side = None  # a one-sided deck has no side
            self._faces = deck.faces(self.rules.zero_points)
            self._other = None
            self.colors = COLORS
        self._check(o)
        self.observation = o
        n = int(o[L.OB_PLAYERS])
        self.question: str = L.QUESTIONS[int(o[L.OB_QUESTION])]
        self.seat: int = int(o[L.OB_SEAT])
        self.players: int = n
        self.pending: int = int(o[L.OB_PENDING])
        self.direction: int = int(o[L.OB_DIRECTION])
        self.pile: int = int(o[L.OB_PILE])
        self.turns: int = int(o[L.OB_TURNS])
        self.hand_sizes: list[int] = [int(v) for v in o[L.OB_SIZES : L.OB_SIZES + n]]
        self.places: list[int] = [int(v) for v in o[L.OB_PLACES : L.OB_PLACES + n]]
        if legal is None:
            actions: list[int] = []
        elif isinstance(legal, np.ndarray) and legal.shape == (L.N_ACTIONS,):
            actions = np.flatnonzero(legal).tolist()
        else:
            actions = [int(a) for a in legal]
        self.legal_actions: list[int] = actions
        self.legal: list[str] = [self.name(a) for a in actions]
        self._by_name = dict(zip(self.legal, actions))

    def _check(self, o: np.ndarray) -> None:
        knobs = o[L.OB_RULES : L.OB_RULES + len(KERNEL_NAMES)]
        packed = np.asarray(self.rules.pack())[: len(KERNEL_NAMES)]
        differ = [i for i in np.flatnonzero(knobs != packed) if i != _PLAYERS]
        if differ:
            name = KERNEL_NAMES[differ[0]]
            raise BadInput(f"the observation is not of the rules given to View (knob {name}: the game plays "
                           f"{int(knobs[differ[0]])}, the rules read {int(packed[differ[0]])} as the engine reads "
                           "them): give View the rule set the game plays (rules=...)")
        n = self._faces.n_faces
        outside = [L.OB_HAND, L.OB_DISCARD]
        wrong = any(o[at + n : at + L.MAX_FACES].any() for at in outside) or not -1 <= int(o[L.OB_TOP]) < n
        backs = o[L.OB_BACKS : L.OB_BACKS + L.MAX_PLAYERS * L.MAX_FACES].reshape(L.MAX_PLAYERS, L.MAX_FACES)
        if self._other is None:
            wrong = wrong or int(o[L.OB_SIDE]) != 0 or backs.any()  # (a two-sided deck's observation)
        else:
            m = self._other.n_faces
            n = max(0, min(int(o[L.OB_PLAYERS]), L.MAX_PLAYERS))
            seen = backs[:n].sum(axis=1)  # every other player's cards, seen from their other side
            wrong = (wrong or backs[:, m:].any() or not -1 <= int(o[L.OB_PILE_BACK]) < m
                     or seen[:1].any() or (seen[1:] != o[L.OB_SIZES + 1 : L.OB_SIZES + n]).any())
        if wrong:
            raise BadInput(f"the observation holds cards that are not in the {self.rules.cards.name} deck of the "
                           "rules given to View: give View the rule set the game plays (rules=...)")

    # ------------------------------------------------------------ cards
    def text(self, face: int) -> str:
        """The text of a face index (`"R5"`; on a two-sided deck, of the side in play)."""
        return self._faces.texts[face]

    def other_text(self, face: int) -> str:
        """The text of a face index of the other side (two-sided decks: `"R5"` on the dark side)."""
        if self._other is None:
            raise BadInput(f"the {self.rules.cards.name} deck has one side: no other side's cards")
        return self._other.texts[face]

    def _counts(self, at: int) -> dict[str, int]:
        block = self.observation[at : at + self._faces.n_faces]
        return {self._faces.texts[f]: int(block[f]) for f in np.flatnonzero(block)}

    @property
    def hand(self) -> list[str]:
        """Your cards, one text a card, in the deck's face order (`["R5", "R5", "W4"]`); while
        you choose a multi-play or jump-in move, without the cards already chosen."""
        return list(Counter(self._counts(L.OB_HAND)).elements())

    @property
    def discard(self) -> dict[str, int]:
        """The discard pile since the last reshuffle: copies of each card text."""
        return self._counts(L.OB_DISCARD)

    @property
    def top(self) -> str | None:
        """The card on top of the discard pile (`"R5"`)."""
        face = int(self.observation[L.OB_TOP])
        return self.text(face) if face >= 0 else None

    @property
    def color(self) -> str | None:
        """The colour in force, as its letter (`"R"`; on the dark side `"P"`, `"T"`, `"O"`, `"V"`)."""
        c = int(self.observation[L.OB_COLOR])
        return self.colors[c] if 0 <= c < len(self.colors) else None

    @property
    def backs(self) -> list[list[str]]:
        """What you see of each player's hand, from you (empty) round in seat order: the other
        side's text of each of their cards, in that side's face order (two-sided decks: the
        backs face outwards; empty lists on a one-sided deck)."""
        o = self.observation
        if self._other is None:
            return [[] for _ in range(self.players)]
        out = []
        for k in range(self.players):
            block = o[L.OB_BACKS + k * L.MAX_FACES : L.OB_BACKS + k * L.MAX_FACES + self._other.n_faces]
            out.append([self._other.texts[f] for f in np.flatnonzero(block) for _ in range(int(block[f]))])
        return out

    @property
    def pile_back(self) -> str | None:
        """The other side of the draw pile's top card (two-sided decks; None on a one-sided
        deck or an empty pile)."""
        face = int(self.observation[L.OB_PILE_BACK])
        return self.other_text(face) if face >= 0 and self._other is not None else None

    @property
    def argument(self) -> str | int | None:
        """What the question is about: the card drawn (`play_drawn`), the card to jump in on
        (`jump_in`), the card on top of your play or move so far (`extra_card`, `jump_card`;
        None before a move's first card), as a text; `k` of the player who played the Wild
        Draw Four (`challenge`); else None."""
        arg = int(self.observation[L.OB_ARG])
        if arg < 0:
            return None
        if self.question == "challenge":
            return arg
        return self.text(arg) if self.question in ("play_drawn", "jump_in", "extra_card", "jump_card") else None

    def color_of(self, card: str) -> str | None:
        """A card's colour letter, None for a wild card (a card of the side in play)."""
        c = int(self._faces.color[self._face(card)])
        return self.colors[c] if c >= 0 else None

    def points(self, card: str) -> int:
        """What a card counts in a hand at the end of a round, under these rules."""
        return int(self._faces.points[self._face(card)])

    def is_card(self, name: str) -> bool:
        """Whether an action name is a card of the deck (not a colour, a seat, no or yes)."""
        return name in self._faces._index

    def _face(self, card: str) -> int:
        try:
            return self._faces._index[card]
        except (KeyError, TypeError):
            raise BadInput(f"no card {card!r} in the {self.rules.cards.name} deck "
                           f"(cards: {', '.join(self._faces.texts)})") from None

    # ------------------------------------------------------------ actions
    def name(self, action: int) -> str:
        """The name of an action number: a card text, a colour letter, `seat+k`, `no`, `yes`."""
        a = int(action)
        if L.A_FACE <= a < L.A_FACE + self._faces.n_faces:
            return self.text(a - L.A_FACE)
        if L.A_COLOR <= a < L.A_COLOR + len(self.colors):
            return self.colors[a - L.A_COLOR]
        if L.A_SEAT < a < L.A_NO:
            return f"seat+{a - L.A_SEAT}"
        if a == L.A_NO:
            return "no"
        if a == L.A_YES:
            return "yes"
        raise BadInput(f"no action {action!r} under these rules")

    def action(self, name: str) -> int:
        """The action number of a legal action's name, to return from a policy."""
        try:
            return self._by_name[name]
        except (KeyError, TypeError):
            raise BadInput(f"{name!r} is not a legal action at this {self.question!r} question "
                           f"(legal: {', '.join(self.legal)})") from None

    def __repr__(self) -> str:
        side = "" if self.side is None else f"side={self.side!r}, "
        return (f"View(question={self.question!r}, {side}hand={self.hand}, top={self.top!r}, color={self.color!r}, "
                f"pending={self.pending}, legal={self.legal})")
