"""Parameter sweeps: on a local Dask cluster started here, and on local cores, equal."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from cli_helpers import Result, invoke, started_bars


def test_sweep_on_a_local_dask_cluster_equals_the_local_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    distributed = pytest.importorskip("distributed")
    args = ("simulate", "sweep", "tunnels", "--dice", "2..3", "--vs-mr", "2..4")
    args += ("--runs", "3000", "--seed", "11", "--json")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = invoke(capsys, *args, "--scheduler", cluster.scheduler_address)
    assert on_dask.status == 0, on_dask.err
    local = invoke(capsys, *args, "--workers", "1")
    assert local.status == 0, local.err
    points = on_dask.json()["points"]
    assert [(p["dice"], p["mr"]) for p in points] == [
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 2),
        (3, 3),
        (3, 4),
    ]
    assert points == local.json()["points"]  # one seed per point: same numbers anywhere
    assert on_dask.json()["scheduler"] == cluster.scheduler_address


@pytest.mark.parametrize(
    ("address", "said"),
    [
        # nobody listens there: said in our words, not Dask's « Timed out trying to connect »
        ("tcp://127.0.0.1:1", "Cannot reach the Dask scheduler tcp://127.0.0.1:1: no scheduler"),
        ("-1", "is not a Dask scheduler address"),  # malformed: refused before connecting
        ("tunnels", "is not a Dask scheduler address"),
        ("9" * 400, "is not a Dask scheduler address"),
    ],
)
def test_sweep_bad_scheduler_is_one_line(
    capsys: pytest.CaptureFixture[str], address: str, said: str
) -> None:
    pytest.importorskip("distributed")
    result = invoke(
        capsys,
        "--lang",
        "en",
        "simulate",
        "sweep",
        "tunnels",
        "--dice",
        "2",
        "--vs-mr",
        "2",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
    assert said in result.err and "Timed out" not in result.err, result.err


@pytest.fixture
def stranger() -> Iterator[Callable[[bytes], str]]:
    """Start a TCP server that is not a Dask scheduler: it accepts and writes ``greeting``
    (nothing: it waits for a request, as a web server does). Gives its address."""
    servers: list[socket.socket] = []
    held: list[socket.socket] = []

    def start(greeting: bytes) -> str:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def serve() -> None:
            with contextlib.suppress(OSError):  # closed at the end of the test
                while True:
                    connection, _ = server.accept()
                    held.append(connection)
                    connection.sendall(greeting)

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for open_socket in servers + held:
        open_socket.close()


@pytest.mark.parametrize(
    ("greeting", "said"),
    [
        # a web server (the scheduler's dashboard) waits for a request: Dask's client
        # waited for its handshake for ever
        (b"", "no scheduler answered there within 0.5 s"),
        # an SSH server speaks first: Dask read its banner as a frame length (MemoryError)
        (b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", "but not a Dask scheduler"),
    ],
    ids=["silent", "speaks-first"],
)
def test_sweep_refuses_a_server_that_is_not_a_scheduler_in_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stranger: Callable[[bytes], str],
    greeting: bytes,
    said: str,
) -> None:
    pytest.importorskip("distributed")
    from meneur.lab import sweep

    monkeypatch.setattr(sweep, "CONNECT_SECONDS", 0.5)
    address = stranger(greeting)
    args = ("--lang", "en", "simulate", "sweep", "tunnels", "--dice", "2", "--vs-mr", "2")
    results: list[Result] = []
    sweeping = threading.Thread(
        target=lambda: results.append(
            invoke(capsys, *args, "--runs", "10", "--scheduler", address)
        ),
        daemon=True,  # left behind only if the sweep waits for ever: the test fails then
    )
    sweeping.start()
    sweeping.join(timeout=30)
    assert results, "the sweep still waits for a handshake after 30 s"
    result = results[0]
    assert result.status == 2, result.err
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
    assert address in result.err and said in result.err, result.err


SWEEPS = {
    "tunnels": ("--dice", "2..3", "--vs-mr", "2"),
    "legendes": ("--dice", "1..2", "--vs-level", "elite,heroique"),
    "obscur": (
        "--a",
        "examples/obscur/garance.toml",
        "--b",
        "examples/obscur/corbeau.toml",
        "--strategies-a",
        "equilibree,offensive",
        "--strategies-b",
        "totale",
    ),
    "krasses": ("--rows", "0..2", "--cols", "1..2"),
}


@pytest.mark.parametrize("system", sorted(SWEEPS))
def test_sweep_every_system(system: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "sweep", system, *SWEEPS[system], "--runs", "2000", "--seed", "3")
    result = invoke(capsys, *args, "--workers", "1", "--json")
    assert result.status == 0, result.err
    data = result.json()
    assert data["system"] == system and data["runs"] == 2000
    assert data["kind"] == ("cells" if system == "krasses" else "fights")
    for point in data["points"]:
        low, high = point["win_interval_95"]
        assert low <= point["win_rate"] <= high


def test_sweep_of_cells_agrees_with_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Monte Carlo cells of a sweep (every system's vectorised resolve) vs exact odds."""
    import math

    from meneur.lab.adapter import adapter_for
    from meneur.systems.registry import find_system as system_named

    runs = 20_000
    for system, rows, cols in (("obscur", "2..4", "1..3"), ("legendes", "1..2", "elite")):
        args = ("simulate", "sweep", system, "--rows", rows, "--cols", cols, "--runs", str(runs))
        result = invoke(capsys, *args, "--seed", "8", "--workers", "1", "--json")
        assert result.status == 0, result.err
        adapter = adapter_for(system_named(system))
        grid = adapter.grid(None, {}, rows, cols, None)
        exact = [
            float(grid.cells[(0, r, c)][grid.measures[0].name])
            for r in range(len(grid.rows.values))
            for c in range(len(grid.columns.values))
        ]
        for point, p in zip(result.json()["points"], exact, strict=True):
            assert abs(point["win_rate"] - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-9) / runs)


