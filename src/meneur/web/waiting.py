"""Rolls waiting for their player's choice: one per seat and kind, never lost.

A system's waiting roll (:class:`meneur.web.systems.Waiting`: explosions chosen batch
by batch, a purchase chosen after the roll) holds a half-done roll between two requests
of the same seat. Its dice have been seen, so it is never dropped unsaid: it waits until
its player chooses, or until the same seat rolls again from a sheet, which *closes* it:
it is logged as it stands, with the choice that changes nothing (stop exploding, buy no
Dépassement) and a ``{"closed": "new roll"}`` decision (:meth:`SeatWaits.close`). Where
a waiting roll was replaced or forgotten after ten minutes unlogged, a player could roll
again until the dice pleased. That bookkeeping, the dice drawn from the form's typed
faces (else secure dice) and the check that a seat may roll for a character are the same
job for every kind: they live here once so that the kinds of waiting roll cannot drift
apart.

A waiting roll lives in the database (``web_waits``), not in a process: a player whose
roll started through one ``meneur serve`` process may choose through another. It is the
system's own half-done roll (a pool of batches, a list of plans), kept pickled: only
the meneur processes sharing the database write and read these rows, and one that a
process cannot read back (written by another meneur version) is dropped as expired.
A choice takes the roll out of the database in one statement (:meth:`SeatWaits.choosing`),
so two requests choosing at once, through any processes, cannot both go on.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from sqlalchemy import delete, select, text

from meneur.campaign.errors import CampaignError
from meneur.campaign.models import WebWait
from meneur.campaign.store import Store
from meneur.errors import MeneurError, UsageError
from meneur.locale import N_
from meneur.rng import DiceSource, PhysicalDice, SecureDice, parse_faces

if TYPE_CHECKING:
    from meneur.web.tables import Seat

log = logging.getLogger("meneur.web")

CLOSED = {"closed": "new roll"}
"""The decision that marks a waiting roll closed, unchosen, by its seat's next roll."""


class Shown(Protocol):
    """A half-done roll that can say what its roller sees of it, and whose it is."""

    character: str

    def view(self) -> dict[str, Any]: ...


P = TypeVar("P", bound=Shown)


