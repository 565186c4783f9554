"""Editing a sheet at the table: the values that change in play, logged as they change.

Each system says which values its sheets hold that change in play and judges the new
sheet with its own model (:meth:`meneur.web.systems.WebAdapter.edited`). The new sheet
and a log entry naming who changed what (each field before → after) are written in one
transaction, under the row lock and the version check that spends use
(:meth:`meneur.campaign.store.Store.append_roll` with ``previous``): an edit made from a
sheet another process changed meanwhile is made again on the sheet as it now is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meneur.campaign.errors import CampaignError, SheetConflict
from meneur.campaign.records import NewRoll
from meneur.campaign.replay import STEPS
from meneur.campaign.store import Store
from meneur.campaign.summary import EDIT
from meneur.locale import N_
from meneur.web.systems import EditField, adapter_for
from meneur.web.tables import Seat

RETRIES = 20
"""Attempts of an edit whose sheet another process changed first."""


def changes(before: list[EditField], after: list[EditField]) -> list[dict[str, str]]:
    """Each field whose value changed: its label, before and after (as a reader says
    them, in the language of the edit: the log keeps what the table showed)."""
    old = {field.key: field for field in before}
    return [
        {
            "field": field.label,
            "before": old[field.key].shown[:200] if field.key in old else "",
            "after": field.shown[:200],
        }
        for field in after
        if field.key not in old or old[field.key].value != field.value
    ]


def edit_sheet(
    store: Store, seat: Seat, character: str, values: Mapping[str, str]
) -> dict[str, Any] | None:
    """Apply the values typed for ``character`` by ``seat`` (worker thread): the log entry
    as stored, or ``None`` when nothing changed. Players edit their own characters only."""
    if not seat.may_act_for(character):
        raise CampaignError(
            N_("You may edit only your own character, not {name}."), name=character[:80]
        )
    campaign = seat.table.campaign
    for attempt in range(RETRIES):
        info = store.character(character, campaign=campaign)
        adapter = adapter_for(info.system)
        new = adapter.edited(info.sheet, values)
        changed = changes(adapter.edit_fields(info.sheet), adapter.edit_fields(new))
        if not changed:
            return None
        entry = NewRoll(
            system=info.system,
            kind=EDIT,
            params={"trait": "-", "by": seat.name, "gm": seat.is_gm, "changes": changed, STEPS: []},
            faces=[],
            outcome={},
            source="edit",
            character=info.name,
            decisions=[{"mode": "public", "seat": seat.key}],
        )
        try:
            return store.append_roll(
                entry, sheets={info.name: new}, campaign=campaign, previous={info.name: info.sheet}
            )
        except SheetConflict:
            if attempt == RETRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
