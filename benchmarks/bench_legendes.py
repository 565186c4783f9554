"""Exact Légendes odds: meneur's engine against icepool, same questions, same answers.

For every hero pool 0..N, opposition 0..3 (the four levels) and circumstance -2/0/+2,
both compute the exact probability of each of the nine outcome keys (L-8). The answers
are checked equal, then timed: meneur cold (caches cleared before each pass) and warm,
icepool as it comes. Run: ``python benchmarks/bench_legendes.py [--max-dice N] [--runs R]``.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import icepool

from meneur.systems.legendes.odds import difference_ways, opposed_odds, sum_ways
from meneur.systems.legendes.rules import OpposedParams, band_of, outcome_key


def key_of(difference: int) -> str:
    band = band_of(difference)
    return "tie" if band == "tie" else outcome_key("pc" if difference > 0 else "opposition", band)


def grid(max_dice: int) -> list[OpposedParams]:
    return [
        OpposedParams(dice=dice, vs_dice=vs, modifier=modifier)
        for dice in range(max_dice + 1)
        for vs in range(4)
        for modifier in (-2, 0, 2)
    ]


def ours(cases: list[OpposedParams]) -> list[dict[str, Fraction]]:
    return [opposed_odds(p).probabilities() for p in cases]


def theirs(cases: list[OpposedParams]) -> list[dict[str, Fraction]]:
    results = []
    for p in cases:
        die = ((p.pc_dice @ icepool.d6 + p.pc_bonus) - (p.opposition_dice @ icepool.d6)).map(key_of)
        results.append({str(k): Fraction(die.probability(k)) for k in die.outcomes()})
    return results


def best_of(runs: int, function: object, *args: object) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        function(*args)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def cold(cases: list[OpposedParams]) -> None:
    sum_ways.cache_clear()
    difference_ways.cache_clear()
    ours(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-dice", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cases = grid(args.max_dice)
    assert ours(cases) == theirs(cases), "meneur and icepool disagree"
    t_cold = best_of(args.runs, cold, cases)
    t_warm = best_of(args.runs, ours, cases)
    t_ice = best_of(args.runs, theirs, cases)
    print(
        f"{len(cases)} opposed rolls (0..{args.max_dice} dice vs 0..3, "
        "circumstance -2/0/+2), all 9 bands"
    )
    print(f"{'engine':<22}{'seconds':>10}{'ratio to icepool':>20}")
    print(f"{'meneur (cold caches)':<22}{t_cold:>10.4f}{t_cold / t_ice:>20.3f}")
    print(f"{'meneur (warm)':<22}{t_warm:>10.4f}{t_warm / t_ice:>20.3f}")
    print(f"{'icepool':<22}{t_ice:>10.4f}{1.0:>20.3f}")
    big = OpposedParams(dice=30, vs_dice=30)
    sum_ways.cache_clear()
    difference_ways.cache_clear()
    t_big = best_of(1, opposed_odds, big)
    start = time.perf_counter()
    die = ((30 @ icepool.d6) - (30 @ icepool.d6)).map(key_of)
    die.probability("tie")
    t_big_ice = time.perf_counter() - start
    ratio = t_big / t_big_ice
    print(f"30 dice vs 30 (cold): meneur {t_big:.4f}s, icepool {t_big_ice:.4f}s, ratio {ratio:.3f}")


if __name__ == "__main__":
    main()
