"""An exact grid over worker processes (``meneur.lab.parallel``): the same cells, in the
same order, as computed in one process; groups of panels really computed elsewhere.

The adapter below is a toy (its cells are arithmetic, plus the id of the process that
computed them), so that the machinery is tested apart from any system's odds; Tunnels'
own grid is compared in ``tests/systems/tunnels/test_tunnels_parallel_grid.py``.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import Future
from fractions import Fraction
from pathlib import Path
from queue import Empty
from typing import ClassVar

import pytest

from meneur.errors import LimitError, UsageError
from meneur.lab import parallel
from meneur.lab.adapter import Adapter
from meneur.lab.grid import Axis, Grid, Measure
from meneur.lab.parallel import WORKERS, workers
from meneur.systems.krasses.system import SYSTEM

PANELS = ("a", "b", "c", "d")
GROUPS = ((0, 1), (2,), (3,))
"""``a`` and ``b`` share a process (as Tunnels' policies of one mode do)."""
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
TWO_CORES = pytest.mark.skipif(
    (CORES or 1) < 2 or bool(os.environ.get(WORKERS)),
    reason="needs two cores (and MENEUR_WORKERS unset)",
)
"""Read apart from :func:`workers` (a ``workers`` that always said 1 skipped these tests)."""


class ToyAdapter(Adapter):
    """Cells ``100 p + 10 r + c`` (exact), the process that computed them, and an error
    on demand (the panel ``d`` with the variant ``fail=yes``), Ctrl-C on demand
    (``stop=c``); with ``slow=FOLDER`` each cell of the group ``a``, ``b`` takes a quarter
    of a second and leaves a file there."""

    options: ClassVar[Mapping[str, tuple[str, ...]]] = {"fail": ("no", "yes", "die")}

    def __init__(self, *, grouped: bool = True) -> None:
        super().__init__(SYSTEM)
        self.grouped = grouped

    def axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None = None,
        columns: str | None = None,
        panels: str | None = None,
    ) -> tuple[Axis, Axis, Axis]:
        return (
            Axis("panel", "Panel", PANELS),
            Axis("row", "Row", (1, 2, 3)),
            Axis("column", "Column", (1, 2, 3, 4)),
        )

    def measures(self, check: str) -> tuple[Measure, ...]:
        return Measure("value", "Value"), Measure("pid", "Process")

    def panel_groups(
        self, check: str, variant: Mapping[str, str], panels: Axis, rows: Axis, columns: Axis
    ) -> Sequence[Sequence[int]]:
        return GROUPS if self.grouped else ()

    def cell(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> dict[str, Fraction] | None:
        assert isinstance(panel, str) and isinstance(row, int) and isinstance(column, int)
        if panel == "d" and variant.get("fail") == "yes":
            raise LimitError(N_LIMIT, limit=7)
        if (panel, row, variant.get("stop")) == ("c", 2, "c"):
            raise KeyboardInterrupt  # Ctrl-C as the panel c's second row starts
        if panel == "c" and variant.get("fail") == "die" and multiprocessing.parent_process():
            os._exit(3)  # a worker killed mid-grid (out of memory, kill -9)
        slow = variant.get("slow")
        if slow and panel in ("a", "b"):  # ~6 s for the group: ended early, or not
            time.sleep(0.25)
            (Path(slow) / f"{panel}{row}{column}").touch()
        if (row, column) == (2, 2):
            return None  # a hole stays a hole
        value = 100 * PANELS.index(panel) + 10 * row + column
        return {"value": Fraction(value), "pid": Fraction(os.getpid())}


N_LIMIT = "An axis has at most {limit} values."
"""A message that exists (translated), raised with a parameter by the toy's panel ``d``."""


def values(grid: Grid) -> list[tuple[tuple[int, int, int], Fraction]]:
    """The cells' keys and values, in the grid's own order (not sorted)."""
    return [(key, cell["value"]) for key, cell in grid.cells.items()]


@TWO_CORES
def test_the_parallel_grid_is_the_serial_grid_in_the_same_order() -> None:
    parallel = ToyAdapter().grid()
    serial = ToyAdapter(grouped=False).grid()
    assert parallel.workers == 2 and serial.workers == 0
    assert values(parallel) == values(serial)
    assert len(parallel.cells) == 4 * 3 * 4 - 4  # the holes are kept
    assert not parallel.interrupted


@TWO_CORES
def test_each_group_is_computed_in_one_other_process() -> None:
    """Fails if the grid were silently computed here: every cell names its process."""
    grid = ToyAdapter().grid()
    pids = {
        p: {int(cell["pid"]) for (q, _r, _c), cell in grid.cells.items() if q == p}
        for p in range(4)
    }
    assert all(len(ids) == 1 and os.getpid() not in ids for ids in pids.values())
    assert pids[0] == pids[1]  # one group, one process: its caches are shared


def test_MENEUR_WORKERS_1_computes_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WORKERS, "1")
    grid = ToyAdapter().grid()
    assert grid.workers == 0
    assert {int(cell["pid"]) for cell in grid.cells.values()} == {os.getpid()}
    monkeypatch.setenv(WORKERS, "two")  # not a number: the safe reading, serial
    assert workers(3) == 1


