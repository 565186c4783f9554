"""The previous exact engine (per-batch groups by extra dice), kept as a reference.

The engine in ``meneur.systems.tunnels.odds`` replaced it (issue 18); the tests check
that both give the same exact laws wherever this one runs (T-3 to T-9).


No sampling and no depth cut: a batch of n dice grants at most n - 1 extra dice (T-5),
so a pool of n dice rolls at most ``n(n+1)/2`` dice in all and the recursion is finite.

How it stays fast:

* one batch of n dice is a multinomial over face counts. Only four numbers of a batch
  matter to the rule: its successes, its ones and its sixes (both capped at 3, which is
  all the rule looks at) and its number of distinct faces (which gives the extra dice).
  :func:`batch_groups` computes their joint law by a small dynamic programme over the
  six faces (binomial weights), never touching the 6**n ordered tuples;
* the state of a test is (dice to roll next, successes still needed, ones so far, sixes
  state); the recursion over it is memoised (``functools.cache``), so a grid of queries
  shares its work;
* weights are exact integers: the law from a state with p dice pending is counted over
  6**(p(p+1)/2), the most dice it can still roll, and a child is scaled up to its parent
  by a power of 6. No ``Fraction`` arithmetic happens inside the recursion.
"""

from __future__ import annotations

from functools import cache, lru_cache
from math import comb

from meneur.errors import LimitError
from meneur.locale import N_
from meneur.odds.dist import Dist
from meneur.systems.tunnels.rules import (
    CRITICAL_ONES,
    EXCEPTIONAL_SIXES,
    LOWEST_SUCCESS,
    OpposedParams,
    Policy,
    SixesRule,
    TestParams,
    judge,
    wants_to_explode,
)

MAX_ODDS_DICE = 30
"""Largest pool the exact engine accepts (a 30-die pool may roll 465 dice)."""
MAX_OPPOSED_ODDS_DICE = 12
"""Largest side of an opposition with ``needed`` (the joint state grows fast: 8 against 8
takes about a second, 10 against 10 a few seconds)."""

Group = tuple[int, int, int, int, int]
"""(successes, ones capped at 3, sixes capped at 3, extra dice, weight) of one batch."""

TestKey = tuple[int, bool, bool]
"""(successes, exceptional, critical): what the test's odds distribute over."""


def most_dice(pending: int) -> int:
    """The most dice that ``pending`` dice can still bring (themselves included)."""
    return pending * (pending + 1) // 2


def check_odds_size(dice: int, limit: int = MAX_ODDS_DICE) -> None:
    if dice > limit:
        raise LimitError(
            N_("Exact odds are computed for at most {limit} dice, not {dice}."),
            limit=limit,
            dice=dice,
        )


@cache
def batch_groups(n: int, lowest: int) -> tuple[Group, ...]:
    """The joint law of (successes, ones, sixes, extra dice) of one batch of ``n`` d6.

    A dynamic programme over the faces 1..6: choosing which ``c`` of the remaining dice
    show the next face has ``comb(remaining, c)`` ways, so the weights are the
    multinomial counts of the 6**n ordered outcomes.
    """
    # state: (dice used, successes, ones capped, sixes capped, distinct faces) -> ways
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 1}
    for face in range(1, 7):
        grown: dict[tuple[int, int, int, int, int], int] = {}
        succeeds = face >= lowest
        last = face == 6
        for (used, successes, ones, sixes, distinct), ways in states.items():
            left = n - used
            low = left if last else 0  # the last face takes every die left
            for count in range(low, left + 1):
                key = (
                    used + count,
                    successes + count if succeeds else successes,
                    min(CRITICAL_ONES, count) if face == 1 else ones,
                    min(EXCEPTIONAL_SIXES, count) if last else sixes,
                    distinct + (count > 0),
                )
                grown[key] = grown.get(key, 0) + ways * comb(left, count)
        states = grown
    return tuple(
        (successes, ones, sixes, n - distinct, ways)
        for (_used, successes, ones, sixes, distinct), ways in sorted(states.items())
    )


@cache
def rule_groups(n: int, lowest: int, rule: SixesRule) -> tuple[Group, ...]:
    """:func:`batch_groups` with sixes reduced to what ``rule`` needs (0 or 3 per batch)."""
    if rule == "all":
        return batch_groups(n, lowest)
    merged: dict[tuple[int, int, int, int], int] = {}
    for successes, ones, sixes, extra, ways in batch_groups(n, lowest):
        key = (successes, ones, EXCEPTIONAL_SIXES if sixes >= EXCEPTIONAL_SIXES else 0, extra)
        merged[key] = merged.get(key, 0) + ways
    return tuple((*key, ways) for key, ways in merged.items())


@cache
def leaf_groups(n: int, lowest: int, rule: SixesRule) -> tuple[Group, ...]:
    """:func:`rule_groups` for a batch that will not explode (extra dice reported as 0).

    Four kinds of faces matter: 1, other failures, successes below 6, and 6; the law
    is a multinomial over their counts, O(n**3) terms instead of a walk over six faces.
    """
    failures, middles = lowest - 2, 6 - lowest
    merged: dict[tuple[int, int, int], int] = {}
    for ones in range(n + 1):
        for sixes in range(n - ones + 1):
            ways_16 = comb(n, ones) * comb(n - ones, sixes)
            left = n - ones - sixes
            for middle in range(left + 1):
                ways = ways_16 * comb(left, middle) * middles**middle * failures ** (left - middle)
                if not ways:
                    continue
                capped = min(EXCEPTIONAL_SIXES, sixes)
                if rule == "batch" and capped < EXCEPTIONAL_SIXES:
                    capped = 0
                key = (sixes + middle, min(CRITICAL_ONES, ones), capped)
                merged[key] = merged.get(key, 0) + ways
    return tuple((*key, 0, ways) for key, ways in merged.items())


