"""Who wins an opposition of ``needed`` sides (T-8, T-9), without the law of the lead.

T-9: after both first batches a ``needed`` side explodes while it is not ahead; on a tie
both explode, a's batch first, then b's with no choice. The sides look at each other, so
:mod:`meneur.systems.tunnels.opposed` walks their joint state with the whole law of the
lead: exact up to 20 dice a side, or 30 against 10, when the three 6s are left out
(``odds.check_margin_size``). Who wins needs much less.

Give each side its *trajectory*: the batches it would roll if it exploded every one
(``always``), the successes ``S_j`` after ``j`` batches, its total ``S*``. The batch
``j + 1`` stands at *level* ``S_j`` (the first batch at level -1). An opposition rolls
the batches of both trajectories in the order of their levels (a's first on a tie), and
a side's batch at level ``λ`` is rolled iff the other side's total reaches ``λ``: a side
climbs only while not ahead, and the other, once ahead, waits at its level until passed.
So, with no critical failure, the winner is the sign of ``a* - b*``, as if both sides
always exploded; the policy changes only which dice are rolled, and so the critical
failures (three 1s among the dice rolled, T-8), which decide first:

* a side's *critical level* ``ℓ`` is the level of the batch of its trajectory that
  brings its ones to three (none: it never gets three), its *rank* how many of its
  batches stand at that level up to it (a batch without a success keeps the level);
* the first critical batch rolled decides: from then on the critical side loses (T-9)
  and the other stops. At one level the sides' batches alternate from a tie (a's first,
  then b's with no choice), so there the lower rank rolls first, a's on equal ranks,
  and then b's batch of that rank, rolled with no choice, brings b its third 1 too:
  nobody wins.

Hence, per side, two laws over levels, built by one forward pass over the trajectory
(:func:`side`): ``critical[i][λ]``, the critical batch is the ``i``-th at level ``λ``;
``calm[s]``, a trajectory with fewer than three 1s and ``s`` successes in all. Then,
over ``T = T_a T_b``, with ``C(x)`` and ``K(x)`` the sums of a's ``critical`` (every
rank) and ``calm`` from ``x`` up::

    a wins:  sum_s calm_b[s] (C(s + 1) + K(s + 1))
           + sum_{i,λ} critical_b[i][λ] (C(λ + 1) + K(λ) + sum_{j > i} critical_a[j][λ])
    nobody:  sum_s calm_a[s] calm_b[s] + sum_{i,λ} critical_a[i][λ] critical_b[i][λ]

A side that plays ``never`` has a trajectory of one batch. A side that plays ``always``
rolls ahead of its level while the other catches up, so a pair with ``always`` and
``needed`` keeps the joint walk. The margin (a fight's damage, T-10) is read from the
same trajectories (:mod:`meneur.systems.tunnels.margins`), walked by the same
:func:`forward` pass.

The pass holds polynomials of up to ``most_dice`` successes, as the whole law of an
``always`` side does: 30 dice a side in 0.2 s, 60 in ~11 s, where the joint walk takes
minutes past 20 (``benchmarks/bench_tunnels_opposed.py``). It equals the joint walk,
fraction for fraction, on every pair it was compared on (tests).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import add, mul, sub

from flint import fmpz_poly

from meneur.systems.tunnels.passlaw import Batch, flint_batch
from meneur.systems.tunnels.polylaw import STATES, ZERO, Triple, cube_product, most_dice, padded
from meneur.systems.tunnels.rules import CRITICAL_ONES, LOWEST_SUCCESS, OpposedParams, Policy

CHASING: frozenset[Policy] = frozenset({"needed", "never"})
"""The policies of a pair whose winner :func:`verdicts` reads (with a ``needed`` side)."""


def chases(policies: Iterable[str]) -> bool:
    """Whether an opposition of these policies is read from its sides' trajectories
    (:func:`verdicts`, :mod:`~meneur.systems.tunnels.margins`): a side plays ``needed``
    and neither plays ``always`` (which keeps the joint walk)."""
    chosen = set(policies)
    return "needed" in chosen and chosen <= CHASING


@dataclass(frozen=True, slots=True)
class Side:
    """A side's laws over levels, weights over ``total``: ``critical[i - 1][λ + 1]``, its
    critical batch is the ``i``-th at level ``λ`` (index 0: level -1, the first batch);
    ``calm[s]``, fewer than three 1s in all and ``s`` successes. Read once per side for
    every opposition it is in: ``critical_by_level`` (every rank), and, as side a,
    ``passing[s] = C(s + 1) + K(s + 1)`` and ``standing[λ + 1] = C(λ + 1) + K(λ)``
    (see the module)."""

    critical: tuple[tuple[int, ...], ...]
    calm: tuple[int, ...]
    total: int
    critical_by_level: tuple[int, ...]
    passing: tuple[int, ...]
    standing: tuple[int, ...]


def _read(critical: list[list[int]], calm: list[int], total: int) -> Side:
    """A :class:`Side` from its two laws, with the sums every opposition reads."""
    by_level = [sum(column) for column in zip(*critical, strict=True)]
    from_level, from_total = _suffix(by_level), _suffix(calm)  # index: level + 1; successes
    passing = [from_level[s + 2] + from_total[s + 1] for s in range(len(calm))]
    standing = [
        from_level[index + 1] + from_total[max(index - 1, 0)] for index in range(len(by_level))
    ]
    return Side(
        tuple(map(tuple, critical)),
        tuple(calm),
        total,
        tuple(by_level),
        tuple(passing),
        tuple(standing),
    )


@lru_cache(maxsize=512)
def _fatal(dice: int, lowest: int) -> tuple[int, ...]:
    """By the ones so far (0-2): the weight of a batch of ``dice`` dice that brings the
    third 1 (T-8), over ``6**dice``: every batch less those that keep below three."""
    below = [0] * CRITICAL_ONES  # by the batch's own ones
    for _d, _every, _calm, masses, _calm_masses, _sparse in _batches(dice, lowest):
        for (ones, _sixes), mass in masses.items():
            below[ones] += int(mass[0])
    return tuple(6**dice - sum(below[: CRITICAL_ONES - ones]) for ones in STATES)


def _batches(dice: int, lowest: int) -> Batch:
    """One batch of ``dice`` dice uncut, by distinct faces, its ``ALL`` family by ones
    below three (:func:`~meneur.systems.tunnels.passlaw.flint_batch`): the sixes do not
    decide a winner (T-9)."""
    return flint_batch(dice, lowest, "batch", dice + 1)


Move = tuple[int, Triple, Triple, tuple[int, int, int]]
"""The batches from ``p`` dice that leave ``left`` dice: (left, by the batch's ones 0-2
its polynomial, its part with successes, its weight without)."""


@lru_cache(maxsize=512)
def moves(pending: int, lowest: int, policy: Policy) -> tuple[Move, ...]:
    """The batches from ``pending`` dice, by the dice they leave, scaled by the dice the
    batches after them could still roll (``never``: none, one batch)."""
    out = []
    for distinct, every, _calm, _masses, _calm_masses, _sparse in _batches(pending, lowest):
        left = pending - distinct if policy == "needed" else 0
        scale = 1 if policy == "never" else 6 ** (most_dice(pending) - pending - most_dice(left))
        whole = [every.get((ones, 0), ZERO) * scale for ones in STATES]
        stay = [int(poly[0]) for poly in whole]
        moving = [poly - weight for poly, weight in zip(whole, stay, strict=True)]
        out.append(
            (
                left,
                (whole[0], whole[1], whole[2]),
                (moving[0], moving[1], moving[2]),
                (stay[0], stay[1], stay[2]),
            )
        )
    return tuple(out)


MEMO = 64
"""Sides kept (the most recent): a grid of oppositions reads each pool's side once per
mode. A side of 60 dice holds about 27 MB (a weight per level and rank)."""
SideKey = tuple[int, int, Policy]
"""(dice, lowest success, policy) of one side."""
_SIDES: OrderedDict[SideKey, Side] = OrderedDict()


def side_work(dice: int, policy: Policy) -> list[int]:
    """The work of :func:`side` by pending dice, in units of a progress bar: a state's
    polynomials hold as many successes as dice rolled so far, and so do their weights'
    bits, so a step costs about the square of it."""
    if policy != "needed":
        return [1]
    top = most_dice(dice)
    return [(top - most_dice(pending) + pending) ** 2 for pending in range(dice, 0, -1)]


def side(
    dice: int, lowest: int, policy: Policy, progress: Callable[[int], None] | None = None
) -> Side:
    """:func:`_side`, memoised; ``progress(n)`` as :func:`side_work` is done."""
    key = (dice, lowest, policy)
    found = _SIDES.get(key)
    if found is None:
        found = _side(dice, lowest, policy, progress or (lambda _n: None))
    remember(key, found)
    return found


def remember(key: SideKey, found: Side) -> None:
    """Keep ``found`` as the side of ``key``, the most recent: the margins' walk
    builds it in the pass that reads its trajectory."""
    _SIDES[key] = found
    _SIDES.move_to_end(key)
    while len(_SIDES) > MEMO:
        _SIDES.popitem(last=False)


def known(key: SideKey) -> bool:
    """Whether the side of ``key`` is memoised (a walk need not build it again)."""
    return key in _SIDES


@dataclass(frozen=True, slots=True)
class Step:
    """The states of ``pending`` dice in a forward pass over a trajectory (:func:`forward`):
    by the ones so far (0-2), the law of the successes so far, ``whole`` and ``fresh``
    (arrived by a batch with successes, or the first batch: the next batch is the first at
    its level); the batches from them (:func:`moves`); ``ended``, the trajectories that
    end with these batches, ones below three, by successes."""

    pending: int
    first: bool
    whole: dict[int, fmpz_poly]
    fresh: dict[int, fmpz_poly]
    moves: tuple[Move, ...]
    ended: fmpz_poly


def forward(dice: int, lowest: int, policy: Policy) -> Iterator[Step]:
    """A side's trajectory state by state, from its pool down (``needed`` follows every
    batch, ``never`` its first only). The state of ``p`` pending dice and ``o`` ones
    holds its weights over ``6**(top - most_dice(p))``; a batch from it weighs over
    ``6**p`` and the dice after it ``6**(most_dice(p) - p)``."""
    states: dict[tuple[int, int], tuple[fmpz_poly, fmpz_poly]] = {}
    for pending in range(dice, 0, -1):
        first = pending == dice
        whole: dict[int, fmpz_poly] = {0: fmpz_poly([1])} if first else {}
        fresh: dict[int, fmpz_poly] = {}
        for ones in () if first else STATES:
            found = states.pop((pending, ones), None)
            if found is not None:
                whole[ones], fresh[ones] = found
        by_ones = (whole.get(0, ZERO), whole.get(1, ZERO), whole.get(2, ZERO))
        ended = fmpz_poly()
        batches = moves(pending, lowest, policy)
        for left, batch, moving, stay in batches:
            arrive: Triple
            every: Triple
            if first or left == 0:  # after the first batch, every level is a new one
                arrive = every = cube_product(by_ones, batch, mul, add, sub)
            else:  # with successes: a new level; without: the same one
                arrive = cube_product(by_ones, moving, mul, add, sub)
                every = tuple(
                    poly + sum((by_ones[o] * stay[now - o] for o in range(now + 1)), ZERO)
                    for now, poly in enumerate(arrive)
                )
            if left == 0:  # the trajectory ends: its ones stay below three
                ended += sum(every, ZERO)
                continue
            for now in STATES:
                if every[now]:
                    old = states.get((left, now), (ZERO, ZERO))
                    states[(left, now)] = (old[0] + every[now], old[1] + arrive[now])
        yield Step(pending, first, whole, fresh, batches, ended)
        if policy == "never":
            break


class Laws:
    """A side's two laws (see the module), summed step by step over one :func:`forward`
    pass: by :func:`_side`, and by the margins' walk of the same trajectory
    (:func:`meneur.systems.tunnels.margins.trajectory`), which so walks it once for both.

    A batch without a success keeps the level, so the rank of a critical batch at its
    level is counted from the fresh state it follows by numbers alone (:func:`_ranks`),
    not by a polynomial per rank.
    """

    def __init__(self, dice: int, lowest: int, policy: Policy) -> None:
        self.lowest = lowest
        self.top = most_dice(dice) if policy == "needed" else dice
        first = _fatal(dice, lowest)[0] * 6 ** (self.top - dice)  # the first batch critical
        self.critical: list[fmpz_poly] = [fmpz_poly([first])]
        self.calm = fmpz_poly()

    def add(self, step: Step) -> None:
        """Read one state of the pass: its fresh arrivals' critical batches, by rank,
        and the trajectories that end there."""
        for ones, arrived in step.fresh.items():
            at_level = arrived.left_shift(1)  # index 0 is level -1: shifted once, not per rank
            for rank, weight in enumerate(_ranks(step.pending, ones, self.lowest)):
                if weight:
                    self.critical.extend(fmpz_poly() for _ in range(rank + 1 - len(self.critical)))
                    self.critical[rank] += at_level * weight
        self.calm += step.ended

    def side(self) -> Side:
        size = self.top + 2  # levels -1 to top
        critical = [padded(poly, size) for poly in self.critical]
        return _read(critical, padded(self.calm, size - 1), 6**self.top)


def _side(dice: int, lowest: int, policy: Policy, progress: Callable[[int], None]) -> Side:
    """The laws of one side's trajectory (see the module), by one :func:`forward` pass."""
    laws = Laws(dice, lowest, policy)
    for step, work in zip(forward(dice, lowest, policy), side_work(dice, policy), strict=False):
        progress(work)
        laws.add(step)
    return laws.side()


