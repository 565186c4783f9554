"""Health (O-23 to O-34): damage sources, shock, pain, aggravation, coma and death,
*s'accrocher à la vie*, healing, recovery and morale.

Every rule here is a pure function of the dice: it reads faces through a
:class:`FaceReader`, rolls with the core's ``resolve_test`` (successes per die, zero
skill, zero attribute) and changes a :class:`Body`. The same body and faces always give
the same result, so a step replays from its faces.

The tables the text refers to but never gives (asphyxia, drowning, shock, pain,
aggravation, wounds) are read from ``data/health_tables.toml``, marked provisional.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from meneur.errors import RuleError
from meneur.files import load_data
from meneur.locale import N_
from meneur.systems.base import FaceReader
from meneur.systems.obscur.rules import (
    NO_MALUS,
    Maluses,
    TestOutcome,
    TestParams,
    resolve_test,
)
from meneur.systems.obscur.state import HANG_ON_COST, Body, Intemperie, Wound
from meneur.systems.obscur.validation import sheet_error
from meneur.text import fold
from meneur.whole import whole_within

Small = Annotated[int, Field(ge=0, le=100)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ShockRow(_Strict):
    at_least: Small = Field(alias="from")
    malus: Small


class AggravationRow(_Strict):
    at_least: Small = Field(alias="from")
    points: Small


class WoundRow(_Strict):
    at_least: Small = Field(alias="from")
    difficulty: Small


def _ascending(rows: list[Any], name: str) -> None:
    steps = [row.at_least for row in rows]
    if steps != sorted(set(steps)):
        raise ValueError(f"{name}: the 'from' values must increase")


class HealthTables(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    asphyxia: dict[str, Annotated[int, Field(ge=1, le=20)]]
    drowning: dict[str, Annotated[int, Field(ge=1, le=20)]]
    shock: list[ShockRow]
    pain: list[ShockRow]
    aggravation: list[AggravationRow]
    wound: list[WoundRow]

    @model_validator(mode="after")
    def _sorted(self) -> HealthTables:
        for name in ("shock", "pain", "aggravation", "wound"):
            _ascending(getattr(self, name), name)
        if not self.asphyxia or not self.drowning:
            raise ValueError("asphyxia and drowning need at least one level")
        return self


def step(rows: list[Any], value: int, field: str) -> int:
    """The value of the last row whose ``from`` is not above ``value`` (0 below all)."""
    found = 0
    for row in rows:
        if value >= row.at_least:
            found = int(getattr(row, field))
    return found


@cache
def health_tables() -> HealthTables:
    try:
        return HealthTables.model_validate(load_data("obscur", "health_tables"))
    except ValidationError as error:
        raise sheet_error(error, "obscur/data/health_tables.toml") from None


def level_of(table: dict[str, int], name: str, unknown: str) -> tuple[str, int]:
    """A named level of the asphyxia or drowning table (case and accents ignored);
    ``unknown`` is the whole message for a name not in the table."""
    for key, value in table.items():
        if fold(key) == fold(name):
            return key, value
    number = whole_within(name, 1, 20)  # not int() of any digits: 5,000 was a traceback
    if number is not None:
        return name, number
    raise RuleError(unknown, name=str(name), known=", ".join(table))


# --- rolling ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dice:
    """A pool to roll: its dice and which faces count (O-4 to O-6)."""

    dice: int
    zero_skill: bool = False
    zero_attribute: bool = False


def roll(
    reader: FaceReader,
    pool: Dice,
    *,
    difficulty: int = 1,
    modifier: int = 0,
    maluses: Maluses = NO_MALUS,
    stream: int = 0,
) -> tuple[TestParams, TestOutcome]:
    """One core test (O-2..O-8) on ``stream``; maluses beyond the pool roll no dice (O-7).
    A difficulty of 0 reads the successes only (a tally, O-8 is for tests)."""
    modifier = max(-TestParams.MAX_DICE, min(TestParams.MAX_DICE, modifier))
    params = TestParams(
        min(pool.dice, TestParams.MAX_DICE),
        difficulty=difficulty,
        modifier=modifier,
        zero_skill=pool.zero_skill,
        zero_attribute=pool.zero_attribute,
        maluses=maluses,
        tally=difficulty == 0,
    )
    return params, resolve_test(params, reader, stream)


def test_json(label: str, params: TestParams, outcome: TestOutcome) -> dict[str, Any]:
    """A test's record; a tally's (successes that reduce a loss: fire, poison, a dodge)
    has no difficulty, verdict nor margin (null): it showed difficulty 0 and « passed »,
    a Maladresse too, which O-8 says no test is."""
    tally = params.tally
    return {
        "test": label,
        "dice": params.pool,
        "pool": params.pool_json(),
        "difficulty": None if tally else params.difficulty,
        "faces": list(outcome.faces),
        "successes": outcome.successes,
        "passed": None if tally else outcome.passed,
        "margin": None if tally else outcome.margin,
        "fumble": outcome.fumble,
    }


def pain_malus(lost: int) -> int:
    """O-29: the lasting dice malus of HP lost (table provisoire)."""
    return step(health_tables().pain, lost, "malus")


def maluses_of(body: Body, *, movement: bool = False) -> Maluses:
    """The sheet's conditions on one roll, derived once for every interface (O-29):
    pain of the wounds, the Intempéries' share of it (O-38), fatigue (O-42) and, on a
    movement roll only, the Surencombrement (O-42)."""
    intemperies = sum(i.points for i in body.intemperies)
    wounds = max(0, body.lost - intemperies)
    most = TestParams.MAX_DICE
    pain = min(most, pain_malus(wounds))
    return Maluses(
        pain=pain,
        intemperies=min(most - pain, max(0, pain_malus(body.lost) - pain)),
        fatigue=min(most, body.fatigue),
        movement=min(most, body.overload) if movement else 0,
    )


def body_malus(body: Body) -> int:
    """Dice every roll of this character loses: pain of HP lost (O-29, O-38) + fatigue (O-42)."""
    return maluses_of(body).total


def shock(
    reader: FaceReader,
    lost: int,
    choc: Dice | None,
    *,
    modifier: int = 0,
    maluses: Maluses = NO_MALUS,
    stream: int = 0,
) -> dict[str, Any]:
    """O-28: the malus for the rest of the round from ``lost`` HP, reduced by the
    successes of a Résistance + Choc test (rolled only when there is a malus to reduce)."""
    base = step(health_tables().shock, lost, "malus")
    result: dict[str, Any] = {"lost": lost, "base_malus": base, "malus": base}
    if base and choc is not None:
        params, outcome = roll(
            reader, choc, difficulty=0, modifier=modifier, maluses=maluses, stream=stream
        )
        result["test"] = test_json("Résistance + Choc", params, outcome)
        result["malus"] = max(0, base - outcome.successes)
    return result


# --- damage sources ----------------------------------------------------------------------


def fall(
    body: Body, reader: FaceReader, metres: int, acrobatics: Dice, *, modifier: int = 0
) -> dict[str, Any]:
    """O-23: 1 damage per metre, less the successes of Agilité + Acrobaties (modified by
    height and surprise); armour and Résistance are ignored."""
    params, outcome = roll(
        reader,
        acrobatics,
        difficulty=0,
        modifier=modifier,
        maluses=maluses_of(body, movement=True),
    )
    lost = body.lose(metres - outcome.successes, "chute")
    return {
        "rule": "O-23",
        "height": metres,
        "test": test_json("Agilité + Acrobaties", params, outcome),
        "lost": lost,
    }


def asphyxia(
    body: Body, reader: FaceReader, level: str, endurance: Dice, *, minutes: int = 1
) -> dict[str, Any]:
    """O-24: each minute a Résistance + Endurance test against the table's difficulty.
    Success: the next test has one die less (cumulative); failure: the ME becomes a
    cumulative malus. Once no die is left the character falls into a coma, recorded on
    the body even while Vie is above 0, and each later step is a round that costs HP equal
    to the threshold (armour and Résistance do not reduce it) until air returns."""
    name, threshold = level_of(
        health_tables().asphyxia,
        level,
        N_("Unknown asphyxia level '{name}' (known: {known}, or a difficulty 1-20)."),
    )
    steps: list[dict[str, Any]] = []
    rounds = 0
    for minute in range(1, minutes + 1):
        if body.asphyxia_coma:
            rounds += 1
            lost = body.lose(threshold, "asphyxie", intemperie=True)
            steps.append({"round": rounds, "coma": True, "lost": lost})
            continue
        maluses = maluses_of(body)
        params, outcome = roll(
            reader, endurance, difficulty=threshold, modifier=-body.asphyxia, maluses=maluses
        )
        body.asphyxia += 1 if outcome.passed else -outcome.margin
        body.asphyxia_coma = endurance.dice - body.asphyxia - maluses.total <= 0
        steps.append(
            {
                "minute": minute,
                "test": test_json("Résistance + Endurance", params, outcome),
                "malus_after": body.asphyxia,
                "coma": body.asphyxia_coma,
                "lost": 0,
            }
        )
    return {"rule": "O-24", "level": name, "threshold": threshold, "minutes": steps}


def drowning(
    body: Body,
    reader: FaceReader,
    level: str,
    swimming: Dice,
    endurance: Dice,
    *,
    minutes: int = 1,
) -> dict[str, Any]:
    """O-25: each minute without support, Agilité + Natation against the drowning table.
    Success: MR metres swum. Failure: an asphyxia minute (O-24) for lack of air."""
    name, difficulty = level_of(
        health_tables().drowning,
        level,
        N_("Unknown drowning level '{name}' (known: {known}, or a difficulty 1-20)."),
    )
    air = max(health_tables().asphyxia, key=lambda k: health_tables().asphyxia[k])
    steps: list[dict[str, Any]] = []
    swum = 0
    for minute in range(1, minutes + 1):
        params, outcome = roll(
            reader, swimming, difficulty=difficulty, maluses=maluses_of(body, movement=True)
        )
        entry: dict[str, Any] = {
            "minute": minute,
            "test": test_json("Agilité + Natation", params, outcome),
        }
        if outcome.passed:
            entry["metres"] = outcome.margin
            swum += outcome.margin
        else:
            entry["asphyxia"] = asphyxia(body, reader, air, endurance)["minutes"][0]
        steps.append(entry)
    return {
        "rule": "O-25",
        "level": name,
        "difficulty": difficulty,
        "metres": swum,
        "minutes": steps,
    }


def _shaken(
    step: dict[str, Any],
    body: Body,
    reader: FaceReader,
    choc: Dice | None,
    maluses: Maluses,
) -> dict[str, Any]:
    """O-28 on one step of a source that hurts step by step: the Vie it lost shocks for the
    rest of its round, tested with the maluses of the round's start (the pain of the
    steps before it, O-29), not once at the end for the total. ``choc`` None: the caller
    tests no shock (the damage alone)."""
    if choc is not None and step["lost"] > 0 and not body.coma:
        step["shock"] = shock(reader, step["lost"], choc, maluses=maluses)
    return step


def fire(
    body: Body,
    reader: FaceReader,
    intensity: int,
    resistance: Dice,
    armour: int,
    *,
    rounds: int = 1,
    choc: Dice | None = None,
) -> dict[str, Any]:
    """O-26: each round, lose the fire's intensity less Résistance successes and armour;
    with ``choc``, each round's loss shocks in that round (O-28)."""
    steps = []
    for index in range(1, rounds + 1):
        maluses = maluses_of(body)
        params, outcome = roll(reader, resistance, difficulty=0, maluses=maluses)
        lost = body.lose(intensity - outcome.successes - armour, "feu")
        step = {"round": index, "test": test_json("Résistance", params, outcome), "lost": lost}
        steps.append(_shaken(step, body, reader, choc, maluses))
    return {"rule": "O-26", "intensity": intensity, "armour": armour, "rounds": steps}


