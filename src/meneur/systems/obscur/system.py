"""The Obscur system (RULES.md O-1 to O-42): a light entry for the registry.

Nothing heavy is imported here: checks, data and commands load inside the hooks, so
``meneur --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

from meneur.locale import N_
from meneur.systems.base import Check, CommandGroups, Procedure, System


class ObscurSystem(System):
    name: ClassVar[str] = "obscur"
    aliases: ClassVar[tuple[str, ...]] = ("obs",)
    title: ClassVar[str] = "Obscur"
    rule_prefix: ClassVar[str] = "O"
    die_sides: ClassVar[int] = 6
    labels: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "name": N_("Name"),
            "difficulty": N_("Difficulty"),
            "modifier": N_("Modifier"),
            "push": N_("Dépassement before the roll (O-10)"),
            "after": N_("Dépassement after seeing the dice (advisor)"),
            "ressources.vie": N_("Vie"),
            "ressources.vecu": N_("Vécu"),
            "ressources.volonte": N_("Volonté"),
            "ressources.moral": N_("Moral"),
            "ressources.encombrement": N_("Encombrement"),
            "etat.blessures": N_("Wounds"),
            "notes": N_("Notes"),
            "contacts": N_("Contacts (O-4)"),
        }
    )

    def checks(self) -> Mapping[str, Check[Any, Any]]:
        return _checks()

    def procedures(self) -> Mapping[str, Procedure[Any, Any]]:
        return _procedures()

    def check_sheet(self, sheet: dict[str, Any], label: str) -> None:
        """The sheet's model, its traits in the catalogue, and its equipment's shape: a
        sheet whose ``equipement`` was malformed was stored, then refused by every roll."""
        from meneur.systems.obscur.gear import equipment_of
        from meneur.systems.obscur.sheet import character_from

        character = character_from(sheet, label)
        equipment_of(character.sheet.equipment, label)

    def check_state(self, state: dict[str, Any], label: str) -> None:
        """A resource the state names is held to the sheet's range (O-10, O-31)."""
        from meneur.systems.obscur.sheet import check_state

        check_state(state, label)

    def log_summary(self, kind: str, outcome: Mapping[str, Any]) -> str | None:
        from meneur.systems.obscur.log_words import log_summary

        return log_summary(kind, outcome)

    def lab_adapter(self) -> object:
        from meneur.systems.obscur.lab_adapter import ADAPTER

        return ADAPTER

    def register_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.obscur.cli import register
        from meneur.systems.obscur.play_cli import register as register_play

        register(groups)
        register_play(groups)

    def register_lab_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.obscur.lab_cli import register

        register(groups)


@cache
def _checks() -> Mapping[str, Check[Any, Any]]:
    from meneur.systems.obscur.checks import AcquireCheck, OpposeCheck, TestCheck
    from meneur.systems.obscur.strike import StrikeCheck

    return {
        "test": TestCheck(),
        "oppose": OpposeCheck(),
        "acquire": AcquireCheck(),
        "strike": StrikeCheck(),
    }


@cache
def _procedures() -> Mapping[str, Procedure[Any, Any]]:
    from meneur.systems.obscur.procedures import ObscurCare, ObscurFight, ObscurJourney, ObscurShot

    return {
        "fight": ObscurFight(),
        "shot": ObscurShot(),
        "survive": ObscurJourney(),
        "care": ObscurCare(),
    }


SYSTEM = ObscurSystem()
