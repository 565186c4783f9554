"""``meneur serve``: zero setup, the GM link printed, the same links at the next start."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cli_helpers import invoke


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``uvicorn.Server.run`` replaced: the app and options it would have served are kept,
    with whether the heap was settled before it (:mod:`meneur.web.heap`, replaced too: a
    frozen heap would outlive this test in the test process)."""
    import uvicorn

    from meneur.web import heap

    calls: list[dict[str, Any]] = []
    settled: list[bool] = []

    def run(server: uvicorn.Server, sockets: Any = None) -> None:
        config = server.config
        calls.append(
            {"app": config.app, "host": config.host, "port": config.port, "settled": settled[:]}
        )

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(heap, "settle", lambda: settled.append(True))
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
    assert call["settled"] == [True]  # once, before it serves: no full collection pauses it
    with TestClient(call["app"], base_url="http://127.0.0.1:8000") as client:
        assert client.get(gm.group(1)).status_code == 200
        assert client.get(invite.group(1)).status_code == 200
    again = invoke(capsys, "serve", "--host", "0.0.0.0", "--port", "8123")
    assert gm.group(1) in again.out  # the same table, the same links
    assert served[1]["port"] == 8123


def test_only_the_tables_own_hosts_and_origin_pass(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    """Issue 16: the Host is checked, the Origin must be the table's own exactly."""
    result = invoke(capsys, "serve", "--public-url", "https://table.example.org")
    gm = re.search(r"https://table\.example\.org(/t/\d+/[A-Za-z0-9_-]{43})\s", result.out)
    assert gm, result.out  # the printed links use the public address
    [call] = served
    with TestClient(call["app"], base_url="https://table.example.org") as client:
        assert client.get(gm.group(1)).status_code == 200
        assert client.get(gm.group(1), headers={"host": "evil.example"}).status_code == 400
        page = client.get(gm.group(1)).text
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
        assert csrf
        form = {"csrf": csrf.group(1), "action": "next"}
        for origin, status in (
            ("https://table.example.org", 303),
            ("null", 403),
            ("http://table.example.org", 403),  # another scheme
            ("https://table.example.org:444", 403),  # another port
            ("https://evil.example", 403),
        ):
            answer = client.post(
                f"{gm.group(1)}/combat",
                data=form,
                headers={"origin": origin},
                follow_redirects=False,
            )
            assert answer.status_code == status, origin
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(
                f"{gm.group(1)}/ws", headers={"origin": "null", "host": "table.example.org"}
            ) as socket,
        ):
            socket.receive_text()
        with client.websocket_connect(
            f"{gm.group(1)}/ws",
            headers={"origin": "https://table.example.org", "host": "table.example.org"},
        ) as socket:
            assert '"hello"' in socket.receive_text()


@pytest.mark.parametrize(
    "url", ["ftp://x/y", "http://[::1", "http://a\x1bcb.org", "http://exa mple.org", "http://a:x"]
)
def test_a_bad_public_url_is_one_line(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]], url: str
) -> None:
    """An unclosed IPv6 bracket crashed (ValueError); an escape sequence or a space was
    accepted and printed in the links handed to the players."""
    result = invoke(capsys, "serve", "--public-url", url)
    assert result.status == 2 and "--public-url" in result.err and served == [], result.err
    assert len(result.err.strip().splitlines()) == 1 and "\x1b" not in result.err


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


def test_a_new_table_stops_the_old_links(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    """Issue 16: ``--new-table`` left the old links valid."""
    links = re.compile(r"http://127\.0\.0\.1:8000(/t/\d+/(?:join/)?[A-Za-z0-9_-]{43})\s")
    old = links.findall(invoke(capsys, "serve").out)
    new = links.findall(invoke(capsys, "serve", "--new-table").out)
    assert len(old) == len(new) == 2 and not set(old) & set(new)
    with TestClient(served[-1]["app"], base_url="http://127.0.0.1:8000") as client:
        assert [client.get(link).status_code for link in old] == [404, 404]
        assert [client.get(link).status_code for link in new] == [200, 200]


def test_a_second_serve_on_one_sqlite_file_is_refused(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    """Issue 16: two processes on one SQLite file would each keep their own seats."""
    from meneur.campaign.store import Store
    from meneur.cli.serve import hold_sqlite

    with Store() as store:
        held = hold_sqlite(store.engine.url)
        assert held is not None
        try:
            refused = invoke(capsys, "--lang", "en", "serve")
            assert refused.status == 2 and served == []
            [line] = refused.err.strip().splitlines()
            assert "PostgreSQL" in line and "Another 'meneur serve'" in line
        finally:
            held.close()
    assert invoke(capsys, "serve").status == 0  # free again


def test_settling_the_heap_freezes_what_start_up_built() -> None:
    """Before serving, what start-up built is frozen (no collection walks it again: a
    full collection of it paused the table 57-71 ms under load) and the young objects are
    collected every :data:`~meneur.web.heap.YOUNG_COLLECTION` allocations, the older
    generations' thresholds kept. Undone afterwards: this is the test process."""
    import gc

    from meneur.web import heap

    before = gc.get_threshold()
    try:
        heap.settle()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (heap.YOUNG_COLLECTION, *before[1:])
        assert before[0] < heap.YOUNG_COLLECTION
        assert gc.get_threshold()[0] == 10_000  # docs/web.md: « toutes les 10 000 allocations »
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
