"""The shared live log over WebSocket: each seat receives exactly what it may see.

Secret rolls are checked on the socket itself: a connection that may not see a roll
receives nothing for it (the next message it gets is the next roll it may see).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from meneur.web.live import BATCH_LIMIT, FRAME_GAP, Connection, Hub, audience
from web.web_helpers import TUNNELS, Table

PENDING: dict[int, list[dict[str, Any]]] = {}


def receive(socket: WebSocketTestSession) -> dict[str, Any]:
    """The next message (a frame may hold several, as a JSON array)."""
    pending = PENDING.setdefault(id(socket), [])
    if not pending:
        data = json.loads(socket.receive_text())
        pending.extend(data if isinstance(data, list) else [data])
    return pending.pop(0)


def seats(table: Table) -> tuple[str, str]:
    alice, bob = table.join("Alice"), table.join("Bob")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.create(bob, "tunnels", "Gros Jean", **TUNNELS)
    return alice, bob


def test_audience_follows_foundrys_roll_modes() -> None:
    def seen(mode: str, viewer: str) -> str | None:
        return audience(mode, "p1", viewer, viewer_is_gm=viewer == "gm")

    assert [seen("public", v) for v in ("gm", "p1", "p2")] == ["full"] * 3
    assert [seen("gmroll", v) for v in ("gm", "p1", "p2")] == ["full", "full", None]
    assert [seen("blindroll", v) for v in ("gm", "p1", "p2")] == ["full", "hidden", None]
    assert [seen("selfroll", v) for v in ("gm", "p1", "p2")] == [None, "full", None]


def test_a_public_roll_reaches_everyone_live_with_dice_and_verdict(table: Table) -> None:
    alice, bob = seats(table)
    with (
        table.client.websocket_connect(f"{table.gm}/ws") as gm,
        table.client.websocket_connect(f"{alice}/ws") as a,
        table.client.websocket_connect(f"{bob}/ws?lang=en") as b,
    ):
        for socket in (gm, a, b):
            assert receive(socket)["type"] == "hello"
        key = table.roll(alice, "Brindille", "Force", faces="4 6 2", explode="never")["id"]
        got = [receive(socket) for socket in (gm, a, b)]
        assert {m["id"] for m in got} == {key}
        assert got[0]["html"].count('class="die hit"') == 2  # 4 and 6 succeed
        assert "Réussite" in got[0]["html"] and "Success" in got[2]["html"]


@pytest.mark.parametrize(
    ("mode", "gm_sees", "roller_sees", "other_sees"),
    [
        ("gmroll", "full", "full", None),
        ("blindroll", "full", "hidden", None),
        ("selfroll", None, "full", None),
    ],
)
def test_a_secret_roll_never_reaches_a_socket_that_may_not_see_it(
    table: Table, mode: str, gm_sees: str | None, roller_sees: str | None, other_sees: str | None
) -> None:
    alice, bob = seats(table)
    with (
        table.client.websocket_connect(f"{table.gm}/ws") as gm,
        table.client.websocket_connect(f"{alice}/ws") as a,
        table.client.websocket_connect(f"{bob}/ws") as b,
    ):
        for socket in (gm, a, b):
            receive(socket)
        secret = table.roll(alice, "Brindille", "Force", faces="4 5 6", explode="never", mode=mode)
        if roller_sees != "full":
            assert "entry" not in secret  # the API does not tell the roller either
        public = table.roll(bob, "Gros Jean", "Force", faces="1 2 3", explode="never")
        for socket, sees in ((gm, gm_sees), (a, roller_sees), (b, other_sees)):
            first = receive(socket)
            if sees is None:
                assert first["id"] == public["id"]  # the secret roll was never sent
                continue
            assert first["id"] == secret["id"]
            if sees == "hidden":
                assert 'class="die' not in first["html"]  # no dice, no verdict
                assert "Réussite" not in first["html"]
            else:
                assert first["html"].count('class="die hit"') == 3
            assert receive(socket)["id"] == public["id"]
    # the pages and the log API hide it in the same way
    other = bob if mode != "selfroll" else table.gm
    entries = table.client.get(f"/api{other}/log").json()["entries"]
    assert [e["id"] for e in entries] == [public["id"]]
    assert "4 5 6" not in table.client.get(other).text


def test_websocket_limits_size_rate_and_tokens(table: Table) -> None:
    with table.client.websocket_connect(f"{table.gm}/ws") as socket:
        receive(socket)
        socket.send_text("x" * 5000)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_text()
        assert closed.value.code == 1009
    with table.client.websocket_connect(f"{table.gm}/ws") as socket:
        receive(socket)
        for _ in range(40):
            socket.send_text("ping")
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_text()
        assert closed.value.code == 1008
    with (
        pytest.raises(WebSocketDisconnect),
        table.client.websocket_connect(f"/t/{table.info.id}/{'A' * 43}/ws") as socket,
    ):
        socket.receive_text()
    with (
        pytest.raises(WebSocketDisconnect),
        table.client.websocket_connect(
            f"{table.gm}/ws", headers={"origin": "http://evil.example"}
        ) as socket,
    ):
        socket.receive_text()


def test_a_client_that_cannot_keep_up_is_dropped_not_waited_for() -> None:
    """One slow phone never holds the others back: its queue is bounded, then it is cut."""
    import asyncio

    from meneur.web.live import Connection, Hub

    hub = Hub()
    slow = Connection(None, 1, "p1", False, "fr", queue=asyncio.Queue(2))  # type: ignore[arg-type]
    quick = Connection(None, 1, "p2", False, "fr")  # type: ignore[arg-type]
    hub.add(slow)
    hub.add(quick)
    for _ in range(3):
        hub.publish(1, "public", "p3", lambda seen, language: "{}")
    assert slow.closed and hub.count(1) == 1
    assert quick.queue.qsize() == 3


class RecordingSocket:
    """Stands for a WebSocket: what the pump sent, and when."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, str]] = []

    async def send_text(self, text: str) -> None:
        self.frames.append((time.monotonic(), text))

    async def close(self, code: int) -> None:
        self.frames.append((time.monotonic(), f"closed {code}"))


