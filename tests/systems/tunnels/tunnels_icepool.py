"""An independent exact oracle for the Tunnels test, written with icepool.

icepool has no explode-on-doubles, so one batch is a multiset evaluator (successes,
ones, sixes, extra dice) and the explosions are a recursive map over batch results.
Outcomes are coded as integers (successes * 100 + ones * 10 + sixes state) to keep
icepool's outcome handling simple.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import icepool


class BatchEvaluator(icepool.MultisetEvaluator):  # type: ignore[misc]
    """One batch of d6: successes, ones (capped at 3), sixes (capped at 3), extra dice."""

    def __init__(self, lowest: int) -> None:
        self.lowest = lowest

    def next_state(self, state: Any, order: Any, outcome: int, count: int) -> Any:
        successes, ones, sixes, extra = state or (0, 0, 0, 0)
        if outcome >= self.lowest:
            successes += count
        if outcome == 1:
            ones = min(3, count)
        if outcome == 6:
            sixes = min(3, count)
        if count >= 2:
            extra += count - 1
        return (successes, ones, sixes, extra)

    def final_outcome(self, final_state: Any, *args: Any, **kwargs: Any) -> int:
        successes, ones, sixes, extra = final_state or (0, 0, 0, 0)
        return successes * 10000 + extra * 100 + ones * 10 + sixes


@cache
def batch_die(n: int, lowest: int) -> Any:
    return BatchEvaluator(lowest).evaluate(icepool.d6.pool(n))


@cache
def tail(n: int, need: int, ones: int, sixes: int, lowest: int, rule: str, policy: str) -> Any:
    def step(code: int) -> Any:
        successes, rest = divmod(code, 10000)
        extra, rest = divmod(rest, 100)
        batch_ones, batch_sixes = divmod(rest, 10)
        ones_after = min(3, ones + batch_ones)
        if rule == "all":
            sixes_after = min(3, sixes + batch_sixes)
        else:
            sixes_after = 3 if batch_sixes >= 3 else sixes
        missing = max(0, need - successes)
        if extra and (policy == "always" or (policy == "needed" and missing > 0)):
            child = tail(extra, missing, ones_after, sixes_after, lowest, rule, policy)
            return child.map(lambda c: c + successes * 100)
        return icepool.Die([successes * 100 + ones_after * 10 + sixes_after])

    return batch_die(n, lowest).map(step)


def icepool_test_law(
    dice: int, threshold: int, *, lowest: int = 4, policy: str = "needed", rule: str = "batch"
) -> dict[tuple[int, bool, bool], Fraction]:
    """(successes, exceptional, critical) -> exact probability, as the engine keys it."""
    die = tail(dice, threshold if policy == "needed" else 0, 0, 0, lowest, rule, policy)
    law: dict[tuple[int, bool, bool], Fraction] = {}
    denominator = die.denominator()
    for code, weight in die.items():
        successes, rest = divmod(code, 100)
        ones, sixes = divmod(rest, 10)
        critical = ones >= 3
        passed = successes >= threshold and not critical
        key = (successes, passed and sixes >= 3, critical)
        law[key] = law.get(key, Fraction(0)) + Fraction(weight, denominator)
    return law
