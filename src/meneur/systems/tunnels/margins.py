"""(winner, margin) of an opposition of ``needed`` sides, by trajectories (T-8 to T-10).

:mod:`meneur.systems.tunnels.chase` reads who wins from each side's *trajectory* (the
batches it would roll if it exploded every one, its partial sums ``S_j``, the batch
``j + 1`` standing at *level* ``S_j``, the first at level -1): the opposition rolls the
batches of both trajectories in the order of their levels, a side's batch at level ``λ``
rolled iff the other side's total reaches ``λ``, and the first critical batch rolled
(three 1s, T-8) decides. A round of a fight (T-10) needs by how much, too. With the same
reading, when a wins (b's case is the mirror):

* **b calm** (fewer than three 1s in its whole trajectory, total ``s``): b rolls its whole
  trajectory and a stops at its first partial sum past ``s``, with no critical batch up
  to it. The margin is that sum less ``s``: a's *overshoot* of level ``s``.
* **b's critical batch first**, at level ``λ``, the ``r``-th batch of b at that level:
  from then on b loses (T-9) and rolls its whole rest (it is behind), total ``λ + R``,
  and a stops where it stood: past ``λ`` by ``O``, where a got past ``λ`` either by a
  batch from a lower level (a *jump*) or from level ``λ`` itself by its ``k``-th batch
  there with ``k <= r`` (at one level the sides' batches alternate from a tie);
  otherwise a stands at ``λ`` (``O = 0``). The margin is ``max(1, O - R)``
  (:func:`~meneur.systems.tunnels.rules.judge`: a win on the other side's critical
  failure is worth at least 1).
* **b's first batch critical** (level -1), a's not: both first batches are rolled, a
  stops there with ``s`` successes, b rolls everything: ``max(1, s - b*)``.

Both batches of one rank at a level are rolled in one step (T-9: each step is decided
on the counts before it), so the same ``k <= r`` holds when b wins against a's critical
batch: that a's batch is read first decides nothing here.

Each side is one forward pass over its trajectory (:func:`chase.forward`,
:class:`Trajectory`): ``jump[O][λ]``, and its *fresh* arrivals at each level by state
(pending dice, ones); the same pass sums the laws who wins reads (:class:`chase.Laws`).
What follows a fresh arrival depends on the state alone: by rank, the overshoot of the
batch that leaves the level (:func:`_leaves`) or, for the critical side, the ``R`` of its
critical batch (:func:`_critical_ranks`). So the levels are summed once per pair of
states (a *gram* matrix, one FLINT product), and the ranks per pair of states, small
laws (:func:`_wins_by`), instead of tables by level, rank and overshoot. Only margins of
2 and more are summed: ``O`` is at most a batch's dice, so ``R`` is cut there, and the
margin-1 weight is what is left of the winner's weight
(:func:`~meneur.systems.tunnels.chase.verdicts`). 20 against 20 takes 0.2 s where the
joint walk takes 1.8 s, 30 against 30 1.6 s against 24 s
(``benchmarks/bench_tunnels_opposed.py``).

Weights are exact integers over ``6**most_dice(dice)`` per side (``6**dice`` for
``never``), as in :mod:`~meneur.systems.tunnels.chase`. Equal, fraction for fraction,
to enumeration of every face on the tiniest pools and to the joint walk of
:mod:`meneur.systems.tunnels.opposed` wherever it runs (tests).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import add

from flint import fmpz_mat, fmpz_poly

from meneur.systems.tunnels import chase
from meneur.systems.tunnels.chase import SideKey, dot
from meneur.systems.tunnels.polylaw import ZERO, batch_law, most_dice, padded
from meneur.systems.tunnels.rules import CRITICAL_ONES, LOWEST_SUCCESS, OpposedParams, Policy

Weights = tuple[int, ...]
"""Weights by an index (a level, an overshoot, a rest), as Python integers."""

State = tuple[int, int]
"""(dice pending, ones so far, 0-2) of a side after its first batch."""


@dataclass(frozen=True, slots=True)
class Trajectory:
    """One side's trajectory as the margins read it, weights over ``6**top``:
    ``jump[O][λ]``, it first gets past level ``λ >= 0`` by ``O`` with a batch from a
    lower level and no third 1 up to it; ``fresh``, by state, its arrivals at level
    ``λ`` by a batch with successes (or the first batch): its next batch is its first at
    that level; ``opening[s]``, its first batch brings no third 1 and ``s`` successes."""

    jump: tuple[Weights, ...]
    fresh: tuple[tuple[State, Weights], ...]
    opening: Weights


def _top(dice: int, policy: Policy) -> int:
    return dice if policy == "never" else most_dice(dice)


def _cut(poly: fmpz_poly, size: int) -> Weights:
    """The first ``size`` coefficients as Python integers, zeros past the end."""
    return tuple(padded(poly, size))


@lru_cache(maxsize=512)
def _tail(pending: int, lowest: int, cap: int) -> Weights:
    """The successes that ``pending`` dice bring when every batch explodes, every class
    (a critical side rolls on: T-8 has decided), cut below ``cap``, over
    ``6**most_dice(pending)``."""
    if pending == 0:
        return (1,) + (0,) * (cap - 1)
    out = fmpz_poly()
    for distinct, law in batch_law(pending, lowest, "batch").items():
        left = pending - distinct
        batch = sum((fmpz_poly(poly) for poly in law.values()), ZERO)
        scale = 6 ** (most_dice(pending) - pending - most_dice(left))
        out += (batch * fmpz_poly(list(_tail(left, lowest, cap)))).truncate(cap) * scale
    return _cut(out, cap)


@lru_cache(maxsize=1024)
def _critical_batches(pending: int, lowest: int, ones: int) -> tuple[tuple[int, fmpz_poly], ...]:
    """The batches from ``pending`` dice that bring the third 1 (T-8) to a side with
    ``ones`` 1s: (dice they leave, their law of successes over ``6**pending``)."""
    out = []
    for distinct, law in batch_law(pending, lowest, "batch").items():
        polys = [fmpz_poly(poly) for (o, _s), poly in law.items() if o + ones >= CRITICAL_ONES]
        if polys:
            out.append((pending - distinct, sum(polys, ZERO)))
    return tuple(out)


def _then_rest(
    batches: tuple[tuple[int, fmpz_poly], ...], lowest: int, cap: int, scale: int
) -> fmpz_poly:
    """Critical batches, each followed by every success its dice left bring, cut below
    ``cap``: the ``R`` of the module, over ``6**scale`` (``scale``: the most dice from
    the batch on)."""
    out = fmpz_poly()
    for left, batch in batches:
        rest = fmpz_poly(list(_tail(left, lowest, cap)))
        out += (batch * rest).truncate(cap) * 6 ** (scale - most_dice(left))
    return out


def _add_ranked(into: list[list[int]], ranks: tuple[Weights, ...], weight: int) -> None:
    """``into[r + 1] += weight * ranks[r]``: a batch without a success came first."""
    for rank, law in enumerate(ranks):
        if rank + 1 == len(into):
            into.append([0] * len(into[0]))
        row = into[rank + 1]
        for index, value in enumerate(law):
            row[index] += weight * value


@lru_cache(maxsize=4096)
def _critical_ranks(pending: int, ones: int, lowest: int, cap: int) -> tuple[Weights, ...]:
    """From a fresh state (``needed``): by ``r``, the law of ``R`` (below ``cap``) when
    ``r`` batches without a success come first, then the critical batch (its successes
    and every one after it make ``R``); over ``6**most_dice(pending)``."""
    top = most_dice(pending)
    first = _then_rest(_critical_batches(pending, lowest, ones), lowest, cap, top - pending)
    out = [list(_cut(first, cap))]
    for left, now, weight in chase.stays(pending, ones, lowest):
        _add_ranked(out, _critical_ranks(left, now, lowest, cap), weight)
    return tuple(map(tuple, out))


@lru_cache(maxsize=4096)
def _from_rank(pending: int, ones: int, lowest: int, cap: int) -> tuple[Weights, ...]:
    """:func:`_critical_ranks` summed from each rank up: the other side's ``k``-th batch
    at the level is rolled before (or with) every critical batch of rank ``k`` or more."""
    out: list[Weights] = []
    running = [0] * cap
    for law in reversed(_critical_ranks(pending, ones, lowest, cap)):
        running = list(map(add, running, law))
        out.append(tuple(running))
    return tuple(reversed(out))


@lru_cache(maxsize=4096)
def _leaves(pending: int, ones: int, lowest: int) -> tuple[Weights, ...]:
    """From a fresh state (``needed``): by ``k - 1``, the weights by ``O`` of ``k - 1``
    batches without a success, then one with ``O >= 1`` successes, with no third 1 up to
    it; over ``6**most_dice(pending)``."""
    first = [0] * (pending + 1)
    for left, _batch, moving, _stay in chase.moves(pending, lowest, "needed"):
        rest = 6 ** most_dice(left)
        for batch_ones in range(CRITICAL_ONES - ones):
            for index, weight in enumerate(moving[batch_ones].coeffs()):
                first[index] += int(weight) * rest
    out = [first]
    for left, now, weight in chase.stays(pending, ones, lowest):
        _add_ranked(out, _leaves(left, now, lowest), weight)
    return tuple(map(tuple, out))


@lru_cache(maxsize=256)
def _opening_critical(dice: int, lowest: int, policy: Policy, cap: int) -> Weights:
    """A critical first batch, by ``t`` (below ``cap``) successes in all from it on (the
    side rolls everything once critical), over ``6**top``."""
    batches = _critical_batches(dice, lowest, 0)
    if policy == "never":
        batches = tuple((0, batch) for _left, batch in batches)
    return _cut(_then_rest(batches, lowest, cap, _top(dice, policy) - dice), cap)


def _walk(dice: int, lowest: int, policy: Policy) -> Trajectory:
    """A side's :class:`Trajectory`, by one :func:`chase.forward` pass that builds the
    side's :class:`chase.Laws` too (who wins reads them), unless they are known."""
    key = (dice, lowest, policy)
    laws = None if chase.known(key) else chase.Laws(dice, lowest, policy)
    size = _top(dice, policy) + 1  # levels 0 to top
    jump = [fmpz_poly() for _ in range(dice + 1)]  # by O, shifted right by O at the end
    fresh: list[tuple[State, Weights]] = []
    opening: Weights = ()
    for step in chase.forward(dice, lowest, policy):
        if laws is not None:
            laws.add(step)
        fresh.extend(((step.pending, ones), _cut(poly, size)) for ones, poly in step.fresh.items())
        for ones, whole in step.whole.items():  # every batch without a third 1, by successes
            calm = sum(
                (
                    batch[batch_ones] * 6 ** most_dice(left)
                    for left, batch, _moving, _stay in step.moves
                    for batch_ones in range(CRITICAL_ONES - ones)
                ),
                ZERO,
            )
            values = [int(c) for c in calm.coeffs()]
            if step.first:
                opening = tuple(values + [0] * (dice + 1 - len(values)))
            # s successes from level S get past S < λ < S + s (the first batch, from
            # level -1: 0 <= λ < s) by O = S + s - λ: jump[O] sums whole × x**s over
            # s >= O + 1 (s >= O), one more term per O down, shifted right by O
            past = fmpz_poly()
            for overshoot in range(len(values) - 1, 0, -1):
                low = overshoot if step.first else overshoot + 1
                if low < len(values) and values[low]:
                    past += (whole * values[low]).left_shift(low)
                if past:
                    jump[overshoot] += past
    if laws is not None:
        chase.remember(key, laws.side())
    return Trajectory(
        tuple(_cut(poly.right_shift(overshoot), size) for overshoot, poly in enumerate(jump)),
        tuple(fresh),
        opening,
    )


