"""Tunnels characters: random creation (T-1), derived statistics (T-2), the sheet file.

Creation rolls one d6 per characteristic from the dice source it is given (so seeded and
typed dice work as for any roll): 1-2 gives 2, 3-4 gives 3, 5-6 gives 4, one chance in
three each (T-1). Endurance, Mana and Chance follow from formulas in ``data/derived.toml``
(T-2, a house rule: the text gives none).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from meneur.errors import RuleError, SheetError
from meneur.files import read_sheet, write_sheet
from meneur.locale import N_
from meneur.model_errors import first_problem, refusal
from meneur.rng import DiceSource
from meneur.systems.base import FaceReader, Procedure
from meneur.systems.tunnels.data import (
    MAX_POOL,
    STATS,
    TRAITS,
    derived,
    find_trait,
    parse_formula,
)
from meneur.text import NAME_LENGTH, plain_name


def trait_from_face(face: int) -> int:
    """A d6 face as a characteristic from {2, 3, 4}, uniformly (T-1)."""
    if not 1 <= face <= 6:
        raise RuleError(N_("The face {face} is impossible on a d6."), face=face)
    return (face + 1) // 2 + 1


def derive(characteristics: dict[str, int]) -> dict[str, int]:
    """Endurance, Mana and Chance from the formulas of the data file (T-2).

    A formula is the user's (T-2: formulas are data), so what it gives this character is
    checked, never clamped: an Endurance below 1 would make a character born at the 0 of
    T-11 (already wounded), a Mana or Chance below 0 a debt, and a value above
    ``MAX_POOL`` a sheet no command reads back. SheetError naming the file and formula.
    """
    stats: dict[str, int] = {}
    for stat in STATS:
        formula = derived().formulas[stat]
        total = 0
        for factor, trait in parse_formula(formula):
            total += factor * (characteristics[trait] if trait else 1)
        least = 1 if stat == "Endurance" else 0
        if not least <= total <= MAX_POOL:
            raise SheetError(
                N_(
                    "The rule data file tunnels/derived.toml gives this character "
                    "{stat} {value} ({stat} = {formula}): {stat} must lie from {least} to "
                    "{most}; change the formula."
                )
                if total > MAX_POOL or stat != "Endurance"
                else N_(
                    "The rule data file tunnels/derived.toml gives this character "
                    "Endurance {value} (Endurance = {formula}): Endurance starts at 1 at "
                    "least, at 0 a character would already be wounded (T-11); change the "
                    "formula."
                ),
                stat=stat,
                value=total,
                formula=formula,
                least=least,
                most=MAX_POOL,
            )
        stats[stat] = total
    return stats


PlainName = Annotated[str, AfterValidator(plain_name)]
"""A name shown in the terminal: no square brackets (see :mod:`meneur.text`)."""


class Pool(BaseModel):
    """A statistic that varies in play: its current value and its maximum.

    The maximum is a cap: a wounded character « recovers full Endurance » (T-11), not
    more, so a sheet above it is refused, as Obscur refuses its resources above theirs.
    """

    model_config = ConfigDict(extra="forbid")

    current: int = Field(ge=0, le=MAX_POOL)
    max: int = Field(ge=0, le=MAX_POOL)

    @model_validator(mode="after")
    def _within_max(self) -> Pool:
        if self.current > self.max:  # say the values and the way out, not only the fault
            raise refusal(
                N_(
                    "the current value, {current}, is above the maximum, {max}; lower it or "
                    "raise the maximum"
                ),
                current=self.current,
                max=self.max,
            )
        return self


class Sheet(BaseModel):
    """A Tunnels character sheet, as stored in JSON."""

    model_config = ConfigDict(extra="forbid")

    system: str = "tunnels"
    name: PlainName = Field(min_length=1, max_length=NAME_LENGTH)
    characteristics: dict[str, int]
    endurance: Pool
    mana: Pool
    chance: Pool
    wounded: bool = False
    dead: bool = False

    @field_validator("system")
    @classmethod
    def _system(cls, value: str) -> str:
        if value != "tunnels":
            raise refusal(N_("a Tunnels sheet, not a '{system}' one"), system=value)
        return value

    @field_validator("characteristics")
    @classmethod
    def _traits(cls, value: dict[str, int]) -> dict[str, int]:
        fixed: dict[str, int] = {}
        for name, score in value.items():
            try:
                trait = find_trait(name)
            except SheetError as error:
                raise refusal(error.message, **error.params) from error
            if not 0 <= score <= 100:
                raise refusal(N_("{trait} must lie between 0 and 100"), trait=trait)
            fixed[trait] = score
        missing = [t for t in TRAITS if t not in fixed]
        if missing:
            raise refusal(N_("missing {traits}"), traits=", ".join(missing))
        return {t: fixed[t] for t in TRAITS}

    def trait(self, name: str) -> tuple[str, int]:
        """The characteristic a test rolls, by name (``dexterite`` finds Dextérité), and
        its value; RuleError if the character is dead (T-11), refused here so that the
        CLI and the table refuse it alike."""
        if self.dead:
            raise RuleError(
                N_("{name} is dead (T-11): the sheet rolls no more tests."), name=self.name
            )
        trait = find_trait(name)
        return trait, self.characteristics[trait]


@dataclass(frozen=True, slots=True)
class CreationParams:
    """Random creation (T-1): one die per characteristic, read by :func:`trait_from_face`."""


class TunnelsCreation(Procedure[CreationParams, tuple[int, ...]]):
    """The characteristics of a random character (T-1), in the order of ``TRAITS``.

    A procedure like any roll, so that the roll log stores it replayably.
    """

    name = "create"
    die_sides = 6

    def streams(self, params: CreationParams) -> int:
        return 1

    def run(self, params: CreationParams, reader: FaceReader) -> tuple[int, ...]:
        return tuple(trait_from_face(face) for face in reader.take(len(TRAITS)))

    def key(self, outcome: tuple[int, ...]) -> Hashable:
        return outcome

    def examples(self) -> Sequence[CreationParams]:
        return (CreationParams(),)

    def to_json(self, params: CreationParams, outcome: tuple[int, ...]) -> dict[str, Any]:
        return {"system": "tunnels", "characteristics": dict(zip(TRAITS, outcome, strict=True))}


def create(name: str, source: DiceSource) -> Sheet:
    """A random character (T-1) with its derived statistics (T-2) at their maximum."""
    drawn = TunnelsCreation().roll(CreationParams(), [source]).outcome
    characteristics = dict(zip(TRAITS, drawn, strict=True))
    stats = derive(characteristics)
    return Sheet(
        name=name,
        characteristics=characteristics,
        endurance=Pool(current=stats["Endurance"], max=stats["Endurance"]),
        mana=Pool(current=stats["Mana"], max=stats["Mana"]),
        chance=Pool(current=stats["Chance"], max=stats["Chance"]),
    )


def check_name(name: str) -> str:
    cleaned = name.strip()
    if not cleaned or len(cleaned) > NAME_LENGTH:
        raise SheetError(
            N_("A character's name has from 1 to {limit} characters, not {length}."),
            limit=NAME_LENGTH,
            length=len(cleaned),
        )
    try:  # the sheet's own rule for a name (brackets, tabs, line breaks), said once
        return plain_name(cleaned)
    except ValueError as refused:
        raise SheetError(N_("A character's name: {reason}."), reason=refused.args[0]) from None


def load(path: Path) -> Sheet:
    """A sheet from a JSON (or TOML) file; SheetError naming the file if malformed."""
    data = read_sheet(path)
    return from_dict(data, str(path))


def from_dict(data: dict[str, Any], where: str) -> Sheet:
    try:
        return Sheet.model_validate(data, strict=True)
    except ValidationError as error:
        from meneur.systems.tunnels.system import SYSTEM

        problem = first_problem(error)
        raise SheetError(
            N_("The sheet {path} is not a valid Tunnels sheet ({field}: {reason})."),
            path=where,
            field=SYSTEM.field_name(problem.where),
            reason=problem.reason,
        ) from None


def save(path: Path, sheet: Sheet) -> None:
    """Write the sheet atomically (never half-written)."""
    write_sheet(path, sheet.model_dump())
