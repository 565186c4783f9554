"""Parameter sweeps: on a local Dask cluster started here, and on local cores, equal."""

from __future__ import annotations

import pytest

from cli_helpers import invoke


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


def test_sweep_bad_scheduler_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    result = invoke(
        capsys,
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
        "tcp://127.0.0.1:1",
    )
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
