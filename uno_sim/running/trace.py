"""Decode the kernel's integer event buffer into trace events (dicts; docs/RULES.md, "The trace").

The kernel that writes traces is the one that produces the numbers (tracing is a flag), so
a trace shows exactly what the simulation did.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..game.bots import Bot, pack_bots
from ..game.cards import FACE_TEXTS
from ..game.decks import SIDE_COLORS, Deck
from ..engine import layout as L
from .progress import ProgressLike
from .records import record_dict
from ..game.rules import Rules

_INITIAL_BUFFER = 1 << 16
# The colour letters of events: the engine writes a colour as 0-3 on the light side (and on a
# one-sided deck), 4-7 on the dark side (engine/events.py, shown_color).
COLORS = SIDE_COLORS["light"] + SIDE_COLORS["dark"]


def _cards(values, texts: Sequence[str] = FACE_TEXTS) -> list[str]:
    return [texts[int(f)] for f in values]


def _events(buf: np.ndarray, length: int) -> Iterator[tuple[int, np.ndarray]]:
    pos = 0
    while pos < length:
        code, size = int(buf[pos]), int(buf[pos + 1])
        yield code, buf[pos + 2 : pos + 2 + size]
        pos += 2 + size


def decode_events(buf: np.ndarray, length: int, players: int, texts: Sequence[str] = FACE_TEXTS,
                  sides=None) -> Iterator[dict]:
    """Trace events (deal first, no end) from buf[0:length]; `texts`: the face texts of the
    deck played (its face table's `texts`; default the classic deck's). A two-sided deck's
    game: `sides`, the (light, dark) face tables; every card is then a physical card, written
    LIGHT/DARK from the pairing the engine drew at the deal (its event right after the deal)."""
    events = _events(buf, length)
    if sides is not None:
        events = list(events)
        pairing = next(body for code, body in events if code == L.EV_PAIRING)
        texts = card_texts(sides, pairing)
    for code, body in events:
        if code != L.EV_PAIRING:
            yield _decode(code, body, players, texts)


def card_texts(sides, pairing: np.ndarray) -> list[str]:
    """`LIGHT/DARK` of every physical card: card i's light face is the i-th of the light side's
    cards in face order; the pairing event lists the deck size, then each card's dark face."""
    light, dark = sides
    light_faces = light.cards()
    return [f"{light.texts[int(light_faces[i])]}/{dark.texts[int(f)]}" for i, f in enumerate(pairing[1:])]