def test_sweep_of_legendes_on_a_local_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    args = ("simulate", "sweep", "legendes", *SWEEPS["legendes"], "--runs", "2000", "--seed", "5")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = invoke(capsys, *args, "--json", "--scheduler", cluster.scheduler_address)
    assert on_dask.status == 0, on_dask.err
    local = invoke(capsys, *args, "--json", "--workers", "1")
    assert on_dask.json()["points"] == local.json()["points"]


def test_sweep_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ("obscur", "--a", "examples/obscur/garance.toml"),
        ("obscur", "--a", "x.toml", "--b", "y.toml", "--strategies-a", "folle"),
        ("legendes", "--vs-level", "dieu"),
        ("krasses", "--rows", "0..400", "--cols", "1..400"),
    ):
        result = invoke(capsys, "simulate", "sweep", *args, "--runs", "10", "--workers", "1")
        assert result.status == 2, args
        assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


def test_sweep_ctrl_c_keeps_the_points_done(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a sweep returns the points already simulated, marked interrupted."""
    from meneur.lab import sweep
    from meneur.systems.legendes.lab import LegendesConflict, conflicts_point

    done: list[int] = []
    real = sweep.one_point

    def one_point(point: sweep.Point) -> dict[str, object]:
        if len(done) == 2:
            raise KeyboardInterrupt
        done.append(1)
        return real(point)

    monkeypatch.setattr(sweep, "one_point", one_point)
    points = [sweep.Point(conflicts_point, LegendesConflict(d, "elite")) for d in (1, 2, 3, 4)]
    result = sweep.run_sweep(points, 500, seed=1, workers=1)
    assert result.interrupted
    assert [r is not None for r in result.reports] == [True, True, False, False]
    assert result.reports[0] is not None and result.reports[0]["runs"] == 500


def test_sweep_off_a_terminal_writes_nothing_on_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Piped to a file, a sweep's bar is silent: its stop wrote an empty line per grid, which
    a script reading standard error (or the guide's examples) saw as output."""
    args = ("simulate", "sweep", "tunnels", "--dice", "2..3", "--vs-mr", "2", "--runs", "200")
    result = invoke(capsys, *args, "--seed", "1", "--workers", "1")
    assert result.status == 0, result.err
    assert result.err == ""


def _counted(spec: tuple[int, dict[int, int]]) -> tuple[object, str, None]:
    """A point's build whose every chunk wins ``spec[0]`` runs of 4 with these rounds."""
    from meneur.lab.simulate import Tally

    wins, rounds = spec

    def chunk(rng: object, n: int) -> Tally:
        counts = {"won": wins} if wins else {}
        return Tally(runs=n, counts=counts, histograms={"rounds": rounds} if rounds else {})

    return chunk, "won", None


def test_a_points_report_counts_its_wins_and_mean_rounds() -> None:
    """One point's report: runs, wins (none counted: 0), win rate and the mean number of
    rounds over the runs (None when the simulation counts no rounds)."""
    from meneur.lab.sweep import Point, one_point

    report = one_point(Point(_counted, (3, {1: 2, 3: 2}), runs=4, seed=1))
    assert (report["runs"], report["wins"], report["win_rate"]) == (4, 3, 0.75)
    assert report["rounds_mean"] == 2.0  # (1 * 2 + 3 * 2) / 4
    report = one_point(Point(_counted, (0, {}), runs=4, seed=1))
    assert (report["wins"], report["win_rate"], report["rounds_mean"]) == (0, 0.0, None)


def test_a_point_on_a_worker_shows_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A point runs on a worker: no bar of its own, however long it is forecast to take."""
    from meneur.lab import progress, simulate
    from meneur.lab.sweep import Point, one_point

    started: list[object] = []
    monkeypatch.setattr(progress, "start_bar", lambda *args: started.append(args))

    class Clock:
        now = 0.0

        def perf_counter(self) -> float:
            self.now += 10.0
            return self.now

    monkeypatch.setattr(simulate, "time", Clock())
    assert one_point(Point(_counted, (1, {}), runs=1000, seed=1))["runs"] == 1000
    assert started == []


def test_a_sweep_point_is_a_frozen_value() -> None:
    from dataclasses import FrozenInstanceError

    from meneur.lab.sweep import Point

    point = Point(_counted, (1, {}))
    with pytest.raises(FrozenInstanceError):
        point.runs = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("count", "progress", "bars"),
    [(2, True, [("Points", 2, 0)]), (1, True, []), (2, False, []), (2, None, [])],
)
def test_a_sweep_shows_a_bar_over_its_points_when_asked(
    monkeypatch: pytest.MonkeyPatch, count: int, progress: bool | None, bars: list[object]
) -> None:
    """A bar over the points, from 0, when asked (not by default) and there are several;
    a sweep that runs to its end is not interrupted."""
    from meneur.lab.sweep import Point, run_sweep

    record = started_bars(monkeypatch, task="task")
    points = [Point(_counted, (1, {}))] * count
    shown = {} if progress is None else {"progress": progress}
    result = run_sweep(points, 8, seed=1, workers=1, description="Points", **shown)
    started = [tuple(bar[:3]) for bar in record]
    advanced = [told for bar in record for told in bar[3:] if told != "stop"]
    assert started == bars and advanced == (["task"] * count if bars else [])
    assert result.interrupted is False and [r["runs"] for r in result.reports] == [8] * count


def test_a_sweep_spreads_its_points_over_the_local_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/lab.md: without a scheduler the points go to local processes, one per core
    at most (3 points on 2 cores: 2 processes), each point in its place; the pool is
    waited for, and its pending points cancelled, on the way out."""
    from concurrent.futures import Future

    from meneur.lab import sweep

    pools: list[dict[str, object]] = []

    class Pool:
        def __init__(self, max_workers: int) -> None:
            pools.append({"workers": max_workers})

        def submit(self, function, task):  # type: ignore[no-untyped-def]
            future: Future[object] = Future()
            future.set_result(function(task))
            return future

        def shutdown(self, **kwargs: object) -> None:
            pools[-1].update(kwargs)

    monkeypatch.setattr(sweep, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(sweep.os, "cpu_count", lambda: 2)
    points = [sweep.Point(_counted, (wins, {})) for wins in (1, 2, 3)]
    result = sweep.run_sweep(points, 4, seed=1)
    assert pools == [{"workers": 2, "wait": True, "cancel_futures": True}]
    assert [r["wins"] for r in result.reports] == [1, 2, 3]


def test_a_scheduler_address_without_its_scheme_is_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An address without its scheme (``127.0.0.1:1``) is Dask's tcp default: it is
    tried (and said unreachable), not refused as malformed. Once a scheduler shook hands
    (here: as if), the client waits CONNECT_SECONDS and is not made the process's
    default Dask client."""
    distributed = pytest.importorskip("distributed")
    from meneur.errors import UsageError
    from meneur.lab import sweep
    from meneur.lab.sweep import CONNECT_SECONDS, SweepResult, _Bar, _on_dask

    with pytest.raises(UsageError) as refused:
        _on_dask("127.0.0.1:1", [], SweepResult([]), _Bar(0, False, ""))
    assert "127.0.0.1:1" in str(refused.value)
    assert refused.value.message.startswith("Cannot reach the Dask scheduler")

    asked: list[tuple[str, dict[str, object]]] = []

    def client(address: str, **kwargs: object) -> object:
        asked.append((address, kwargs))
        raise OSError("gone since the handshake")

    monkeypatch.setattr(sweep, "_check_scheduler", lambda _address: None)
    monkeypatch.setattr(distributed, "Client", client)
    with pytest.raises(UsageError) as gone:
        _on_dask("127.0.0.1:1", [], SweepResult([]), _Bar(0, False, ""))
    assert gone.value.message.startswith("Cannot reach the Dask scheduler")
    assert asked == [("127.0.0.1:1", {"timeout": CONNECT_SECONDS, "set_as_default": False})]


def test_a_sweep_grid_holds_each_points_win_rate() -> None:
    """The sweep as a grid, rows x columns in the points' order: wins / runs exactly, a
    point interrupted before it ran left out, one that ran no run at 0."""
    from fractions import Fraction

    from meneur.lab.grid import Axis
    from meneur.lab.sweep import sweep_grid

    rows = Axis("dice", "Dice", (2, 3), ("2", "3"))
    columns = Axis("mr", "MR", (4, 5), ("4", "5"))
    reports = [{"wins": 3, "runs": 4}, None, {"wins": 0, "runs": 0}, {"wins": 1, "runs": 3}]
    grid = sweep_grid("tunnels", rows, columns, reports)
    assert grid.measures[0].name == "win"
    assert grid.cells == {
        (0, 0, 0): {"win": Fraction(3, 4)},
        (0, 1, 0): {"win": Fraction(0)},
        (0, 1, 1): {"win": Fraction(1, 3)},
    }
