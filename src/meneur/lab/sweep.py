"""Parameter sweeps of whole fights: on a Dask cluster (``--scheduler``) or local cores.

A sweep is a grid of Tunnels fights (the character's dice × the monster's MR); each
point is one independent simulation with its own seed (spawned from the sweep's seed by
numpy's ``SeedSequence``, so a sweep is reproducible wherever it runs). Points go to
Dask workers when a scheduler address is given, else to a local process pool.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

from meneur.errors import UsageError
from meneur.lab.grid import Axis, Grid, Measure
from meneur.lab.simulate import TunnelsFight, fight_report, run_chunks, tunnels_fights
from meneur.locale import N_


def one_point(task: tuple[TunnelsFight, int, int]) -> dict[str, Any]:
    """Simulate one point of the sweep (runs on a worker: no progress bar)."""
    fight, runs, seed = task
    tally = run_chunks(
        runs, lambda rng, n: tunnels_fights(fight, rng, n), seed=seed, progress=False
    )
    report = fight_report(fight, tally)
    report["wins"] = tally.counts.get("won", 0)
    return report


def seeds(seed: int | None, count: int) -> list[int]:
    import numpy as np

    sequence = np.random.SeedSequence(seed)
    return [int(child.generate_state(1)[0]) for child in sequence.spawn(count)]


def run_sweep(
    fights: Sequence[TunnelsFight],
    runs: int,
    *,
    seed: int | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
) -> list[dict[str, Any]]:
    """Every point's report, in the order of ``fights``."""
    tasks = list(zip(fights, [runs] * len(fights), seeds(seed, len(fights)), strict=True))
    if scheduler:
        try:
            import distributed
        except ImportError:
            raise UsageError(
                N_("--scheduler needs Dask: pip install 'dask[distributed]'.")
            ) from None
        try:
            client: Any = getattr(distributed, "Client")(  # noqa: B009 - untyped library
                scheduler, timeout=5, set_as_default=False
            )
        except OSError as error:
            raise UsageError(
                N_("Cannot reach the Dask scheduler {address}: {reason}"),
                address=scheduler[:80],
                reason=str(error)[:120],
            ) from None
        try:
            futures = client.map(one_point, tasks, pure=False)
            results: list[dict[str, Any]] = client.gather(futures)
        finally:
            client.close()
        return results
    count = workers or min(len(tasks), os.cpu_count() or 1)
    if count <= 1:
        return [one_point(task) for task in tasks]
    with ProcessPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one_point, tasks))


def sweep_grid(dice: Sequence[int], mrs: Sequence[int], reports: Sequence[dict[str, Any]]) -> Grid:
    """The sweep as a grid (dice × MR) of win rates, for the table and plot renderers."""
    grid = Grid(
        "tunnels",
        "fight",
        {},
        Axis("panel", N_("Variant"), ("sweep",), ("",)),
        Axis("dice", N_("Dice"), tuple(dice)),
        Axis("mr", N_("Monster Rating"), tuple(mrs)),
        (Measure("win", N_("Win")),),
    )
    for index, report in enumerate(reports):
        r, c = divmod(index, len(mrs))
        grid.cells[(0, r, c)] = {"win": Fraction(report["wins"], report["runs"])}
    return grid
