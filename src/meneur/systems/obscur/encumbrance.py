"""Encumbrance (O-42): containers and heavy items against the Encombrement resource.

* Load = the Encombrement of the filled containers + the heavy and bulky items (the
  sheet's ``equipement.charge``).
* The load must stay strictly below the Encombrement resource ("doit rester
  inférieur"): a load that reaches it is overloaded, and Surencombrement = load −
  resource + 1 (a load equal to the resource: 1). Nothing carried is never overloaded.
  It is a dice malus on every movement roll (Agilité-based tests, falls, swimming, Rang
  d'Action, disengaging).
* Over-encumbered, every (Résistance) hours of march: a Résistance + Endurance test,
  difficulty = Surencombrement + tests of that kind already made that day; each failure
  is a cumulative −1 die on all rolls (the body's ``fatigue``).

A march is a pure function of the faces (one stream).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.systems.base import FaceReader
from meneur.systems.obscur.health import Dice, maluses_of, roll, test_json
from meneur.systems.obscur.state import Body

MAX_HOURS = 24


def load_of(items: list[Any]) -> int:
    """Total Encombrement of what is carried (objects with ``encombrement``)."""
    return sum(int(item.encombrement) for item in items)


def over_encumbrance(load: int, capacity: int) -> int:
    """O-42: Surencombrement: the load must stay below the resource, so a load that
    reaches it is over by 1 (0 when below, or when nothing is carried)."""
    if load <= 0 or load < capacity:
        return 0
    return load - capacity + 1


def movement_malus(load: int, capacity: int) -> int:
    """O-42: the dice malus on every movement roll."""
    return over_encumbrance(load, capacity)


def test_difficulty(over: int, tests_today: int) -> int:
    """O-42: difficulty = Surencombrement + tests of this kind already made today."""
    return over + tests_today


@dataclass(frozen=True)
class MarchParams:
    load: int
    capacity: int
    resistance: int
    endurance: Dice
    hours: int

    def __post_init__(self) -> None:
        if not 1 <= self.hours <= MAX_HOURS:
            raise RuleError(N_("A march lasts 1 to {most} hours."), most=MAX_HOURS)


def march(params: MarchParams, body: Body, reader: FaceReader) -> dict[str, Any]:
    """Hours of march: a test every (Résistance) hours while over-encumbered.

    The hours add up over the day: the hours marched over-encumbered since the last test
    (``Body.load_hours``, on the sheet until a rest) count toward the next one, so two
    marches of an hour test as one of two hours; ``hour`` is a test's hour in this march.
    """
    over = over_encumbrance(params.load, params.capacity)
    every = max(1, params.resistance)
    carried = min(body.load_hours, every - 1) if over else 0  # Résistance may have dropped
    tests = []
    if over:
        body.load_hours = (carried + params.hours) % every
        for hour in range(every - carried, params.hours + 1, every):
            difficulty = test_difficulty(over, body.load_tests)
            t_params, outcome = roll(
                reader, params.endurance, difficulty=difficulty, maluses=maluses_of(body)
            )
            body.load_tests += 1
            if not outcome.passed:
                body.fatigue += 1
            tests.append(
                {
                    "hour": hour,
                    "test": test_json("Résistance + Endurance", t_params, outcome),
                    "fatigue_after": body.fatigue,
                }
            )
    return {
        "rule": "O-42",
        "load": params.load,
        "capacity": params.capacity,
        "surencombrement": over,
        "movement_malus": movement_malus(params.load, params.capacity),
        "every_hours": every,
        "carried_hours": carried,
        "tests": tests,
        "fatigue": body.fatigue,
    }
