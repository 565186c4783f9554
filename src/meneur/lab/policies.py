"""When to spend a resource, by simulation: each policy's success rate with its interval.

A policy is a rule for spending a limited resource; the lab plays the same rolls under
every policy of a system and counts how often the goal is reached and what it cost:

* **Tunnels, Chance (T-12)** on one test: never; one point rerolls the lowest failed die
  while the test fails; one point rerolls every failed die (the T-12 option).
* **Obscur, Dépassement (O-10)**: a budget of points shared by a series of tests of the
  same pool and difficulty (a scene): never; ``dice`` buys +1 die (tier 1) before every
  test while points last; ``reroll`` rerolls a failed roll (the highest tier affordable:
  the 1s, then the 1s and 2s...); ``adjust`` buys, after a failed roll, the cheapest
  score adjustment that makes it pass, if one is affordable (the system's own
  ``best_assignment``). Success: every test passed; also counted: tests passed.
* **Légendes, motivation (L-12)** in a conflict to its end (L-8, L-13, L-14): never;
  ``early`` spends a point (+1 die) on every roll while points last; ``wounded`` only once
  the hero is wounded; ``finish`` only once the opposition is wounded.

Rerolls and adjustments never lower a roll's successes, so on one test the "after a
failure" policies pass exactly as often as the same Dépassement bought every time (the
exact odds of ``TestParams(push=...)``): the tests check the simulation against them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from meneur.lab.simulate import Tally, histogram
from meneur.vector import RandomReader

Int = NDArray[np.int64]
Bool = NDArray[np.bool_]
Chunk = Callable[[np.random.Generator, int], Tally]

POLICIES = {
    "tunnels": ("never", "one-die", "all-failed"),
    "obscur": ("never", "dice", "reroll", "adjust"),
    "legendes": ("never", "early", "wounded", "finish"),
}
"""Each system's policies, the first one spending nothing (the reference)."""


# --- Tunnels: Chance (T-12) -----------------------------------------------------------


def tunnels_chunk(params: Any, points: int, policy: str) -> Chunk:
    from meneur.systems.tunnels.vector import tunnels_chance

    def one(rng: np.random.Generator, size: int) -> Tally:
        spend = 0 if policy == "never" else points
        passed, spent = tunnels_chance(
            RandomReader(rng), RandomReader(rng), size, params, spend, policy == "all-failed"
        )
        return Tally(
            runs=size,
            counts={"success": int(passed.sum()), "spent": int(spent.sum())},
        )

    return one


# --- Obscur: Dépassement (O-10) over a series of tests -----------------------------------


@dataclass(frozen=True)
class ObscurSeries:
    """``tests`` tests of ``dice`` against ``difficulty``, sharing ``points`` (O-10)."""

    dice: int
    difficulty: int
    points: int
    tests: int = 1
    zero_skill: bool = False
    zero_attribute: bool = False


def obscur_chunk(series: ObscurSeries, policy: str) -> Chunk:
    from meneur.systems.obscur.depassement import (
        extra_dice,
        reroll_up_to,
        tier_cost,
        tier_for_points,
    )
    from meneur.systems.obscur.scoring import Scoring
    from meneur.systems.obscur.vector import Adjuster

    scoring = Scoring.of(zero_skill=series.zero_skill, zero_attribute=series.zero_attribute)
    values = np.array((0, *scoring.values), dtype=np.int64)
    adjuster = Adjuster(scoring)
    costs = [tier_cost(t) for t in (1, 2, 3)]

    def one(rng: np.random.Generator, size: int) -> Tally:
        points = np.full(size, series.points, dtype=np.int64)
        passed_count = np.zeros(size, dtype=np.int64)
        for _ in range(series.tests):
            extra = np.zeros(size, dtype=np.int64)
            if policy == "dice":
                buys = points >= costs[0]
                extra[buys] = extra_dice(1)
                points[buys] -= costs[0]
            pool = series.dice + extra
            top = int(pool.max(initial=0))
            faces = rng.integers(1, 7, size=(top, size), dtype=np.uint8)
            faces[np.arange(top)[:, None] >= pool[None, :]] = 0
            successes = values[faces].sum(axis=0)
            failed = successes < series.difficulty
            if policy == "reroll":
                tiers = np.array([tier_for_points(int(p)) for p in range(series.points + 1)])
                bought = np.where(failed, tiers[np.minimum(points, series.points)], 0)
                up_to = np.array([reroll_up_to(int(t)) for t in range(4)])[bought]
                again = (faces > 0) & (faces <= up_to[None, :])
                fresh = rng.integers(1, 7, size=faces.shape, dtype=np.uint8)
                faces = np.where(again, fresh, faces)
                points -= np.array([0, *costs])[bought]
                successes = values[faces].sum(axis=0)
            elif policy == "adjust":
                for tier in (1, 2, 3):  # the cheapest tier that makes the test pass
                    short = successes < series.difficulty
                    can = short & (points >= costs[tier - 1])
                    if not can.any():
                        continue
                    rows = np.flatnonzero(can)
                    gain = adjuster.gains(faces[:, rows], tier)
                    rescued = successes[rows] + gain >= series.difficulty
                    chosen = rows[rescued]
                    successes[chosen] += gain[rescued]
                    points[chosen] -= costs[tier - 1]
            passed_count += successes >= series.difficulty
        every = passed_count == series.tests
        return Tally(
            runs=size,
            counts={
                "success": int(every.sum()),
                "spent": int((series.points - points).sum()),
                "tests_passed": int(passed_count.sum()),
            },
            histograms={"passed": histogram(passed_count)},
        )

    return one


# --- Légendes: motivation (L-12) in a conflict -------------------------------------------


def legendes_chunk(conflict: Any, points: int, policy: str) -> Chunk:
    from meneur.lab.simulate import legendes_conflicts

    def one(rng: np.random.Generator, size: int) -> Tally:
        tally = legendes_conflicts(conflict, rng, size, motivation=points, policy=policy)
        tally.counts["success"] = tally.counts.get("won", 0)
        return tally

    return one


def compare_policies(
    chunks: dict[str, Chunk],
    runs: int,
    *,
    seed: int | None = None,
    progress: bool = True,
    description: str = "",
) -> dict[str, Tally]:
    """Every policy over ``runs`` runs, each from the same seed (common random numbers
    where the policies draw alike)."""
    from meneur.lab.simulate import run_chunks

    results: dict[str, Tally] = {}
    for name, chunk in chunks.items():
        tally = run_chunks(runs, chunk, seed=seed, progress=progress, description=description)
        results[name] = tally
        if tally.interrupted:
            break
    return results


def policy_report(
    system: str, setting: dict[str, Any], results: dict[str, Tally]
) -> dict[str, Any]:
    """The public JSON of ``meneur simulate policy``."""
    rows = []
    for name, tally in results.items():
        rate = tally.rate("success")
        row: dict[str, Any] = {
            "policy": name,
            "runs": tally.runs,
            "success_rate": rate["rate"],
            "success_interval_95": rate["interval_95"],
            "spent_mean": tally.counts.get("spent", 0) / tally.runs if tally.runs else 0.0,
        }
        if "tests_passed" in tally.counts:
            row["tests_passed_mean"] = tally.counts["tests_passed"] / tally.runs
        rows.append(row)
    return {
        "system": system,
        "setting": setting,
        "policies": rows,
        "interrupted": any(t.interrupted for t in results.values()),
        "seconds": round(sum(t.seconds for t in results.values()), 3),
    }