def poison(
    body: Body,
    reader: FaceReader,
    virulence: int,
    dispersion: int,
    resistance: Dice,
    *,
    periods: int | None = None,
    source: str = "poison",
    choc: Dice | None = None,
) -> dict[str, Any]:
    """O-27: each Période, lose Virulence less Résistance successes; then the Virulence
    drops by the Dispersion. Runs until the Virulence is spent (or ``periods`` ran).
    Poison and disease are Intempéries: they heal only with time and rest (O-32). With
    ``choc``, each Période's loss shocks in its round (O-28)."""
    if dispersion <= 0 and periods is None:
        raise RuleError(
            N_("With a Dispersion of 0 a poison never ends: give a number of Périodes (--steps).")
        )
    steps = []
    current = virulence
    index = 0
    while current > 0 and (periods is None or index < periods) and not body.dead:
        index += 1
        maluses = maluses_of(body)
        params, outcome = roll(reader, resistance, difficulty=0, maluses=maluses)
        lost = body.lose(current - outcome.successes, source, intemperie=True)
        step = {
            "period": index,
            "virulence": current,
            "test": test_json("Résistance", params, outcome),
            "lost": lost,
        }
        steps.append(_shaken(step, body, reader, choc, maluses))
        current -= dispersion
    return {"rule": "O-27", "virulence": virulence, "dispersion": dispersion, "periods": steps}


