"""The Krâsses character sheet: what a name rolls (K-1), its modifiers (K-5), zero level (K-6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meneur.errors import SheetError
from meneur.systems.krasses.sheet import KrassesSheet, load_sheet, trait_roll

SHEET = {
    "system": "krasses",
    "name": "Aurore",
    "characteristics": {"Force": 2, "Agilité": 4},
    "skills": {"Escalade": 5, "Discrétion": 3, "Crochetage": 0},
    "advantages": [
        {"name": "Chat de gouttière", "score": 6},
        {"name": "Pied sûr", "bonus": 2, "applies_to": ["escalade"]},
    ],
    "equipment": [
        {"name": "Corde", "bonus": 1, "applies_to": ["Escalade"]},
        {"name": "Armure lourde", "bonus": -2, "applies_to": ["Discrétion", "Agilité"]},
    ],
}


def sheet() -> KrassesSheet:
    return KrassesSheet.model_validate(SHEET)


def test_K1_a_skill_rolls_its_level() -> None:
    rolled = trait_roll(sheet(), "escalade")
    assert (rolled.source, rolled.bonus, rolled.level) == ("skill", 5, 5)


def test_K5_equipment_and_advantages_add_their_bonus() -> None:
    """K-5: the rope (+1) and Pied sûr (+2) apply to Escalade; the armour (−2) does not."""
    rolled = trait_roll(sheet(), "Escalade")
    assert dict(rolled.modifiers) == {"Pied sûr": 2, "Corde": 1}
    assert rolled.modifier == 3
    assert trait_roll(sheet(), "discretion").modifier == -2


def test_K1_advantages_and_characteristics_are_rolled_too() -> None:
    """K-1: the bonus is a skill, an advantage or a characteristic score."""
    assert trait_roll(sheet(), "chat de gouttiere").bonus == 6
    agility = trait_roll(sheet(), "AGILITE")
    assert (agility.source, agility.bonus, agility.modifier) == ("characteristic", 4, -2)


def test_K6_a_skill_without_level_rolls_with_no_bonus() -> None:
    """K-6: a skill the sheet lacks (or holds at 0) is rolled with no bonus."""
    missing = trait_roll(sheet(), "Navigation")
    assert (missing.source, missing.bonus, missing.level) == ("none", 0, 0)
    zero = trait_roll(sheet(), "crochetage")
    assert (zero.bonus, zero.level) == (0, 0)


def test_sheet_round_trip_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "aurore.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    assert load_sheet(path).name == "Aurore"
    bad = dict(SHEET, skills={"Escalade": -1})
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(SheetError, match="Compétences"):
        load_sheet(path)
    twice = dict(SHEET, skills={"Escalade": 1, "escalade": 2})
    path.write_text(json.dumps(twice), encoding="utf-8")
    with pytest.raises(SheetError):
        load_sheet(path)
    with pytest.raises(SheetError):
        load_sheet(tmp_path / "absent.json")


@pytest.mark.parametrize(
    "where",
    [
        {"skills": {"x\ty": 2}},
        {"characteristics": {"Force\x1b(0": 2}},
        {"advantages": [{"name": "Pied sûr", "bonus": 2, "applies_to": ["es\ncalade"]}]},
    ],
)
def test_a_name_on_the_sheet_is_one_line(tmp_path: Path, where: dict[str, object]) -> None:
    """A skill, a characteristic or what an advantage applies to is printed on one line:
    a tab, a line break or an escape sequence (which clears a terminal) is refused, and
    the message shows the field escaped, not raw."""
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(dict(SHEET, **where)), encoding="utf-8")
    with pytest.raises(SheetError, match=r"contrôle|control") as refused:
        load_sheet(path)
    assert not any(c in str(refused.value) for c in "\t\n\x1b")


@pytest.mark.parametrize(
    "where",
    [
        {"advantages": [{"name": "Pied sûr", "bonus": 2, "applies_to": [""]}]},
        {"equipment": [{"name": "Corde", "bonus": 1, "applies_to": ["   "]}]},
        {"equipment": [{"name": "Corde", "bonus": 1, "applies_to": ["e" * 5000]}]},
        {"skills": {"": 2}},
        {"skills": {"  ": 2}},
        {"characteristics": {"F" * 61: 2}},
        {"advantages": [{"name": " ", "score": 6}]},
        {"equipment": [{"name": "", "bonus": 1}]},
    ],
)
def test_K5_a_name_on_the_sheet_is_held_to_the_typed_rule(
    tmp_path: Path, where: dict[str, object]
) -> None:
    """K-5: an advantage or a piece of equipment adds its bonus to the rolls it names,
    and a roll is asked for by typing a name (``--skill NAME=LEVEL``: 1 to 60
    characters). An empty, blank or 5,000-character ``applies_to`` (or skill,
    characteristic, advantage name) loaded, a name no one could type: refused now."""
    path = tmp_path / "aurore.json"
    path.write_text(json.dumps(dict(SHEET, **where)), encoding="utf-8")
    with pytest.raises(SheetError, match="un nom a de 1 à 60 caractères, pas seulement des"):
        load_sheet(path)


def test_K5_a_name_of_the_typed_bound_loads() -> None:
    """The bound itself loads, and it is the one the command line types."""
    from meneur.systems.krasses.cli import PAIR_NAME
    from meneur.systems.krasses.sheet import TRAIT_NAME

    longest = "e" * TRAIT_NAME
    data = dict(
        SHEET,
        skills={longest: 2},
        equipment=[{"name": longest, "bonus": 1, "applies_to": [longest]}],
    )
    assert trait_roll(KrassesSheet.model_validate(data), longest).modifier == 1
    assert PAIR_NAME == TRAIT_NAME


def test_K5_K6_an_advantage_or_equipment_without_numbers_rolls_0_and_adds_nothing() -> None:
    """K-1, K-5: an advantage without a score rolls 0 (an advantage rolled is no skill:
    level 0, so it never makes a K-7 helper); one without a bonus, like equipment without
    one, adds nothing to the rolls it names."""
    from meneur.systems.krasses.sheet import validated

    bare = validated(
        {
            "name": "Aurore",
            "skills": {"Escalade": 5},
            "advantages": [{"name": "Charme", "applies_to": ["Escalade"]}],
            "equipment": [{"name": "Corde", "applies_to": ["Escalade"]}],
        },
        "aurore.json",
    )
    climb = trait_roll(bare, "escalade")
    assert (climb.bonus, climb.modifiers, climb.modifier) == (5, (), 0)
    charm = trait_roll(bare, "charme")
    assert (charm.source, charm.bonus, charm.level) == ("advantage", 0, 0)


def test_K7_an_advantage_or_a_characteristic_rolled_has_no_skill_level() -> None:
    """K-1, K-7: an advantage (score 6) or a characteristic (Agilité 4) is rolled with its
    score, but it is no skill: level 0, so its roller never gives a K-7 +2."""
    cat = trait_roll(sheet(), "chat de gouttiere")
    agility = trait_roll(sheet(), "agilite")
    assert (cat.bonus, cat.level, agility.bonus, agility.level) == (6, 0, 4, 0)


def test_K6_a_name_the_sheet_lacks_is_kept_to_the_typed_60_characters() -> None:
    """K-6: a name the sheet lacks is rolled with no bonus, under its name as typed
    (spaces around it dropped) and kept to 60 characters, the typed bound."""
    missing = trait_roll(sheet(), "  " + "n" * 70 + " ")
    assert (missing.name, missing.source, missing.bonus) == ("n" * 60, "none", 0)


def _advantage(index: int, **changes: object) -> dict[str, object]:
    return {"name": f"Atout {index}", **changes}


def _equipment(index: int, **changes: object) -> dict[str, object]:
    return {"name": f"Objet {index}", **changes}


@pytest.mark.parametrize(
    ("at_bound", "past_bound"),
    [
        # K-1: a characteristic from -1000 to 1000, a skill's level from 0 to 1000
        ({"characteristics": {"Force": 1000}}, {"characteristics": {"Force": 1001}}),
        ({"characteristics": {"Force": -1000}}, {"characteristics": {"Force": -1001}}),
        ({"skills": {"Escalade": 1000}}, {"skills": {"Escalade": 1001}}),
        # K-1, K-5: at most 50 characteristics, 200 skills, 100 advantages, 200 pieces
        (
            {"characteristics": {f"C{i}": 1 for i in range(50)}},
            {"characteristics": {f"C{i}": 1 for i in range(51)}},
        ),
        (
            {"skills": {f"S{i}": 1 for i in range(200)}},
            {"skills": {f"S{i}": 1 for i in range(201)}},
        ),
        (
            {"advantages": [_advantage(i) for i in range(100)]},
            {"advantages": [_advantage(i) for i in range(101)]},
        ),
        (
            {"equipment": [_equipment(i) for i in range(200)]},
            {"equipment": [_equipment(i) for i in range(201)]},
        ),
        # K-5: an advantage or a piece of equipment applies to at most 50 names
        (
            {"advantages": [_advantage(0, applies_to=[f"S{i}" for i in range(50)])]},
            {"advantages": [_advantage(0, applies_to=[f"S{i}" for i in range(51)])]},
        ),
        (
            {"equipment": [_equipment(0, applies_to=[f"S{i}" for i in range(50)])]},
            {"equipment": [_equipment(0, applies_to=[f"S{i}" for i in range(51)])]},
        ),
    ],
)
def test_K1_K5_a_sheet_loads_its_bounds_and_refuses_one_past(
    at_bound: dict[str, object], past_bound: dict[str, object]
) -> None:
    """K-1, K-5: what a sheet holds is bounded; the bound itself loads, one past it is one
    SheetError naming the sheet."""
    from meneur.systems.krasses.sheet import validated

    validated({"name": "Aurore", **at_bound}, "aurore.json")
    with pytest.raises(SheetError, match=r"aurore\.json"):
        validated({"name": "Aurore", **past_bound}, "aurore.json")
