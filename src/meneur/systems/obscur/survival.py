"""Survival (O-35 to O-39): Milieux, gear indices, the Modificateur d'Hostilité, the
daily Potentiel de Survie of a whole party, Intempéries, Dépendance and mutual aid.

A party's day is a pure function of the faces: member ``i`` rolls on stream ``i``
(its survival test, or the single die of an Intempérie at PS 0), so a seeded journey
replays from its faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meneur.errors import RuleError
from meneur.files import load_data
from meneur.locale import N_
from meneur.systems.base import FaceReader
from meneur.systems.obscur.gear import Survival
from meneur.systems.obscur.health import Dice, maluses_of, roll, test_json
from meneur.systems.obscur.state import Body
from meneur.systems.obscur.validation import sheet_error
from meneur.text import fold

Factor = Annotated[int, Field(ge=0, le=3)]
THREATS = ("faim", "froid", "obscurite", "soif", "special", "vents")
THREAT_LABELS = {
    "faim": "Faim",
    "froid": "Froid",
    "obscurite": "Obscurité",
    "soif": "Soif",
    "special": "Spécial",
    "vents": "Vents/Poussières",
}
GEAR_FOR = {
    "faim": "rations",
    "froid": "vetements",
    "obscurite": "eclairage",
    "soif": "distillateurs",
    "vents": "filtres",
}
"""O-36: which gear index reduces which threat (Spécial: none)."""
MAX_PARTY = 12
MAX_DAYS = 60
AtZero = Literal["roll", "dependant"]


class Milieu(BaseModel):
    """O-35: six Facteurs d'Agression, each 0 (negligible) to 3 (deadly)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    faim: Factor = 0
    froid: Factor = 0
    obscurite: Factor = 0
    soif: Factor = 0
    special: Factor = 0
    vents: Factor = 0


class MilieuxFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    provisional: bool = True  # a file that does not say false is not the text
    milieux: dict[str, Milieu]


@cache
def milieux() -> MilieuxFile:
    try:
        return MilieuxFile.model_validate(load_data("obscur", "milieux"))
    except ValidationError as error:
        raise sheet_error(error, "obscur/data/milieux.toml") from None


def milieu_named(name: str) -> tuple[str, Milieu]:
    for key, value in milieux().milieux.items():
        if fold(key) == fold(name):
            return key, value
    raise RuleError(
        N_("Unknown Milieu '{name}' (known: {known})."),
        name=str(name),
        known=", ".join(milieux().milieux),
    )


def milieu_from(data: dict[str, Any], source: str) -> Milieu:
    """A Milieu given inline: a factor of 4 or a threat misnamed is a clear error; a threat
    left out is 0, negligible (O-35)."""
    try:
        return Milieu.model_validate(data)
    except ValidationError as error:
        raise sheet_error(error, source) from None


def reduced_factors(milieu: Milieu, gear: Survival) -> dict[str, int]:
    """O-36: each factor less its gear index, never below 0 (Spécial: no gear)."""
    out = {}
    for threat in THREATS:
        factor: int = getattr(milieu, threat)
        index = getattr(gear, GEAR_FOR[threat]) if threat in GEAR_FOR else 0
        out[threat] = max(0, factor - index)
    return out


def hostility(milieu: Milieu, gear: Survival) -> int:
    """O-36: the Modificateur d'Hostilité, the sum of the reduced factors."""
    return sum(reduced_factors(milieu, gear).values())


@dataclass(frozen=True)
class Traveller:
    """What a day of survival reads from a character: Marcheur + Milieu and gear."""

    name: str
    pool: Dice
    gear: Survival
    at_zero: AtZero = "roll"


@dataclass(frozen=True)
class DayParams:
    milieu_name: str
    milieu: Milieu
    party: tuple[Traveller, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.party) <= MAX_PARTY:
            raise RuleError(
                N_("A party has 1 to {most} members, not {count}."),
                most=MAX_PARTY,
                count=len(self.party),
            )


def potential(traveller: Traveller, milieu: Milieu) -> int:
    """O-37: Potentiel de Survie = (Marcheur + Milieu) − Modificateur d'Hostilité."""
    return traveller.pool.dice - hostility(milieu, traveller.gear)


def _worst_threat(milieu: Milieu, gear: Survival) -> str:
    reduced = reduced_factors(milieu, gear)
    threat = max(THREATS, key=lambda t: (reduced[t], -THREATS.index(t)))
    return THREAT_LABELS[threat]


def fumble_reward() -> int:
    from meneur.systems.obscur.tables import rule_tables

    return rule_tables().experience.fumble_reward


