"""What a roll writes and reads in the campaign database, as plain values (standard
library only: a logged command imports this, not SQLAlchemy).

:class:`NewRoll` is a roll to log, :class:`CharacterInfo` a stored character as read;
:func:`format_at` is how the log shows and hashes a moment.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meneur.campaign.chain import CommittedDice


def utcnow() -> datetime:
    return datetime.now(UTC)


def format_at(moment: datetime) -> str:
    """A moment as the log shows and hashes it: UTC, microseconds, ``Z``."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def json_column(value: Any) -> Any:
    """A JSON column as read through the DB-API (SQLite hands text, psycopg objects)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def aware(value: Any) -> datetime:
    """A moment column as the ORM returns it (:class:`~meneur.campaign.models.UTCDateTime`)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)  # type: ignore[no-any-return]
    return value.astimezone(UTC)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class CharacterInfo:
    id: int
    campaign: str
    system: str
    name: str
    sheet: dict[str, Any]
    state: dict[str, Any]
    created_at: datetime
    updated_at: datetime

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> CharacterInfo:
        """From a row of :data:`~meneur.campaign.hotlog.CHARACTER` (the DB-API's values)."""
        return cls(
            row[0], row[1], row[2], row[3], json_column(row[4]), json_column(row[5]),
            aware(row[6]), aware(row[7]),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class NewRoll:
    """A roll to log: what was rolled, every face per stream, and what it gave."""

    system: str
    kind: str
    params: dict[str, Any]
    faces: Sequence[Sequence[int]]
    outcome: dict[str, Any]
    source: str
    character: str | None = None
    who: str | None = None
    decisions: Sequence[Any] = ()
    dice: CommittedDice | None = None
