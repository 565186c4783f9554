"""The Krâsses system as the registry sees it: light on purpose (imported at every start).

Rules, odds, data and commands load lazily, inside :meth:`KrassesSystem.checks` and
:meth:`KrassesSystem.register_cli`, so that ``meneur --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from meneur.locale import N_
from meneur.systems.base import Check, CommandGroups, System


@cache
def _checks() -> dict[str, Check[Any, Any]]:
    from meneur.systems.krasses.rules import KrassesCooperate, KrassesOppose, KrassesTest

    return {"test": KrassesTest(), "oppose": KrassesOppose(), "cooperate": KrassesCooperate()}


class KrassesSystem(System):
    """Krâsses: d20 + bonus against a difficulty set by the conteur, naturals 1 and 20."""

    name = "krasses"
    aliases = ("krasse", "k20")
    title = "Krâsses"
    rule_prefix = "K"
    die_sides = 20
    labels = MappingProxyType(
        {
            "name": N_("Name"),
            "difficulty": N_("Difficulty (K-3)"),
            "modifier": N_("Modifier"),
            "characteristics": N_("Characteristics"),
            "skills": N_("Skills"),
            "advantages": N_("Advantages"),
            "equipment": N_("Equipment"),
        }
    )

    def log_summary(self, kind: str, outcome: Mapping[str, Any]) -> str | None:
        from meneur.systems.krasses.render import log_summary

        return log_summary(kind, outcome)

    def checks(self) -> Mapping[str, Check[Any, Any]]:
        return _checks()

    def check_sheet(self, sheet: dict[str, Any], label: str) -> None:
        from meneur.systems.krasses.sheet import validated

        validated(sheet, label)

    def lab_adapter(self) -> object:
        from meneur.systems.krasses.lab_adapter import ADAPTER

        return ADAPTER

    def register_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.krasses.cli import register

        register(groups)

    def register_lab_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.krasses.lab_cli import register

        register(groups)


SYSTEM = KrassesSystem()
