"""Exact odds of the Krâsses checks, as integer weights (never sampled).

* test: one d20, so the distribution is the twenty faces pushed through K-1/K-2; the
  chance of success also has a closed form (:func:`success_count`) used by the CLI;
* opposition: the 400 pairs of faces of one exchange give integer weights for "a wins",
  "b wins" and "tie". When ties are rolled again (two PCs, two NPCs: K-4) the rounds form
  a geometric series, ``P(a) = sum_k t^k * w_a = w_a / (1 - t)``: in integers, the weights
  of the decisive pairs over ``400 - ties``, which is exact;
* cooperation: condition on who leads and on the leader's face; every other member is then
  independent (their face is bounded by the leader's total, first-listed winning ties), so
  the number of helpers is a convolution of small distributions: ``O(n^2 * 20^2)``
  instead of ``20^n``.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cache

from meneur.odds.dist import Dist
from meneur.systems.krasses.rules import (
    HELP_BONUS,
    NATURAL_FAILURE,
    NATURAL_SUCCESS,
    SIDES,
    CooperateParams,
    Kind,
    OpposeParams,
    Side,
    TestParams,
    decide,
    helps,
    passes,
)

FACES = range(1, SIDES + 1)


def success_count(bonus: int, difficulty: int) -> int:
    """Faces of a d20 (out of 20) that pass: 20 always, 1 never, else face >= D - bonus."""
    lowest = max(NATURAL_FAILURE + 1, difficulty - bonus)
    middle = max(0, (NATURAL_SUCCESS - 1) - lowest + 1)
    return middle + 1


def test_p_success(params: TestParams) -> Fraction:
    """P(success) of a test (K-1, K-2, K-3): 1 for *Automatique*."""
    target = params.target
    if target is None:
        return Fraction(1)
    return Fraction(success_count(params.bonus + params.modifier, target), SIDES)


def test_dist(params: TestParams) -> Dist[Hashable]:
    """The distribution of ``(passed, margin)`` of a test."""
    target = params.target
    if target is None:
        return Dist.certain((True, None))
    bonus = params.bonus + params.modifier
    return Dist(((passes(f, f + bonus, target), f + bonus - target), 1) for f in FACES)


def round_weights(params: OpposeParams) -> dict[tuple[str, str | None], int]:
    """Integer weights (out of 400) of each result of one exchange of an opposition.

    An exchange depends on the bonuses only through their difference, clipped to +/-20
    (beyond, the totals never tie nor cross), so the 400 pairs are counted once per
    difference and tie rule and cached.
    """
    delta = (params.a.bonus + params.a.modifier) - (params.b.bonus + params.b.modifier)
    clipped = max(-SIDES, min(SIDES, delta))
    return dict(_exchange_weights(clipped, params.naturals, params.a.kind, params.b.kind))


@cache
def _exchange_weights(
    delta: int, naturals: bool, a_kind: Kind, b_kind: Kind
) -> tuple[tuple[tuple[str, str | None], int], ...]:
    params = OpposeParams(Side(delta, a_kind), Side(0, b_kind), naturals=naturals)
    weights: dict[tuple[str, str | None], int] = {}
    for a in FACES:
        for b in FACES:
            key = decide(a, b, a + delta, b, params)
            weights[key] = weights.get(key, 0) + 1
    return tuple(weights.items())


def oppose_dist(params: OpposeParams) -> Dist[Hashable]:
    """The distribution of ``(winner, decided_by)`` of an opposition, rerolls included.

    Dropping the reroll weight and renormalising is the geometric series summed: the
    probability of an outcome over every number of rerolls is ``w / (400 - w_tie)``.
    """
    weights = round_weights(params)
    decisive: dict[Hashable, int] = {key: w for key, w in weights.items() if key[0] != "reroll"}
    return Dist(decisive)


def p_a_wins(params: OpposeParams) -> Fraction:
    return oppose_dist(params).p_where(lambda key: isinstance(key, tuple) and key[0] == "a")


def p_tie_round(params: OpposeParams) -> Fraction:
    """The chance that one exchange is a tie rolled again (0 for a PC against an NPC)."""
    return Fraction(round_weights(params).get(("reroll", None), 0), SIDES * SIDES)


def expected_rerolls(params: OpposeParams) -> Fraction:
    """Mean number of rerolls: a geometric count, ``t / (1 - t)``."""
    tie = p_tie_round(params)
    return tie / (1 - tie)


def _helper_weights(params: CooperateParams, index: int, ceiling: int, strict: bool) -> list[int]:
    """Weights of (no help, help) of member ``index`` given that its total stays under the
    leader's total ``ceiling`` (strictly if it is listed before the leader)."""
    member = params.members[index]
    weights = [0, 0]
    for face in FACES:
        total = face + member.bonus
        if total > ceiling or (strict and total == ceiling):
            continue
        weights[1 if helps(member, face, total) else 0] += 1
    return weights


def _convolve(left: list[int], right: list[int]) -> list[int]:
    out = [0] * (len(left) + len(right) - 1)
    for i, x in enumerate(left):
        if x:
            for j, y in enumerate(right):
                out[i + j] += x * y
    return out


def cooperate_dist(params: CooperateParams) -> Dist[Hashable]:
    """The distribution of ``(leader, helpers, passed)`` of a cooperation (K-7)."""
    members = params.members
    target = params.target
    weights: dict[Hashable, int] = {}
    for leader, member in enumerate(members):
        for face in FACES:
            total = face + member.bonus
            counts = [1]  # counts[h]: weight of h helpers among the others
            for other in range(len(members)):
                if other == leader:
                    continue
                counts = _convolve(counts, _helper_weights(params, other, total, other < leader))
            for helpers, weight in enumerate(counts):
                if weight:
                    passed = passes(face, total + HELP_BONUS * helpers, target)
                    key = (leader, helpers, passed)
                    weights[key] = weights.get(key, 0) + weight
    return Dist(weights)


def cooperate_p_success(params: CooperateParams) -> Fraction:
    return cooperate_dist(params).p_where(lambda key: isinstance(key, tuple) and bool(key[2]))