def _decode(code: int, body: np.ndarray, players: int, texts: Sequence[str] = FACE_TEXTS) -> dict:
    if code == L.EV_DEAL:
        dealer, i, hands = int(body[0]), 1, []
        for _ in range(players):
            count = int(body[i])
            hands.append(_cards(body[i + 1 : i + 1 + count], texts))
            i += 1 + count
        return {"ev": "deal", "dealer": dealer, "hands": hands, "pile": _cards(body[i:], texts)}
    if code == L.EV_LEAD:
        return {"ev": "lead", "card": texts[int(body[0])]}
    if code == L.EV_RETURN:
        return {"ev": "return", "card": texts[int(body[0])], "pile": _cards(body[1:], texts)}
    if code == L.EV_CHOOSE:
        return {"ev": "choose", "p": int(body[0]), "color": COLORS[int(body[1])]}
    if code == L.EV_PLAY:
        p, color, faces = int(body[0]), COLORS[int(body[1])], _cards(body[2:], texts)
        if len(faces) == 1:
            return {"ev": "play", "p": p, "card": faces[0], "color": color}
        return {"ev": "play", "p": p, "cards": faces, "color": color}
    if code == L.EV_JUMP:
        return {"ev": "jump", "p": int(body[0]), "card": texts[int(body[2])], "color": COLORS[int(body[1])]}
    if code == L.EV_DRAW:
        return {"ev": "draw", "p": int(body[0]), "cards": _cards(body[2:], texts), "why": L.WHYS[int(body[1])]}
    if code == L.EV_RESHUFFLE:
        return {"ev": "reshuffle", "pile": _cards(body, texts)}
    if code == L.EV_CHALLENGE:
        return {"ev": "challenge", "p": int(body[0]), "target": int(body[1]), "guilty": bool(body[2])}
    if code == L.EV_SWAP:
        return {"ev": "swap", "p": int(body[0]), "with": int(body[1])}
    if code == L.EV_ROTATE:
        return {"ev": "rotate"}
    if code == L.EV_UNO:
        return {"ev": "uno", "p": int(body[0])}
    if code == L.EV_CAUGHT:
        return {"ev": "caught", "p": int(body[0])}
    if code == L.EV_OUT:
        return {"ev": "out", "p": int(body[0]), "place": int(body[1])}
    if code == L.EV_SUM_JUMP:
        return {"ev": "jump", "p": int(body[0]), "cards": _cards(body[3:], texts), "color": COLORS[int(body[1])],
                "sum": int(body[2])}
    if code == L.EV_HAND_SUM:
        event = {"ev": "out", "p": int(body[0]), "how": "hand_sum", "cards": _cards(body[2:], texts)}
        if int(body[1]) > 0:  # last_standing only
            event["place"] = int(body[1])
        return event
    if code == L.EV_PLAY_SWAP:
        return {"ev": "play", "p": int(body[0]), "card": texts[int(body[2])], "color": COLORS[int(body[1])],
                "swap": True}
    if code == L.EV_SWAP3:
        k = int(body[2])
        return {"ev": "swap3", "p": int(body[0]), "with": int(body[1]), "gave": _cards(body[3 : 3 + k], texts),
                "got": _cards(body[3 + k : 3 + 2 * k], texts)}
    if code == L.EV_CAUGHT_BY:
        return {"ev": "caught", "p": int(body[0]), "by": [int(q) for q in body[1:]]}
    if code == L.EV_PLAY_DISCARD:
        k = int(body[2])
        event = _decode(L.EV_PLAY, np.concatenate((body[:2], body[3 : 3 + k])), players, texts)
        event["discard"] = _cards(body[3 + k :], texts)
        return event
    if code == L.EV_JUMP_DISCARD:
        return {"ev": "jump", "p": int(body[0]), "card": texts[int(body[2])], "color": COLORS[int(body[1])],
                "discard": _cards(body[3:], texts)}
    if code == L.EV_KNOCKOUT:
        event = {"ev": "knockout", "p": int(body[0]), "cards": int(body[1])}
        if int(body[2]) > 0:  # last_standing only
            event["place"] = int(body[2])
        return event
    if code == L.EV_ROULETTE:
        return {"ev": "roulette", "p": int(body[0]), "color": COLORS[int(body[1])]}
    if code == L.EV_FLIP:
        return {"ev": "flip", "p": int(body[0]), "side": ("light", "dark")[int(body[1])], "top": texts[int(body[2])]}
    if code == L.EV_SHUFFLE:
        i, hands = 1, []
        for _ in range(players):
            count = int(body[i])
            hands.append(_cards(body[i + 1 : i + 1 + count], texts))
            i += 1 + count
        return {"ev": "shuffle", "p": int(body[0]), "hands": hands}
    raise ValueError(f"unknown trace event code {code}")


def end_event(record: dict, players: int) -> dict:
    """The `end` event of a game, with the per-game record's counters as extra fields (and a
    two-sided game's flips and side)."""
    event = {
        "ev": "end",
        "winner": record["winner"],
        "reason": record["reason"],
        "turns": record["turns"],
        "points": [record[f"points_{i}"] for i in range(players)],
        "winner_points": record["winner_points"],
        "plays": record["plays"],
        "draws": record["draws"],
        "reshuffles": record["reshuffles"],
        "max_pending": record["max_pending"],
        "challenges": record["challenges"],
        "cards": [record[f"cards_{i}"] for i in range(players)],
        "knockouts": record["knockouts"],
    }
    if "flips" in record:
        event["flips"], event["side"] = record["flips"], record["side"]
    return event


def trace_one(rules: Rules, bots: Sequence[Bot], key: int, game: int, deal: int | None = None,
              deck: Deck | None = None) -> tuple[list[dict], dict]:
    """Events and per-game record of game number `game` of the run with this key; `bots` are
    per seat. The cards are those of deal number `deal` (default: `game`) of `deck` (default:
    the rule set's own, `rules.cards`); a deck other than the classic one is listed in the deal
    event (`deck`, its kinds)."""
    from ..engine.batch import trace_game

    packed = rules.pack()
    codes, params = pack_bots(bots)
    deck = rules.cards if deck is None else deck
    size = _INITIAL_BUFFER
    while True:
        rec, buf = trace_game(packed, codes, params, key, game if deal is None else deal, size, deck)
        if buf is not None:
            break
        size *= 4  # the game is replayed from its seed with a larger buffer
    return _game_events(rules, [b.label for b in bots], game, deck, rec, buf)


