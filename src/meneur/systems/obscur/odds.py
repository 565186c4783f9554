"""Exact odds of Obscur tests (O-2 to O-10), never sampled.

* A plain test: every die is independent, so the successes are the coefficients of
  ``(3 + 2x + x^2)^n`` (or the zero-rule variants), computed with Python integers; a
  Maladresse is the single all-ones sequence.
* A reroll (O-10) only changes each die's face distribution (in 36ths): still
  independent dice.
* A score adjustment on chosen dice shifts those dice; the best ("auto") adjustment
  depends on the whole roll, and is handled by the small machine of ``automaton``:
  dice are convolved over (successes, class).

The key of a test is ``(successes, fumble)``; the verdict and margin follow from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from meneur.odds.dist import Dist
from meneur.systems.obscur.automaton import machine
from meneur.systems.obscur.depassement import reroll_up_to
from meneur.systems.obscur.rules import OpposeParams, TestParams, duel, verdict
from meneur.systems.obscur.scoring import Scoring

TestKey = tuple[int, bool]


def face_weights(reroll_tier: int) -> tuple[int, ...]:
    """Weights of faces 1..6 for one die after a reroll tier (out of 6, or 36 with a reroll)."""
    up_to = reroll_up_to(reroll_tier)
    if up_to == 0:
        return (1, 1, 1, 1, 1, 1)
    return tuple((6 if face > up_to else 0) + up_to for face in range(1, 7))


def die_polynomial(weights: Sequence[int], values: Sequence[int], shift: int = 0) -> list[int]:
    """One die's successes as polynomial coefficients (index = successes)."""
    poly = [0] * (max(values) + 1)
    for face, weight in enumerate(weights, start=1):
        poly[values[min(face + shift, 6) - 1]] += weight
    return poly


def multiply(p: Sequence[int], q: Sequence[int]) -> list[int]:
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


@cache
def power(poly: tuple[int, ...], n: int) -> tuple[int, ...]:
    """``poly ** n`` by squaring (cached: tables and the advisor ask the same powers)."""
    result: list[int] = [1]
    base = list(poly)
    while n:
        if n & 1:
            result = multiply(result, base)
        n >>= 1
        if n:
            base = multiply(base, base)
    return tuple(result)


def successes_weights(n: int, scoring: Scoring, reroll_tier: int = 0) -> tuple[int, ...]:
    """Integer weights of 0, 1, 2... successes for ``n`` independent dice."""
    poly = die_polynomial(face_weights(reroll_tier), scoring.values)
    return power(tuple(poly), n)


def plain_dist(n: int, scoring: Scoring, reroll_tier: int = 0) -> Dist[TestKey]:
    """(successes, fumble) for ``n`` dice with no score adjustment."""
    if n == 0:
        return Dist.certain((0, False))
    weights = successes_weights(n, scoring, reroll_tier)
    ones = face_weights(reroll_tier)[0] ** n
    items: dict[TestKey, int] = {(s, False): w for s, w in enumerate(weights) if w}
    items[(0, False)] = weights[0] - ones
    items[(0, True)] = ones
    return Dist(items)


def explicit_adjust_dist(params: TestParams) -> Dist[TestKey]:
    """Chosen dice raised: those dice shift, the others stay; no Maladresse is left."""
    weights = face_weights(params.push.reroll)
    values = params.scoring.values
    adjusted = dict(params.push.adjust_on or ())
    plain = die_polynomial(weights, values)
    poly: list[int] = list(power(tuple(plain), params.pool - len(adjusted)))
    for inc in adjusted.values():
        poly = multiply(poly, die_polynomial(weights, values, inc))
    return Dist({(s, False): w for s, w in enumerate(poly) if w})


def auto_adjust_dist(n: int, scoring: Scoring, reroll_tier: int, tier: int) -> Dist[TestKey]:
    """The best score adjustment of ``tier`` (as ``resolve`` chooses it), by the machine."""
    table = machine(scoring)
    states = class_dist(n, scoring, reroll_tier)
    items: dict[TestKey, int] = {}
    for (s, cls), w in states.items():
        key = (s + table.gains[cls][tier], table.all_ones[cls] and tier == 0)
        items[key] = items.get(key, 0) + w
    return Dist(items)


@cache
def class_dist(
    n: int, scoring: Scoring, reroll_tier: int, start: int | None = None
) -> dict[tuple[int, int], int]:
    """Weights of (successes, machine class) after ``n`` dice from class ``start``."""
    table = machine(scoring)
    values = scoring.values
    weights = face_weights(reroll_tier)
    if n == 0:
        return {(0, table.start if start is None else start): 1}
    previous = class_dist(n - 1, scoring, reroll_tier, start)
    out: dict[tuple[int, int], int] = {}
    for (s, cls), w in previous.items():
        row = table.step[cls]
        for face in range(6):
            key = (s + values[face], row[face])
            out[key] = out.get(key, 0) + w * weights[face]
    return out


def test_dist(params: TestParams) -> Dist[TestKey]:
    """The exact distribution of (successes, fumble) of a test."""
    if params.automatic is not None:
        return Dist.certain((0, False))
    if params.pool == 0:
        return Dist.certain((0, False))
    if params.push.adjust == 0:
        return plain_dist(params.pool, params.scoring, params.push.reroll)
    if params.push.adjust_on is not None:
        return explicit_adjust_dist(params)
    return auto_adjust_dist(params.pool, params.scoring, params.push.reroll, params.push.adjust)


def oppose_dist(params: OpposeParams) -> Dist[tuple[str | None, int]]:
    a = test_dist(params.a).map(lambda key: key[0])
    b = test_dist(params.b).map(lambda key: key[0])
    return a.combine(b, lambda x, y: duel(x, y))  # type: ignore[return-value]


def summary(params: TestParams) -> tuple[Dist[TestKey], dict[str, object]]:
    """The distribution and the figures of ``meneur odds obscur`` (p_success, p_fumble...)."""
    dist = test_dist(params)
    by_successes = dist.map(lambda key: key[0])
    p_success = dist.p_where(lambda key: verdict(params, key[0], key[1])[0])
    if params.automatic is not None:
        p_success = dist.p_where(lambda key: params.automatic == "success")
    p_fumble = dist.p_where(lambda key: key[1])
    return dist, {
        "p_success": p_success,
        "p_fumble": p_fumble,
        "successes": {s: by_successes.p(s) for s in sorted(by_successes.outcomes())},
    }
