"""The Obscur character sheet: traits, resources, and safe updates.

A sheet is a JSON (or TOML) file with ASCII French field names::

    {"system": "obscur", "name": "Isaure",
     "caracteristiques": {"Agilité": 3, "Hargne": 2, ...},
     "capacites": {"Bagarre": 2}, "connaissances": {...}, "competences": {...},
     "contacts": {"Mère Ardoise": 1},
     "ressources": {"vie": {"max": 12, "current": 12}, "vecu": 8, ...}}

It is checked in two steps: pydantic for the shape and the types (a negative trait,
a word where a number belongs...), then against the trait catalogue of O-4 (an
unknown trait, a Capacité with no associated Caractéristique...). Every error names
the field. Updates (Vécu of a Maladresse, a Dépassement paid, experience spent) are
made on the raw document, so fields this module does not know survive, then the whole
new sheet is validated again and written atomically: on any error the file is left
as it was.

Later issues (combat, health, survival) extend :class:`ObscurSheet` with their own
fields; give them defaults so that existing sheets stay valid.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from meneur.errors import RuleError, SheetError
from meneur.files import read_sheet, write_sheet
from meneur.locale import N_
from meneur.systems.obscur.catalog import BASE_OF, KIND_LABELS, Catalog, Kind, catalog
from meneur.systems.obscur.validation import sheet_error
from meneur.text import NAME_LENGTH, fold, plain_name, text_block

if TYPE_CHECKING:
    from meneur.systems.obscur.state import StateData

MAX_TRAIT = 30
MAX_RESOURCE = 100_000
Level = Annotated[int, Field(ge=0, le=MAX_TRAIT)]
RESOURCE_FIELDS = ("vie", "vecu", "volonte", "moral", "encombrement")
RESOURCE_LABELS = {
    "vie": "Vie",
    "vecu": "Vécu",
    "volonte": "Volonté",
    "moral": "Moral",
    "encombrement": "Encombrement",
}


GivenName = Annotated[str, AfterValidator(plain_name)]
"""The character's name, when the sheet gives one: a sheet may leave it out (its file
then names the character), but a name written is a name (``"name": ""`` was taken)."""
ContactName = Annotated[str, Field(max_length=NAME_LENGTH), AfterValidator(plain_name)]
"""A contact (O-4's Contacts, a trait named by the player): shown like the character's
name, so held to the same rules (a control character in it reached the terminal raw)."""


class Resource(BaseModel):
    """A resource: ``current`` points and, for most, a ``max``. A bare number means both."""

    model_config = ConfigDict(extra="forbid", strict=True)

    current: Annotated[int, Field(ge=-MAX_RESOURCE, le=MAX_RESOURCE)]
    max: Annotated[int, Field(ge=0, le=MAX_RESOURCE)] | None = None

    @model_validator(mode="after")
    def _within_max(self) -> Resource:
        if self.max is not None and self.current > self.max:
            raise PydanticCustomError(
                "above_max",
                "current {current} > max {max}",
                {"current": self.current, "max": self.max},
            )
        return self


def _shorthand(value: Any, *, keep_max: bool) -> Any:
    """A bare number as ``{current, max}``; any other bare value (``2.5``, ``"douze"``,
    ``inf``) as ``{current}``, so that the refusal names the number expected where it
    said « a table of fields is expected »."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"current": value, "max": value} if keep_max else {"current": value}
    return value if isinstance(value, dict) else {"current": value}


NEVER_BELOW_ZERO = ("vecu", "volonte", "moral", "encombrement")
"""The resources whose current points never fall below 0: points spent (O-10). Vie may
(O-31: coma, death)."""


class Resources(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    vie: Resource
    vecu: Resource
    volonte: Resource
    moral: Resource
    encombrement: Resource

    @model_validator(mode="before")
    @classmethod
    def _bare_numbers(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: _shorthand(v, keep_max=k != "vecu") for k, v in data.items()}
        return data

    @field_validator(*NEVER_BELOW_ZERO)
    @classmethod
    def _not_below_zero(cls, resource: Resource) -> Resource:
        return _floored(resource)


def _floored(resource: Resource) -> Resource:
    if resource.current < 0:
        raise PydanticCustomError(
            "below_zero", "current {current} < 0", {"current": resource.current}
        )
    return resource


class StateResources(BaseModel):
    """The fields of a stored character's campaign state (``{"vecu": 3}``) that name a
    resource, held to the sheet's own ranges: Vécu, Volonté, Moral and Encombrement
    never below 0 (O-10), Vie may be (O-31). The state's other fields are free notes."""

    model_config = ConfigDict(extra="allow", strict=True)

    vie: Resource | None = None
    vecu: Resource | None = None
    volonte: Resource | None = None
    moral: Resource | None = None
    encombrement: Resource | None = None

    @model_validator(mode="before")
    @classmethod
    def _bare_numbers(cls, data: Any) -> Any:
        """A bare number is the current points alone (the sheet says the maximum)."""
        if isinstance(data, dict):
            return {
                k: _shorthand(v, keep_max=False) if k in RESOURCE_FIELDS else v
                for k, v in data.items()
            }
        return data

    @field_validator(*NEVER_BELOW_ZERO)
    @classmethod
    def _not_below_zero(cls, resource: Resource | None) -> Resource | None:
        return None if resource is None else _floored(resource)


def check_state(state: dict[str, Any], source: str) -> None:
    """:class:`SheetError` naming the resource by its label (« Vécu ») when ``state``
    puts it out of the range its sheet allows: the state's resource fields are the
    sheet's ``ressources``, labelled there, where the path « state.vecu » was shown."""
    try:
        StateResources.model_validate(state)
    except ValidationError as error:
        raise sheet_error(error, source, "ressources") from None


class ObscurSheet(BaseModel):
    """The shape of an Obscur sheet (field names in the file are the aliases)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    system: Literal["obscur"] = "obscur"
    name: GivenName = Field(default="", max_length=NAME_LENGTH)
    attributes: dict[str, Level] = Field(alias="caracteristiques")
    abilities: dict[str, Level] = Field(default_factory=dict, alias="capacites")
    knowledge: dict[str, Level] = Field(alias="connaissances")
    skills: dict[str, Level] = Field(default_factory=dict, alias="competences")
    contacts: dict[ContactName, Level] = Field(default_factory=dict)
    associations: dict[str, str] = Field(default_factory=dict)
    """Extra Capacités/Compétences of this character and their base (O-4)."""
    resources: Resources = Field(alias="ressources")
    notes: Annotated[str, AfterValidator(text_block)] = ""
    equipment: dict[str, Any] = Field(default_factory=dict, alias="equipement")
    """Weapons, armour, shield, survival gear, load (issue 5: validated by ``gear.py``)."""
    state: dict[str, Any] = Field(default_factory=dict, alias="etat")
    """Wounds, Intempéries, maluses, conditions (issue 5: validated by ``state.py``)."""

    def table(self, kind: Kind) -> dict[str, int]:
        return {
            Kind.ATTRIBUTE: self.attributes,
            Kind.ABILITY: self.abilities,
            Kind.KNOWLEDGE: self.knowledge,
            Kind.SKILL: self.skills,
            Kind.CONTACT: self.contacts,
        }[kind]


@dataclass(frozen=True, slots=True)
class TraitPool:
    """What testing one trait rolls (O-4 to O-6)."""

    name: str
    kind: Kind
    value: int
    base_name: str | None
    base_value: int | None

    @property
    def dice(self) -> int:
        return self.value + (self.base_value or 0)

    @property
    def zero_skill(self) -> bool:
        """O-5: a Capacité/Compétence at 0 (testing a Caractéristique alone is exempt)."""
        return self.kind in BASE_OF and self.value == 0

    @property
    def zero_attribute(self) -> bool:
        """O-6: the Caractéristique/Connaissance at 0."""
        return (self.base_value if self.kind in BASE_OF else self.value) == 0


@dataclass
class Character:
    """A validated sheet with the raw document it came from and its catalogue; ``state``
    is its ``etat`` as :class:`~meneur.systems.obscur.state.StateData`, judged with it."""

    sheet: ObscurSheet
    raw: dict[str, Any]
    catalog: Catalog
    state: StateData
    path: Path | None = None

    def find(self, name: str) -> tuple[Kind, str]:
        """The kind and the sheet's spelling of a trait (case and accents ignored)."""
        wanted = fold(name)
        for kind in Kind:
            for key in self.sheet.table(kind):
                if fold(key) == wanted:
                    return kind, key
        trait = self.catalog.find(name)
        if trait is not None:
            return trait.kind, trait.name
        raise SheetError(N_("Unknown trait '{name}' on this sheet."), name=name)

    def level(self, kind: Kind, name: str) -> int:
        return self.sheet.table(kind).get(name, 0)

    def base_of(self, kind: Kind, name: str) -> str:
        for key, base in self.sheet.associations.items():
            if fold(key) == fold(name):
                return base
        trait = self.catalog.find(name)
        if trait is None or trait.base is None:
            raise SheetError(
                N_("The {kind} '{name}' has no associated trait."),
                kind=KIND_LABELS[kind],
                name=name,
            )
        return trait.base

    def pool(self, name: str) -> TraitPool:
        """The dice of a test of ``name``: the trait plus its associated trait (O-4)."""
        kind, key = self.find(name)
        if kind is Kind.CONTACT:
            raise RuleError(N_("A Contact is not tested with dice ('{name}')."), name=key)
        value = self.level(kind, key)
        if kind not in BASE_OF:
            return TraitPool(key, kind, value, None, None)
        base_kind, base = self.find(self.base_of(kind, key))
        return TraitPool(key, kind, value, base, self.level(base_kind, base))

    def resource(self, name: str) -> Resource:
        resource: Resource = getattr(self.sheet.resources, name)
        return resource


def check_against_catalog(sheet: ObscurSheet, known: Catalog, source: str) -> None:
    """Every trait known and in its right place, every association sound (O-4)."""
    custom = {fold(k): v for k, v in sheet.associations.items()}
    for kind in Kind:
        if kind is Kind.CONTACT:
            continue
        for name in sheet.table(kind):
            trait = known.find(name)
            if trait is None and kind in BASE_OF:
                base = custom.get(fold(name))
                if base is None:
                    raise SheetError(
                        N_('{source}: field {field}: no associated {wanted} (see "associations").'),
                        source=source,
                        field=f"{kind.value}.{name}",
                        wanted=KIND_LABELS[BASE_OF[kind]],
                    )
                continue
            if trait is None:
                raise SheetError(
                    N_("{source}: field {field}: unknown trait."),
                    source=source,
                    field=f"{kind.value}.{name}",
                )
            if trait.kind is not kind:
                raise SheetError(
                    N_("{source}: field {field}: '{name}' is a {actual}, not a {wanted}."),
                    source=source,
                    field=f"{kind.value}.{name}",
                    name=trait.name,
                    actual=KIND_LABELS[trait.kind],
                    wanted=KIND_LABELS[kind],
                )
    for kind in (Kind.ATTRIBUTE, Kind.KNOWLEDGE):
        present = {fold(n) for n in sheet.table(kind)}
        for name in known.names(kind):
            if fold(name) not in present:
                raise SheetError(
                    N_("{source}: field {field}: this field is missing."),
                    source=source,
                    field=f"{kind.value}.{name}",
                )
    for name, base in sheet.associations.items():
        owner = next(
            (k for k in (Kind.ABILITY, Kind.SKILL) if fold(name) in map(fold, sheet.table(k))), None
        )
        if owner is None:
            raise SheetError(
                N_("{source}: field {field}: no Capacité or Compétence of that name on the sheet."),
                source=source,
                field=f"associations.{name}",
            )
        target = known.find(base)
        if target is None or target.kind is not BASE_OF[owner]:
            raise SheetError(
                N_("{source}: field {field}: '{base}' is not a known {wanted}."),
                source=source,
                field=f"associations.{name}",
                base=base,
                wanted=KIND_LABELS[BASE_OF[owner]],
            )


def character_from(raw: dict[str, Any], source: str, path: Path | None = None) -> Character:
    """The sheet ``raw`` judged by its model, its ``etat`` too (its wounds' sources were
    stored as typed at the table, escape sequences included, and judged only when the
    sheet was next played), and its traits against the catalogue."""
    from meneur.systems.obscur.state import StateData

    try:
        sheet = ObscurSheet.model_validate(raw, strict=True)
    except ValidationError as error:
        raise sheet_error(error, source) from None
    try:
        state = StateData.model_validate(sheet.state)
    except ValidationError as error:
        raise sheet_error(error, source, "etat") from None
    known = catalog()
    check_against_catalog(sheet, known, source)
    return Character(sheet, raw, known, state, path)


def load_character(path: Path) -> Character:
    return character_from(read_sheet(path), str(path), path)


def _resource_raw(raw: dict[str, Any], name: str) -> tuple[dict[str, Any], str]:
    key = "ressources" if "ressources" in raw else "resources"
    return raw[key], name


def updated(character: Character, change: Callable[[dict[str, Any]], None]) -> Character:
    """A copy of the character after ``change`` on its raw document, validated again."""
    raw = json.loads(json.dumps(character.raw))
    change(raw)
    return character_from(raw, str(character.path or "-"), character.path)


def add_to_resource(raw: dict[str, Any], name: str, delta: int) -> None:
    """Add ``delta`` to a resource's current points in a raw sheet (keeps its form: a bare
    number that does not change stays one, where a fight turned ``volonte = 4`` into a
    table)."""
    if delta == 0:
        return
    table, key = _resource_raw(raw, name)
    value = table[key]
    if isinstance(value, int) and not isinstance(value, bool):
        table[key] = value + delta if name == "vecu" else {"current": value + delta, "max": value}
    else:
        value["current"] = value["current"] + delta


def set_trait(raw: dict[str, Any], kind: Kind, name: str, level: int) -> None:
    raw.setdefault(kind.value, {})[name] = level


def save_character(character: Character) -> None:
    """Write the sheet atomically, in its own format (JSON, or TOML that keeps the user's
    comments and layout)."""
    if character.path is not None:
        write_sheet(character.path, character.raw)
