"""The log a seat may download: the file ``meneur verify`` checks, cut to what it may see.

The GM's copy is the campaign's whole log, as ``meneur log --export`` writes it. A
player's copy holds only the entries the table shows them in full: another seat's GM-only
or self roll, any blind roll (their own included: its dice are hidden from them), and the
whispers they neither sent nor received, are left out whole. The entries kept are
unchanged, so each one's hash still checks and ``meneur verify`` walks the links between
neighbours; where an entry is left out, the sequence numbers jump, and verify counts those
gaps (it cannot check the links across them, nor what they held), and those after the
last one kept from the log's ``head`` that every export carries. What a player's copy
tells beyond the table: how many entries are left out and where (their sequence numbers
are hashed, they cannot be renumbered), and the seat ids (``p3``) in the kept entries'
decisions.
"""

from __future__ import annotations

import re
from typing import Any

from meneur.campaign.store import Store
from meneur.web.live import seen_by
from meneur.web.tables import Seat


def seat_log(store: Store, seat: Seat) -> dict[str, Any]:
    """The verifiable log document for ``seat`` (see the module's docstring)."""
    document = store.export_log(campaign=seat.table.campaign)
    if seat.is_gm:
        return {**document, "reader": "gm"}
    kept = [
        entry
        for entry in document["entries"]
        if seen_by(entry, seat.key, viewer_is_gm=False) == "full"
    ]
    return {**document, "reader": "player", "entries": kept}


def file_name(campaign: str) -> str:
    """A safe download name: ``meneur-log-<campaign>.json`` in plain ASCII."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", campaign).strip("-")[:40] or "campaign"
    return f"meneur-log-{slug}.json"
