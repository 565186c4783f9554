"""Seats are identities: who holds which character, table locks, shared rate limits.

* ``web_holds``: at one web table, a character is held by one seat at most (a unique
  key, so two players claiming the same character at once cannot both win); a hold
  without a seat is a GM's non-player character, neither listed to nor claimable by
  players. It replaces ``web_players.character_id`` (one character per seat, by name).
* ``web_tables.locked``: no one joins a locked table; ``web_tables.physical``: whether
  typed physical faces are taken while a game session commits the dice.
* ``web_limits``: the token buckets of the rate limits (joins, rolls, odds), in the
  database so that every server process counts the same.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # read the seats' characters first: the seats' table is rebuilt (SQLite) before
    # anything points to it, so that rebuilding it cannot cascade into the new holds
    held = (
        op.get_bind()
        .execute(
            sa.text(
                "SELECT table_id, character_id, MIN(id) FROM web_players "
                "WHERE character_id IS NOT NULL GROUP BY table_id, character_id"
            )
        )
        .all()
    )
    with op.batch_alter_table("web_players") as batch:
        batch.drop_column("character_id")
    holds = op.create_table(
        "web_holds",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("web_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "character_id",
            sa.Integer(),
            sa.ForeignKey("characters.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("web_players.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.UniqueConstraint("table_id", "character_id"),
    )
    if held:
        op.bulk_insert(
            holds,
            [{"table_id": t, "character_id": c, "player_id": p} for t, c, p in held],
        )
    # plain ALTERs (no rebuild of web_tables: that would cascade to its seats)
    op.add_column(
        "web_tables", sa.Column("locked", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "web_tables", sa.Column("physical", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.create_table(
        "web_limits",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("stamp", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_limits")
    op.drop_column("web_tables", "physical")
    op.drop_column("web_tables", "locked")
    op.drop_table("web_holds")
    with op.batch_alter_table("web_players") as batch:
        batch.add_column(
            sa.Column(
                "character_id",
                sa.Integer(),
                sa.ForeignKey("characters.id", ondelete="SET NULL"),
                nullable=True,
            )
        )
