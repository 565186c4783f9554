"""The Tunnels rule data files (T-2, T-3, T-10, T-13): what a conteur's own file may say.

The shipped files are the text's gaps filled provisionally; a user file in
``$MENEUR_DATA_DIR/tunnels/`` replaces one, and is held to the same bounds.
"""

from __future__ import annotations

import pytest

from data_helpers import WriteData
from meneur.errors import SheetError
from meneur.systems.tunnels import data


def spell(cost: object = 1, threshold: object = 1, name: str = "Flamme") -> str:
    return (
        f'[[spells]]\nname = "{name}"\ncost = {cost}\ntrait = "Intelligence"\n'
        f"threshold = {threshold}\n"
    )


def gear(damage: object = 0, absorb: object = 0, name: str = "Dague", armour: str = "Cuir") -> str:
    return (
        f'[[weapons]]\nname = "{name}"\ndamage = {damage}\n'
        f'[[armours]]\nname = "{armour}"\nabsorb = {absorb}\n'
    )


def test_T2_T3_T10_T13_a_user_file_that_says_nothing_is_provisional(
    user_data: WriteData,
) -> None:
    """A user's file that does not say ``provisional = false`` (or ``house_rule``) is shown
    as provisional (a house rule, T-2), as the shipped ones are."""
    user_data("derived", '[formulas]\nEndurance = "Force"\nMana = "Volonté"\nChance = "1"\n')
    user_data("levels", "[levels]\nmoyenne = 2\n")
    user_data("spells", spell())
    user_data("gear", gear())
    assert data.derived().house_rule and data.levels().provisional
    assert data.spells().provisional and data.gear().provisional


def test_T3_a_level_table_needs_a_level_and_says_which_are_provisional(
    user_data: WriteData,
) -> None:
    """T-3: a user's levels need at least one (one is enough); a table said not
    provisional makes no named level provisional, « moyenne » never is."""
    user_data("levels", "[levels]\n")
    with pytest.raises(SheetError, match="levels"):
        data.levels()
    user_data("levels", "provisional = false\n[levels]\ndure = 3\n")
    assert data.threshold_of("dure") == (3, False)
    assert data.threshold_of("4") == (4, False)
    user_data("levels", "[levels]\nmoyenne = 2\ndure = 3\n")
    assert data.threshold_of("Moyenne") == (2, False) and data.threshold_of("dure") == (3, True)


@pytest.mark.parametrize(("cost", "threshold"), [(0, 1), (100, 100)])
def test_T13_a_spell_costs_0_to_100_against_a_threshold_of_1_to_100(
    user_data: WriteData, cost: int, threshold: int
) -> None:
    """T-13: a spell of a user file costs 0 to 100 Mana and is cast against a threshold of
    1 to 100: the bounds load."""
    user_data("spells", spell(cost, threshold))
    found = data.find_spell("flamme")
    assert (found.cost, found.threshold) == (cost, threshold)


@pytest.mark.parametrize(
    "text",
    [spell(cost=-1), spell(cost=101), spell(threshold=0), spell(threshold=101), spell(name="")],
)
def test_T13_a_spell_past_its_bounds_is_refused(user_data: WriteData, text: str) -> None:
    """T-13: a cost past 0-100, a threshold past 1-100 or an empty name: the file is
    refused as a whole, naming it."""
    user_data("spells", text)
    with pytest.raises(SheetError, match="spells"):
        data.spells()


@pytest.mark.parametrize("bound", [0, 100])
def test_T10_weapons_and_armour_from_0_to_100(user_data: WriteData, bound: int) -> None:
    """T-10: a weapon's damage and an armour's absorption lie from 0 to 100: the bounds
    load."""
    user_data("gear", gear(bound, bound))
    assert data.find_weapon("dague").damage == bound and data.find_armour("cuir").absorb == bound


@pytest.mark.parametrize(
    "text",
    [
        gear(damage=-1),
        gear(damage=101),
        gear(absorb=-1),
        gear(absorb=101),
        gear(name=""),
        gear(armour=""),
    ],
)
def test_T10_gear_past_its_bounds_is_refused(user_data: WriteData, text: str) -> None:
    """T-10: damage or absorption past 0-100, or an unnamed weapon or armour: the file is
    refused, naming it."""
    user_data("gear", text)
    with pytest.raises(SheetError, match="gear"):
        data.gear()


def test_T2_a_formula_subtracts_a_term_written_with_or_without_spaces() -> None:
    """T-2: « - » subtracts the next term, a characteristic or a number, spaced or not."""
    assert data.parse_formula("Force - Charisme") == ((1, "Force"), (-1, "Charisme"))
    assert data.parse_formula("Force -1") == ((1, "Force"), (-1, None))
    assert data.parse_formula("-Force+3") == ((-1, "Force"), (3, None))


def test_T10_T13_the_tables_read_once_cannot_be_changed_by_a_caller() -> None:
    """T-10/T-13: the tables are read once and shared: a spell, a weapon or an armour
    found is frozen, so no command changes what the next one reads."""
    from pydantic import ValidationError

    first_spell = data.spells().spells[0]
    for found, field, value in (
        (data.find_spell(first_spell.name), "cost", 99),
        (data.find_weapon(data.gear().weapons[0].name), "damage", 99),
        (data.find_armour(data.gear().armours[0].name), "absorb", 99),
    ):
        with pytest.raises(ValidationError):
            setattr(found, field, value)


def test_T10_T13_a_name_of_one_letter_is_a_name(user_data: WriteData) -> None:
    """T-10/T-13: a spell, a weapon or an armour needs a name, one letter is enough."""
    user_data("spells", spell(name="F"))
    user_data("gear", gear(name="D", armour="C"))
    assert data.find_spell("f").name == "F"
    assert (data.find_weapon("d").name, data.find_armour("c").name) == ("D", "C")
