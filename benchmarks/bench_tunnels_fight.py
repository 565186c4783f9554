"""Exact odds of a whole Tunnels melee against a monster (T-10, T-11), beside a reference.

meneur values every state (MR, Endurance, wounded) as an integer over one common
denominator (``combat_odds._common_denominator``). The reference below is the recursion
the engine used before, in reduced ``Fraction``s: the same chain, the same round laws
(computed once, outside both timings), a gcd at every addition. Both answers are checked
equal; the reference runs only where it finishes within ``--budget`` seconds.

Run: ``python benchmarks/bench_tunnels_fight.py [--budget S] [--quick]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from functools import cache

from meneur.systems.tunnels.combat import loss_points
from meneur.systems.tunnels.combat_odds import p_win_against_monster
from meneur.systems.tunnels.odds import winner_odds
from meneur.systems.tunnels.rules import OpposedParams, Policy, Side

CASES = [(4, 8, 3), (6, 20, 6), (8, 20, 8), (10, 30, 10), (14, 60, 14), (20, 60, 20)]
"""(Force, Endurance, MR), each with ``always`` (a round's law is then quick at any size,
so the figure is the chain's own cost)."""


def reference(force: int, endurance: int, mr: int, explode: Policy) -> Fraction:
    """The melee's chance by recursion over reduced fractions (the engine before)."""

    @cache
    def law(m: int) -> list[tuple[str | None, int, Fraction]]:
        dist = winner_odds(OpposedParams(Side(force, explode=explode), Side(m, explode=explode)))
        return [(winner, margin, dist.p((winner, margin))) for winner, margin in dist]

    @cache
    def value(m: int, e: int, hurt: bool) -> Fraction:
        if m <= 0:
            return Fraction(1)
        total = tie = Fraction(0)
        for winner, margin, p in law(m):
            lost = 0 if winner is None else loss_points(margin, "margin")
            if lost == 0:
                tie += p
            elif winner == "a":
                total += p * value(m - lost, e, hurt)
            elif e - lost > 0:
                total += p * value(m, e - lost, hurt)
            elif not hurt:
                total += p * value(m, endurance, True)
        return total / (1 - tie)

    for m in range(1, mr + 1):
        law(m)  # the round laws, outside the timing (both engines share them)
    started = time.perf_counter()
    answer = value(mr, endurance, False)
    reference.seconds = time.perf_counter() - started  # type: ignore[attr-defined]
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=30.0, help="the reference's budget, s")
    parser.add_argument("--quick", action="store_true", help="the first four cases only")
    args = parser.parse_args()
    sys.setrecursionlimit(100_000)
    cases = CASES[:4] if args.quick else CASES
    print("Tunnels melee odds, explode always; round laws computed before the timings")
    print(f"{'Force v MR, Endurance':<24}{'meneur s':>10}{'Fraction s':>12}{'ratio':>8}  bits")
    reference_alive = True
    for force, endurance, mr in cases:
        for m in range(1, mr + 1):  # warm the round laws' cache for both engines
            winner_odds(OpposedParams(Side(force, explode="always"), Side(m, explode="always")))
        started = time.perf_counter()
        ours = p_win_against_monster(force, endurance, mr, explode="always")
        seconds = time.perf_counter() - started
        theirs, ratio = "-", ""
        if reference_alive:
            expected = reference(force, endurance, mr, "always")
            assert expected == ours, (force, endurance, mr)
            slow = reference.seconds  # type: ignore[attr-defined]
            theirs, ratio = f"{slow:.2f}", f"{slow / seconds:.0f}x"
            reference_alive = slow < args.budget / 10  # the next case costs ~10x more
        label = f"{force} v {mr}, E {endurance}"
        bits = ours.denominator.bit_length()
        print(f"{label:<24}{seconds:>10.2f}{theirs:>12}{ratio:>8}  {bits}")


if __name__ == "__main__":
    main()
