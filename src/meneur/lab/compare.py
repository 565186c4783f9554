"""Two variants of the rules over the same grid, and their difference."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from meneur.lab.grid import Grid, jsonable, variant_label


@dataclass(frozen=True)
class Comparison:
    a: Grid
    b: Grid

    def labels(self) -> tuple[str, str]:
        from meneur.locale import gettext as _

        def label(grid: Grid) -> str:
            return variant_label(grid.variant) if grid.variant else _("default rules")

        return label(self.a), label(self.b)

    def rows(self) -> list[tuple[int, int, int]]:
        return sorted(set(self.a.cells) & set(self.b.cells))

    def to_json(self) -> dict[str, Any]:
        """Each cell names both sides' panel (``{"a": ..., "b": ...}``, as each measure
        gives ``a``, ``b`` and the difference): panels are matched by position and differ
        with the variant (``normal/never`` against ``normal/always``); side A's alone
        said nothing of what B was."""
        cells = []
        for p, r, c in self.rows():
            entry: dict[str, Any] = {
                "panel": {
                    "a": jsonable(self.a.panels.values[p]),
                    "b": jsonable(self.b.panels.values[p]),
                },
                self.a.rows.name: jsonable(self.a.rows.values[r]),
                self.a.columns.name: jsonable(self.a.columns.values[c]),
            }
            for m in self.a.measures:
                pa, pb = self.a.cells[(p, r, c)][m.name], self.b.cells[(p, r, c)][m.name]
                entry[m.name] = {"a": float(pa), "b": float(pb), "difference": float(pb - pa)}
            cells.append(entry)
        return {
            "system": self.a.system,
            "check": self.a.check,
            "a": dict(self.a.variant),
            "b": dict(self.b.variant),
            "measures": [m.name for m in self.a.measures],
            "cells": cells,
            "interrupted": self.a.interrupted or self.b.interrupted,
        }

    def to_csv(self) -> str:
        """One line per cell, A, B and their difference side by side as in :meth:`to_json`:
        each side's variant (``explode=never``, ``default``) and panel (``normal/never``
        against ``normal/always``) have their own column; side A's panel alone, and no
        variant, said nothing of what B was."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        panel = self.a.panels.name
        header = ["variant_a", "variant_b", f"{panel}_a", f"{panel}_b"]
        header += [self.a.rows.name, self.a.columns.name]
        for m in self.a.measures:
            header += [f"{m.name}_a", f"{m.name}_b", f"{m.name}_difference"]
        writer.writerow(header)
        variants = [variant_label(self.a.variant), variant_label(self.b.variant)]
        for p, r, c in self.rows():
            line = [
                *variants,
                jsonable(self.a.panels.values[p]),
                jsonable(self.b.panels.values[p]),
                jsonable(self.a.rows.values[r]),
                jsonable(self.a.columns.values[c]),
            ]
            for m in self.a.measures:
                pa, pb = self.a.cells[(p, r, c)][m.name], self.b.cells[(p, r, c)][m.name]
                line += [f"{float(pa):.12g}", f"{float(pb):.12g}", f"{float(pb - pa):.12g}"]
            writer.writerow(line)
        return out.getvalue()


def compare_grids(
    adapter: Any,
    variant_a: str,
    variant_b: str,
    check: str | None = None,
    rows: str | None = None,
    columns: str | None = None,
    panels: str | None = None,
) -> Comparison:
    """The same grid under two variants; panels are matched by position."""
    first, second = adapter.parse_variant(variant_a), adapter.parse_variant(variant_b)
    # an option one variant sets and the other does not takes its default there, so that
    # both grids have the same panels, rows and columns
    for key in (*first, *second):
        first.setdefault(key, adapter.options[key][0])
        second.setdefault(key, adapter.options[key][0])
    from meneur.lab.progress import LazyBar
    from meneur.locale import gettext as _

    bar = LazyBar(0, _("Exact odds"))
    try:
        a = adapter.grid(check, first, rows, columns, panels, progress=bar)
        if a.interrupted:  # Ctrl-C: no second grid, the first one's cells are kept
            b = Grid(a.system, a.check, second, a.panels, a.rows, a.columns, a.measures)
            object.__setattr__(b, "interrupted", True)
        else:
            bar = LazyBar(0, _("Exact odds"))
            b = adapter.grid(check, second, rows, columns, panels, progress=bar)
    finally:
        bar.stop()
    return Comparison(a, b)


def compare_fights(
    adapter: Any,
    variant_a: str,
    variant_b: str,
    rows: str | None,
    columns: str | None,
    *,
    endurance: int,
    runs: int,
    seed: int | None,
) -> Comparison:
    """A system's fights over its adapter's fight grid under two variants, simulated
    with the same seed. Cells are win rates.

    The adapter says what a fight is (:meth:`~meneur.lab.adapter.Adapter.fight_axes`,
    :meth:`~meneur.lab.adapter.Adapter.fight_point`); every option of its variant applies.
    """
    from meneur.lab.sweep import run_sweep, sweep_grid

    row_axis, column_axis = adapter.fight_axes(rows, columns)
    grids = []
    for text in (variant_a, variant_b):
        chosen: dict[str, str] = adapter.parse_variant(text)
        points = [
            adapter.fight_point(chosen, row, column, endurance=endurance)
            for row in row_axis.values
            for column in column_axis.values
        ]
        swept = run_sweep(points, runs, seed=seed, workers=1, progress=True)
        grid = sweep_grid(adapter.system, row_axis, column_axis, swept.reports)
        grids.append(
            Grid(
                grid.system,
                "fight",
                chosen,
                grid.panels,
                grid.rows,
                grid.columns,
                grid.measures,
                grid.cells,
            )
        )
    return Comparison(grids[0], grids[1])