MEMO = 64
"""Trajectories kept (the most recent): a fight reads the character's once per MR."""
_WALKS: OrderedDict[SideKey, Trajectory] = OrderedDict()


def trajectory(dice: int, lowest: int, policy: Policy) -> Trajectory:
    """:func:`_walk`, memoised."""
    key = (dice, lowest, policy)
    found = _WALKS.get(key)
    if found is None:
        found = _WALKS[key] = _walk(dice, lowest, policy)
        while len(_WALKS) > MEMO:
            _WALKS.popitem(last=False)
    _WALKS.move_to_end(key)
    return found


def _matrix(rows: Sequence[Sequence[int]], table: Sequence[Sequence[int]]) -> list[list[int]]:
    """The matrix product ``rows × table`` by FLINT (a few times faster than Python's
    sums at these sizes)."""
    if not rows or not table or not table[0]:
        return [[0] * (len(table[0]) if table else 0) for _ in rows]
    product = fmpz_mat([list(row) for row in rows]) * fmpz_mat([list(row) for row in table])
    return [[int(product[i, j]) for j in range(product.ncols())] for i in range(product.nrows())]


def _products(rows: Sequence[Weights], columns: Sequence[Weights]) -> list[list[int]]:
    """``out[i][j] = sum over λ of rows[i][λ] * columns[j][λ]`` (the shorter length)."""
    if not rows or not columns:
        return [[0] * len(columns) for _ in rows]
    size = min(len(rows[0]), len(columns[0]))
    return _matrix(
        [row[:size] for row in rows], list(zip(*(column[:size] for column in columns), strict=True))
    )