def aggravate(body: Body, days: int) -> dict[str, Any]:
    """O-30: each day, every untreated wound worsens by the damage table (provisoire)."""
    rows = health_tables().aggravation
    total = 0
    changes = []
    for _day in range(days):
        for index, wound in enumerate(body.wounds):
            if wound.treated or wound.points <= 0:
                continue
            extra = step(rows, wound.points, "points")
            if extra:
                wound.points += extra
                body.vie -= extra
                total += extra
                changes.append({"wound": index + 1, "worsened_by": extra})
    return {"rule": "O-30", "days": days, "lost": total, "changes": changes}


# --- coma, death, healing -----------------------------------------------------------------


def hang_on(body: Body, reader: FaceReader, determination: Dice) -> dict[str, Any]:
    """O-31 *s'accrocher à la vie*: a dead character spends 6 Vécu to test Trempe +
    Détermination and survives 1 more minute per success."""
    if not body.dead:
        raise RuleError(N_("{name} is not dead: nothing to hang on to."), name=body.name)
    if body.vecu < HANG_ON_COST:
        raise RuleError(
            N_("S'accrocher à la vie costs {cost} Vécu; {name} has {vecu}."),
            cost=HANG_ON_COST,
            name=body.name,
            vecu=body.vecu,
        )
    body.vecu -= HANG_ON_COST
    params, outcome = roll(reader, determination, difficulty=0, maluses=maluses_of(body))
    return {
        "rule": "O-31",
        "vecu_spent": HANG_ON_COST,
        "test": test_json("Trempe + Détermination", params, outcome),
        "minutes": outcome.successes,
    }


