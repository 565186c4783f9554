"""Weapons, armour, shields and hit zones (O-11, O-13, O-16, O-22), and a sheet's gear.

Weapon classes (and the share of Hargne they add to damage) come from the text; the
weapons, armour pieces, shields and the hit-zone table do not, so they ship as
provisional data (``data/weapons.toml``, ``armour.toml``, ``hit_zones.toml``), editable
and overridable by a user file. A sheet names its gear under ``equipement``::

    [equipement]
    armes = ["Épée"]                       # or an inline weapon {name, class, ...}
    armures = ["Casque", "Veste de cuir"]
    bouclier = "Rondache"
    survie = {rations = 1, vetements = 2}  # O-36 indices
    charge = [{name = "Sac à dos", encombrement = 4}]   # O-42
    tactique = {strategie = "equilibree", ra = 0}       # automatic fighting

Everything is validated when the sheet is used, and every error names the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from meneur.errors import SheetError
from meneur.files import load_data
from meneur.locale import N_
from meneur.model_errors import refusal
from meneur.systems.obscur.validation import sheet_error
from meneur.text import fold

Small = Annotated[int, Field(ge=0, le=30)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _fraction(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise refusal(N_("'{text}' is not a fraction such as 1/2"), text=text) from None
    if value < 0 or value > 5:
        raise refusal(N_("'{text}' is out of range: a fraction from 0 to 5"), text=text)
    return value


class WeaponClass(_Strict):
    skill: str
    hargne: str
    """Share of Hargne added to damage (O-13), as a fraction: "0", "1/2", "1", "3/2"."""
    ranged: bool = False

    @field_validator("hargne")
    @classmethod
    def _check(cls, value: str) -> str:
        _fraction(value)
        return value


class UnarmedData(_Strict):
    name: str = "Mains nues"
    hargne: str = "1/2"
    initiative: int = 0
    defense: Small = 0
    damage: int = 0


class WeaponData(_Strict):
    name: str
    weapon_class: str = Field(alias="class")
    initiative: Annotated[int, Field(ge=-10, le=10)] = 0
    defense: Small = 0
    damage: Annotated[int, Field(ge=-10, le=30)] = 0


class WeaponsFile(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    classes: dict[str, WeaponClass]
    unarmed: UnarmedData = UnarmedData()
    weapons: list[WeaponData] = []


class ArmourData(_Strict):
    name: str
    protection: Small
    zones: list[str]


class ShieldData(_Strict):
    name: str
    protection: Small


class ArmourFile(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    armour: list[ArmourData] = []
    shields: list[ShieldData] = []


class ZoneData(_Strict):
    name: str
    faces: list[Annotated[int, Field(ge=1, le=6)]]


class ZonesFile(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    die: int = 6
    zones: list[ZoneData]


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon in hand: what O-11 and O-13 read from it."""

    name: str
    weapon_class: str
    skill: str | None
    """The Compétence fought with (None: bare hands, Hargne + Bagarre)."""
    hargne_share: Fraction
    initiative: int
    defense: int
    damage: int
    ranged: bool = False

    def hargne_bonus(self, hargne: int) -> int:
        """O-13: the share of Hargne of this class, rounded down (3/2 of 3 is 4)."""
        return int(self.hargne_share * hargne)


@dataclass(frozen=True)
class Armoury:
    """The gear data in force: weapon classes, weapons, armour, shields, zones."""

    weapons_file: WeaponsFile
    armour_file: ArmourFile
    zones_file: ZonesFile

    @property
    def provisional(self) -> bool:
        return (
            self.weapons_file.provisional
            or self.armour_file.provisional
            or self.zones_file.provisional
        )

    def weapon_class(self, name: str) -> tuple[str, WeaponClass]:
        for key, data in self.weapons_file.classes.items():
            if fold(key) == fold(name):
                return key, data
        raise SheetError(
            N_("Unknown weapon class '{name}' (known: {known})."),
            name=str(name),
            known=", ".join(self.weapons_file.classes),
        )

    def build(self, data: WeaponData) -> Weapon:
        key, cls = self.weapon_class(data.weapon_class)
        return Weapon(
            data.name,
            key,
            cls.skill,
            _fraction(cls.hargne),
            data.initiative,
            data.defense,
            data.damage,
            cls.ranged,
        )

    def weapon(self, name: str) -> Weapon:
        for data in self.weapons_file.weapons:
            if fold(data.name) == fold(name):
                return self.build(data)
        raise SheetError(N_("Unknown weapon '{name}'."), name=str(name))

    def unarmed(self) -> Weapon:
        u = self.weapons_file.unarmed
        return Weapon(
            u.name, "", None, _fraction(u.hargne), u.initiative, u.defense, u.damage, False
        )

    def armour(self, name: str) -> ArmourData:
        for data in self.armour_file.armour:
            if fold(data.name) == fold(name):
                return data
        raise SheetError(N_("Unknown armour '{name}'."), name=str(name))

    def shield(self, name: str) -> ShieldData:
        for data in self.armour_file.shields:
            if fold(data.name) == fold(name):
                return data
        raise SheetError(N_("Unknown shield '{name}'."), name=str(name))

    def zone_of(self, face: int) -> str:
        for zone in self.zones_file.zones:
            if face in zone.faces:
                return zone.name
        return self.zones_file.zones[0].name


