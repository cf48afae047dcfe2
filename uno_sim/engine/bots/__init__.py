"""The bots: every decision a seat takes (docs/BOTS.md).

dispatch.py answers each question play.py asks, switched on the seat's bot code; uniform.py
is the `random` bot, strategy.py `greedy` / `expert` / `bluffer`, search.py and planned.py
what the `search` bot considers and the move it planned. No module here imports play.py: the
search bot's rollouts, which play rounds, are in engine/search_rounds.py, above play.py.
This file imports nothing, so importing one bot module loads no other.
"""
