"""The names of the charts of simulated variants, apart from the charts themselves: what a
command writes is known without importing matplotlib (output/chart_process.py draws them in
a process of its own)."""

from __future__ import annotations

# every chart of one or more variants, in the order they are written (charts.VARIANT_CHARTS)
VARIANT_CHART_NAMES = ("win_rates", "game_length", "winner_points", "bot_win_rates", "max_pending")


def variant_chart_names(stacking: bool, mixed_bots: bool = True) -> list[str]:
    """The charts that apply: max_pending only when some variant stacks, bot_win_rates only
    when some variant seats more than one kind of bot."""
    skip = ({"max_pending"} if not stacking else set()) | ({"bot_win_rates"} if not mixed_bots else set())
    return [name for name in VARIANT_CHART_NAMES if name not in skip]