def _load(model: type[BaseModel], name: str) -> Any:
    try:
        return model.model_validate(load_data("obscur", name))
    except ValidationError as error:
        raise sheet_error(error, f"obscur/data/{name}.toml") from None


def build_armoury(weapons: WeaponsFile, armour: ArmourFile, zones: ZonesFile) -> Armoury:
    armoury = Armoury(weapons, armour, zones)
    for data in weapons.weapons:
        armoury.build(data)  # every shipped weapon names a known class
    faces = sorted(f for zone in zones.zones for f in zone.faces)
    if faces != list(range(1, zones.die + 1)):
        raise SheetError(
            N_("obscur/data/hit_zones.toml: each face 1 to {die} must name exactly one zone."),
            die=zones.die,
        )
    return armoury


@cache
def armoury() -> Armoury:
    return build_armoury(
        _load(WeaponsFile, "weapons"), _load(ArmourFile, "armour"), _load(ZonesFile, "hit_zones")
    )


# --- a sheet's gear -------------------------------------------------------------------


class InlineWeapon(_Strict):
    name: str
    weapon_class: str = Field(alias="class")
    initiative: Annotated[int, Field(ge=-10, le=10)] = 0
    defense: Small = 0
    damage: Annotated[int, Field(ge=-10, le=30)] = 0


class Load(_Strict):
    name: str
    encombrement: Annotated[int, Field(ge=0, le=1000)]


class Tactics(_Strict):
    strategie: str = "equilibree"
    ra: Annotated[int, Field(ge=0, le=30)] = 0
    """Points of Gardien du feu moved to the Rang d'Action each round (O-11)."""
    fuite: Annotated[int, Field(ge=-100, le=1000)] | None = None
    """Try to disengage (O-19) once current Vie is at or below this (None: never)."""
    coup: str | None = None
    """A coup spécial tried with every attack (O-22, data/special_blows.toml)."""


class Survival(_Strict):
    rations: Small = 0
    vetements: Small = 0
    eclairage: Small = 0
    distillateurs: Small = 0
    filtres: Small = 0


class Equipment(_Strict):
    armes: list[str | InlineWeapon] = []
    armures: list[str] = []
    bouclier: str | None = None
    survie: Survival = Survival()
    charge: list[Load] = []
    tactique: Tactics = Tactics()


@dataclass(frozen=True, slots=True)
class Kit:
    """The gear a character fights and travels with, resolved against the data."""

    weapons: tuple[Weapon, ...]
    armour: dict[str, int]
    """Protection by zone (pieces covering the same zone add up)."""
    shield: ShieldData | None
    survival: Survival
    load: tuple[Load, ...]
    tactics: Tactics

    @property
    def shield_protection(self) -> int:
        return self.shield.protection if self.shield else 0


def equipment_of(raw: dict[str, Any], source: str) -> Equipment:
    try:
        return Equipment.model_validate(raw)
    except ValidationError as error:
        raise sheet_error(error, source, within="equipement") from None


def kit_of(raw: dict[str, Any], source: str = "-") -> Kit:
    """The kit of a sheet's ``equipement`` table (an unknown name is a SheetError)."""
    equipment = equipment_of(raw, source)
    arms = armoury()
    weapons: list[Weapon] = []
    for item in equipment.armes:
        if isinstance(item, str):
            weapons.append(arms.weapon(item))
        else:
            weapons.append(
                arms.build(
                    WeaponData.model_validate(
                        {
                            "name": item.name,
                            "class": item.weapon_class,
                            "initiative": item.initiative,
                            "defense": item.defense,
                            "damage": item.damage,
                        }
                    )
                )
            )
    protection: dict[str, int] = {}
    known_zones = {fold(z.name): z.name for z in arms.zones_file.zones}
    for name in equipment.armures:
        piece = arms.armour(name)
        for zone in piece.zones:
            key = known_zones.get(fold(zone), zone)
            protection[key] = protection.get(key, 0) + piece.protection
    shield = arms.shield(equipment.bouclier) if equipment.bouclier else None
    return Kit(
        tuple(weapons),
        protection,
        shield,
        equipment.survie,
        tuple(equipment.charge),
        equipment.tactique,
    )
