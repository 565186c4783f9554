"""Brute-force odds: every face sequence pushed through a check's own ``resolve``.

Slow and obviously right. The conformance suite compares it, exactly, with each
system's fast odds engine on small pools.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from meneur.errors import LimitError
from meneur.locale import N_
from meneur.odds.dist import Dist
from meneur.systems.base import Check, Faces, NeedMoreDice

MAX_LEAVES = 3_000_000


def brute_force(
    check: Check[Any, Any], params: Any, *, max_leaves: int = MAX_LEAVES
) -> Dist[Hashable]:
    """The exact distribution of ``check.key`` by enumerating every face sequence."""
    sides = check.die_sides
    probabilities: dict[Hashable, Fraction] = {}
    stack: list[Faces] = [tuple(() for _ in range(check.streams(params)))]
    leaves = 0
    while stack:
        faces = stack.pop()
        try:
            outcome = check.resolve(params, faces)
        except NeedMoreDice as need:
            for extra in itertools.product(range(1, sides + 1), repeat=need.count):
                grown = list(faces)
                grown[need.stream] = faces[need.stream] + extra
                stack.append(tuple(grown))
            continue
        leaves += 1
        if leaves > max_leaves:
            raise LimitError(
                N_("Brute force stopped after {limit} face sequences."), limit=max_leaves
            )
        key = check.key(outcome)
        drawn = sum(len(stream) for stream in faces)
        probabilities[key] = probabilities.get(key, Fraction(0)) + Fraction(1, sides**drawn)
    return Dist.from_fractions(probabilities)
