"""Vectorised resolves agree with the scalar ``resolve`` on the same faces.

For every registered check and procedure (and the lab's vectorised resolves of checks
lacking the ``Check.vectorised`` hook), over each of its examples and over params drawn
from its hypothesis strategy: random faces, wide enough for the longest roll, go through
both; every run's key must be equal.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meneur.systems.base import Check
from meneur.systems.registry import SYSTEMS
from meneur.systems.registry import find_system as system_named

RUNS = 3000


def cases() -> list[tuple[str, str, Any]]:
    names = [s.name for s in SYSTEMS]
    found = []
    for name in names:
        for check_name, check in system_named(name).checks().items():
            for index, params in enumerate(check.examples()):
                if check.vectorised(params) is not None:
                    found.append((name, check_name, index))
    return found


CASES = cases()


def test_every_system_offers_a_vectorised_test() -> None:
    assert {"tunnels", "obscur", "krasses", "legendes"} <= {name for name, _, _ in CASES}


def _same_on_the_same_faces(check: Check[Any, Any], params: Any, seed: int, runs: int) -> None:
    vector = check.vectorised(params)
    assert vector is not None
    streams = check.streams(params)
    rng = np.random.default_rng(seed)
    faces = rng.integers(1, check.die_sides + 1, size=(runs, streams, vector.width))
    # a few rows of the extreme faces, where explosions and naturals live
    faces[0, :, :] = 1
    faces[1, :, :] = check.die_sides
    faces[2, :, ::2] = 1
    result = vector(faces)
    for i in range(runs):
        scalar = check.resolve(
            params, tuple(tuple(int(f) for f in faces[i, s]) for s in range(streams))
        )
        assert vector.key_at(result, i) == check.key(scalar), (i, params, faces[i].tolist())


@pytest.mark.parametrize(("system", "check_name", "index"), CASES)
def test_vectorised_equals_scalar(system: str, check_name: str, index: int) -> None:
    check = system_named(system).checks()[check_name]
    _same_on_the_same_faces(check, check.examples()[index], index + 17, RUNS)


def _procedures() -> list[tuple[str, str]]:
    return [(s.name, name) for s in SYSTEMS for name in s.procedures()]


def _with_strategies() -> list[tuple[str, str, bool]]:
    found = []
    for system in SYSTEMS:
        for name, check in {**system.checks(), **system.procedures()}.items():
            if check.params_strategy() is not None:
                found.append((system.name, name, name in system.procedures()))
    return found


def _of(system: str, name: str, procedure: bool) -> Check[Any, Any]:
    found = system_named(system)
    return (found.procedures() if procedure else found.checks())[name]


def test_tunnels_offers_its_fight_as_a_procedure() -> None:
    assert ("tunnels", "fight") in _procedures()


@pytest.mark.parametrize(("system", "name"), _procedures())
def test_procedure_vectorised_equals_scalar_on_its_examples(system: str, name: str) -> None:
    """Every procedure's numpy form ends every run as its scalar ``run`` on the same faces."""
    procedure = system_named(system).procedures()[name]
    examples = procedure.examples()
    assert examples, "a procedure gives examples"
    for index, params in enumerate(examples):
        if procedure.vectorised(params) is not None:
            _same_on_the_same_faces(procedure, params, index + 5, 400)


@pytest.mark.parametrize(("system", "name", "procedure"), _with_strategies())
def test_vectorised_equals_scalar_on_generated_params(
    system: str, name: str, procedure: bool
) -> None:
    """The same, on params that hypothesis draws from the check's own strategy."""
    check = _of(system, name, procedure)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(params=check.params_strategy(), seed=st.integers(0, 2**32 - 1))
    def agree(params: Any, seed: int) -> None:
        if check.vectorised(params) is not None:
            _same_on_the_same_faces(check, params, seed, 60)

    agree()


class _Faces:
    """Faces given in turn, as a reader's ``take`` gives them."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = iter(faces)

    def take(self, count: int) -> tuple[int, ...]:
        return tuple(next(self.faces) for _ in range(count))


@pytest.mark.parametrize("all_failed", [False, True])
@pytest.mark.parametrize("index", range(6))
def test_T12_vectorised_chance_equals_spend_chance(index: int, all_failed: bool) -> None:
    """T-12: automatic Chance, vectorised, ends as the system's ``spend_chance``."""
    from meneur.systems.tunnels.chance import spend_chance
    from meneur.systems.tunnels.vector import tunnels_chance
    from meneur.vector import ArrayReader

    check = system_named("tunnels").checks()["test"]
    params = check.examples()[index]
    runs, points = 1500, 3
    width = params.dice * (params.dice + 1) // 2
    rng = np.random.default_rng(index)
    faces = rng.integers(1, 7, size=(runs, width))
    rerolls = rng.integers(1, 7, size=(runs, points * 30))
    passed, spent = tunnels_chance(
        ArrayReader(faces), ArrayReader(rerolls), runs, params, points, all_failed
    )
    for i in range(runs):
        outcome = check.resolve(params, (tuple(int(f) for f in faces[i]),))
        result = spend_chance(
            params, outcome, points, _Faces(rerolls[i].tolist()).take, all_failed=all_failed
        )
        assert (bool(passed[i]), int(spent[i])) == (result.outcome.passed, result.spent), i


