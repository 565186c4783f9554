"""Chance (T-12): spending Chance rerolls dice of the last test.

House rule (the text gives no price): 1 Chance rerolls one die, the player's pick;
automatic play rerolls the lowest failed die (a 1 first, which also wards off a critical
failure). Option ``all``: 1 Chance rerolls every failed die. A rerolled die takes the new
face in its batch; it grants no new explosion (the batches already rolled stand).
"""

from __future__ import annotations

from dataclasses import dataclass

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.rng import DiceSource
from meneur.systems.tunnels.rules import (
    LOWEST_SUCCESS,
    Pool,
    TestOutcome,
    TestParams,
    make_outcome,
)


def rescore(params: TestParams, batches: tuple[tuple[int, ...], ...]) -> TestOutcome:
    """The outcome of a test whose faces are ``batches`` (after rerolls), without exploding."""
    pool = Pool(lowest=LOWEST_SUCCESS[params.mode], sixes_rule=params.sixes)
    for batch in batches:
        pool.add(batch)
    passed = pool.successes >= params.threshold and not pool.critical
    return make_outcome(pool, params.threshold, passed)


def failed_dice(params: TestParams, outcome: TestOutcome) -> list[tuple[int, int]]:
    """(batch, position) of every failed die, lowest face first."""
    lowest = LOWEST_SUCCESS[params.mode]
    places = [
        (face, b, i)
        for b, batch in enumerate(outcome.batches)
        for i, face in enumerate(batch)
        if face < lowest
    ]
    return [(b, i) for _face, b, i in sorted(places)]


def reroll(
    params: TestParams, outcome: TestOutcome, places: list[tuple[int, int]], source: DiceSource
) -> tuple[TestOutcome, list[tuple[int, int, int, int]]]:
    """Reroll the dice at ``places``; returns the new outcome and (batch, pos, old, new)."""
    batches = [list(batch) for batch in outcome.batches]
    changes: list[tuple[int, int, int, int]] = []
    faces = source.roll(6, len(places))
    for (b, i), face in zip(places, faces, strict=True):
        if not (0 <= b < len(batches) and 0 <= i < len(batches[b])):
            raise RuleError(N_("There is no die at that place in the last test."))
        changes.append((b, i, batches[b][i], face))
        batches[b][i] = face
    return rescore(params, tuple(tuple(batch) for batch in batches)), changes


@dataclass(frozen=True, slots=True)
class ChanceResult:
    outcome: TestOutcome
    spent: int
    changes: tuple[tuple[int, int, int, int], ...]


def spend_chance(
    params: TestParams,
    outcome: TestOutcome,
    points: int,
    source: DiceSource,
    *,
    all_failed: bool = False,
) -> ChanceResult:
    """Automatic play: while the test fails and Chance is left, reroll failed dice (T-12)."""
    if points < 0:
        raise RuleError(N_("Chance to spend cannot be negative ({points})."), points=points)
    spent = 0
    changes: list[tuple[int, int, int, int]] = []
    while not outcome.passed and spent < points:
        failed = failed_dice(params, outcome)
        if not failed:
            break
        places = failed if all_failed else failed[:1]
        outcome, done = reroll(params, outcome, places, source)
        changes.extend(done)
        spent += 1
    return ChanceResult(outcome, spent, tuple(changes))
