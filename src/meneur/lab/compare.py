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
        cells = []
        for p, r, c in self.rows():
            entry: dict[str, Any] = {
                "panel": jsonable(self.a.panels.values[p]),
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
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        header = [self.a.panels.name, self.a.rows.name, self.a.columns.name]
        for m in self.a.measures:
            header += [f"{m.name}_a", f"{m.name}_b", f"{m.name}_difference"]
        writer.writerow(header)
        for p, r, c in self.rows():
            line = [
                jsonable(self.a.panels.values[p]),
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
    """Tunnels fights (dice × MR) under two variants, simulated with the same seed.

    Every option of the adapter applies: ``explode`` and ``sixes`` to both sides' rolls,
    ``loss`` (T-10 option) and ``tie`` (T-9 option) to the fight. Cells are win rates.
    """
    from meneur.errors import UsageError
    from meneur.lab.grid import Axis, parse_int_list
    from meneur.lab.sweep import Point, run_sweep, sweep_grid
    from meneur.locale import N_
    from meneur.systems.tunnels.combat import against_monster
    from meneur.systems.tunnels.lab import fights_point

    if adapter.system != "tunnels":
        raise UsageError(
            N_("Fights are compared for Tunnels (dice × MR); use meneur simulate for {system}."),
            system=adapter.system,
        )
    dice = parse_int_list(rows or "2..6", 1, 30, "--rows")
    mrs = parse_int_list(columns or "1..8", 1, 30, "--cols")
    grids = []
    for text in (variant_a, variant_b):
        chosen: dict[str, str] = adapter.parse_variant(text)
        option: dict[str, str] = {key: adapter.option(chosen, key) for key in adapter.options}
        points = [
            Point(
                fights_point,
                against_monster(
                    d,
                    endurance,
                    mr,
                    explode=option["explode"],
                    vs_explode=option["explode"],
                    sixes=option["sixes"],
                    loss=option["loss"],
                    tie=option["tie"],
                    max_rounds=200,
                ),
            )
            for d in dice
            for mr in mrs
        ]
        swept = run_sweep(points, runs, seed=seed, workers=1, progress=True)
        grid = sweep_grid(
            "tunnels",
            Axis("dice", N_("Dice"), dice),
            Axis("mr", N_("Monster Rating"), mrs),
            swept.reports,
        )
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
