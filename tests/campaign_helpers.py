"""What several campaign tests build the same way."""

from __future__ import annotations

from meneur.campaign.records import NewRoll


def roll(who: str | None = "Zed", total: int = 7) -> NewRoll:
    """A generic 2d6 roll of ``total`` by ``who``, with real faces (verify refuses a 0)."""
    return NewRoll(
        system="generic",
        kind="roll",
        params={"expression": "2d6"},
        faces=[[1, total - 1]],
        outcome={"total": total},
        source="physical",
        character=who,
    )
