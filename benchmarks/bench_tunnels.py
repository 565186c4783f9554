"""Tunnels benchmarks: our figure beside the reference and the ratio, in one run.

1. Exact odds with explosion, the three counts (successes, sixes, ones) kept, every
   policy, over the grid dice 1..12 x threshold 1..dice: meneur's engine against
   icepool's fastest exact formulation we know (a multiset evaluator for one batch and a
   memoised recursive map for the explosions; icepool has no explode-on-doubles).
   Both start cold; both memoise across the grid. Results must agree to 1e-12.
2. Cached repeats of one query (microseconds).
3. One random test through the Python API (5 dice, ``needed``) against
   ``d20.roll("5d6")`` from Avrae's d20 library (which parses and rolls, nothing more).

Run: ``python benchmarks/bench_tunnels.py`` (``--quick`` for a smaller grid).
"""

from __future__ import annotations

import sys
import time
import timeit
from fractions import Fraction
from functools import cache
from typing import Any

import d20
import icepool

from meneur.rng import SeededDice
from meneur.systems.tunnels.odds import clear_caches, test_odds
from meneur.systems.tunnels.rules import POLICIES, TestParams, TunnelsTest

Key = tuple[int, bool, bool]


class BatchEvaluator(icepool.MultisetEvaluator):  # type: ignore[misc]
    """One batch of d6: successes, ones and sixes (capped at 3), extra dice."""

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


def icepool_engine() -> Any:
    """A fresh (cold) icepool formulation; returns law(dice, threshold, policy)."""

    @cache
    def batch_die(n: int) -> Any:
        return BatchEvaluator(4).evaluate(icepool.d6.pool(n))

    @cache
    def tail(n: int, need: int, ones: int, sixes: int, policy: str) -> Any:
        def step(code: int) -> Any:
            successes, rest = divmod(code, 10000)
            extra, rest = divmod(rest, 100)
            batch_ones, batch_sixes = divmod(rest, 10)
            ones_after = min(3, ones + batch_ones)
            sixes_after = 3 if batch_sixes >= 3 else sixes
            missing = max(0, need - successes)
            if extra and (policy == "always" or (policy == "needed" and missing > 0)):
                child = tail(
                    extra, missing if policy == "needed" else 0, ones_after, sixes_after, policy
                )
                return child.map(lambda c: c + successes * 100)
            return icepool.Die([successes * 100 + ones_after * 10 + sixes_after])

        return batch_die(n).map(step)

    def law(dice: int, threshold: int, policy: str) -> dict[Key, float]:
        die = tail(dice, threshold if policy == "needed" else 0, 0, 0, policy)
        total = die.denominator()
        out: dict[Key, Fraction] = {}
        for code, weight in die.items():
            successes, rest = divmod(code, 100)
            ones, sixes = divmod(rest, 10)
            critical = ones >= 3
            key = (successes, successes >= threshold and not critical and sixes >= 3, critical)
            out[key] = out.get(key, Fraction(0)) + Fraction(weight, total)
        return {k: float(v) for k, v in out.items()}

    return law


def grid(max_dice: int) -> list[tuple[int, int, str]]:
    return [(n, t, p) for p in POLICIES for n in range(1, max_dice + 1) for t in range(1, n + 1)]


def ours(
    cells: list[tuple[int, int, str]],
) -> tuple[float, dict[tuple[int, int, str], dict[Key, float]]]:
    clear_caches()
    start = time.perf_counter()
    laws = {}
    for n, t, p in cells:
        law = test_odds(TestParams(n, t, explode=p))  # type: ignore[arg-type]
        laws[(n, t, p)] = law
    elapsed = time.perf_counter() - start
    return elapsed, {
        cell: {k: float(v) for k, v in law.probabilities().items()} for cell, law in laws.items()
    }


def theirs(
    cells: list[tuple[int, int, str]],
) -> tuple[float, dict[tuple[int, int, str], dict[Key, float]]]:
    law = icepool_engine()
    start = time.perf_counter()
    laws = {(n, t, p): law(n, t, p) for n, t, p in cells}
    return time.perf_counter() - start, laws


def main() -> None:
    quick = "--quick" in sys.argv
    max_dice = 8 if quick else 12
    cells = grid(max_dice)
    print(f"Tunnels benchmarks (icepool {icepool.__version__})")
    print(
        f"\n1. Exact odds, grid dice 1..{max_dice} x threshold 1..dice"
        f" x {len(POLICIES)} policies ({len(cells)} laws)"
    )
    our_time, our_laws = ours(cells)
    their_time, their_laws = theirs(cells)
    worst = 0.0
    for cell, law in our_laws.items():
        other = their_laws[cell]
        assert set(law) == set(other), cell
        worst = max(worst, max(abs(law[k] - other[k]) for k in law))
    assert worst <= 1e-12, worst
    print(f"   meneur   {our_time * 1000:10.1f} ms")
    print(f"   icepool  {their_time * 1000:10.1f} ms")
    print(f"   ratio    {their_time / our_time:10.1f}x faster   (largest difference {worst:.1e})")
    for policy in POLICIES:
        sub = [c for c in cells if c[2] == policy]
        a, _ = ours(sub)
        b, _ = theirs(sub)
        print(
            f"   {policy:7s} meneur {a * 1000:8.1f} ms   icepool {b * 1000:9.1f} ms   {b / a:6.1f}x"
        )

    print("\n2. Cached repeat of one query (12 dice, threshold 6, needed)")
    params = TestParams(12, 6, explode="needed")
    test_odds(params)
    n = 200_000
    cached = min(timeit.repeat(lambda: test_odds(params), number=n, repeat=3)) / n
    print(f"   meneur   {cached * 1e6:10.2f} µs per query")

    print("\n3. One random test through the Python API (5 dice, needed, threshold 3)")
    check = TunnelsTest()
    test = TestParams(5, 3, explode="needed")
    source = SeededDice(1)
    n = 100_000
    ours_rate = n / min(timeit.repeat(lambda: check.roll(test, [source]), number=n, repeat=3))
    d20_rate = n / min(timeit.repeat(lambda: d20.roll("5d6"), number=n, repeat=3))
    print(f"   meneur test      {ours_rate:12,.0f} tests/s")
    print(f"   d20.roll('5d6')  {d20_rate:12,.0f} rolls/s")
    print(f"   ratio            {ours_rate / d20_rate:12.2f}x")


if __name__ == "__main__":
    main()
