"""Terminal output of the commands: the headline, the result's tables (uno_sim/output/tables.py)
drawn with rich, and the timing line. With --json nothing of this is printed."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from ..game.bots import SKILL_BOT
from ..output.tables import (Table, compare_table, fmt_value, match_table, ranked_table, run_tables,  # noqa: F401
                      sweep_table)


class _Stdout(Console):
    """A console whose write failures name standard output; a closed pipe (`| head`) is left
    to rich, whose exit the app turns into a quiet exit 0 (app._reader_gone)."""

    def print(self, *args, **kwargs) -> None:
        if len(args) == 1 and isinstance(args[0], RichTable) and args[0].title:
            # a title on its own line, not centred over a long table; on a terminal too, where
            # rich wrapped a long title into centred lines padded with spaces ("rates in
            # <spaces> percentage points" when copied)
            args[0].title, title = None, args[0].title
            self.print(Text(title) if isinstance(title, str) else title, soft_wrap=True)
        try:
            super().print(*args, **kwargs)
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk, ...: name what could not be written
            if exc.filename is not None:
                raise
            raise OSError(exc.errno, exc.strerror, "standard output") from exc


# Not a terminal (a file, a pipe): rich would assume 80 columns and cut the cells of a wide table
# ("st…"). Lines there can be as long as they need: a table is drawn at its natural width, every
# cell whole, one line a row; plain text lines are never wrapped.
UNBOUNDED = 100_000


def stdout() -> Console:
    """Standard output: on a terminal its width; otherwise wide enough for any table."""
    console = _Stdout(highlight=False)
    if not console.is_terminal:
        console = _Stdout(highlight=False, width=UNBOUNDED)
    return console


def _split_width(console: Console) -> int:
    """The widest a wide table is drawn before it is split in parts: on a terminal
    output/tables.py's TABLE_WIDTH; redirected to a file or a pipe, no limit (printed whole)."""
    from ..output.tables import TABLE_WIDTH

    return TABLE_WIDTH if console.is_terminal else UNBOUNDED


def print_headline(console: Console, headline) -> None:
    for i, line in enumerate(headline):
        console.print(Text(line, style="bold" if i == 0 else ""), soft_wrap=True)
    console.print()


def print_table(console: Console, table: Table) -> None:
    for line in table.intro:
        console.print(Text(line), soft_wrap=True)
    if not table.columns:  # a sentence in place of a table (e.g. no fair grid point)
        return
    out = RichTable(title=table.title or None, header_style="bold")
    for i, (header, align) in enumerate(table.columns):
        out.add_column(header, justify=align, no_wrap=i == 0)
    for cells, bold in zip(table.rows, table.bold):
        out.add_row(*(Text(c) for c in cells), style="bold" if bold else None)
    console.print(out)
    for line in table.notes:
        console.print(Text(line), soft_wrap=True)


def deck_table(deck, zero_points: int = 0, title: str | None = None) -> RichTable:
    """A deck's kinds (output/tables.py deck_table) as a terminal table, the total cards in
    the caption."""
    from ..output.tables import deck_table as deck_model

    model = deck_model(deck, zero_points)
    table = RichTable(title=title, header_style="bold", caption=model.notes[0], caption_justify="left")
    for header, align in model.columns:
        table.add_column(header, justify=align, no_wrap=header != "effects")
    for row in model.rows:
        table.add_row(*row)
    return table


def deck_tables(deck, zero_points: int = 0, title: str = "") -> list[RichTable]:
    """`deck_table` of a one-sided deck; of a two-sided deck (decks.TwoSidedDeck), one table a
    side (light R Y G B, dark P T O V), titled with the side."""
    if not deck.two_sided:
        return [deck_table(deck, zero_points, title)]
    return [deck_table(side, zero_points, f"{title}: {side.side} side" if title else f"{side.side} side")
            for side in deck.sides]


def _line(console: Console, text: str) -> None:
    """One line of plain text, never wrapped by rich (a pipe gets it whole)."""
    console.print(Text(text), soft_wrap=True)


