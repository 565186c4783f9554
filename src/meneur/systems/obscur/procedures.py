"""The Obscur procedures (issue 14): a melee, a shot, a journey and the care of a body.

Each spans several rolls and is a :class:`~meneur.systems.base.Procedure`: frozen params
of plain data (the fighters, bodies and pools a sheet gives, never a file path), which
the roll log stores through pydantic (``params_json``) and ``meneur verify --replay``
resolves again; a JSON-friendly key; examples for the conformance suite. ``roll`` draws
each batch when the rule takes it (one pass, the same faces as the old step loop).
No exact odds: a whole fight has too many branches.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.systems.base import FaceReader, Procedure
from meneur.systems.obscur.combat import (
    Arm,
    Fighter,
    FightOutcome,
    FightParams,
    RangedParams,
    _copy,
    fight_with,
    shoot,
)
from meneur.systems.obscur.encumbrance import MarchParams
from meneur.systems.obscur.gear import armoury
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.state import Body, Wound
from meneur.systems.obscur.survival import DayParams, journey_with


def _body(name: str, vie: int = 10) -> Body:
    return Body(name, vie, vie, volonte=3, volonte_max=3)


def _fighter(name: str, agility: int, dice: int) -> Fighter:
    unarmed = Arm(armoury().unarmed(), Dice(dice))
    return Fighter(name, agility, 2, 1, 2, (), unarmed, choc=Dice(2), dodge=Dice(2))


class ObscurFight(Procedure[FightParams, FightOutcome]):
    """A melee to its end or to ``max_rounds`` (O-11 to O-22); stream 0: A, 1: B."""

    name = "fight"
    die_sides = 6

    def streams(self, params: FightParams) -> int:
        return 2

    def run(self, params: FightParams, reader: FaceReader) -> FightOutcome:
        return fight_with(params, reader)

    def key(self, outcome: FightOutcome) -> Hashable:
        return (
            outcome.end,
            outcome.winner,
            len(outcome.rounds),
            outcome.a["vie"],
            outcome.b["vie"],
        )

    def examples(self) -> Sequence[FightParams]:
        a, b = _fighter("A", 3, 3), _fighter("B", 2, 2)
        return (
            FightParams(a, b, _body("A"), _body("B"), max_rounds=1),
            FightParams(a, b, _body("A", 6), _body("B", 4), impress=("a",), max_rounds=3),
        )

    def to_json(self, params: FightParams, outcome: FightOutcome) -> dict[str, Any]:
        return {
            "system": "obscur",
            "opening": list(outcome.opening),
            "rounds": list(outcome.rounds),
            "end": outcome.end,
            "winner": outcome.winner,
            "a": outcome.a,
            "b": outcome.b,
        }

    def printed_json(self, params: FightParams, outcome: FightOutcome) -> dict[str, Any]:
        """The fight as ``meneur fight obscur`` prints and logs it: its end under
        ``outcome``, beside the fighters' names and sheets."""
        return {
            "opening": list(outcome.opening),
            "rounds": list(outcome.rounds),
            "outcome": {
                "end": outcome.end,
                "winner": outcome.winner,
                "rounds": len(outcome.rounds),
                "a": outcome.a,
                "b": outcome.b,
            },
        }

    def round_json(self, params: FightParams, outcome: FightOutcome) -> dict[str, Any]:
        """One round of melee as the live table's tracker plays and logs it (O-12)."""
        (record,) = outcome.rounds
        return {
            "system": "obscur",
            "rule": "O-12",
            "round": record,
            "end": outcome.end,
            "after": [outcome.a, outcome.b],
        }

    def logged_views(
        self, params: FightParams, outcome: FightOutcome
    ) -> tuple[dict[str, Any], ...]:
        printed = self.printed_json(params, outcome)
        if len(outcome.rounds) != 1 or outcome.opening:
            return (printed,)
        return (printed, self.round_json(params, outcome))


@dataclass(frozen=True)
class ShotParams:
    """A shot (O-14, O-15, O-21) at a target as its sheet stands: its body and Choc."""

    shot: RangedParams
    target: Body
    choc: Dice | None = None


@dataclass(frozen=True)
class ShotOutcome:
    result: dict[str, Any]
    target: Body


class ObscurShot(Procedure[ShotParams, ShotOutcome]):
    """One shot: the shooter on stream 0, the target's dodge and shock on stream 1."""

    name = "shot"
    die_sides = 6

    def streams(self, params: ShotParams) -> int:
        return 2

    def run(self, params: ShotParams, reader: FaceReader) -> ShotOutcome:
        body = _copy(params.target)
        return ShotOutcome(shoot(params.shot, body, params.choc, reader), body)

    def key(self, outcome: ShotOutcome) -> Hashable:
        return (outcome.result["hit"], outcome.result["damage"], outcome.target.vie)

    def examples(self) -> Sequence[ShotParams]:
        weapon = armoury().unarmed()
        return (
            ShotParams(RangedParams(Dice(3), 2, weapon), _body("B"), Dice(2)),
            ShotParams(RangedParams(Dice(4), 2, weapon, dodge=Dice(2)), _body("B", 3), Dice(1)),
        )

    def to_json(self, params: ShotParams, outcome: ShotOutcome) -> dict[str, Any]:
        return {"system": "obscur", "shot": outcome.result}


