"""The design lab's speed, each figure beside its reference, measured in the same run.

Exact odds (issue 8, "Speed"), through ``meneur table``'s engine (``lab.fastgrid`` and
the systems' ``lab_grid`` rows: one die multiplied in per row, integer weights, cells
exact):

* the Obscur grid (dice 1..30 × difficulty 1..30), against icepool (``n @ die`` per
  pool, then the tail per difficulty);
* the Tunnels grid without explosion (dice 1..20 × threshold 1..dice × 3 modes), against
  icepool summing a die of (success, one) vectors (critical failure needs the ones);
* the Tunnels grid with explosion (``always``, dice 1..N), against icepool: each batch
  as ``d6.pool(n).expand()`` (sorted multisets), recursing on the extra dice, memoised.
  Every probability is checked equal to icepool's within 1e-12.

Simulation:

* numpy alone drawing d6 faces (the floor of any simulation), per second;
* Tunnels tests of 5 dice without explosion and with ``always`` (sixes and ones
  tracked), per second, against the rate of faces (5 per test) and a plain Python loop
  (the system's own ``Check.roll``);
* whole Tunnels fights (4 dice, Endurance 8, against MR 3, to the end) per second;
* whole Obscur duels (the example sheets Garance and Corbeau) per second, numpy against
  the system's own ``fight_with`` in a Python loop;
* memory: peak RSS growth from 2·10^6 to 2·10^7 tests (chunked: it should not grow).

Every figure is the best of a few runs (15 for the exact grids, both sides); exact
engines have their caches cleared before each run (rule data stays loaded). The
machine may be shared: expect ±30 %.

Run: ``python benchmarks/bench_lab.py [--quick]``.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import icepool
import numpy as np

from meneur.lab.grid import probability
from meneur.lab.simulate import run_chunks
from meneur.systems.obscur.lab_adapter import ADAPTER as OBSCUR
from meneur.systems.tunnels.combat import against_monster
from meneur.systems.tunnels.lab import tunnels_fights, tunnels_test_chunk
from meneur.systems.tunnels.lab_adapter import ADAPTER as TUNNELS

MODES = {"normal": 4, "blessed": 3, "cursed": 5}
EXACT_REPEAT = 15
"""Best of 15 for the exact grids, on both sides (a millisecond figure is noisy here)."""


def timed(function: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def line(name: str, ours: float, theirs: float, unit: str, reference: str, higher: bool) -> None:
    ratio = ours / theirs if higher else theirs / ours
    print(
        f"{name:<46} meneur {ours:>14,.3f} {unit:<8} "
        f"{reference:<22} {theirs:>14,.3f}   x{ratio:,.1f}"
    )


def clear_caches() -> None:
    from meneur.lab import fastgrid
    from meneur.systems.obscur import odds as obscur_odds
    from meneur.systems.tunnels import lab_grid as tunnels_grid
    from meneur.systems.tunnels import odds as tunnels_odds

    fastgrid.clear_caches()
    tunnels_grid.clear_caches()
    obscur_odds.power.cache_clear()
    obscur_odds.class_dist.cache_clear()
    tunnels_odds.clear_caches()


# --- exact odds -------------------------------------------------------------------------


def obscur_ours() -> dict[tuple[int, int], float]:
    clear_caches()
    grid = OBSCUR.grid("test", {}, "1..30", "1..30")
    return {
        (grid.rows.values[r], grid.columns.values[c]): probability(v, "success")  # type: ignore[misc]
        for (_, r, c), v in grid.cells.items()
    }


def obscur_icepool() -> dict[tuple[int, int], float]:
    die = icepool.Die([0, 0, 0, 1, 1, 2])
    out = {}
    for n in range(1, 31):
        total = n @ die
        for d in range(1, 31):
            out[(n, d)] = float(total.probability(">=", d))
    return out


def tunnels_plain_ours() -> dict[tuple[str, int, int], float]:
    clear_caches()
    out = {}
    for mode in MODES:
        grid = TUNNELS.grid("test", {"explode": "never"}, "1..20", "1..20", mode)
        for (_, r, c), v in grid.cells.items():
            dice, threshold = grid.rows.values[r], grid.columns.values[c]
            if threshold <= dice:  # type: ignore[operator]
                out[(mode, dice, threshold)] = probability(v, "success")
    return out


def tunnels_plain_icepool() -> dict[tuple[str, int, int], float]:
    out = {}
    for mode, lowest in MODES.items():
        die = icepool.Die([icepool.Vector((int(f >= lowest), int(f == 1))) for f in range(1, 7)])
        for n in range(1, 21):
            total = n @ die
            for t in range(1, n + 1):
                out[(mode, n, t)] = float(
                    sum(total.probability(v) for v in total.outcomes() if v[0] >= t and v[1] < 3)
                )
    return out


def tunnels_explode_ours(top: int) -> dict[tuple[int, int], float]:
    clear_caches()
    grid = TUNNELS.grid("test", {"explode": "always"}, f"1..{top}", f"1..{top}", "normal")
    return {
        (grid.rows.values[r], grid.columns.values[c]): probability(v, "success")  # type: ignore[misc]
        for (_, r, c), v in grid.cells.items()
    }


def tunnels_explode_icepool(top: int) -> dict[tuple[int, int], float]:
    """icepool's sorted multisets per batch, recursion on the extra dice (memoised)."""

    @cache
    def batch(n: int) -> list[tuple[tuple[int, int, int], int, float]]:
        items = []
        expanded = icepool.d6.pool(n).expand()
        for faces in expanded.outcomes():
            p = expanded.probability(faces)
            key = (sum(f >= 4 for f in faces), faces.count(1), n - len(set(faces)))
            items.append((key, faces.count(6), float(p)))
        merged: dict[tuple[int, int, int], float] = {}
        for key, _, p in items:
            merged[key] = merged.get(key, 0.0) + p
        return [(k, 0, p) for k, p in merged.items()]

    @cache
    def tail(n: int, ones: int) -> dict[tuple[int, int], float]:
        out: dict[tuple[int, int], float] = {}
        for (s, o, extra), _, p in batch(n):
            o2 = min(3, ones + o)
            if extra:
                for (s2, o3), q in tail(extra, o2).items():
                    key = (s + s2, o3)
                    out[key] = out.get(key, 0.0) + p * q
            else:
                out[(s, o2)] = out.get((s, o2), 0.0) + p
        return out

    result = {}
    for n in range(1, top + 1):
        law = tail(n, 0)
        for t in range(1, top + 1):
            result[(n, t)] = sum(p for (s, o), p in law.items() if s >= t and o < 3)
    return result