def _wins_by(winner: SideKey, loser: SideKey, gram: list[list[int]], cap: int) -> dict[int, int]:
    """The weights of the winner's margins of 2 and more, over both sides' totals.

    ``gram[s][s']``: the sum over the levels of the winner's fresh arrivals in state
    ``s`` times the loser's in state ``s'``. At one level the loser's critical batch
    (its ``r``-th there) and the winner's ``k``-th batch, leaving the level, are read
    as pairs of states: the per-state laws by rank (:func:`_leaves`,
    :func:`_from_rank`) are small, the levels are summed once per pair (``gram``)."""
    mine, theirs = trajectory(*winner), trajectory(*loser)
    lowest = winner[1]
    calm = chase.side(*loser).calm
    leaves = [_leaves(p, o, lowest) for (p, o), _f in mine.fresh]
    from_rank = [_from_rank(p, o, loser[1], cap) for (p, o), _f in theirs.fresh]
    # b calm: past its total whatever the rank
    past_calm = [dot(calm, row) for row in mine.jump]
    for ((_p, _o), arrived), ranks in zip(mine.fresh, leaves, strict=True):
        at = dot(calm, arrived)
        for law in ranks:
            for overshoot, weight in enumerate(law):
                past_calm[overshoot] += at * weight
    # the loser's critical batch at λ: the winner's jump at every rank ...
    jumped = [0] * (2 * cap)
    jumps = _products([arrived for _s, arrived in theirs.fresh], mine.jump)
    for over, ranks in zip(jumps, from_rank, strict=True):
        for rest, weight in enumerate(ranks[0]):
            if weight:
                for overshoot in range(rest + 2, len(over)):
                    jumped[overshoot - rest] += weight * over[overshoot]
    # ... or its k-th batch at λ, against the critical batches of rank k or more. Per
    # winner pending p (its overshoots are at most p, so R < p - 1 counts), the
    # loser's laws of R by rank summed over its states with the gram's weights (one
    # FLINT product), then paired with the winner's overshoots (R reversed: a product
    # of polynomials whose index O - R + width - 1 is the margin)
    left = [0] * (2 * cap)
    blocks: dict[int, list[int]] = {}
    for index, ((pending, _o), _f) in enumerate(mine.fresh):
        blocks.setdefault(pending, []).append(index)
    for pending, members in blocks.items():
        width = pending - 1
        depth = max(len(leaves[i]) for i in members)
        if width < 1:
            continue
        table = [
            [law[k][rest] if k < len(law) else 0 for k in range(depth) for rest in range(width)]
            for law in from_rank
        ]
        against = _matrix([gram[i] for i in members], table)
        for i, row in zip(members, against, strict=True):
            for k, law in enumerate(leaves[i]):
                rests = row[k * width : (k + 1) * width]
                if any(rests):
                    paired = fmpz_poly(list(law)) * fmpz_poly(rests[::-1])
                    for index, value in enumerate(paired.coeffs()):
                        margin = index - width + 1
                        if margin >= 2:
                            left[margin] += int(value)
    opening = _opening_critical(*loser, cap)
    out: dict[int, int] = {}
    for margin in range(2, winner[0] + 1):  # an overshoot is at most a batch's dice
        weight = past_calm[margin] + jumped[margin] + left[margin]
        for successes in range(margin, len(mine.opening)):  # the loser's first batch critical
            weight += mine.opening[successes] * opening[successes - margin]
        if weight:
            out[margin] = weight
    return out


