"""The Krâsses checks as pure functions of the faces (K-1 to K-7).

* the test (K-1, K-2, K-3, K-5, K-6): one d20 + bonus + modifiers against a difficulty
  that krâsses may move; *Automatique* reads no die at all;
* the opposed roll (K-4): one d20 per side per round, stream 0 for side ``a`` and
  stream 1 for side ``b``; a tie between two sides of the same kind is rolled again, so a
  rerolled opposition reads more faces (the output keeps every round);
* cooperation (K-7): one d20 per member, in the order the members were given.

Every check reads its faces through :class:`~meneur.systems.base.FaceReader`, so the same
code serves random, seeded and typed dice, brute-force enumeration and replays.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.base import Check, FaceReader, Faces

if TYPE_CHECKING:
    from meneur.odds.dist import Dist

Kind = Literal["pc", "npc"]
Winner = Literal["a", "b"]
Decision = Literal["natural", "total", "tie"]

KINDS: tuple[Kind, ...] = ("pc", "npc")
SIDES = 20
NATURAL_SUCCESS = 20
"""K-2: a natural 20 always succeeds."""
NATURAL_FAILURE = 1
"""K-2: a natural 1 always fails."""
HELP_THRESHOLD = 15
"""K-7: a helper's total must reach 15 to give the leader a bonus."""
HELP_BONUS = 2
"""K-7: what each helper gives the leader."""
TRAIT_NAME = 60
"""The longest name of a characteristic, a skill or what an advantage applies to: on the
sheet as typed (``--skill NAME=LEVEL``), so that any name on a sheet can be typed."""
HELP_MIN_LEVEL = 1
"""K-7: a helper needs at least one level in the skill."""
MAX_MEMBERS = 12
MAX_KRASSES = 20


def check_int(value: object, what: str) -> int:
    """A whole number within +/- ``TestParams.MAX_VALUE``, else a RuleError/LimitError
    naming the field by Krâsses' label where it has one (``difficulty``: « Difficulté »)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(N_("{what} must be a whole number."), what=_named(what))
    if abs(value) > TestParams.MAX_VALUE:
        raise LimitError(
            N_("{what} lies between -{limit} and {limit}, not {value}."),
            what=_named(what),
            limit=TestParams.MAX_VALUE,
            value=value,
        )
    return value


def _named(what: str) -> str:
    """A refused field by Krâsses' label, looked up only once a value is refused: every
    roll's params pass through :func:`check_int`."""
    from meneur.systems.krasses.system import SYSTEM

    return SYSTEM.field_name(what)


def check_kind(kind: str) -> Kind:
    for known in KINDS:
        if kind == known:
            return known
    raise RuleError(N_("Unknown kind '{kind}': choose pc or npc."), kind=str(kind))


def passes(natural: int, total: int, difficulty: int) -> bool:
    """K-1 and K-2: a natural 20 succeeds, a natural 1 fails, else total >= difficulty."""
    if natural == NATURAL_SUCCESS:
        return True
    if natural == NATURAL_FAILURE:
        return False
    return total >= difficulty


@dataclass(frozen=True, slots=True)
class Krasse:
    """K-5: a named modifier of the difficulty given by the conteur (positive: harder)."""

    name: str
    value: int

    def __post_init__(self) -> None:
        check_int(self.value, "krâsse")