def same(a: dict[Any, float], b: dict[Any, float]) -> float:
    assert a.keys() == b.keys(), (len(a), len(b))
    worst = max(abs(a[k] - b[k]) for k in a)
    assert worst < 1e-12, worst
    return worst


# --- simulation -------------------------------------------------------------------------


def numpy_faces_per_second(n: int) -> float:
    rng = np.random.default_rng(1)
    seconds, _ = timed(lambda: rng.integers(1, 7, size=n, dtype=np.uint8), 3)
    return n / seconds


def tests_per_second(explode: str, runs: int) -> float:
    from meneur.systems.tunnels.rules import TestParams

    params = TestParams(dice=5, threshold=3, explode=explode)  # type: ignore[arg-type]
    one = tunnels_test_chunk(params)
    seconds, _ = timed(lambda: run_chunks(runs, one, seed=1, progress=False), 3)
    return runs / seconds


def python_tests_per_second(explode: str, runs: int) -> float:
    from meneur.rng import make_source
    from meneur.systems.tunnels.rules import TestParams, TunnelsTest

    params = TestParams(dice=5, threshold=3, explode=explode)  # type: ignore[arg-type]
    check, source = TunnelsTest(), make_source(seed=1)

    def loop() -> None:
        for _ in range(runs):
            check.roll(params, [source])

    seconds, _ = timed(loop)
    return runs / seconds


def fights_per_second(runs: int) -> float:
    fight = against_monster(4, 8, 3)
    seconds, _ = timed(
        lambda: run_chunks(
            runs, lambda rng, n: tunnels_fights(fight, rng, n), seed=1, progress=False
        ),
        3,
    )
    return runs / seconds


def python_fights_per_second(runs: int) -> float:
    from meneur.rng import make_source
    from meneur.systems.tunnels.combat import fight

    source = make_source(seed=1)

    def loop() -> None:
        for _ in range(runs):
            fight(against_monster(4, 8, 3), [source, source])

    seconds, _ = timed(loop)
    return runs / seconds


