"""The live web table: tables (GM and invite tokens, combat tracker) and their players.

A *web table* belongs to a campaign; its GM link and invite link carry unguessable tokens
(``secrets.token_urlsafe(32)``: 256 bits). Each player who joined has a seat token and
plays at most one character of the campaign.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from meneur.campaign.models import UTCDateTime

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "campaign_id",
            sa.Integer(),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("gm_token", sa.String(64), nullable=False),
        sa.Column("invite_token", sa.String(64), nullable=False),
        sa.Column("combat", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "web_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("web_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column(
            "character_id",
            sa.Integer(),
            sa.ForeignKey("characters.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_web_players_table", "web_players", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_web_players_table", table_name="web_players")
    op.drop_table("web_players")
    op.drop_table("web_tables")
