"""Tunnels' exact grid over worker processes: one mode per process (T-3), the very same
integer weights as the serial grid, in the same order; small grids stay in one process.

``PARALLEL_WORK`` is lowered here so that a grid of a few seconds at most takes the
parallel path (the real threshold is met from ~47 dice and thresholds).
"""

from __future__ import annotations

from typing import cast

import pytest

from meneur.lab.grid import ExactCell, Grid
from meneur.lab.parallel import WORKERS, workers
from meneur.systems.tunnels import lab_adapter
from meneur.systems.tunnels.lab_adapter import ADAPTER


def exact(grid: Grid) -> list[tuple[tuple[int, int, int], tuple[int, ...], int]]:
    """Every cell's key and integer weights over its total, in the grid's own order."""
    out = []
    for key, cell in grid.cells.items():
        assert isinstance(cell, ExactCell)
        out.append((key, cell.weights, cell.total))
    return out


@pytest.mark.skipif(workers(3) < 2, reason="needs two cores (and MENEUR_WORKERS unset)")
def test_T3_T6_the_parallel_grid_is_the_serial_grid_weight_for_weight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """T-3 (modes), T-6 (the three explosion policies), T-7 (sixes: all): 1..14 dice ×
    thresholds 1..16, nine panels, computed by mode in workers and here."""
    monkeypatch.setattr(lab_adapter, "PARALLEL_WORK", 1)
    for variant in ({}, {"sixes": "all"}):
        parallel = ADAPTER.grid("test", variant, "1..14", "1..16")
        monkeypatch.setenv(WORKERS, "1")
        serial = ADAPTER.grid("test", variant, "1..14", "1..16")
        monkeypatch.delenv(WORKERS)
        assert parallel.workers == 2 and serial.workers == 0
        assert exact(parallel) == exact(serial)
        assert len(parallel.cells) == 9 * 14 * 16
        assert parallel.panels == serial.panels and not parallel.interrupted


def test_T3_a_group_is_one_mode_with_all_its_policies() -> None:
    """``needed`` reads the ``always`` family of its mode: one process per mode."""
    panels, rows, columns = ADAPTER.axes("test", {}, "1..60", "1..60", None)
    groups = ADAPTER.panel_groups("test", {}, panels, rows, columns)
    assert len(groups) == 3
    for group in groups:
        chosen = [cast(tuple[str, str], panels.values[i]) for i in group]
        assert len({mode for mode, _policy in chosen}) == 1
        assert {policy for _mode, policy in chosen} == {"needed", "always", "never"}


@pytest.mark.parametrize(
    ("check", "variant", "rows", "columns", "panels"),
    [
        ("test", {}, "1..6", "1..6", None),  # small: a worker costs more than the grid
        ("test", {}, "1..40", "1..40", None),  # ~1.5 s: two workers take as long
        ("test", {"explode": "never"}, "1..60", "1..60", None),  # no explosion: numpy, fast
        ("test", {}, "1..60", "1..60", "normal"),  # one mode: one group
        ("oppose", {}, "1..6", "1..6", None),
    ],
)
def test_light_grids_stay_in_one_process(
    check: str, variant: dict[str, str], rows: str, columns: str, panels: str | None
) -> None:
    axes = ADAPTER.axes(check, variant, rows, columns, panels)
    assert len(ADAPTER.panel_groups(check, variant, *axes)) <= 1


def test_a_small_grid_is_computed_here() -> None:
    grid = ADAPTER.grid("test", {}, "1..6", "1..6")
    assert grid.workers == 0 and len(grid.cells) == 9 * 36