def check_krasses(krasses: tuple[Krasse, ...]) -> None:
    if len(krasses) > MAX_KRASSES:
        raise LimitError(N_("At most {limit} krâsses on one roll."), limit=MAX_KRASSES)
    for krasse in krasses:
        if not isinstance(krasse, Krasse):
            raise RuleError(N_("A krâsse is a name and a value."))


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A difficulty as the conteur gave it: a value (``None``: *Automatique*) and its name."""

    value: int | None
    name: str | None = None

    @property
    def automatic(self) -> bool:
        return self.value is None


# --------------------------------------------------------------------------------------
# The test (K-1, K-2, K-3, K-5, K-6)


@dataclass(frozen=True, slots=True)
class TestParams:
    """A test: d20 + ``bonus`` + ``modifier`` against ``difficulty`` moved by ``krasses``.

    ``difficulty`` ``None`` is *Automatique*: no roll (K-3). ``bonus`` is the score of the
    skill, advantage or characteristic rolled (0 with no level: K-6); ``modifier`` sums
    the temporary bonuses and maluses (K-5).
    """

    __test__: ClassVar[bool] = False  # not a pytest class
    MAX_VALUE: ClassVar[int] = 1_000_000
    """The one bound on a bonus, a modifier, a difficulty and a krâsse ("any integer" in
    the text, but a bounded one), for every check: the CLI, the web table, the lab and the
    conteur's krâsses file read it here."""

    bonus: int
    difficulty: int | None
    modifier: int = 0
    krasses: tuple[Krasse, ...] = ()

    def __post_init__(self) -> None:
        check_int(self.bonus, "bonus")
        check_int(self.modifier, "modifier")
        if self.difficulty is not None:
            check_int(self.difficulty, "difficulty")
        check_krasses(self.krasses)
        if self.difficulty is None and self.krasses:
            raise RuleError(
                N_(
                    "An automatic action needs no roll, so no krâsse applies: "
                    "give a difficulty to move."
                )
            )

    @property
    def target(self) -> int | None:
        """The difficulty once the krâsses moved it (K-5); ``None``: automatic."""
        if self.difficulty is None:
            return None
        return self.difficulty + sum(k.value for k in self.krasses)


@dataclass(frozen=True, slots=True)
class TestOutcome:
    """What a test showed; ``natural`` and ``total`` are ``None`` for *Automatique*."""

    __test__: ClassVar[bool] = False

    natural: int | None
    total: int | None
    difficulty: int | None
    passed: bool

    @property
    def automatic(self) -> bool:
        return self.natural is None

    @property
    def margin(self) -> int | None:
        """Total minus difficulty (negative on a failure; a natural 20 may pass below 0)."""
        if self.total is None or self.difficulty is None:
            return None
        return self.total - self.difficulty

    @property
    def by_natural(self) -> bool:
        """Whether a natural 20 or 1 decided against what the total alone said (K-2)."""
        if self.natural is None or self.margin is None:
            return False
        return (self.margin >= 0) != self.passed


def resolve_test(params: TestParams, reader: FaceReader, stream: int = 0) -> TestOutcome:
    target = params.target
    if target is None:
        return TestOutcome(natural=None, total=None, difficulty=None, passed=True)
    (natural,) = reader.take(1, stream)
    total = natural + params.bonus + params.modifier
    return TestOutcome(natural, total, target, passes(natural, total, target))


def _naturals(faces: Faces) -> tuple[tuple[str, ...], ...]:
    """A natural 20 always succeeds, a natural 1 always fails (K-2): both matter."""
    return tuple(
        tuple("hit" if face == 20 else "fumble" if face == 1 else "" for face in stream)
        for stream in faces
    )


