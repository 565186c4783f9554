"""Tighter edges (issue 16, point 8): no token in any log line, a client that drops
mid-body is no error, and an Origin of ``null`` is refused on forms and WebSockets."""

from __future__ import annotations

import asyncio
import logging

import pytest
from starlette.websockets import WebSocketDisconnect

from meneur.web.app import Redact, redact
from web.web_helpers import Table


def test_a_token_never_reaches_a_log_line() -> None:
    token = "Q" * 43
    record = logging.LogRecord(
        "uvicorn.error", logging.ERROR, __file__, 1, "error on %s", (f"/t/8/{token}/roll",), None
    )
    try:
        raise RuntimeError(f"boom at /api/t/8/{token}/roll")
    except RuntimeError:
        import sys

        record.exc_info = sys.exc_info()
    assert Redact().filter(record)
    text = logging.Formatter().format(record)
    assert token not in text and "[token]" in text and "boom" in text
    assert redact(f"join/{token}") == "join/[token]"


def test_a_client_dropping_mid_body_logs_nothing(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """The GM token leaked in « unexpected error on /api/t/8/<token>/roll » and a traceback."""
    app = table.client.app
    path = f"/api{table.gm}/roll"
    messages = [
        {"type": "http.request", "body": b'{"character": "A', "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "state": {},
        "app": app,
    }
    with caplog.at_level(logging.DEBUG):
        asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert table.info.gm_token not in caplog.text
    assert "Traceback" not in caplog.text and "unexpected error" not in caplog.text
    assert table.store.rolls() == []


def test_a_websocket_with_origin_null_is_refused(table: Table) -> None:
    with (
        pytest.raises(WebSocketDisconnect),
        table.client.websocket_connect(f"{table.gm}/ws", headers={"origin": "null"}) as ws,
    ):
        ws.receive_text()
    with table.client.websocket_connect(
        f"{table.gm}/ws", headers={"origin": "http://testserver"}
    ) as ws:
        assert '"hello"' in ws.receive_text()
    data = {"csrf": table.csrf(table.gm), "action": "next"}
    for origin in ("null", "https://testserver"):
        answer = table.client.post(f"{table.gm}/combat", data=data, headers={"origin": origin})
        assert answer.status_code == 403, origin