@dataclass(frozen=True)
class JourneyParams:
    """Days of a party in a Milieu (O-35 to O-39): member ``i`` rolls on stream ``i``."""

    day: DayParams
    bodies: tuple[Body, ...]
    days: int = 1

    def __post_init__(self) -> None:
        if len(self.bodies) != len(self.day.party):
            raise RuleError(N_("Give one body per member of the party."))


@dataclass(frozen=True)
class Journey:
    days: list[dict[str, Any]]
    bodies: list[Body]


class ObscurJourney(Procedure[JourneyParams, Journey]):
    name = "survive"
    die_sides = 6

    def streams(self, params: JourneyParams) -> int:
        return len(params.bodies)

    def run(self, params: JourneyParams, reader: FaceReader) -> Journey:
        bodies = [_copy(b) for b in params.bodies]
        return Journey(journey_with(params.day, bodies, reader, params.days), bodies)

    def key(self, outcome: Journey) -> Hashable:
        return tuple((b.vie, b.status, b.dependent) for b in outcome.bodies)

    def examples(self) -> Sequence[JourneyParams]:
        from meneur.systems.obscur.gear import Survival
        from meneur.systems.obscur.survival import Milieu, Traveller

        milieu = Milieu(faim=2, froid=3, obscurite=1, soif=2, special=0, vents=1)
        party = (Traveller("A", Dice(3), Survival()), Traveller("B", Dice(2), Survival()))
        return (JourneyParams(DayParams("m", milieu, party), (_body("A"), _body("B")), 2),)

    def to_json(self, params: JourneyParams, outcome: Journey) -> dict[str, Any]:
        return {
            "system": "obscur",
            "days": outcome.days,
            "final": [b.to_json() for b in outcome.bodies],
        }


CareAction = Literal[
    "fall",
    "fire",
    "poison",
    "asphyxia",
    "drown",
    "blow",
    "aggravate",
    "hang_on",
    "morale",
    "treat",
    "catch_breath",
    "rest",
    "march",
]


@dataclass(frozen=True)
class CareParams:
    """What happens to one body (O-23 to O-34, O-42): ``hurt``, ``heal``, ``rest``, ``march``.

    ``pools``: the pools the action reads, by trait name, as the sheet gives them (the
    healer's for ``treat`` and ``morale`` by another); ``amount``: metres of a fall, the
    intensity of a fire, a blow's damage, days to aggravate or to rest; ``steps``: rounds
    of fire, minutes of asphyxia or drowning (one when not given), Périodes of poison
    (until its Virulence is spent when not given, O-27); ``level``: an asphyxia's or a
    drowning's level; ``helper``: the healer's body, whose maluses apply (O-29).
    """

    action: CareAction
    body: Body
    pools: tuple[tuple[str, Dice], ...] = ()
    amount: int = 0
    modifier: int = 0
    armour: int = 0
    steps: int | None = None
    virulence: int = 0
    dispersion: int = 0
    level: str = ""
    wound: int | None = None
    helper: Body | None = None
    rest: bool = True
    march: MarchParams | None = None

    def pool(self, trait: str) -> Dice:
        for name, dice in self.pools:
            if name == trait:
                return dice
        raise RuleError(N_("The sheet gives no pool for {trait}."), trait=trait)


@dataclass(frozen=True)
class Care:
    result: dict[str, Any]
    body: Body


_HURTS = ("fall", "fire", "poison", "asphyxia", "drown", "blow", "aggravate")
STEP_BY_STEP = ("fire", "poison")
"""Sources that hurt round by round (Période by Période): each step's loss shocks in its
own round (O-28), with the pain of the steps before (O-29); the others shock once."""


def _harm(params: CareParams, body: Body, reader: FaceReader) -> dict[str, Any]:
    from meneur.systems.obscur import health

    kind = params.action
    if kind == "fall":
        return health.fall(
            body, reader, params.amount, params.pool("Acrobaties"), modifier=params.modifier
        )
    if kind == "fire":
        return health.fire(
            body,
            reader,
            params.amount,
            params.pool("Résistance"),
            params.armour,
            rounds=params.steps or 1,
            choc=params.pool("Choc"),
        )
    if kind == "poison":
        v, d = params.virulence, params.dispersion
        return health.poison(
            body,
            reader,
            v,
            d,
            params.pool("Résistance"),
            periods=params.steps,
            choc=params.pool("Choc"),
        )
    if kind == "asphyxia":
        return health.asphyxia(
            body, reader, params.level, params.pool("Endurance"), minutes=params.steps or 1
        )
    if kind == "drown":
        return health.drowning(
            body,
            reader,
            params.level,
            params.pool("Natation"),
            params.pool("Endurance"),
            minutes=params.steps or 1,
        )
    if kind == "blow":
        return {"rule": "O-28", "lost": body.lose(params.amount, "coup")}
    return health.aggravate(body, params.amount)


