"""Parameter sweeps: on a local Dask cluster started here, and on local cores, equal."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from cli_helpers import Result, invoke


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
