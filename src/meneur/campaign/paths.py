"""Where the database is, known without importing SQLAlchemy (the roll hook asks first)."""

from __future__ import annotations

import os
from pathlib import Path

ENV_URL = "MENEUR_DB_URL"
ENV_LOG = "MENEUR_LOG"
DB_FILENAME = "meneur.db"
REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006")
"""Every schema revision in ``migrations/versions``, oldest first (a test checks it
against them).

Knowing them without Alembic lets an up-to-date database open without importing Alembic
(a few hundred milliseconds on every command), or SQLAlchemy (:mod:`.sqlitelog`)."""
HEAD = REVISIONS[-1]


def shown(text: str) -> str:
    """A database URL as it may be shown to a user: no password, and not a page long."""
    return bounded(text.split("@")[-1] if "@" in text else text)


def bounded(text: str) -> str:
    """``text`` cut to 120 characters at most."""
    return text if len(text) <= 120 else text[:117] + "..."


def default_path() -> Path:
    """The default SQLite file: ``meneur.db`` in the user's data folder (platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("meneur")) / DB_FILENAME


def database_url(environ: dict[str, str] | None = None) -> str:
    """``MENEUR_DB_URL`` if set, else the default SQLite file."""
    env = os.environ if environ is None else environ
    explicit = env.get(ENV_URL, "").strip()
    if explicit:
        return explicit
    return f"sqlite:///{default_path()}"


def logging_wanted(environ: dict[str, str] | None = None, *, creating: bool = False) -> bool:
    """Whether rolls made outside a stored character are logged.

    ``MENEUR_LOG=1`` forces it (the database is created if needed), ``MENEUR_LOG=0``
    turns it off; otherwise rolls are logged as soon as a campaign database exists
    (``MENEUR_DB_URL`` is set, or the default file is there). A newcomer who never made
    a campaign pays nothing. A command that creates the database (``creating``: a new
    character) logs its rolls unless ``MENEUR_LOG=0``.
    """
    env = os.environ if environ is None else environ
    flag = env.get(ENV_LOG, "").strip().lower()
    if flag in ("0", "no", "false", "off"):
        return False
    if flag in ("1", "yes", "true", "on") or creating:
        return True
    if env.get(ENV_URL, "").strip():
        return True
    return default_path().exists()
