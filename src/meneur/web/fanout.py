"""Live messages across server processes: PostgreSQL's ``LISTEN/NOTIFY``, no broker.

Every message for the pages (a roll, « the tracker changed », « close this seat's
sockets ») goes through :meth:`Fanout.send`. On SQLite (one process) it is delivered at
once. On PostgreSQL it is sent with ``pg_notify`` on a dedicated connection (psycopg's
async connection, in order) and every process, this one included, delivers what its
listening connection receives: PostgreSQL hands the notifications to every listener in
the same order, so every page, whichever process serves it, sees the rolls in one order.

A roll's entry travels in the notification when it fits (8000 bytes at most); a larger
one is read from the database by each process. Messages queued while the previous
notification was being sent go together, as one JSON array per notification while they
fit: on a busy table a notification (and its round trip) per roll would cost more than
the rolls' own writes, which are grouped (:mod:`meneur.campaign.appending`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("meneur.web")
CHANNEL = "meneur_live"
PAYLOAD_LIMIT = 7900


def psycopg_url(url: str) -> str | None:
    """The libpq URL of a PostgreSQL database URL, or ``None`` for any other database."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        return None
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


class Fanout:
    """Sends live messages to every process; ``deliver`` hands each to this one's pages."""

    def __init__(
        self,
        url: str | None,
        deliver: Callable[[dict[str, Any]], None],
        listening: Callable[[bool], None] | None = None,
    ) -> None:
        self.url = url
        self.deliver = deliver
        self.listening = listening
        """Told ``True`` once this process hears every change, ``False`` when it stops:
        what it keeps in memory (the seats) is only good while it listens."""
        self._queue: asyncio.Queue[tuple[str, int]] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._connections: list[Any] = []

    @property
    def shared(self) -> bool:
        return self.url is not None and self._queue is not None

    async def start(self) -> None:
        if self.url is None:
            return
        import psycopg

        listening = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        sending = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._connections = [listening, sending]
        await listening.execute(f"LISTEN {CHANNEL}")
        self._queue = asyncio.Queue()
        self._tasks = [
            asyncio.create_task(self._listen(listening)),
            asyncio.create_task(self._send(sending, self._queue)),
        ]
        self._heard(True)

    def _heard(self, listening: bool) -> None:
        if self.listening is not None:
            self.listening(listening)

    async def stop(self) -> None:
        self._heard(False)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for connection in self._connections:
            with contextlib.suppress(Exception):
                await connection.close()
        self._tasks, self._connections, self._queue = [], [], None

    def send(self, message: dict[str, Any]) -> None:
        """Deliver ``message`` in every process (here at once when alone)."""
        if self._queue is None:
            self.deliver(message)
            return
        payload = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        size = len(payload.encode())
        if size > PAYLOAD_LIMIT and "entry" in message:
            entry = message["entry"]
            slim = {k: v for k, v in message.items() if k != "entry"}
            slim["seq"], slim["campaign"] = entry["seq"], message.get("campaign")
            payload = json.dumps(slim, separators=(",", ":"))
            size = len(payload.encode())
        self._queue.put_nowait((payload, size))

    async def _send(self, connection: Any, queue: asyncio.Queue[tuple[str, int]]) -> None:
        while True:
            waiting = [await queue.get()]
            while not queue.empty():
                waiting.append(queue.get_nowait())
            for payload in packed(waiting):
                try:
                    await connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                except Exception:  # the page reloads what it missed; the server goes on
                    log.warning("live message not sent to the other processes", exc_info=True)

    async def _listen(self, connection: Any) -> None:
        try:
            async for notice in connection.notifies():
                try:
                    found = json.loads(notice.payload)
                except ValueError:
                    log.warning("live message not delivered", exc_info=True)
                    continue
                for message in found if isinstance(found, list) else [found]:
                    try:
                        self.deliver(message)
                    except Exception:
                        log.warning("live message not delivered", exc_info=True)
        except Exception:  # the connection is lost: nothing heard any more, nothing kept
            log.warning("live messages from the other processes lost", exc_info=True)
        finally:
            self._heard(False)


def packed(waiting: list[tuple[str, int]]) -> list[str]:
    """The payloads of ``waiting`` (each a JSON object and its size in bytes), in order,
    as few notifications as fit: one object alone, several as a JSON array."""
    groups: list[list[str]] = []
    size = PAYLOAD_LIMIT  # the first payload opens the first group
    for payload, length in waiting:
        if size + length + 1 > PAYLOAD_LIMIT:
            groups.append([])
            size = 1
        groups[-1].append(payload)
        size += length + 1
    return [group[0] if len(group) == 1 else "[" + ",".join(group) + "]" for group in groups]
