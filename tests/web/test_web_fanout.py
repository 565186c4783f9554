"""Live messages across server processes (:mod:`meneur.web.fanout`): packed into
notifications (:func:`~meneur.web.fanout.packed`), and sent and heard through the test
PostgreSQL server's own ``LISTEN/NOTIFY`` (skipped with its reason when none is set)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from meneur.web.fanout import CHANNEL, PAYLOAD_LIMIT, Fanout, packed, psycopg_url
from web.web_helpers import PG_SKIP, postgres_url


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


@pytest.fixture
def database() -> str:
    """The test PostgreSQL server's database of this worker, as libpq reads it: the
    fan-out meets the real ``LISTEN/NOTIFY`` (its order, its 8000-byte payloads)."""
    url = postgres_url()
    if url is None:
        pytest.skip(PG_SKIP)
    libpq = psycopg_url(url)
    assert libpq is not None
    return libpq


async def until(done: Callable[[], bool]) -> None:
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not delivered within 10 s")


async def listener(database: str) -> psycopg.AsyncConnection[Any]:
    """A connection of its own listening on the fan-out's channel, to see notifications
    as PostgreSQL sends them."""
    connection = await psycopg.AsyncConnection.connect(database, autocommit=True)
    await connection.execute(f"LISTEN {CHANNEL}")
    return connection


async def heard(connection: psycopg.AsyncConnection[Any], count: int) -> list[str]:
    return [notice.payload async for notice in connection.notifies(timeout=10, stop_after=count)]


def roll(number: int, entry: dict[str, Any] | None = None) -> dict[str, Any]:
    entry = entry if entry is not None else {"seq": number, "text": "é"}
    return {"kind": "roll", "table": 1, "id": f"k{number}", "entry": entry, "campaign": "c"}


def test_every_process_delivers_every_message_in_one_order(database: str) -> None:
    """Each process, the sender included, delivers what its listening connection hears:
    every page sees the rolls in the notifications' one order (docs/web.md)."""
    got: dict[int, list[dict[str, Any]]] = {1: [], 2: []}

    async def scene() -> list[bool]:
        fanouts = [Fanout(database, got[n].append) for n in (1, 2)]
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


def test_messages_queued_together_go_in_one_notification(database: str) -> None:
    got: list[dict[str, Any]] = []

    async def scene() -> list[str]:
        watching = await listener(database)
        fanout = Fanout(database, got.append)
        await fanout.start()
        for number in (1, 2, 3):  # queued before the sender runs
            fanout.send(roll(number))
        [sent] = await heard(watching, 1)
        await until(lambda: len(got) == 3)
        fanout.send(roll(4))
        later = await heard(watching, 1)
        await until(lambda: len(got) == 4)
        await fanout.stop()
        await watching.close()
        return [sent, *later]

    sent, later = asyncio.run(scene())
    assert [m["id"] for m in json.loads(sent)] == ["k1", "k2", "k3"]
    assert json.loads(later) == roll(4)
    assert got == [roll(1), roll(2), roll(3), roll(4)]


def sized(total: int) -> dict[str, Any]:
    """A roll message whose JSON, as sent, is ``total`` bytes (accents count twice)."""
    base = roll(9, {"seq": 9, "text": "é" * 100})
    padding = total - len(json.dumps(base, ensure_ascii=False, separators=(",", ":")).encode())
    return roll(9, {"seq": 9, "text": "é" * 100 + "x" * padding})


def test_a_roll_travels_with_its_entry_while_it_fits_else_the_entry_is_read_again(
    database: str,
) -> None:
    """An entry of PAYLOAD_LIMIT bytes (in UTF-8, as PostgreSQL counts them) travels in
    the notification; one byte more and only its number travels, with the rest of the
    message: each process reads the entry from the database (routes.common.deliver).
    PostgreSQL itself refuses a payload of 8000 bytes: a message far larger still
    travels, slimmed."""
    got: list[dict[str, Any]] = []
    fits, too_large, huge = sized(PAYLOAD_LIMIT), sized(PAYLOAD_LIMIT + 1), sized(20_000)

    async def scene() -> None:
        fanout = Fanout(database, got.append)
        await fanout.start()
        for number, message in enumerate((fits, too_large, huge), start=1):
            fanout.send(message)
            await until(lambda number=number: len(got) == number)
        await fanout.stop()

    asyncio.run(scene())
    slim = {"kind": "roll", "table": 1, "id": "k9", "seq": 9, "campaign": "c"}
    assert got == [fits, slim, slim]


def test_a_process_that_stops_hearing_says_so(database: str) -> None:
    """``listening`` is told True once the process hears every change, False when its
    listening connection is lost (here the server ends it) and again when it stops: it
    then keeps no seat."""
    told: list[bool] = []

    async def scene() -> None:
        fanout = Fanout(database, lambda message: None, told.append)
        await fanout.start()
        assert told == [True]
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as admin:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query = %s",
                (f"LISTEN {CHANNEL}",),
            )
        await until(lambda: len(told) == 2)
        await fanout.stop()

    asyncio.run(scene())
    assert told == [True, False, False]