class KrassesTest(Check[TestParams, TestOutcome]):
    """K-1/K-2/K-3: d20 + bonus >= difficulty; natural 20 succeeds, natural 1 fails."""

    name = "test"
    die_sides = SIDES

    def vectorised(self, params: TestParams) -> Any:
        """The design lab's numpy resolve (an automatic action rolls nothing)."""
        if params.target is None:
            return None
        from meneur.systems.krasses.vector import KrassesTestVector

        return KrassesTestVector(params)

    def streams(self, params: TestParams) -> int:
        return 1

    def resolve(self, params: TestParams, faces: Faces) -> TestOutcome:
        return resolve_test(params, FaceReader(faces))

    def key(self, outcome: TestOutcome) -> Hashable:
        return (outcome.passed, outcome.margin)

    def score(self, key: Hashable) -> float | None:
        """Passing first, then the margin. An automatic action rolls nothing (K-3): no
        luck to judge (``None``), where the missing margin used to raise a TypeError and
        lose the roll from the log."""
        passed, margin = cast("tuple[bool, int | None]", key)
        if margin is None:
            return None
        return 1000.0 * passed + margin

    def odds(self, params: TestParams) -> Dist[Hashable]:
        from meneur.systems.krasses.odds import test_dist

        return test_dist(params)

    def examples(self) -> Sequence[TestParams]:
        return (
            TestParams(bonus=5, difficulty=15),
            TestParams(bonus=15, difficulty=15),
            TestParams(bonus=0, difficulty=40),
            TestParams(bonus=30, difficulty=5, modifier=-3),
            TestParams(bonus=4, difficulty=10, krasses=(Krasse("pluie", 5),)),
            TestParams(bonus=2, difficulty=None),
        )

    def marks(self, params: TestParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        return _naturals(faces)

    def to_json(self, params: TestParams, outcome: TestOutcome) -> dict[str, Any]:
        return {
            "system": "krasses",
            "natural": outcome.natural,
            "total": outcome.total,
            "difficulty": outcome.difficulty,
            "passed": outcome.passed,
            "margin": outcome.margin,
            "automatic": outcome.automatic,
            "bonus": params.bonus,
            "modifier": params.modifier,
            "base_difficulty": params.difficulty,
            "krasses": [{"name": k.name, "value": k.value} for k in params.krasses],
        }


# --------------------------------------------------------------------------------------
# The opposed roll (K-4)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an opposition: its bonus, modifiers, and whether a player plays it."""

    bonus: int
    kind: Kind = "pc"
    modifier: int = 0

    def __post_init__(self) -> None:
        check_int(self.bonus, "bonus")
        check_int(self.modifier, "modifier")
        check_kind(self.kind)


@dataclass(frozen=True, slots=True)
class OpposeParams:
    """K-4: ``a`` against ``b``; ``naturals=False`` is the option that ignores 20s and 1s."""

    a: Side
    b: Side
    naturals: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.a, Side) or not isinstance(self.b, Side):
            raise RuleError(N_("An opposition needs two sides."))

    @property
    def rerolls_ties(self) -> bool:
        """Two sides of the same kind roll again on a tie (K-4); a PC beats an NPC."""
        return self.a.kind == self.b.kind


@dataclass(frozen=True, slots=True)
class Round:
    """One exchange of an opposition: each side's natural and total, and what it gave."""

    a_natural: int
    b_natural: int
    a_total: int
    b_total: int
    result: Literal["a", "b", "reroll"]
    decided_by: Decision | None


def decide(
    a_natural: int, b_natural: int, a_total: int, b_total: int, params: OpposeParams
) -> tuple[Literal["a", "b", "reroll"], Decision | None]:
    """K-4 for one exchange: naturals first (unless ignored), then totals, then kinds."""
    if params.naturals:
        for natural, wins in ((NATURAL_SUCCESS, True), (NATURAL_FAILURE, False)):
            a_has, b_has = a_natural == natural, b_natural == natural
            if a_has != b_has:
                return ("a" if a_has == wins else "b"), "natural"
    if a_total != b_total:
        return ("a" if a_total > b_total else "b"), "total"
    if params.rerolls_ties:
        return "reroll", None
    return ("a" if params.a.kind == "pc" else "b"), "tie"


@dataclass(frozen=True, slots=True)
class OpposeOutcome:
    """Every round rolled (the last one decided) and the winner."""

    rounds: tuple[Round, ...]
    winner: Winner
    decided_by: Decision

    @property
    def rerolls(self) -> int:
        return len(self.rounds) - 1

    @property
    def last(self) -> Round:
        return self.rounds[-1]


