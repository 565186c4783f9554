"""An exact grid over several processes: its independent groups of panels, one per worker.

The exact grids are pure CPU work in one thread (FLINT products, Python integers), so a
second core helps only through a second process. What may be split is the adapter's
word (:meth:`meneur.lab.adapter.Adapter.panel_groups`): panels of one group share caches
(one panel's table reads another's, say the family of another explosion policy of the
same mode) and stay in one process; groups share nothing, and each worker computes its
share exactly as the serial grid would (:meth:`~meneur.lab.adapter.Adapter.serial_grid`,
row by row), so the cells are the same integers, put back in the serial order.

Choices, and why:

* **forkserver**, not fork: the CLI may have a rich progress thread (and the executor its
  own) running, and a fork copies whatever lock a thread holds. The server preloads the
  main module and the adapter's module, so each worker is a fork of an interpreter that
  has already imported them: ~0.2-0.4 s to the first cell on this 2-core machine (spawn:
  ~0.5 s, each worker importing everything). The server lasts as long as this process.
* **at most one worker per core** this process may run on, never more than the groups;
  ``MENEUR_WORKERS`` caps them further (``1`` or ``0``: serial, for tests and debugging; a
  value that is not a whole number also means serial: the safe reading of a typo).
* **rows, as they are done**: a worker sends each row's cells through a queue (its feeder
  thread writes while the worker computes on); the parent files them and advances the
  bar, so the bar moves as in a serial run, and the big integers cross while the work
  goes on rather than all at the end.
* **Ctrl-C**: workers ignore SIGINT (the terminal sends it to the whole process group);
  the parent ends them (no orphan computes on) and keeps the rows received, marking the
  grid interrupted as the serial grid does.
* **errors**: an error raised in a worker (a :class:`~meneur.errors.MeneurError` pickles
  with its parameters) is raised again in the parent, the same one-line message; the
  other workers are ended at once. Processes are a speed-up, never a requirement: if
  they cannot start (no semaphores in a sandbox) or one dies (killed, out of memory), the
  rows not received are computed here.
* **a script** that computes a heavy grid needs the ``if __name__ == "__main__":`` guard,
  as for any multiprocessing that does not fork: the workers import the main module.
  Without it they fail to start, and the grid is computed here (after the failed
  workers' tracebacks).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from queue import Empty
from typing import TYPE_CHECKING, Any

from meneur.lab.grid import Axis, Cell, Grid

if TYPE_CHECKING:
    from meneur.lab.adapter import Adapter

WORKERS = "MENEUR_WORKERS"
"""The environment variable that caps the worker processes (``1``: serial)."""
POLL = 0.1
"""Seconds the parent waits for a row before it looks at the workers themselves."""
IN_FLIGHT = 30.0
"""Seconds the parent waits, once every worker has returned, for the rows they sent that
have not landed yet (a busy machine delays a queue's feeder thread); after that the
caller computes what is missing."""

Row = list[tuple[int, Cell]]
"""One row's cells by column index (a column without a cell is absent)."""
Message = tuple[int, int, int, Row]
"""(group, panel within the group, row, cells): one row done by a worker."""

_rows_done: Any = None
"""In a worker: the queue its rows go to (set by :func:`_start_worker`)."""


def workers(groups: int) -> int:
    """Worker processes for ``groups`` independent groups (1: compute here, serially)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    count = min(groups, cores)
    wanted = os.environ.get(WORKERS, "").strip()
    if wanted:
        try:
            count = min(count, int(wanted))
        except ValueError:
            return 1
    return max(count, 1)


def compute_groups(
    adapter: Adapter,
    check: str,
    variant: Mapping[str, str],
    axes: tuple[Axis, Axis, Axis],
    groups: Sequence[Sequence[int]],
    processes: int,
    progress: Callable[[int], None] | None,
) -> Grid:
    """The grid of ``axes``, each group of panel indices computed in a worker process
    (``processes`` of them, groups handed out in the order given: the heaviest first).

    The cells are those of :meth:`Adapter.serial_grid` on the whole grid, in its order.
    """
    panels, rows, columns = axes
    if sorted(i for group in groups for i in group) != list(range(len(panels.values))):
        raise ValueError(f"panel groups {groups!r} do not cover the panels once each")
    shares = [
        Axis(
            panels.name,
            panels.label,
            tuple(panels.values[i] for i in group),
            tuple(panels.labels[i] for i in group) if panels.labels else (),
        )
        for group in groups
    ]
    received: dict[tuple[int, int], Row] = {}  # (panel, row): its cells

    def file(message: Message) -> None:
        index, panel, row, cells = message
        received[(groups[index][panel], row)] = cells
        if progress is not None:
            progress(len(columns.values))

    interrupted = False
    try:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", type(adapter).__module__])
        queue = context.Queue()
        pool = ProcessPoolExecutor(
            processes, mp_context=context, initializer=_start_worker, initargs=(queue,)
        )
    except (OSError, ImportError):  # no processes here (no semaphores): compute here
        processes = 0
    else:
        try:
            expected = len(panels.values) * len(rows.values)
            interrupted = _collect(
                pool, queue, adapter, check, variant, shares, axes, file, expected
            )
        finally:
            queue.close()
    try:
        for index, share in enumerate(shares):  # rows no worker sent (one died, none started)
            if interrupted:
                break
            group = groups[index]
            done = {
                (p, r)
                for p, i in enumerate(group)
                for r in range(len(rows.values))
                if (i, r) in received
            }
            for panel, row, cells, stopped in _rows(
                adapter, check, variant, share, rows, columns, done
            ):
                file((index, panel, row, cells))
                if stopped:  # Ctrl-C here: the cells done are kept, as in a serial grid
                    interrupted = True
                    break
    except KeyboardInterrupt:  # Ctrl-C between two rows (the bar, filing): the same
        interrupted = True
    grid = Grid(
        adapter.system,
        check,
        dict(variant),
        panels,
        rows,
        columns,
        adapter.measures(check),
        interrupted=interrupted,
        workers=processes,
    )
    for panel in range(len(panels.values)):  # the serial order: panel, row, column
        for row in range(len(rows.values)):
            for column, cell in received.get((panel, row), ()):
                grid.cells[(panel, row, column)] = cell
    return grid


def _collect(
    pool: ProcessPoolExecutor,
    queue: Any,
    adapter: Adapter,
    check: str,
    variant: Mapping[str, str],
    shares: list[Axis],
    axes: tuple[Axis, Axis, Axis],
    file: Callable[[Message], None],
    expected: int,
) -> bool:
    """File the workers' rows as they land, ``expected`` of them; True if Ctrl-C stopped it.

    A worker's error is raised here; if a worker died (or none could start), the rows
    missing are left to the caller.
    """
    _panels, rows, columns = axes
    count = 0
    try:
        futures: list[Future[int]] = [
            pool.submit(_share, adapter, check, variant, index, share, rows, columns)
            for index, share in enumerate(shares)
        ]
        late_by: float | None = None  # when rows sent but still in the pipe stop counting
        while count < expected:
            try:
                message = queue.get(timeout=POLL)
            except Empty:
                for future in futures:
                    if future.done():
                        future.result()  # a worker's error, raised here
                if all(future.done() for future in futures):
                    # every worker returned: the rows it put may still be on their way
                    # (a queue's feeder thread sends them after); wait for those, for a
                    # while, then leave any missing to the caller
                    sent = sum(int(future.result()) for future in futures)
                    late_by = late_by or time.monotonic() + IN_FLIGHT
                    if count >= sent or time.monotonic() > late_by:
                        break
                continue
            file(message)
            count += 1
    except KeyboardInterrupt:  # Ctrl-C: keep the rows received, end the workers
        _end(pool)
        return True
    except (BrokenProcessPool, OSError):  # a worker died, or none could start: the
        _end(pool)  # rows missing are computed by the caller (an OSError of its own again)
    except BaseException:  # a worker's error: no other worker computes on
        _end(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return False


def _end(pool: ProcessPoolExecutor) -> None:
    """End the workers now (they ignore Ctrl-C; ``shutdown`` alone would wait for them)."""
    for process in list((pool._processes or {}).values()):
        if process.is_alive():
            process.terminate()


def _rows(
    adapter: Adapter,
    check: str,
    variant: Mapping[str, str],
    panels: Axis,
    rows: Axis,
    columns: Axis,
    done: Collection[tuple[int, int]],
) -> Iterator[tuple[int, int, Row, bool]]:
    """(panel, row, cells, Ctrl-C stopped it) of each row not ``done``, in the serial
    order, each computed by :meth:`Adapter.serial_grid` (in one process, the caches that
    a row leaves serve the next, as in a whole serial grid)."""
    for p, panel in enumerate(panels.values):
        one = Axis(panels.name, panels.label, (panel,))
        for r, value in enumerate(rows.values):
            if (p, r) in done:
                continue
            grid = adapter.serial_grid(
                check, variant, one, Axis(rows.name, rows.label, (value,)), columns
            )
            yield p, r, [(c, cell) for (_p, _r, c), cell in grid.cells.items()], grid.interrupted


def _start_worker(queue: Any) -> None:
    """In each worker: Ctrl-C is the parent's to handle; the rows done go to ``queue``."""
    global _rows_done
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _rows_done = queue


def _share(
    adapter: Adapter,
    check: str,
    variant: Mapping[str, str],
    index: int,
    panels: Axis,
    rows: Axis,
    columns: Axis,
) -> int:
    """In a worker: the rows of group ``index``, each sent to the parent once done; how
    many were sent."""
    sent = 0
    for panel, row, cells, _stopped in _rows(adapter, check, variant, panels, rows, columns, ()):
        _rows_done.put((index, panel, row, cells))
        sent += 1
    return sent
