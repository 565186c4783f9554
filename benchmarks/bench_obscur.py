"""Exact Obscur odds: meneur's engine against icepool, and the Dépassement advisor's time.

Workloads:

* odds: for every pool of 1..40 dice and each scoring (normal, zero skill, zero
  attribute), the whole distribution of successes, P(success) at difficulties 1..12 and
  P(Maladresse) (O-2, O-3, O-5, O-6, O-8). icepool answers the same questions with
  ``n @ die`` on a fresh die; both answers are checked equal as Fractions, then timed.
  meneur's polynomial cache is cleared before each run (cold figure).
* rerolls: the same with a Dépassement reroll tier (O-10), icepool's ``reroll(depth=1)``.
* advisor: ``push obscur --dice 10 --points 6`` before the roll (O-10), for one
  difficulty cold (every cache cleared, the small machine rebuilt) and warm, and for
  difficulties 1..12. The target is under 0.1 s; icepool has no such query.

Run: ``python benchmarks/bench_obscur.py [--runs R]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from meneur.systems.obscur import advisor, automaton, odds
from meneur.systems.obscur.depassement import PushPlan
from meneur.systems.obscur.rules import TestParams
from meneur.systems.obscur.scoring import Scoring

POOLS = range(1, 41)
DIFFICULTIES = range(1, 13)
SCORINGS = (Scoring.NORMAL, Scoring.ZERO_SKILL, Scoring.ZERO_ATTRIBUTE)

Answer = tuple[dict[int, Fraction], list[Fraction], Fraction]


def _flags(scoring: Scoring) -> dict[str, bool]:
    return {
        "zero_skill": scoring is Scoring.ZERO_SKILL,
        "zero_attribute": scoring is Scoring.ZERO_ATTRIBUTE,
    }


def ours(reroll: int = 0) -> list[Answer]:
    odds.power.cache_clear()
    out: list[Answer] = []
    for scoring in SCORINGS:
        for n in POOLS:
            params = TestParams(n, push=PushPlan(reroll=reroll), **_flags(scoring))
            dist = odds.test_dist(params)
            by = dist.map(lambda key: key[0])
            successes = {s: by.p(s) for s in by.outcomes()}
            tail = [dist.p_where(lambda key, d=d: key[0] >= d) for d in DIFFICULTIES]
            out.append((successes, tail, dist.p_where(lambda key: key[1])))
    return out


def theirs(reroll: int = 0) -> list[Answer]:
    out: list[Answer] = []
    up_to = reroll
    for scoring in SCORINGS:
        values = scoring.values
        base = icepool.Die(range(1, 7))  # a fresh die: nothing cached from a previous run
        if up_to:
            base = base.reroll(lambda f: f <= up_to, depth=1)
        scored = base.map(lambda f, values=values: values[f - 1])
        ones = base.map(lambda f: f == 1)
        for n in POOLS:
            total = n @ scored
            successes = {int(s): Fraction(total.probability(s)) for s in total.outcomes()}
            successes = {s: p for s, p in successes.items() if p}
            tail = [Fraction(total.probability(">=", d)) for d in DIFFICULTIES]
            fumble = Fraction(ones.probability(True)) ** n
            out.append((successes, tail, fumble))
    return out


def clear_all() -> None:
    automaton.machine.cache_clear()
    odds.class_dist.cache_clear()
    advisor.best_gain.cache_clear()
    advisor.reroll_hits.cache_clear()


def advise(difficulty: int) -> Any:
    return advisor.advise_before(10, difficulty, 6)


def timed(function: Callable[[], Any], runs: int) -> tuple[float, Any]:
    best = float("inf")
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    print(f"{'workload':<44} {'meneur':>10} {'icepool':>10} {'ratio':>8}")
    for label, reroll in (
        ("odds, 1-40 dice x 3 scorings x 12 SR", 0),
        ("odds with reroll tier 2, same", 2),
    ):
        t_ours, a = timed(lambda reroll=reroll: ours(reroll), args.runs)
        t_theirs, b = timed(lambda reroll=reroll: theirs(reroll), args.runs)
        assert a == b, "meneur and icepool disagree"
        print(f"{label:<44} {t_ours:>9.4f}s {t_theirs:>9.4f}s {t_theirs / t_ours:>7.1f}x")
    one = 40
    t_ours, _ = timed(
        lambda: (odds.power.cache_clear(), odds.summary(TestParams(one, difficulty=20))), args.runs
    )
    t_theirs, _ = timed(
        lambda: (
            one @ icepool.Die(range(1, 7)).map(lambda f: (0, 0, 0, 1, 1, 2)[f - 1])
        ).probability(">=", 20),
        args.runs,
    )
    print(
        f"{'one query: 40 dice, SR 20 (cold)':<44} {t_ours:>9.4f}s {t_theirs:>9.4f}s "
        f"{t_theirs / t_ours:>7.1f}x"
    )

    print()
    print(f"{'advisor (10 dice, 6 points, before the roll)':<44} {'time':>10} {'target':>10}")
    t_cold, _ = timed(lambda: (clear_all(), advise(6)), args.runs)
    print(f"{'  SR 6, every cache cleared':<44} {t_cold:>9.4f}s {'< 0.1s':>10}")
    advise(6)
    t_warm, options = timed(lambda: advise(7), 1)
    print(f"{'  SR 7, machine built (warm)':<44} {t_warm:>9.4f}s {'< 0.1s':>10}")
    t_all, _ = timed(lambda: (clear_all(), [advise(d) for d in DIFFICULTIES]), 1)
    print(f"{'  SR 1..12, cold start':<44} {t_all:>9.4f}s {'':>10}")
    t_hard, _ = timed(lambda: (clear_all(), advise(12)), args.runs)
    print(f"{'  SR 12 (little passes outright), cold':<44} {t_hard:>9.4f}s {'< 0.1s':>10}")
    best = options[0]
    print(
        f"  best at SR 7: +{best.plan.dice} tier, keep {best.kept}, P = {float(best.p_success):.4f}"
    )


if __name__ == "__main__":
    main()
