"""A character's lasting state (Vie, wounds, Intempéries, maluses, conditions) and its
round trip to the sheet file.

Combat, health, survival and encumbrance all change the same few numbers, so they work
on one mutable :class:`Body` built from a sheet, and :func:`save_body` writes it back
through the core's ``updated``/``save_character`` (validated again, atomic; fields this
module does not know survive). On the sheet the state sits in ``etat``::

    [etat]
    blessures = [{points = 4, source = "coup", soignee = false}]
    intemperies = [{points = 1, source = "Froid"}]
    asphyxie = 0        # cumulative dice malus of O-24
    coma_asphyxie = false  # O-24: no die left, a coma until air returns
    fatigue = 0         # cumulative dice malus of O-42
    tests_charge = 0    # over-encumbrance tests made today (O-42)
    heures_charge = 0   # hours marched over-encumbered since the last such test (O-42)
    dependant = false   # O-37/O-38

Vie itself stays in ``ressources.vie`` (current may go below 0, O-31).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.systems.obscur.sheet import Character, add_to_resource, save_character, updated
from meneur.text import one_line

Points = Annotated[int, Field(ge=0, le=100_000)]
OneLine = Annotated[str, Field(max_length=200), AfterValidator(one_line)]
"""A wound's source, shown on one line in the terminal and at the table."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WoundData(_Strict):
    points: Points
    source: OneLine = "coup"
    soignee: bool = False


class IntemperieData(_Strict):
    points: Points
    source: OneLine = ""


class StateData(_Strict):
    blessures: list[WoundData] = []
    intemperies: list[IntemperieData] = []
    asphyxie: Points = 0
    coma_asphyxie: bool = False
    fatigue: Points = 0
    tests_charge: Points = 0
    heures_charge: Points = 0
    dependant: bool = False


@dataclass
class Wound:
    """HP lost to one blow, fall, fire...: healable (O-32), worsens untreated (O-30)."""

    points: int
    source: str = "coup"
    treated: bool = False


@dataclass
class Intemperie:
    """HP lost to poison, disease, asphyxia or l'Obscur: heals only with rest (O-32)."""

    points: int
    source: str = ""


@dataclass
class Body:
    """The mutable state of one character while rules run on it."""

    name: str
    vie: int
    vie_max: int
    vecu: int = 0
    volonte: int = 0
    volonte_max: int = 0
    wounds: list[Wound] = field(default_factory=list)
    intemperies: list[Intemperie] = field(default_factory=list)
    asphyxia: int = 0
    fatigue: int = 0
    load_tests: int = 0
    load_hours: int = 0
    """O-42: hours marched over-encumbered since the last test, carried to the next march
    of the day (two marches of an hour weigh as one of two hours)."""
    dependent: bool = False
    asphyxia_coma: bool = False
    """O-24: no die left against asphyxia: a coma, recorded even while Vie is above 0."""
    overload: int = 0
    """O-42: the Surencombrement of what the sheet carries (read from it, never saved)."""

    @property
    def lost(self) -> int:
        """Total HP lost (wounds and Intempéries alike give maluses, O-29/O-38)."""
        return max(0, self.vie_max - self.vie)

    @property
    def coma(self) -> bool:
        """O-31: Vie at 0 or below; O-24: out of dice against asphyxia."""
        return self.vie <= 0 or self.asphyxia_coma

    @property
    def exhausted(self) -> bool:
        """O-34: Volonté at 0, incapable of any effort for a few minutes (a body with no
        Volonté to lose, a maximum of 0, keeps no count of it)."""
        return self.volonte <= 0 < self.volonte_max

    @property
    def dead(self) -> bool:
        """O-31: total Vie lost at least twice the Vie resource."""
        return self.vie_max - self.vie >= 2 * self.vie_max

    @property
    def status(self) -> str:
        if self.dead:
            return "dead"
        if self.coma:
            return "coma"
        return "ok"

    def lose(self, points: int, source: str, *, intemperie: bool = False) -> int:
        """Lose ``points`` HP (never negative); returns the HP lost."""
        points = max(0, points)
        if points:
            self.vie -= points
            if intemperie:
                self.intemperies.append(Intemperie(points, source))
            else:
                self.wounds.append(Wound(points, source))
        return points

    def regain(self, points: int) -> int:
        """Regain up to ``points`` HP, never above the maximum; returns HP regained."""
        gained = max(0, min(points, self.vie_max - self.vie))
        self.vie += gained
        return gained

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "vie": self.vie,
            "vie_max": self.vie_max,
            "status": self.status,
            "vecu": self.vecu,
            "volonte": self.volonte,
            "wounds": [
                {"points": w.points, "source": w.source, "treated": w.treated} for w in self.wounds
            ],
            "intemperies": [{"points": i.points, "source": i.source} for i in self.intemperies],
            "asphyxia_malus": self.asphyxia,
            "asphyxia_coma": self.asphyxia_coma,
            "fatigue_malus": self.fatigue,
            "load_tests_today": self.load_tests,
            "load_hours": self.load_hours,
            "dependent": self.dependent,
        }


