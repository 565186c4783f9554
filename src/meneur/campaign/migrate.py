"""Schema migrations, applied when a database is opened (Alembic, run programmatically).

The revisions ship inside the package (``meneur/campaign/migrations``), so an installed
meneur upgrades a user's database by itself. A database whose revision this meneur does
not know was made by a newer meneur: it is refused, untouched, with a clear message,
rather than half-understood.
"""

from __future__ import annotations

from functools import cache

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from meneur.campaign.errors import StorageError
from meneur.locale import N_

SCRIPT_LOCATION = "meneur.campaign:migrations"


@cache
def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


@cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head_revision() -> str:
    head = _scripts().get_current_head()
    assert head is not None
    return head


def known_revisions() -> set[str]:
    return {script.revision for script in _scripts().walk_revisions()}


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the latest by default); refuse a newer one."""
    with engine.connect() as connection:
        current = current_revision(connection)
        connection.rollback()
    if current is not None and current not in known_revisions():
        raise StorageError(
            N_(
                "This database was made by a newer version of meneur (schema {found}, "
                "this one knows up to {head}): upgrade meneur to open it."
            ),
            found=current[:40],
            head=head_revision(),
        )
    target = head_revision() if revision == "head" else revision
    if current == target:
        return
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, revision)
        finally:
            config.attributes.pop("connection", None)