def treat(
    body: Body,
    reader: FaceReader,
    first_aid: Dice,
    *,
    wound: int | None = None,
    maluses: Maluses | None = None,
) -> dict[str, Any]:
    """O-32: Nourrisseur + Secourisme against the wound table (by the wound's points);
    success heals MR HP and stops the wound worsening. Intempéries cannot be treated.
    ``maluses``: the healer's (default: the patient treats themself)."""
    open_wounds = [i for i, w in enumerate(body.wounds) if w.points > 0 and not w.treated]
    if wound is None:
        if not open_wounds:
            raise RuleError(
                N_("{name} has no untreated wound (Intempéries heal only with rest)."),
                name=body.name,
            )
        index = max(open_wounds, key=lambda i: body.wounds[i].points)
    else:
        index = wound - 1
        if index not in open_wounds:
            raise RuleError(
                N_("{name} has no untreated wound number {number}."), name=body.name, number=wound
            )
    target = body.wounds[index]
    difficulty = step(health_tables().wound, target.points, "difficulty")
    params, outcome = roll(
        reader,
        first_aid,
        difficulty=max(1, difficulty),
        maluses=maluses_of(body) if maluses is None else maluses,
    )
    healed = 0
    if outcome.passed:
        healed = body.regain(min(outcome.margin, target.points))
        target.points -= healed
        target.treated = True
    return {
        "rule": "O-32",
        "wound": index + 1,
        "wound_points": target.points + healed,
        "test": test_json("Nourrisseur + Secourisme", params, outcome),
        "healed": healed,
        "treated": outcome.passed,
    }


