"""Obscur rule numbers read from ``data/``: Dépassement tiers, experience, acquisition.

The numbers of O-10, O-40 and O-41 live in TOML so that a table can change them (or
override the provisional distance table of O-41) without touching code; they are
validated at load and cached.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from meneur.files import load_data
from meneur.systems.obscur.validation import sheet_error

ResourceName = Literal["vecu", "volonte", "moral"]
Tier3 = Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=3, max_length=3)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DepassementTable(_Strict):
    tier_costs: Tier3
    extra_dice: Tier3
    reroll_up_to: Annotated[
        list[Annotated[int, Field(ge=1, le=3)]], Field(min_length=3, max_length=3)
    ]
    margin: Tier3
    payment_order: list[ResourceName]

    @model_validator(mode="after")
    def _increasing(self) -> DepassementTable:
        if sorted(set(self.tier_costs)) != self.tier_costs:
            raise ValueError("tier_costs must increase")
        if sorted(set(self.payment_order)) != sorted(self.payment_order) or not self.payment_order:
            raise ValueError("payment_order must list each resource once")
        return self


class Options(_Strict):
    single_resource: bool = False
    margin_counts_as_successes: bool = False


class ExperienceTable(_Strict):
    caracteristique: Annotated[int, Field(ge=0)]
    capacite: Annotated[int, Field(ge=0)]
    connaissance: Annotated[int, Field(ge=0)]
    competence: Annotated[int, Field(ge=0)]
    contact: Annotated[int, Field(ge=0)]
    fumble_reward: Annotated[int, Field(ge=0)] = 1


class RuleTables(_Strict):
    depassement: DepassementTable
    options: Options = Options()
    experience: ExperienceTable


class DistanceRow(_Strict):
    level: Annotated[int, Field(ge=0)]
    label: str
    rarity_bonus: Annotated[int, Field(ge=0)]


class AcquisitionTable(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    dice: Annotated[int, Field(ge=1, le=20)] = 3
    distance: Annotated[list[DistanceRow], Field(min_length=1)]

    @model_validator(mode="after")
    def _levels(self) -> AcquisitionTable:
        levels = [row.level for row in self.distance]
        if levels != list(range(len(levels))):
            raise ValueError("distance levels must be 0, 1, 2... in order")
        return self


@cache
def rule_tables() -> RuleTables:
    try:
        return RuleTables.model_validate(load_data("obscur", "rules"))
    except ValidationError as error:
        raise sheet_error(error, "obscur/data/rules.toml") from None


@cache
def acquisition_table() -> AcquisitionTable:
    try:
        return AcquisitionTable.model_validate(load_data("obscur", "acquisition"))
    except ValidationError as error:
        raise sheet_error(error, "obscur/data/acquisition.toml") from None
