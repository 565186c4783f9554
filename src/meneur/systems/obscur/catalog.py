"""The Obscur traits and their associations (O-4), read from ``data/traits.toml``.

Which Caractéristique goes with which Capacité (and Connaissance with Compétence) is
rule data, not code: a table may rename or add traits. The file is validated at load,
so a broken association is reported once, naming the trait, rather than surfacing as a
strange dice pool later.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from pydantic import BaseModel, ConfigDict, ValidationError

from meneur.errors import SheetError
from meneur.files import load_data
from meneur.locale import N_
from meneur.systems.obscur.validation import sheet_error
from meneur.text import fold


class Kind(StrEnum):
    """The five kinds of traits of a sheet (their sheet field names, ASCII French)."""

    ATTRIBUTE = "caracteristiques"
    ABILITY = "capacites"
    KNOWLEDGE = "connaissances"
    SKILL = "competences"
    CONTACT = "contacts"


KIND_LABELS: dict[Kind, str] = {
    Kind.ATTRIBUTE: N_("Caractéristique"),
    Kind.ABILITY: N_("Capacité"),
    Kind.KNOWLEDGE: N_("Connaissance"),
    Kind.SKILL: N_("Compétence"),
    Kind.CONTACT: N_("Contact"),
}

BASE_OF: dict[Kind, Kind] = {Kind.ABILITY: Kind.ATTRIBUTE, Kind.SKILL: Kind.KNOWLEDGE}
"""A Capacité is tested with a Caractéristique, a Compétence with a Connaissance."""


class _TraitsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provisional: bool = False
    caracteristiques: list[str]
    connaissances: list[str]
    capacites: dict[str, str]
    competences: dict[str, str]


@dataclass(frozen=True, slots=True)
class Trait:
    name: str
    kind: Kind
    base: str | None
    """The associated Caractéristique/Connaissance (None for those two kinds)."""


@dataclass(frozen=True)
class Catalog:
    """Every known trait by folded name."""

    traits: dict[str, Trait]

    def find(self, name: str) -> Trait | None:
        return self.traits.get(fold(name))

    def names(self, kind: Kind) -> list[str]:
        return [t.name for t in self.traits.values() if t.kind is kind]


def build_catalog(raw: dict[str, object], source: str = "obscur/data/traits.toml") -> Catalog:
    """Validate the traits data and index it; every inconsistency names the trait."""
    try:
        data = _TraitsFile.model_validate(raw)
    except ValidationError as error:
        raise sheet_error(error, source) from None
    traits: dict[str, Trait] = {}

    def add(trait: Trait) -> None:
        key = fold(trait.name)
        if not key:
            raise SheetError(N_("{source}: a trait has an empty name."), source=source)
        if key in traits:
            raise SheetError(
                N_("{source}: the trait '{name}' is listed twice."), source=source, name=trait.name
            )
        traits[key] = trait

    for name in data.caracteristiques:
        add(Trait(name, Kind.ATTRIBUTE, None))
    for name in data.connaissances:
        add(Trait(name, Kind.KNOWLEDGE, None))
    for kind, table in ((Kind.ABILITY, data.capacites), (Kind.SKILL, data.competences)):
        for name, base in table.items():
            target = traits.get(fold(base))
            if target is None or target.kind is not BASE_OF[kind]:
                raise SheetError(
                    N_("{source}: '{name}' is associated with '{base}', not a known {wanted}."),
                    source=source,
                    name=name,
                    base=base,
                    wanted=KIND_LABELS[BASE_OF[kind]],
                )
            add(Trait(name, kind, target.name))
    return Catalog(traits)


@cache
def catalog() -> Catalog:
    """The traits data in force (the user's override if present), validated once."""
    return build_catalog(load_data("obscur", "traits"))
