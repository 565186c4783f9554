"""The Tunnels system as the registry sees it: light on purpose (imported at every start).

Rules, odds, data and commands load lazily, inside :meth:`TunnelsSystem.checks` and
:meth:`TunnelsSystem.procedures` and :meth:`TunnelsSystem.register_cli`.
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
    from meneur.systems.tunnels.rules import TunnelsOppose, TunnelsTest

    return {"test": TunnelsTest(), "oppose": TunnelsOppose()}


@cache
def _procedures() -> dict[str, Procedure[Any, Any]]:
    from meneur.systems.tunnels.chance import TunnelsChance
    from meneur.systems.tunnels.character import TunnelsCreation
    from meneur.systems.tunnels.combat import TunnelsFight

    return {"fight": TunnelsFight(), "create": TunnelsCreation(), "chance": TunnelsChance()}


class TunnelsSystem(System):
    """Tunnels: d6 pools, successes on 4+, explosions on doubles, melee against MR."""

    name = "tunnels"
    aliases = ("tnt", "tunnel")
    title = "Tunnels"
    rule_prefix = "T"
    die_sides = 6
    labels = MappingProxyType(
        {
            "name": N_("Name"),
            "characteristics": N_("Characteristics"),
            "threshold": N_("Threshold"),
            "explode": N_("Explosions"),
            "blessed": N_("blessed"),
            "cursed": N_("cursed"),
            "endurance": N_("Endurance"),
            "mana": N_("Mana"),
            "chance": N_("Chance (T-12)"),
            "wounded": N_("wounded"),
            "dead": N_("dead"),
        }
    )

    def log_summary(self, kind: str, outcome: Mapping[str, Any]) -> str | None:
        """A test (T-3, T-7, T-8), an opposition (T-9), a fight (T-10) or a new character
        (T-1) in words: « échec critique (3 succès sur 2) », « a l'emporte de 1 (2 contre
        1) », « Héros l'emporte après 8 tours », « Pip : Force 2, Dextérité 4... »."""
        from meneur.locale import gettext as _
        from meneur.locale import labelled
        from meneur.systems.log_words import fight_words, opposition_words, test_words

        if kind == "test":
            verdict = (
                _("critical failure")
                if outcome.get("critical")
                else _("exceptional success")
                if outcome.get("exceptional") and outcome.get("passed")
                else None
            )
            return test_words(outcome, "successes", "threshold", verdict)
        if kind == "fight" and "winner" in outcome:
            return fight_words(outcome)
        drawn = outcome.get("characteristics")
        if kind == "character new" and isinstance(drawn, Mapping):  # T-1: what was drawn
            values = ", ".join(f"{name} {value}" for name, value in drawn.items())
            return labelled(str(outcome.get("name", "?")), values)
        return opposition_words(outcome, "successes") if kind == "oppose" else None

    def checks(self) -> Mapping[str, Check[Any, Any]]:
        return _checks()

    def procedures(self) -> Mapping[str, Procedure[Any, Any]]:
        return _procedures()

    def check_sheet(self, sheet: dict[str, Any], label: str) -> None:
        from meneur.systems.tunnels.character import from_dict

        from_dict(sheet, label)  # T-1, T-2: six characteristics, the pools

    def lab_adapter(self) -> object:
        from meneur.systems.tunnels.lab_adapter import ADAPTER

        return ADAPTER

    def register_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.tunnels.cli import register

        register(groups)

    def register_lab_cli(self, groups: CommandGroups) -> None:
        from meneur.systems.tunnels.lab_cli import register

        register(groups)


SYSTEM = TunnelsSystem()
