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


def test_no_name_answers_for_two_systems() -> None:
    names = [{fold(n) for n in (s.name, s.title, *s.aliases)} for s in SYSTEMS]
    for index, mine in enumerate(names):
        for others in names[index + 1 :]:
            assert not mine & others


def test_fold_ignores_case_accents_and_spacing() -> None:
    assert fold(" Dextérité ") == "dexterite"
    assert fold("Gardien du feu") == "gardien-du-feu"
    assert fold("KRÂSSES") == "krasses"
