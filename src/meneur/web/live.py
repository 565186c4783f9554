"""The shared live log: who may see a roll, and the fan-out over WebSocket.

Roll modes keep Foundry VTT's names:

* ``public``: everyone at the table;
* ``gmroll``: the GM and the roller;
* ``blindroll``: the GM only; the roller learns that a blind roll was made, not its dice;
* ``selfroll``: the roller only.

A whisper (``/w`` at the table, :mod:`meneur.web.chat`) is the mode ``whisper``: its
sender, its target and the GM see it, nobody else (the GM sees every whisper, as in
Foundry: the log is the GM's, and the GM's download holds it whole anyway). A mode this
module does not know is seen by nobody.

The server decides per connection what to send (:func:`audience`): a secret roll is
never sent to a connection that may not see it, so no client-side code can leak it.

Each connection has a bounded queue drained by its own sender task: one slow phone never
delays the others. A connection whose queue overflows is dropped (the page reconnects
and reloads). A frame holds one message (a JSON object) or, under load, several (a JSON
array of them).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from starlette.websockets import WebSocket

RollMode = Literal["public", "gmroll", "blindroll", "selfroll"]
ROLL_MODES: tuple[RollMode, ...] = ("public", "gmroll", "blindroll", "selfroll")
Audience = Literal["full", "hidden"]
QUEUE_LIMIT = 2000
BATCH_LIMIT = 200
CLOSED = 4001
"""Close code of a socket whose seat was removed (or whose queue overflowed)."""
FRAME_GAP = 0.03
"""Seconds between two frames to one client when rolls come faster than that: a quiet
table sends each roll at once; a busy one sends at most 33 frames a second per client,
each holding what came meanwhile. Under a flood of rolls the frames, not the rolls, cost
the server and every page most: at 0.01 s the server spent about a fifth more per roll
(``benchmarks/bench_web.py``), for latency that stays well under the 100 ms aimed at."""


WHISPER = "whisper"


def audience(
    mode: str, roller: str | None, viewer: str, *, viewer_is_gm: bool, to: str | None = None
) -> Audience | None:
    """What ``viewer`` (a seat key) may see of a roll made by ``roller`` in ``mode``
    (``to``: the target seat of a whisper)."""
    mine = roller is not None and viewer == roller
    if mode == WHISPER:
        return "full" if viewer_is_gm or mine or (to is not None and viewer == to) else None
    if mode == "gmroll":
        return "full" if viewer_is_gm or mine else None
    if mode == "blindroll":
        if viewer_is_gm:
            return "full"
        return "hidden" if mine else None
    if mode == "selfroll":
        return "full" if mine else None
    return "full" if mode == "public" else None


def whisper_to(entry: dict[str, Any]) -> str | None:
    """The target seat of a whispered entry, ``None`` for any other."""
    for decision in entry.get("decisions") or []:
        if isinstance(decision, dict) and decision.get("mode") == WHISPER:
            target = decision.get("to")
            return str(target) if target is not None else None
    return None


def seen_by(entry: dict[str, Any], viewer: str, *, viewer_is_gm: bool) -> Audience | None:
    """What ``viewer`` may see of a log entry (its mode, its roller, a whisper's target)."""
    mode, roller = roll_meta(entry)
    return audience(mode, roller, viewer, viewer_is_gm=viewer_is_gm, to=whisper_to(entry))


def roll_meta(entry: dict[str, Any]) -> tuple[str, str | None]:
    """The mode and roller of a log entry (rolls made outside the web table are public)."""
    for decision in entry.get("decisions") or []:
        if isinstance(decision, dict) and "mode" in decision:
            return str(decision["mode"]), str(decision.get("seat"))
    return "public", None


class TokenBucket:
    """At most ``rate`` events per second on average, bursts of ``burst``."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    table_id: int
    seat: str
    is_gm: bool
    language: str
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    closed: bool = False


Render = Callable[[Audience, str], str]
"""Builds the message for an audience and a language (memoised per publish)."""
WhisperRender = Callable[[str, str], str]
"""Builds a whisper for the reader's part in it (``from``, ``to`` or ``""`` for the GM
reading another's whisper) and a language (memoised per publish)."""


class Hub:
    """The connections of every table of this process."""

    def __init__(self) -> None:
        self.tables: dict[int, set[Connection]] = {}

    def add(self, connection: Connection) -> None:
        self.tables.setdefault(connection.table_id, set()).add(connection)

    def remove(self, connection: Connection) -> None:
        connection.closed = True
        self.tables.get(connection.table_id, set()).discard(connection)

    def count(self, table_id: int) -> int:
        return len(self.tables.get(table_id, ()))

    def seats(self, table_id: int) -> set[str]:
        """The seat keys with a live page open on this process."""
        return {connection.seat for connection in self.tables.get(table_id, ())}

    def close_seat(self, table_id: int, seat: str) -> int:
        """Close the sockets of ``seat`` (removed or its link revoked); returns how many."""
        closing = [c for c in self.tables.get(table_id, ()) if c.seat == seat]
        for connection in closing:
            self.remove(connection)
            with contextlib.suppress(asyncio.QueueFull):
                connection.queue.put_nowait("")  # wakes the sender, which closes the socket
        return len(closing)

    def publish(self, table_id: int, mode: str, roller: str | None, render: Render) -> int:
        """Queue the roll for every connection allowed to see it; returns how many."""

        def seen(connection: Connection) -> Audience | None:
            return audience(mode, roller, connection.seat, viewer_is_gm=connection.is_gm)

        return self._deliver(table_id, seen, render)

    def whisper(self, table_id: int, sender: str, target: str, render: WhisperRender) -> int:
        """Queue a whisper for its sender, its target and the GM only; returns how many.

        Every other connection gets nothing at all, not even an empty line.
        """

        def part(connection: Connection) -> str | None:
            seat = connection.seat
            if audience(WHISPER, sender, seat, viewer_is_gm=connection.is_gm, to=target) is None:
                return None
            return "from" if seat == sender else "to" if seat == target else ""

        return self._deliver(table_id, part, render)

    def _deliver(
        self,
        table_id: int,
        reads: Callable[[Connection], Any],
        render: Callable[[Any, str], str],
    ) -> int:
        """Queue to each connection of the table the message of what it ``reads`` (``None``:
        nothing at all), rendered once per (reading, language); returns how many."""
        made: dict[tuple[Any, str], str] = {}
        sent = 0
        for connection in list(self.tables.get(table_id, ())):
            reading = reads(connection)
            if reading is None:
                continue
            key = (reading, connection.language)
            message = made.get(key)
            if message is None:
                message = made[key] = render(reading, connection.language)
            self.send(connection, message)
            sent += 1
        return sent

    def broadcast(self, table_id: int, message: str) -> None:
        """A message for everyone at the table (the combat tracker, the session)."""
        for connection in list(self.tables.get(table_id, ())):
            self.send(connection, message)

    def send(self, connection: Connection, message: str) -> None:
        try:
            connection.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.remove(connection)
            connection.queue.get_nowait()  # room for the wake-up: the sender closes it
            connection.queue.put_nowait("")

    async def pump(self, connection: Connection) -> None:
        """Send the connection's queue in order until it closes.

        Messages that queued up while the previous frame was being sent go out together,
        as one JSON array: under load, a frame per roll per client would cost more than
        the rolls themselves.
        """
        queue = connection.queue
        last = 0.0
        with contextlib.suppress(Exception):
            while True:
                message = await queue.get()
                if connection.closed:  # dropped, or its seat removed: close the socket
                    await connection.websocket.close(code=CLOSED)
                    return
                wait = FRAME_GAP - (time.monotonic() - last)
                if wait > 0:  # busy table: gather what comes in the next moments
                    await asyncio.sleep(wait)
                last = time.monotonic()
                if queue.empty():
                    await connection.websocket.send_text(message)
                    continue
                batch = [message]
                while not queue.empty() and len(batch) < BATCH_LIMIT:
                    batch.append(queue.get_nowait())
                await connection.websocket.send_text("[" + ",".join(batch) + "]")