def margin_weights(params: OpposedParams) -> tuple[dict[tuple[str | None, int], int], int]:
    """The weights of (winner, margin) of an opposition of two sides that play
    ``needed`` or ``never`` (T-9, T-10), over a total (see the module)."""
    assert chase.chases((params.a.explode, params.b.explode)), "always: the joint walk"
    a = (params.a.dice, LOWEST_SUCCESS[params.a.mode], params.a.explode)
    b = (params.b.dice, LOWEST_SUCCESS[params.b.mode], params.b.explode)
    fresh_a, fresh_b = trajectory(*a).fresh, trajectory(*b).fresh  # builds the sides too
    win, loss, tie, total = chase.verdicts(params)
    gram = _products([x for _s, x in fresh_a], [y for _s, y in fresh_b])
    transposed = [[row[j] for row in gram] for j in range(len(fresh_b))]
    # R is read below the larger pool: both directions (and every round of a fight
    # against a smaller monster) share each side's laws of R
    cap = max(a[0], b[0]) + 1
    out: dict[tuple[str | None, int], int] = {}
    for name, wins, by in (
        ("a", win, _wins_by(a, b, gram, cap)),
        ("b", loss, _wins_by(b, a, transposed, cap)),
    ):
        out.update({(name, margin): weight for margin, weight in by.items()})
        if wins - sum(by.values()):
            out[(name, 1)] = wins - sum(by.values())
    if tie:
        out[(None, 0)] = tie
    return out, total


def clear_caches() -> None:
    """Forget the memoised trajectories and laws (benchmarks time a cold engine)."""
    _WALKS.clear()
    for function in (_tail, _critical_batches, _critical_ranks, _from_rank, _leaves):
        function.cache_clear()
    _opening_critical.cache_clear()
