"""Live messages packed into notifications (:func:`meneur.web.fanout.packed`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import psycopg
import pytest

from meneur.web.fanout import PAYLOAD_LIMIT, Fanout, packed, psycopg_url


def message(number: int, size: int) -> tuple[str, int]:
    payload = json.dumps({"kind": "roll", "n": number, "pad": "x" * size})
    return payload, len(payload.encode())


def test_messages_waiting_together_travel_in_order_in_few_notifications() -> None:
    waiting = [message(number, 900) for number in range(20)]
    sent = packed(waiting)
    assert 1 < len(sent) < 20
    assert all(len(payload.encode()) <= PAYLOAD_LIMIT for payload in sent)
    found = []
    for payload in sent:
        data = json.loads(payload)
        found.extend(data if isinstance(data, list) else [data])
    assert [m["n"] for m in found] == list(range(20))


def test_a_message_alone_travels_as_itself() -> None:
    alone = message(7, 10)
    assert packed([alone]) == [alone[0]]
    big = message(8, PAYLOAD_LIMIT - 60)  # too big to share a notification
    assert packed([alone, big, alone]) == [alone[0], big[0], alone[0]]


def test_a_group_fills_a_notification_to_its_last_byte_and_no_further() -> None:
    """Several payloads travel as one JSON array while the array's bytes (brackets and
    commas included) stay within PAYLOAD_LIMIT; one byte more opens a second one."""
    first = message(1, 10)
    size = PAYLOAD_LIMIT - first[1] - 3  # "[" + first + "," + second + "]"
    second = message(2, size - len(message(2, 0)[0]))
    assert second[1] == size
    [together] = packed([first, second])
    assert len(together.encode()) == PAYLOAD_LIMIT
    assert together == "[" + first[0] + "," + second[0] + "]"
    one_more = message(2, size + 1 - len(message(2, 0)[0]))
    assert packed([first, one_more]) == [first[0], one_more[0]]
    # the same count in a group opened after the first: a third payload starts afresh
    assert packed([one_more, first, second]) == [one_more[0], together]


def test_the_database_url_given_to_psycopg_keeps_its_password() -> None:
    """LISTEN/NOTIFY connects with the store's own credentials: the password must reach
    libpq (SQLAlchemy's rendering hides it by default); SQLite has no fan-out."""
    url = "postgresql+psycopg://meneur:s3cret@127.0.0.1:54333/meneur_test"
    assert psycopg_url(url) == "postgresql://meneur:s3cret@127.0.0.1:54333/meneur_test"
    assert psycopg_url("sqlite:////tmp/m.db") is None


class Notice:
    def __init__(self, payload: str) -> None:
        self.payload = payload


class FakePostgres:
    """``LISTEN/NOTIFY`` as psycopg's async connections meet it: a notification sent on
    an autocommit connection reaches every connection listening on its channel, all in
    one order; on a connection in a transaction, ``LISTEN`` and ``NOTIFY`` wait for a
    commit (never made here); a payload of 8000 bytes or more is refused."""

    def __init__(self) -> None:
        self.listeners: list[tuple[str, FakeConnection]] = []
        self.sent: list[str] = []

    async def connect(self, url: str, autocommit: bool = False) -> FakeConnection:
        return FakeConnection(self, autocommit)


class FakeConnection:
    def __init__(self, server: FakePostgres, autocommit: bool) -> None:
        self.server, self.autocommit = server, autocommit
        self.heard: asyncio.Queue[str | None] = asyncio.Queue()

    async def execute(self, query: str, params: tuple[str, str] | None = None) -> None:
        if not self.autocommit:
            return  # held until a commit
        if query.startswith("LISTEN "):
            self.server.listeners.append((query.split()[1], self))
        elif query.startswith("SELECT pg_notify"):
            assert params is not None
            channel, payload = params
            if len(payload.encode()) >= 8000:
                raise ValueError("payload string too long")
            self.server.sent.append(payload)
            for name, listener in self.server.listeners:
                if name == channel:
                    listener.heard.put_nowait(payload)

    async def notifies(self) -> AsyncIterator[Notice]:
        while True:
            payload = await self.heard.get()
            if payload is None:
                raise OSError("the connection is lost")
            yield Notice(payload)

    async def close(self) -> None:
        self.heard.put_nowait(None)


URL = "postgresql://meneur@127.0.0.1/meneur"


@pytest.fixture
def postgres(monkeypatch: pytest.MonkeyPatch) -> FakePostgres:
    server = FakePostgres()
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", server.connect)
    return server


async def until(done: Callable[[], bool]) -> None:
    for _ in range(500):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not delivered within 5 s")


def roll(number: int, entry: dict[str, Any] | None = None) -> dict[str, Any]:
    entry = entry if entry is not None else {"seq": number, "text": "é"}
    return {"kind": "roll", "table": 1, "id": f"k{number}", "entry": entry, "campaign": "c"}


def test_every_process_delivers_every_message_in_one_order(postgres: FakePostgres) -> None:
    """Each process, the sender included, delivers what its listening connection hears:
    every page sees the rolls in the notifications' one order (docs/web.md)."""
    got: dict[int, list[dict[str, Any]]] = {1: [], 2: []}

    async def scene() -> list[bool]:
        fanouts = [Fanout(URL, got[n].append) for n in (1, 2)]
        assert not any(fanout.shared for fanout in fanouts)
        for fanout in fanouts:
            await fanout.start()
        shared = [fanout.shared for fanout in fanouts]
        fanouts[0].send(roll(1))
        fanouts[1].send(roll(2))
        await until(lambda: len(got[1]) == len(got[2]) == 2)
        fanouts[1].send(roll(3))  # the sender's loop goes on after its first notification
        await until(lambda: len(got[1]) == len(got[2]) == 3)
        for fanout in fanouts:
            await fanout.stop()
        return shared + [fanout.shared for fanout in fanouts]

    assert asyncio.run(scene()) == [True, True, False, False]
    assert got[1] == got[2]
    assert sorted(m["id"] for m in got[1]) == ["k1", "k2", "k3"] and got[1][2] == roll(3)


def test_messages_queued_together_go_in_one_notification(postgres: FakePostgres) -> None:
    got: list[dict[str, Any]] = []

    async def scene() -> None:
        fanout = Fanout(URL, got.append)
        await fanout.start()
        for number in (1, 2, 3):
            fanout.send(roll(number))
        await until(lambda: len(got) == 3)
        await fanout.stop()

    asyncio.run(scene())
    [sent] = postgres.sent
    assert [m["id"] for m in json.loads(sent)] == ["k1", "k2", "k3"]
    assert got == [roll(1), roll(2), roll(3)]


def sized(total: int) -> dict[str, Any]:
    """A roll message whose JSON, as sent, is ``total`` bytes (accents count twice)."""
    base = roll(9, {"seq": 9, "text": "é" * 100})
    padding = total - len(json.dumps(base, ensure_ascii=False, separators=(",", ":")).encode())
    return roll(9, {"seq": 9, "text": "é" * 100 + "x" * padding})


def test_a_roll_travels_with_its_entry_while_it_fits_else_the_entry_is_read_again(
    postgres: FakePostgres,
) -> None:
    """An entry of PAYLOAD_LIMIT bytes (in UTF-8, as PostgreSQL counts them) travels in
    the notification; one byte more and only its number travels, with the rest of the
    message: each process reads the entry from the database (routes.common.deliver)."""
    got: list[dict[str, Any]] = []
    fits, too_large = sized(PAYLOAD_LIMIT), sized(PAYLOAD_LIMIT + 1)

    async def scene() -> None:
        fanout = Fanout(URL, got.append)
        await fanout.start()
        fanout.send(fits)
        await until(lambda: len(got) == 1)
        fanout.send(too_large)
        await until(lambda: len(got) == 2)
        await fanout.stop()

    asyncio.run(scene())
    assert got[0] == fits
    assert got[1] == {"kind": "roll", "table": 1, "id": "k9", "seq": 9, "campaign": "c"}


def test_a_process_that_stops_hearing_says_so(postgres: FakePostgres) -> None:
    """``listening`` is told True once the process hears every change, False when its
    listening connection is lost and again when it stops: it then keeps no seat."""
    told: list[bool] = []

    async def scene() -> None:
        fanout = Fanout(URL, lambda message: None, told.append)
        await fanout.start()
        assert told == [True]
        listening = postgres.listeners[0][1]
        await listening.close()
        await until(lambda: len(told) == 2)
        await fanout.stop()

    asyncio.run(scene())
    assert told == [True, False, False]
