"""What the routes share: settings, the store, the tables, the roller, the hub, templates.

Routes get it through typed dependencies (:func:`web_state`, :func:`seat`), never from a
module global, so a test can build as many independent apps as it likes.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.templating import Jinja2Templates

from meneur.campaign.store import Store
from meneur.web.fanout import Fanout
from meneur.web.limits import Limits
from meneur.web.live import Hub
from meneur.web.odds import Odds
from meneur.web.rolls import Roller, RollRequest
from meneur.web.systems import Waiting
from meneur.web.tables import Seat, Tables

HERE = Path(__file__).parent
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{20,64}$"


@dataclass(frozen=True, slots=True)
class WebSettings:
    """Limits of the web table (all explicit, all tested)."""

    max_body: int = 32_768
    """Bytes of a request body (forms and JSON)."""
    max_ws_message: int = 1024
    """Bytes of one WebSocket message from a client (they only send pings)."""
    ws_rate: float = 5.0
    ws_burst: float = 20.0
    """Messages per second a WebSocket client may send (bursts of ``ws_burst``)."""
    roll_rate: float = 5.0
    roll_burst: float = 20.0
    """Rolls (and odds asked) per second one seat may make (bursts of ``roll_burst``)."""
    chat_rate: float = 1.0
    chat_burst: float = 10.0
    """Lines (chat, whispers, ``/r``) per second one seat may send (bursts of
    ``chat_burst``); a ``/r`` also counts as a roll."""
    join_rate: float = 0.1
    join_burst: float = 6.0
    """Joins per second from one address at one table (bursts of ``join_burst``)."""
    log_lines: int = 60
    """Log entries shown when a page loads."""
    hosts: tuple[str, ...] = ()
    """The ``Host`` values the table answers to (``meneur serve`` sets them from
    ``--host`` and ``--public-url``); empty: any host (tests, embedding)."""
    public_url: str = ""
    """The table's own origin when it is reached through a proxy or a LAN address."""


@dataclass
class WebState:
    store: Store
    settings: WebSettings
    templates: Jinja2Templates
    tables: Tables
    roller: Roller
    hub: Hub = field(default_factory=Hub)
    waits: dict[str, Waiting] = field(default_factory=dict)
    """The rolls that wait for their roller's choice, by name (each system's own; in the
    database: every process sees them)."""
    limits: Limits | None = None
    fanout: Fanout | None = None
    """Live messages to every process (set by :func:`meneur.web.app.create_app`)."""

    def send(self, message: dict[str, Any]) -> None:
        assert self.fanout is not None
        self.fanout.send(message)

    def broadcast(self, table_id: int, text: str) -> None:
        """A message for every page of the table, on every process (tracker, session)."""
        self.send({"kind": "broadcast", "table": table_id, "text": text})

    def close_seat(self, table_id: int, seat: str) -> None:
        """Close the live pages of a removed or renewed seat, on every process."""
        self.send({"kind": "close", "table": table_id, "seat": seat})

    def waiting_for(self, form: Any) -> Waiting | None:
        """The kind of waiting roll a roll form asks for, if any."""
        return next((wait for wait in self.waits.values() if wait.asks(form)), None)

    @property
    def odds(self) -> Odds:
        """The exact odds' worker (shared with the roller, which judges each roll's luck)."""
        return self.roller.odds

    @staticmethod
    def csrf(seat: Seat) -> str:
        """The anti-forgery token of a seat's forms.

        Derived, so nothing is stored and it survives a restart: an HMAC of the seat's
        token keyed by the table's GM token (a secret no player and no other site has).
        """
        key = seat.table.gm_token.encode()
        return hmac.new(key, b"csrf:" + seat.token.encode(), hashlib.sha256).hexdigest()[:40]

    @property
    def shared_limits(self) -> Limits:
        if self.limits is None:
            self.limits = Limits(self.store)
        return self.limits

    async def _allow(self, key: str, rate: float, burst: float) -> bool:
        limits = self.shared_limits
        if limits.shared:  # a database transaction: off the event loop
            return await asyncio.to_thread(limits.take, key, rate, burst)
        return limits.take(key, rate, burst)

    async def allow_roll(self, seat: Seat) -> bool:
        """A roll (or an odds request) by ``seat``, within its rate (every process counts)."""
        settings = self.settings
        key = f"roll:{seat.table.id}:{seat.key}"
        return await self._allow(key, settings.roll_rate, settings.roll_burst)

    async def roll(
        self, seat: Seat, asked: RollRequest, first: Callable[[], None] | None = None
    ) -> dict[str, Any] | None:
        """``asked`` rolled for ``seat`` within its rate (``None``: over it), the rate
        taken and the roll made in one hop to a writer thread (a hop costs more than
        either on a busy table); ``first``, in the same hop, once the rate allows it
        (the seat's waiting rolls closed)."""
        limits, settings = self.shared_limits, self.settings
        key = f"roll:{seat.table.id}:{seat.key}"

        def limited() -> dict[str, Any] | None:
            if not limits.take(key, settings.roll_rate, settings.roll_burst):
                return None
            if first is not None:
                first()
            entry: dict[str, Any] = self.roller.roll(seat, asked)
            return entry

        found: dict[str, Any] | None = await self.roller.run(limited)
        return found

    async def allow_chat(self, seat: Seat) -> bool:
        """A line of the dice line and chat by ``seat``, within its rate (every process)."""
        settings = self.settings
        key = f"chat:{seat.table.id}:{seat.key}"
        return await self._allow(key, settings.chat_rate, settings.chat_burst)

    async def allow_join(self, table_id: int, address: str) -> bool:
        """A join from ``address`` at the table, within its rate (every process counts)."""
        settings = self.settings
        key = f"join:{table_id}:{address[:64]}"
        return await self._allow(key, settings.join_rate, settings.join_burst)


async def web_state(request: Request) -> WebState:
    """The app's state. ``async`` though it awaits nothing: FastAPI runs a plain ``def``
    dependency in a worker thread, a hop that cost every request more than this read."""
    state: WebState = request.app.state.web
    return state


State = Annotated[WebState, Depends(web_state)]
Token = Annotated[str, PathParam(pattern=TOKEN_PATTERN)]


async def seat(request: Request, table_id: int, token: Token, state: State) -> Seat:
    """The seat whose token is in the URL, or 404 (the same answer for a wrong table).

    Read from the database (in a thread, off the event loop) on PostgreSQL at every
    request, so that a seat the GM removed stops at once whichever process serves it.
    """
    known = state.tables.known_seat(table_id, token)  # SQLite: no database, no thread hop
    found = await asyncio.to_thread(state.tables.seat, table_id, token) if known is False else known
    if found is None:
        raise HTTPException(status_code=404)
    request.state.seat = found  # a refusal's page shows the table to this seat
    return found


SeatDep = Annotated[Seat, Depends(seat)]
