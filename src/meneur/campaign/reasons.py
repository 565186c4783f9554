"""Why the database failed, in the user's words.

SQLAlchemy, sqlite3 and psycopg explain in English (« unable to open database file »,
« Can't load plugin: sqlalchemy.dialects:foo »), which reached French messages as it was.
The reasons a user can meet are recognised here by the library's words and said in
ours; an error known nowhere keeps the library's first line, bounded, as a last resort.
"""

from __future__ import annotations

from meneur.locale import N_
from meneur.model_errors import Phrase

_KNOWN = (
    # SQLite (the default database)
    ("unable to open database file", N_("the file cannot be opened or created there")),
    ("file is not a database", N_("the file is not a meneur database (not SQLite)")),
    ("database is locked", N_("another program is using it; try again in a moment")),
    ("readonly database", N_("it is read-only")),
    ("database or disk is full", N_("the disk is full")),
    ("disk i/o error", N_("the disk could not be read or written")),
    ("disk image is malformed", N_("the file is damaged")),
    # PostgreSQL (psycopg)
    ("connection refused", N_("no database server answers at that address")),
    ("could not translate host name", N_("no computer answers to that name")),
    ("name or service not known", N_("no computer answers to that name")),
    ("nodename nor servname", N_("no computer answers to that name")),
    ("password authentication failed", N_("the user name or the password is wrong")),
    ('database "* does not exist', N_("that database does not exist on the server")),
    ("timeout expired", N_("the server did not answer in time")),
    ("server closed the connection", N_("the server closed the connection")),
    # any database
    ("unique constraint", N_("that entry exists already")),
    ("duplicate key", N_("that entry exists already")),
    ("foreign key constraint", N_("it refers to an entry that no longer exists")),
)
"""(words of the library's message, lower case, ``*`` standing for any text; our reason)."""

LIBRARY_LENGTH = 200


def storage_reason(error: BaseException) -> Phrase | str:
    """The reason of a database ``error`` (SQLAlchemy's or the driver's), translated
    when shown."""
    original = getattr(error, "orig", None) or error
    if isinstance(original, ModuleNotFoundError) and original.name:
        return Phrase(N_("its driver {module} is not installed"), {"module": original.name})
    lines = str(original).strip().splitlines()
    first = lines[0] if lines else type(original).__name__
    if first.startswith("Can't load plugin: sqlalchemy.dialects:"):  # NoSuchModuleError
        kind = first.rpartition(":")[2].partition(".")[0]
        return Phrase(
            N_("meneur knows no database of the kind '{kind}' (use sqlite or postgresql)"),
            {"kind": kind[:40]},
        )
    lowered = " ".join(lines).lower()
    for words, reason in _KNOWN:
        if _holds(lowered, words.split("*")):
            return Phrase(reason)
    return first[:LIBRARY_LENGTH].rstrip(".")


def _holds(text: str, parts: list[str]) -> bool:
    """Whether ``text`` holds ``parts`` in this order."""
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True
