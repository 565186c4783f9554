"""Appending to the hash-chained roll log: group commit, few round trips.

Each append reads the head of the chain and writes the next entry under the campaign's
lock (PostgreSQL: a row lock; SQLite: ``BEGIN IMMEDIATE``), so a campaign's appends are
serialised whoever makes them. Done one by one, every roll paid a whole transaction
under that lock: several round trips while every other writer waited.

:class:`Appender` writes *groups*: the thread that finds no group being written takes
every append waiting for the same campaign (its own included, :data:`GROUP_LIMIT` at
most) and writes them in ONE transaction under ONE lock, the chain hashes computed in
order in Python; each caller is answered after the commit (an acknowledged roll is a
committed roll: the SIGKILL test holds). The others wait and are answered by it, or
lead the next group. A request refused on its own (a character unknown, a sheet that
changed meanwhile, committed dice used by another roll) is refused alone; the rest of
its group is written. A group the database refuses whole is written again one by one,
so that each request gets its own answer.

On PostgreSQL the statements travel in psycopg's pipeline mode: the lock and every read
in one round trip, the writes and the commit in a second one, whatever the group's size.
Each statement still runs after the one before it, in its own snapshot (read committed):
the reads see the chain as the previous lock holder committed it.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meneur.campaign.chain import GENESIS, HASHED_FIELDS, entry_hash
from meneur.campaign.errors import (
    CampaignError,
    DiceConflict,
    NoCampaignYet,
    SheetConflict,
)
from meneur.campaign.hotlog import CURRENT_KEY
from meneur.campaign.names import name_key
from meneur.campaign.records import format_at, utcnow
from meneur.locale import N_
from meneur.rng import SecureDice

if TYPE_CHECKING:
    from meneur.campaign.hotlog import HotLog
    from meneur.campaign.records import NewRoll

GROUP_LIMIT = 64
"""Appends written in one transaction at most (the others lead the next group)."""
JSON_FIELDS = ("params", "faces", "decisions", "outcome", "draws")
COLUMNS = (
    "campaign_id",
    "character_id",
    "game_session_id",
    *HASHED_FIELDS,
    "prev_hash",
    "entry_hash",
)
"""The columns an entry is written in: the chained fields and the rows it names."""


@dataclass(eq=False, slots=True)
class Append:
    """One append asked: the roll, the changes made with it, and (once written) its answer."""

    roll: NewRoll
    state: dict[str, Any] | None
    sheets: Mapping[str, dict[str, Any]]
    campaign: str | None
    previous: Mapping[str, dict[str, Any]]
    done: bool = False
    entry: dict[str, Any] | None = None
    error: BaseException | None = None
    moment: Any = None
    """(written) When it was logged, and the rows it names: the character, the session."""
    character_id: int | None = None
    session_id: int | None = None


def _drawn(request: Append) -> bool:
    """Whether ``request`` logs dice the machine drew, not from a game session's seed:
    such a roll is refused while a session is open (it was made before the session
    opened, and would count in it as dice that bypass the commitment). Checked under the
    campaign's lock, which opening a session takes too: no roll slips in between."""
    roll = request.roll
    return roll.source == SecureDice.kind and roll.dice is None and any(roll.faces)


