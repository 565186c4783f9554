"""Exact odds of Légendes rolls: the sum of each side's d6, then their difference.

Both sides sum their dice, so the whole roll is two independent sums. The number of ways
to show each sum of ``n`` d6 is computed once by convolution (integers, cached); the
difference of the two totals is another convolution; each difference falls in one band
(L-8) or one help effect (L-11). Nothing is sampled: weights are exact integers and the
probabilities ``Fraction``s, equal to brute-force enumeration of the same ``resolve``.
"""

from __future__ import annotations

from functools import cache

from meneur.odds.dist import Dist
from meneur.systems.legendes.rules import (
    HelpParams,
    OpposedParams,
    compare,
    help_effect,
    lesser,
    outcome_key,
)

SIDES = 6


@cache
def sum_ways(dice: int) -> tuple[int, ...]:
    """``ways[s]`` = the number of face sequences of ``dice`` d6 summing to ``s``."""
    ways: tuple[int, ...] = (1,)
    for _ in range(dice):
        grown = [0] * (len(ways) + SIDES)
        for total, count in enumerate(ways):
            if count:
                for face in range(1, SIDES + 1):
                    grown[total + face] += count
        ways = tuple(grown)
    return ways


@cache
def difference_ways(dice: int, vs_dice: int) -> dict[int, int]:
    """Ways for each value of (sum of ``dice`` d6) − (sum of ``vs_dice`` d6)."""
    mine, theirs = sum_ways(dice), sum_ways(vs_dice)
    ways: dict[int, int] = {}
    for a, wa in enumerate(mine):
        if not wa:
            continue
        for b, wb in enumerate(theirs):
            if wb:
                ways[a - b] = ways.get(a - b, 0) + wa * wb
    return ways


def opposed_odds(params: OpposedParams) -> Dist[str]:
    """The exact distribution of the outcome keys (``win:partial``, ``tie``...) of a roll."""
    if params.swept:
        return Dist.certain(outcome_key("pc", lesser("definitive", None)))
    shift = params.pc_bonus - params.opposition_bonus
    weights: dict[str, int] = {}
    for raw, count in difference_ways(params.pc_dice, params.opposition_dice).items():
        winner, band = compare(raw + shift, 0)
        key = outcome_key(winner, band)
        weights[key] = weights.get(key, 0) + count
    return Dist(weights)


def help_odds(params: HelpParams) -> Dist[str]:
    """The exact distribution of help effects (L-11), the helped one's wound applied (L-13)."""
    shift = params.modifier - params.helped_bonus
    weights: dict[str, int] = {}
    for raw, count in difference_ways(params.helper_dice, params.helped_pool).items():
        effect = help_effect(raw + shift)
        weights[effect] = weights.get(effect, 0) + count
    return Dist(weights)
