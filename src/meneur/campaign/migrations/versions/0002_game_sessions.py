"""Game sessions with committed dice, linked from the roll log; the log gets a time index.

A game session keeps the secret seed whose SHA-256 was published before play; the rolls
drawn from it point to it (``game_session_id``) and record the commitment and counter
(already in revision 0001, so that older entries hash the same after the upgrade).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from meneur.campaign.models import UTCDateTime

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "campaign_id",
            sa.Integer(),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("commitment", sa.String(64), nullable=False, unique=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("next_counter", sa.Integer(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("revealed_at", UTCDateTime(), nullable=True),
        sa.Column("closing_hash", sa.String(64), nullable=True),
    )
    with op.batch_alter_table("rolls") as batch:
        batch.add_column(sa.Column("game_session_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_rolls_game_session_id",
            "game_sessions",
            ["game_session_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.create_index("ix_rolls_campaign_at", "rolls", ["campaign_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rolls_campaign_at", table_name="rolls")
    with op.batch_alter_table("rolls") as batch:
        batch.drop_constraint("fk_rolls_game_session_id", type_="foreignkey")
        batch.drop_column("game_session_id")
    op.drop_table("game_sessions")
