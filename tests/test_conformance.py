"""The conformance suite: every check of every registered system obeys DESIGN.md.

For each check and each of its example parameter sets:
* the exact odds sum to 1 and equal brute-force enumeration of all faces;
* the law a roll's luck reads (``score_odds``) gives the odds' chances by score;
* every rolled outcome lies in the support of the odds;
* the same seed gives the same roll, and replaying its faces as physical dice gives the
  same outcome (what the roll log relies on);
* a seeded Monte Carlo agrees with the exact odds within 4 standard errors;
* the JSON form names its system and survives ``json.dumps``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction
from typing import Any

import pytest

from meneur.odds import brute_force
from meneur.odds.montecarlo import agrees
from meneur.rng import PhysicalDice, SeededDice
from meneur.systems.base import Check
from meneur.systems.registry import SYSTEMS

CASES = [
    pytest.param(system.name, check, params, id=f"{system.name}-{name}-{index}")
    for system in SYSTEMS
    for name, check in system.checks().items()
    for index, params in enumerate(check.examples())
]

CHECKS = [
    pytest.param(system.name, check, id=f"{system.name}-{name}")
    for system in SYSTEMS
    for name, check in system.checks().items()
]


def test_registry_lists_systems_with_checks() -> None:
    """The suite below is parametrised over this registry: an empty one would test nothing."""
    assert SYSTEMS, "no system registered"
    for system in SYSTEMS:
        assert system.checks(), f"{system.name} has no checks"


@pytest.mark.parametrize(("system", "check"), CHECKS)
def test_every_check_has_examples(system: str, check: Check[Any, Any]) -> None:
    assert check.examples(), f"{system}.{check.name} gives the suite no example"


@pytest.mark.parametrize(("system", "check", "params"), CASES)
def test_odds_equal_brute_force(system: str, check: Check[Any, Any], params: Any) -> None:
    exact = check.odds(params)
    assert sum(exact.probabilities().values()) == 1
    assert exact == brute_force(check, params)


@pytest.mark.parametrize(("system", "check", "params"), CASES)
def test_the_law_a_score_reads_equals_the_odds_by_score(
    system: str, check: Check[Any, Any], params: Any
) -> None:
    """``Check.score_odds`` (what a roll's luck is ranked among) may be coarser than the
    odds, never different: grouped by score, both give the same exact chances."""

    def by_score(law: Any) -> dict[float | None, Fraction]:
        out: dict[float | None, Fraction] = {}
        for key, weight in law.items():
            score = check.score(key)
            out[score] = out.get(score, Fraction(0)) + Fraction(weight, law.total)
        return out

    assert by_score(check.score_odds(params)) == by_score(check.odds(params))


@pytest.mark.parametrize(("system", "check", "params"), CASES)
def test_rolls_lie_in_support_and_replay(system: str, check: Check[Any, Any], params: Any) -> None:
    exact = check.odds(params)
    for seed in range(40):
        first = check.roll(params, [SeededDice(seed)])
        again = check.roll(params, [SeededDice(seed)])
        assert first == again
        assert check.key(first.outcome) in exact
        replayed = check.roll(params, [PhysicalDice(stream) for stream in first.faces])
        assert replayed.outcome == first.outcome
        data = check.to_json(params, first.outcome)
        assert data["system"] == system
        json.dumps(data)


@pytest.mark.parametrize(("system", "check", "params"), CASES)
def test_monte_carlo_agrees_with_exact_odds(
    system: str, check: Check[Any, Any], params: Any
) -> None:
    exact = check.odds(params)
    source = SeededDice(20261202)
    n = 4000
    counts = Counter(check.key(check.roll(params, [source]).outcome) for _ in range(n))
    for outcome, probability in exact.probabilities().items():
        assert agrees(probability, counts[outcome], n, sigmas=4.5), (
            outcome,
            probability,
            counts[outcome],
        )
    assert sum(counts.values()) == n
    assert all(exact.p(outcome) > Fraction(0) for outcome in counts)


PROCEDURE_CASES = [
    pytest.param(system.name, procedure, params, id=f"{system.name}-{name}-{index}")
    for system in SYSTEMS
    for name, procedure in system.procedures().items()
    for index, params in enumerate(procedure.examples())
]


def test_obscur_owns_its_play_procedures() -> None:
    """Issue 14: Obscur's fights, shots, journeys and care are procedures of the system."""
    from meneur.systems.registry import find_system

    assert set(find_system("obscur").procedures()) >= {"fight", "shot", "survive", "care"}


@pytest.mark.parametrize(("system", "procedure", "params"), PROCEDURE_CASES)
def test_procedures_replay_from_their_log_form(
    system: str, procedure: Check[Any, Any], params: Any
) -> None:
    """Every procedure's examples resolve; a seeded roll replays through ``resolve`` from the
    params' canonical JSON (what the roll log stores) to the same key, a JSON-friendly one."""
    for seed in range(8):
        streams = procedure.streams(params)
        first = procedure.roll(params, [SeededDice(seed)] * streams)
        stored = json.loads(json.dumps(procedure.params_json(params)))
        again = procedure.params_from_json(stored)
        assert again == params
        replayed = procedure.resolve(again, first.faces)
        key = procedure.key(first.outcome)
        assert procedure.key(replayed) == key
        assert json.loads(json.dumps(key)) is not None
        data = procedure.to_json(params, first.outcome)
        assert data["system"] == system
        json.dumps(data)


@pytest.mark.parametrize(
    ("system", "check", "params"),
    [*CASES, *PROCEDURE_CASES],
)
def test_the_log_form_of_params_is_pydantic_s_and_reads_back(
    system: str, check: Check[Any, Any], params: Any
) -> None:
    """The roll log's form of a roll's params (``params_json``) is pydantic's JSON dump of
    the params type, whether it is written without pydantic (plain dataclasses, the fast
    path) or through it, and it reads back to the very params."""
    from meneur.systems.base import _adapter

    stored = check.params_json(params)
    assert stored == _adapter(type(params)).dump_python(params, mode="json")
    assert check.params_from_json(json.loads(json.dumps(stored))) == params


class _Level(int):
    """As a Tunnels threshold typed by its level's name: an int that remembers."""

    provisional = True


class _Mode(str, Enum):  # noqa: UP042 - str() of this mixin is "_Mode.BLESSED", not the value
    BLESSED = "béni"


class _Count(IntEnum):
    TWO = 2


@dataclass(frozen=True)
class _Inner:
    mode: _Mode
    count: _Count


@dataclass(frozen=True)
class _Outer:
    level: int
    word: str
    inner: tuple[_Inner, ...]
    none: int | None
    flag: bool


def test_the_log_form_of_subclassed_values_is_pydantic_s() -> None:
    """An int subclass in an int field (a Tunnels threshold named by its level), a str
    subclass, enums and nested dataclasses: the log form written without pydantic is
    pydantic's."""
    from meneur.systems.base import _adapter, _plain

    class Word(str):
        pass

    value = _Outer(_Level(3), Word("a"), (_Inner(_Mode.BLESSED, _Count.TWO),), None, True)
    expected = _adapter(_Outer).dump_python(value, mode="json")
    assert _plain(value) == expected
    assert json.dumps(_plain(value)) == json.dumps(expected)
