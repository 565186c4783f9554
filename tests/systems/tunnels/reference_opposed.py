"""The previous engine of an opposition with ``needed`` (T-9), kept as a reference.

:func:`meneur.systems.tunnels.opposed.needed_lead` replaced it (issue 18): this one walks
the joint state of both sides with one dict entry per (state a, state b, lead), the new
one keeps the whole law of the lead of a pair of states as one packed integer. The tests
check that both give the same exact laws wherever this one runs in seconds, and the
benchmark (``benchmarks/bench_tunnels_opposed.py``) times both. No size bound here.
"""

from __future__ import annotations

from functools import cache

from meneur.odds.dist import Dist
from meneur.systems.tunnels.odds import OpposedKey, independent_lead, side_law
from meneur.systems.tunnels.polylaw import batch_law, most_dice, next_six
from meneur.systems.tunnels.rules import (
    CRITICAL_ONES,
    EXCEPTIONAL_SIXES,
    LOWEST_SUCCESS,
    OpposedParams,
    SixesRule,
    judge,
    wants_to_explode,
)

SideState = tuple[int, int, int]
"""(dice pending, ones capped, sixes state) of one side."""


@cache
def _moves(
    pending: int, lowest: int, rule: SixesRule, ones: int, sixes: int
) -> tuple[tuple[int, SideState, int], ...]:
    """A side's possible batches from (pending, ones, sixes): (successes, next state, factor).

    The factor is the batch's weight times 6**(most_dice(pending) - pending -
    most_dice(extra)), which depends on this side only; batches that lead to the same
    next state and successes are merged, so the opposition walks fewer transitions.
    """
    merged: dict[tuple[int, SideState], int] = {}
    top = most_dice(pending) - pending
    for distinct, law in batch_law(pending, lowest, rule).items():
        extra = pending - distinct
        scale = 6 ** (top - most_dice(extra))
        for (batch_ones, batch_sixes), poly in law.items():
            ones_after = min(CRITICAL_ONES, ones + batch_ones)
            state = (extra, ones_after, next_six(sixes, batch_sixes, rule))
            for successes, ways in enumerate(poly):
                if ways:
                    key = (successes, state)
                    merged[key] = merged.get(key, 0) + ways * scale
    return tuple((successes, state, factor) for (successes, state), factor in merged.items())


def opposed_odds(params: OpposedParams) -> Dist[OpposedKey]:
    """The exact law of an opposition (T-9): lead, three 6s and critical of each side.

    When neither side plays ``needed``, the sides are independent and their laws
    multiply. Otherwise a forward dynamic programme runs over the joint state (each
    side's pending dice, ones, sixes, and the lead), merging equal states as it goes.
    Every step makes the total of pending dice fall (a side that explodes rolls p dice
    and keeps at most p - 1 pending), so states are expanded once, by decreasing total.

    Weights: a state with R = most_dice(pending a) + most_dice(pending b) still to come
    holds v with probability v / 6**(D - R), D being the most dice of the whole
    opposition; each step scales v by a power of 6 so that it stays an integer.
    """
    rule = params.sixes
    lowest_a, policy_a = LOWEST_SUCCESS[params.a.mode], params.a.explode
    lowest_b, policy_b = LOWEST_SUCCESS[params.b.mode], params.b.explode
    dice_a, dice_b = params.a.dice, params.b.dice
    weights: dict[OpposedKey, int] = {}
    if "needed" not in (policy_a, policy_b):  # independent sides: the laws multiply
        return Dist(
            independent_lead(
                side_law(dice_a, 0, lowest_a, rule, policy_a),
                side_law(dice_b, 0, lowest_b, rule, policy_b),
            )
        )
    # Side a's batch and side b's batch of one step are expanded one after the other
    # (a state whose ``b_next`` is set must roll b's pending dice next, with no choice),
    # so a step costs |moves a| + |moves b| per state instead of their product.
    Key = tuple[SideState, SideState, int, bool]
    buckets: dict[int, dict[Key, int]] = {}
    for succ_a, next_a, factor in _moves(dice_a, lowest_a, rule, 0, 0):
        key0: Key = (next_a, (dice_b, 0, 0), succ_a, True)
        bucket = buckets.setdefault(next_a[0] + dice_b, {})
        bucket[key0] = bucket.get(key0, 0) + factor
    for pending in range(max(buckets, default=0), -1, -1):
        for (state_a, state_b, lead, b_next), value in buckets.pop(pending, {}).items():
            pending_a, ones_a, sixes_a = state_a
            pending_b, ones_b, sixes_b = state_b
            here = most_dice(pending_a) + most_dice(pending_b)
            go_a = go_b = False
            if not b_next:
                critical_a, critical_b = ones_a >= CRITICAL_ONES, ones_b >= CRITICAL_ONES
                winner, _ = judge(max(lead, 0), critical_a, max(-lead, 0), critical_b)
                go_a = pending_a > 0 and wants_to_explode(policy_a, winner != "a")
                go_b = pending_b > 0 and wants_to_explode(policy_b, winner != "b")
                if not (go_a or go_b):
                    final = (
                        lead,
                        sixes_a >= EXCEPTIONAL_SIXES,
                        critical_a,
                        sixes_b >= EXCEPTIONAL_SIXES,
                        critical_b,
                    )
                    weights[final] = weights.get(final, 0) + value * 6**here
                    continue
            if b_next or not go_a:  # b rolls now (its first batch, or alone this step)
                for add_b, next_b, factor in _moves(pending_b, lowest_b, rule, ones_b, sixes_b):
                    key1: Key = (state_a, next_b, lead - add_b, False)
                    bucket = buckets.setdefault(pending_a + next_b[0], {})
                    bucket[key1] = bucket.get(key1, 0) + value * factor
                continue
            for add_a, next_a, factor in _moves(pending_a, lowest_a, rule, ones_a, sixes_a):
                key3: Key = (next_a, state_b, lead + add_a, go_b)
                bucket = buckets.setdefault(next_a[0] + pending_b, {})
                bucket[key3] = bucket.get(key3, 0) + value * factor
    return Dist(weights)
