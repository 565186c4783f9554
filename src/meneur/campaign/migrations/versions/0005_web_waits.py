"""State every server process sees: waiting rolls, and seats announced when they change.

* ``web_waits``: a roll waiting for its player's choice (Tunnels' batch-by-batch
  explosions, Obscur's Dépassement after the roll), one per seat and kind, so that a
  choice started through one ``meneur serve`` process may be made through another.
* On PostgreSQL, a trigger on ``web_tables``, ``web_players`` and ``web_holds`` sends
  ``{"kind": "seats", "table": id}`` on the live channel (``meneur_live``) whenever a
  row changes, whoever changes it (a server process, the CLI, ``psql``): every process
  forgets the seats it keeps for that table, at the commit.
* On PostgreSQL, ``web_limits`` (rate-limit buckets, written at every roll) is
  ``UNLOGGED``: no write-ahead log and no wait for the disk at each roll; a crash of
  the database server empties it, which only refills every bucket.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None

NOTIFY = """
CREATE OR REPLACE FUNCTION meneur_seats_changed() RETURNS trigger AS $$
DECLARE
    changed integer;
BEGIN
    IF TG_TABLE_NAME = 'web_tables' THEN
        changed := COALESCE(NEW.id, OLD.id);
    ELSIF TG_OP = 'DELETE' THEN
        changed := OLD.table_id;
    ELSE
        changed := NEW.table_id;
    END IF;
    PERFORM pg_notify('meneur_live', json_build_object('kind', 'seats', 'table', changed)::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""
WATCHED = ("web_tables", "web_players", "web_holds")


def upgrade() -> None:
    op.create_table(
        "web_waits",
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("web_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("stamp", sa.Float(), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE web_limits SET UNLOGGED")
        op.execute(NOTIFY)
        for table in WATCHED:
            op.execute(
                f"CREATE TRIGGER {table}_seats_changed AFTER INSERT OR UPDATE OR DELETE "
                f"ON {table} FOR EACH ROW EXECUTE FUNCTION meneur_seats_changed()"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in WATCHED:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_seats_changed ON {table}")
        op.execute("DROP FUNCTION IF EXISTS meneur_seats_changed()")
        op.execute("ALTER TABLE web_limits SET LOGGED")
    op.drop_table("web_waits")
