"""The rule data file: shipped values, a user override, and clear errors for bad files."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from meneur.errors import SheetError
from meneur.systems.legendes.data import parse_rules, rules_data
from meneur.systems.legendes.rules import band_of


def shipped() -> dict[str, Any]:
    text = (
        resources.files("meneur.systems.legendes").joinpath("data", "rules.toml").read_text("utf-8")
    )
    return tomllib.loads(text)


@pytest.fixture
def clear_cache() -> Iterator[None]:
    rules_data.cache_clear()
    yield
    rules_data.cache_clear()


def test_L1_L3_L8_shipped_numbers() -> None:
    """L-1, L-3, L-8: the shipped file holds the rules' numbers."""
    data = parse_rules(shipped())
    assert (data.domains.legendary, data.domains.secondary, data.domains.ordinary) == (3, 2, 0)
    assert (
        data.levels.legendaire,
        data.levels.heroique,
        data.levels.elite,
        data.levels.commun,
    ) == (3, 2, 1, 0)
    assert (data.resolution.definitive, data.resolution.partial) == (6, 4)
    assert data.help.once_per == "helper"


@pytest.mark.parametrize(
    ("table", "key", "value"),
    [
        ("domains", "legendary", -1),
        ("domains", "legendary", "trois"),
        ("resolution", "partial", 9),
        ("help", "once_per", "jamais"),
        ("resolution", "circumstances", "±2"),
        ("wounds", "extra", 1),
    ],
)
def test_bad_rule_data_is_one_clear_error(table: str, key: str, value: object) -> None:
    raw = shipped()
    raw[table][key] = value
    with pytest.raises(SheetError) as error:
        parse_rules(raw)
    assert table in str(error.value)


def test_L8_user_override_changes_the_bands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clear_cache: None
) -> None:
    """L-8: a table that reads the bands otherwise drops its own rules.toml."""
    folder = tmp_path / "legendes"
    folder.mkdir()
    text = (
        resources.files("meneur.systems.legendes").joinpath("data", "rules.toml").read_text("utf-8")
    )
    (folder / "rules.toml").write_text(text.replace("definitive = 6", "definitive = 7"), "utf-8")
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    assert band_of(6) == "partial"
    assert band_of(7) == "definitive"


def test_L11_option_help_once_per_scene(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clear_cache: None
) -> None:
    """L-11 option: with `once_per = "scene"`, a second helper is refused too."""
    from meneur.errors import RuleError
    from meneur.rng import PhysicalDice
    from meneur.systems.legendes import scene
    from meneur.systems.legendes.sheet import Hero

    folder = tmp_path / "legendes"
    folder.mkdir()
    text = (
        resources.files("meneur.systems.legendes").joinpath("data", "rules.toml").read_text("utf-8")
    )
    (folder / "rules.toml").write_text(
        text.replace('once_per = "helper"', 'once_per = "scene"'), "utf-8"
    )
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    hero, _ = scene.start(Hero(name="Lyssia"), "")
    hero, _ = scene.aid(hero, "Tomas", 1, 0, 0, PhysicalDice([3]), PhysicalDice([]))
    with pytest.raises(RuleError):
        scene.aid(hero, "Mira", 1, 0, 0, PhysicalDice([3]), PhysicalDice([]))


@pytest.mark.parametrize(
    ("table", "key", "at_bound", "past_bound"),
    [
        ("domains", "legendary", 20, 21),  # L-1
        ("levels", "legendaire", 20, 21),  # L-3
        ("groups", "size", 2, 1),  # L-4
        ("groups", "size", 1000, 1001),
        ("resolution", "definitive", 100, 101),  # L-8
        ("resolution", "cosmetic", 1, 0),
        ("resolution", "advantage", 3, 4),  # strictly below partial = 4
        ("help", "extra_die", 100, 101),  # L-11
        ("help", "plus_1", 3, 4),  # strictly below plus_2 = 4
        ("motivation", "bonus", 0, -1),  # L-12
        ("motivation", "bonus", 20, 21),
        ("motivation", "dice_per_point", 0, -1),
        ("motivation", "dice_per_point", 5, 6),
        ("wounds", "light_penalty", 0, -1),  # L-13
        ("wounds", "light_penalty", 20, 21),
        ("wounds", "grave_dice", 0, -1),
        ("wounds", "grave_dice", 5, 6),
        ("resolution", "circumstances", [0], []),  # L-7: 1 to 21 modifiers, each -20..20
        ("resolution", "circumstances", list(range(-10, 11)), list(range(-10, 12))),
        ("resolution", "circumstances", [-20, 20], [21]),
        ("resolution", "circumstances", [-20, 20], [-21]),
        ("resolution", "circumstances", [0, 2], [0, True]),
        ("resolution", "circumstances", [0, 2], [0, 2.5]),
    ],
)
def test_L1_to_L13_rule_data_loads_its_bounds_and_refuses_one_past(
    table: str, key: str, at_bound: object, past_bound: object
) -> None:
    """L-1, L-3, L-4, L-7, L-8, L-11 to L-13: each number of rules.toml has a range (band
    and help thresholds decrease strictly); the bound itself loads, one past it is one
    SheetError naming the table."""
    raw = shipped()
    raw[table][key] = at_bound
    parse_rules(raw)
    raw[table][key] = past_bound
    with pytest.raises(SheetError) as error:
        parse_rules(raw)
    assert table in str(error.value)


def test_rule_data_refuses_an_unknown_table_by_its_name() -> None:
    """A rules.toml with a table the rules do not read (a typo) is one SheetError naming it."""
    raw = {**shipped(), "combat": {"rounds": 3}}
    with pytest.raises(SheetError) as error:
        parse_rules(raw)
    assert "combat" in str(error.value)


def test_L1_to_L13_the_rule_numbers_read_once_are_frozen() -> None:
    """L-1 to L-13: the numbers are read once per process (``rules_data`` is cached), so
    no step may change them for the next: each of their tables refuses an assignment."""
    from dataclasses import FrozenInstanceError

    data = parse_rules(shipped())
    for part, field in (
        (data, "domains"),
        (data.domains, "legendary"),
        (data.levels, "elite"),
        (data.groups, "size"),
        (data.resolution, "definitive"),
        (data.help, "once_per"),
        (data.motivation, "bonus"),
        (data.wounds, "grave_dice"),
    ):
        with pytest.raises(FrozenInstanceError):
            setattr(part, field, 0)
