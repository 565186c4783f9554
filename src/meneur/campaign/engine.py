"""Which database, and how it is opened.

* ``MENEUR_DB_URL`` picks any SQLAlchemy URL (``postgresql://user@host/db`` is read as
  PostgreSQL through psycopg 3); without it, a SQLite file ``meneur.db`` in the user's
  data folder (platformdirs), created on first use: zero setup.
* SQLite is opened in WAL mode, foreign keys on, and every transaction is
  ``BEGIN IMMEDIATE`` so that two writers queue instead of failing half-way (the roll log
  is a chain: two appends must never interleave).
* Durability: ``synchronous=NORMAL`` by default, SQLite's recommended setting for WAL:
  a committed roll survives the process being killed (the SIGKILL test) and the
  database is never corrupted, but an operating-system crash or power cut may lose the
  last commits. ``MENEUR_DB_SYNC=full`` syncs the disk at every commit (survives a power
  cut too) at the disk's fsync rate: see ``benchmarks/bench_campaign.py``.
* A wrong URL is one clear line (the password is never shown).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from meneur.campaign.errors import StorageError
from meneur.campaign.paths import ENV_URL, bounded, database_url, default_path
from meneur.campaign.paths import shown as shown_text
from meneur.campaign.reasons import storage_reason
from meneur.campaign.sqlitelog import sqlite_synchronous, tune
from meneur.files import os_reason
from meneur.locale import N_

__all__ = ["database_url", "default_path", "make_engine", "shown"]


def shown(url: URL | str) -> str:
    """The URL as it may be shown to a user: no password, and not a page long."""
    if isinstance(url, URL):
        return bounded(url.render_as_string(hide_password=True))
    return shown_text(url)


def parse_url(text: str) -> URL:
    try:
        url = make_url(text)
        if "\x00" in (url.database or ""):  # %00: no file system takes it
            raise ValueError(text)
    except (ArgumentError, ValueError):
        raise StorageError(
            N_("{variable} is not a database URL: '{url}' (try sqlite:///path/meneur.db)."),
            variable=ENV_URL,
            url=shown(text),
        ) from None
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def database_exists(text: str) -> bool:
    """Whether the database ``text`` names is there already: an SQLite file that exists
    (``:memory:`` and ``file:`` URLs, and servers, count as there)."""
    url = parse_url(text)
    database = url.database or ""
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return True
    return database.startswith("file:") or Path(database).expanduser().exists()


def make_engine(text: str) -> Engine:
    """An engine for ``text``, with meneur's settings for SQLite; nothing is connected yet."""
    url = parse_url(text)
    options: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            folder = Path(database).expanduser().resolve().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageError(
                    N_("Cannot create the folder {path} for the database: {reason}."),
                    path=str(folder),
                    reason=os_reason(error),
                ) from None
    elif url.get_backend_name() == "postgresql":
        options["connect_args"] = {"connect_timeout": 5}
    try:
        engine = create_engine(url, **options)
    except (ArgumentError, NoSuchModuleError, ImportError, TypeError) as error:
        raise StorageError(
            N_("Cannot use the database {url}: {reason}."),
            url=shown(url),
            reason=storage_reason(error),
        ) from None
    if url.get_backend_name() == "sqlite":
        _tune_sqlite(engine)
    return engine


def _tune_sqlite(engine: Engine) -> None:
    synchronous = sqlite_synchronous()

    @event.listens_for(engine, "connect")
    def _on_connect(connection: Any, _record: Any) -> None:
        tune(connection, synchronous)  # autocommit: we emit BEGIN ourselves, below

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