def _duel(a: str, b: str, **options: Any) -> Any:
    """Fight params from two example sheets (``strategy_a``, ``hargne_a``, ``vie_b``...)."""
    from dataclasses import replace
    from pathlib import Path

    from meneur.systems.obscur.combat import FightParams, fighter_of
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    chars = [load_character(Path(f"examples/obscur/{name}.toml")) for name in (a, b)]
    fighters, bodies = [], []
    for side, char in zip("ab", chars, strict=True):
        fighter = fighter_of(
            char,
            strategy=options.get(f"strategy_{side}"),
            opponents=options.get(f"opponents_{side}", 1),
            sheathed=options.get(f"sheathed_{side}", False),
            special=options.get(f"special_{side}"),
        )
        if f"hargne_{side}" in options:
            fighter = replace(fighter, hargne=options[f"hargne_{side}"])
        if f"second_arm_{side}" in options:  # a second weapon in hand (O-16)
            other = fighter_of(
                load_character(Path(f"examples/obscur/{options[f'second_arm_{side}']}.toml"))
            )
            fighter = replace(fighter, arms=(*fighter.arms, *other.arms))
        body = body_of(char)
        if f"vie_{side}" in options:
            body = replace(body, vie=options[f"vie_{side}"])
        if f"fatigue_{side}" in options:  # O-42: failed overload tests
            body = replace(body, fatigue=options[f"fatigue_{side}"])
        if f"agility_{side}" in options:
            fighter = replace(fighter, agility=options[f"agility_{side}"])
        if f"flee_{side}" in options:
            fighter = replace(fighter, flee_at=options[f"flee_{side}"])
        if f"overload_{side}" in options:  # O-42: Surencombrement, on movement rolls
            body = replace(body, overload=options[f"overload_{side}"])
            fighter = replace(fighter, overload=options[f"overload_{side}"])
        fighters.append(fighter)
        bodies.append(body)
    return FightParams(
        *fighters, *bodies, impress=options.get("impress", ()), max_rounds=options.get("rounds")
    )


DUELS = {
    "garance-corbeau (B flees, O-19)": ("garance", "corbeau", {}),
    "corbeau-garance prudente/totale": (
        "corbeau",
        "garance",
        {"strategy_a": "prudente", "strategy_b": "totale"},
    ),
    "ninon-garance attaque=2, outnumbered (O-17)": (
        "ninon",
        "garance",
        {"strategy_a": "attaque=2", "opponents_b": 2, "rounds": 4},
    ),
    "bruno bare hands-garance offensive": ("bruno", "garance", {"strategy_b": "offensive"}),
    "garance-garance simultaneous (O-11 tie)": ("garance", "garance", {}),
    "deadly blows (O-31 death)": ("garance", "ninon", {"hargne_a": 14, "vie_b": 3}),
    "both impress first (O-20)": ("corbeau", "garance", {"impress": ("a", "b")}),
    "B impresses (O-20)": ("garance", "corbeau", {"impress": ("b",)}),
    "two weapons against a fleer (O-16, O-19)": ("garance", "corbeau", {"second_arm_a": "ninon"}),
    "B draws while fighting (O-18)": ("garance", "corbeau", {"sheathed_b": True}),
    "both draw, A has two weapons (O-16, O-18)": (
        "garance",
        "ninon",
        {"sheathed_a": True, "sheathed_b": True, "second_arm_a": "ninon"},
    ),
    "coup puissant and coup à la tête (O-22)": (
        "garance",
        "corbeau",
        {"special_a": "Coup puissant", "special_b": "Coup à la tête"},
    ),
    "disarm, then draw again (O-22, O-18)": (
        "corbeau",
        "garance",
        {"special_a": "Désarmer", "impress": ("b",)},
    ),
    "wounded and fatigued: draw, impress, shock (O-18, O-20, O-28, O-29, O-42)": (
        "garance",
        "corbeau",
        {"vie_a": 8, "fatigue_a": 1, "vie_b": 11, "sheathed_b": True, "impress": ("a", "b")},
    ),
    "an overloaded fleer (O-19, O-42)": (
        "garance",
        "corbeau",
        {"overload_b": 2, "agility_b": 7, "flee_b": 14},
    ),
    "an overloaded crossbow in melee (O-11, O-42)": ("mireille", "ninon", {}),
    "two weapons each (O-16)": (
        "ninon",
        "garance",
        {"second_arm_a": "garance", "second_arm_b": "ninon", "strategy_b": "totale"},
    ),
}


@pytest.mark.parametrize("case", sorted(DUELS))
def test_obscur_duel_vectorised_equals_fight_with(case: str) -> None:
    """O-11..O-13, O-17, O-19, O-28, O-29, O-31: numpy duels end as the system's own fight."""
    from meneur.systems.obscur.combat import resolve_fight
    from meneur.systems.obscur.lab_duel import ENDS, obscur_duels_vector, vectorisable
    from meneur.vector import ArrayReader

    a, b, options = DUELS[case]
    params = _duel(a, b, **options)
    assert vectorisable(params)
    runs, width = 300, 2500
    rng = np.random.default_rng(len(case))
    faces_a = rng.integers(1, 7, size=(runs, width))
    faces_b = rng.integers(1, 7, size=(runs, width))
    result = obscur_duels_vector(params, (ArrayReader(faces_a), ArrayReader(faces_b)), runs)
    ends = set()
    for i in range(runs):
        fight = resolve_fight(params, (tuple(faces_a[i].tolist()), tuple(faces_b[i].tolist())))
        expected = (
            {"a": 1, "b": -1, None: 0}[fight.winner],
            fight.end,
            len(fight.rounds),
            fight.a["vie"],
            fight.b["vie"],
        )
        got = (
            int(result.winner[i]),
            ENDS[result.end[i]],
            int(result.rounds[i]),
            int(result.vie_a[i]),
            int(result.vie_b[i]),
        )
        assert got == expected, (case, i)
        ends.add(fight.end)
        if any("disengage" in record for record in fight.rounds):
            ends.add("tried to disengage")
    if "death" in case:
        assert "dead" in ends
    if "flees" in case:  # at Vie 3, pain (O-29) leaves Corbeau's Agilité few dice to break
        assert "tried to disengage" in ends
