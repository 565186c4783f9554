"""The Obscur checks the registry and the conformance suite know: test, oppose, acquire.

Each wraps a pure ``resolve`` of ``rules``/``acquisition`` and the exact engine of
``odds``; ``to_json`` is the public contract of issue 4.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar, cast

from meneur.odds.dist import Dist
from meneur.systems.base import Check, FaceReader, Faces
from meneur.systems.obscur.acquisition import (
    AcquireOutcome,
    AcquireParams,
    acquire_dist,
    resolve_acquire,
)
from meneur.systems.obscur.depassement import PushPlan
from meneur.systems.obscur.odds import oppose_dist, test_dist
from meneur.systems.obscur.rules import (
    Maluses,
    OpposeOutcome,
    OpposeParams,
    TestOutcome,
    TestParams,
    resolve_oppose,
    resolve_test,
)


def _price(value: Fraction | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


def test_json(params: TestParams, outcome: TestOutcome) -> dict[str, Any]:
    data: dict[str, Any] = {
        "system": "obscur",
        "faces": list(outcome.faces),
        "successes": outcome.successes,
        "difficulty": params.difficulty,
        "passed": outcome.passed,
        "margin": outcome.margin,
        "fumble": outcome.fumble,
        "dice": params.pool,
        "pool": params.pool_json(),
        "automatic": outcome.automatic is not None,
    }
    if outcome.rolled != outcome.faces:
        data["rolled"] = list(outcome.rolled)
    if not params.push.is_empty:
        data["push"] = params.push.to_json()
        data["rerolled"] = [i + 1 for i in outcome.rerolled]
        data["adjusted"] = [[i + 1, inc] for i, inc in outcome.adjusted]
    return data


def _scored(stream: Sequence[int], params: TestParams, outcome: TestOutcome) -> tuple[str, ...]:
    values = params.scoring.values
    return tuple(
        "hit" if values[face - 1] else "fumble" if face == 1 and outcome.fumble else ""
        for face in stream
    )


class TestCheck(Check[TestParams, TestOutcome]):
    name: ClassVar[str] = "test"
    die_sides: ClassVar[int] = 6

    def vectorised(self, params: TestParams) -> Any:
        """The design lab's numpy resolve (rolled tests, Dépassement included)."""
        if params.automatic is not None:
            return None
        from meneur.systems.obscur.vector import ObscurTestVector

        return ObscurTestVector(params)

    def streams(self, params: TestParams) -> int:
        return 1

    def resolve(self, params: TestParams, faces: Faces) -> TestOutcome:
        return resolve_test(params, FaceReader(faces))

    def key(self, outcome: TestOutcome) -> Hashable:
        return (outcome.successes, outcome.fumble)

    def score(self, key: Hashable) -> float | None:
        """More successes is better; a fumble is the worst."""
        successes, fumble = cast("tuple[int, bool]", key)
        return -1.0 if fumble else float(successes)

    def odds(self, params: TestParams) -> Dist[Hashable]:
        return test_dist(params)  # type: ignore[return-value]

    def marks(self, params: TestParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """Faces that score (O-2, O-5, O-6); the 1s when they make a Maladresse (O-3)."""
        return (_scored(faces[0] if faces else (), params, self.resolve(params, faces)),)

    def examples(self) -> Sequence[TestParams]:
        return (
            TestParams(3),
            TestParams(4, difficulty=2, zero_skill=True),
            TestParams(3, zero_attribute=True, modifier=-1),
            TestParams(2, modifier=-3),
            TestParams(2, push=PushPlan(dice=1, reroll=2)),
            TestParams(2, difficulty=3, push=PushPlan(reroll=3, adjust=3, margin=1)),
            TestParams(3, difficulty=2, zero_skill=True, push=PushPlan(adjust=2)),
            TestParams(3, push=PushPlan(reroll=1, adjust=2, adjust_on=((0, 1), (2, 1)))),
            TestParams(2, automatic="success"),
            TestParams(5, maluses=Maluses(pain=2, fatigue=1)),
            TestParams(4, difficulty=2, maluses=Maluses(movement=1), push=PushPlan(dice=1)),
        )

    def to_json(self, params: TestParams, outcome: TestOutcome) -> dict[str, Any]:
        return test_json(params, outcome)


class OpposeCheck(Check[OpposeParams, OpposeOutcome]):
    name: ClassVar[str] = "oppose"
    die_sides: ClassVar[int] = 6

    def streams(self, params: OpposeParams) -> int:
        return 2

    def resolve(self, params: OpposeParams, faces: Faces) -> OpposeOutcome:
        return resolve_oppose(params, faces)

    def vectorised(self, params: OpposeParams) -> Any:
        """The design lab's numpy resolve (both sides rolled)."""
        if params.a.automatic is not None or params.b.automatic is not None:
            return None
        from meneur.systems.obscur.vector import ObscurOpposeVector

        return ObscurOpposeVector(params)

    def key(self, outcome: OpposeOutcome) -> Hashable:
        return (outcome.winner, outcome.margin)

    def score(self, key: Hashable) -> float | None:
        """Side a's point of view: its margin, negative when b wins."""
        winner, margin = cast("tuple[str | None, int]", key)
        return float(margin if winner == "a" else -margin if winner == "b" else 0)

    def odds(self, params: OpposeParams) -> Dist[Hashable]:
        return oppose_dist(params)  # type: ignore[return-value]

    def marks(self, params: OpposeParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """Each side's scoring faces and Maladresse (O-2 to O-6, O-9)."""
        outcome = self.resolve(params, faces)
        sides = ((params.a, outcome.a), (params.b, outcome.b))
        return tuple(
            _scored(stream, side, shown)
            for stream, (side, shown) in zip(faces, sides, strict=False)
        )

    def examples(self) -> Sequence[OpposeParams]:
        return (
            OpposeParams(TestParams(2), TestParams(3)),
            OpposeParams(TestParams(3, zero_skill=True), TestParams(1, push=PushPlan(reroll=1))),
        )

    def to_json(self, params: OpposeParams, outcome: OpposeOutcome) -> dict[str, Any]:
        def side(p: TestParams, o: TestOutcome) -> dict[str, Any]:
            data = test_json(p, o)
            for key in ("system", "difficulty", "passed", "margin", "automatic"):
                data.pop(key, None)
            return data

        return {
            "system": "obscur",
            "a": side(params.a, outcome.a),
            "b": side(params.b, outcome.b),
            "winner": outcome.winner,
            "margin": outcome.margin,
        }


class AcquireCheck(Check[AcquireParams, AcquireOutcome]):
    name: ClassVar[str] = "acquire"
    die_sides: ClassVar[int] = 6

    def streams(self, params: AcquireParams) -> int:
        return 1

    def resolve(self, params: AcquireParams, faces: Faces) -> AcquireOutcome:
        return resolve_acquire(params, faces)

    def key(self, outcome: AcquireOutcome) -> Hashable:
        return (outcome.availability, outcome.available)

    def score(self, key: Hashable) -> float | None:
        """The higher the availability roll, the better."""
        return float(cast("tuple[int, bool]", key)[0])

    def odds(self, params: AcquireParams) -> Dist[Hashable]:
        return acquire_dist(params)  # type: ignore[return-value]

    def examples(self) -> Sequence[AcquireParams]:
        return (AcquireParams(2), AcquireParams(1, distance=2, price=Fraction(40)))

    def to_json(self, params: AcquireParams, outcome: AcquireOutcome) -> dict[str, Any]:
        from meneur.systems.obscur.tables import acquisition_table

        table = acquisition_table()
        return {
            "system": "obscur",
            "faces": list(outcome.faces),
            "availability": outcome.availability,
            "rarity": params.effective_rarity,
            "base_rarity": params.rarity,
            "distance": params.distance,
            "provisional": table.provisional,
            "available": outcome.available,
            "price_percent": outcome.price_percent,
            "price": _price(outcome.price),
        }
