"""A logged command's way to its SQLite campaign file, without SQLAlchemy.

Once a campaign exists, every command that rolls logs its roll (``MENEUR_LOG``). Through
:class:`~meneur.campaign.store.Store` that costs ~0.3 s of importing SQLAlchemy and its
ORM before a write of a few milliseconds: a logged ``meneur roll 3d6`` took four times
an unlogged one. :class:`SqliteLog` opens the same file with the standard library's
``sqlite3``, with the same settings (:func:`tune`), and writes through the same
:class:`~meneur.campaign.hotlog.HotLog` code as the store: the same statements, the same
entries, the same lock (``BEGIN IMMEDIATE``). It serves one thread.

It is used only where it is sure to be right: a plain ``sqlite:///`` file that exists
and whose schema is the one this meneur writes (:data:`~meneur.campaign.paths.HEAD`).
Anything else (PostgreSQL, a file to create or to migrate, a URL with options) opens
the store, which knows how. What the hot path does not do itself (a character that is
not there, no current campaign, writing sheets without a roll, storing a character) it
asks of a store opened then, on the same file.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meneur.campaign.errors import StorageError
from meneur.campaign.hotlog import HotLog
from meneur.campaign.paths import HEAD, database_url, shown
from meneur.locale import N_

if TYPE_CHECKING:
    from meneur.campaign.records import CharacterInfo
    from meneur.campaign.store import Store

BUSY_TIMEOUT_MS = 15_000
"""How long a writer waits for another's lock before the database counts as busy."""
ENV_SYNC = "MENEUR_DB_SYNC"
SCHEME = "sqlite:///"


def sqlite_synchronous(environ: Mapping[str, str] | None = None) -> str:
    """``NORMAL`` (default) or ``FULL`` from ``MENEUR_DB_SYNC``; anything else is an error."""
    env = os.environ if environ is None else environ
    wanted = env.get(ENV_SYNC, "").strip().upper() or "NORMAL"
    if wanted not in ("NORMAL", "FULL"):
        raise StorageError(
            N_("{variable} is 'normal' or 'full', not '{value}'."),
            variable=ENV_SYNC,
            value=wanted[:20].lower(),
        )
    return wanted


def tune(connection: Any, synchronous: str) -> None:
    """meneur's settings on a new DB-API connection to SQLite (both ways of opening one):
    no implicit transactions (every write transaction is ``BEGIN IMMEDIATE``, so that two
    writers queue instead of failing half-way), WAL, foreign keys."""
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute(f"PRAGMA synchronous = {synchronous}")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def sqlite_file(url: str) -> Path | None:
    """The file a plain ``sqlite:///PATH`` URL names; ``None`` for any other URL (another
    database, memory, ``file:`` URIs, options, escapes, ``~``): those open the store."""
    if not url.startswith(SCHEME):
        return None
    path = url[len(SCHEME) :]
    if not path or path == ":memory:" or path.startswith(("file:", "~")):
        return None
    if any(sign in path for sign in "?%#\x00"):
        return None
    return Path(path)


class SqliteLog(HotLog):
    """The hot path of a roll on an up-to-date SQLite campaign file (see the module)."""

    sqlite = True
    driver_error = sqlite3.Error

    def __init__(self, url: str, connection: sqlite3.Connection) -> None:
        from meneur.campaign.appending import Appender

        self.url = url
        self.shown_url = shown(url)
        self._connection: sqlite3.Connection | None = connection
        self._store: Store | None = None
        self._appender = Appender(self)

    @classmethod
    def open(cls, url: str | None = None) -> SqliteLog | None:
        """The log of ``url`` (the user's database by default), or ``None`` when it is not
        an existing SQLite file at this meneur's schema (the store then opens it)."""
        url = url or database_url()
        path = sqlite_file(url)
        if path is None or not path.is_file():
            return None
        try:
            connection = _connect(path)
        except (sqlite3.Error, OSError, ValueError):
            return None  # the store says why, in the user's words
        try:
            found = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        except sqlite3.Error:
            found = []
        if found != [(HEAD,)]:
            connection.close()
            return None
        return cls(url, connection)

    def store(self) -> Store:
        """A store on the same file, opened at the first need."""
        if self._store is None:
            from meneur.campaign.store import Store

            self._store = Store(self.url)
        return self._store

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- how the database is reached -------------------------------------------------

    def connect(self) -> Any:
        if self._connection is None:
            path = sqlite_file(self.url)
            assert path is not None  # checked when opened
            try:
                self._connection = _connect(path)
            except sqlite3.Error as error:
                raise self.failed(error) from None
        return self._connection

    def release(self, raw: Any, *, broken: bool) -> None:
        if broken:
            raw.close()
            self._connection = None

    def read_one(self, sql: str, params: Mapping[str, Any]) -> Any:
        raw = self.connect()
        try:
            return raw.execute(sql, dict(params)).fetchone()
        except sqlite3.Error as error:
            self.release(raw, broken=True)
            raise self.failed(error) from None

    # -- what the hot path leaves to the store ----------------------------------------

    def _character_missing(self, name: str, campaign: str | None) -> CharacterInfo:
        return self.store().character(name, campaign=campaign)

    def _make_current(self) -> None:
        self.store()._make_current()


def _connect(path: Path) -> sqlite3.Connection:
    """The existing file ``path`` opened read-write (never created), tuned."""
    uri = path.absolute().as_uri() + "?mode=rw"
    connection = sqlite3.connect(uri, uri=True)  # tune() sets the wait first
    try:
        tune(connection, sqlite_synchronous())
    except BaseException:
        connection.close()
        raise
    return connection


def open_log(url: str | None = None) -> SqliteLog | Store:
    """The lightest way to log rolls to ``url`` (the user's database by default)."""
    found = SqliteLog.open(url)
    if found is not None:
        return found
    from meneur.campaign.store import Store

    return Store(url)