def obscur_duel_params() -> Any:
    from pathlib import Path

    from meneur.systems.obscur.combat import FightParams, fighter_of
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    root = Path(__file__).resolve().parent.parent / "examples" / "obscur"
    a, b = (load_character(root / f"{name}.toml") for name in ("garance", "corbeau"))
    return FightParams(fighter_of(a), fighter_of(b), body_of(a), body_of(b))


def obscur_duels_per_second(runs: int) -> float:
    from meneur.systems.obscur.lab_duel import obscur_duel_tally

    params = obscur_duel_params()
    seconds, _ = timed(
        lambda: run_chunks(
            runs,
            lambda rng, n: obscur_duel_tally(params, rng, n),
            seed=1,
            chunk=1 << 16,
            progress=False,
        ),
        3,
    )
    return runs / seconds


def python_duels_per_second(runs: int) -> float:
    from meneur.systems.obscur.lab import obscur_duels

    params = obscur_duel_params()
    seconds, _ = timed(
        lambda: run_chunks(
            runs, lambda rng, n: obscur_duels(params, rng, n), seed=1, chunk=1000, progress=False
        )
    )
    return runs / seconds


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads")
    args = parser.parse_args()
    top = 8 if args.quick else 12
    runs = 2_000_000 if args.quick else 10_000_000

    print("Exact odds (milliseconds, lower is better; ratio = icepool / meneur)")
    ours, mine = timed(obscur_ours, EXACT_REPEAT)
    theirs, ref = timed(obscur_icepool, EXACT_REPEAT)
    same(mine, ref)
    line("Obscur grid 30 x 30", ours * 1e3, theirs * 1e3, "ms", "icepool", higher=False)
    ours, mine = timed(tunnels_plain_ours, EXACT_REPEAT)
    theirs, ref = timed(tunnels_plain_icepool, EXACT_REPEAT)
    same(mine, ref)
    line(
        "Tunnels grid, no explosion, 1..20 x 3 modes",
        ours * 1e3,
        theirs * 1e3,
        "ms",
        "icepool",
        higher=False,
    )
    ours, mine = timed(lambda: tunnels_explode_ours(top), EXACT_REPEAT)
    theirs, ref = timed(lambda: tunnels_explode_icepool(top), EXACT_REPEAT)
    same(mine, ref)
    line(
        f"Tunnels grid, explosion always, 1..{top}",
        ours * 1e3,
        theirs * 1e3,
        "ms",
        "icepool multisets",
        higher=False,
    )

    print("\nSimulation (per second, higher is better)")
    faces = numpy_faces_per_second(runs * 5)
    plain = tests_per_second("never", runs)
    line(
        "Tunnels 5d6 tests, no explosion",
        plain,
        faces / 5,
        "tests/s",
        "numpy d6 faces / 5",
        higher=True,
    )
    python_plain = python_tests_per_second("never", 20_000)
    line(
        "Tunnels 5d6 tests, no explosion",
        plain,
        python_plain,
        "tests/s",
        "Python Check.roll",
        higher=True,
    )
    boom = tests_per_second("always", runs)
    line(
        "Tunnels 5d6 tests, explosion always",
        boom,
        faces / 5,
        "tests/s",
        "numpy d6 faces / 5",
        higher=True,
    )
    python_boom = python_tests_per_second("always", 20_000)
    line(
        "Tunnels 5d6 tests, explosion always",
        boom,
        python_boom,
        "tests/s",
        "Python Check.roll",
        higher=True,
    )
    fights = fights_per_second(runs // 5)
    python_fights = python_fights_per_second(2_000)
    line(
        "Tunnels fights 4d6 E8 vs MR 3",
        fights,
        python_fights,
        "fights/s",
        "Python combat.fight",
        higher=True,
    )

    duels = obscur_duels_per_second(runs // 20)
    python_duels = python_duels_per_second(1_000)
    line(
        "Obscur duels Garance vs Corbeau (numpy)",
        duels,
        python_duels,
        "duels/s",
        "Python fight_with",
        higher=True,
    )

    print("\nMemory (chunked runs)")
    from meneur.systems.tunnels.rules import TestParams

    one = tunnels_test_chunk(TestParams(dice=5, threshold=3, explode="always"))
    run_chunks(2_000_000, one, seed=2, progress=False)
    before = peak_mb()
    run_chunks(20_000_000, one, seed=2, progress=False)
    print(f"peak RSS after 2e6 tests {before:,.0f} MB, after 2e7 tests {peak_mb():,.0f} MB")


if __name__ == "__main__":
    main()
