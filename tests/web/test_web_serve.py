"""``meneur serve``: zero setup, the GM link printed, the same links at the next start."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cli_helpers import invoke


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``uvicorn.run`` replaced: the app and options it would have served are kept."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(
        uvicorn, "run", lambda app, **options: calls.append({"app": app, **options})
    )
    return calls


def test_the_first_serve_prints_a_working_gm_link(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    result = invoke(capsys, "serve")
    assert result.status == 0, result.err
    gm = re.search(r"http://127\.0\.0\.1:8000(/t/\d+/[A-Za-z0-9_-]{43})\s", result.out)
    invite = re.search(r"http://127\.0\.0\.1:8000(/t/\d+/join/[A-Za-z0-9_-]{43})\s", result.out)
    assert gm and invite, result.out
    assert "« default »" in result.out
    [call] = served
    assert call["host"] == "127.0.0.1" and call["port"] == 8000
    with TestClient(call["app"]) as client:
        assert client.get(gm.group(1)).status_code == 200
        assert client.get(invite.group(1)).status_code == 200
    again = invoke(capsys, "serve", "--host", "0.0.0.0", "--port", "8123")
    assert gm.group(1) in again.out  # the same table, the same links
    assert served[1]["port"] == 8123


def test_serve_refuses_a_bad_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "serve", "--port", "70000")
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


def test_serve_says_when_the_port_is_taken(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke(capsys, "serve", "--port", str(port))
    assert result.status == 2 and served == []
    assert str(port) in result.err and len(result.err.strip().splitlines()) == 1