def _hurt(params: CareParams, body: Body, reader: FaceReader) -> dict[str, Any]:
    from meneur.systems.obscur import health

    if body.dead:
        raise RuleError(N_("{name} is dead (O-31)."), name=body.name)
    vie, maluses = body.vie, health.maluses_of(body)
    result = _harm(params, body, reader)
    lost = vie - body.vie
    stepped = params.action in STEP_BY_STEP  # each step shocked in its own round
    if lost > 0 and not body.coma and not stepped:  # O-28: any Vie lost shocks
        result["shock"] = health.shock(reader, lost, params.pool("Choc"), maluses=maluses)
    return result


def _heal(params: CareParams, body: Body, reader: FaceReader) -> dict[str, Any]:
    from meneur.systems.obscur import health
    from meneur.systems.obscur.conditions import refuse_exhausted

    if params.action == "catch_breath":
        if body.volonte > 0:
            raise RuleError(
                N_("{name} has Volonté {volonte}: no breath to catch (O-34)."),
                name=body.name,
                volonte=body.volonte,
            )
        return {"rule": "O-34", "volonte_back": health.catch_breath(body)}
    if params.action == "hang_on":
        return health.hang_on(body, reader, params.pool("Détermination"))
    if params.helper is None:
        refuse_exhausted(body)
    maluses = health.maluses_of(params.helper or body)
    if params.action == "morale":
        return health.cheer([body], reader, params.pool("Éloquence"), maluses=maluses)
    return health.treat(
        body, reader, params.pool("Secourisme"), wound=params.wound, maluses=maluses
    )


def _rest(params: CareParams, body: Body, reader: FaceReader) -> dict[str, Any]:
    from meneur.systems.obscur import health

    if body.dead:
        raise RuleError(N_("{name} is dead (O-31)."), name=body.name)
    result = health.recover(
        body, reader, params.pool("Régénération"), days=params.amount, rest=params.rest
    )
    body.load_tests = body.load_hours = 0  # O-42: a new day
    body.asphyxia = 0
    body.asphyxia_coma = False  # O-24: the air has returned
    if params.rest:
        body.fatigue = 0
    result["volonte_back"] = health.catch_breath(body)
    return result


class ObscurCare(Procedure[CareParams, Care]):
    """Harm, care, recovery or a march on one body (``hurt``/``heal``/``rest``/``march``)."""

    name = "care"
    die_sides = 6

    def streams(self, params: CareParams) -> int:
        return 1

    def run(self, params: CareParams, reader: FaceReader) -> Care:
        from meneur.systems.obscur.encumbrance import march

        body = _copy(params.body)
        if params.action in _HURTS:
            result = _hurt(params, body, reader)
        elif params.action == "rest":
            result = _rest(params, body, reader)
        elif params.action == "march":
            if params.march is None:
                raise RuleError(N_("A march needs its load and capacity."))
            result = march(params.march, body, reader)
        else:
            result = _heal(params, body, reader)
        return Care(result, body)

    def key(self, outcome: Care) -> Hashable:
        b = outcome.body
        return (b.vie, b.status, len(b.wounds), len(b.intemperies), b.volonte, b.fatigue)

    def examples(self) -> Sequence[CareParams]:
        pools = tuple((t, Dice(2)) for t in ("Acrobaties", "Choc", "Régénération", "Secourisme"))
        hurt = _body("A")
        hurt.wounds.append(Wound(3, "coup"))
        hurt.vie = 7
        return (
            CareParams("fall", _body("A"), pools, amount=6),
            CareParams("blow", _body("A"), pools, amount=4),
            CareParams("treat", hurt, pools),
            CareParams("rest", hurt, pools, amount=6),
            CareParams("march", _body("A"), march=MarchParams(30, 10, 2, Dice(2), 4)),
        )

    def to_json(self, params: CareParams, outcome: Care) -> dict[str, Any]:
        return {"system": "obscur", "result": outcome.result, "after": outcome.body.to_json()}

    def logged_views(self, params: CareParams, outcome: Care) -> tuple[dict[str, Any], ...]:
        """The result: the body after it also holds the Vécu its Maladresses earned (O-3),
        which the command adds once the roll is made."""
        return ({"system": "obscur", "result": outcome.result},)
