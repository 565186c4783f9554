"""The difficulty and what moves it: the ladder of K-3 and the krâsses of K-5.

The ladder is read from ``data/difficulties.toml`` (a user file overrides it).

Every ``meneur test krasses`` shows the ladder's name of its difficulty, so this module
stays light: the small schema is checked by hand instead of through pydantic (whose
import alone would double the command's start-up time). A malformed user file is still
one clear :class:`SheetError` naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from meneur.errors import SheetError, UsageError
from meneur.files import load_data
from meneur.locale import N_
from meneur.model_errors import Phrase
from meneur.systems.krasses.rules import Difficulty, TestParams
from meneur.text import fold, has_control, is_digits

MAX_NAME = 60


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder: ``Moyen`` is 15."""

    name: str
    value: int
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> set[str]:
        return {fold(self.name), *map(fold, self.aliases)}


@dataclass(frozen=True, slots=True)
class Ladder:
    """The whole ladder: its levels and the names of *Automatique* (no roll)."""

    automatic: tuple[str, ...]
    levels: tuple[Level, ...]
    provisional: bool = False


NAME_TWICE = N_("the name '{name}' is given twice")
"""Why a data file that gives one name to two entries is refused (difficulties.toml,
krasses.toml): the reason of :func:`name_given_twice`, translated when shown."""


def name_given_twice(groups: Iterable[Iterable[str]]) -> tuple[int, str] | None:
    """The first name that two groups give (a level's name and aliases, a krâsse's),
    compared folded as a typed name is (:func:`meneur.text.fold`: « Moyen » is « moyen »):
    the index of the group that repeats it and the name as it wrote it; ``None`` when
    each name is given once. A group's own names are one (an alias equal to its name
    names the same entry)."""
    seen: set[str] = set()
    for index, group in enumerate(groups):
        names = {fold(name): name for name in group}
        for folded, name in names.items():
            if folded in seen:
                return index, name
        seen |= names.keys()
    return None


def _invalid(where: str, reason: str, **values: Any) -> SheetError:
    """``reason`` (catalogued, with its ``values``) is translated when the error is shown:
    the file's problems reached French users in English."""
    return SheetError(
        N_("The Krâsses data file {name}.toml is invalid at {where}: {reason}."),
        name="difficulties",
        where=where,
        reason=Phrase(reason, values),
    )


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
        isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in value
    ):
        raise _invalid(where, N_("a list of names"))
    return tuple(value)


def _level(raw: Any, where: str) -> Level:
    if not isinstance(raw, dict):
        raise _invalid(where, N_("a table with name and value"))
    unknown = set(raw) - {"name", "value", "aliases"}
    if unknown:
        raise _invalid(where, N_("unknown field {names}"), names=", ".join(sorted(unknown)))
    name, value = raw.get("name"), raw.get("value")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME:
        raise _invalid(f"{where}.name", N_("a name"))
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > TestParams.MAX_VALUE:
        raise _invalid(
            f"{where}.value",
            N_("a whole number from -{most} to {most}"),
            most=TestParams.MAX_VALUE,
        )
    return Level(name, value, _names(raw.get("aliases", []), f"{where}.aliases"))


def validate_ladder(raw: dict[str, Any]) -> Ladder:
    """The ladder in ``raw`` (a parsed TOML document), checked field by field."""
    unknown = set(raw) - {"automatic", "level", "provisional"}
    if unknown:
        raise _invalid("-", N_("unknown field {names}"), names=", ".join(sorted(unknown)))
    automatic = _names(raw.get("automatic", ["automatique"]), "automatic")
    levels_raw = raw.get("level")
    if not isinstance(levels_raw, list) or not levels_raw:
        raise _invalid("level", N_("at least one level"))
    levels = tuple(_level(item, f"level.{index}") for index, item in enumerate(levels_raw))
    twice = name_given_twice([automatic, *((level.name, *level.aliases) for level in levels)])
    if twice is not None:
        index, name = twice
        raise _invalid(f"level.{index - 1}", NAME_TWICE, name=name)
    provisional = raw.get("provisional", False)
    if not isinstance(provisional, bool):
        raise _invalid("provisional", N_("true or false"))
    return Ladder(automatic or ("automatique",), levels, provisional)


@cache
def ladder() -> Ladder:
    """The difficulty ladder (K-3), validated."""
    return validate_ladder(load_data("krasses", "difficulties"))


def level_names() -> list[str]:
    """The typed names of the ladder, for messages (``tres-facile, facile...``)."""
    table = ladder()
    return [fold(table.automatic[0]), *(fold(level.name) for level in table.levels)]


def parse_difficulty(text: str) -> Difficulty:
    """A whole number, or a name of the ladder in French or English (K-3)."""
    cleaned = str(text).strip()
    digits = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if is_digits(digits):
        if len(digits) > 7 or abs(int(cleaned)) > TestParams.MAX_VALUE:
            raise UsageError(
                N_("A difficulty lies between -{limit} and {limit}."), limit=TestParams.MAX_VALUE
            )
        return Difficulty(int(cleaned))
    wanted = fold(cleaned)
    table = ladder()
    if wanted in {fold(name) for name in table.automatic}:
        return Difficulty(None, table.automatic[0].capitalize())
    for level in table.levels:
        if wanted in level.names:
            return Difficulty(level.value, level.name)
    raise UsageError(
        N_("Unknown difficulty '{name}': give a whole number or one of {known}."),
        name=cleaned,
        known=", ".join(level_names()),
    )


def name_of(value: int) -> str | None:
    """The ladder's name for ``value``, if it is a rung (``15`` is *Moyen*)."""
    for level in ladder().levels:
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
    if is_digits(digits):
        if len(digits) > 7 or abs(int(amount)) > TestParams.MAX_VALUE:
            raise UsageError(
                N_("A krâsse lies between -{limit} and {limit}."), limit=TestParams.MAX_VALUE
            )
        if has_control(name):
            raise UsageError(
                N_("A krâsse's name cannot hold a tab, a line break or another control character.")
            )
        return (name.strip()[:60] or "krâsse", int(amount))
    if sep:
        raise UsageError(
            N_("A krâsse is NAME, NAME:VALUE or VALUE (such as 'pluie:+5'), not '{text}'."),
            text=cleaned,
        )
    wanted = fold(cleaned)
    from meneur.systems.krasses.data import krasse_table

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
        name=cleaned,
        known=known or "-",
    )
