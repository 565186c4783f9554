"""The Tunnels test and opposed test as pure functions of the faces (T-3 to T-9).

A test rolls one d6 per point of a characteristic, in *batches*: the first batch is the
pool; every face shown k >= 2 times in a batch grants k-1 extra dice (T-5), rolled as the
next batch if the explosion policy says so (T-6). Successes, sixes and ones are counted
over every batch; three 6s in one batch is an exceptional success (T-7), three 1s over
all batches a critical failure that fails the test whatever its successes (T-8).

Everything here reads faces through :class:`~meneur.systems.base.FaceReader`, so the same
code serves random dice, seeded dice, typed faces, brute-force enumeration and replays.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.rng import DiceSource
from meneur.systems.base import Check, FaceReader, Faces, Rolled

if TYPE_CHECKING:
    from meneur.odds.dist import Dist

Policy = Literal["never", "always", "needed"]
Mode = Literal["normal", "blessed", "cursed"]
SixesRule = Literal["batch", "all"]

POLICIES: tuple[Policy, ...] = ("never", "always", "needed")
SIXES_RULES: tuple[SixesRule, ...] = ("batch", "all")
LOWEST_SUCCESS: dict[Mode, int] = {"normal": 4, "blessed": 3, "cursed": 5}
"""The lowest face that succeeds in each mode (T-3, T-4)."""
CRITICAL_ONES = 3
EXCEPTIONAL_SIXES = 3


def mode_of(blessed: bool, cursed: bool) -> Mode:
    """Blessed and cursed together cancel out (T-4)."""
    if blessed and not cursed:
        return "blessed"
    if cursed and not blessed:
        return "cursed"
    return "normal"


def extra_dice(batch: Sequence[int]) -> int:
    """Dice granted by one batch (T-5): each face shown k >= 2 times grants k - 1."""
    return len(batch) - len(set(batch))


def wants_to_explode(policy: Policy, behind: bool) -> bool:
    """Whether a side explodes its pending dice (T-6); ``behind``: short of its goal."""
    if policy == "always":
        return True
    if policy == "never":
        return False
    return behind


def check_policy(policy: str) -> Policy:
    for known in POLICIES:
        if policy == known:
            return known
    raise RuleError(
        N_("Unknown explosion policy '{policy}': choose never, always or needed."),
        policy=str(policy),
    )


def check_dice(dice: int) -> None:
    if isinstance(dice, bool) or not isinstance(dice, int):
        raise RuleError(N_("A number of dice is a whole number."))
    if dice < 1:
        raise RuleError(N_("A test rolls at least 1 die, not {dice}."), dice=dice)
    if dice > TestParams.MAX_DICE:
        raise LimitError(
            N_("A test rolls at most {limit} dice, not {dice}."),
            limit=TestParams.MAX_DICE,
            dice=dice,
        )


@dataclass(frozen=True, slots=True)
class TestParams:
    """A test: ``dice`` d6 against ``threshold`` successes (the TM's *niveau*)."""

    __test__: ClassVar[bool] = False  # not a pytest class
    MAX_DICE: ClassVar[int] = 60
    """Dice in one pool, test or side of an opposition (a characteristic is 2-4, a
    Monster Rating rarely passes 30): the one bound that the CLI, the web table, the
    lab and the exact odds all use; the exact odds exist for every accepted pool."""
    MAX_THRESHOLD: ClassVar[int] = 1000
    """Successes asked for (the exact odds of ``needed`` grow with it)."""

    dice: int
    threshold: int
    blessed: bool = False
    cursed: bool = False
    explode: Policy = "needed"
    sixes: SixesRule = "batch"
    """Where three 6s must show for an exceptional success: one batch (T-7) or any dice."""
    chosen_batches: int | None = None
    """The player chose batch by batch (T-6) and stopped after this many batches: with
    ``explode="always"``, extra dice explode until then. What the table logs when the
    roller saw each batch, so that the roll replays through this very rule."""

    def __post_init__(self) -> None:
        check_dice(self.dice)
        if self.chosen_batches is not None and (
            isinstance(self.chosen_batches, bool)
            or not isinstance(self.chosen_batches, int)
            or not 1 <= self.chosen_batches <= self.dice
        ):
            raise RuleError(
                N_("A test chosen batch by batch has from 1 to {limit} batches."),
                limit=self.dice,
            )
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int):
            raise RuleError(N_("A threshold is a whole number."))
        if self.threshold < 1:
            raise RuleError(
                N_("A threshold is at least 1, not {threshold}."), threshold=self.threshold
            )
        if self.threshold > self.MAX_THRESHOLD:
            raise LimitError(
                N_("A threshold is at most {limit}, not {threshold}."),
                limit=self.MAX_THRESHOLD,
                threshold=self.threshold,
            )
        check_policy(self.explode)
        if self.sixes not in SIXES_RULES:
            raise RuleError(
                N_("Unknown rule for sixes '{rule}': choose batch or all."),
                rule=str(self.sixes),
            )

    @property
    def mode(self) -> Mode:
        return mode_of(self.blessed, self.cursed)


