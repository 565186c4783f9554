"""The tables of a campaign database (SQLAlchemy 2 typed models).

The schema itself is owned by the Alembic migrations in ``migrations/versions``: these
models describe it to the ORM and must match the latest revision (a test compares them).

* ``settings``: small key/value facts about the database (the current campaign);
* ``campaigns``: a table of players that lasts; deleting one deletes its characters,
  game sessions and roll log;
* ``characters``: a sheet of any registered system (JSON, validated by that system on
  the way in) and its evolving state (JSON: Vécu spent, Endurance lost, wounds...);
* ``game_sessions``: one evening of play with committed dice: the SHA-256 of a secret
  seed is published first, the seed is revealed at the end;
* ``rolls``: the roll log, one hash-chained entry per roll.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from meneur.campaign.records import utcnow
from meneur.text import NAME_LENGTH


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC, aware on the way out whatever the database kept (SQLite drops it)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: UTCDateTime,
    }


class Setting(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Campaign(Base):
    __tablename__ = "campaigns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH * 2), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    characters: Mapped[list[Character]] = relationship(
        back_populates="campaign", cascade="all, delete-orphan", passive_deletes=True
    )


class Character(Base):
    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("campaign_id", "name_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    system: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH * 2))
    sheet: Mapped[dict[str, Any]]
    state: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    campaign: Mapped[Campaign] = relationship(back_populates="characters")


class GameSession(Base):
    __tablename__ = "game_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    commitment: Mapped[str] = mapped_column(String(64), unique=True)
    seed: Mapped[str] = mapped_column(String(64))
    next_counter: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    revealed_at: Mapped[datetime | None] = mapped_column(default=None)
    closing_hash: Mapped[str | None] = mapped_column(String(64), default=None)


class Roll(Base):
    __tablename__ = "rolls"
    __table_args__ = (
        UniqueConstraint("campaign_id", "seq"),
        Index("ix_rolls_campaign_at", "campaign_id", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime]
    character_id: Mapped[int | None] = mapped_column(
        ForeignKey("characters.id", ondelete="SET NULL"), default=None
    )
    who: Mapped[str] = mapped_column(String(NAME_LENGTH))
    system: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict[str, Any]]
    faces: Mapped[list[Any]]
    decisions: Mapped[list[Any]]
    outcome: Mapped[dict[str, Any]]
    source: Mapped[str] = mapped_column(String(20))
    game_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="SET NULL"), default=None
    )
    commitment: Mapped[str | None] = mapped_column(String(64), default=None)
    counter: Mapped[int | None] = mapped_column(Integer, default=None)
    draws: Mapped[list[Any]]
    prev_hash: Mapped[str] = mapped_column(String(64))
    entry_hash: Mapped[str] = mapped_column(String(64))


class WebTable(Base):
    """A live web table of a campaign: its GM and invite tokens and its combat tracker."""

    __tablename__ = "web_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    gm_token: Mapped[str] = mapped_column(String(64))
    invite_token: Mapped[str] = mapped_column(String(64))
    combat: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    locked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """No one joins a locked table (the seats already there stay)."""
    physical: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether typed physical faces are taken while a game session commits the dice."""


class WebPlayer(Base):
    """A player seated at a web table, known by their own token (not by their name)."""

    __tablename__ = "web_players"
    __table_args__ = (Index("ix_web_players_table", "table_id"), {"sqlite_autoincrement": True})
    """AUTOINCREMENT: a seat's id is never given again (its private entries are keyed by
    it; SQLite would give a removed newest seat's number to the next player)."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class WebHold(Base):
    """Who holds a character at a web table: one seat, or the GM (``player_id`` null).

    The unique key makes a claim race-free: of two seats claiming one character at the
    same moment, the database keeps one.
    """

    __tablename__ = "web_holds"
    __table_args__ = (UniqueConstraint("table_id", "character_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"))
    character_id: Mapped[int] = mapped_column(ForeignKey("characters.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("web_players.id", ondelete="CASCADE"), default=None
    )


class WebLimit(Base):
    """A rate limit's token bucket, shared by every server process on the database."""

    __tablename__ = "web_limits"

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    stamp: Mapped[float] = mapped_column(Float)


class WebWait(Base):
    """A roll waiting for its player's choice (:mod:`meneur.web.waiting`), seen by every
    server process on the database: one per seat and kind of wait."""

    __tablename__ = "web_waits"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    stamp: Mapped[float] = mapped_column(Float)
    """Wall-clock seconds of the last choice (the processes share the clock)."""
