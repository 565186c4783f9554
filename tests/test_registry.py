"""The registry: explicit systems, found by name or alias, accents and case ignored."""

from __future__ import annotations

import pytest

from meneur.errors import UnknownSystemError
from meneur.systems.registry import SYSTEMS, find_system
from meneur.text import fold


def test_every_system_is_found_by_its_names() -> None:
    for system in SYSTEMS:
        assert find_system(system.name) is system
        assert find_system(system.title.upper()) is system
        for alias in system.aliases:
            assert find_system(alias) is system


def test_unknown_system_lists_the_known_ones() -> None:
    with pytest.raises(UnknownSystemError) as caught:
        find_system("donjons")
    message = str(caught.value)
    assert "donjons" in message
    for system in SYSTEMS:
        assert system.name in message


def test_names_are_unique() -> None:
    names = [fold(n) for s in SYSTEMS for n in (s.name, s.title, *s.aliases)]
    assert len(names) == len(set(names))


def test_fold_ignores_case_accents_and_spacing() -> None:
    assert fold(" Dextérité ") == "dexterite"
    assert fold("Gardien du feu") == "gardien-du-feu"
    assert fold("KRÂSSES") == "krasses"
