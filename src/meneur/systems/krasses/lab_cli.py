"""The Krâsses commands of the lab: ``meneur simulate test|sweep krasses``.

Krâsses has no fight to simulate: its sweep rolls the cells of its tables. Help strings
are translated on import; the lab loads when run.
"""

from __future__ import annotations

from meneur.cli.labkit import (
    CELL_TEST_HELP,
    CellCheck,
    CellOptions,
    Cols,
    Panel,
    Plot,
    Rows,
    Scheduler,
    SweepRun,
    SweepRuns,
    Variant,
    Workers,
    cell_test_command,
    sweep_cells,
)
from meneur.cli.params import Json, Seed
from meneur.locale import gettext as _
from meneur.systems.base import CommandGroups, System


def sweep_command(
    check: CellCheck = None,
    rows: Rows = None,
    cols: Cols = None,
    panel: Panel = None,
    variant: Variant = None,
    runs: SweepRuns = 100_000,
    seed: Seed = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """A grid of simulations, each point on a worker: the cells of a table."""
    run = SweepRun.checked(runs, seed, scheduler, workers, plot, as_json)
    cells = CellOptions(check, rows, cols, panel, variant)
    from meneur.systems.krasses.system import SYSTEM

    sweep_cells(SYSTEM, cells, run)


def _system() -> System:
    from meneur.systems.krasses.system import SYSTEM

    return SYSTEM


def register(groups: CommandGroups) -> None:
    """Add ``simulate test|sweep krasses`` (no fight, no resource to spend)."""
    groups.group("simulate", "test").command(name="krasses", help=_(CELL_TEST_HELP))(
        cell_test_command(_system)
    )
    groups.group("simulate", "sweep").command(
        "krasses", help=_("Sweep a table's cells, on cores or Dask.")
    )(sweep_command)


__all__ = ["register", "sweep_command"]
