"""The Obscur tables a user may override (docs/obscur-play.md, « Tables provisoires et
données »): a file in ``$MENEUR_DATA_DIR/obscur/`` replaces the shipped one.

docs/rules.md: a table the text refers to but never gives is shown « table provisoire ».
A user's file that does not say ``provisional = false`` is not known to come from the
text: it is shown provisional, as Tunnels and Krâsses show theirs
(``tests/systems/tunnels/test_tunnels_data.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from data_helpers import WriteData, user_data_folder
from meneur.systems.obscur import combat, gear, health, survival, tables

DATA = Path(gear.__file__).parent / "data"
SHIPPED_MARK = re.compile(r"^provisional = true\n", re.MULTILINE)

# file name -> how the engine reads that file's flag
FLAGS: dict[str, Callable[[], bool]] = {
    "weapons": lambda: gear.armoury().weapons_file.provisional,
    "armour": lambda: gear.armoury().armour_file.provisional,
    "hit_zones": lambda: gear.armoury().zones_file.provisional,
    "combat": lambda: combat.combat_data().ranged.provisional,
    "special_blows": lambda: combat.special_blows().provisional,
    "health_tables": lambda: health.health_tables().provisional,
    "milieux": lambda: survival.milieux().provisional,
    "acquisition": lambda: tables.acquisition_table().provisional,
}
LOADERS: tuple[Any, ...] = (
    gear.armoury,
    combat.combat_data,
    combat.special_blows,
    health.health_tables,
    survival.milieux,
    tables.acquisition_table,
)


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[WriteData]:
    with user_data_folder(tmp_path, monkeypatch, "obscur", LOADERS) as write:
        yield write


@pytest.mark.parametrize("name", sorted(FLAGS))
def test_a_user_table_that_says_nothing_is_shown_provisional(
    name: str, user_data: WriteData
) -> None:
    """The shipped file with its ``provisional = true`` line taken out, as a user's copy:
    still provisional; the same copy saying ``provisional = false`` is not."""
    shipped = (DATA / f"{name}.toml").read_text(encoding="utf-8")
    silent, marks = SHIPPED_MARK.subn("", shipped)
    assert marks == 1, f"{name}.toml should ship marked provisional"
    user_data(name, silent)
    assert FLAGS[name]() is True
    user_data(name, SHIPPED_MARK.sub("provisional = false\n", shipped))
    assert FLAGS[name]() is False


def test_O13_a_user_weapons_file_takes_its_bounds_and_defaults(user_data: WriteData) -> None:
    """O-13's Hargne share is a fraction from 0 to 5 and a Défense from 0 to 30, both ends
    taken; a weapon or the bare hands that leave out Initiative, Défense or damage get 0.
    One past either end is refused with the file named, as docs/obscur-play.md promises
    of a user's table."""
    from meneur.errors import SheetError

    def weapons(hargne: str, defense: int) -> str:
        return (
            f'[classes."Lourde"]\nskill = "Armes lourdes"\nhargne = "{hargne}"\n\n'
            '[unarmed]\nname = "Poings"\n\n'
            f'[[weapons]]\nname = "Masse"\nclass = "Lourde"\ndefense = {defense}\n\n'
            '[[weapons]]\nname = "Bâton"\nclass = "Lourde"\n'
        )

    for hargne, defense in (("0", 0), ("5", 30)):
        user_data("weapons", weapons(hargne, defense))
        armoury = gear.armoury()
        masse, baton, fists = armoury.weapon("Masse"), armoury.weapon("Bâton"), armoury.unarmed()
        assert masse.defense == defense and masse.hargne_share == Fraction(hargne)
        for bare in (baton, fists):
            assert (bare.initiative, bare.defense, bare.damage) == (0, 0, 0)
        assert fists.name == "Poings" and fists.hargne_share == Fraction(1, 2)
    for hargne, defense in (("-1/2", 0), ("11/2", 0), ("1", -1), ("1", 31)):
        user_data("weapons", weapons(hargne, defense))
        with pytest.raises(SheetError, match="weapons"):
            gear.armoury()


def test_the_armoury_is_provisional_while_any_of_its_files_is(user_data: WriteData) -> None:
    """« table provisoire » stays on the armoury while one of its three files (weapons,
    armour, hit zones) is provisional: a user's weapons said to come from the text do not
    make the shipped armour the text's. A hit-zones file that leaves out its die rolls a
    d6."""
    shipped = (DATA / "weapons.toml").read_text(encoding="utf-8")
    user_data("weapons", SHIPPED_MARK.sub("provisional = false\n", shipped))
    assert gear.armoury().weapons_file.provisional is False
    assert gear.armoury().provisional is True
    zones = (DATA / "hit_zones.toml").read_text(encoding="utf-8")
    user_data("hit_zones", re.sub(r"^die = 6\n", "", zones, flags=re.MULTILINE))
    assert gear.armoury().zones_file.die == 6


def test_O11_O22_a_kit_reads_inline_weapons_shields_and_bare_hands() -> None:
    """A sheet's ``equipement``: an inline weapon that leaves out its Initiative, Défense
    and damage has 0 of each; a shield is found by its name (the Pavois, 2, not the first
    listed); bare hands are never a ranged weapon (O-11: Hargne + Bagarre). O-22: pieces
    on one zone add their Protection (Veste de cuir 1 + Cuirasse 3 on the Torse), a
    zone's first piece counts its own alone (Casque 2 on the Tête)."""
    kit = gear.kit_of(
        {
            "armes": [{"name": "Gourdin", "class": "Moyennes"}],
            "bouclier": "Pavois",
            "armures": ["Casque", "Veste de cuir", "Cuirasse"],
        }
    )
    assert kit.armour == {"Tête": 2, "Torse": 4, "Bras": 1}
    (club,) = kit.weapons
    assert (club.name, club.initiative, club.defense, club.damage) == ("Gourdin", 0, 0, 0)
    assert kit.shield is not None and kit.shield.name == "Pavois" and kit.shield_protection == 2
    assert gear.armoury().unarmed().ranged is False