@lru_cache(maxsize=4096)
def _ranks(pending: int, ones: int, lowest: int) -> tuple[int, ...]:
    """From a fresh state of ``pending`` dice and ``ones`` 1s (``needed``): by ``r``, the
    weight of ``r`` batches without a success, then the batch of the third 1, over
    ``6**most_dice(pending)`` (the critical batch is the ``r + 1``-th at the level)."""
    out = [_fatal(pending, lowest)[ones] * 6 ** (most_dice(pending) - pending)]
    for left, now, weight in stays(pending, ones, lowest):
        after = _ranks(left, now, lowest)
        out.extend(0 for _ in range(len(after) + 1 - len(out)))
        for rank, tail in enumerate(after):
            out[rank + 1] += weight * tail
    return tuple(out)


def stays(pending: int, ones: int, lowest: int) -> list[tuple[int, int, int]]:
    """The batches from a state (``needed``) without a success nor a third 1 that leave
    dice, keeping the level: (dice left, ones then, weight over ``6**(most_dice(pending)
    - most_dice(left))``). What a batch's rank at its level counts."""
    out = []
    for left, _batch, _moving, stay in moves(pending, lowest, "needed"):
        if left == 0:
            continue
        for batch_ones, weight in enumerate(stay):
            if weight and ones + batch_ones < CRITICAL_ONES:
                out.append((left, ones + batch_ones, weight))
    return out


