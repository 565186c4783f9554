"""The conteur's krâsses (K-5): named modifiers of the difficulty, from ``krasses.toml``.

The file lives under ``data/`` (a user file overrides the shipped one, which defines no
krâsse: the text names them and never says what they are) and is validated with
pydantic, so that a broken user file is one clear :class:`SheetError`, not a wrong roll.
The difficulty ladder (K-3) is in :mod:`meneur.systems.krasses.ladder`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from meneur.errors import SheetError
from meneur.files import load_data
from meneur.locale import N_
from meneur.model_errors import first_problem, refusal
from meneur.systems.krasses.ladder import NAME_TWICE, name_given_twice
from meneur.systems.krasses.rules import TestParams

SYSTEM = "krasses"


class KrasseEntry(BaseModel):
    """A krâsse the conteur defined: a name and what it adds to the difficulty."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    value: int = Field(ge=-TestParams.MAX_VALUE, le=TestParams.MAX_VALUE)
    aliases: tuple[str, ...] = ()
    description: str = ""


class KrasseTable(BaseModel):
    """The conteur's krâsses (none shipped: the text defines none)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    provisional: bool = True
    krasse: tuple[KrasseEntry, ...] = ()

    @field_validator("krasse")
    @classmethod
    def _unique(cls, value: tuple[KrasseEntry, ...]) -> tuple[KrasseEntry, ...]:
        """A name given twice, checked and said as the ladder's (its English reason
        reached French users)."""
        twice = name_given_twice((entry.name, *entry.aliases) for entry in value)
        if twice is not None:
            raise refusal(NAME_TWICE, name=twice[1])
        return value


def _validated(model: type[BaseModel], name: str) -> Any:
    raw = load_data(SYSTEM, name)
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        problem = first_problem(error)
        raise SheetError(
            N_("The Krâsses data file {name}.toml is invalid at {where}: {reason}."),
            name=name,
            where=problem.where,
            reason=problem.reason,
        ) from None


@cache
def krasse_table() -> KrasseTable:
    """The conteur's krâsses (K-5), validated."""
    value: KrasseTable = _validated(KrasseTable, "krasses")
    return value