def test_a_quiet_table_sends_each_roll_at_once_a_busy_one_gathers_them() -> None:
    """The pump sends a roll alone as soon as it comes; rolls that come within
    ``FRAME_GAP`` of the last frame wait for the gap and go out together, as one JSON
    array in their order (what keeps a flood of rolls from costing a frame each)."""

    async def scenario() -> RecordingSocket:
        socket = RecordingSocket()
        hub = Hub()
        connection = Connection(socket, 1, "p1", False, "fr")  # type: ignore[arg-type]
        hub.add(connection)
        pump = asyncio.create_task(hub.pump(connection))
        hub.send(connection, '{"n": 1}')
        await asyncio.sleep(0.002)  # the pump turns: the first roll is out alone
        for number in (2, 3, 4):
            hub.send(connection, f'{{"n": {number}}}')
        await asyncio.sleep(FRAME_GAP * 3)
        hub.close_seat(1, "p1")
        await asyncio.wait_for(pump, 1)
        return socket

    socket = asyncio.run(scenario())
    (first, one), (second, gathered), (_, closed) = socket.frames
    assert json.loads(one) == {"n": 1}
    assert json.loads(gathered) == [{"n": 2}, {"n": 3}, {"n": 4}]
    assert second - first >= FRAME_GAP * 0.9  # they waited for the gap, then went together
    assert closed == "closed 4001"  # docs/web.md: a removed seat's page closes with 4001


def test_a_roll_that_changes_a_sheet_has_every_page_draw_its_cards_again(table: Table) -> None:
    """O-3 at the table: a Maladresse's Vécu is written with its roll; every page is told
    to draw the cards again, and draws the new Vécu. A roll that changes no sheet sends
    no such message."""
    alice = table.join("Alice")
    table.create(alice, "obscur", "Isaure")
    vecu = table.store.character("Isaure").sheet["ressources"]["vecu"]
    before = int(vecu["current"] if isinstance(vecu, dict) else vecu)
    assert f"<b>Vécu</b> {before}" in table.client.get(table.gm).text  # read, and kept
    with table.client.websocket_connect(f"{table.gm}/ws") as gm:
        assert receive(gm)["type"] == "hello"
        table.roll(alice, "Isaure", "Agilité", faces="1 4")  # no Maladresse: no change
        table.roll(alice, "Isaure", "Agilité", faces="1 1")  # a Maladresse: +1 Vécu
        table.roll(alice, "Isaure", "Agilité", faces="2 4")  # without the message: no wait
        assert [receive(gm)["type"] for _ in range(3)] == ["roll", "roll", "sheet"]
        assert receive(gm)["type"] == "roll"
    assert f"<b>Vécu</b> {before + 1}" in table.client.get(table.gm).text


