"""Dépassement (O-10): what each tier buys, what it costs, who pays, and the best use
of a score adjustment.

Four kinds, at most one tier of each per test: extra dice (bought before the roll),
rerolls, score adjustment and margin adjustment (after it). A plan names the tier of
each kind; its cost comes from ``data/rules.toml``. A score adjustment either says which
dice get which increment, or lets the engine choose the allocation that gives the most
successes (:func:`best_assignment`); the odds engine and the advisor use the same
function on face counts, so "auto" means the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.systems.obscur.scoring import Scoring
from meneur.systems.obscur.tables import ResourceName, rule_tables

TIERS = (0, 1, 2, 3)
RESOURCES: tuple[ResourceName, ...] = ("vecu", "volonte", "moral")
KINDS = ("dice", "reroll", "adjust", "margin")

ADJUST_VARIANTS: dict[int, tuple[tuple[int, ...], ...]] = {
    0: ((),),
    1: ((1,),),
    2: ((2,), (1, 1)),
    3: ((3,), (1, 2), (1, 1, 1)),
}
"""The ways each score-adjustment tier may be split over dice (O-10, from the text)."""


def tier_cost(tier: int) -> int:
    return 0 if tier == 0 else rule_tables().depassement.tier_costs[tier - 1]


def tier_for_points(points: int) -> int:
    """The tier a number of points buys: amounts between tiers buy the tier below (O-10)."""
    if points < 0:
        raise RuleError(N_("Points of Dépassement cannot be negative ({points})."), points=points)
    tier = 0
    for index, cost in enumerate(rule_tables().depassement.tier_costs, start=1):
        if points >= cost:
            tier = index
    return tier


def extra_dice(tier: int) -> int:
    return 0 if tier == 0 else rule_tables().depassement.extra_dice[tier - 1]


def reroll_up_to(tier: int) -> int:
    return 0 if tier == 0 else rule_tables().depassement.reroll_up_to[tier - 1]


def margin_bonus(tier: int) -> int:
    return 0 if tier == 0 else rule_tables().depassement.margin[tier - 1]


def _check_tier(kind: str, tier: int) -> None:
    if tier not in TIERS:
        raise RuleError(
            N_("A Dépassement tier is 0 to 3, not {tier} ({kind})."), tier=tier, kind=kind
        )


@dataclass(frozen=True, slots=True)
class PushPlan:
    """The tier bought of each kind (0: none). ``adjust_on``: explicit (die index, +n)."""

    dice: int = 0
    reroll: int = 0
    adjust: int = 0
    margin: int = 0
    adjust_on: tuple[tuple[int, int], ...] | None = None

    def __post_init__(self) -> None:
        for kind in KINDS:
            _check_tier(kind, getattr(self, kind))
        if self.adjust_on is not None:
            increments = tuple(sorted(inc for _, inc in self.adjust_on))
            allowed = {tuple(sorted(v)) for v in ADJUST_VARIANTS[self.adjust]}
            if increments not in allowed:
                raise RuleError(
                    N_("A score adjustment of tier {tier} cannot be split as {split}."),
                    tier=self.adjust,
                    split=", ".join(f"+{inc}" for inc in increments) or "-",
                )
            indexes = [index for index, _ in self.adjust_on]
            if len(set(indexes)) != len(indexes) or min(indexes, default=0) < 0:
                raise RuleError(N_("A score adjustment names each die at most once."))

    @property
    def cost(self) -> int:
        return sum(tier_cost(getattr(self, kind)) for kind in KINDS)

    @property
    def is_empty(self) -> bool:
        return self.cost == 0

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "extra_dice": extra_dice(self.dice),
            "reroll_up_to": reroll_up_to(self.reroll),
            "adjust_tier": self.adjust,
            "margin_bonus": margin_bonus(self.margin),
            "cost": self.cost,
        }
        if self.adjust_on is not None:
            data["adjust_on"] = [[index + 1, inc] for index, inc in self.adjust_on]
        return data


NO_PUSH = PushPlan()


def face_gain(values: Sequence[int], face: int, increment: int) -> int:
    """Successes won by raising one die; a face never exceeds 6 (O-10)."""
    return values[min(face + increment, 6) - 1] - values[face - 1]


Choice = tuple[tuple[int | None, int], ...]


@cache
def _ranked_choices(
    scoring: Scoring, variant: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...], Choice], ...]:
    """Every way to place ``variant``'s increments on faces (or nowhere), best gain first.

    Static per scoring: each entry is (gain, dice needed per face, choice); a stable sort
    keeps the fixed enumeration order among equal gains.
    """
    values = scoring.values
    options = [
        [None, *[f for f in range(1, 6) if face_gain(values, f, inc) > 0]] for inc in variant
    ]
    entries = []
    for choice in product(*options):
        needed = [0] * 6
        gain = 0
        for face, inc in zip(choice, variant, strict=True):
            if face is not None:
                needed[face - 1] += 1
                gain += face_gain(values, face, inc)
        entries.append((gain, tuple(needed), tuple(zip(choice, variant, strict=True))))
    entries.sort(key=lambda entry: -entry[0])
    return tuple(entries)


def best_assignment(counts: Sequence[int], tier: int, scoring: Scoring) -> tuple[int, Choice]:
    """The most successes a score adjustment of ``tier`` can add to faces with ``counts``.

    ``counts[f - 1]`` is how many dice show ``f`` (capping counts at 3 changes nothing:
    at most three dice are raised). Returns the gain and the (face, increment) pairs;
    a face ``None`` means the increment helps no die (it goes on any die). The first
    best in a fixed order wins, so the choice is deterministic.
    """
    best_gain = -1
    best: Choice = ()
    for variant in ADJUST_VARIANTS[tier]:
        for gain, needed, choice in _ranked_choices(scoring, variant):
            if gain <= best_gain:
                break
            if all(n <= c for n, c in zip(needed, counts, strict=False)):
                best_gain, best = gain, choice
                break
    return max(best_gain, 0), best


def place_assignment(
    faces: Sequence[int], assignment: Sequence[tuple[int | None, int]]
) -> tuple[tuple[int, int], ...]:
    """Which die (index) takes each increment: the named face first, then the lowest dice."""
    taken: set[int] = set()
    placed: list[tuple[int, int]] = []
    for face, inc in assignment:
        if face is None:
            continue
        index = next(i for i, f in enumerate(faces) if f == face and i not in taken)
        taken.add(index)
        placed.append((index, inc))
    for face, inc in assignment:
        if face is not None:
            continue
        free = sorted((f, i) for i, f in enumerate(faces) if i not in taken)
        if not free:
            break
        index = free[0][1]
        taken.add(index)
        placed.append((index, inc))
    return tuple(sorted(placed))


@dataclass(frozen=True, slots=True)
class Payment:
    """Points taken from each resource to pay a plan."""

    points: Mapping[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.points.values())


def plan_payment(
    cost: int,
    available: Mapping[str, int],
    *,
    asked: Mapping[str, int] | None = None,
    single_resource: bool | None = None,
) -> Payment:
    """Who pays ``cost``: the mix asked for, or the data's order; never below 0 (O-10)."""
    single = rule_tables().options.single_resource if single_resource is None else single_resource
    points: dict[str, int]
    if asked:
        points = {name: value for name, value in asked.items() if value}
        if sum(points.values()) != cost:
            raise RuleError(
                N_("The payment ({paid} points) must equal the cost of the Dépassement ({cost})."),
                paid=sum(points.values()),
                cost=cost,
            )
    else:
        points = {}
        left = cost
        order: list[str] = list(rule_tables().depassement.payment_order)
        if single:
            payer = next((name for name in order if available.get(name, 0) >= cost), None)
            if payer is None:
                raise RuleError(
                    N_(
                        "This table pays a Dépassement from one resource only (O-10 option):"
                        " none holds the {cost} points it costs."
                    ),
                    cost=cost,
                )
            points = {payer: cost} if cost else {}
            left = 0
        for name in order:
            if left <= 0:
                break
            take = min(left, max(available.get(name, 0), 0))
            if take:
                points[name] = take
                left -= take
        if left > 0:
            raise RuleError(
                N_(
                    "Not enough points for this Dépassement: it costs {cost}, {have} are available."
                ),
                cost=cost,
                have=sum(max(v, 0) for v in available.values()),
            )
    if single and len(points) > 1:
        raise RuleError(N_("This table pays a Dépassement from one resource only (O-10 option)."))
    for name, value in points.items():
        if value < 0:
            raise RuleError(N_("A payment cannot be negative ({name})."), name=_label(name))
        if value > available.get(name, 0):
            raise RuleError(
                N_("The resource {name} would fall below 0: {value} asked, {have} left."),
                name=_label(name),
                value=value,
                have=available.get(name, 0),
            )
    return Payment(points)


def _label(resource: str) -> str:
    """``Vécu`` for ``vecu``: how the sheet and the text name a resource (read only for
    a message, so the sheet's module loads only then)."""
    from meneur.systems.obscur.sheet import RESOURCE_LABELS

    return RESOURCE_LABELS.get(resource, resource)