@dataclass(frozen=True, slots=True)
class TestOutcome:
    """What a test showed: every batch, and the verdict."""

    __test__: ClassVar[bool] = False

    batches: tuple[tuple[int, ...], ...]
    successes: int
    ones: int
    sixes: int
    six_streak: bool
    """Whether three 6s showed (within one batch, or anywhere under the ``all`` option)."""
    threshold: int
    passed: bool

    @property
    def critical(self) -> bool:
        """Three 1s or more over all batches (T-8)."""
        return self.ones >= CRITICAL_ONES

    @property
    def exceptional(self) -> bool:
        """A passed test that showed its three 6s (T-7)."""
        return self.passed and self.six_streak

    @property
    def margin(self) -> int:
        """Successes minus threshold: the *Marge de Réussite* (negative: *d'Échec*)."""
        return self.successes - self.threshold

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(face for batch in self.batches for face in batch)


class Pool:
    """One side's dice while they are being rolled: counts so far and dice pending."""

    __slots__ = (
        "batches",
        "lowest",
        "ones",
        "pending",
        "six_streak",
        "sixes",
        "sixes_rule",
        "successes",
    )

    def __init__(self, *, lowest: int, sixes_rule: SixesRule) -> None:
        self.lowest = lowest
        self.sixes_rule = sixes_rule
        self.batches: list[tuple[int, ...]] = []
        self.successes = 0
        self.ones = 0
        self.sixes = 0
        self.six_streak = False
        self.pending = 0

    def add(self, batch: tuple[int, ...]) -> None:
        lowest = self.lowest
        self.batches.append(batch)
        self.successes += len([face for face in batch if face >= lowest])
        self.ones += batch.count(1)
        sixes = batch.count(6)
        self.sixes += sixes
        if (sixes if self.sixes_rule == "batch" else self.sixes) >= EXCEPTIONAL_SIXES:
            self.six_streak = True
        self.pending = len(batch) - len(set(batch))  # extra_dice(batch), inlined (T-5)

    @property
    def critical(self) -> bool:
        return self.ones >= CRITICAL_ONES


def make_outcome(pool: Pool, threshold: int, passed: bool) -> TestOutcome:
    """The outcome of a pool once rolled; ``passed`` is decided by the caller.

    In an opposition, a side's threshold is the other side's successes (its margin is
    then the difference) and ``passed`` means that it won the exchange.
    """
    return TestOutcome(
        batches=tuple(pool.batches),
        successes=pool.successes,
        ones=pool.ones,
        sixes=pool.sixes,
        six_streak=pool.six_streak,
        threshold=threshold,
        passed=passed,
    )


