"""The Obscur test and opposition as pure functions of the faces (O-1 to O-10).

A test rolls its Potentiel d'Action (plus modifiers and bought extra dice) on stream 0;
a Dépassement reroll reads its new faces from the same stream, after the pool, through
:class:`FaceReader`, so a whole test (rerolls included) is a pure function of the faces
and brute force over faces equals the exact odds. Score adjustments are then applied
(the chosen dice, or the best allocation), and successes, Maladresse and the verdict
are judged on the final faces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.base import FaceReader, Faces
from meneur.systems.obscur.depassement import (
    NO_PUSH,
    PushPlan,
    best_assignment,
    extra_dice,
    margin_bonus,
    place_assignment,
    reroll_up_to,
)
from meneur.systems.obscur.scoring import Scoring, successes
from meneur.systems.obscur.tables import rule_tables

MAX_DIFFICULTY = 200
Automatic = Literal["success", "failure"]
MALUS_NAMES = ("pain", "intemperies", "fatigue", "movement")
"""The sheet's conditions that cost dice (O-29), in the order the breakdown shows them."""


MAX_DICE = 60
"""The one bound on dice (a pool, a modifier, a malus): read through ``TestParams.MAX_DICE``."""
MAX_POOL = 2 * MAX_DICE
"""The most dice a test rolls before a Dépassement's extra dice: a Potentiel d'Action of
``MAX_DICE`` with a modifier of ``+MAX_DICE``. What ``test`` and ``odds`` accept, the
advisor (``push``) accepts too."""


@dataclass(frozen=True, slots=True)
class Maluses:
    """Dice a sheet's conditions take from a roll, by cause (O-29).

    * ``pain`` — HP lost to wounds (O-29, table provisoire);
    * ``intemperies`` — the share of HP lost to Intempéries (O-38: "des malus comme les
      blessures"; the pain table read on all HP lost, less the wounds' share);
    * ``fatigue`` — the cumulative −1 die of each failed overload test (O-42);
    * ``movement`` — Surencombrement, on movement rolls only (O-42).

    Kept apart from the modifier so that the pool shows where each die went, in the
    output, the JSON and the replayable log alike.
    """

    pain: int = 0
    intemperies: int = 0
    fatigue: int = 0
    movement: int = 0

    def __post_init__(self) -> None:
        for name in MALUS_NAMES:
            value = getattr(self, name)
            if not 0 <= value <= MAX_DICE:
                raise LimitError(
                    N_("A malus of the sheet is 0 to {limit} dice, not {value}."),
                    limit=MAX_DICE,
                    value=value,
                )

    @property
    def total(self) -> int:
        return self.pain + self.intemperies + self.fatigue + self.movement

    def named(self) -> dict[str, int]:
        """The maluses that cost dice, by name (none: empty)."""
        return {name: getattr(self, name) for name in MALUS_NAMES if getattr(self, name)}


NO_MALUS = Maluses()


@dataclass(frozen=True, slots=True)
class TestParams:
    """One test: the Potentiel d'Action, its modifiers and difficulty, and a Dépassement plan."""

    MAX_DICE: ClassVar[int] = MAX_DICE
    """Dice of a Potentiel d'Action, and the most a modifier adds or removes (a trait pair
    rarely passes 15; odds stay fast to 60+3): the one bound the CLI, the lab and the
    advisor use."""

    dice: int
    difficulty: int = 1
    modifier: int = 0
    zero_skill: bool = False
    zero_attribute: bool = False
    push: PushPlan = field(default=NO_PUSH)
    automatic: Automatic | None = None
    margin_counts: bool | None = None
    """O-10 option: the margin adjustment counts as successes (None: the data's default)."""
    maluses: Maluses = field(default=NO_MALUS)
    """The sheet's conditions (O-29), derived once by ``conditions.sheet_pool``."""
    tally: bool = False
    """Only the successes are read (a side of an opposition, a damage reduction...): no
    difficulty, so ``difficulty`` is 0. Any other test needs at least 1 success (O-8)."""

    def __post_init__(self) -> None:
        if not 0 <= self.dice <= self.MAX_DICE:
            raise LimitError(
                N_("A Potentiel d'Action has 0 to {limit} dice, not {dice}."),
                limit=self.MAX_DICE,
                dice=self.dice,
            )
        if not -self.MAX_DICE <= self.modifier <= self.MAX_DICE:
            raise LimitError(
                N_("A modifier is between -{limit} and +{limit} dice."), limit=self.MAX_DICE
            )
        if self.difficulty < 1 and not self.tally:  # first: -1 is refused as 0 is (O-8)
            raise RuleError(
                N_(
                    "A difficulty is at least 1 success (O-8: « obtenir au moins 1 Succès »),"
                    " not {difficulty}."
                ),
                difficulty=self.difficulty,
            )
        if not 0 <= self.difficulty <= MAX_DIFFICULTY:
            raise LimitError(
                N_("A difficulty is 0 to {limit} successes, not {difficulty}."),
                limit=MAX_DIFFICULTY,
                difficulty=self.difficulty,
            )
        if self.automatic not in (None, "success", "failure"):
            raise RuleError(N_("An automatic test succeeds or fails, nothing else."))
        if self.automatic is not None and not self.push.is_empty:
            raise RuleError(
                N_(
                    "An automatic test rolls no dice (O-1): a Dépassement (O-10) would buy"
                    " nothing on it; drop the one or the other."
                )
            )
        if self.push.adjust_on is not None and any(
            index >= self.pool for index, _ in self.push.adjust_on
        ):
            raise RuleError(
                N_("The score adjustment names a die beyond the {pool} dice rolled."),
                pool=self.pool,
            )

    @property
    def pool(self) -> int:
        """Dice actually rolled: PA + modifiers − the sheet's maluses + extra dice; 0 or
        fewer roll nothing (O-7)."""
        return max(0, self.dice + self.modifier - self.maluses.total + extra_dice(self.push.dice))

    def pool_json(self) -> dict[str, Any]:
        """Where the dice come from: « 5 dés − 2 douleur − 1 fatigue = 2 dés » (O-29)."""
        return {
            "base": self.dice,
            "modifier": self.modifier,
            "extra_dice": extra_dice(self.push.dice),
            "maluses": self.maluses.named(),
            "dice": self.pool,
        }

    @property
    def scoring(self) -> Scoring:
        return Scoring.of(zero_skill=self.zero_skill, zero_attribute=self.zero_attribute)

    @property
    def counts_margin(self) -> bool:
        if self.margin_counts is None:
            return rule_tables().options.margin_counts_as_successes
        return self.margin_counts

    @property
    def margin_is_counted(self) -> bool:
        """Whether this test's margin adjustment counts as successes (:func:`margin_counted`):
        the roll, its odds and its simulation all judge by it."""
        return margin_counted(self.counts_margin, self.pool)


