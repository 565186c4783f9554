"""Two spends from one sheet at once cannot both succeed (issue 16, point 7).

Two server processes each read Moral 4, each paid a 3-point Dépassement and wrote 1: an
update was lost. Now the roll checks, under a row lock, that the sheet it paid from is
still the stored one; otherwise it is made again on the sheet as it now is, and refused
in one clear line when the points are no longer there.
"""

from __future__ import annotations

import pytest

from meneur.errors import MeneurError
from meneur.web.rolls import Roller, RollRequest
from meneur.web.systems import RollOptions
from meneur.web.tables import Tables
from web.web_helpers import Table


def test_L12_two_spends_that_exceed_the_points_leave_exactly_one_applied(table: Table) -> None:
    table.create(table.gm, "legendes", "Aube", secondary="Ruse", motivation_points="3")
    seat = Tables(table.store).seat(table.info.id, table.info.gm_token)
    assert seat is not None
    first, second = Roller(table.store), Roller(table.store)  # as two server processes
    try:
        for roller in (first, second):
            assert roller.sheet(table.info.campaign, "Aube").sheet["motivation_points"] == 3
        spend = RollRequest("Aube", "Ruse", RollOptions(level="elite", spend=2))
        assert second.roll(seat, spend)["outcome"]["dice"] == 4  # paid: 3 -> 1
        with pytest.raises(MeneurError, match="point"):
            first.roll(seat, spend)  # its sheet (3 points) is stale: read again, refused
    finally:
        first.close()
        second.close()
    assert table.store.character("Aube").sheet["motivation_points"] == 1
    assert len(table.store.rolls()) == 1