def roll_test(params: TestParams, take: Callable[[int], tuple[int, ...]]) -> TestOutcome:
    """Resolve a test, asking ``take(n)`` for each batch of n faces (T-3 to T-8).

    With ``needed``, a batch explodes only while the successes so far are below the
    threshold (T-6). An exceptional success is a passed test that showed its three 6s
    (T-7); a critical failure never passes (T-8). ``take`` reads typed or enumerated
    faces in :meth:`TunnelsTest.resolve`, or draws from a dice source in the fast
    :meth:`TunnelsTest.roll`: the rule itself is written once, here.
    """
    # The counting of :meth:`Pool.add`, kept in local variables: this is the hot path of
    # every random test (see benchmarks/bench_tunnels.py); brute-force tests hold the two
    # in step.
    lowest = LOWEST_SUCCESS[params.mode]
    per_batch = params.sixes == "batch"
    threshold = params.threshold
    policy = params.explode
    batch = take(params.dice)
    batches = [batch]
    successes = len([face for face in batch if face >= lowest])
    ones = batch.count(1)
    sixes = batch.count(6)
    streak = sixes >= EXCEPTIONAL_SIXES
    pending = len(batch) - len(set(batch))
    last = params.chosen_batches or 0
    while pending and (policy == "always" or (policy == "needed" and successes < threshold)):
        if last and len(batches) >= last:
            break  # the player stopped here (T-6)
        batch = take(pending)
        batches.append(batch)
        successes += len([face for face in batch if face >= lowest])
        ones += batch.count(1)
        count = batch.count(6)
        sixes += count
        if (count if per_batch else sixes) >= EXCEPTIONAL_SIXES:
            streak = True
        pending = len(batch) - len(set(batch))
    return TestOutcome(
        tuple(batches),
        successes,
        ones,
        sixes,
        streak,
        threshold,
        successes >= threshold and ones < CRITICAL_ONES,
    )


def _marks(faces: Sequence[int], lowest: int) -> tuple[str, ...]:
    """What the table highlights: successes, and the 1s only when they make a critical failure."""
    critical = faces.count(1) >= CRITICAL_ONES
    return tuple(
        "hit" if face >= lowest else "fumble" if face == 1 and critical else "" for face in faces
    )


def test_json(outcome: TestOutcome) -> dict[str, Any]:
    """The test's public JSON fields (without ``system``)."""
    return {
        "batches": [list(batch) for batch in outcome.batches],
        "successes": outcome.successes,
        "threshold": outcome.threshold,
        "passed": outcome.passed,
        "margin": outcome.margin,
        "exceptional": outcome.exceptional,
        "critical": outcome.critical,
    }


test_json.__test__ = False  # type: ignore[attr-defined]


