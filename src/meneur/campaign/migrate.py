"""Schema migrations, applied when a database is opened (Alembic, run programmatically).

The revisions ship inside the package (``meneur/campaign/migrations``), so an installed
meneur upgrades a user's database by itself. A database whose revision this meneur does
not know was made by a newer meneur: it is refused, untouched, with a clear message,
rather than half-understood.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from meneur.campaign.errors import StorageError
from meneur.campaign.paths import HEAD, REVISIONS
from meneur.locale import N_

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

SCRIPT_LOCATION = "meneur.campaign:migrations"


@cache
def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


@cache
def _scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config())


def head_revision() -> str:
    head = _scripts().get_current_head()
    assert head is not None
    return head


def known_revisions() -> set[str]:
    return {script.revision for script in _scripts().walk_revisions()}


def current_revision(connection: Connection) -> str | None:
    """The database's schema revision (``None`` for an empty database)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return str(found) if found is not None else None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the latest by default); refuse a newer one."""
    with engine.connect() as connection:
        current = current_revision(connection)
        connection.rollback()
    if current is not None and current not in REVISIONS:
        raise StorageError(
            N_(
                "This database was made by a newer version of meneur (schema {found}, "
                "this one knows up to {head}): upgrade meneur to open it."
            ),
            found=current,
            head=HEAD,
        )
    if current == (HEAD if revision == "head" else revision):
        return
    from alembic import command

    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, revision)
        finally:
            config.attributes.pop("connection", None)
