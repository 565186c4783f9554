"""When to spend a resource, by simulation: each policy's success rate with its interval.

A policy is a rule for spending a limited resource; the lab plays the same rolls under
every policy a system offers (its ``lab`` module builds one chunk per policy) and counts
how often the goal is reached and what it cost. This module holds what every system
shares: running the policies from the same seed and the report.

Rerolls and adjustments never lower a roll's successes, so on one test the "after a
failure" policies pass exactly as often as the same resource bought every time: the
tests check the simulations against the exact odds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from meneur.lab.simulate import Tally

Chunk = Callable[[np.random.Generator, int], Tally]


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