def _mend(body: Body, points: int, *, intemperies: bool) -> int:
    """Regain HP: with rest, Intempéries first (only rest heals them, O-32), then wounds;
    without rest, wounds only (HP lost to no record count as wounds)."""
    records: list[Intemperie | Wound] = [*body.wounds]
    if intemperies:
        records = [*body.intemperies, *records]
    else:
        points = min(points, max(0, body.lost - sum(i.points for i in body.intemperies)))
    gained = body.regain(points)
    left = gained
    for record in records:
        take = min(left, record.points)
        record.points -= take
        left -= take
    body.intemperies = [i for i in body.intemperies if i.points > 0]
    body.wounds = [w for w in body.wounds if w.points > 0]
    return gained


RECOVERY_DAYS = 6
"""O-33: recovery counts whole periods of 6 days, with or without rest."""


def recover(
    body: Body, reader: FaceReader, regeneration: Dice, *, days: int, rest: bool
) -> dict[str, Any]:
    """O-33: at rest, Résistance + Régénération HP every 6 full days (Intempéries
    included, O-32); without rest, for each 6-day period the successes of a Résistance +
    Régénération test, at most Résistance + Régénération, and wounds only."""
    cap = regeneration.dice
    periods = days // RECOVERY_DAYS
    if rest:
        gained = _mend(body, cap * periods, intemperies=True)
        return {"rule": "O-33", "rest": True, "days": days, "periods": periods, "gained": gained}
    tests = []
    gained = 0
    for period in range(1, periods + 1):
        params, outcome = roll(reader, regeneration, difficulty=0, maluses=maluses_of(body))
        got = _mend(body, min(outcome.successes, cap), intemperies=False)
        gained += got
        tests.append(
            {
                "period": period,
                "test": test_json("Résistance + Régénération", params, outcome),
                "gained": got,
            }
        )
    return {
        "rule": "O-33",
        "rest": False,
        "days": days,
        "periods": tests,
        "gained": gained,
    }


def catch_breath(body: Body) -> int:
    """O-34: after those minutes, 1 Volonté comes back."""
    if body.exhausted:
        body.volonte = 1
        return 1
    return 0


def cheer(
    listeners: list[Body], reader: FaceReader, eloquence: Dice, *, maluses: Maluses = NO_MALUS
) -> dict[str, Any]:
    """O-34 regaining morale: a Fouineur + Éloquence test; the text gives no effect, so
    (house rule, shown as such) each listener regains Volonté equal to the successes, up
    to their maximum."""
    params, outcome = roll(reader, eloquence, difficulty=0, maluses=maluses)
    gains = {}
    for body in listeners:
        gained = max(0, min(outcome.successes, body.volonte_max - body.volonte))
        body.volonte += gained
        gains[body.name] = gained
    return {
        "rule": "O-34",
        "house_rule": True,
        "test": test_json("Fouineur + Éloquence", params, outcome),
        "gained": gains,
    }
