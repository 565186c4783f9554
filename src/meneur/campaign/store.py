"""The campaign store: campaigns, characters, game sessions and the roll log.

Every public method is one transaction: it either happens whole or not at all. In
particular :meth:`Store.append_roll` writes a roll's log entry and the character-state
change it caused together, so a crash can never keep one without the other.

Results are plain frozen dataclasses (no ORM object escapes a transaction).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from meneur.campaign import migrate
from meneur.campaign.appending import Appender
from meneur.campaign.chain import (
    GENESIS,
    LOG_VERSION,
    commitment_of,
    new_seed,
)
from meneur.campaign.engine import database_url, make_engine, shown
from meneur.campaign.errors import CampaignError, NoCampaignYet, SheetConflict, StorageError
from meneur.campaign.hotlog import CURRENT_KEY, HotLog
from meneur.campaign.models import (
    Campaign,
    Character,
    GameSession,
    Roll,
    Setting,
)
from meneur.campaign.names import clean_name, name_key
from meneur.campaign.records import (
    CharacterInfo,
    aware,
    format_at,
    json_column,
    utcnow,
)
from meneur.campaign.sheets import named, validate_sheet, validate_state
from meneur.locale import N_

DEFAULT_CAMPAIGN = "default"


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    id: int
    name: str
    created_at: datetime
    current: bool
    characters: int
    rolls: int


@dataclass(frozen=True, slots=True)
class NewCharacter:
    """A character to write (import): validated before any of them is written."""

    system: str
    name: str
    sheet: dict[str, Any]
    state: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class GameSessionInfo:
    commitment: str
    started_at: datetime
    revealed_at: datetime | None
    seed: str | None
    closing_hash: str | None
    rolls: int


def roll_dict(roll: Roll) -> dict[str, Any]:
    """A log entry as exported and hashed (plus its links)."""
    return {
        "seq": roll.seq,
        "at": format_at(roll.at),
        "who": roll.who,
        "system": roll.system,
        "kind": roll.kind,
        "params": roll.params,
        "faces": roll.faces,
        "decisions": roll.decisions,
        "outcome": roll.outcome,
        "source": roll.source,
        "commitment": roll.commitment,
        "counter": roll.counter,
        "draws": roll.draws,
        "prev_hash": roll.prev_hash,
        "hash": roll.entry_hash,
    }


def _reason(error: BaseException) -> object:
    from meneur.campaign.reasons import storage_reason

    return storage_reason(error)


class Store(HotLog):
    """A campaign database, migrated to the latest schema when opened."""

    def __init__(self, url: str | None = None, *, upgrade: bool = True) -> None:
        self.url = url or database_url()
        self.engine: Engine = make_engine(self.url)
        try:
            if upgrade:
                migrate.upgrade(self.engine)
        except StorageError:
            self.engine.dispose()
            raise
        except (SQLAlchemyError, OSError) as error:
            self.engine.dispose()
            raise StorageError(
                N_("Cannot open the database {url}: {reason}."),
                url=shown(self.engine.url),
                reason=_reason(error),
            ) from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.sqlite = self.engine.dialect.name == "sqlite"
        self.shown_url = shown(self.engine.url)
        self.driver_error = self.engine.dialect.loaded_dbapi.Error
        self._appender = Appender(self)

    def store(self) -> Store:
        return self

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One transaction: committed whole on success, rolled back on any error."""
        try:
            with self._sessions.begin() as session:
                yield session
        except IntegrityError as error:
            raise StorageError(
                N_("The database refused the change: {reason}."), reason=_reason(error)
            ) from None
        except DBAPIError as error:
            raise self.failed(error) from None

    # -- campaigns -------------------------------------------------------------------

    def _current_id(self, session: Session) -> int | None:
        setting = session.get(Setting, CURRENT_KEY)
        return int(setting.value) if setting is not None else None

    def _set_current(self, session: Session, campaign_id: int | None) -> None:
        setting = session.get(Setting, CURRENT_KEY)
        if campaign_id is None:
            if setting is not None:
                session.delete(setting)
        elif setting is None:
            session.add(Setting(key=CURRENT_KEY, value=str(campaign_id)))
        else:
            setting.value = str(campaign_id)

    def _new_campaign(self, session: Session, name: str) -> Campaign:
        clean = clean_name(name, N_("campaign"))
        key = name_key(clean)
        existing = session.scalar(select(Campaign.name).where(Campaign.name_key == key))
        if existing is not None:  # named as it is stored: « LÉGENDES » for « legendes »
            raise CampaignError(N_("A campaign named '{name}' already exists."), name=existing)
        campaign = Campaign(name=clean, name_key=key)
        session.add(campaign)
        session.flush()
        if self._current_id(session) is None:
            self._set_current(session, campaign.id)
        return campaign

    def _campaign(
        self, session: Session, name: str | None, *, create: bool = False, lock: bool = False
    ) -> Campaign:
        """The campaign named ``name``, else the current one (made on demand if ``create``)."""
        query = select(Campaign)
        if name is not None:
            query = query.where(Campaign.name_key == name_key(name))
        else:
            current = self._current_id(session)
            if current is None:
                if create:
                    existing = session.scalar(select(Campaign).order_by(Campaign.id).limit(1))
                    if existing is None:
                        existing = self._new_campaign(session, DEFAULT_CAMPAIGN)
                    self._set_current(session, existing.id)
                    current = existing.id
                else:
                    raise NoCampaignYet()
            query = query.where(Campaign.id == current)
        if lock:
            query = query.with_for_update()
        campaign = session.scalar(query)
        if campaign is None:
            raise CampaignError(N_("No campaign named '{name}'."), name=(name or "?")[:80])
        return campaign

    def _info(self, session: Session, campaign: Campaign) -> CampaignInfo:
        characters = session.scalar(
            select(func.count()).select_from(Character).where(Character.campaign_id == campaign.id)
        )
        rolls = session.scalar(
            select(func.count()).select_from(Roll).where(Roll.campaign_id == campaign.id)
        )
        return CampaignInfo(
            campaign.id,
            campaign.name,
            campaign.created_at,
            campaign.id == self._current_id(session),
            characters or 0,
            rolls or 0,
        )

    def create_campaign(self, name: str) -> CampaignInfo:
        """A new campaign; the first one becomes the current campaign."""
        with self.transaction() as session:
            return self._info(session, self._new_campaign(session, name))

    def campaigns(self) -> list[CampaignInfo]:
        with self.transaction() as session:
            rows = session.scalars(select(Campaign).order_by(Campaign.id)).all()
            return [self._info(session, row) for row in rows]

    def current_campaign(self, *, create: bool = False) -> CampaignInfo:
        with self.transaction() as session:
            return self._info(session, self._campaign(session, None, create=create))

    def use_campaign(self, name: str) -> CampaignInfo:
        with self.transaction() as session:
            campaign = self._campaign(session, name)
            self._set_current(session, campaign.id)
            return self._info(session, campaign)

    def delete_campaign(self, name: str) -> CampaignInfo:
        """Delete a campaign with its characters and log; the oldest other one becomes current."""
        with self.transaction() as session:
            campaign = self._campaign(session, name)
            info = self._info(session, campaign)
            for table in (Roll, GameSession, Character):
                session.execute(delete(table).where(table.campaign_id == campaign.id))
            session.delete(campaign)
            session.flush()
            if info.current:
                following = session.scalar(select(Campaign.id).order_by(Campaign.id).limit(1))
                self._set_current(session, following)
            return info

    # -- characters ------------------------------------------------------------------

    def _character(
        self, session: Session, campaign: Campaign, name: str, *, lock: bool = False
    ) -> Character:
        query = select(Character).where(
            Character.campaign_id == campaign.id, Character.name_key == name_key(name)
        )
        character = session.scalar(query.with_for_update() if lock else query)
        if character is None:
            raise CampaignError(
                N_("No character named '{name}' in the campaign '{campaign}'."),
                name=name[:80],
                campaign=campaign.name,
            )
        return character

    @staticmethod
    def _character_info(campaign: Campaign, row: Character) -> CharacterInfo:
        return CharacterInfo(
            row.id,
            campaign.name,
            row.system,
            row.name,
            row.sheet,
            row.state,
            row.created_at,
            row.updated_at,
        )

    def check_character(self, new: NewCharacter) -> NewCharacter:
        """``new`` with a clean name (its sheet's too) and its system's canonical name, or
        an error."""
        name = clean_name(new.name, N_("character"))
        sheet = named(new.sheet, name)
        system = validate_sheet(new.system, sheet, character=name)
        validate_state(system, new.state, character=name)
        if new.created_at and new.updated_at and new.updated_at < new.created_at:
            raise CampaignError(  # a character cannot change before it was made
                N_(
                    "Character {name}: field 'updated_at' ({updated}) is before "
                    "'created_at' ({created})."
                ),
                name=name,
                updated=format_at(new.updated_at),
                created=format_at(new.created_at),
            )
        return NewCharacter(system, name, sheet, new.state, new.created_at, new.updated_at)

    def add_character(
        self,
        system: str,
        name: str,
        sheet: dict[str, Any],
        state: dict[str, Any] | None = None,
        *,
        campaign: str | None = None,
    ) -> CharacterInfo:
        """Store a character (its sheet validated by its system) in the campaign.

        With no campaign at all, a campaign called ``default`` is made: zero setup.
        """
        return self.add_characters([NewCharacter(system, name, sheet, state or {})], campaign)[0]

    def add_characters(
        self,
        characters: Sequence[NewCharacter],
        campaign: str | None = None,
        *,
        replace: bool = False,
    ) -> list[CharacterInfo]:
        """Validate every character, then write them all in one transaction (or none)."""
        checked = []
        for number, new in enumerate(characters, start=1):
            try:
                checked.append(self.check_character(new))
            except CampaignError as error:
                if len(characters) == 1:
                    raise
                raise CampaignError(
                    N_("Character #{number}: {problem}"), number=number, problem=str(error)
                ) from None
        seen: dict[str, str] = {}
        for new in checked:
            key = name_key(new.name)
            if key in seen:
                raise CampaignError(N_("The character '{name}' appears twice."), name=new.name)
            seen[key] = new.name
        with self.transaction() as session:
            target = self._campaign(session, campaign, create=campaign is None)
            existing = {
                row.name_key: row
                for row in session.scalars(
                    select(Character).where(Character.campaign_id == target.id)
                )
            }
            if not replace:
                for key in seen:
                    if key in existing:
                        raise CampaignError(
                            N_("A character named '{name}' already exists in '{campaign}'."),
                            name=existing[key].name,
                            campaign=target.name,
                        )
            rows = []
            now = utcnow()
            for new in checked:
                row = existing.get(name_key(new.name))
                if row is None:
                    row = Character(campaign_id=target.id, name_key=name_key(new.name))
                    session.add(row)
                row.system = new.system
                row.name = new.name
                row.sheet = new.sheet
                row.state = new.state
                row.created_at = new.created_at or now
                row.updated_at = new.updated_at or now
                rows.append(row)
            session.flush()
            return [self._character_info(target, row) for row in rows]

    def _character_missing(self, name: str, campaign: str | None) -> CharacterInfo:
        with self.transaction() as session:  # not found: the ORM's way says which is missing
            target = self._campaign(session, campaign)
            return self._character_info(target, self._character(session, target, name))

    def characters(self, *, campaign: str | None = None) -> list[CharacterInfo]:
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            rows = session.scalars(
                select(Character)
                .where(Character.campaign_id == target.id)
                .order_by(Character.name_key)
            ).all()
            return [self._character_info(target, row) for row in rows]

    def update_character(
        self,
        name: str,
        *,
        sheet: dict[str, Any] | None = None,
        state: dict[str, Any] | None = None,
        campaign: str | None = None,
    ) -> CharacterInfo:
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            row = self._character(session, target, name)
            if sheet is not None:
                sheet = named(sheet, row.name)
                validate_sheet(row.system, sheet, character=row.name)
                row.sheet = sheet
            if state is not None:
                validate_state(row.system, state, character=row.name)
                row.state = state
            row.updated_at = utcnow()
            return self._character_info(target, row)

    def delete_character(self, name: str, *, campaign: str | None = None) -> CharacterInfo:
        """Delete a character; its log entries stay (they name who rolled)."""
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            row = self._character(session, target, name)
            info = self._character_info(target, row)
            session.delete(row)
            return info

    # -- game sessions (committed dice) ----------------------------------------------

    def _open_session(self, session: Session, campaign: Campaign) -> GameSession | None:
        return session.scalar(
            select(GameSession).where(
                GameSession.campaign_id == campaign.id, GameSession.revealed_at.is_(None)
            )
        )

    def start_session(self, *, campaign: str | None = None) -> GameSessionInfo:
        """Open a game session: a secret seed is drawn, its SHA-256 is the commitment."""
        with self.transaction() as session:
            target = self._campaign(session, campaign, create=campaign is None, lock=True)
            opened = self._open_session(session, target)
            if opened is not None:
                raise CampaignError(
                    N_(
                        "A game session is already open (commitment {commitment}): "
                        "reveal it first with 'meneur session reveal'."
                    ),
                    commitment=opened.commitment,
                )
            seed = new_seed()
            row = GameSession(
                campaign_id=target.id,
                commitment=commitment_of(seed),
                seed=seed.hex(),
                next_counter=0,
            )
            session.add(row)
            session.flush()
            return self._session_info(session, row)

    def _session_info(self, session: Session, row: GameSession) -> GameSessionInfo:
        rolls = session.scalar(
            select(func.count()).select_from(Roll).where(Roll.game_session_id == row.id)
        )
        return GameSessionInfo(
            row.commitment,
            row.started_at,
            row.revealed_at,
            row.seed if row.revealed_at is not None else None,
            row.closing_hash,
            rolls or 0,
        )

    def reveal_session(self, *, campaign: str | None = None) -> GameSessionInfo:
        """Close the open game session: reveal its seed and the log's hash at that moment."""
        with self.transaction() as session:
            target = self._campaign(session, campaign, lock=True)
            row = self._open_session(session, target)
            if row is None:
                raise CampaignError(
                    N_("No game session is open: start one with 'meneur session start'.")
                )
            row.revealed_at = utcnow()
            row.closing_hash = self._head(session, target)[1]
            session.flush()
            return self._session_info(session, row)

    def game_sessions(self, *, campaign: str | None = None) -> list[GameSessionInfo]:
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            rows = session.scalars(
                select(GameSession)
                .where(GameSession.campaign_id == target.id)
                .order_by(GameSession.id)
            ).all()
            return [self._session_info(session, row) for row in rows]

    # -- the roll log ----------------------------------------------------------------

    def _head(self, session: Session, campaign: Campaign) -> tuple[int, str]:
        last = session.execute(
            select(Roll.seq, Roll.entry_hash)
            .where(Roll.campaign_id == campaign.id)
            .order_by(Roll.seq.desc())
            .limit(1)
        ).first()
        return (last[0], last[1]) if last is not None else (0, GENESIS)

    def _make_current(self) -> None:
        with self.transaction() as session:
            self._campaign(session, None, create=True)

    def connect(self) -> Any:
        return self.engine.raw_connection()

    def release(self, raw: Any, *, broken: bool) -> None:
        if broken:
            raw.invalidate()
        raw.close()

    def read_one(self, sql: str, params: Mapping[str, Any]) -> Any:
        """The first row of one statement (in the driver's parameter style), alone.

        On PostgreSQL it runs outside any transaction (autocommit): one round trip, not
        three (``BEGIN``, the statement, ``COMMIT``); the statement is sent as text the
        driver prepares once it has seen it a few times. The hot path of play uses it
        where SQLAlchemy's statement building would cost more than the query.
        """
        raw = self.connect()
        broken = False
        try:
            driver = raw.driver_connection
            if not self.sqlite:
                driver.autocommit = True
            try:
                cursor = raw.cursor()
                cursor.execute(sql, dict(params))
                row = cursor.fetchone()
                cursor.close()
                if self.sqlite:
                    raw.commit()
            finally:
                if not self.sqlite:
                    driver.autocommit = False
        except BaseException as error:
            failed = self.failure(error)
            if failed is None:
                raise
            broken = True
            raise failed from None
        finally:
            self.release(raw, broken=broken)
        return row

    def update_sheets(
        self,
        sheets: Mapping[str, dict[str, Any]],
        *,
        campaign: str | None = None,
        previous: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        """Replace several characters' sheets (validated first) in one transaction.

        ``previous`` holds the sheets as the change read them, checked under a row lock
        as :meth:`append_roll` does (:class:`SheetConflict`): two processes hurting one
        character at once must not write the second's sheet over the first's wound.
        """
        checked = self._checked_sheets(sheets, campaign)
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            for name, read in (previous or {}).items():
                row = self._character(session, target, name, lock=True)
                if row.sheet != read:  # as JSON values: key order aside
                    raise SheetConflict(
                        N_("The sheet of {name} changed meanwhile: roll again."), name=name
                    )
            for name, sheet in checked.items():
                row = self._character(session, target, name)
                row.sheet = sheet
                row.updated_at = utcnow()

    def rolls(
        self,
        *,
        campaign: str | None = None,
        character: str | None = None,
        since: datetime | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Log entries, oldest first, optionally those logged under one name (``character``)
        or since a moment.

        An entry names who rolled as text (``who``, the character's name when it was
        logged; its ``character_id`` is lost when the character is deleted): ``character``
        keeps every entry whose ``who`` is that name as the store compares names
        (:func:`~meneur.campaign.names.name_key`), whether a character of that name exists
        now or not, so a deleted (and re-created) character's past rolls are found.

        Read straight from the DB-API cursor: a campaign's log may hold many thousands
        of entries, and building ORM objects for each costs more than the query.
        """

        with self.transaction() as session:
            target = self._campaign(session, campaign)
            names = None if character is None else self._logged_as(session, target, character)
        if names == []:
            return []
        sqlite = self.engine.dialect.name == "sqlite"

        def mark(name: str) -> str:
            return f":{name}" if sqlite else f"%({name})s"

        query = (
            "SELECT seq, at, who, system, kind, params, faces, decisions, outcome, source,"
            " commitment, counter, draws, prev_hash, entry_hash FROM rolls"
            f" WHERE campaign_id = {mark('campaign')}"
        )
        params: dict[str, Any] = {"campaign": target.id}
        if names is not None:
            query += f" AND who IN ({', '.join(mark(f'who{i}') for i in range(len(names)))})"
            params.update({f"who{i}": name for i, name in enumerate(names)})
        if since is not None:
            query += f" AND at >= {mark('since')}"
            params["since"] = self.moment(since)
        query += " ORDER BY seq"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute(query, params)
            rows = cursor.fetchall()
            cursor.close()
            raw.rollback()
        except self.driver_error as error:
            raise self.failed(error) from None
        finally:
            raw.close()

        return [
            {
                "seq": row[0],
                "at": format_at(aware(row[1])),
                "who": row[2],
                "system": row[3],
                "kind": row[4],
                "params": json_column(row[5]),
                "faces": json_column(row[6]),
                "decisions": json_column(row[7]),
                "outcome": json_column(row[8]),
                "source": row[9],
                "commitment": row[10],
                "counter": row[11],
                "draws": json_column(row[12]),
                "prev_hash": row[13],
                "hash": row[14],
            }
            for row in rows
        ]

    @staticmethod
    def _logged_as(session: Session, campaign: Campaign, name: str) -> list[str]:
        """Every spelling under which the log of ``campaign`` names ``name`` (each ``who``
        that is the same name: case, accents, spaces aside); none for a name of no letter."""
        key = name_key(name)
        if not key:
            return []
        written = session.scalars(
            select(Roll.who).where(Roll.campaign_id == campaign.id).distinct()
        )
        return sorted(who for who in written if name_key(who) == key)

    def log_name(self, name: str, *, campaign: str | None = None) -> str | None:
        """What ``log --character NAME`` calls ``name``: the stored character's name, else
        the name as the log last wrote it (a deleted character's); None when neither a
        character of the campaign nor any entry of its log goes by that name."""
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            stored = session.scalar(
                select(Character.name).where(
                    Character.campaign_id == target.id, Character.name_key == name_key(name)
                )
            )
            if stored is not None:
                return stored
            names = self._logged_as(session, target, name)
            if not names:
                return None
            return session.scalar(
                select(Roll.who)
                .where(Roll.campaign_id == target.id, Roll.who.in_(names))
                .order_by(Roll.seq.desc())
                .limit(1)
            )

    def export_log(
        self,
        *,
        campaign: str | None = None,
        character: str | None = None,
        since: datetime | None = None,
    ) -> dict[str, Any]:
        """The log as a self-contained document that ``meneur verify`` checks.

        ``head`` is the campaign's last entry when the document was made (``seq`` and
        ``hash``, null for an empty log): a file that keeps only some entries (a filter, a
        player's copy) still tells verify how many came after the last one it holds. The
        entries are those up to the head: an entry logged meanwhile waits for the next
        export.
        """
        with self.transaction() as session:
            top, last = self._head(session, self._campaign(session, campaign))
        entries = [
            entry
            for entry in self.rolls(campaign=campaign, character=character, since=since)
            if entry["seq"] <= top
        ]
        with self.transaction() as session:
            target = self._campaign(session, campaign)
            sessions = session.scalars(
                select(GameSession)
                .where(GameSession.campaign_id == target.id)
                .order_by(GameSession.id)
            ).all()
            return {
                "format": "meneur-log",
                "version": LOG_VERSION,
                "campaign": target.name,
                "exported_at": format_at(utcnow()),
                "sessions": [
                    {
                        "commitment": row.commitment,
                        "started_at": format_at(row.started_at),
                        "revealed_at": format_at(row.revealed_at) if row.revealed_at else None,
                        "seed": row.seed if row.revealed_at is not None else None,
                        "closing_hash": row.closing_hash,
                    }
                    for row in sessions
                ],
                "head": {"seq": top, "hash": last} if top else None,
                "entries": entries,
            }
