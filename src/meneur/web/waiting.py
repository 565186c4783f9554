"""Rolls waiting for their player's choice: one per seat, dropped after :data:`EXPIRY`.

A system's waiting roll (:class:`meneur.web.systems.Waiting`: explosions chosen batch
by batch, a purchase chosen after the roll) holds a half-done roll between two requests
of the same seat, and forgets one whose player walked away, so that it cannot block
that seat for ever. That bookkeeping, the dice drawn from the form's typed faces (else
secure dice) and the check that a seat may roll for a character are the same job for
every kind: they live here once so that the kinds of waiting roll cannot drift apart.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from meneur.errors import MeneurError
from meneur.locale import N_
from meneur.rng import DiceSource, PhysicalDice, SecureDice, parse_faces

if TYPE_CHECKING:
    from meneur.web.tables import Seat

EXPIRY = 600.0
"""Seconds a roll waits for its player's choice before it is dropped (nothing logged)."""


class Started(Protocol):
    started: float
    """``time.monotonic()`` when the roll began to wait."""


P = TypeVar("P", bound=Started)


class SeatWaits(Generic[P]):
    """The rolls waiting for a choice, one per seat at most (worker thread only)."""

    def __init__(self) -> None:
        self.waiting: dict[tuple[int, str], P] = {}

    def of(self, seat: Seat) -> P | None:
        """The seat's waiting roll, or ``None`` (also once it has waited too long)."""
        found = self.waiting.get((seat.table.id, seat.key))
        if found is not None and time.monotonic() - found.started > EXPIRY:
            self.drop(seat)
            return None
        return found

    def hold(self, seat: Seat, pending: P) -> None:
        """Keep ``pending`` until the seat's choice (it replaces any earlier one)."""
        self.waiting[(seat.table.id, seat.key)] = pending

    def drop(self, seat: Seat) -> None:
        self.waiting.pop((seat.table.id, seat.key), None)


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
