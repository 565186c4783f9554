"""The numbers of the Légendes rules, read from ``data/rules.toml`` and validated once.

They live in a data file (not in the logic) so that a table can change a reading of the
text (the inferred dice of a domain, the band cut-offs, help once per helper or per
scene) without touching code. Every ``meneur test legendes`` reads them, so the small
schema is checked by hand into frozen dataclasses rather than through pydantic (whose
import and model building would more than double the command's start-up time); a
malformed user file is still one clear :class:`SheetError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any, Literal

from meneur.errors import SheetError
from meneur.files import load_data
from meneur.locale import N_, gettext


@dataclass(frozen=True, slots=True)
class Domains:
    legendary: int
    secondary: int
    ordinary: int


@dataclass(frozen=True, slots=True)
class Levels:
    commun: int
    elite: int
    heroique: int
    legendaire: int


@dataclass(frozen=True, slots=True)
class Groups:
    size: int


@dataclass(frozen=True, slots=True)
class Resolution:
    definitive: int
    partial: int
    advantage: int
    cosmetic: int
    circumstances: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Help:
    extra_die: int
    plus_2: int
    plus_1: int
    cosmetic: int
    once_per: Literal["helper", "scene"]


@dataclass(frozen=True, slots=True)
class Motivation:
    bonus: int
    dice_per_point: int


@dataclass(frozen=True, slots=True)
class Wounds:
    light_penalty: int
    grave_dice: int


@dataclass(frozen=True, slots=True)
class RulesData:
    """Everything in ``rules.toml``."""

    domains: Domains
    levels: Levels
    groups: Groups
    resolution: Resolution
    help: Help
    motivation: Motivation
    wounds: Wounds


class Term(str):
    """A message id passed as a parameter of another message, translated when shown."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(gettext(str(self)), spec)


def _fail(where: str, reason: str) -> SheetError:
    return SheetError(
        N_("The Légendes rule data is invalid at {where}: {reason}."),
        where=where,
        reason=Term(reason),
    )


def _table(raw: dict[str, Any], name: str, keys: tuple[str, ...]) -> dict[str, Any]:
    table = raw.get(name)
    if not isinstance(table, dict):
        raise _fail(name, N_("a table is expected"))
    unknown = set(table) - set(keys)
    if unknown:
        raise _fail(f"{name}.{sorted(unknown)[0]}", N_("this field is not known"))
    for key in keys:
        if key not in table:
            raise _fail(f"{name}.{key}", N_("this field is missing"))
    return table


def _int(table: dict[str, Any], name: str, key: str, low: int, high: int) -> int:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{name}.{key}", N_("a whole number in the allowed range is expected"))
    return value


def _ints(raw: dict[str, Any], name: str, keys: tuple[str, ...], low: int, high: int) -> list[int]:
    table = _table(raw, name, keys)
    return [_int(table, name, key, low, high) for key in keys]


def _decreasing(name: str, values: list[int]) -> None:
    if any(a <= b for a, b in pairwise(values)):
        raise _fail(name, N_("the thresholds must decrease strictly"))


def parse_rules(raw: dict[str, Any]) -> RulesData:
    """Validate the content of ``rules.toml``; the first problem is a SheetError."""
    domains = Domains(*_ints(raw, "domains", ("legendary", "secondary", "ordinary"), 0, 20))
    levels = Levels(*_ints(raw, "levels", ("commun", "elite", "heroique", "legendaire"), 0, 20))
    groups = Groups(*_ints(raw, "groups", ("size",), 2, 1000))
    bands = ("definitive", "partial", "advantage", "cosmetic")
    table = _table(raw, "resolution", (*bands, "circumstances"))
    cuts = [_int(table, "resolution", key, 1, 100) for key in bands]
    _decreasing("resolution", cuts)
    circumstances = table["circumstances"]
    if (
        not isinstance(circumstances, list)
        or not 1 <= len(circumstances) <= 21
        or any(isinstance(c, bool) or not isinstance(c, int) or abs(c) > 20 for c in circumstances)
    ):
        raise _fail(
            "resolution.circumstances", N_("a short list of small whole numbers is expected")
        )
    resolution = Resolution(cuts[0], cuts[1], cuts[2], cuts[3], tuple(circumstances))
    effects = ("extra_die", "plus_2", "plus_1", "cosmetic")
    table = _table(raw, "help", (*effects, "once_per"))
    help_cuts = [_int(table, "help", key, 0, 100) for key in effects]
    _decreasing("help", help_cuts)
    once_per = table["once_per"]
    if once_per not in ("helper", "scene"):
        raise _fail("help.once_per", N_("'helper' or 'scene' is expected"))
    help_ = Help(help_cuts[0], help_cuts[1], help_cuts[2], help_cuts[3], once_per)
    table = _table(raw, "motivation", ("bonus", "dice_per_point"))
    motivation = Motivation(
        _int(table, "motivation", "bonus", 0, 20), _int(table, "motivation", "dice_per_point", 0, 5)
    )
    table = _table(raw, "wounds", ("light_penalty", "grave_dice"))
    wounds = Wounds(
        _int(table, "wounds", "light_penalty", 0, 20), _int(table, "wounds", "grave_dice", 0, 5)
    )
    unknown = set(raw) - {
        "domains",
        "levels",
        "groups",
        "resolution",
        "help",
        "motivation",
        "wounds",
    }
    if unknown:
        raise _fail(sorted(unknown)[0], N_("unknown table"))
    return RulesData(domains, levels, groups, resolution, help_, motivation, wounds)


@cache
def rules_data() -> RulesData:
    """The rule numbers (the user's override if any), validated once."""
    return parse_rules(load_data("legendes", "rules"))
