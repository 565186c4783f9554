"""Exact Krâsses odds: meneur's engine against icepool, same questions, same answers.

Three workloads, each answered by both engines, checked equal as Fractions, then timed:

* test: P(success) for every bonus -10..40 and difficulty 0..60 (K-1, K-2);
* opposed: P(a wins) for bonuses 0..20 x 0..20, two PCs, ties rerolled (K-4): icepool
  gives one exchange, the geometric series is summed as w_a / (w_a + w_b); meneur's
  cache of exchanges (by bonus difference) is cleared before each run (cold figure);
* cooperation: P(success) of groups of 3 and 4 members (K-7): icepool maps the rule over
  every face of every member; meneur conditions on the leader and convolves the helpers.

Run: ``python benchmarks/bench_krasses.py [--runs R]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from meneur.systems.krasses.odds import (
    _exchange_weights,
    cooperate_p_success,
    p_a_wins,
    test_p_success,
)
from meneur.systems.krasses.rules import CooperateParams, Member, OpposeParams, Side, TestParams

TEST_CASES = [(b, d) for b in range(-10, 41) for d in range(0, 61)]
OPPOSE_CASES = [(a, b) for a in range(21) for b in range(21)]
GROUPS: dict[int, list[tuple[Member, ...]]] = {
    3: [
        (Member(5, 1), Member(3, 1), Member(6, 0)),
        (Member(2, 2), Member(8, 1), Member(0, 0)),
        (Member(10, 3), Member(-2, 1), Member(4, 1)),
    ],
    4: [
        (Member(5, 1), Member(3, 1), Member(6, 0), Member(1, 2)),
        (Member(9, 2), Member(4, 1), Member(0, 1), Member(7, 0)),
    ],
}
DIFFICULTY = 20


def ours_test() -> list[Fraction]:
    return [test_p_success(TestParams(bonus=b, difficulty=d)) for b, d in TEST_CASES]


def theirs_test() -> list[Fraction]:
    out = []
    for b, d in TEST_CASES:
        die = icepool.d20.map(lambda f, b=b, d=d: f == 20 or (f != 1 and f + b >= d))
        out.append(Fraction(die.probability(True)))
    return out


def ours_oppose() -> list[Fraction]:
    _exchange_weights.cache_clear()  # cold: every run recounts the exchanges it needs
    return [p_a_wins(OpposeParams(Side(a, "pc"), Side(b, "pc"))) for a, b in OPPOSE_CASES]


def exchange(x: int, y: int, a: int, b: int) -> int:
    if (x == 20) != (y == 20):
        return 1 if x == 20 else -1
    if (x == 1) != (y == 1):
        return -1 if x == 1 else 1
    diff = (x + a) - (y + b)
    return (diff > 0) - (diff < 0)


def theirs_oppose() -> list[Fraction]:
    out = []
    for a, b in OPPOSE_CASES:
        die = icepool.map(lambda x, y, a=a, b=b: exchange(x, y, a, b), icepool.d20, icepool.d20)
        wins, losses = die.quantity(1), die.quantity(-1)
        out.append(Fraction(wins, wins + losses))
    return out


def group_passes(faces: tuple[int, ...], members: tuple[Member, ...]) -> bool:
    totals = [f + m.bonus for f, m in zip(faces, members, strict=True)]
    lead = max(range(len(totals)), key=lambda i: (totals[i], -i))
    bonus = sum(
        2
        for i, (f, m) in enumerate(zip(faces, members, strict=True))
        if i != lead and m.level >= 1 and f != 1 and (f == 20 or totals[i] >= 15)
    )
    if faces[lead] in (1, 20):
        return faces[lead] == 20
    return totals[lead] + bonus >= DIFFICULTY


def ours_coop(size: int) -> list[Fraction]:
    return [cooperate_p_success(CooperateParams(g, DIFFICULTY)) for g in GROUPS[size]]


def theirs_coop(size: int) -> list[Fraction]:
    out = []
    for group in GROUPS[size]:
        die = icepool.map(
            lambda *faces, group=group: group_passes(faces, group), *([icepool.d20] * size)
        )
        out.append(Fraction(die.probability(True)))
    return out


def best_of(runs: int, function: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = function(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    Engine = Callable[..., list[Fraction]]
    rows: list[tuple[str, Engine, Engine, tuple[int, ...]]] = [
        (f"test ({len(TEST_CASES)} cases)", ours_test, theirs_test, ()),
        (f"opposed PC/PC ({len(OPPOSE_CASES)} cases)", ours_oppose, theirs_oppose, ()),
        (f"cooperation, 3 members ({len(GROUPS[3])})", ours_coop, theirs_coop, (3,)),
        (f"cooperation, 4 members ({len(GROUPS[4])})", ours_coop, theirs_coop, (4,)),
    ]
    print(f"{'workload':<34}{'meneur ms':>11}{'icepool ms':>12}{'ratio':>9}  equal")
    for name, ours, theirs, args in rows:
        ours_time, ours_result = best_of(runs, ours, *args)
        theirs_runs = 1 if args == (4,) else runs
        theirs_time, theirs_result = best_of(theirs_runs, theirs, *args)
        equal = ours_result == theirs_result
        ratio = theirs_time / ours_time
        print(
            f"{name:<34}{ours_time * 1000:>11.2f}{theirs_time * 1000:>12.2f}"
            f"{ratio:>8.1f}x  {'yes' if equal else 'NO'}"
        )
        if not equal:
            raise SystemExit(f"{name}: the engines disagree")
    print("ratio = icepool time / meneur time (above 1: meneur is faster)")


if __name__ == "__main__":
    main()