def next_sixes(state: int, batch_sixes: int, rule: SixesRule) -> int:
    """The sixes state after a batch: 3 once three 6s showed as the rule counts them."""
    if rule == "all":
        return min(EXCEPTIONAL_SIXES, state + batch_sixes)
    return EXCEPTIONAL_SIXES if batch_sixes >= EXCEPTIONAL_SIXES else state


Tail = tuple[tuple[tuple[int, int, int], int], ...]
"""((successes added, ones at the end, sixes state at the end), weight) pairs."""


@cache
def _test_tail(
    n: int, need: int, ones: int, sixes: int, lowest: int, rule: SixesRule, policy: Policy
) -> Tail:
    """The law of the rest of a test once ``n`` dice are about to be rolled.

    ``need`` is the successes still missing (0 once the threshold is reached; only the
    ``needed`` policy looks at it). Weights count over 6**most_dice(n).
    """
    out: dict[tuple[int, int, int], int] = {}
    top = most_dice(n) - n
    groups = leaf_groups(n, lowest, rule) if policy == "never" else rule_groups(n, lowest, rule)
    for successes, batch_ones, batch_sixes, extra, ways in groups:
        ones_after = min(CRITICAL_ONES, ones + batch_ones)
        sixes_after = next_sixes(sixes, batch_sixes, rule)
        missing = max(0, need - successes)
        if extra and wants_to_explode(policy, missing > 0):
            scale = ways * 6 ** (top - most_dice(extra))
            child = _test_tail(
                extra,
                missing if policy == "needed" else 0,
                ones_after,
                sixes_after,
                lowest,
                rule,
                policy,
            )
            for (more, ones_end, sixes_end), weight in child:
                key = (successes + more, ones_end, sixes_end)
                out[key] = out.get(key, 0) + scale * weight
        else:
            key = (successes, ones_after, sixes_after)
            out[key] = out.get(key, 0) + ways * 6**top
    return tuple(out.items())


@lru_cache(maxsize=4096)
def test_odds(params: TestParams) -> Dist[TestKey]:
    """The exact law of (successes, exceptional, critical) of a test."""
    check_odds_size(params.dice)
    need = params.threshold if params.explode == "needed" else 0
    tail = _test_tail(
        params.dice, need, 0, 0, LOWEST_SUCCESS[params.mode], params.sixes, params.explode
    )
    weights: dict[TestKey, int] = {}
    for (successes, ones, sixes), weight in tail:
        critical = ones >= CRITICAL_ONES
        passed = successes >= params.threshold and not critical
        key = (successes, passed and sixes >= EXCEPTIONAL_SIXES, critical)
        weights[key] = weights.get(key, 0) + weight
    return Dist(weights)


test_odds.__test__ = False  # type: ignore[attr-defined]


# --- opposed test -----------------------------------------------------------------

OpposedKey = tuple[int, bool, bool, bool, bool]
"""(a's successes minus b's, three 6s a, critical a, three 6s b, critical b).

Winner, margin, each side's verdict and exceptional success all follow from it.
"""

SideState = tuple[int, int, int]
"""(dice pending, ones capped, sixes state) of one side."""


def _side_law(dice: int, lowest: int, rule: SixesRule, policy: Policy) -> Tail:
    """A side's law when its policy ignores the other side (``never`` or ``always``)."""
    return _test_tail(dice, 0, 0, 0, lowest, rule, policy)


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
    for successes, batch_ones, batch_sixes, extra, ways in rule_groups(pending, lowest, rule):
        state = (extra, min(CRITICAL_ONES, ones + batch_ones), next_sixes(sixes, batch_sixes, rule))
        key = (successes, state)
        merged[key] = merged.get(key, 0) + ways * 6 ** (top - most_dice(extra))
    return tuple((successes, state, factor) for (successes, state), factor in merged.items())


@lru_cache(maxsize=1024)
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
    check_odds_size(max(params.a.dice, params.b.dice))
    rule = params.sixes
    lowest_a, policy_a = LOWEST_SUCCESS[params.a.mode], params.a.explode
    lowest_b, policy_b = LOWEST_SUCCESS[params.b.mode], params.b.explode
    dice_a, dice_b = params.a.dice, params.b.dice
    weights: dict[OpposedKey, int] = {}
    if "needed" not in (policy_a, policy_b):  # independent sides: the laws multiply
        for (succ_a, ones_a, sixes_a), weight_a in _side_law(dice_a, lowest_a, rule, policy_a):
            for (succ_b, ones_b, sixes_b), weight_b in _side_law(dice_b, lowest_b, rule, policy_b):
                key = (
                    succ_a - succ_b,
                    sixes_a >= EXCEPTIONAL_SIXES,
                    ones_a >= CRITICAL_ONES,
                    sixes_b >= EXCEPTIONAL_SIXES,
                    ones_b >= CRITICAL_ONES,
                )
                weights[key] = weights.get(key, 0) + weight_a * weight_b
        return Dist(weights)
    check_odds_size(max(dice_a, dice_b), MAX_OPPOSED_ODDS_DICE)
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


def winner_odds(params: OpposedParams) -> Dist[tuple[str | None, int]]:
    """The exact law of (winner, margin) of an opposition."""
    return opposed_odds(params).map(lambda k: judge(max(k[0], 0), k[2], max(-k[0], 0), k[4]))


def clear_caches() -> None:
    """Forget every memoised result (for benchmarks that time a cold engine)."""
    for function in (
        batch_groups,
        rule_groups,
        leaf_groups,
        _test_tail,
        test_odds,
        _moves,
        opposed_odds,
    ):
        function.cache_clear()
