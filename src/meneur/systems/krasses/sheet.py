"""A Krâsses character sheet: characteristics, skills with levels, advantages, equipment.

K-1: a roll adds "the score of a skill, an advantage or a characteristic"; K-5: temporary
bonuses from advantages and equipment add to the total; K-6: a skill the character has no
level in is still rolled, with no bonus. :func:`trait_roll` turns a sheet and a name into
exactly that: the bonus rolled, the level, and the modifiers that apply.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from meneur.errors import SheetError
from meneur.files import read_sheet
from meneur.locale import N_
from meneur.model_errors import first_problem, refusal
from meneur.systems.krasses.rules import TRAIT_NAME
from meneur.text import NAME_LENGTH, bounded_name, fold, plain_name

MAX_SCORE = 1000
CHARACTERISTIC = (-MAX_SCORE, MAX_SCORE)
"""The score a characteristic takes (the sheet's validator and the table's form read it)."""
LEVEL = (0, MAX_SCORE)
"""The level a skill takes."""


def _unique_names(names: list[str], twice: str) -> None:
    """Refuse a name given twice (accents and case ignored); ``twice`` is the message."""
    seen: set[str] = set()
    for name in names:
        folded = fold(name)
        if folded in seen:
            raise refusal(twice, name=name)
        seen.add(folded)


def _apart(names: Iterable[str], others: Iterable[str], both: str) -> None:
    """Refuse a name that an earlier section of the sheet also holds, compared as
    :func:`trait_roll` looks a name up (folded): a roll is asked for by name and takes
    the skill, else the advantage, else the characteristic, so the other of the two
    could never be rolled. ``both`` is the message, naming the two sections."""
    taken = {fold(other) for other in others}
    for name in names:
        if fold(name) in taken:
            raise refusal(both, name=name)


PlainName = Annotated[str, AfterValidator(plain_name)]
"""A name shown in the terminal: no square brackets (see :mod:`meneur.text`)."""


TraitName = Annotated[
    str,
    AfterValidator(
        bounded_name(TRAIT_NAME, N_("a name has 1 to {limit} characters, not only spaces"))
    ),
]
"""A trait's name on the sheet (a skill, what an advantage applies to), held to the rule
of a typed one: a roll is asked for by typing it (:func:`meneur.text.bounded_name`)."""


class Advantage(BaseModel):
    """An *atout*: a score that may be rolled, and/or a bonus to some rolls (K-5)."""

    model_config = ConfigDict(extra="forbid")

    name: TraitName
    score: int = Field(default=0, ge=-MAX_SCORE, le=MAX_SCORE)
    bonus: int = Field(default=0, ge=-MAX_SCORE, le=MAX_SCORE)
    applies_to: list[TraitName] = Field(default_factory=list, max_length=50)


class Equipment(BaseModel):
    """A piece of equipment: a bonus (or malus) to the rolls it applies to (K-5)."""

    model_config = ConfigDict(extra="forbid")

    name: TraitName
    bonus: int = Field(default=0, ge=-MAX_SCORE, le=MAX_SCORE)
    applies_to: list[TraitName] = Field(default_factory=list, max_length=50)


class KrassesSheet(BaseModel):
    """A hero of Krâsses. Skills map a name to a level (its score when rolled)."""

    model_config = ConfigDict(extra="forbid")

    system: Literal["krasses"] = "krasses"
    name: PlainName = Field(min_length=1, max_length=NAME_LENGTH)
    characteristics: dict[TraitName, int] = Field(default_factory=dict, max_length=50)
    skills: dict[TraitName, int] = Field(default_factory=dict, max_length=200)
    advantages: list[Advantage] = Field(default_factory=list, max_length=100)
    equipment: list[Equipment] = Field(default_factory=list, max_length=200)

    @field_validator("characteristics")
    @classmethod
    def _characteristics(cls, value: dict[str, int]) -> dict[str, int]:
        _unique_names(list(value), N_("the characteristic '{name}' is listed twice"))
        for name, score in value.items():
            if not CHARACTERISTIC[0] <= score <= CHARACTERISTIC[1]:
                raise refusal(
                    N_("the characteristic '{name}' must be from -{limit} to {limit}"),
                    name=name,
                    limit=MAX_SCORE,
                )
        return value

    @field_validator("skills")
    @classmethod
    def _skills(cls, value: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        _unique_names(list(value), N_("the skill '{name}' is listed twice"))
        _apart(
            value,
            info.data.get("characteristics", {}),
            N_(
                "'{name}' is both a skill and a characteristic: a roll asked by that name "
                "cannot tell them apart, rename one"
            ),
        )
        for name, level in value.items():
            if not LEVEL[0] <= level <= LEVEL[1]:
                raise refusal(
                    N_("the level of '{name}' must be from 0 to {limit}"),
                    name=name,
                    limit=MAX_SCORE,
                )
        return value

    @field_validator("advantages")
    @classmethod
    def _advantages(cls, value: list[Advantage], info: ValidationInfo) -> list[Advantage]:
        names = [a.name for a in value]
        _unique_names(names, N_("the advantage '{name}' is listed twice"))
        _apart(
            names,
            info.data.get("skills", {}),
            N_(
                "'{name}' is both an advantage and a skill: a roll asked by that name "
                "cannot tell them apart, rename one"
            ),
        )
        _apart(
            names,
            info.data.get("characteristics", {}),
            N_(
                "'{name}' is both an advantage and a characteristic: a roll asked by that "
                "name cannot tell them apart, rename one"
            ),
        )
        return value


@dataclass(frozen=True, slots=True)
class TraitRoll:
    """What a sheet rolls for one name: the bonus, the level, and the modifiers (K-5, K-6)."""

    name: str
    source: Literal["skill", "advantage", "characteristic", "none"]
    bonus: int
    level: int
    modifiers: tuple[tuple[str, int], ...]

    @property
    def modifier(self) -> int:
        return sum(value for _, value in self.modifiers)


def load_sheet(path: Path) -> KrassesSheet:
    """Read and validate a Krâsses sheet (JSON or TOML)."""
    return validated(read_sheet(path), str(path))


def validated(data: dict[str, Any], path: str) -> KrassesSheet:
    """``data`` as a sheet, or one :class:`SheetError` naming ``path`` and the first fault."""
    try:
        return KrassesSheet.model_validate(data, strict=True)
    except ValidationError as error:
        from meneur.systems.krasses.system import SYSTEM

        problem = first_problem(error)
        raise SheetError(
            N_("The sheet {path} is invalid at {where}: {reason}."),
            path=path,
            where=SYSTEM.field_name(problem.where),
            reason=problem.reason,
        ) from None


def trait_roll(sheet: KrassesSheet, name: str) -> TraitRoll:
    """The roll of ``name`` on ``sheet``: a skill, else an advantage, else a characteristic
    (a valid sheet never gives one name to two of them).

    A name the sheet does not hold is a skill with no level: rolled with no bonus (K-6).
    Every advantage and piece of equipment whose ``applies_to`` names it adds its bonus.
    """
    wanted = fold(name)
    items: list[Advantage | Equipment] = [*sheet.advantages, *sheet.equipment]
    modifiers = tuple(
        (item.name, item.bonus)
        for item in items
        if item.bonus and wanted in {fold(target) for target in item.applies_to}
    )
    for skill, level in sheet.skills.items():
        if fold(skill) == wanted:
            return TraitRoll(skill, "skill", level, level, modifiers)
    for advantage in sheet.advantages:
        if fold(advantage.name) == wanted:
            return TraitRoll(advantage.name, "advantage", advantage.score, 0, modifiers)
    for characteristic, score in sheet.characteristics.items():
        if fold(characteristic) == wanted:
            return TraitRoll(characteristic, "characteristic", score, 0, modifiers)
    return TraitRoll(name.strip()[:60], "none", 0, 0, modifiers)
