"""Tunnels rule data (levels, derived-stat formulas, spells), validated at load.

The shipped files live in ``data/``; a user file of the same name in
``$MENEUR_DATA_DIR/tunnels/`` overrides one. A malformed file is a :class:`SheetError`
naming the file, never a traceback.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from meneur.errors import SheetError
from meneur.files import load_data
from meneur.locale import N_
from meneur.model_errors import first_problem, refusal
from meneur.text import fold, is_digits

TRAITS = ("Force", "Dextérité", "Constitution", "Volonté", "Intelligence", "Charisme")
"""The six characteristics (T-1), in the order they are rolled."""
STATS = ("Endurance", "Mana", "Chance")
"""The derived statistics (T-2)."""
MAX_POOL = 10_000
"""The most a derived statistic holds (a sheet's pool, a formula's number)."""


def find_trait(name: str) -> str:
    """The characteristic called ``name``, without regard to case or accents."""
    wanted = fold(name)
    for trait in TRAITS:
        if fold(trait) == wanted:
            return trait
    raise SheetError(
        N_("Unknown characteristic '{name}': choose one of {known}."),
        name=name,
        known=", ".join(TRAITS),
    )


Term = tuple[int, str | None]
"""A term of a formula: a coefficient and a characteristic (``None`` for a constant)."""


def parse_formula(text: str) -> tuple[Term, ...]:
    """``"Force + Constitution"``, ``"2*Force - 1"``... into terms; SheetError if malformed."""
    spaced = text.replace("-", "+-")
    terms: list[Term] = []
    for raw in spaced.split("+"):
        item = raw.strip()
        if not item:
            continue
        sign = 1
        if item.startswith("-"):
            sign, item = -1, item[1:].strip()
        if "*" in item:
            factor, _, name = item.partition("*")
            if not is_digits(factor.strip()):
                raise ValueError(text)
            terms.append((sign * int(factor.strip()), find_trait(name.strip())))
        elif is_digits(item):
            terms.append((sign * int(item), None))
        else:
            terms.append((sign, find_trait(item)))
    if not terms:
        raise ValueError(text)
    return tuple(terms)


class Derived(BaseModel):
    model_config = ConfigDict(extra="forbid")

    house_rule: bool = True
    formulas: dict[str, str]

    @field_validator("formulas")
    @classmethod
    def _formulas(cls, value: dict[str, str]) -> dict[str, str]:
        # the reasons are catalogued (refusal): a French user read « bad formula ... »
        for stat in STATS:
            if stat not in value:
                raise refusal(N_("no formula for {stat}"), stat=stat)
        for stat, formula in value.items():
            unknown = ""
            try:
                terms = parse_formula(formula)
            except SheetError as error:  # a name that is no characteristic: say which
                unknown = str(error.params.get("name", "")).strip()
                terms = ()
            except ValueError:
                terms = ()
            if unknown:
                raise refusal(
                    N_(
                        "the formula {stat} = '{formula}' names '{name}', which is no "
                        "characteristic: choose among {known}"
                    ),
                    stat=stat,
                    formula=formula,
                    name=unknown,
                    known=", ".join(TRAITS),
                )
            if not terms:  # « 2* », « Force * Force », an empty formula
                raise refusal(
                    N_(
                        "the formula {stat} = '{formula}' is not a sum of characteristics "
                        "and whole numbers (such as 2*Force + 1)"
                    ),
                    stat=stat,
                    formula=formula,
                )
            if any(abs(factor) > MAX_POOL for factor, _trait in terms):
                raise refusal(
                    N_("the formula {stat} = '{formula}' holds a number above {most}"),
                    stat=stat,
                    formula=formula,
                    most=MAX_POOL,
                )
        return value


class Levels(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provisional: bool = True
    levels: dict[str, int] = Field(min_length=1)


class Spell(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    cost: int = Field(ge=0, le=100)
    trait: str
    threshold: int = Field(ge=1, le=100)
    effect: str = ""

    @field_validator("trait")
    @classmethod
    def _trait(cls, value: str) -> str:
        try:
            return find_trait(value)
        except SheetError as error:
            raise ValueError(str(error)) from error


class Spells(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provisional: bool = True
    spells: list[Spell]


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    damage: int = Field(ge=0, le=100)


class Armour(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    absorb: int = Field(ge=0, le=100)


class Gear(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provisional: bool = True
    weapons: list[Weapon]
    armours: list[Armour]


def _load(name: str, model: type[BaseModel]) -> Any:
    raw = load_data("tunnels", name)
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        problem = first_problem(error)
        raise SheetError(
            N_("The rule data file tunnels/{name}.toml is invalid at {where}: {reason}"),
            name=name,
            where=problem.where,
            reason=problem.reason,
        ) from None


@cache
def derived() -> Derived:
    result: Derived = _load("derived", Derived)
    return result


@cache
def levels() -> Levels:
    result: Levels = _load("levels", Levels)
    return result


@cache
def spells() -> Spells:
    result: Spells = _load("spells", Spells)
    return result


@cache
def gear() -> Gear:
    result: Gear = _load("gear", Gear)
    return result


def find_weapon(name: str) -> Weapon:
    wanted = fold(name)
    for weapon in gear().weapons:
        if fold(weapon.name) == wanted:
            return weapon
    raise SheetError(
        N_("Unknown weapon '{name}': known weapons are {known}."),
        name=name,
        known=", ".join(w.name for w in gear().weapons),
    )


def find_armour(name: str) -> Armour:
    wanted = fold(name)
    for armour in gear().armours:
        if fold(armour.name) == wanted:
            return armour
    raise SheetError(
        N_("Unknown armour '{name}': known armours are {known}."),
        name=name,
        known=", ".join(a.name for a in gear().armours),
    )


def find_spell(name: str) -> Spell:
    wanted = fold(name)
    table = spells().spells
    for spell in table:
        if fold(spell.name) == wanted:
            return spell
    raise SheetError(
        N_("Unknown spell '{name}': known spells are {known}."),
        name=name,
        known=", ".join(spell.name for spell in table),
    )


def threshold_of(text: str) -> tuple[int, bool]:
    """A threshold typed as a number or a named level (``moyenne``); and if provisional.

    Only ``moyenne`` (2) comes from the text; the other names come from a provisional
    table (T-3).
    """
    cleaned = text.strip()
    if is_digits(cleaned):
        return int(cleaned), False
    wanted = fold(cleaned)
    table = levels()
    for name, value in table.levels.items():
        if fold(name) == wanted:
            return value, table.provisional and fold(name) != "moyenne"
    raise SheetError(
        N_("'{text}' is neither a number nor a level: known levels are {known}."),
        text=cleaned,
        known=", ".join(f"{name} ({value})" for name, value in table.levels.items()),
    )
