"""A seat's number is never given again: ``web_players`` counts with AUTOINCREMENT (SQLite).

A seat's private entries (whispers, rolls for oneself or for the GM alone, a roll waiting
for its choice) are keyed by the seat's id. SQLite gives a new row the highest id plus
one, so a player who joined after the newest seat was removed took its number, and with
it what only that seat was to see. AUTOINCREMENT never gives an id twice. PostgreSQL's
sequence never did: nothing changes there.

The table is rebuilt (SQLite alters no key in place). Dropping the old one deletes, by
the cascade of their key, the holds that point to it: they are read first and written
back.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None

HOLDS = "SELECT id, table_id, character_id, player_id FROM web_holds"


def _rebuild(autoincrement: bool) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    holds = bind.execute(sa.text(HOLDS)).all()
    with op.batch_alter_table(
        "web_players", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass
    bind.execute(sa.text("DELETE FROM web_holds"))
    for hold in holds:
        bind.execute(
            sa.text(
                "INSERT INTO web_holds (id, table_id, character_id, player_id) "
                "VALUES (:id, :table_id, :character_id, :player_id)"
            ),
            dict(hold._mapping),
        )


def upgrade() -> None:
    _rebuild(True)


def downgrade() -> None:
    _rebuild(False)