def margin_counted(option: bool, dice: int) -> bool:
    """O-10's option « a margin adjustment counts as successes », on a pool that rolls
    dice: O-7, no dice cannot succeed, and nothing is rolled to count the margin on. The
    test's params and the advisor (given dice, not params) both ask here."""
    return option and dice > 0


@dataclass(frozen=True, slots=True)
class TestOutcome:
    rolled: tuple[int, ...]
    """The pool's faces as first rolled."""
    rerolled: tuple[int, ...]
    """Indexes of the dice rerolled (O-10), in order."""
    adjusted: tuple[tuple[int, int], ...]
    """(index, increment) of each score adjustment."""
    faces: tuple[int, ...]
    """The final faces, on which everything is judged."""
    successes: int
    passed: bool
    margin: int
    """The margin whose effects apply: MR (>= 0) or -ME, after a margin adjustment."""
    fumble: bool
    automatic: Automatic | None = None


def verdict(params: TestParams, dice_successes: int, fumble: bool = False) -> tuple[bool, int]:
    """Passed and effective margin (O-8, O-10 margin adjustment and its option). A
    Maladresse is never a success (O-8), even when a margin counts as successes."""
    if fumble:
        return False, min(0, dice_successes - params.difficulty)
    bonus = margin_bonus(params.push.margin)
    if params.margin_is_counted:
        total = dice_successes + bonus
        return total >= params.difficulty, total - params.difficulty
    raw = dice_successes - params.difficulty
    if raw >= 0:
        return True, raw + bonus
    return False, min(0, raw + bonus)


def resolve_test(params: TestParams, reader: FaceReader, stream: int = 0) -> TestOutcome:
    if params.automatic is not None:  # O-1: no roll
        passed = params.automatic == "success"
        return TestOutcome((), (), (), (), 0, passed, 0, False, params.automatic)
    pool = params.pool
    if pool == 0:  # O-7: no dice, no success, no Maladresse
        passed, margin = verdict(params, 0)
        return TestOutcome((), (), (), (), 0, passed, margin, False)
    rolled = reader.take(pool, stream)
    faces = list(rolled)
    rerolled: tuple[int, ...] = ()
    if params.push.reroll:
        up_to = reroll_up_to(params.push.reroll)
        rerolled = tuple(i for i, face in enumerate(faces) if face <= up_to)
        for index, face in zip(rerolled, reader.take(len(rerolled), stream), strict=True):
            faces[index] = face
    adjusted: tuple[tuple[int, int], ...] = ()
    if params.push.adjust:
        if params.push.adjust_on is not None:
            adjusted = tuple(sorted(params.push.adjust_on))
        else:
            counts = [faces.count(f) for f in range(1, 7)]
            _, assignment = best_assignment(counts, params.push.adjust, params.scoring)
            adjusted = place_assignment(faces, assignment)
        for index, inc in adjusted:
            faces[index] = min(6, faces[index] + inc)
    dice_successes = successes(faces, params.scoring)
    fumble = all(face == 1 for face in faces)  # O-3, judged on the final faces (O-10)
    passed, margin = verdict(params, dice_successes, fumble)
    return TestOutcome(
        rolled, rerolled, adjusted, tuple(faces), dice_successes, passed, margin, fumble
    )


@dataclass(frozen=True, slots=True)
class OpposeParams:
    """Two sides test (O-9); each side's difficulty is ignored."""

    a: TestParams
    b: TestParams


@dataclass(frozen=True, slots=True)
class OpposeOutcome:
    a: TestOutcome
    b: TestOutcome
    winner: Literal["a", "b"] | None
    margin: int


def resolve_oppose(params: OpposeParams, faces: Faces) -> OpposeOutcome:
    reader = FaceReader(faces)
    a = resolve_test(params.a, reader, 0)
    b = resolve_test(params.b, reader, 1)
    return OpposeOutcome(a, b, *duel(a.successes, b.successes))


def duel(a: int, b: int) -> tuple[Literal["a", "b"] | None, int]:
    """More successes wins by the difference; equal: no winner, status quo (O-9)."""
    if a > b:
        return "a", a - b
    if b > a:
        return "b", b - a
    return None, 0