def aid_cost(helped: int) -> int:
    """O-39: the MR that helping ``helped`` Dépendants costs in all (the 1st 1, the 2nd 2,
    the 3rd 3...): the one reading of the day's mutual aid (:func:`resolve_day`)."""
    return helped * (helped + 1) // 2


def resolve_day(params: DayParams, bodies: list[Body], reader: FaceReader) -> dict[str, Any]:
    """One day for the whole party (O-37 to O-39); ``bodies`` change in place."""
    members: list[dict[str, Any]] = []
    margins: dict[int, int] = {}
    dependants: list[int] = []
    for index, (traveller, body) in enumerate(zip(params.party, bodies, strict=True)):
        entry: dict[str, Any] = {
            "name": traveller.name,
            "hostility": hostility(params.milieu, traveller.gear),
        }
        body.dependent = False
        if body.dead:
            entry["result"] = "dead"
            members.append(entry)
            continue
        ps = potential(traveller, params.milieu)
        entry["ps"] = ps
        source = _worst_threat(params.milieu, traveller.gear)
        if body.coma:
            entry["result"] = "dependant"
            dependants.append(index)
        elif ps > 0:
            t_params, outcome = roll(
                reader,
                Dice(ps, traveller.pool.zero_skill, traveller.pool.zero_attribute),
                difficulty=1,
                maluses=maluses_of(body),
                stream=index,
            )
            entry["test"] = test_json("Potentiel de Survie", t_params, outcome)
            if outcome.fumble:  # O-3: a Maladresse earns Vécu (O-40)
                body.vecu += fumble_reward()
            if outcome.passed:
                entry["result"] = "fine"
                margins[index] = outcome.margin
            else:
                entry["result"] = "dependant"
                dependants.append(index)
        elif ps == 0 and traveller.at_zero == "roll":
            face = reader.take(1, index)[0]
            points = (0, 0, 0, 1, 1, 2)[face - 1]
            entry |= {"result": "intemperie", "die": face}
            entry["intemperie"] = body.lose(points, source, intemperie=True)
        elif ps == 0:
            entry["result"] = "dependant"
            dependants.append(index)
        else:
            entry["result"] = "intemperie"
            entry["intemperie"] = body.lose(-ps, source, intemperie=True)
        members.append(entry)
    # O-39: helpers with the largest MR first; each helps while its MR pays aid_cost.
    helped: dict[int, str] = {}
    waiting = list(dependants)
    for helper in sorted(margins, key=lambda i: (-margins[i], i)):
        margin = margins[helper]
        names: list[str] = []
        while waiting and aid_cost(len(names) + 1) <= margin:
            who = waiting.pop(0)
            helped[who] = params.party[helper].name
            names.append(params.party[who].name)
        members[helper]["margin"] = margin
        members[helper]["helps"] = names
        members[helper]["margin_left"] = margin - aid_cost(len(names))
    # O-38: a Dépendant not helped: the latest Intempérie worsens by 1 (none yet: one of 1).
    for index in dependants:
        body = bodies[index]
        if index in helped:
            members[index]["helped_by"] = helped[index]
            continue
        body.dependent = True
        if body.intemperies:
            body.intemperies[-1].points += 1
            body.vie -= 1
            members[index]["worsened"] = body.intemperies[-1].source
        else:
            body.lose(1, _worst_threat(params.milieu, params.party[index].gear), intemperie=True)
            members[index]["contracted"] = 1
    for entry, body in zip(members, bodies, strict=True):
        entry["vie"] = body.vie
        entry["status"] = body.status
    return {"members": members}


def resolve_journey(
    params: DayParams, bodies: list[Body], faces: tuple[tuple[int, ...], ...], days: int
) -> list[dict[str, Any]]:
    """``days`` days in a row, pure in the faces (member ``i`` on stream ``i``)."""
    return journey_with(params, bodies, FaceReader(faces), days)


def journey_with(
    params: DayParams, bodies: list[Body], reader: FaceReader, days: int
) -> list[dict[str, Any]]:
    """:func:`resolve_journey` reading its dice from ``reader``."""
    if not 1 <= days <= MAX_DAYS:
        raise RuleError(N_("Give 1 to {most} days."), most=MAX_DAYS)
    out = []
    for day in range(1, days + 1):
        out.append({"day": day} | resolve_day(params, bodies, reader))
    return out


def traveller_of(character: Any, at_zero: AtZero = "roll") -> Traveller:
    from meneur.systems.obscur.combat import dice_of
    from meneur.systems.obscur.gear import equipment_of

    pool = dice_of(character, "Milieu")
    gear = equipment_of(character.sheet.equipment, str(character.path or "-")).survie
    return Traveller(character.sheet.name or str(character.path), pool, gear, at_zero)
