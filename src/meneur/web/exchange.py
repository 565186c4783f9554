"""What every exchange of the combat tracker shares, whatever the system's rules.

An exchange (each system's :meth:`~meneur.web.systems.WebAdapter.exchange`) picks two
combatants of the tracker, rolls with the table's dice, and logs one public entry
together with the sheets it changed. The systems' modules keep only their rules; the
dice and the log are here, once (the committed dice are read from the database at each
roll, so a failed exchange leaves nothing to recover).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from meneur.campaign.records import NewRoll
from meneur.errors import RuleError
from meneur.locale import N_
from meneur.rng import DiceSource, PhysicalDice, SecureDice, parse_faces
from meneur.web import combat as fights
from meneur.web.rolls import Roller
from meneur.web.tables import Seat

if TYPE_CHECKING:
    from meneur.campaign.chain import CommittedDice


def combatants(combat: dict[str, Any], first: int, second: int) -> list[dict[str, Any]]:
    """The tracker's combatants, once ``first`` and ``second`` are two of them."""
    people: list[dict[str, Any]] = fights.normal(combat)["combatants"]
    if first == second or not (0 <= first < len(people) and 0 <= second < len(people)):
        raise RuleError(N_("Choose two different combatants."))
    return people


def exchange_sources(
    committed: DiceSource | None, faces: str, vs_faces: str
) -> tuple[list[DiceSource], str]:
    """The dice of the two sides: typed (both lines), else committed, else secure."""
    if faces.strip() or vs_faces.strip():
        if not (faces.strip() and vs_faces.strip()):
            raise RuleError(N_("Type the dice of both fighters, or none."))
        return [PhysicalDice(parse_faces(faces)), PhysicalDice(parse_faces(vs_faces))], "physical"
    source: DiceSource = committed if committed is not None else SecureDice()
    return [source, source], source.kind


def log_exchange(
    roller: Roller,
    seat: Seat,
    roll: NewRoll,
    committed: CommittedDice | None,
    sheets: Mapping[str, dict[str, Any]],
) -> dict[str, Any]:
    """Log ``roll`` as a public roll of ``seat`` with the ``sheets`` it changed (one
    transaction); the entry as exported.

    Played through :meth:`~meneur.web.rolls.Roller.checked`: every sheet the exchange read
    is checked again as it is written, so an exchange is never played on a sheet another
    process changed meanwhile, nor writes over that change."""
    public = replace(
        roll,
        decisions=[{"mode": "public", "seat": seat.key}],
        dice=committed if roll.source == "committed" else None,
    )
    entry = roller.store.append_roll(
        public, sheets=sheets, campaign=seat.table.campaign, previous=roller.read_sheets()
    )
    roller.forget_sheets()
    return entry


def public_verdict(entry: dict[str, Any]) -> str:
    """The verdict in words, as everyone sees it in the log."""
    from meneur.web.views import log_line

    return log_line(entry, "public").verdict.words