class TunnelsTest(Check[TestParams, TestOutcome]):
    """The Tunnels test (T-3 to T-8)."""

    name = "test"
    die_sides = 6

    def vectorised(self, params: TestParams) -> Any:
        """The design lab's numpy resolve of this test (checked against :meth:`resolve`)."""
        if params.chosen_batches is not None:
            return None  # a player's choices: nothing to simulate
        from meneur.systems.tunnels.vector import TunnelsTestVector

        return TunnelsTestVector(params)

    def streams(self, params: TestParams) -> int:
        return 1

    def resolve(self, params: TestParams, faces: Faces) -> TestOutcome:
        return roll_test(params, FaceReader(faces).take)

    def roll(
        self, params: TestParams, sources: Sequence[DiceSource]
    ) -> Rolled[TestParams, TestOutcome]:
        """Draw each batch straight from the source (the same draws as the inherited loop).

        Overridden for speed (measured in ``benchmarks/bench_tunnels.py``): the inherited
        loop re-resolves from the start after every NeedMoreDice, which costs a test with
        explosions about twice as much. The faces drawn, their order and the outcome are
        the same; the conformance suite replays them through :meth:`resolve`.
        """
        source = sources[0]
        outcome = roll_test(params, lambda count: source.roll(6, count))
        batches = outcome.batches
        faces = batches[0] if len(batches) == 1 else tuple(chain.from_iterable(batches))
        return self.finished(Rolled(params, (faces,), outcome), [source])

    def key(self, outcome: TestOutcome) -> Hashable:
        return (outcome.successes, outcome.exceptional, outcome.critical)

    def score(self, key: Hashable) -> float | None:
        """More successes is better; a critical failure is the worst (luck, T-8)."""
        successes, exceptional, critical = cast("tuple[int, bool, bool]", key)
        return -1.0 if critical else successes + (0.5 if exceptional else 0.0)

    def odds(self, params: TestParams) -> Dist[Hashable]:
        if params.chosen_batches is not None:
            raise RuleError(N_("A test whose explosions the player chose has no exact odds."))
        from meneur.systems.tunnels.odds import test_odds

        return test_odds(params)  # type: ignore[return-value]

    def marks(self, params: TestParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """Successes (T-3, T-4); the 1s only when three of them fail the test (T-8)."""
        return tuple(_marks(stream, LOWEST_SUCCESS[params.mode]) for stream in faces)

    def examples(self) -> Sequence[TestParams]:
        return (
            TestParams(dice=3, threshold=2, explode="never"),
            TestParams(dice=3, threshold=2, blessed=True, explode="needed"),
            TestParams(dice=3, threshold=1, cursed=True, explode="always"),
            TestParams(dice=4, threshold=3, explode="needed"),
            TestParams(dice=4, threshold=2, explode="always", sixes="all"),
            TestParams(dice=2, threshold=1, blessed=True, cursed=True, explode="always"),
        )

    def to_json(self, params: TestParams, outcome: TestOutcome) -> dict[str, Any]:
        return {"system": "tunnels", **test_json(outcome)}


# --- opposed test (T-9) -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an opposition: a characteristic (or a Monster Rating) in dice."""

    dice: int
    blessed: bool = False
    cursed: bool = False
    explode: Policy = "needed"

    def __post_init__(self) -> None:
        check_dice(self.dice)
        check_policy(self.explode)

    @property
    def mode(self) -> Mode:
        return mode_of(self.blessed, self.cursed)


@dataclass(frozen=True, slots=True)
class OpposedParams:
    """Side ``a`` (stream 0) against side ``b`` (stream 1)."""

    a: Side
    b: Side
    sixes: SixesRule = "batch"

    def __post_init__(self) -> None:
        if not isinstance(self.a, Side) or not isinstance(self.b, Side):
            raise RuleError(N_("An opposition needs two sides."))
        if self.sixes not in SIXES_RULES:
            raise RuleError(
                N_("Unknown rule for sixes '{rule}': choose batch or all."),
                rule=str(self.sixes),
            )


Winner = Literal["a", "b"] | None

MAX_TIES = 1000
"""Ties rolled again at most (T-9 option: ``oppose --reroll-ties``, the lab's ``tie=reroll``):
two sides of 40 dice or more that always explode roll three 1s nearly every time (T-8),
so a tie may never break; the last one is then shown as a tie."""


@dataclass(frozen=True, slots=True)
class OpposedOutcome:
    a: TestOutcome
    b: TestOutcome
    winner: Winner
    margin: int


def judge(
    successes_a: int, critical_a: bool, successes_b: int, critical_b: bool
) -> tuple[Winner, int]:
    """Who wins an exchange, and by how much (T-9).

    More successes wins by the difference. A side with a critical failure loses (both:
    nobody wins); reading of this engine: a win on the other side's critical failure is
    worth the difference of successes, and at least 1.
    """
    if critical_a and critical_b:
        return None, 0
    if critical_a:
        return "b", max(1, successes_b - successes_a)
    if critical_b:
        return "a", max(1, successes_a - successes_b)
    if successes_a > successes_b:
        return "a", successes_a - successes_b
    if successes_b > successes_a:
        return "b", successes_b - successes_a
    return None, 0


def roll_opposed(params: OpposedParams, reader: FaceReader) -> OpposedOutcome:
    """Resolve an opposition (T-9): both first batches, then each side explodes by policy.

    ``needed`` in an opposition: after both first batches, a side explodes its pending
    dice while it is not ahead (it would not win now). When both sides explode in the same
    step, side a's batch is read before side b's; each step is decided on the counts
    before it.
    """
    a = Pool(lowest=LOWEST_SUCCESS[params.a.mode], sixes_rule=params.sixes)
    b = Pool(lowest=LOWEST_SUCCESS[params.b.mode], sixes_rule=params.sixes)
    a.add(reader.take(params.a.dice, 0))
    b.add(reader.take(params.b.dice, 1))
    while True:
        winner, _ = judge(a.successes, a.critical, b.successes, b.critical)
        go_a = a.pending > 0 and wants_to_explode(params.a.explode, winner != "a")
        go_b = b.pending > 0 and wants_to_explode(params.b.explode, winner != "b")
        if not (go_a or go_b):
            break
        if go_a:
            a.add(reader.take(a.pending, 0))
        if go_b:
            b.add(reader.take(b.pending, 1))
    winner, margin = judge(a.successes, a.critical, b.successes, b.critical)
    return OpposedOutcome(
        a=make_outcome(a, b.successes, winner == "a"),
        b=make_outcome(b, a.successes, winner == "b"),
        winner=winner,
        margin=margin,
    )


class TunnelsOppose(Check[OpposedParams, OpposedOutcome]):
    """The opposed test (T-9): each side's successes, the winner and the margin."""

    name = "oppose"
    die_sides = 6

    def vectorised(self, params: OpposedParams) -> Any:
        """The design lab's numpy resolve of this opposition (checked against :meth:`resolve`)."""
        from meneur.systems.tunnels.vector import TunnelsOpposeVector

        return TunnelsOpposeVector(params)

    def streams(self, params: OpposedParams) -> int:
        return 2

    def resolve(self, params: OpposedParams, faces: Faces) -> OpposedOutcome:
        return roll_opposed(params, FaceReader(faces))

    def key(self, outcome: OpposedOutcome) -> Hashable:
        a, b = outcome.a, outcome.b
        return (a.successes - b.successes, a.six_streak, a.critical, b.six_streak, b.critical)

    def score(self, key: Hashable) -> float | None:
        """Side a's point of view: the difference, a critical failure outweighing it."""
        difference, _a_six, a_critical, _b_six, b_critical = cast(
            "tuple[int, bool, bool, bool, bool]", key
        )
        return float(difference) - 1000.0 * a_critical + 1000.0 * b_critical

    def odds(self, params: OpposedParams) -> Dist[Hashable]:
        from meneur.systems.tunnels.odds import opposed_odds

        return opposed_odds(params)  # type: ignore[return-value]

    def score_odds(self, params: OpposedParams) -> Dist[Hashable]:
        """The lead and the criticals only (:meth:`score` reads no three 6s): the walk
        without them, 5 times faster and bounded further (``odds.margin_lead``)."""
        from meneur.systems.tunnels.odds import margin_lead

        return margin_lead(params)  # type: ignore[return-value]

    def marks(self, params: OpposedParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """Each side's successes by its own mode (T-4); its 1s when they are three (T-8)."""
        sides = (params.a, params.b)
        return tuple(
            _marks(stream, LOWEST_SUCCESS[side.mode])
            for stream, side in zip(faces, sides, strict=False)
        )

    def examples(self) -> Sequence[OpposedParams]:
        return (
            OpposedParams(Side(2, explode="never"), Side(2, explode="never")),
            OpposedParams(Side(3), Side(1)),
            OpposedParams(Side(2), Side(2)),
            OpposedParams(Side(3, explode="never"), Side(2)),
            OpposedParams(Side(2, blessed=True, explode="always"), Side(2, cursed=True)),
            OpposedParams(Side(2, explode="needed"), Side(2, explode="always"), sixes="all"),
        )

    def to_json(self, params: OpposedParams, outcome: OpposedOutcome) -> dict[str, Any]:
        return {
            "system": "tunnels",
            "a": test_json(outcome.a),
            "b": test_json(outcome.b),
            "winner": outcome.winner,
            "margin": outcome.margin,
        }
