"""What every table action shares (see :class:`~meneur.web.systems.TableAction`): finding
it, reading the characters it names, and logging its roll with the table's dice.

A system's action keeps only its rules: it names its characters, builds its roll from
their sheets and the dice it is handed (:func:`log_action`), and says which sheets the
roll changes. The dice (the open session's committed dice, else secure dice), the roll
mode, the seat that rolled, the one transaction with the sheets and the retries when
another process drew from the session or changed a sheet first are here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from meneur.campaign.errors import CampaignError
from meneur.campaign.records import CharacterInfo, NewRoll
from meneur.errors import RuleError, UsageError
from meneur.locale import N_
from meneur.rng import DiceSource, SecureDice
from meneur.web.live import ROLL_MODES
from meneur.web.rolls import Roller, typed_dice
from meneur.web.systems import TableAction, adapters
from meneur.web.tables import Seat


def find_action(system: str, name: str) -> TableAction | None:
    """The action ``name`` of ``system``'s adapter, or ``None``."""
    adapter = adapters().get(system)
    if adapter is None:
        return None
    return next((a for a in adapter.table_actions() if a.name == name), None)


def roll_mode(fields: Mapping[str, str], allowed: tuple[str, ...] = ROLL_MODES) -> str:
    """The roll mode the form asks (public when none), among those the action allows."""
    mode = (fields.get("mode") or "public").strip()
    if mode not in ROLL_MODES:
        raise UsageError(N_("Unknown roll mode '{mode}'."), mode=mode)
    if mode not in allowed:
        from meneur.web.views import mode_label

        raise RuleError(N_("This roll cannot be made in the mode '{mode}'."), mode=mode_label(mode))
    return mode


def table_character(roller: Roller, seat: Seat, name: str, system: str) -> CharacterInfo:
    """The campaign's character ``name``, refused in one clear line unless it plays
    ``system`` (read from the database now: the roll's sheets are checked again when
    they are written)."""
    name = name.strip()[:80]
    if not name:
        raise RuleError(N_("Choose a character."))
    info = roller.store.character(name, campaign=seat.table.campaign)
    if info.system != system:
        raise RuleError(
            N_("{name} does not play {system}."),
            name=info.name,
            system=adapters()[system].title,
        )
    return info


def acting_for(seat: Seat, names: list[str]) -> None:
    """A player starts a roll only for a group holding a character of theirs (the GM any)."""
    if seat.is_gm or any(seat.may_act_for(name) for name in names):
        return
    raise CampaignError(N_("You may start this roll only with your own character in it."))


@dataclass(frozen=True)
class ActionRoll:
    """A table action's roll, ready to log: the entry and the sheets it changes."""

    roll: NewRoll
    sheets: Mapping[str, dict[str, Any]] | None = None
    previous: Mapping[str, dict[str, Any]] | None = None
    """The sheets as the roll read them (checked again under the row lock)."""


def log_action(
    roller: Roller,
    seat: Seat,
    mode: str,
    make: Callable[[DiceSource], ActionRoll],
    faces: str = "",
) -> dict[str, Any]:
    """Roll ``make`` with the table's dice and log it as ``seat``'s roll in ``mode``, with
    the sheets it changes (one transaction); the entry as stored (worker thread).

    ``faces``: dice typed at the table (physical dice, each used once, none left over),
    unless the GM takes none during a committed session. ``make`` reads the sheets it
    needs itself: when another process drew from the session or changed one of them
    first, it is called again on them as they now are.
    """
    campaign = seat.table.campaign

    def attempt() -> dict[str, Any]:
        committed = roller.committed(campaign)
        source: DiceSource = committed if committed is not None else SecureDice()
        if faces.strip():  # every typed die used, none left over: the check finishes them
            source, committed = typed_dice(seat, committed, faces), None
        made = make(source)
        roll = replace(
            made.roll,
            source=source.kind,
            decisions=[{"mode": mode, "seat": seat.key}],
            dice=committed,
        )
        return roller.store.append_roll(
            roll, sheets=made.sheets, campaign=campaign, previous=made.previous
        )

    entry = roller.checked(attempt)
    roller.forget_sheets()
    return entry
