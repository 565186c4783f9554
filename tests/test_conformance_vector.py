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
from meneur.lab.vector import vector_for
from meneur.systems.registry import SYSTEMS

RUNS = 3000


def cases() -> list[tuple[str, str, Any]]:
    names = [s.name for s in SYSTEMS]
    if "tunnels" not in names:  # served by the lab until the registry lists it
        names.append("tunnels")
    found = []
    for name in names:
        for check_name, check in system_named(name).checks().items():
            for index, params in enumerate(check.examples()):
                if vector_for(name, check_name, check, params) is not None:
                    found.append((name, check_name, index))
    return found


CASES = cases()


def test_every_system_offers_a_vectorised_test() -> None:
    assert {"tunnels", "obscur", "krasses", "legendes"} <= {name for name, _, _ in CASES}


@pytest.mark.parametrize(("system", "check_name", "index"), CASES)
def test_vectorised_equals_scalar(system: str, check_name: str, index: int) -> None:
    check = system_named(system).checks()[check_name]
    params = check.examples()[index]
    vector = vector_for(system, check_name, check, params)
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
