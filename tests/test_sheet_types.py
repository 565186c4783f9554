"""A sheet's numbers are numbers: ``"3"``, ``true`` or ``2.5`` where a whole number
belongs is refused by name, in every system, instead of being read as 3 or 1.

pydantic's lax mode read a Krâsses skill of ``true`` as 1 and Légendes motivation
points of ``"3"`` as 3: a typo changed a roll without a word. The four sheet loaders
validate strictly (the JSON and TOML types as written).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from meneur.errors import SheetError
from meneur.files import read_sheet
from meneur.systems.krasses.sheet import validated as krasses_sheet
from meneur.systems.legendes.sheet import hero_from
from meneur.systems.obscur.sheet import character_from
from meneur.systems.tunnels.character import from_dict as tunnels_sheet

ROOT = Path(__file__).resolve().parents[1]

TUNNELS = {
    "system": "tunnels",
    "name": "Aria",
    "characteristics": {
        "Force": 2, "Dextérité": 4, "Constitution": 2, "Volonté": 3, "Intelligence": 2,
        "Charisme": 3,
    },
    "endurance": {"current": 4, "max": 4},
    "mana": {"current": 5, "max": 5},
    "chance": {"current": 3, "max": 3},
    "wounded": False,
    "dead": False,
}  # fmt: skip
KRASSES = {
    "system": "krasses",
    "name": "Zoé",
    "characteristics": {"Force": 12},
    "skills": {"Bagarre": 3},
}


def _legendes() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads((ROOT / "examples/legendes/lyssia.json").read_text())
    return raw


def _obscur() -> dict[str, Any]:
    return read_sheet(ROOT / "examples/obscur/isaure.json")


Load = Callable[[dict[str, Any]], object]
LOADERS: dict[str, tuple[Callable[[], dict[str, Any]], Load]] = {
    "tunnels": (lambda: json.loads(json.dumps(TUNNELS)), lambda raw: tunnels_sheet(raw, "t")),
    "krasses": (lambda: json.loads(json.dumps(KRASSES)), lambda raw: krasses_sheet(raw, "k")),
    "legendes": (_legendes, lambda raw: hero_from(raw, "l")),
    "obscur": (_obscur, lambda raw: character_from(raw, "o")),
}


def _set(raw: dict[str, Any], path: tuple[str, ...], value: object) -> None:
    for key in path[:-1]:
        raw = raw[key]
    raw[path[-1]] = value


@pytest.mark.parametrize("system", sorted(LOADERS))
def test_the_examples_still_load(system: str) -> None:
    make, load = LOADERS[system]
    load(make())


@pytest.mark.parametrize(
    ("system", "path"),
    [
        ("tunnels", ("characteristics", "Force")),
        ("tunnels", ("chance", "current")),
        ("krasses", ("skills", "Bagarre")),
        ("krasses", ("characteristics", "Force")),
        ("legendes", ("motivation_points",)),
        ("obscur", ("capacites", "Bagarre")),
        ("obscur", ("ressources", "vecu")),
    ],
)
@pytest.mark.parametrize("value", ["3", True, 2.5])
def test_a_whole_number_written_otherwise_is_refused_by_name(
    system: str, path: tuple[str, ...], value: object
) -> None:
    make, load = LOADERS[system]
    raw = make()
    _set(raw, path, value)
    with pytest.raises(SheetError) as caught:
        load(raw)
    # named by its system's label where it has one (« Vécu »), else by its key
    from meneur.systems.base import field_label
    from meneur.systems.registry import find_system

    named = field_label(".".join(path), find_system(system)) or path[-1]
    assert named in str(caught.value), str(caught.value)
