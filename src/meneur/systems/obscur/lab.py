"""What the lab simulates of Obscur beyond a check: duels with the system's own fight
(O-11 to O-22; the vectorised form is :mod:`.lab_duel`), and Dépassement (O-10) over a
series.

A budget of points shared by a series of tests of the same pool and difficulty (a
scene): never; ``dice`` buys +1 die (tier 1) before every test while points last;
``reroll`` rerolls a failed roll (the highest tier affordable: the 1s, then the 1s and
2s...); ``adjust`` buys, after a failed roll, the cheapest score adjustment that makes
it pass, if one is affordable. Success: every test passed; also counted: tests passed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from meneur.lab.policies import Chunk
from meneur.lab.simulate import Tally, histogram
from meneur.lab.sweep import PointChunk

SPENDING_POLICIES = ("never", "dice", "reroll", "adjust")
"""When to spend Dépassement, the first one spending nothing (the reference)."""


@dataclass(frozen=True)
class ObscurSeries:
    """``tests`` tests of ``dice`` against ``difficulty``, sharing ``points`` (O-10)."""

    dice: int
    difficulty: int
    points: int
    tests: int = 1
    zero_skill: bool = False
    zero_attribute: bool = False


def depassement_chunk(series: ObscurSeries, policy: str) -> Chunk:
    """One chunk of series under a Dépassement ``policy`` (O-10)."""
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


class StreamFaces:
    """A :class:`~meneur.systems.base.FaceReader` look-alike drawing d6 from numpy in blocks.

    Obscur's fight has too many branches (initiative, splits, special blows, hit zones,
    shock) to vectorise faithfully here: the lab runs the system's own ``fight_with``
    and only feeds it faces cheaply.
    """

    def __init__(self, rng: np.random.Generator, block: int = 1 << 14) -> None:
        self.rng = rng
        self.block = block
        self.buffers: dict[int, list[int]] = {}
        self.positions: dict[int, int] = {}

    def take(self, count: int, stream: int = 0) -> tuple[int, ...]:
        if count <= 0:
            return ()
        buffer = self.buffers.get(stream, [])
        start = self.positions.get(stream, 0)
        if start + count > len(buffer):
            fresh = self.rng.integers(1, 7, size=max(self.block, count)).tolist()
            buffer = buffer[start:] + fresh
            self.buffers[stream] = buffer
            start = 0
        self.positions[stream] = start + count
        return tuple(buffer[start : start + count])


def obscur_duels(params: Any, rng: np.random.Generator, runs: int) -> Tally:
    """``runs`` Obscur duels to their end with the system's own ``fight_with``."""
    from meneur.systems.obscur.combat import fight_with

    reader: Any = StreamFaces(rng)
    won = lost = unfinished = 0
    rounds: dict[int, int] = {}
    won_at: dict[int, int] = {}
    lost_at: dict[int, int] = {}
    ends: dict[str, int] = {}
    for _ in range(runs):
        outcome = fight_with(params, reader)
        length = len(outcome.rounds)
        rounds[length] = rounds.get(length, 0) + 1
        ends[outcome.end] = ends.get(outcome.end, 0) + 1
        if outcome.winner == "a":
            won += 1
            won_at[length] = won_at.get(length, 0) + 1
        elif outcome.winner == "b":
            lost += 1
            lost_at[length] = lost_at.get(length, 0) + 1
        else:
            unfinished += 1
    return Tally(
        runs=runs,
        counts={"won": won, "dead": lost, "unfinished": unfinished}
        | {f"end:{k}": v for k, v in ends.items()},
        histograms={"rounds": rounds, "won_at": won_at, "dead_at": lost_at},
    )


def duel_report(
    names: tuple[str, str], strategies: tuple[str, str], tally: Tally
) -> dict[str, Any]:
    """The public JSON of ``meneur simulate fight obscur``."""
    runs = tally.runs
    rounds = tally.histograms.get("rounds", {})
    won, lost = tally.rate("won"), tally.rate("dead")
    return {
        "system": "obscur",
        "fight": {
            "a": {"name": names[0], "strategy": strategies[0]},
            "b": {"name": names[1], "strategy": strategies[1]},
        },
        "runs": runs,
        "win_rate": won["rate"],
        "win_interval_95": won["interval_95"],
        "loss_rate": lost["rate"],
        "loss_interval_95": lost["interval_95"],
        "unfinished": tally.counts.get("unfinished", 0),
        "ends": {
            k.split(":", 1)[1]: v / runs for k, v in tally.counts.items() if k.startswith("end:")
        },
        "rounds": {
            "mean": sum(k * v for k, v in rounds.items()) / runs if runs else 0.0,
            "distribution": {str(k): v / runs for k, v in sorted(rounds.items())},
        },
        "interrupted": tally.interrupted,
        "seconds": round(tally.seconds, 3),
    }


def duels_point(params: Any) -> PointChunk:
    """A sweep's point of duels (:class:`meneur.lab.sweep.Point`'s ``build``): vectorised
    where the numpy form covers the fight, else the system's own fight."""
    from meneur.systems.obscur.lab_duel import obscur_duel_tally, vectorisable

    if vectorisable(params):
        return (lambda rng, n: obscur_duel_tally(params, rng, n)), "won", 1 << 16
    return (lambda rng, n: obscur_duels(params, rng, n)), "won", 1000
