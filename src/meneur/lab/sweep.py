"""Parameter sweeps: on a Dask cluster (``--scheduler``) or local cores, for every system.

A sweep is a grid of independent simulations, one per point, each with its own seed
(spawned from the sweep's seed by numpy's ``SeedSequence``, so a sweep is reproducible
wherever it runs). Points go to Dask workers when a scheduler address is given, else to
a local process pool. What a point simulates is its :class:`Point`'s ``build``: a
system's fights (``systems/<name>/lab.py``), or :func:`cell_point`, one cell of
``meneur table`` rolled many times, for any system with a vectorised resolve.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from meneur.errors import UsageError
from meneur.lab.grid import Axis, Grid, Measure
from meneur.lab.simulate import Tally, run_chunks
from meneur.locale import N_
from meneur.systems.base import Check

CONNECT_SECONDS = 5
"""How long a sweep waits for its Dask scheduler to answer before giving up."""
PointChunk = tuple[Callable[[Any, int], Tally], str, int | None]
"""(chunk, the count that is a "win", chunk size) of a sweep's point."""


@dataclass(frozen=True)
class Point:
    """One point of a sweep: what to simulate (``build`` of ``spec``), how often, its seed.

    ``build`` turns ``spec`` into (a chunk, the count that is a "win", a chunk size or
    None). It is a module-level function, so that a point pickles to any worker.
    """

    build: Callable[[Any], PointChunk]
    spec: Any
    runs: int = 0
    seed: int = 0


def cell_chunk_for(check: Check[Any, Any], params: Any) -> Callable[[Any, int], Tally]:
    """The vectorised chunk of one table cell (``success`` counted as the table does)."""
    from meneur.lab.simulate import cell_chunk

    vector = check.vectorised(params)
    if vector is None:
        raise UsageError(N_("No vectorised resolve for this roll yet (it is left to exact odds)."))
    return cell_chunk(vector)


def cell_point(spec: tuple[Check[Any, Any], Any]) -> PointChunk:
    """The chunk of a table cell's point: ``spec`` is (the system's check, its params).

    The point carries the check itself (it pickles to a worker), so the lab never looks
    a system up by its name.
    """
    check, params = spec
    return cell_chunk_for(check, params), "success", None


def one_point(point: Point) -> dict[str, Any]:
    """Simulate one point of the sweep (runs on a worker: no progress bar)."""
    from meneur.lab.simulate import DEFAULT_CHUNK

    chunk, key, size = point.build(point.spec)
    tally = run_chunks(
        point.runs, chunk, seed=point.seed, chunk=size or DEFAULT_CHUNK, progress=False
    )
    rate = tally.rate(key)
    rounds = tally.histograms.get("rounds", {})
    return {
        "runs": tally.runs,
        "wins": tally.counts.get(key, 0),
        "win_rate": rate["rate"],
        "win_interval_95": rate["interval_95"],
        "rounds_mean": (
            sum(k * v for k, v in rounds.items()) / tally.runs if rounds and tally.runs else None
        ),
    }


def seeds(seed: int | None, count: int) -> list[int]:
    sequence = np.random.SeedSequence(seed)
    return [int(child.generate_state(1)[0]) for child in sequence.spawn(count)]


@dataclass
class SweepResult:
    """Each point's report in the order of the points (``None``: not done, interrupted)."""

    reports: list[dict[str, Any] | None]
    interrupted: bool = False


class _Bar:
    """The lab's progress bar over the points (:func:`~meneur.lab.progress.start_bar`: on
    standard error, nothing at all off a terminal), or nothing."""

    def __init__(self, total: int, shown: bool, description: str) -> None:
        self.bar: Any = None
        if shown and total > 1:
            from meneur.lab.progress import start_bar

            self.bar, self.task = start_bar(description, total, 0)

    def advance(self) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def run_sweep(
    points: Sequence[Point],
    runs: int,
    *,
    seed: int | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = False,
    description: str = "",
) -> SweepResult:
    """Every point's report; a progress bar over the points; Ctrl-C keeps the points done."""
    tasks = [
        Point(p.build, p.spec, runs, s)
        for p, s in zip(points, seeds(seed, len(points)), strict=True)
    ]
    result = SweepResult([None] * len(tasks))
    bar = _Bar(len(tasks), progress, description)
    try:
        if scheduler:
            _on_dask(scheduler, tasks, result, bar)
        else:
            _on_cores(workers, tasks, result, bar)
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        bar.stop()
    return result