class SeatWaits(ABC, Generic[P]):
    """The rolls waiting for a choice, one per seat at most, in the database.

    ``kind`` tells two sorts of wait apart (a seat may have one of each).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kind = type(self).__name__.lower()

    def _where(self, seat: Seat) -> Any:
        return (
            (WebWait.table_id == seat.table.id)
            & (WebWait.seat == seat.key)
            & (WebWait.kind == self.kind)
        )

    def _load(self, found: Any) -> P | None:
        """The roll of a row (``data``, ``stamp``), or ``None`` when none or unreadable."""
        if found is None:
            return None
        try:
            pending: P = pickle.loads(found.data)  # written by meneur only (see above)
        except Exception:
            log.warning("a waiting roll this version cannot read was dropped")
            return None
        return pending

    def of(self, seat: Seat) -> P | None:
        """The seat's waiting roll, or ``None`` (one this version cannot read is dropped)."""
        with self.store.transaction() as session:
            found = session.execute(
                select(WebWait.data, WebWait.stamp).where(self._where(seat))
            ).first()
            pending = self._load(found)
        if found is not None and pending is None:
            self.drop(seat)
        return pending

    def close(self, roller: Any, seat: Seat) -> dict[str, Any] | None:
        """Log the seat's waiting roll as it stands (:meth:`unchosen`), before the seat
        rolls again; its log entry, or ``None`` when none waits. Taken out in one
        statement, as a choice takes it: of a choice and a new roll at once, one ends it.
        A roll the log can no longer take (its character deleted, a game session opened
        since) is dropped with the reason in the server's log: no choice could end it."""
        pending = self._load(self._take(seat))
        if pending is None:
            return None
        try:
            return self.unchosen(roller, seat, pending)
        except MeneurError as error:
            log.warning("a waiting roll the log refused was dropped: %s", error)
            return None

    @abstractmethod
    def unchosen(self, roller: Any, seat: Seat, pending: P) -> dict[str, Any]:
        """Log ``pending`` with the choice that changes nothing, marked :data:`CLOSED`:
        each kind of waiting roll says what that choice is."""

    def view(self, seat: Seat) -> dict[str, Any] | None:
        """What the seat's waiting roll shows, or ``None`` when none waits."""
        pending = self.of(seat)
        return pending.view() if pending is not None else None

    def hold(self, seat: Seat, pending: P) -> None:
        """Keep ``pending`` until the seat's choice (it replaces any earlier one)."""
        self._put(seat, pickle.dumps(pending, protocol=pickle.HIGHEST_PROTOCOL), time.time())

    def _put(self, seat: Seat, data: bytes, stamp: float, *, replace: bool = True) -> None:
        """Write the seat's row in one statement: over the row there (``replace``), else
        only if there is none. A delete then an insert let two rolls started at once on
        PostgreSQL (a double click, two tabs) both insert: the second was refused,
        « this entry already exists », where it replaces the first on SQLite."""
        from sqlalchemy.dialects import postgresql, sqlite

        dialect = postgresql if self.store.engine.dialect.name == "postgresql" else sqlite
        row = {"table_id": seat.table.id, "seat": seat.key, "kind": self.kind}
        statement = dialect.insert(WebWait).values(**row, data=data, stamp=stamp)
        keys = list(row)
        if replace:
            statement = statement.on_conflict_do_update(
                index_elements=keys, set_={"data": data, "stamp": stamp}
            )
        else:
            statement = statement.on_conflict_do_nothing(index_elements=keys)
        with self.store.transaction() as session:
            session.execute(statement)

    def _take(self, seat: Seat) -> Any:
        """The seat's row (``data``, ``stamp``), removed in one statement: of two requests
        taking it at once (on any processes), one gets it, the other ``None``."""
        with self.store.transaction() as session:
            found = session.execute(
                delete(WebWait).where(self._where(seat)).returning(WebWait.data, WebWait.stamp)
            )
            return found.first()

    @contextlib.contextmanager
    def choosing(self, seat: Seat) -> Iterator[P]:
        """The seat's waiting roll, taken out of the database for its player's choice.

        A choice refused on its input (bad faces, a plan not shown, more points than
        the sheet now has) leaves the roll waiting as it was; one the log refuses (its
        character is gone, a game session opened meanwhile: no choice can log it any
        more) drops it, so that it does not wait on, offering choices that all fail.
        With no roll waiting, one clear line.
        """
        row = self._take(seat)
        pending = self._load(row)
        if pending is None:
            raise UsageError(N_("No roll is waiting for your choice."))
        if not seat.may_act_for(pending.character):  # the GM took the character meanwhile
            raise UsageError(  # the roll stays dropped: its roller may not end it
                N_("You may roll only for your own character, not for {name}."),
                name=pending.character[:80],
            )
        try:
            yield pending
        except CampaignError:  # the log's refusal: the roll stays dropped
            raise
        except MeneurError:  # as it was, untouched by the choice, unless a new roll
            self._put(seat, row.data, row.stamp, replace=False)  # was started meanwhile
            raise

    def drop(self, seat: Seat) -> None:
        with self.store.transaction() as session:
            session.execute(delete(WebWait).where(self._where(seat)))


_KINDS = text("SELECT kind FROM web_waits WHERE table_id = :table AND seat = :seat")


def waiting_kinds(store: Store, seat: Seat) -> set[str]:
    """The kinds of the seat's waiting rolls (none, mostly), in one written statement on a
    connection: a session and a ``select()`` built each time cost twice the CPU, on the
    hot path of the table (:meth:`meneur.web.rolls.Roller.waiting_kinds` reads it)."""
    with store.engine.connect() as connection:
        found = connection.execute(_KINDS, {"table": seat.table.id, "seat": seat.key})
        return {str(kind) for (kind,) in found}


def form_dice(faces: str) -> DiceSource:
    """The faces typed in the form (physical dice), or secure dice when none are typed."""
    return PhysicalDice(parse_faces(faces)) if faces.strip() else SecureDice()


def sheet_for(roller: Any, seat: Seat, character: str, refused: type[MeneurError]) -> Any:
    """The character's stored sheet, once the seat may roll for them (``refused`` otherwise).

    ``refused`` is the error class each caller has always raised (the message is shared).
    """
    if not seat.may_act_for(character):
        raise refused(
            N_("You may roll only for your own character, not for {name}."),
            name=character[:80],
        )
    return roller.sheet(seat.table.campaign, character)
