"""The Obscur tables a user may override (docs/obscur-play.md, « Tables provisoires et
données »): a file in ``$MENEUR_DATA_DIR/obscur/`` replaces the shipped one.

docs/rules.md: a table the text refers to but never gives is shown « table provisoire ».
A user's file that does not say ``provisional = false`` is not known to come from the
text: it is shown provisional, as Tunnels and Krâsses show theirs
(``tests/systems/tunnels/test_tunnels_data.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
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