def statements(sqlite: bool) -> dict[str, str]:
    """The statements of a group, in the driver's own parameter style.

    ``{campaign}`` is filled with the campaign's id as a subquery (by name, or the
    current campaign's setting): every statement of the first round trip can be sent
    before the lock is granted.
    """
    lock = "" if sqlite else " FOR UPDATE"
    values = ", ".join(
        f"CAST(:{name} AS json)" if name in JSON_FIELDS and not sqlite else f":{name}"
        for name in COLUMNS
    )
    state = ":state" if sqlite else "CAST(:state AS json)"
    sheet = ":sheet" if sqlite else "CAST(:sheet AS json)"
    found = {
        "campaign": "SELECT id, name FROM campaigns WHERE id = {campaign}" + lock,
        "head": "SELECT seq, entry_hash FROM rolls WHERE campaign_id = {campaign}"
        " ORDER BY seq DESC LIMIT 1",
        "character": "SELECT id, name FROM characters"
        " WHERE campaign_id = {campaign} AND name_key = :key",
        "character_sheet": "SELECT id, name, sheet FROM characters"
        " WHERE campaign_id = {campaign} AND name_key = :key" + lock,
        "session": "SELECT id, next_counter, revealed_at FROM game_sessions"
        " WHERE campaign_id = {campaign} AND commitment = :commitment" + lock,
        "open_session": "SELECT commitment FROM game_sessions"
        " WHERE campaign_id = {campaign} AND revealed_at IS NULL",
        # the reads of a roll before its append (HotLog.committed_dice, .character)
        "open_dice": "SELECT seed, next_counter, commitment FROM game_sessions"
        " WHERE campaign_id = {campaign} AND revealed_at IS NULL",
        "character_info": "SELECT ch.id, c.name, ch.system, ch.name, ch.sheet, ch.state,"
        " ch.created_at, ch.updated_at FROM characters ch"
        " JOIN campaigns c ON c.id = ch.campaign_id"
        " WHERE c.id = {campaign} AND ch.name_key = :key",
        "state": f"UPDATE characters SET state = {state}, updated_at = :now WHERE id = :id",
        "sheet": f"UPDATE characters SET sheet = {sheet}, updated_at = :now WHERE id = :id",
        "counter": "UPDATE game_sessions SET next_counter = :counter WHERE id = :id",
        "insert": f"INSERT INTO rolls ({', '.join(COLUMNS)}) VALUES ({values})",
    }
    by_name = "(SELECT id FROM campaigns WHERE name_key = :campaign_key)"
    current = "(SELECT CAST(value AS INTEGER) FROM settings WHERE key = :campaign_key)"
    made: dict[str, str] = {}
    for name, sql in found.items():
        made[name] = sql.replace("{campaign}", by_name)
        made["current_" + name] = sql.replace("{campaign}", current)
    if sqlite:
        return made
    return {key: re.sub(r":(\w+)", r"%(\1)s", sql) for key, sql in made.items()}


