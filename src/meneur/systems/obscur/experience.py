"""Experience (O-40): what raising a trait costs in Vécu, and spending it on a sheet.

Raising a trait by one point costs (new level) x a multiplier by kind of trait (data:
``rules.toml``); raising it several points pays each step. Spending never drives the
Vécu below 0 (O-10's floor holds for every point spent).
"""

from __future__ import annotations

from dataclasses import dataclass

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.obscur.catalog import Kind
from meneur.systems.obscur.sheet import (
    MAX_TRAIT,
    Character,
    add_to_resource,
    set_trait,
    updated,
)
from meneur.systems.obscur.tables import rule_tables


def multiplier(kind: Kind) -> int:
    table = rule_tables().experience
    return {
        Kind.ATTRIBUTE: table.caracteristique,
        Kind.ABILITY: table.capacite,
        Kind.KNOWLEDGE: table.connaissance,
        Kind.SKILL: table.competence,
        Kind.CONTACT: table.contact,
    }[kind]


def raise_cost(kind: Kind, level: int, target: int) -> int:
    """Vécu to go from ``level`` to ``target``: each step costs (new level) x multiplier."""
    if not 0 <= target <= MAX_TRAIT:
        raise LimitError(
            N_("A trait level is 0 to {limit}, not {level}."), limit=MAX_TRAIT, level=target
        )
    if target < level:
        raise RuleError(
            N_("Experience raises a trait; {target} is below its level {level}."),
            target=target,
            level=level,
        )
    return sum(step * multiplier(kind) for step in range(level + 1, target + 1))


@dataclass(frozen=True, slots=True)
class Raise:
    trait: str
    kind: Kind
    level: int
    target: int
    cost: int
    vecu: int

    @property
    def affordable(self) -> bool:
        return self.cost <= self.vecu


def plan_raise(character: Character, name: str, target: int, *, contact: bool = False) -> Raise:
    if contact:
        kind, key = (
            Kind.CONTACT,
            next(
                (k for k in character.sheet.contacts if k.casefold() == name.strip().casefold()),
                name.strip(),
            ),
        )
        if not key:
            raise RuleError(N_("A Contact needs a name."))
    else:
        kind, key = character.find(name)
    level = character.level(kind, key)
    vecu = character.resource("vecu").current
    return Raise(key, kind, level, target, raise_cost(kind, level, target), vecu)


def apply_raise(character: Character, plan: Raise) -> Character:
    """The character after paying for ``plan``; refuses to overdraw the Vécu."""
    if not plan.affordable:
        raise RuleError(
            N_("Not enough Vécu: raising {trait} to {target} costs {cost}, the sheet has {vecu}."),
            trait=plan.trait,
            target=plan.target,
            cost=plan.cost,
            vecu=plan.vecu,
        )

    def change(raw: dict[str, object]) -> None:
        add_to_resource(raw, "vecu", -plan.cost)
        set_trait(raw, plan.kind, plan.trait, plan.target)

    return updated(character, change)
