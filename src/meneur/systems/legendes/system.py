"""The Légendes system as the registry sees it: light on purpose (imported at every start).

Rules, odds, data and commands load lazily, inside :meth:`LegendesSystem.checks` and
:meth:`LegendesSystem.register_cli`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from meneur.locale import N_
from meneur.systems.base import Check, CommandGroups, Procedure, System


@cache
def _checks() -> dict[str, Check[Any, Any]]:
    from meneur.systems.legendes.rules import LegendesAid, LegendesTest

    return {"test": LegendesTest(), "aid": LegendesAid()}


class LegendesSystem(System):
    """Légendes: heroes roll d6 by domain against opposition levels; differences decide."""

    name = "legendes"
    aliases = ("legende", "legends")
    title = "Légendes"
    rule_prefix = "L"
    die_sides = 6
    labels = MappingProxyType(
        {
            "name": N_("Name"),
            "legendary": N_("Legendary domains (L-1)"),
            "secondary": N_("Secondary domains (L-1)"),
            "weaknesses": N_("Weaknesses (L-1)"),
            "level": N_("Opposition"),
            "modifier": N_("Modifier"),
            "spend": N_("Motivation points spent (L-12)"),
            "help": N_("Help received (L-11)"),
            "motivation": N_("Motivation"),
            "wound": N_("Wound"),
            "motivation_points": N_("Motivation points"),
            "dead": N_("dead"),
        }
    )

    def checks(self) -> Mapping[str, Check[Any, Any]]:
        return _checks()

    def procedures(self) -> Mapping[str, Procedure[Any, Any]]:
        return _procedures()

    def check_sheet(self, sheet: dict[str, Any], label: str) -> None:
        from meneur.systems.legendes.sheet import hero_from

        hero_from(sheet, label)

    def log_summary(self, kind: str, outcome: Mapping[str, Any]) -> str | None:
        from meneur.systems.legendes.render import log_summary

        return log_summary(kind, outcome)

    def lab_adapter(self) -> object:
        from meneur.systems.legendes.lab_adapter import ADAPTER

        return ADAPTER

    def register_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.legendes.cli import register

        register(groups)

    def register_lab_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.legendes.lab_cli import register

        register(groups)


@cache
def _procedures() -> Mapping[str, Procedure[Any, Any]]:
    from meneur.systems.legendes.procedures import SceneAid, SceneRoll

    return {"scene-roll": SceneRoll(), "scene-aid": SceneAid()}


SYSTEM = LegendesSystem()
