"""What every result builds on: its charts rendered once as PNG bytes (for the files and the
report alike), the report, and frames as JSON rows (`to_dict`); what the results of one
variant share (`OneVariant`: Run, MatchRun) and what those of several runs share
(`ManyRuns`: Comparison, Sweep)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable


class _Charts:
    """Charts of a result rendered once as PNG bytes, for the files and the report alike."""

    def chart_names(self) -> list[str]:
        raise NotImplementedError

    def figure(self, name: str):
        raise NotImplementedError

    def chart_png(self, name: str) -> bytes:
        from ..output import charts

        cache = self.__dict__.setdefault("_png_cache", {})
        if name not in cache:
            cache[name] = charts.png_bytes(self.figure(name))
        return cache[name]

    def _chart_files(self) -> dict[str, Callable[[Path], None]]:
        from ..output import charts

        return {f"{name}.png": (lambda path, name=name: charts.write_png(self.chart_png(name), path))
                for name in self.chart_names()}

    def _report_file(self) -> dict[str, Callable[[Path], None]]:
        from ..output import report

        return {"report.html": lambda path: report.write(self, path)}

    def to_html(self) -> str:
        """The one-page report (report.html) as text."""
        from ..output import report

        return report.html(self)


def _frame_records(frame) -> list[dict]:
    """Rows of a frame as JSON-ready dicts (NaN -> None, numpy scalars -> Python)."""
    import json

    return json.loads(frame.to_json(orient="records", double_precision=15))


class OneVariant:
    """What the result of one variant's games or matches shares (api.Run, api.MatchRun): its
    `name`, the `result` played (whose rules, bots, seed and count it gives), its `command`, a
    `summary` and a `headline`; `count` names the result's count (games or matches)."""

    count = "games"

    @property
    def rules(self):
        return self.result.rules

    @property
    def bots(self):
        return self.result.bots

    @property
    def runs(self) -> list:
        return [self]

    def to_dict(self) -> dict:
        """What `uno-sim KIND --json` prints: the headline and the summary rows."""
        return {"command": self.command, "variant": self.name, self.count: getattr(self.result, self.count),
                "seed": self.result.seed, "headline": list(self.headline), "summary": _frame_records(self.summary)}


class ManyRuns:
    """What a result of several runs shares (api.Comparison, api.Sweep): `runs`, and the
    engine's start-up before them."""

    @property
    def startup(self):
        """The engine's start-up before the games were timed (warmup.Startup), over every run."""
        from ..running.warmup import Startup

        return sum((r.startup for r in self.runs), Startup())


class VariantCharts(_Charts):
    """The charts of one or more simulated variants (charts.VARIANT_CHARTS), as Figures;
    `_variants()` gives the charts' view of each variant."""

    def _variants(self) -> list:
        raise NotImplementedError

    def _stacking(self) -> bool:
        from ..output.charts import stacking_on

        return any(stacking_on(v.rules) for v in getattr(self, "runs", [self]))

    def plot(self, chart: str):
        """One of charts.VARIANT_CHARTS by name, as a Figure."""
        from ..output.charts import VARIANT_CHARTS

        return VARIANT_CHARTS[chart](self._variants())

    def plot_win_rates(self):
        return self.plot("win_rates")

    def plot_game_length(self):
        return self.plot("game_length")

    def plot_winner_points(self):
        return self.plot("winner_points")

    def plot_bot_win_rates(self):
        return self.plot("bot_win_rates")

    def plot_max_pending(self):
        return self.plot("max_pending")

    def _mixed_bots(self) -> bool:
        return any(len({b.label for b in v.bots}) > 1 for v in getattr(self, "runs", [self]))

    def chart_names(self) -> list[str]:
        """The charts that apply: max_pending only when some variant stacks, bot_win_rates only
        when some variant seats more than one kind of bot (with one bot everywhere it would
        only restate the no-winner rate)."""
        from ..output.charts import variant_chart_names

        return variant_chart_names(self._stacking(), self._mixed_bots())

    def figure(self, name: str):
        return self.plot(name)