class KrassesOppose(Check[OpposeParams, OpposeOutcome]):
    """K-4: the higher total wins; naturals first; ties go to the PC or are rolled again."""

    name = "oppose"
    die_sides = SIDES

    def streams(self, params: OpposeParams) -> int:
        return 2

    def vectorised(self, params: OpposeParams) -> Any:
        """The design lab's numpy resolve."""
        from meneur.systems.krasses.vector import KrassesOpposeVector

        return KrassesOpposeVector(params)

    def resolve(self, params: OpposeParams, faces: Faces) -> OpposeOutcome:
        reader = FaceReader(faces)
        rounds: list[Round] = []
        while True:
            (a_natural,) = reader.take(1, 0)
            (b_natural,) = reader.take(1, 1)
            a_total = a_natural + params.a.bonus + params.a.modifier
            b_total = b_natural + params.b.bonus + params.b.modifier
            result, decided_by = decide(a_natural, b_natural, a_total, b_total, params)
            rounds.append(Round(a_natural, b_natural, a_total, b_total, result, decided_by))
            if result != "reroll" and decided_by is not None:
                return OpposeOutcome(tuple(rounds), result, decided_by)

    def key(self, outcome: OpposeOutcome) -> Hashable:
        return (outcome.winner, outcome.decided_by)

    def score(self, key: Hashable) -> float | None:
        """Side a's point of view: winning or losing."""
        return 1.0 if cast("tuple[str, str]", key)[0] == "a" else -1.0

    def odds(self, params: OpposeParams) -> Dist[Hashable]:
        from meneur.systems.krasses.odds import oppose_dist

        return oppose_dist(params)

    def examples(self) -> Sequence[OpposeParams]:
        # PC against NPC: ties never reroll, so brute force over the faces is finite.
        # The rerolling oppositions are checked against the exact series in the tests.
        return (
            OpposeParams(Side(0, "pc"), Side(0, "npc")),
            OpposeParams(Side(3, "npc"), Side(5, "pc", modifier=1)),
            OpposeParams(Side(10, "pc"), Side(0, "npc")),
            OpposeParams(Side(2, "pc"), Side(4, "npc"), naturals=False),
        )

    def marks(self, params: OpposeParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """The naturals (K-4), unless the option ignores them in oppositions."""
        return _naturals(faces) if params.naturals else super().marks(params, faces)

    def to_json(self, params: OpposeParams, outcome: OpposeOutcome) -> dict[str, Any]:
        def side(name: Literal["a", "b"], spec: Side) -> dict[str, Any]:
            naturals = [r.a_natural if name == "a" else r.b_natural for r in outcome.rounds]
            totals = [r.a_total if name == "a" else r.b_total for r in outcome.rounds]
            return {
                "kind": spec.kind,
                "bonus": spec.bonus,
                "modifier": spec.modifier,
                "natural": naturals[-1],
                "total": totals[-1],
                "naturals": naturals,
                "totals": totals,
            }

        return {
            "system": "krasses",
            "a": side("a", params.a),
            "b": side("b", params.b),
            "winner": outcome.winner,
            "rerolls": outcome.rerolls,
            "decided_by": outcome.decided_by,
            "naturals": params.naturals,
            "rounds": [
                {
                    "a": {"natural": r.a_natural, "total": r.a_total},
                    "b": {"natural": r.b_natural, "total": r.b_total},
                    "result": r.result,
                }
                for r in outcome.rounds
            ],
        }


# --------------------------------------------------------------------------------------
# Cooperation (K-7)


@dataclass(frozen=True, slots=True)
class Member:
    """A participant of a cooperation: the bonus they roll and their level in the skill."""

    MAX_LEVEL: ClassVar[int] = 1000
    """The one bound on a member's level in the skill (a sheet's scores stop there too)."""

    bonus: int
    level: int

    def __post_init__(self) -> None:
        check_int(self.bonus, "bonus")
        check_int(self.level, "level")
        if self.level < 0:
            raise RuleError(N_("A level is 0 or more, not {level}."), level=self.level)
        if self.level > self.MAX_LEVEL:
            raise LimitError(
                N_("A level is from 0 to {limit}, not {level}."),
                limit=self.MAX_LEVEL,
                level=self.level,
            )


def helps(member: Member, natural: int, total: int) -> bool:
    """K-7: a helper with a level rolls a total >= 15 (natural 1 never, natural 20 always)."""
    if member.level < HELP_MIN_LEVEL or natural == NATURAL_FAILURE:
        return False
    return natural == NATURAL_SUCCESS or total >= HELP_THRESHOLD


def leader_of(totals: Sequence[int]) -> int:
    """K-7: the best total leads; among equal best totals, the first member given."""
    best = max(totals)
    return totals.index(best)


@dataclass(frozen=True, slots=True)
class CooperateParams:
    """K-7: every member rolls; the best leads; helpers give +2; then compare with difficulty."""

    members: tuple[Member, ...]
    difficulty: int
    krasses: tuple[Krasse, ...] = ()

    def __post_init__(self) -> None:
        if not self.members:
            raise RuleError(N_("A cooperation needs at least one member."))
        if len(self.members) > MAX_MEMBERS:
            raise LimitError(
                N_("A cooperation has at most {limit} members, not {count}."),
                limit=MAX_MEMBERS,
                count=len(self.members),
            )
        for member in self.members:
            if not isinstance(member, Member):
                raise RuleError(N_("A member is a bonus and a level."))
        if self.difficulty is None:
            raise RuleError(N_("An automatic action needs no roll, and so no cooperation."))
        check_int(self.difficulty, "difficulty")
        check_krasses(self.krasses)

    @property
    def target(self) -> int:
        return self.difficulty + sum(k.value for k in self.krasses)


@dataclass(frozen=True, slots=True)
class CooperateOutcome:
    """Each member's roll, who led, who helped, and the leader's final total."""

    naturals: tuple[int, ...]
    totals: tuple[int, ...]
    leader: int
    helpers: tuple[int, ...]
    total: int
    difficulty: int
    passed: bool

    @property
    def margin(self) -> int:
        return self.total - self.difficulty


class KrassesCooperate(Check[CooperateParams, CooperateOutcome]):
    """K-7: the best total leads and gets +2 per helper who reached 15 with a level."""

    name = "cooperate"
    die_sides = SIDES

    def streams(self, params: CooperateParams) -> int:
        return 1

    def resolve(self, params: CooperateParams, faces: Faces) -> CooperateOutcome:
        naturals = FaceReader(faces).take(len(params.members))
        totals = tuple(n + m.bonus for n, m in zip(naturals, params.members, strict=True))
        leader = leader_of(totals)
        helpers = tuple(
            index
            for index, member in enumerate(params.members)
            if index != leader and helps(member, naturals[index], totals[index])
        )
        total = totals[leader] + HELP_BONUS * len(helpers)
        target = params.target
        return CooperateOutcome(
            naturals=naturals,
            totals=totals,
            leader=leader,
            helpers=helpers,
            total=total,
            difficulty=target,
            passed=passes(naturals[leader], total, target),
        )

    def key(self, outcome: CooperateOutcome) -> Hashable:
        return (outcome.leader, len(outcome.helpers), outcome.passed)

    def score(self, key: Hashable) -> float | None:
        """The group passes or fails."""
        return 1.0 if cast("tuple[int, int, bool]", key)[2] else 0.0

    def odds(self, params: CooperateParams) -> Dist[Hashable]:
        from meneur.systems.krasses.odds import cooperate_dist

        return cooperate_dist(params)

    def examples(self) -> Sequence[CooperateParams]:
        return (
            CooperateParams((Member(5, 1), Member(3, 1)), 20),
            CooperateParams((Member(4, 2), Member(6, 0), Member(2, 1)), 25),
            CooperateParams((Member(0, 0),), 10),
        )

    def marks(self, params: CooperateParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """The naturals: a helper's 1 never helps, a 20 always does (K-7)."""
        return _naturals(faces)

    def to_json(self, params: CooperateParams, outcome: CooperateOutcome) -> dict[str, Any]:
        return {
            "system": "krasses",
            "members": [
                {
                    "index": index,
                    "bonus": member.bonus,
                    "level": member.level,
                    "natural": outcome.naturals[index],
                    "total": outcome.totals[index],
                    "leader": index == outcome.leader,
                    "helps": index in outcome.helpers,
                }
                for index, member in enumerate(params.members)
            ],
            "leader": outcome.leader,
            "helpers": list(outcome.helpers),
            "help_bonus": HELP_BONUS * len(outcome.helpers),
            "total": outcome.total,
            "difficulty": outcome.difficulty,
            "passed": outcome.passed,
            "margin": outcome.margin,
            "krasses": [{"name": k.name, "value": k.value} for k in params.krasses],
        }
