"""The Krâsses rule data: the difficulty ladder (K-3) and the conteur's krâsses (K-5).

Both live in TOML under ``data/`` (a user file overrides the shipped one) and are
validated here with pydantic, so that a broken user file is one clear :class:`SheetError`
rather than a wrong roll.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from meneur.errors import SheetError, UsageError
from meneur.files import load_data
from meneur.locale import N_
from meneur.systems.krasses.rules import Difficulty
from meneur.text import fold

SYSTEM = "krasses"
MAX_VALUE = 1_000_000
"""Bound on every bonus, modifier and difficulty ("any integer", but a bounded one)."""


class Level(BaseModel):
    """One rung of the ladder: ``Moyen`` is 15."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    value: int = Field(ge=-MAX_VALUE, le=MAX_VALUE)
    aliases: tuple[str, ...] = ()


class Ladder(BaseModel):
    """The whole ladder: its levels and the names of *Automatique* (no roll)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    automatic: tuple[str, ...] = ("automatique",)
    level: tuple[Level, ...] = Field(min_length=1)
    provisional: bool = False


class KrasseEntry(BaseModel):
    """A krâsse the conteur defined: a name and what it adds to the difficulty."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    value: int = Field(ge=-MAX_VALUE, le=MAX_VALUE)
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
        seen: set[str] = set()
        for entry in value:
            for name in (entry.name, *entry.aliases):
                if fold(name) in seen:
                    raise ValueError(f"the krâsse name {name!r} is given twice")
                seen.add(fold(name))
        return value


def _validated(model: type[BaseModel], name: str) -> Any:
    raw = load_data(SYSTEM, name)
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "-"
        raise SheetError(
            N_("The Krâsses data file {name}.toml is invalid at {where}: {reason}."),
            name=name,
            where=where,
            reason=first["msg"],
        ) from None


@cache
def ladder() -> Ladder:
    """The difficulty ladder (K-3), validated."""
    value: Ladder = _validated(Ladder, "difficulties")
    return value


@cache
def krasse_table() -> KrasseTable:
    """The conteur's krâsses (K-5), validated."""
    value: KrasseTable = _validated(KrasseTable, "krasses")
    return value


def level_names() -> list[str]:
    """The typed names of the ladder, for messages (``tres-facile, facile...``)."""
    table = ladder()
    return [fold(table.automatic[0]), *(fold(level.name) for level in table.level)]


def parse_difficulty(text: str) -> Difficulty:
    """A whole number, or a name of the ladder in French or English (K-3)."""
    cleaned = str(text).strip()
    digits = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if digits.isdigit():
        if len(digits) > 7 or abs(int(cleaned)) > MAX_VALUE:
            raise UsageError(N_("A difficulty lies between -{limit} and {limit}."), limit=MAX_VALUE)
        return Difficulty(int(cleaned))
    wanted = fold(cleaned)
    table = ladder()
    if wanted in {fold(name) for name in table.automatic}:
        return Difficulty(None, table.automatic[0].capitalize())
    for level in table.level:
        if wanted in {fold(level.name), *map(fold, level.aliases)}:
            return Difficulty(level.value, level.name)
    raise UsageError(
        N_("Unknown difficulty '{name}': give a whole number or one of {known}."),
        name=cleaned[:40],
        known=", ".join(level_names()),
    )


def name_of(value: int) -> str | None:
    """The ladder's name for ``value``, if it is a rung (``15`` is *Moyen*)."""
    for level in ladder().level:
        if level.value == value:
            return level.name
    return None


def parse_krasse(text: str) -> tuple[str, int]:
    """A krâsse: ``NAME`` from the conteur's data, ``NAME:VALUE`` inline, or a bare ``VALUE``."""
    cleaned = str(text).strip()
    name, sep, amount = cleaned.rpartition(":")
    if not sep:
        name, amount = "", cleaned
    digits = amount.strip()
    digits = digits[1:] if digits[:1] in "+-" else digits
    if digits.isdigit():
        if len(digits) > 7 or abs(int(amount)) > MAX_VALUE:
            raise UsageError(N_("A krâsse lies between -{limit} and {limit}."), limit=MAX_VALUE)
        return (name.strip()[:60] or "krâsse", int(amount))
    if sep:
        raise UsageError(
            N_("A krâsse is NAME, NAME:VALUE or VALUE (such as 'pluie:+5'), not '{text}'."),
            text=cleaned[:40],
        )
    wanted = fold(cleaned)
    table = krasse_table()
    for entry in table.krasse:
        if wanted in {fold(entry.name), *map(fold, entry.aliases)}:
            return (entry.name, entry.value)
    known = ", ".join(entry.name for entry in table.krasse)
    raise UsageError(
        N_(
            "Unknown krâsse '{name}': give its value as NAME:VALUE (such as 'pluie:+5') "
            "or define it in krasses.toml (known: {known})."
        ),
        name=cleaned[:40],
        known=known or "-",
    )
