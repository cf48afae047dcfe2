"""What every result builds on: a short repr and a notebook view (`_Notebook`), its charts
rendered once as PNG bytes (for the files and the report alike), the report, and frames as
JSON rows (`to_dict`); what the results of one variant share (`OneVariant`: Run, MatchRun)
and what those of several runs share (`ManyRuns`: Comparison, Sweep)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

from ..game.errors import BadInput

REPR_WIDTH = 160  # characters of the headline in a result's repr


class _Notebook:
    """A result as a notebook shows it: `repr()` one line (its kind, what was played, the
    headline's first sentence), `_repr_html_()` the headline and the first table (Jupyter
    calls it). The results' fields hold whole frames; the dataclasses' own repr would print them."""

    def _what(self) -> str:
        names = [str(n) for n in (getattr(self, "names", None) or getattr(self, "presets", None)
                                  or [getattr(self, "name", "")]) if n]
        if len(names) > 4:
            return f"{names[0]}, {names[1]}, ..., {names[-1]} ({len(names)})"
        return " vs ".join(names)

    def _headline_lines(self) -> list[str]:
        try:
            return list(getattr(self, "headline", []) or [])
        except Exception:  # noqa: BLE001  (a repr never fails)
            return []

    def __repr__(self) -> str:
        lines = self._headline_lines()
        first = lines[0] if lines else ""
        if len(first) > REPR_WIDTH:
            first = first[: REPR_WIDTH - 3] + "..."
        what = self._what()
        return f"<{type(self).__name__}{' ' + what if what else ''}: {first}>" if first else \
            f"<{type(self).__name__}{' ' + what if what else ''}>"

    def _first_table(self):
        tables = getattr(self, "tables", None)
        if callable(tables):
            found = tables()
            return found[0] if found else None
        return None

    def _repr_html_(self) -> str:
        lines = self._headline_lines()
        parts = [f"<p><b>{html.escape(type(self).__name__)}</b> {html.escape(self._what())}</p>"]
        if lines:
            parts.append(f"<p><b>{html.escape(lines[0])}</b></p>")
            if len(lines) > 1:
                parts.append("<ul>" + "".join(f"<li>{html.escape(line.lstrip('- '))}</li>" for line in lines[1:])
                             + "</ul>")
        table = self._first_table()
        if table is not None:
            parts.append(_table_html(table))
        elif getattr(self, "skill", None) is not None:  # a tournament: its skill index by rule set
            parts.append(self.skill.to_html(index=False))
        return "\n".join(parts)


def _table_html(table) -> str:
    """A tables.Table as a plain HTML table (title as caption, bold rows bold)."""
    head = "".join(f'<th style="text-align:{align}">{html.escape(h)}</th>' for h, align in table.columns)
    rows = []
    for cells, bold in zip(table.rows, table.bold):
        style = ' style="font-weight:bold"' if bold else ""
        rows.append(f"<tr{style}>" + "".join(f'<td style="text-align:{align}">{html.escape(c)}</td>'
                                             for c, (_, align) in zip(cells, table.columns)) + "</tr>")
    caption = f"<caption>{html.escape(table.title)}</caption>" if table.title else ""
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


class _Charts(_Notebook):
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
        def write(name: str, path: Path) -> None:
            from ..output import charts  # (matplotlib) only when a chart is written

            charts.write_png(self.chart_png(name), path)

        return {f"{name}.png": (lambda path, name=name: write(name, path)) for name in self.chart_names()}

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
        precision = getattr(self, "precision", None)
        return {"command": self.command, "variant": self.name, self.count: getattr(self.result, self.count),
                "seed": self.result.seed, "headline": list(self.headline), "summary": _frame_records(self.summary)} | (
                    {"precision": precision.to_dict()} if precision is not None else {})


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
        return any(v.rules.stacks for v in getattr(self, "runs", [self]))

    def plot(self, chart: str):
        """One chart by name, as a matplotlib Figure.

        Parameters
        ----------
        chart : str
            One of ``"win_rates"``, ``"game_length"``, ``"winner_points"``, ``"bot_win_rates"``
            (only when some variant seats more than one kind of bot) or ``"max_pending"``.

        Raises
        ------
        BadInput
            An unknown chart name, or ``"bot_win_rates"`` with one bot in every seat.

        Examples
        --------
        >>> fig = res.plot("game_length")  # doctest: +SKIP
        """
        from ..output.charts import VARIANT_CHARTS

        if chart not in VARIANT_CHARTS:
            raise BadInput(f"unknown chart {chart!r}; one of {', '.join(VARIANT_CHARTS)}")
        if chart == "bot_win_rates" and not self._mixed_bots():
            raise BadInput("bot_win_rates needs more than one kind of bot: with one bot in every seat its win rate "
                           "is just 1 - no_winner_rate (pass bots=['expert', 'random', ...])")
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
        from ..output.chart_names import variant_chart_names

        return variant_chart_names(self._stacking(), self._mixed_bots())

    def figure(self, name: str):
        return self.plot(name)
