"""Grids as rich tables: one table per panel, percentages coloured by value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meneur.lab.grid import Grid
from meneur.locale import gettext as _
from meneur.locale.numbers import percent
from meneur.text import visible

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table


def style_of(p: float) -> str:
    if p >= 0.75:
        return "bold green"
    if p >= 0.5:
        return "green"
    if p >= 0.25:
        return "yellow"
    if p > 0:
        return "red"
    return "dim"


def diff_style(d: float) -> str:
    if abs(d) < 0.0005:
        return "dim"
    return "green" if d > 0 else "red"


def corner(grid: Grid) -> str:
    """The top-left header: ``Dés \\ Seuil`` when short, else the rows' label alone."""
    text = f"{_(grid.rows.label)} \\ {_(grid.columns.label)}"
    return text if len(text) <= 14 else _(grid.rows.label)


def caption(grid: Grid, measure: int, extra: str = "") -> str:
    """Under the table: what its cells measure, in percent (the cells leave out « % »,
    so that ten columns of a grid fit an 80-column terminal unwrapped), and its columns."""
    return _("{measure} (%); columns: {columns}{extra}").format(
        measure=_(grid.measures[measure].label), columns=_(grid.columns.label), extra=extra
    )


def cell_percent(p: float, digits: int = 1) -> str:
    """A cell of a grid: « 43,2 », « <0,1 » (the caption says « % »; no space inside, so
    that a narrow column never breaks a value over two lines)."""
    return percent(p, digits, symbol=False).replace(" ", "")


def fits(*lines: str) -> int:
    """A table's least width: its title and caption on one line each (a grid of one or
    two columns wrapped them word by word), up to a terminal's 80 columns."""
    return min(max(map(len, lines)), 80)


def panel_table(grid: Grid, panel: int, measure: int = 0, title: str | None = None) -> Table:
    from rich.table import Table

    name = grid.measures[measure].name
    heading, under = title or grid.panels.label_of(panel), caption(grid, measure)
    table = Table(title=heading, title_style="bold", caption=under, min_width=fits(heading, under))
    table.add_column(corner(grid), justify="right", style="bold")
    for c in range(len(grid.columns.values)):
        table.add_column(grid.columns.label_of(c), justify="right")
    for r in range(len(grid.rows.values)):
        cells = []
        for c in range(len(grid.columns.values)):
            cell = grid.cells.get((panel, r, c))
            if cell is None:
                cells.append("")
                continue
            p = float(cell[name])
            cells.append(f"[{style_of(p)}]{cell_percent(p)}[/]")
        table.add_row(grid.rows.label_of(r), *cells)
    return table


def render_grid(console: Console, grid: Grid, title: str, measure: int = 0) -> None:
    console.print(f"[bold]{title}[/]")
    for panel in range(len(grid.panels.values)):
        console.print(panel_table(grid, panel, measure))


def render_compare(console: Console, a: Grid, b: Grid, title: str, measure: int = 0) -> None:
    """Each panel: variant A, variant B, and B − A in percentage points."""
    from rich.table import Table

    name = a.measures[measure].name
    console.print(f"[bold]{title}[/]")
    for panel in range(len(a.panels.values)):
        label = a.panels.label_of(panel)
        other = b.panels.label_of(panel)
        heading = label if label == other else f"{label} / {other}"
        under = caption(a, measure, _("; A → B, then B − A in points"))
        table = Table(
            title=heading, title_style="bold", caption=under, min_width=fits(heading, under)
        )
        table.add_column(corner(a), justify="right", style="bold")
        for c in range(len(a.columns.values)):
            table.add_column(a.columns.label_of(c), justify="right")
        for r in range(len(a.rows.values)):
            row = []
            for c in range(len(a.columns.values)):
                x, y = a.cells.get((panel, r, c)), b.cells.get((panel, r, c))
                if x is None or y is None:
                    row.append("")
                    continue
                pa, pb = float(x[name]), float(y[name])
                d = pb - pa
                change = f"[{diff_style(d)}]{percent(d, 1, signed=True, symbol=False)}[/]"
                row.append(f"{cell_percent(pa, 0)} → {cell_percent(pb, 0)}\n{change}")
            table.add_row(a.rows.label_of(r), *row)
        console.print(table)


def print_ending(console: Console, interrupted: bool, plot: Path | None) -> None:
    """The last lines of every lab command's human output: a warning when Ctrl-C cut the
    runs short (the figures above are partial), then where the plot went.

    One place, so that ``table``, ``compare`` and each ``simulate`` command end alike.
    """
    if interrupted:
        console.print("[yellow]" + _("Interrupted: partial result.") + "[/]")
    if plot is not None:
        said = _("Plot written to {path}.").format(path=visible(str(plot)))
        console.print(said, markup=False)  # « [bold]x.png » was said « x.png »
