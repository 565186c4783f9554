"""Chance (T-12): spending Chance rerolls dice of the last test.

House rule (the text gives no price): 1 Chance rerolls one die, the player's pick;
automatic play rerolls the lowest failed die (a 1 first, which also wards off a critical
failure). Option ``all``: 1 Chance rerolls every failed die. A rerolled die takes the new
face in its batch; it grants no new explosion (the batches already rolled stand).

A test with Chance spent is one procedure (:class:`TunnelsChance`): the test's faces,
then each reroll's, read in turn from the same stream, so that the roll log replays the
rerolls too (they were drawn outside any check, and the log could not replay them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.base import FaceReader, Procedure
from meneur.systems.tunnels.limits import MAX_CHANCE_SPENT
from meneur.systems.tunnels.rules import (
    LOWEST_SUCCESS,
    Pool,
    TestOutcome,
    TestParams,
    make_outcome,
    roll_test,
    test_json,
)

Take = Callable[[int], tuple[int, ...]]
"""Gives the next ``n`` faces (a reader's ``take``)."""
Change = tuple[int, int, int, int]
"""A rerolled die: (batch, position, old face, new face)."""


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
    params: TestParams, outcome: TestOutcome, places: list[tuple[int, int]], take: Take
) -> tuple[TestOutcome, list[Change]]:
    """Reroll the dice at ``places`` with the faces ``take`` gives; returns the new
    outcome and the changes."""
    batches = [list(batch) for batch in outcome.batches]
    changes: list[Change] = []
    faces = take(len(places))
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
    changes: tuple[Change, ...]


def spend_chance(
    params: TestParams,
    outcome: TestOutcome,
    points: int,
    take: Take,
    *,
    all_failed: bool = False,
) -> ChanceResult:
    """Automatic play: while the test fails and Chance is left, reroll failed dice (T-12),
    each reroll's faces from ``take``."""
    if points < 0:
        raise RuleError(N_("Chance to spend cannot be negative ({points})."), points=points)
    spent = 0
    changes: list[Change] = []
    while not outcome.passed and spent < points:
        failed = failed_dice(params, outcome)
        if not failed:
            break
        places = failed if all_failed else failed[:1]
        outcome, done = reroll(params, outcome, places, take)
        changes.extend(done)
        spent += 1
    return ChanceResult(outcome, spent, tuple(changes))


@dataclass(frozen=True, slots=True)
class ChanceParams:
    """A test, and the Chance automatic play may spend on it (T-12): ``points`` at most
    (up to :data:`~meneur.systems.tunnels.limits.MAX_CHANCE_SPENT`), one failed die a
    point, or every failed die a point with ``all_failed`` (T-12's option)."""

    test: TestParams
    points: int
    all_failed: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.points, bool) or not isinstance(self.points, int):
            raise RuleError(N_("Chance to spend is a whole number."))
        if self.points < 0:
            raise RuleError(
                N_("Chance to spend cannot be negative ({points})."), points=self.points
            )
        if self.points > MAX_CHANCE_SPENT:
            raise LimitError(
                N_("One roll spends at most {limit} Chance, not {points}."),
                limit=MAX_CHANCE_SPENT,
                points=self.points,
            )


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The test as first rolled, then after the rerolls: its outcome, the Chance spent
    and every die rerolled."""

    first: TestOutcome
    outcome: TestOutcome
    spent: int
    changes: tuple[Change, ...]


class TunnelsChance(Procedure[ChanceParams, ChanceOutcome]):
    """A test, then Chance spent on it while it fails (T-12), from one stream of faces:
    the test's batches, then each reroll's die (or dice, under the ``all`` option)."""

    name = "chance"
    die_sides = 6

    def streams(self, params: ChanceParams) -> int:
        return 1

    def run(self, params: ChanceParams, reader: FaceReader) -> ChanceOutcome:
        def take(count: int) -> tuple[int, ...]:
            return reader.take(count)

        first = roll_test(params.test, take)
        result = spend_chance(params.test, first, params.points, take, all_failed=params.all_failed)
        return ChanceOutcome(first, result.outcome, result.spent, result.changes)

    def key(self, outcome: ChanceOutcome) -> Hashable:
        final = outcome.outcome
        return (final.successes, final.exceptional, final.critical, outcome.spent)

    def examples(self) -> Sequence[ChanceParams]:
        return (
            ChanceParams(TestParams(3, 3), 1),
            ChanceParams(TestParams(2, 2, explode="never"), 2),
            ChanceParams(TestParams(4, 3, explode="always"), 1, all_failed=True),
        )

    def to_json(self, params: ChanceParams, outcome: ChanceOutcome) -> dict[str, Any]:
        return {
            "system": "tunnels",
            **test_json(outcome.outcome),
            "chance_spent": outcome.spent,
            "first": {"system": "tunnels", **test_json(outcome.first)},
            "rerolled": [
                {"batch": batch, "die": die, "from": old, "to": new}
                for batch, die, old, new in outcome.changes
            ],
        }
