"""What a roll needs of a campaign database, written once for every way of reaching it.

A roll reads the open game session's dice and the roller's sheet, then appends its
entry to the hash-chained log (:mod:`meneur.campaign.appending`). :class:`HotLog` holds
those three in plain DB-API statements. Two kinds of log are one:

* :class:`~meneur.campaign.store.Store`, through SQLAlchemy (any database; the web
  table, the campaign commands), which also answers the rest with its ORM;
* :class:`~meneur.campaign.sqlitelog.SqliteLog`, through the standard library's
  ``sqlite3`` on an up-to-date SQLite file: a logged command would otherwise spend
  ~0.3 s importing SQLAlchemy for a write of a few milliseconds.

Both write the same entries by the same code; only how a connection is made and what a
DB-API error is differ (the hooks below). Standard library only at import.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from meneur.campaign.errors import CampaignError, NoCampaignYet, StorageError
from meneur.campaign.names import name_key
from meneur.campaign.records import CharacterInfo, NewRoll
from meneur.campaign.sheets import named, validate_sheet, validate_state
from meneur.locale import N_

if TYPE_CHECKING:
    from meneur.campaign.appending import Appender
    from meneur.campaign.chain import CommittedDice
    from meneur.campaign.store import Store

CURRENT_KEY = "current_campaign"
"""The setting that names the current campaign (by id)."""


class HotLog(ABC):
    """A campaign database as a roll uses it: dice, a sheet, an entry appended.

    Subclasses say how to reach the database (:meth:`connect`, :meth:`release`,
    :meth:`read_one`, :attr:`driver_error`, :attr:`shown_url`) and answer what the hot
    path leaves to a slower way (:meth:`_character_missing`, :meth:`_make_current`).
    """

    sqlite: bool
    """SQLite (``BEGIN IMMEDIATE``, ``:name`` parameters) or PostgreSQL."""
    _appender: Appender

    # -- how the database is reached -------------------------------------------------

    @abstractmethod
    def connect(self) -> Any:
        """A DB-API connection (no transaction open), handed back to :meth:`release`."""

    @abstractmethod
    def release(self, raw: Any, *, broken: bool) -> None:
        """Done with ``raw``; ``broken``: its state is unknown, never reuse it."""

    shown_url: str
    """The database's URL as a user may see it (no password)."""
    driver_error: type[BaseException]
    """The DB-API driver's base error class (``sqlite3.Error``, psycopg's ``Error``)."""

    def failure(self, error: BaseException) -> StorageError | None:
        """The user's error for a driver's ``error`` (``None``: not the driver's)."""
        return self.failed(error) if isinstance(error, self.driver_error) else None

    def failed(self, error: BaseException) -> StorageError:
        """« The database ... failed: » with the reason in the user's words."""
        from meneur.campaign.reasons import storage_reason

        return StorageError(
            N_("The database {url} failed: {reason}."),
            url=self.shown_url,
            reason=storage_reason(error),
        )

    @abstractmethod
    def read_one(self, sql: str, params: Mapping[str, Any]) -> Any:
        """The first row of one statement (in the driver's parameter style), alone."""

    def moment(self, moment: datetime) -> Any:
        """A moment as SQLAlchemy would have stored it (SQLite keeps text, naive UTC)."""
        if self.sqlite:
            return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
        return moment

    # -- what the hot path leaves to a slower way -----------------------------------

    @abstractmethod
    def store(self) -> Store:
        """The store of this database, for everything but a roll (itself, if a store)."""

    @abstractmethod
    def close(self) -> None:
        """Close the connections (and the store, if one was opened)."""

    @abstractmethod
    def _character_missing(self, name: str, campaign: str | None) -> CharacterInfo:
        """``name`` was not found by the one statement: the error that says which of the
        campaign or the character is missing (or the character, found after all)."""

    @abstractmethod
    def _make_current(self) -> None:
        """Zero setup: make a current campaign (``default`` in an empty database), when
        an append found none."""

    # -- a roll ------------------------------------------------------------------------

    def committed_dice(self, *, campaign: str | None = None) -> CommittedDice | None:
        """Dice drawn from the open game session's seed, or ``None`` when none is open
        (or no campaign is current). One statement: the live table asks it at every roll."""
        from meneur.campaign.chain import CommittedDice

        found = self._read("open_dice", campaign)
        if found is None:
            return None
        return CommittedDice(bytes.fromhex(found[0]), found[1], found[2])

    def character(self, name: str, *, campaign: str | None = None) -> CharacterInfo:
        """The stored character ``name`` (of the current campaign by default)."""
        row = self._read("character_info", campaign, key=name_key(name))
        if row is None:
            return self._character_missing(name, campaign)
        return CharacterInfo.from_row(row)

    def _read(self, statement: str, campaign: str | None, **params: Any) -> Any:
        """One read of the appender's statements (in the driver's parameter style), of the
        campaign named ``campaign`` or of the current one."""
        if campaign is None:
            params["campaign_key"] = CURRENT_KEY
            statement = "current_" + statement
        else:
            params["campaign_key"] = name_key(campaign)
        return self.read_one(self._appender.sql[statement], params)

    def append_roll(
        self,
        roll: NewRoll,
        *,
        state: dict[str, Any] | None = None,
        sheets: Mapping[str, dict[str, Any]] | None = None,
        campaign: str | None = None,
        previous: Mapping[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Log ``roll`` at the end of the chain and, with it, the character's new ``state``
        and the new ``sheets`` of the characters it changed (by name).

        ``previous`` holds the sheets as the roll read them: each is checked, under a row
        lock, to be still the stored one (:class:`SheetConflict` otherwise), so that two
        spends made at once from one sheet by two processes cannot both be applied.

        All are one transaction: after a crash the database holds all or nothing.
        Returns the entry as exported (with its hash).
        """
        from meneur.campaign.appending import Append

        if state is not None:  # not the hot path: a roll of the CLI or the table sets none
            if roll.character is None:
                raise CampaignError(N_("A state change needs a character."))
            info = self.character(roll.character, campaign=campaign)
            validate_state(info.system, state, character=info.name)
        checked = self._checked_sheets(sheets or {}, campaign)
        try:
            entry = self._appender.append(Append(roll, state, checked, campaign, previous or {}))
        except NoCampaignYet:  # a fresh database, or every campaign deleted: nothing written
            self._make_current()
            entry = self._appender.append(Append(roll, state, checked, campaign, previous or {}))
        if roll.dice is not None:
            roll.dice.begin_entry()
        return entry

    def _checked_sheets(
        self, sheets: Mapping[str, dict[str, Any]], campaign: str | None
    ) -> dict[str, dict[str, Any]]:
        """``sheets`` by character name, each under its stored name and validated by its
        character's system."""
        checked = {}
        for name, sheet in sheets.items():
            info = self.character(name, campaign=campaign)
            checked[info.name] = named(sheet, info.name)
            validate_sheet(info.system, checked[info.name], character=info.name)
        return checked