def timing(count: int, seconds: float, unit: str, workers: int | None, startup, where: str = "",
           resumed: int = 0) -> str:
    """`200,000 games in 2.1 s (95,238 games/s on 2 threads; not counting 48.0 s to compile the engine)`;
    `where` names a cluster instead of the threads; games taken from a checkpoint (`resumed`)
    are not counted as played."""
    played = count - resumed
    if resumed and not played:
        return f"all {count:,} {unit} taken from the checkpoint (none played)"
    rate = f"{played / seconds:,.0f} {unit}/s" if seconds > 0 else f"? {unit}/s"
    if where:  # a cluster
        threads = f" on {where}"
    else:
        threads = f" on {workers} thread{'s' if workers != 1 else ''}" if workers else ""
    note = startup.note()
    text = f"{played:,} {unit}{' played' if resumed else ''} in {seconds:.1f} s ({rate}{threads}{'; ' + note if note else ''})"
    return text + (f"; {resumed:,} more taken from the checkpoint" if resumed else "")


def print_run(run) -> None:
    console = stdout()
    print_headline(console, run.headline)
    for table in run.tables():
        print_table(console, table)
    r = run.result
    _line(console, timing(r.games, r.seconds, "games", r.workers, r.startup, r.where, r.resumed))


def print_compare(comparison, all_metrics: bool = False) -> None:
    console = stdout()
    print_headline(console, comparison.headline)
    for table in comparison.tables(all_metrics, width=_split_width(console)):
        print_table(console, table)
    results = [r.result for r in comparison.runs]
    _line(console, timing(sum(r.games for r in results), sum(r.seconds for r in results), "games",
                         results[0].workers, comparison.startup, results[0].where, sum(r.resumed for r in results)))
    _skill_line(console, comparison.runs)


def _skill_line(console, runs) -> None:
    """`--skill`: the skill-index games played beside the main ones (not in the line above)."""
    skill = [r.skill_result for r in runs if r.skill_result is not None]
    if skill:
        games, seconds = sum(s.games for s in skill), sum(s.seconds for s in skill)
        _line(console, f"plus {games:,} skill-index games (one {SKILL_BOT} against random bots, seats rotated) "
                       f"in {seconds:.1f} s")


def print_sweep(sweep) -> None:
    console = stdout()
    print_headline(console, sweep.headline)
    print_table(console, sweep_table(sweep))
    results = [r.result for r in sweep.runs]
    _line(console, timing(sum(r.games for r in results), sum(r.seconds for r in results), "games",
                         results[0].workers, sweep.startup, results[0].where, sum(r.resumed for r in results)))
    _skill_line(console, sweep.runs)
    if len(sweep.knobs) > 1:
        print_table(console, ranked_table(sweep))


def print_match(match_run) -> None:
    console = stdout()
    print_headline(console, match_run.headline)
    print_table(console, match_table(match_run))
    r = match_run.result
    _line(console, timing(r.matches, r.seconds, "matches", r.workers, match_run.startup, r.where, r.resumed))


def print_tournament(t) -> None:
    """The headline, the ratings (bots x rule sets) and the skill index of each rule set (api.Tournament)."""
    console = stdout()
    print_headline(console, t.headline)
    _line(console, f"tournament: {len(t.bots)} bots, {t._subtitle()}")
    for table in t.report_tables():
        print_table(console, table)
    r = t.result
    rate = f"{r.games / r.seconds:,.0f} games/s" if r.seconds > 0 else "? games/s"
    _line(console, f"{r.games:,} games in {r.seconds:.1f} s ({rate})")


def print_design(design) -> None:
    from ..output.race import rounds_table, standings_table
    from ..output.tables import split_columns

    console = stdout()
    print_headline(console, design.headline)
    width = _split_width(console)
    for table in (split_columns(standings_table(design, reasons=False), width)
                  + split_columns(rounds_table(design), width)):
        print_table(console, table)