def _game_events(rules: Rules, labels: Sequence[str], game: int, deck: Deck, rec: np.ndarray,
                 buf: np.ndarray) -> tuple[list[dict], dict]:
    """A traced game's events (the deal event with the rules and seats, the end event from the
    record) and its per-game record."""
    record = record_dict(rec, rules.players, game, deck.two_sided)
    if deck.two_sided:
        sides = tuple(side.faces(rules.zero_points) for side in deck.sides)
        events = list(decode_events(buf, len(buf), rules.players, sides=sides))
    else:
        events = list(decode_events(buf, len(buf), rules.players, deck.faces(rules.zero_points).texts))
    deal = events[0]
    events[0] = {
        "ev": "deal",
        "game": game,
        "players": rules.players,
        "dealer": deal["dealer"],
        "rules": rules.as_dict(),
        "bots": list(labels),
        "hands": deal["hands"],
        "pile": deal["pile"],
    }
    if deck.two_sided:
        events[0]["sides"] = deck.as_dict(rules.zero_points)
    elif deck.name != "classic":
        events[0]["deck"] = deck.as_list(rules.zero_points)
    events.append(end_event(record, rules.players))
    return events, record


def _table_buffer(table):
    """The record and trace buffer of the game a uno_sim.env.Table has just finished, the
    buffer grown until the game's events fit."""
    size = _INITIAL_BUFFER
    while True:
        rec, buf = table.trace_buffer(size)
        if buf is not None:
            return rec, buf
        size *= 4


def trace_table(table, python_label: str = "python") -> list[dict]:
    """Events of the game a uno_sim.env.Table has just finished, seats played from Python
    labelled `python_label` ("random" for a seat that plays as the random bot, so that a
    checker may hold it to that bot's choices)."""
    rec, buf = _table_buffer(table)
    labels = [python_label if q in table.python_seats else b.label for q, b in enumerate(table.bots)]
    events, _ = _game_events(table.rules, labels, int(table.game), table.rules.cards, rec, buf)
    return events


def rotated_seats(bots: Sequence[Bot], game: int) -> tuple[list[Bot], int]:
    """Seat bots and deal number of game `game` with seats rotated, as `run --rotate-seats`
    plays it (engine/batch.py, seat_bots): deal game // n, bot slot b in seat (b + game) % n."""
    n = len(bots)
    r = game % n
    return [bots[(seat - r) % n] for seat in range(n)], game // n


def trace_events(rules: Rules, bots: Sequence[Bot], seed: int, games: int, first_game: int = 0,
                 rotate_seats: bool = False, progress: ProgressLike = None) -> Iterator[dict]:
    """Trace events of games first_game .. first_game+games-1 (same games as `run` with this
    seed, and the same `rotate_seats`; `python:` seats played by their policies,
    python_trace_events). `progress` (running/progress.py; True: on standard error) is told when
    the engine compiles or loads first (warmup.py)."""
    from ..engine.keys import run_key
    from .warmup import deck_kind, warm_up

    key = run_key(seed)
    if any(b.python for b in bots):
        yield from python_trace_events(rules, bots, key, games, first_game, rotate_seats)
        return
    warm_up(deck_kind("trace", rules.cards.two_sided), progress=progress)
    for game in range(first_game, first_game + games):
        if rotate_seats:
            seat_bots, deal = rotated_seats(bots, game)
            events, _ = trace_one(rules, seat_bots, key, game, deal)
        else:
            events, _ = trace_one(rules, bots, key, game)
        yield from events


def python_trace_events(rules: Rules, bots: Sequence[Bot], key: int, games: int, first_game: int = 0,
                        rotate_seats: bool = False) -> Iterator[dict]:
    """Trace events of games with `python:` seats: each game played by its policies (and the
    compiled bots) as `run` plays it (env/games.py PythonGames: the same deals and seats), then
    played again with tracing on (Table.trace_buffer); each seat labelled with its bot."""
    from ..env.games import PythonGames

    played = PythonGames(rules, bots, key, rotate_seats)
    n = rules.players
    for game in range(first_game, first_game + games):
        r = game % n if rotate_seats else 0
        table, seats = played.tables[r]
        table.reset(game // n if rotate_seats else game)
        while not table.done:
            table.step(seats[table.seat](table.observation, table._mask))
        rec, buf = _table_buffer(table)
        labels = [bots[(seat - r) % n].label for seat in range(n)]
        events, _ = _game_events(rules, labels, game, rules.cards, rec, buf)
        yield from events