def test_a_log_entry_s_mode_and_whisper_target_are_found_among_any_decisions() -> None:
    """Decisions hold any JSON (a batch's choices, a plan): the seat's mode, its roller
    and a whisper's target are read from the decision that holds them, wherever it is."""
    from meneur.web.live import roll_meta, seen_by, whisper_to

    whisper = {"decisions": [3, "stop", {"mode": "whisper", "seat": "p1", "to": "p2"}]}
    assert whisper_to(whisper) == "p2" and roll_meta(whisper) == ("whisper", "p1")
    assert [seen_by(whisper, v, viewer_is_gm=v == "gm") for v in ("gm", "p1", "p2", "p3")] == [
        "full",
        "full",
        "full",
        None,
    ]
    secret = {"decisions": [7, {"mode": "gmroll", "seat": "p1"}]}
    assert whisper_to(secret) is None
    assert [seen_by(secret, v, viewer_is_gm=v == "gm") for v in ("gm", "p1", "p2")] == [
        "full",
        "full",
        None,
    ]


def test_a_token_bucket_allows_its_burst_then_its_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """5 messages a second on average, bursts of 20 (docs/web.md, « débit »): the 21st
    at once is refused; 0.25 s later one more passes; a long pause refills 20, not more."""
    import meneur.web.live as live

    now = [100.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: now[0])
    bucket = live.TokenBucket(5, 20)
    assert [bucket.take() for _ in range(21)] == [True] * 20 + [False]
    now[0] += 0.1  # half a token
    assert bucket.take() is False
    now[0] += 0.15  # a token and a quarter
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 3600
    assert [bucket.take() for _ in range(21)] == [True] * 20 + [False]


def test_publish_and_whisper_queue_each_reader_once_and_say_how_many() -> None:
    """``publish`` and ``whisper`` queue the message only to the connections that may
    read it, render it once per (reading, language), and return how many they queued
    (their docstrings): a gmroll by p1 reaches the GM and p1 (2 of 4); a whisper from p1
    to p2 reaches p1, p2 and the GM (3 of 4), each reading its own part."""
    hub = Hub()
    gm = Connection(None, 1, "gm", True, "fr")  # type: ignore[arg-type]
    p1, p2, p3 = (Connection(None, 1, f"p{n}", False, "fr") for n in (1, 2, 3))  # type: ignore[arg-type]
    for connection in (gm, p1, p2, p3):
        hub.add(connection)
    rendered: list[tuple[Any, str]] = []

    def render(reading: Any, language: str) -> str:
        rendered.append((reading, language))
        return f"{reading}/{language}"

    assert hub.publish(1, "gmroll", "p1", render) == 2
    assert sorted(rendered) == [("full", "fr")]  # the GM and p1 read the same: rendered once
    assert [c.queue.get_nowait() for c in (gm, p1)] == ["full/fr", "full/fr"]
    assert p2.queue.empty() and p3.queue.empty()
    rendered.clear()
    assert hub.whisper(1, "p1", "p2", render) == 3
    assert sorted(rendered) == [("", "fr"), ("from", "fr"), ("to", "fr")]
    assert [c.queue.get_nowait() for c in (gm, p1, p2)] == ["/fr", "from/fr", "to/fr"]
    assert p3.queue.empty()
    assert hub.publish(1, "selfroll", None, render) == 0  # nobody's own roll: nobody


def test_a_flood_goes_out_in_frames_of_at_most_batch_limit_messages() -> None:
    """What queued up while the pump was busy goes out gathered, in order, but never more
    than ``BATCH_LIMIT`` messages to a frame: 250 waiting make a frame of BATCH_LIMIT,
    then one of the rest."""
    total = BATCH_LIMIT + 50

    async def scenario() -> RecordingSocket:
        socket = RecordingSocket()
        hub = Hub()
        connection = Connection(socket, 1, "p1", False, "fr")  # type: ignore[arg-type]
        hub.add(connection)
        for number in range(total):
            hub.send(connection, f'{{"n": {number}}}')
        pump = asyncio.create_task(hub.pump(connection))
        for _ in range(100):  # until the queue is sent (two frames), at most a second
            await asyncio.sleep(FRAME_GAP / 3)
            if connection.queue.empty() and len(socket.frames) >= 2:
                break
        hub.close_seat(1, "p1")
        await asyncio.wait_for(pump, 1)
        return socket

    socket = asyncio.run(scenario())
    *frames, closed = [text for _, text in socket.frames]
    gathered = [json.loads(frame) for frame in frames]
    assert [len(frame) for frame in gathered] == [BATCH_LIMIT, 50]
    assert [m["n"] for frame in gathered for m in frame] == list(range(total))
    assert closed == "closed 4001"
