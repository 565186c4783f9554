"""Vectorised resolves agree with the scalar ``resolve`` on the same faces.

For every registered check (and the lab's vectorised resolves of checks lacking the
``Check.vectorised`` hook), over each of its examples: random faces, wide enough for the
longest roll, go through both; every run's key must be equal.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meneur.lab.adapters import system_named
from meneur.systems.registry import SYSTEMS

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


@pytest.mark.parametrize(("system", "check_name", "index"), CASES)
def test_vectorised_equals_scalar(system: str, check_name: str, index: int) -> None:
    check = system_named(system).checks()[check_name]
    params = check.examples()[index]
    vector = check.vectorised(params)
    streams = check.streams(params)
    rng = np.random.default_rng(index + 17)
    faces = rng.integers(1, check.die_sides + 1, size=(RUNS, streams, vector.width))
    # a few rows of the extreme faces, where explosions and naturals live
    faces[0, :, :] = 1
    faces[1, :, :] = check.die_sides
    faces[2, :, ::2] = 1
    result = vector(faces)
    for i in range(RUNS):
        scalar = check.resolve(
            params, tuple(tuple(int(f) for f in faces[i, s]) for s in range(streams))
        )
        assert vector.key_at(result, i) == check.key(scalar), (i, faces[i].tolist())


class _Faces:
    kind = "physical"

    def __init__(self, faces: list[int]) -> None:
        self.faces = iter(faces)

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return tuple(next(self.faces) for _ in range(count))

    def finish(self) -> None:
        return None


@pytest.mark.parametrize("all_failed", [False, True])
@pytest.mark.parametrize("index", range(6))
def test_T12_vectorised_chance_equals_spend_chance(index: int, all_failed: bool) -> None:
    """T-12: automatic Chance, vectorised, ends as the system's ``spend_chance``."""
    from meneur.lab.vector import ArrayReader, tunnels_chance
    from meneur.systems.tunnels.chance import spend_chance

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
            params, outcome, points, _Faces(rerolls[i].tolist()), all_failed=all_failed
        )
        assert (bool(passed[i]), int(spent[i])) == (result.outcome.passed, result.spent), i