def _suffix(values: list[int]) -> list[int]:
    """``out[i] = sum(values[i:])``, then two empty sums past the end."""
    return [*reversed(list(accumulate(reversed(values)))), 0, 0]


def dot(left: tuple[int, ...] | list[int], right: tuple[int, ...] | list[int]) -> int:
    """The sum of the products of the terms of equal index (the shorter one's)."""
    return sum(map(mul, left, right))


def verdicts(params: OpposedParams) -> tuple[int, int, int, int]:
    """The weights of a winning, b winning and nobody winning, over a total (T-8, T-9),
    of an opposition of two sides that play ``needed`` or ``never`` (see the module)."""
    assert {params.a.explode, params.b.explode} <= CHASING, "always beside needed: the walk"
    a = side(params.a.dice, LOWEST_SUCCESS[params.a.mode], params.a.explode)
    b = side(params.b.dice, LOWEST_SUCCESS[params.b.mode], params.b.explode)
    # b never critical: a wins by getting past b's total before its own critical batch;
    # b's critical batch first: at a lower level than a's, or at a's level and rank lower
    win = dot(b.calm, a.passing) + dot(b.critical_by_level, a.standing)
    tie = dot(a.calm, b.calm)  # no critical, equal totals
    earlier = [0] * len(b.critical[0])  # b's critical batches of the ranks below
    for rank, column_a in enumerate(a.critical):
        win += dot(column_a, earlier)
        if rank < len(b.critical):
            tie += dot(column_a, b.critical[rank])  # b's batch of a's rank, with no choice
            earlier = list(map(add, earlier, b.critical[rank]))
    total = a.total * b.total
    return win, total - win - tie, tie, total


def clear_caches() -> None:
    """Forget the memoised sides (benchmarks time a cold engine)."""
    _SIDES.clear()
    for function in (_fatal, moves, _ranks):
        function.cache_clear()
