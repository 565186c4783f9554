"""The fast grid rows equal the systems' own exact odds, cell by cell (and icepool)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meneur.lab import fastgrid
from meneur.lab.grid import ExactCell, probability
from meneur.systems.obscur import lab_grid as obscur_grid
from meneur.systems.tunnels import lab_grid as tunnels_grid

SCORINGS = {
    "normal": ((0, 0, 0, 1, 1, 2), {}),
    "zero-skill": ((0, 0, 0, 0, 0, 2), {"zero_skill": True}),
    "zero-attribute": ((0, 0, 0, 0, 0, 1), {"zero_attribute": True}),
}


@pytest.mark.parametrize("scoring", sorted(SCORINGS))
@pytest.mark.parametrize("pool", [0, 1, 2, 5, 24, 25, 31, 63])
def test_O2_obscur_rows_equal_the_system_odds(scoring: str, pool: int) -> None:
    """O-2, O-3, O-5, O-6, O-8: success and Maladresse of every difficulty."""
    from meneur.systems.obscur.odds import summary
    from meneur.systems.obscur.rules import TestParams

    values, flags = SCORINGS[scoring]
    fastgrid.clear_caches()
    tunnels_grid.clear_caches()
    difficulties = range(1, min(2 * pool + 3, 61))  # O-8: at least 1
    row = obscur_grid.obscur_row(values, pool, difficulties)
    for difficulty, cell in zip(difficulties, row, strict=True):
        if pool > 60:  # beyond the system's own limit: the tail of the law still holds
            break
        _law, figures = summary(TestParams(pool, difficulty=difficulty, **flags))
        assert cell["success"] == figures["p_success"], difficulty
        assert cell["fumble"] == figures["p_fumble"]


@pytest.mark.parametrize("mode", ["normal", "blessed", "cursed"])
@pytest.mark.parametrize("dice", [1, 2, 3, 7, 24, 25, 30])
def test_T3_tunnels_plain_rows_equal_the_system_odds(mode: str, dice: int) -> None:
    """T-3 to T-5, T-7 without explosion: success, exceptional, critical at every threshold."""
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams
    from meneur.systems.tunnels.vector import LOWEST

    fastgrid.clear_caches()
    tunnels_grid.clear_caches()
    thresholds = [1, 2, 3, dice, dice + 1] if dice > 7 else list(range(1, dice + 2))
    row = tunnels_grid.tunnels_plain_row(LOWEST[mode], dice, thresholds)
    for threshold, cell in zip(thresholds, row, strict=True):
        law = test_odds(
            TestParams(
                dice=dice,
                threshold=threshold,
                explode="never",
                blessed=mode == "blessed",
                cursed=mode == "cursed",
            )
        )
        assert cell["success"] == law.p_where(lambda k, t=threshold: k[0] >= t and not k[2])
        assert cell["exceptional"] == law.p_where(lambda k: k[1])
        assert cell["critical"] == law.p_where(lambda k: k[2])


def test_fast_rows_equal_icepool() -> None:
    """An independent oracle: icepool's ``n @ die`` for Obscur, a vector die for Tunnels."""
    icepool = pytest.importorskip("icepool")

    obscur = icepool.Die([0, 0, 0, 1, 1, 2])
    for pool in (1, 6, 13):
        row = obscur_grid.obscur_row((0, 0, 0, 1, 1, 2), pool, range(1, 2 * pool + 2))
        law = pool @ obscur
        for difficulty, cell in enumerate(row, start=1):
            assert cell["success"] == law.probability(">=", difficulty)
    die = icepool.Die([icepool.Vector((int(f >= 4), int(f == 1))) for f in range(1, 7)])
    for dice in (2, 5, 9):
        law = dice @ die
        row = tunnels_grid.tunnels_plain_row(4, dice, range(1, dice + 1))
        for threshold, cell in enumerate(row, start=1):
            expected = sum(
                law.probability(v) for v in law.outcomes() if v[0] >= threshold and v[1] < 3
            )
            assert cell["success"] == expected


def test_exact_cell_is_a_mapping_of_fractions() -> None:
    cell = ExactCell(("success", "fumble"), (3, 1), 6)
    assert cell["success"] == Fraction(1, 2) and dict(cell) == {
        "success": Fraction(1, 2),
        "fumble": Fraction(1, 6),
    }
    assert cell == {"success": Fraction(1, 2), "fumble": Fraction(1, 6)}
    assert probability(cell, "fumble") == 1 / 6 == probability(dict(cell), "fumble")
    with pytest.raises(KeyError):
        cell["critical"]


def test_grids_use_the_fast_rows_and_stay_exact() -> None:
    """``meneur table`` through the adapters: same cells as the systems' own odds."""
    from meneur.systems.obscur.lab_adapter import ADAPTER as OBSCUR
    from meneur.systems.tunnels.lab_adapter import ADAPTER as TUNNELS

    fast = OBSCUR.grid("test", {"dice": "1"}, "1..4", "1..6")
    assert all(isinstance(v, ExactCell) for v in fast.cells.values())
    for (_p, r, c), cell in fast.cells.items():
        exact = OBSCUR.cell("test", {"dice": "1"}, "variant", r + 1, c + 1)
        assert exact is not None and dict(cell) == exact
    plain = TUNNELS.grid("test", {"explode": "never"}, "1..5", "1..6", "blessed")
    for (_p, r, c), cell in plain.cells.items():
        exact = TUNNELS.cell("test", {}, ("blessed", "never"), r + 1, c + 1)
        assert exact is not None and dict(cell) == exact


@pytest.mark.parametrize("sixes", ["batch", "all"])
@pytest.mark.parametrize("policy", ["always", "needed"])
def test_T6_exploding_rows_equal_the_system_odds(policy: str, sixes: str) -> None:
    """T-6 (every policy that explodes), T-7 (both rules): a grid's rows, from the tables
    every pool shares, equal the whole law at every threshold, exactly."""
    from meneur.systems.tunnels.lab_adapter import ADAPTER as TUNNELS
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams

    for mode in ("normal", "blessed", "cursed"):
        grid = TUNNELS.grid("test", {"explode": policy, "sixes": sixes}, "1,2,5,8", "1..17", mode)
        assert all(isinstance(v, ExactCell) for v in grid.cells.values())
        for (_p, r, c), cell in grid.cells.items():
            dice, threshold = grid.rows.values[r], grid.columns.values[c]
            law = test_odds(
                TestParams(
                    dice=dice,
                    threshold=threshold,
                    explode=policy,  # type: ignore[arg-type]
                    sixes=sixes,  # type: ignore[arg-type]
                    blessed=mode == "blessed",
                    cursed=mode == "cursed",
                )
            )
            assert cell["success"] == law.p_where(lambda k, t=threshold: k[0] >= t and not k[2])
            assert cell["exceptional"] == law.p_where(lambda k: k[1])
            assert cell["critical"] == law.p_where(lambda k: k[2])