class Appender:
    """Writes the appends of a log in groups (see the module's documentation)."""

    def __init__(self, log: HotLog) -> None:
        self.log = log
        self.sqlite = log.sqlite
        self.sql = statements(self.sqlite)
        self._turn = threading.Condition()
        self._waiting: list[Append] = []
        self._writing = False

    def append(self, request: Append) -> dict[str, Any]:
        """Write ``request`` (alone or in a group); its entry, or its own error."""
        with self._turn:
            self._waiting.append(request)
            while not request.done and self._writing:
                self._turn.wait()
            group: list[Append] = []
            if not request.done:  # nobody writes: this thread writes a group
                self._writing = True
                group = self._group_of(request)
                for written in group:
                    self._waiting.remove(written)
        if group:
            try:
                self._write_group(group)
            finally:
                with self._turn:
                    for written in group:
                        written.done = True
                    self._writing = False
                    self._turn.notify_all()
        if request.error is not None:
            raise request.error
        assert request.entry is not None
        return request.entry

    def _group_of(self, request: Append) -> list[Append]:
        """The group ``request``'s thread writes, in arrival order: ``request`` itself
        and the first appends waiting for its campaign, :data:`GROUP_LIMIT` in all. Its
        own first: the first GROUP_LIMIT in arrival order could leave it out, and its
        caller was then answered by nobody while another group logged its roll."""
        group, room = [], GROUP_LIMIT - 1
        for waiting in self._waiting:
            if waiting is request:
                group.append(waiting)
            elif room and waiting.campaign == request.campaign:
                group.append(waiting)
                room -= 1
        return group

    def _write_group(self, group: list[Append]) -> None:
        try:
            self._write(group)
        except Exception as error:  # the transaction failed whole: each on its own
            if len(group) == 1:
                group[0].error = error
                return
            for request in group:
                try:
                    self._write([request])
                except Exception as alone:
                    request.error = alone
        except BaseException as error:  # interrupted: nobody is left waiting
            for request in group:
                request.error = error
            raise

    def _write(self, group: list[Append]) -> None:
        """One transaction for ``group`` (one campaign): each request's entry or error."""
        log = self.log
        raw = log.connect()
        broken = False
        try:
            if self.sqlite:
                raw.cursor().execute("BEGIN IMMEDIATE")
                self._group(raw, group)
                raw.commit()
            else:
                driver: Any = raw.driver_connection
                with driver.pipeline():
                    self._group(raw, group)
                    driver.commit()
        except BaseException as error:
            for request in group:  # nothing of the group was written
                request.entry = None
                request.error = None
            try:
                raw.rollback()
            except Exception:
                broken = True
            failed = log.failure(error)
            if failed is not None:
                raise failed from None
            raise
        finally:
            log.release(raw, broken=broken)

    def _group(self, raw: Any, group: list[Append]) -> None:
        """The statements of one group on ``raw`` (in a transaction): two round trips on
        PostgreSQL, every read sent before the first answer is awaited."""
        campaign = group[0].campaign
        prefix = "" if campaign is not None else "current_"
        key = {"campaign_key": name_key(campaign) if campaign is not None else CURRENT_KEY}

        def send(name: str, **params: Any) -> Any:
            cursor = raw.cursor()
            cursor.execute(self.sql[name], params)
            return cursor

        # 1. the lock, then every read (sent together, answered together)
        found = send(prefix + "campaign", **key)
        head = send(prefix + "head", **key)
        opened = send(prefix + "open_session", **key) if any(map(_drawn, group)) else None
        characters: dict[str, Any] = {}
        sheets: dict[str, Any] = {}
        sessions: dict[str, Any] = {}
        for request in group:
            roll = request.roll
            for name in (*request.sheets, *request.previous):  # written, or only read
                if name_key(name) not in sheets:
                    sheets[name_key(name)] = send(
                        prefix + "character_sheet", key=name_key(name), **key
                    )
            who = name_key(roll.character) if roll.character is not None else None
            if who is not None and who not in characters and who not in sheets:
                characters[who] = send(prefix + "character", key=who, **key)
            if roll.dice is not None and roll.dice.commitment not in sessions:
                sessions[roll.dice.commitment] = send(
                    prefix + "session", commitment=roll.dice.commitment, **key
                )
        row = found.fetchone()
        if row is None:
            if campaign is None:  # the current one was deleted since, and every other
                raise NoCampaignYet()
            raise CampaignError(N_("No campaign named '{name}'."), name=campaign[:80])
        campaign_id, campaign_name = row
        last = head.fetchone()
        seq, prev_hash = (last[0], last[1]) if last is not None else (0, GENESIS)
        character_rows = {k: cursor.fetchone() for k, cursor in characters.items()}
        sheet_rows: dict[str, Any] = {}
        for k, cursor in sheets.items():
            got = cursor.fetchone()
            if got is not None:
                stored = json.loads(got[2]) if isinstance(got[2], str) else got[2]
                sheet_rows[k] = (got[0], got[1], stored)
                character_rows.setdefault(k, (got[0], got[1]))  # a roller read with its sheet
        open_row = opened.fetchone() if opened is not None else None
        open_session = open_row[0] if open_row is not None else None
        counters: dict[str, Any] = {}
        for commitment, cursor in sessions.items():
            got = cursor.fetchone()
            counters[commitment] = None if got is None or got[2] is not None else [got[0], got[1]]

        # 2. each request checked in order against what the group wrote before it
        for request in group:
            try:
                if open_session is not None and _drawn(request):
                    raise DiceConflict(  # the roll read no session: drawn again from it
                        N_("A game session opened meanwhile: roll again from its dice.")
                    )
                request.entry = self._entry(
                    request, campaign_name, character_rows, sheet_rows, counters, seq, prev_hash
                )
            except (CampaignError, DiceConflict, SheetConflict) as refused:
                request.error = refused
                continue
            seq, prev_hash = request.entry["seq"], request.entry["hash"]

        # 3. the writes, sent together (the commit follows in the caller)
        for request in group:
            entry = request.entry
            if entry is None:
                continue
            roll = request.roll
            moment = self.log.moment(request.moment)
            character_id = request.character_id
            if request.state is not None:
                send("state", state=json.dumps(request.state), now=moment, id=character_id)
            for name, sheet in request.sheets.items():
                send("sheet", sheet=json.dumps(sheet), now=moment, id=sheet_rows[name_key(name)][0])
            session_id = request.session_id
            if roll.dice is not None:
                send("counter", counter=roll.dice.counter, id=session_id)
            params = {name: entry[name] for name in HASHED_FIELDS}
            params.update({name: json.dumps(entry[name]) for name in JSON_FIELDS})
            params.update(
                at=moment,
                campaign_id=campaign_id,
                character_id=character_id,
                game_session_id=session_id,
                prev_hash=entry["prev_hash"],
                entry_hash=entry["hash"],
            )
            send("insert", **params)

    def _entry(
        self,
        request: Append,
        campaign_name: str,
        characters: dict[str, Any],
        sheets: dict[str, Any],
        counters: dict[str, Any],
        seq: int,
        prev_hash: str,
    ) -> dict[str, Any]:
        """The entry of ``request`` after (``seq``, ``prev_hash``), or its refusal; what it
        changes is noted for the requests after it in the group."""
        roll = request.roll
        now = utcnow()
        character_id: int | None = None
        who = roll.who or ""
        if roll.character is not None:
            row = characters.get(name_key(roll.character))
            if row is None:
                raise CampaignError(
                    N_("No character named '{name}' in the campaign '{campaign}'."),
                    name=roll.character[:80],
                    campaign=campaign_name,
                )
            character_id, who = row
        for name in request.sheets:
            stored = sheets.get(name_key(name))
            if stored is None:
                raise CampaignError(
                    N_("No character named '{name}' in the campaign '{campaign}'."),
                    name=name[:80],
                    campaign=campaign_name,
                )
        for name, read in request.previous.items():  # what the roll read is still so
            stored = sheets.get(name_key(name))
            if stored is None or stored[2] != read:  # as JSON values: key order aside
                raise SheetConflict(
                    N_("The sheet of {name} changed meanwhile: roll again."), name=name
                )
        session_id: int | None = None
        draws: list[Any] = []
        counter: int | None = None
        commitment: str | None = None
        if roll.dice is not None:
            game = counters.get(roll.dice.commitment)
            if game is None:
                raise DiceConflict(N_("The game session of these dice is not open any more."))
            if game[1] != roll.dice.start:
                raise DiceConflict(
                    N_("Another roll used the committed dice at the same time: roll again.")
                )
            session_id = game[0]
            draws = [list(d) for d in roll.dice.draws]
            counter = roll.dice.start
            commitment = roll.dice.commitment
        entry: dict[str, Any] = {
            "seq": seq + 1,
            "at": format_at(now),
            "who": who,
            "system": roll.system,
            "kind": roll.kind,
            "params": roll.params,
            "faces": [list(stream) for stream in roll.faces],
            "decisions": list(roll.decisions),
            "outcome": roll.outcome,
            "source": roll.source,
            "commitment": commitment,
            "counter": counter,
            "draws": draws,
            "prev_hash": prev_hash,
        }
        entry["hash"] = entry_hash(prev_hash, entry)
        # accepted: what the requests after it in the group see
        for name, sheet in request.sheets.items():
            row = sheets[name_key(name)]
            sheets[name_key(name)] = (row[0], row[1], sheet)
        if roll.dice is not None:
            counters[roll.dice.commitment][1] = roll.dice.counter
        request.moment, request.character_id, request.session_id = now, character_id, session_id
        return entry