def test_by_default_an_adapter_computes_here() -> None:
    class Plain(ToyAdapter):
        panel_groups = Adapter.panel_groups

    grid = Plain().grid()
    assert grid.workers == 0 and {int(c["pid"]) for c in grid.cells.values()} == {os.getpid()}


@TWO_CORES
def test_the_bar_advances_by_every_cell_of_the_workers() -> None:
    counts: list[int] = []
    grid = ToyAdapter().grid(progress=counts.append)
    assert grid.workers == 2
    assert sum(counts) == 4 * 3 * 4 and set(counts) == {4}  # a row's cells as it lands


@TWO_CORES
def test_an_error_in_a_worker_is_the_same_one_line_error() -> None:
    with pytest.raises(LimitError) as raised:
        ToyAdapter().grid(variant={"fail": "yes"})
    assert str(raised.value) == str(LimitError(N_LIMIT, limit=7))  # "... at most 7 ..."
    assert "7" in str(raised.value)


@TWO_CORES
def test_the_rows_of_a_worker_that_died_are_computed_here() -> None:
    """Processes are a speed-up, not a requirement: the grid is whole all the same."""
    grid = ToyAdapter().grid(variant={"fail": "die"})
    serial = ToyAdapter(grouped=False).grid(variant={"fail": "die"})
    assert values(grid) == values(serial) and not grid.interrupted
    here = {p for (p, _r, _c), cell in grid.cells.items() if int(cell["pid"]) == os.getpid()}
    assert 2 in here  # the panel whose worker died


def test_an_error_pickles_with_its_parameters() -> None:
    """A worker's error crosses to the parent by pickle: its placeholders stay filled."""
    error = UsageError("'{text}' names no value.", text="x")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is UsageError and again.params == {"text": "x"}
    assert str(again) == str(error) and "x" in str(again)


def test_groups_must_cover_the_panels_once() -> None:
    from meneur.lab.parallel import compute_groups

    adapter = ToyAdapter()
    axes = adapter.axes("test", {})
    with pytest.raises(ValueError):
        compute_groups(adapter, "test", {}, axes, ((0, 1), (1, 2, 3)), 2, None)


class DonePool:
    """A pool whose one worker has returned at once, saying it put its three rows."""

    def submit(self, *args: object) -> Future[int]:
        future: Future[int] = Future()
        future.set_result(3)
        return future

    def shutdown(self, wait: bool, cancel_futures: bool) -> None:
        pass


def collected(queue: object) -> tuple[bool, list[object]]:
    """What the parent files of a 3-row grid from :class:`DonePool` through ``queue``:
    (Ctrl-C stopped it, the rows filed)."""
    filed: list[object] = []
    axis = Axis("x", "x", (0, 1, 2))
    stopped = parallel._collect(
        DonePool(),  # type: ignore[arg-type]
        queue,
        ToyAdapter(),
        "test",
        {},
        [axis],
        (axis, axis, axis),
        filed.append,
        3,
    )
    return stopped, filed


def test_rows_still_on_their_way_when_every_worker_returned_are_waited_for() -> None:
    """A worker returns once it has *put* its rows; a queue's feeder thread sends them
    after, later on a busy machine. The parent broke off as soon as every worker had
    returned and computed the rows still in the pipe itself (this file's first test
    then failed now and then): it now waits for the rows the workers say they sent."""

    rows = [(0, 0, row, [(0, {"success": Fraction(1)})]) for row in range(3)]

    class LateQueue:
        """Every row sent, none landed for the first few polls."""

        polls = 3

        def get(self, timeout: float) -> object:
            if self.polls:
                self.polls -= 1
                raise Empty
            if not rows:
                raise Empty
            return rows.pop(0)

    stopped, filed = collected(LateQueue())
    assert not stopped and len(filed) == 3


@TWO_CORES
def test_an_error_in_a_worker_ends_the_other_workers_at_once(tmp_path: Path) -> None:
    """docs (lab/parallel.py): a worker's error is raised here and « the other workers
    are ended at once »: the slow group (24 cells of a quarter second) does not compute
    on to its end behind the error."""
    with pytest.raises(LimitError):
        ToyAdapter().grid(variant={"fail": "yes", "slow": str(tmp_path)})
    time.sleep(0.5)  # a worker left running would go on leaving files
    assert len(list(tmp_path.iterdir())) < 2 * 3 * 4


@TWO_CORES
def test_ctrl_c_ends_the_workers_and_keeps_the_rows_received(tmp_path: Path) -> None:
    """docs/lab.md: « Ctrl-C arrête les processus et garde les lignes reçues »: Ctrl-C as
    the second row lands keeps those two rows, each the serial grid's, the grid marked
    interrupted, and the slow group is not computed on (here or in its worker)."""
    landed: list[int] = []

    def progress(cells: int) -> None:
        landed.append(cells)
        if len(landed) == 2:
            raise KeyboardInterrupt

    variant = {"slow": str(tmp_path)}
    grid = ToyAdapter().grid(variant=variant, progress=progress)
    assert grid.interrupted and grid.workers == 2
    assert len({(p, r) for p, r, _c in grid.cells}) == 2
    for (p, r, c), cell in grid.cells.items():
        assert cell["value"] == 100 * p + 10 * (r + 1) + (c + 1)
    time.sleep(0.5)
    assert len(list(tmp_path.iterdir())) < 2 * 3 * 4


