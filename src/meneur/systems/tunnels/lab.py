"""What the lab simulates of Tunnels beyond a check: whole fights (T-9 to T-11) and
spending Chance (T-12).

The chunks plug into the lab's generic runner (:func:`meneur.lab.policies.compare_policies`);
the dice rules they use are the system's numpy forms (:mod:`.vector`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from meneur.lab.policies import Chunk
from meneur.lab.simulate import Tally, histogram
from meneur.lab.sweep import PointChunk
from meneur.systems.base import Check
from meneur.vector import RandomReader

SPENDING_POLICIES = ("never", "one-die", "all-failed")
"""When to spend Chance, the first one spending nothing (the reference)."""


def chance_chunk(params: Any, points: int, policy: str) -> Chunk:
    """One chunk of tests under a Chance ``policy`` with ``points`` to spend (T-12)."""
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


def tunnels_fights(fight: Any, rng: np.random.Generator, runs: int, readers: Any = None) -> Tally:
    """Play ``runs`` fights of ``fight`` (the system's ``FightParams``) to their end.

    Counts wins, deaths, wounds and rounds of side a. ``readers``: (a's, b's) face
    readers, for the conformance test; by default both draw from ``rng``.
    """
    from meneur.systems.tunnels.vector import tunnels_fight_arrays

    reader_a, reader_b = readers or (RandomReader(rng), RandomReader(rng))
    arrays = tunnels_fight_arrays(fight, reader_a, reader_b, runs)
    won, dead, wounded = arrays["winner"] == 1, arrays["a_dead"], arrays["a_wounded"]
    rounds = arrays["rounds"]
    return Tally(
        runs=runs,
        counts={
            "won": int(won.sum()),
            "dead": int(dead.sum()),
            "wounded": int(wounded.sum()),
            "unfinished": int((~won & ~dead).sum()),
        },
        histograms={
            "rounds": histogram(rounds),
            "won_at": histogram(rounds[won]),
            "dead_at": histogram(rounds[dead]),
            "wounded_at": histogram(arrays["a_wounded_at"][wounded]),
        },
    )


def fight_report(fight: Any, tally: Tally) -> dict[str, Any]:
    """The public JSON of ``meneur simulate fight tunnels``."""
    runs = tally.runs
    rounds = tally.histograms.get("rounds", {})
    mean = sum(k * v for k, v in rounds.items()) / runs if runs else 0.0
    won = tally.rate("won")
    return {
        "system": "tunnels",
        "fight": {
            "dice": fight.a.dice,
            "endurance": fight.a.endurance,
            "mr": fight.b.dice,
            "blessed": fight.blessed,
            "cursed": fight.cursed,
            "explode": fight.explode,
            "mr_explode": fight.vs_explode,
            "sixes": fight.sixes,
            "loss": fight.loss,
            "tie": fight.tie,
            "max_rounds": fight.max_rounds,
        },
        "runs": runs,
        "win_rate": won["rate"],
        "win_interval_95": won["interval_95"],
        "death_rate": tally.rate("dead")["rate"],
        "death_interval_95": tally.rate("dead")["interval_95"],
        "wounded_rate": tally.rate("wounded")["rate"],
        "unfinished": tally.counts.get("unfinished", 0),
        "rounds": {
            "mean": mean,
            "distribution": {str(k): v / runs for k, v in sorted(rounds.items())},
        },
        "interrupted": tally.interrupted,
        "seconds": round(tally.seconds, 3),
    }


def fights_point(fight: Any) -> PointChunk:
    """A sweep's point of Tunnels fights (:class:`meneur.lab.sweep.Point`'s ``build``)."""
    return (lambda rng, n: tunnels_fights(fight, rng, n)), "won", None


def tunnels_test_chunk(params: Any) -> Callable[[np.random.Generator, int], Tally]:
    """One chunk of Tunnels tests: passed, exceptional, critical, successes."""
    from meneur.systems.tunnels.vector import tunnels_test_drawn

    if params.explode == "never":
        return _never_chunk(params)

    def one(rng: np.random.Generator, size: int) -> Tally:
        successes, exceptional, critical = tunnels_test_drawn(rng, size, params)
        passed = (successes >= params.threshold) & ~critical
        return Tally(
            runs=size,
            counts={
                "passed": int(passed.sum()),
                "exceptional": int(exceptional.sum()),
                "critical": int(critical.sum()),
            },
            histograms={"successes": histogram(successes)},
        )

    return one


def as_cell_chunk(
    one: Callable[[np.random.Generator, int], Tally],
) -> Callable[[np.random.Generator, int], Tally]:
    """A Tunnels test chunk seen as a table cell's: ``success`` and ``values`` (successes)."""

    def cell(rng: np.random.Generator, size: int) -> Tally:
        tally = one(rng, size)
        return Tally(
            runs=tally.runs,
            counts={"success": tally.counts["passed"]},
            histograms={"values": tally.histograms["successes"]},
        )

    return cell


