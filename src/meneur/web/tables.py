"""Web tables and seats in the campaign database: who may do what, by unguessable token.

Nobody has an account. A table has a GM token and an invite token; a player who joins
with the invite gets a seat token of their own. Tokens are ``secrets.token_urlsafe(32)``
(256 bits), always compared with :func:`hmac.compare_digest` (constant time): a table is
found by its id in the URL, then the token is checked against that table's tokens.

A seat is the GM (acts for every character) or a player (acts only for the one
character they picked or created).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select

from meneur.campaign.errors import CampaignError
from meneur.campaign.models import Campaign, Character, WebPlayer, WebTable
from meneur.campaign.names import clean_name, name_key
from meneur.campaign.store import Store
from meneur.locale import N_

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


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    id: int
    name: str
    token: str
    character: str | None


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
        """A short public id of the seat (``gm``, ``p3``), used for roll visibility."""
        return "gm" if self.player is None else f"p{self.player.id}"

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def name(self) -> str:
        return "MJ" if self.player is None else self.player.name

    def may_act_for(self, character: str) -> bool:
        if self.is_gm:
            return True
        own = self.player.character if self.player else None
        return own is not None and name_key(own) == name_key(character)


class Tables:
    """The web tables of a campaign database (one transaction per method)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._seated: dict[int, tuple[TableInfo, list[PlayerInfo]]] = {}
        """Tables and their players, read once: every request checks a seat, and this
        process is the only writer of web tables (each write below clears the entry)."""

    def is_cached(self, table_id: int) -> bool:
        return table_id in self._seated

    def _forget(self, table_id: int) -> None:
        self._seated.pop(table_id, None)

    def seating(self, table_id: int) -> tuple[TableInfo, list[PlayerInfo]] | None:
        """The table and its players (cached), or ``None`` for an unknown table."""
        found = self._seated.get(table_id)
        if found is None:
            table = self.get(table_id)
            if table is None:
                return None
            found = self._seated[table_id] = (table, self.players(table_id))
        return found

    @staticmethod
    def _info(row: WebTable, campaign: str) -> TableInfo:
        return TableInfo(row.id, campaign, row.gm_token, row.invite_token, dict(row.combat))

    def create(self, campaign: str | None = None) -> TableInfo:
        """A new table for ``campaign`` (the current one, made on demand: zero setup)."""
        current = (
            self.store.current_campaign(create=True)
            if campaign is None
            else next(
                (c for c in self.store.campaigns() if name_key(c.name) == name_key(campaign)),
                None,
            )
        )
        if current is None:
            raise CampaignError(N_("No campaign named '{name}'."), name=(campaign or "?")[:80])
        with self.store.transaction() as session:
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
        if campaign is None:
            current = self.store.current_campaign(create=True)
        else:
            found = [c for c in self.store.campaigns() if name_key(c.name) == name_key(campaign)]
            if not found:
                raise CampaignError(N_("No campaign named '{name}'."), name=campaign[:80])
            current = found[0]
        with self.store.transaction() as session:
            row = session.scalar(
                select(WebTable).where(WebTable.campaign_id == current.id).order_by(WebTable.id)
            )
            if row is not None:
                return self._info(row, current.name)
        return self.create(current.name)

    def get(self, table_id: int) -> TableInfo | None:
        with self.store.transaction() as session:
            found = session.execute(
                select(WebTable, Campaign.name)
                .join(Campaign, Campaign.id == WebTable.campaign_id)
                .where(WebTable.id == table_id)
            ).first()
            return self._info(found[0], found[1]) if found else None

    def players(self, table_id: int) -> list[PlayerInfo]:
        with self.store.transaction() as session:
            rows = session.execute(
                select(WebPlayer, Character.name)
                .outerjoin(Character, Character.id == WebPlayer.character_id)
                .where(WebPlayer.table_id == table_id)
                .order_by(WebPlayer.id)
            ).all()
            return [PlayerInfo(p.id, p.name, p.token, name) for p, name in rows]

    def seat(self, table_id: int, token: str) -> Seat | None:
        """The seat holding ``token`` at table ``table_id``, or ``None`` (constant-time checks)."""
        seating = self.seating(table_id)
        if seating is None:
            return None
        table, players = seating
        found: Seat | None = None
        if same_token(token, table.gm_token):
            found = Seat(table, "gm")
        for player in players:  # every token checked: no early exit
            if same_token(token, player.token):
                found = Seat(table, "player", player)
        return found

    def invited(self, table_id: int, invite: str) -> TableInfo | None:
        table = self.get(table_id)
        if table is None or not same_token(invite, table.invite_token):
            return None
        return table

    def join(self, table: TableInfo, name: str) -> PlayerInfo:
        clean = clean_name(name, N_("player"))
        with self.store.transaction() as session:
            count = len(
                session.scalars(select(WebPlayer.id).where(WebPlayer.table_id == table.id)).all()
            )
            if count >= MAX_PLAYERS:
                raise CampaignError(N_("This table is full ({limit} players)."), limit=MAX_PLAYERS)
            row = WebPlayer(table_id=table.id, name=clean, token=new_token())
            session.add(row)
            session.flush()
            player = PlayerInfo(row.id, row.name, row.token, None)
        self._forget(table.id)
        return player

    def claimed(self, table_id: int) -> dict[str, str]:
        """Characters already played at the table: folded name -> player name."""
        return {name_key(p.character): p.name for p in self.players(table_id) if p.character}

    def claim(self, seat: Seat, character: str) -> None:
        """The player now plays ``character`` (not one another player already plays)."""
        assert seat.player is not None
        taken = self.claimed(seat.table.id)
        owner = taken.get(name_key(character))
        if owner is not None and owner != seat.player.name:
            raise CampaignError(
                N_("{character} is already played by {player}."),
                character=character[:80],
                player=owner,
            )
        info = self.store.character(character, campaign=seat.table.campaign)
        with self.store.transaction() as session:
            row = session.get(WebPlayer, seat.player.id)
            if row is None:
                raise CampaignError(N_("This seat does not exist any more."))
            row.character_id = info.id
        self._forget(seat.table.id)

    def set_combat(self, table_id: int, combat: dict[str, Any]) -> None:
        with self.store.transaction() as session:
            row = session.get(WebTable, table_id)
            if row is not None:
                row.combat = combat
        self._forget(table_id)
