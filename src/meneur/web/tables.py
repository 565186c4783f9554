"""Web tables and seats in the campaign database: who may do what, by unguessable token.

Nobody has an account. A table has a GM token and an invite token; a player who joins
with the invite gets a seat token of their own. Tokens are ``secrets.token_urlsafe(32)``
(256 bits), always compared with :func:`hmac.compare_digest` (constant time): a table is
found by its id in the URL, then the token is checked against that table's tokens.

A seat is the GM (acts for every character) or a player (acts only for the characters
their seat holds). Seats are identities: a claim, a roll or an action is tied to the
seat's id, never to its display name, so two players may share a name and stay two
seats. A player holds one character (picked or created) unless the GM assigns more; a
character the GM created at the table is a non-player character, held by the GM: it is
neither listed to nor claimable by players.

A request costs no database read: each process keeps the seats of a table in memory
until they change. On SQLite, one process serves the table (a second ``meneur serve``
is refused) and every change made here clears them (:func:`changes`). On PostgreSQL
(several server processes may share the database) a trigger announces every change to
a table's seats, holds or flags, whoever makes it (a process, the CLI, ``psql``), on
the live channel at its commit, and every process forgets that table's seats when it
hears it (:meth:`Tables.forget`, from :mod:`meneur.web.fanout`): a seat the GM removed,
a new invite link or a lock holds on every process as soon as the notification lands
(milliseconds). While a process is not listening (before it starts, after its listening
connection is lost) it keeps nothing and reads every seat from the database.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

from sqlalchemy import delete, func, select

from meneur.campaign.errors import CampaignError, StorageError
from meneur.campaign.models import Campaign, Character, WebHold, WebPlayer, WebTable
from meneur.campaign.names import clean_name, name_key
from meneur.campaign.store import Store
from meneur.locale import N_
from meneur.text import fold

TOKEN_BYTES = 32
MAX_PLAYERS = 50


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def same_token(given: str, expected: str) -> bool:
    """Constant-time comparison (of UTF-8 bytes: any text a URL may hold)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class TableInfo:
    id: int
    campaign: str
    gm_token: str
    invite_token: str
    combat: dict[str, Any]
    locked: bool = False
    physical: bool = True
    """Whether typed physical faces are taken while a game session commits the dice."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    id: int
    name: str
    token: str
    characters: tuple[str, ...] = ()
    """The characters this seat holds (one, unless the GM assigned more)."""

    @property
    def character(self) -> str | None:
        return self.characters[0] if self.characters else None

    @property
    def key(self) -> str:
        return f"p{self.id}"


@dataclass(frozen=True, slots=True)
class Seat:
    """Who is at the other end of a request: the GM or one player, at one table."""

    table: TableInfo
    role: Literal["gm", "player"]
    player: PlayerInfo | None = None

    @property
    def token(self) -> str:
        return self.table.gm_token if self.player is None else self.player.token

    @property
    def key(self) -> str:
        """A short id of the seat (``gm``, ``p3``): roll visibility, never shown publicly."""
        return "gm" if self.player is None else self.player.key

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def name(self) -> str:
        return "MJ" if self.player is None else self.player.name

    def may_act_for(self, character: str) -> bool:
        if self.is_gm:
            return True
        held = self.player.characters if self.player else ()
        return name_key(character) in {name_key(name) for name in held}


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
_TRACKERS: dict[tuple[str, int], threading.Lock] = {}
"""SQLite: the lock of each table's tracker (by database and table), for this process."""
_TRACKERS_GUARD = threading.Lock()


def changes(method: F) -> F:
    """A write to a table's seats: the memory of that table is cleared once it is done."""

    @functools.wraps(method)
    def wrapper(self: Tables, where: TableInfo | Seat | int, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, where, *args, **kwargs)
        finally:
            if isinstance(where, Seat):
                where = where.table
            self.forget(where if isinstance(where, int) else where.id)

    return cast(F, wrapper)


def _not_free(character: str) -> CampaignError:
    return CampaignError(
        N_("{character} is not free to pick: ask the GM."), character=character[:80]
    )


MAX_KEY = 2**31 - 1
"""The largest id a table's key holds (an ``INTEGER`` on PostgreSQL; SQLite's is wider)."""


def is_key(number: int) -> bool:
    """Whether ``number`` can be a table's id: a URL's ``/t/99999999999999999999/...``
    overflowed the database's integer (HTTP 500, a traceback in the log), where any other
    table that does not exist is a 404."""
    return 0 < number <= MAX_KEY


GM_WORDS = frozenset(
    fold(words) for words in ("MJ", "GM", "le MJ", "the GM", "meneur", "meneuse", "maître du jeu")
)
"""What the table calls its GM, folded (:func:`meneur.text.fold`): no player's name."""