def body_of(character: Character) -> Body:
    """The state of a sheet as a :class:`Body` (its ``etat`` judged when it loaded)."""
    source = str(character.path or "-")
    data = character.state
    vie = character.resource("vie")
    volonte = character.resource("volonte")
    return Body(
        name=character.sheet.name or source,
        vie=vie.current,
        vie_max=vie.max if vie.max is not None else vie.current,
        vecu=character.resource("vecu").current,
        volonte=volonte.current,
        volonte_max=volonte.max if volonte.max is not None else volonte.current,
        wounds=[Wound(w.points, w.source, w.soignee) for w in data.blessures],
        intemperies=[Intemperie(i.points, i.source) for i in data.intemperies],
        asphyxia=data.asphyxie,
        fatigue=data.fatigue,
        load_tests=data.tests_charge,
        load_hours=data.heures_charge,
        dependent=data.dependant,
        asphyxia_coma=data.coma_asphyxie,
        overload=overload_of(character),
    )


def overload_of(character: Character) -> int:
    """O-42: the sheet's Surencombrement, its load against its Encombrement resource."""
    from meneur.systems.obscur.encumbrance import load_of, over_encumbrance
    from meneur.systems.obscur.gear import equipment_of

    gear = equipment_of(character.sheet.equipment, str(character.path or "-"))
    return over_encumbrance(load_of(list(gear.charge)), character.resource("encombrement").current)


def require_standing(character: Character, body: Body) -> None:
    """Refuse a character in a coma or dead as a fighter or a traveller (O-31, O-24)."""
    refuse_coma(body)


HANG_ON_COST = 6
"""O-31: the Vécu a dead character spends to hang on to life (*s'accrocher à la vie*)."""


def refuse_coma(body: Body) -> None:
    """A body in a coma (Vie at 0 or below, O-31; out of air, O-24) acts no more; a dead
    one may only hang on to life (O-31), which :func:`~meneur.systems.obscur.health.hang_on`
    rolls without asking this."""
    if body.dead:
        raise RuleError(
            N_(
                "{name} is dead (O-31): all that is left is to hang on to life"
                " (meneur heal --hang-on, {cost} Vécu)."
            ),
            name=body.name,
            cost=HANG_ON_COST,
        )
    if body.asphyxia_coma and body.vie > 0:
        raise RuleError(
            N_("{name} is in a coma for lack of air (O-24) until the air returns (rest)."),
            name=body.name,
        )
    if body.coma:
        raise RuleError(
            N_("{name} has Vie {vie}: in a coma (O-31), heal them before this."),
            name=body.name,
            vie=body.vie,
        )


def save_bodies(saved: Sequence[tuple[Character, Body]]) -> None:
    """Write several bodies back (a fight's two sides, a journey's party), each file
    checked writable before any is written: a fight whose second sheet was refused after
    the first was written left the two sides out of step, and exited in error."""
    from meneur.files import check_writable

    for character, _body in saved:
        if character.path is not None:
            check_writable(character.path)
    for character, body in saved:
        save_body(character, body)


def save_body(character: Character, body: Body) -> Character:
    """Write the body's state back to the sheet file, atomically; returns the new sheet."""
    before = body_of(character)

    def change(raw: dict[str, Any]) -> None:
        add_to_resource(raw, "vie", body.vie - before.vie)
        add_to_resource(raw, "vecu", body.vecu - before.vecu)
        add_to_resource(raw, "volonte", body.volonte - before.volonte)
        raw["etat"] = {
            "blessures": [
                {"points": w.points, "source": w.source, "soignee": w.treated}
                for w in body.wounds
                if w.points > 0
            ],
            "intemperies": [
                {"points": i.points, "source": i.source} for i in body.intemperies if i.points > 0
            ],
            "asphyxie": body.asphyxia,
            "coma_asphyxie": body.asphyxia_coma,
            "fatigue": body.fatigue,
            "tests_charge": body.load_tests,
            "heures_charge": body.load_hours,
            "dependant": body.dependent,
        }

    new = updated(character, change)
    save_character(new)
    return new