class NoSemaphores:
    """A multiprocessing context where no process can start (a sandbox without
    semaphores): its queue cannot be made."""

    def set_forkserver_preload(self, modules: list[str]) -> None:
        pass

    def Queue(self) -> None:  # multiprocessing's name
        raise OSError("no semaphores")


@pytest.fixture
def no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel.multiprocessing, "get_context", lambda name: NoSemaphores())


def test_a_grid_whose_processes_cannot_start_is_computed_here(no_processes: None) -> None:
    """lab/parallel.py: no processes here (no semaphores in a sandbox): every row is
    computed in this process, the grid says no worker computed it."""
    adapter = ToyAdapter()
    axes = adapter.axes("test", {})
    grid = parallel.compute_groups(adapter, "test", {}, axes, GROUPS, 2, None)
    assert grid.workers == 0 and not grid.interrupted
    assert values(grid) == values(ToyAdapter(grouped=False).grid())
    assert {int(cell["pid"]) for cell in grid.cells.values()} == {os.getpid()}
    # Ctrl-C as the rows are computed here: the rows done are kept, the next groups
    # (panel d) are not computed, as in the serial grid
    stop = {"stop": "c"}
    grid = parallel.compute_groups(adapter, "test", stop, axes, GROUPS, 2, None)
    serial = ToyAdapter(grouped=False).grid(variant=stop)
    assert grid.interrupted and serial.interrupted
    assert values(grid) == values(serial) and len(grid.cells) == 11 + 11 + 4


def test_ctrl_c_between_two_rows_computed_here_keeps_the_rows_done(no_processes: None) -> None:
    """No processes here, and Ctrl-C lands while the bar moves after the second row (not
    inside a cell): the two rows done are kept and the grid is marked interrupted, as the
    serial grid does, instead of the interrupt escaping with the rows lost."""
    landed: list[int] = []

    def progress(cells: int) -> None:
        landed.append(cells)
        if len(landed) == 2:
            raise KeyboardInterrupt

    adapter = ToyAdapter()
    axes = adapter.axes("test", {})
    grid = parallel.compute_groups(adapter, "test", {}, axes, GROUPS, 2, progress)
    assert grid.interrupted and len(landed) == 2
    serial = dict(values(ToyAdapter(grouped=False).grid()))
    assert len({(p, r) for p, r, _c in grid.cells}) == 2
    assert values(grid) == [(key, serial[key]) for key, _value in values(grid)]


def test_workers_are_at_most_the_groups_and_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker per core at most, never more than the groups; off Linux the cores are
    the CPU count (unknown: one); ``MENEUR_WORKERS=0`` is serial, as ``1``."""
    monkeypatch.delenv(WORKERS, raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert [workers(groups) for groups in (1, 3, 8)] == [1, 3, 4]
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert workers(3) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    monkeypatch.setenv(WORKERS, "0")
    assert workers(3) == 1


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux affinity")
def test_workers_count_the_cores_this_process_may_run_on() -> None:
    """A process bound to one core (``taskset -c 0``) gets one worker, whatever the
    machine has."""
    code = (
        "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
        "from meneur.lab.parallel import workers; print(workers(4))"
    )
    env = {k: v for k, v in os.environ.items() if k != WORKERS}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "1"


def test_rows_that_never_land_are_left_to_the_caller_after_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every worker returned, saying it sent its rows, and none lands: the parent waits
    ``IN_FLIGHT`` seconds, then leaves the rows missing to the caller (it computes them
    here) rather than waiting for ever."""

    monkeypatch.setattr(parallel, "IN_FLIGHT", 0.3)

    class LostQueue:
        polls = 0

        def get(self, timeout: float) -> object:
            self.polls += 1
            assert self.polls < 100, "still waiting for rows that never land"
            time.sleep(timeout)
            raise Empty

    started = time.monotonic()
    stopped, filed = collected(LostQueue())
    assert not stopped and filed == []
    assert 0.3 <= time.monotonic() - started < 5


def test_a_worker_says_how_many_rows_it_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's share (the group ``a``, ``b``: 2 panels × 3 rows) sends each row once,
    in the serial order, and says it sent 6: the parent waits for as many rows."""

    sent: list[tuple[int, int, int, object]] = []

    class Rows:
        def put(self, message: tuple[int, int, int, object]) -> None:
            sent.append(message)

    monkeypatch.setattr(parallel, "_rows_done", Rows())
    adapter = ToyAdapter()
    panels, rows, columns = adapter.axes("test", {})
    share = Axis(panels.name, panels.label, ("a", "b"))
    assert parallel._share(adapter, "test", {}, 0, share, rows, columns) == 6
    assert [(group, panel, row) for group, panel, row, _cells in sent] == [
        (0, p, r) for p in range(2) for r in range(3)
    ]
