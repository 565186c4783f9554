"""The Dépassement advisor (O-10): how best to spend a budget of points, exactly.

*Before the roll* the only choice is how many extra dice to buy; the points kept are
spent after seeing the dice, under the best play: first a reroll tier (or none) after
seeing the faces, then, after seeing the rerolled dice, the best score adjustment (and,
under the option where it counts, a margin adjustment). The success probability of
each choice is exact: the first roll is enumerated by face multiset (multinomial
weights), a reroll is convolved over the small machine of ``automaton``.

*After the roll* (faces known) every affordable plan (reroll, adjustment, margin) gets
its exact success probability; dominated plans (dearer and no likelier) are dropped,
and the best comes first: the likeliest, then the cheapest.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.obscur.automaton import machine
from meneur.systems.obscur.depassement import (
    TIERS,
    PushPlan,
    best_assignment,
    extra_dice,
    margin_bonus,
    place_assignment,
    reroll_up_to,
    tier_cost,
)
from meneur.systems.obscur.odds import class_dist
from meneur.systems.obscur.rules import MAX_POOL, margin_counted
from meneur.systems.obscur.scoring import Scoring

MOST_ROLLED = MAX_POOL + max(extra_dice(tier) for tier in TIERS)
"""The most dice a test rolls: its pool (:data:`~meneur.systems.obscur.rules.MAX_POOL`)
and the extra dice a Dépassement buys."""
MAX_POINTS = 30


@dataclass(frozen=True, slots=True)
class Option:
    plan: PushPlan
    cost: int
    """Points this option spends (before the roll: now; after: on this plan)."""
    kept: int
    """Points kept for after the roll (before-roll options only)."""
    p_success: Fraction


def _check(points: int, difficulty: int) -> None:
    if not 0 <= points <= MAX_POINTS:
        raise RuleError(
            N_("Points of Dépassement are 0 to {limit}, not {points}."),
            limit=MAX_POINTS,
            points=points,
        )
    if difficulty < 0:
        raise RuleError(N_("A difficulty cannot be negative."))


@cache
def best_gain(scoring: Scoring, cls: int, budget: int, counts_margin: bool) -> int:
    """The most successes points can still add to a roll in class ``cls`` (adjust + margin).

    A margin counted as successes (O-10's option) never saves a roll of 1s only: it stays
    a Maladresse, never a success (O-8), unless a score adjustment lifts a die first."""
    table = machine(scoring)
    gains = table.gains[cls]
    best = 0
    for adjust in TIERS:
        left = budget - tier_cost(adjust)
        if left < 0:
            continue
        extra = 0
        if counts_margin and not (adjust == 0 and table.all_ones[cls]):
            extra = max(margin_bonus(m) for m in TIERS if tier_cost(m) <= left)
        best = max(best, gains[adjust] + extra)
    return best


@cache
def reroll_tail(
    scoring: Scoring, kept: int, rerolled: int, budget: int, counts_margin: bool
) -> tuple[int, ...]:
    """``tail[v]``: rerolled face sequences (out of ``6**rerolled``) whose successes plus
    the most the points left can add reach ``v`` (best play after), for ``v`` from 0."""
    by_value: dict[int, int] = {}
    for (s, cls), w in class_dist(rerolled, scoring, 0, kept).items():
        value = s + best_gain(scoring, cls, budget, counts_margin)
        by_value[value] = by_value.get(value, 0) + w
    tail = [0] * (max(by_value) + 2)
    for value in range(len(tail) - 2, -1, -1):
        tail[value] = tail[value + 1] + by_value.get(value, 0)
    return tuple(tail)


def reroll_hits(
    scoring: Scoring, kept: int, rerolled: int, budget: int, need: int, counts_margin: bool
) -> int:
    """Rerolled face sequences (out of ``6**rerolled``) that pass, under the best play after:
    one read of :func:`reroll_tail`, shared by every number of successes still needed."""
    tail = reroll_tail(scoring, kept, rerolled, budget, counts_margin)
    return tail[min(max(need, 0), len(tail) - 1)]


def reroll_pass(
    scoring: Scoring, kept: int, rerolled: int, budget: int, need: int, counts_margin: bool
) -> Fraction:
    """P(pass) when ``rerolled`` fresh dice join kept dice of class ``kept`` (best play after)."""
    hits = reroll_hits(scoring, kept, rerolled, budget, need, counts_margin)
    return Fraction(hits, 6**rerolled)


def multisets(n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every multiset of ``n`` d6 faces as counts of faces 1..6, with its multinomial weight."""
    top = factorial(n)

    def walk(
        face: int, left: int, counts: tuple[int, ...], denominator: int
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        if face == 6:
            yield (*counts, left), top // (denominator * factorial(left))
            return
        for c in range(left + 1):
            yield from walk(face + 1, left - c, (*counts, c), denominator * factorial(c))

    yield from walk(1, n, (), 1)


def after_roll_value(
    counts: tuple[int, ...], scoring: Scoring, budget: int, difficulty: int, counts_margin: bool
) -> Fraction:
    """P(pass) under the best play, once the faces (as counts) are seen."""
    table = machine(scoring)
    values = scoring.values
    s = sum(v * c for v, c in zip(values, counts, strict=True))
    if s + best_gain(scoring, table.class_of(counts), budget, counts_margin) >= difficulty:
        return Fraction(1)
    best = Fraction(0)
    for tier in TIERS[1:]:
        left = budget - tier_cost(tier)
        if left < 0:
            break
        up_to = reroll_up_to(tier)
        rerolled = sum(counts[:up_to])
        if rerolled == 0:
            continue
        kept = table.class_of((0,) * up_to + counts[up_to:])
        best = max(best, reroll_pass(scoring, kept, rerolled, left, difficulty - s, counts_margin))
    return best


def before_roll_value(
    dice: int, scoring: Scoring, budget: int, difficulty: int, counts_margin: bool
) -> Fraction:
    """P(pass) of rolling ``dice`` and keeping ``budget`` points for after the roll.

    Walks the face multisets of the first roll with nested loops (faces 6, 5, 4 first:
    they are kept by every reroll tier), carrying the machine class and the successes
    incrementally; every weight is an integer over ``6**dice * 6**dice``.
    """
    table = machine(scoring)
    if dice == 0:  # O-7: no dice cannot succeed, whatever is bought after
        return Fraction(0)
    if dice > MOST_ROLLED:
        raise LimitError(N_("The advisor handles up to {limit} dice."), limit=MOST_ROLLED)
    values = scoring.values
    scale = 6**dice
    # jump[face][cls][count]: the machine class after ``count`` more dice showing ``face``.
    jump = [
        [[table.advance(cls, face, c) for c in range(dice + 1)] for cls in range(len(table.step))]
        for face in range(7)
    ]
    gain_now = [best_gain(scoring, cls, budget, counts_margin) for cls in range(len(table.step))]
    binomial = [[comb(n, k) for k in range(n + 1)] for n in range(dice + 1)]
    spare = [int(6 ** (dice - k)) for k in range(dice + 1)]
    # Dice of faces 1-3 never score; only their count and machine class matter below.
    low_ways = [3**k for k in range(dice + 1)]
    hits_memo: dict[tuple[int, int, int, int], int] = {}

    def reroll_value(kept: int, count: int, left: int, need: int) -> int:
        key = (kept, count, left, need)
        value = hits_memo.get(key)
        if value is None:
            value = reroll_hits(scoring, kept, count, left, need, counts_margin) * spare[count]
            hits_memo[key] = value
        return value

    reach: dict[int, list[int]] = {1: [], 2: [], 3: []}  # points left, by the faces rerolled
    for tier in TIERS[1:]:
        if tier_cost(tier) > budget:
            continue
        if reroll_up_to(tier) not in reach:  # a table with other reroll tiers than 1-3
            raise LimitError(N_("The advisor handles rerolls of faces 1 to 3 only."))
        reach[reroll_up_to(tier)].append(budget - tier_cost(tier))

    def best_reroll(up_to: int, kept: int, count: int, need: int) -> int:
        """The best reroll of the ``count`` dice showing 1 to ``up_to`` (0: none)."""
        if not count:
            return 0
        return max((reroll_value(kept, count, left, need) for left in reach[up_to]), default=0)

    splits: dict[tuple[int, int, int], tuple[list[int], list[int], list[int], int]] = {}

    def split_values(k3: int, left3: int, need: int) -> tuple[list[int], list[int], list[int], int]:
        """The ways ``left3`` dice show 1s and 2s after a class ``k3``: each split's value
        without a reroll of faces 2-3 (``scale``: it passes as it stands; else the best
        reroll of its 1s, 0 without one), sorted from the highest, with running sums of
        ways and of ways times value, and the ways in all (memoised)."""
        key = (k3, left3, need)
        found = splits.get(key)
        if found is not None:
            return found
        ways, twos, ones = binomial[left3], jump[2][k3], jump[1]
        valued = []
        for c2 in range(left3 + 1):
            c1 = left3 - c2
            k2 = twos[c2]
            value = scale if gain_now[ones[k2][c1]] >= need else best_reroll(1, k2, c1, need)
            valued.append((value, ways[c2]))
        valued.sort(reverse=True)
        highs = [-value for value, _ in valued]  # ascending, for bisect
        count, weighted = [0], [0]
        for value, way in valued:
            count.append(count[-1] + way)
            weighted.append(weighted[-1] + way * value)
        found = splits[key] = (highs, count, weighted, count[-1])
        return found

    low_memo: dict[tuple[int, int, int], int] = {}

    def low_faces(k4: int, need: int, left4: int) -> int:
        """Weighted value of every way ``left4`` dice show faces 1-3 (memoised: it
        depends only on the class of the faces 4-6, the successes still needed and
        how many dice are left).

        Each split is worth the best of: passing as it stands, a reroll of its 1s, of
        its 1s and 2s, of every low die. The last two do not depend on how the dice
        below the 3s split, so for a count of 3s the sum over the splits of 1s and 2s
        is ``sum(ways * max(floor, value))``: the splits worth more than the floor
        (found by bisection in the sorted values of :func:`split_values`) bring their
        own, the rest the floor.
        """
        key = (k4, need, left4)
        found = low_memo.get(key)
        if found is not None:
            return found
        every_low = best_reroll(3, k4, left4, need)
        total = 0
        for c3 in range(left4 + 1):
            left3 = left4 - c3
            k3 = jump[3][k4][c3]
            floor = max(every_low, best_reroll(2, k3, left3, need))
            highs, count, weighted, ways = split_values(k3, left3, need)
            above = bisect_left(highs, -floor)  # the splits worth more than the floor
            total += binomial[left4][c3] * (weighted[above] + floor * (ways - count[above]))
        low_memo[key] = total
        return total

    total = 0
    for c6 in range(dice + 1):
        w6 = binomial[dice][c6]
        k6 = jump[6][table.start][c6]
        for c5 in range(dice - c6 + 1):
            w5 = w6 * binomial[dice - c6][c5]
            k5 = jump[5][k6][c5]
            for c4 in range(dice - c6 - c5 + 1):
                left4 = dice - c6 - c5 - c4
                w4 = w5 * binomial[dice - c6 - c5][c4]
                s = values[5] * c6 + values[4] * c5 + values[3] * c4
                if s >= difficulty:
                    total += w4 * low_ways[left4] * scale
                    continue
                total += w4 * low_faces(jump[4][k5][c4], difficulty - s, left4)
    return Fraction(total, scale * scale)


def advise_before(
    dice: int,
    difficulty: int,
    points: int,
    *,
    scoring: Scoring = Scoring.NORMAL,
    counts_margin: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[Option]:
    """Each way to buy extra dice now, keeping the rest for after the roll, best first.

    ``progress(1)`` after each way weighed: at 60 dice and 30 points the four take
    about two seconds, which a bar follows."""
    _check(points, difficulty)
    if not 0 <= dice <= MAX_POOL:
        raise LimitError(
            N_(
                "A test rolls 0 to {limit} dice (a Potentiel d'Action and its modifier), "
                "not {dice}."
            ),
            limit=MAX_POOL,
            dice=dice,
        )
    options = []
    for tier in TIERS:
        cost = tier_cost(tier)
        if cost > points:
            break
        p = before_roll_value(
            dice + extra_dice(tier), scoring, points - cost, difficulty, counts_margin
        )
        options.append(Option(PushPlan(dice=tier), cost, points - cost, p))
        if progress is not None:
            progress(1)
    return _ranked(options, prune=False)


def plan_probability(
    counts: tuple[int, ...], plan: PushPlan, scoring: Scoring, difficulty: int, counts_margin: bool
) -> Fraction:
    """P(pass) of a fixed post-roll plan on faces with ``counts`` (auto adjustment)."""
    table = machine(scoring)
    values = scoring.values
    s = sum(v * c for v, c in zip(values, counts, strict=True))
    bonus = margin_bonus(plan.margin) if counts_margin else 0
    need = difficulty - s - bonus
    up_to = reroll_up_to(plan.reroll)
    rerolled = sum(counts[:up_to])
    if rerolled == 0:
        return Fraction(int(table.gains[table.class_of(counts)][plan.adjust] >= need))
    kept = table.class_of((0,) * up_to + counts[up_to:])
    dist = class_dist(rerolled, scoring, 0, kept)
    hits = sum(w for (sf, cls), w in dist.items() if sf + table.gains[cls][plan.adjust] >= need)
    return Fraction(hits, 6**rerolled)


def advise_after(
    faces: tuple[int, ...],
    difficulty: int,
    points: int,
    *,
    scoring: Scoring = Scoring.NORMAL,
    counts_margin: bool = False,
) -> list[Option]:
    """Every affordable post-roll plan with its exact success probability, best first."""
    _check(points, difficulty)
    if len(faces) > MOST_ROLLED:
        raise LimitError(
            N_(
                "A test rolls 0 to {limit} dice (a Potentiel d'Action and its modifier), "
                "not {dice}."
            ),
            limit=MAX_POOL,
            dice=len(faces),
        )
    counts = tuple(faces.count(f) for f in range(1, 7))
    counts_margin = margin_counted(counts_margin, len(faces))
    options = []
    for reroll in TIERS:
        for adjust in TIERS:
            for margin in TIERS if counts_margin else (0,):
                plan = PushPlan(reroll=reroll, adjust=adjust, margin=margin)
                if plan.cost > points or (reroll and not sum(counts[: reroll_up_to(reroll)])):
                    continue
                if adjust and not faces:
                    continue
                p = plan_probability(counts, plan, scoring, difficulty, counts_margin)
                if adjust and not reroll:  # the dice to raise are known: say which
                    choice = best_assignment(counts, adjust, scoring)[1]
                    plan = PushPlan(
                        adjust=adjust, margin=margin, adjust_on=place_assignment(faces, choice)
                    )
                options.append(Option(plan, plan.cost, 0, p))
    return _ranked(options)


def _ranked(options: list[Option], *, prune: bool = True) -> list[Option]:
    """Likeliest first, then cheapest; with ``prune``, an option dearer and no likelier
    than another is dropped."""
    ordered = sorted(options, key=lambda o: (-o.p_success, o.cost))
    if not prune:
        return ordered
    kept: list[Option] = []
    for option in ordered:
        if any(k.cost <= option.cost and k.p_success >= option.p_success for k in kept):
            continue
        kept.append(option)
    return kept
