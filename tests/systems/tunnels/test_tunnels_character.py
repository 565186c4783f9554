"""A Tunnels character (T-1, T-2, T-11): a die face as a characteristic, the derived
statistics from their formulas, and the bounds of a sheet (tests written against the
mutants of ``tunnels/character.py`` that survived the suite)."""

from __future__ import annotations

from typing import Any

import pytest

from data_helpers import WriteData
from meneur.errors import RuleError, SheetError
from meneur.systems.tunnels.character import derive, from_dict, trait_from_face

SIX = ("Force", "Dextérité", "Constitution", "Volonté", "Intelligence", "Charisme")


def sheet(**changes: Any) -> dict[str, Any]:
    """A valid sheet (Force 3, the others 2) with ``changes`` made to it."""
    pool = {"current": 4, "max": 4}
    found: dict[str, Any] = {
        "system": "tunnels",
        "name": "Pip",
        "characteristics": {name: 3 if name == "Force" else 2 for name in SIX},
        "endurance": dict(pool),
        "mana": dict(pool),
        "chance": dict(pool),
    }
    found.update(changes)
    return found


def test_T1_a_face_1_to_6_is_a_characteristic_and_no_other() -> None:
    """T-1: 1-2 give 2, 3-4 give 3, 5-6 give 4; a face off the d6 is refused, never read."""
    assert [trait_from_face(face) for face in range(1, 7)] == [2, 2, 3, 3, 4, 4]
    for face in (0, 7):
        with pytest.raises(RuleError, match=f"{face}"):
            trait_from_face(face)


def test_T2_a_formula_counts_its_constant_and_a_statistic_is_never_below_0(
    user_data: WriteData,
) -> None:
    """T-2 (house rule, formulas are data): a constant term counts as itself; a formula
    that comes out 0 stays 0; one that comes out negative (Force 2 - Constitution 3) is
    refused, naming the file and the formula: a statistic has no debt, and it was
    silently made 0."""
    user_data(
        "derived",
        '[formulas]\nEndurance = "Force + 2"\nMana = "Force - Volonté"\n'
        'Chance = "Volonté - Charisme"\n',
    )
    scores = {name: 2 for name in SIX} | {"Constitution": 3}
    assert derive(scores) == {"Endurance": 4, "Mana": 0, "Chance": 0}
    user_data(
        "derived",
        '[formulas]\nEndurance = "Force + 2"\nMana = "Force - Constitution"\n'
        'Chance = "Volonté - Charisme"\n',
    )
    with pytest.raises(SheetError, match=r"derived\.toml.*Mana -1 \(Mana = Force - Constitution\)"):
        derive(scores)


@pytest.mark.parametrize("value", [0, 10_000])
def test_T11_a_pool_holds_0_to_10000(value: int) -> None:
    """A pool (Endurance, Mana, Chance) holds 0 (a spent Chance, an Endurance at 0) to
    10,000, its current value at most its maximum."""
    pool = {"current": value, "max": value}
    assert from_dict(sheet(endurance=pool), "pip.json").endurance.current == value


@pytest.mark.parametrize(
    "pool",
    [{"current": 10_001, "max": 10_001}, {"current": 0, "max": 10_001}, {"current": -1, "max": 4}],
)
def test_T11_a_pool_past_its_bounds_is_refused(pool: dict[str, int]) -> None:
    with pytest.raises(SheetError, match="Endurance"):
        from_dict(sheet(endurance=pool), "pip.json")


@pytest.mark.parametrize("score", [0, 100])
def test_T1_a_characteristic_holds_0_to_100(score: int) -> None:
    """T-1 draws 2-4; a sheet edited or grown in play holds 0 to 100 dice."""
    scores = {name: score for name in SIX}
    assert from_dict(sheet(characteristics=scores), "pip.json").characteristics == scores


@pytest.mark.parametrize("score", [-1, 101])
def test_T1_a_characteristic_past_0_to_100_is_refused(score: int) -> None:
    scores = {name: 2 for name in SIX} | {"Dextérité": score}
    with pytest.raises(SheetError, match=r"\(Caractéristiques : Dextérité va de 0 à 100\)"):
        from_dict(sheet(characteristics=scores), "pip.json")


def test_a_sheet_without_a_name_is_refused() -> None:
    """A character is found, logged and shown by its name: an empty one is refused, the
    field named in the reader's words (it read « name »)."""
    with pytest.raises(SheetError, match=r"\(Nom : ne doit pas être vide\)"):
        from_dict(sheet(name=""), "pip.json")