def _check_address(scheduler: str) -> None:
    """Refuse a malformed address before Dask makes a client of it: its parser raises
    only once the client connects, and the half-made client then spends 10 s closing
    at exit, with a traceback."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler, strict=False)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError):
        raise UsageError(
            N_("'{address}' is not a Dask scheduler address: give one like tcp://host:8786."),
            address=scheduler[:80],
        ) from None


def _unreachable(scheduler: str) -> UsageError:
    return UsageError(
        N_(
            "Cannot reach the Dask scheduler {address}: no scheduler answered there "
            "within {seconds} s."
        ),
        address=scheduler[:80],
        seconds=CONNECT_SECONDS,
    )


def _check_scheduler(scheduler: str) -> None:
    """Shake hands with the scheduler, in Dask's own protocol, within
    :data:`CONNECT_SECONDS`, before a client is made.

    Dask's client bounds the connection but not the handshake after it: a server that
    accepts and stays silent (a web server, such as the scheduler's own dashboard) kept
    the sweep waiting for ever, and one that speaks first (an SSH server) had its banner
    read as a frame length, a MemoryError and a traceback.
    """
    import asyncio

    from distributed.comm import core  # its ``connect``: untyped, as the Client above

    async def shake_hands() -> None:
        connect: Any = core.connect
        comm = await asyncio.wait_for(connect(scheduler, timeout=CONNECT_SECONDS), CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(shake_hands())
    except OSError:  # refused, timed out (TimeoutError is one), no such host, silent
        raise _unreachable(scheduler) from None
    except Exception:  # whatever a stranger's bytes raise in Dask's reader (MemoryError...)
        raise UsageError(
            N_(
                "Something answered at {address}, but not a Dask scheduler: give the "
                "scheduler's address (tcp://host:8786 by default; 8787 is its dashboard)."
            ),
            address=scheduler[:80],
        ) from None


def _on_dask(scheduler: str, tasks: list[Point], result: SweepResult, bar: _Bar) -> None:
    try:
        import distributed
    except ImportError:
        raise UsageError(N_("--scheduler needs Dask: pip install 'dask[distributed]'.")) from None
    _check_address(scheduler)
    _check_scheduler(scheduler)
    try:
        client: Any = getattr(distributed, "Client")(  # noqa: B009 - untyped library
            scheduler, timeout=CONNECT_SECONDS, set_as_default=False
        )
    except OSError:  # gone since the check: Dask says it in its own English
        raise _unreachable(scheduler) from None
    futures: list[Any] = []
    try:
        futures = client.map(one_point, tasks, pure=False)
        for i, future in enumerate(futures):  # in order: the bar moves as points land
            result.reports[i] = future.result()
            bar.advance()
    except KeyboardInterrupt:
        client.cancel(futures)
        raise
    finally:
        client.close()


def _on_cores(workers: int | None, tasks: list[Point], result: SweepResult, bar: _Bar) -> None:
    count = workers or min(len(tasks), os.cpu_count() or 1)
    if count <= 1:
        for i, task in enumerate(tasks):
            result.reports[i] = one_point(task)
            bar.advance()
        return
    pool = ProcessPoolExecutor(max_workers=count)
    try:
        futures = {pool.submit(one_point, task): i for i, task in enumerate(tasks)}
        for future in as_completed(futures):
            result.reports[futures[future]] = future.result()
            bar.advance()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def sweep_grid(
    system: str,
    rows: Axis,
    columns: Axis,
    reports: Sequence[dict[str, Any] | None],
    measure: Measure | None = None,
) -> Grid:
    """The sweep as a grid (rows × columns) of rates, for the table and plot renderers."""
    grid = Grid(
        system,
        "sweep",
        {},
        Axis("panel", N_("Variant"), ("sweep",), ("",)),
        rows,
        columns,
        (measure or Measure("win", N_("Win")),),
    )
    name = grid.measures[0].name
    for index, report in enumerate(reports):
        if report is None:  # interrupted before this point
            continue
        r, c = divmod(index, len(columns.values))
        grid.cells[(0, r, c)] = {name: Fraction(report["wins"], max(1, report["runs"]))}
    return grid