def _never_chunk(params: Any) -> Callable[[np.random.Generator, int], Tally]:
    """Tests that never explode: one batch, so one histogram of its packed counts says all.

    Each test's (successes, ones, sixes) is packed in 15 bits (``vector.batch_stats``'s
    table); a single ``bincount`` over the packed values replaces every per-test
    comparison and sum, and the verdicts are read off the (at most 32768) bins.
    """
    from meneur.systems.tunnels.vector import _TABLES, LOWEST

    table = _TABLES[LOWEST[params.mode]]
    bins = np.arange(1 << 15)
    successes, ones, sixes = bins & 0x1F, (bins >> 5) & 0x1F, bins >> 10
    critical = ones >= 3
    passed = (successes >= params.threshold) & ~critical
    exceptional = passed & (sixes >= 3)  # one batch: the T-7 option changes nothing

    def one(rng: np.random.Generator, size: int) -> Tally:
        faces = rng.integers(1, 7, size=(params.dice, size), dtype=np.uint8)
        packed = table[faces[0]]
        for die in faces[1:]:
            packed += table[die]
        counts = np.bincount(packed, minlength=1 << 15)
        by_successes = np.bincount(successes, weights=counts, minlength=32).astype(np.int64)
        return Tally(
            runs=size,
            counts={
                "passed": int(counts[passed].sum()),
                "exceptional": int(counts[exceptional].sum()),
                "critical": int(counts[critical].sum()),
            },
            histograms={
                "successes": {int(k): int(by_successes[k]) for k in np.flatnonzero(by_successes)}
            },
        )

    return one


def tunnels_chance_chunk(
    params: Any, points: int, all_failed: bool
) -> Callable[[np.random.Generator, int], Tally]:
    """One chunk of Tunnels tests with automatic Chance (T-12): passed, points spent."""
    from meneur.systems.tunnels.vector import tunnels_chance

    def one(rng: np.random.Generator, size: int) -> Tally:
        passed, spent = tunnels_chance(
            RandomReader(rng), RandomReader(rng), size, params, points, all_failed
        )
        return Tally(
            runs=size,
            counts={"success": int(passed.sum()), "spent": int(spent.sum())},
            histograms={"values": histogram(spent)},
        )

    return one


def cell_point(spec: tuple[Check[Any, Any], Any], ties_again: bool = False) -> PointChunk:
    """A sweep's point of one table cell: the fast drawn chunk for a test, an opposition
    whose ties are rolled again (``ties_again``: T-9's option, the variant ``tie=reroll``,
    as its exact odds count it), else the check's vectorised form
    (:func:`meneur.lab.sweep.cell_point`)."""
    from meneur.lab import sweep

    check, params = spec
    if check.name == "test":
        return as_cell_chunk(tunnels_test_chunk(params)), "success", None
    if ties_again:
        from meneur.lab.simulate import cell_chunk
        from meneur.systems.tunnels.vector import TiesRolledAgain, TunnelsOpposeVector

        return cell_chunk(TiesRolledAgain(TunnelsOpposeVector(params))), "success", None
    return sweep.cell_point(spec)