def seat_name(name: object) -> str:
    """A player's name at the table, refused when it would pass for another seat: the
    GM's words (« MJ », « Le MJ », « GM »...) or brackets, which the table writes after a
    seat's name to say the characters it plays (« Bastien (Zed) »). A player who joined as
    « Le MJ » whispered « Le MJ vous chuchote », as the GM's own whisper reads."""
    clean = clean_name(name, N_("player"))
    if fold(clean) in GM_WORDS:
        raise CampaignError(
            N_("« {name} » is what the table calls its GM: choose another name."), name=clean
        )
    if any(bracket in clean for bracket in "()[]"):
        raise CampaignError(
            N_(
                "A player's name has no brackets: the table writes the characters a seat"
                " plays in brackets after its name."
            )
        )
    return clean


class Tables:
    """The web tables of a campaign database (one transaction per method)."""

    def __init__(self, store: Store, *, cached: bool | None = None) -> None:
        self.store = store
        self.cached = store.engine.dialect.name == "sqlite" if cached is None else cached
        """Whether seats are kept in memory (PostgreSQL: only while this process listens)."""
        self._seated: dict[int, tuple[TableInfo, list[PlayerInfo]]] = {}
        self._changed = 0
        """Counts the changes made here: a read that a change overtook is not kept."""

    def forget(self, table_id: int) -> None:
        """The seats of ``table_id`` changed (here or elsewhere): read them again."""
        self._changed += 1
        self._seated.pop(table_id, None)

    def keep(self, cached: bool) -> None:
        """Keep seats in memory or not (PostgreSQL: whether this process hears changes)."""
        self._changed += 1
        self._seated.clear()
        self.cached = cached

    def known_seat(self, table_id: int, token: str) -> Seat | Literal[False] | None:
        """The seat from memory, or ``False`` when it must be read (see :meth:`seat`)."""
        found = self._seated.get(table_id) if self.cached else None
        return False if found is None else self._match(found, token)

    @staticmethod
    def _match(seating: tuple[TableInfo, list[PlayerInfo]], token: str) -> Seat | None:
        table, players = seating
        found: Seat | None = None
        if same_token(token, table.gm_token):
            found = Seat(table, "gm")
        for player in players:  # every token checked: no early exit
            if same_token(token, player.token):
                found = Seat(table, "player", player)
        return found

    @staticmethod
    def _info(row: WebTable, campaign: str) -> TableInfo:
        return TableInfo(
            row.id,
            campaign,
            row.gm_token,
            row.invite_token,
            dict(row.combat),
            bool(row.locked),
            bool(row.physical),
        )

    def _campaign_named(self, campaign: str | None) -> Any:
        if campaign is None:
            return self.store.current_campaign(create=True)
        found = [c for c in self.store.campaigns() if name_key(c.name) == name_key(campaign)]
        if not found:
            raise CampaignError(N_("No campaign named '{name}'."), name=campaign[:80])
        return found[0]

    def create(self, campaign: str | None = None, *, replace: bool = False) -> TableInfo:
        """A new table for ``campaign`` (the current one, made on demand: zero setup).

        With ``replace``, the campaign's other tables go: their GM, invite and seat links
        stop working (``meneur serve --new-table``).
        """
        current = self._campaign_named(campaign)
        with self.store.transaction() as session:
            if replace:
                session.execute(delete(WebTable).where(WebTable.campaign_id == current.id))
            row = WebTable(
                campaign_id=current.id,
                gm_token=new_token(),
                invite_token=new_token(),
                combat={},
            )
            session.add(row)
            session.flush()
            return self._info(row, current.name)

    def default(self) -> TableInfo:
        """The current campaign's first table, created with the campaign if need be."""
        return self.default_for(None)

    def default_for(self, campaign: str | None) -> TableInfo:
        """The first table of ``campaign`` (the current one if ``None``), made if need be."""
        current = self._campaign_named(campaign)
        with self.store.transaction() as session:
            row = session.scalar(
                select(WebTable).where(WebTable.campaign_id == current.id).order_by(WebTable.id)
            )
            if row is not None:
                return self._info(row, current.name)
        return self.create(current.name)

    def get(self, table_id: int) -> TableInfo | None:
        if not is_key(table_id):
            return None
        with self.store.transaction() as session:
            found = session.execute(
                select(WebTable, Campaign.name)
                .join(Campaign, Campaign.id == WebTable.campaign_id)
                .where(WebTable.id == table_id)
            ).first()
            return self._info(found[0], found[1]) if found else None

    def _players(self, session: Any, table_id: int) -> list[PlayerInfo]:
        rows = session.execute(
            select(WebPlayer).where(WebPlayer.table_id == table_id).order_by(WebPlayer.id)
        ).scalars()
        held: dict[int, list[str]] = {}
        for player_id, name in session.execute(
            select(WebHold.player_id, Character.name)
            .join(Character, Character.id == WebHold.character_id)
            .where(WebHold.table_id == table_id, WebHold.player_id.is_not(None))
            .order_by(WebHold.id)
        ):
            held.setdefault(player_id, []).append(name)
        return [PlayerInfo(p.id, p.name, p.token, tuple(held.get(p.id, ()))) for p in rows]

    def players(self, table_id: int) -> list[PlayerInfo]:
        with self.store.transaction() as session:
            return self._players(session, table_id)

    def holds(self, table_id: int) -> dict[str, int | None]:
        """The characters held at the table: folded name -> seat id (``None``: the GM's)."""
        with self.store.transaction() as session:
            rows = session.execute(
                select(Character.name, WebHold.player_id)
                .join(Character, Character.id == WebHold.character_id)
                .where(WebHold.table_id == table_id)
            ).all()
            return {name_key(name): player for name, player in rows}

    def seat(self, table_id: int, token: str) -> Seat | None:
        """The seat holding ``token`` at table ``table_id``, or ``None`` (constant-time checks).

        Read from the database (kept in memory on SQLite until a change made here).
        """
        if not is_key(table_id):
            return None
        changed = self._changed
        with self.store.transaction() as session:
            found_table = session.execute(
                select(WebTable, Campaign.name)
                .join(Campaign, Campaign.id == WebTable.campaign_id)
                .where(WebTable.id == table_id)
            ).first()
            if found_table is None:
                return None
            seating = (self._info(found_table[0], found_table[1]), self._players(session, table_id))
        if self.cached and changed == self._changed:
            self._seated[table_id] = seating
        return self._match(seating, token)

    def invited(self, table_id: int, invite: str) -> TableInfo | None:
        table = self.get(table_id)
        if table is None or not same_token(invite, table.invite_token):
            return None
        return table

    @changes
    def join(self, table: TableInfo, name: str) -> PlayerInfo:
        clean = seat_name(name)
        with self.store.transaction() as session:
            row_table = session.get(WebTable, table.id, with_for_update=True)
            if row_table is None or not same_token(table.invite_token, row_table.invite_token):
                raise CampaignError(N_("This invite link does not work any more."))
            if row_table.locked:
                raise CampaignError(N_("The GM has locked this table: nobody may join now."))
            count = session.scalar(
                select(func.count()).select_from(WebPlayer).where(WebPlayer.table_id == table.id)
            )
            if (count or 0) >= MAX_PLAYERS:
                raise CampaignError(N_("This table is full ({limit} players)."), limit=MAX_PLAYERS)
            row = WebPlayer(table_id=table.id, name=clean, token=new_token())
            session.add(row)
            session.flush()
            return PlayerInfo(row.id, row.name, row.token)

    def _character_id(self, campaign: str, character: str) -> tuple[int, str]:
        info = self.store.character(character, campaign=campaign)
        return info.id, info.name

    @changes
    def claim(self, seat: Seat, character: str) -> None:
        """The player now plays ``character``: their first, free and not the GM's.

        Tied to the seat's id: a player with another seat's name takes nothing.
        """
        assert seat.player is not None
        character_id, name = self._character_id(seat.table.campaign, character)
        try:
            with self.store.transaction() as session:
                row = session.get(WebPlayer, seat.player.id, with_for_update=True)
                if row is None or row.table_id != seat.table.id:
                    raise CampaignError(N_("This seat does not exist any more."))
                mine = session.scalar(
                    select(Character.name)
                    .join(WebHold, WebHold.character_id == Character.id)
                    .where(WebHold.player_id == row.id)
                )
                if mine is not None:
                    raise CampaignError(
                        N_("You already play {character}: the GM may give you another."),
                        character=mine,
                    )
                taken = session.scalar(
                    select(WebHold.id).where(
                        WebHold.table_id == seat.table.id, WebHold.character_id == character_id
                    )
                )
                if taken is not None:
                    raise _not_free(name)
                session.add(
                    WebHold(table_id=seat.table.id, character_id=character_id, player_id=row.id)
                )
        except StorageError:  # the unique key: another seat claimed it in the meantime
            raise _not_free(name) from None

    @changes
    def assign(self, table: TableInfo, character: str, player_id: int | None) -> None:
        """The GM gives ``character`` to seat ``player_id`` (``None``: keeps it as an NPC)."""
        character_id, _name = self._character_id(table.campaign, character)
        with self.store.transaction() as session:
            if player_id is not None:
                seat = session.get(WebPlayer, player_id)
                if seat is None or seat.table_id != table.id:
                    raise CampaignError(N_("This seat does not exist any more."))
            hold = session.scalar(
                select(WebHold).where(
                    WebHold.table_id == table.id, WebHold.character_id == character_id
                )
            )
            if hold is None:
                session.add(
                    WebHold(table_id=table.id, character_id=character_id, player_id=player_id)
                )
            else:
                hold.player_id = player_id

    @changes
    def release(self, table: TableInfo, character: str) -> None:
        """The GM frees ``character``: no seat holds it, any player may pick it."""
        character_id, _name = self._character_id(table.campaign, character)
        with self.store.transaction() as session:
            session.execute(
                delete(WebHold).where(
                    WebHold.table_id == table.id, WebHold.character_id == character_id
                )
            )

    @changes
    def kick(self, table: TableInfo, player_id: int) -> str:
        """Remove a seat: its link stops at once, its characters are free again."""
        with self.store.transaction() as session:
            row = session.get(WebPlayer, player_id)
            if row is None or row.table_id != table.id:
                raise CampaignError(N_("This seat does not exist any more."))
            session.delete(row)
            return f"p{player_id}"

    @changes
    def renew(self, table: TableInfo, player_id: int) -> str:
        """Revoke a seat's link: the seat keeps its characters under a new token."""
        with self.store.transaction() as session:
            row = session.get(WebPlayer, player_id)
            if row is None or row.table_id != table.id:
                raise CampaignError(N_("This seat does not exist any more."))
            row.token = new_token()
            return row.token

    @changes
    def rotate_invite(self, table: TableInfo) -> str:
        """A new invite link: the old one stops at once (seats already there stay)."""
        with self.store.transaction() as session:
            row = session.get(WebTable, table.id)
            if row is None:
                raise CampaignError(N_("This table does not exist any more."))
            row.invite_token = new_token()
            return row.invite_token

    @changes
    def set_flags(
        self, table: TableInfo, *, locked: bool | None = None, physical: bool | None = None
    ) -> None:
        """Lock or open the table; take or refuse typed faces during a committed session."""
        with self.store.transaction() as session:
            row = session.get(WebTable, table.id)
            if row is None:
                raise CampaignError(N_("This table does not exist any more."))
            if locked is not None:
                row.locked = locked
            if physical is not None:
                row.physical = physical

    def _tracker(self, table_id: int) -> AbstractContextManager[Any]:
        """On SQLite (one process), the lock that holds ``table_id``'s tracker for a
        change; on PostgreSQL nothing: the table's row lock does it, for every process."""
        if self.store.engine.dialect.name != "sqlite":
            return nullcontext()
        with _TRACKERS_GUARD:
            return _TRACKERS.setdefault((str(self.store.engine.url), table_id), threading.Lock())

    @changes
    def update_combat(
        self, table_id: int, change: Callable[[dict[str, Any]], dict[str, Any] | None]
    ) -> dict[str, Any] | None:
        """``change`` applied to the tracker as it is now, under the table's row lock.

        Two changes at once, through any processes, both apply, one after the other (a
        read, then a write of what was read earlier, would lose one). ``None`` from
        ``change``: nothing to write.
        """
        with self._tracker(table_id), self.store.transaction() as session:
            row = session.get(WebTable, table_id, with_for_update=True)
            if row is None:
                return None
            updated = change(dict(row.combat))
            if updated is not None:
                row.combat = updated
            return updated

    @changes
    def play_combat(
        self, table_id: int, play: Callable[[dict[str, Any]], tuple[T, dict[str, Any]]]
    ) -> T:
        """``play`` (a roll between combatants, which logs itself) on the tracker as it is
        now; the tracker it returns is written before any other change can read it.

        The tracker stays held while the roll is played and logged: on PostgreSQL by the
        table's row lock, in a transaction of its own (the log is written on another
        connection, and touches no table row); on SQLite, where that transaction would
        hold the only writer the log needs, by a lock of the process (a second process on
        one SQLite file refuses to start). An exchange and a change made at once, or two
        exchanges, thus apply one after the other, the second on the first's tracker.
        """
        with self._tracker(table_id):
            if self.store.engine.dialect.name == "sqlite":
                found = self.get(table_id)
                if found is None:
                    raise CampaignError(N_("This table does not exist any more."))
                result, updated = play(dict(found.combat))
                with self.store.transaction() as session:
                    row = session.get(WebTable, table_id)
                    if row is not None:
                        row.combat = updated
                return result
            with self.store.transaction() as session:
                row = session.get(WebTable, table_id, with_for_update=True)
                if row is None:
                    raise CampaignError(N_("This table does not exist any more."))
                result, row.combat = play(dict(row.combat))
                return result
