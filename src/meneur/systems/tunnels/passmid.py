"""One test's verdicts at one threshold, meeting in the middle (T-3 to T-8).

:mod:`meneur.systems.tunnels.passlaw` runs backward from 0 pending dice up to the pool:
the table of ``q`` pending dice weighs over ``6**most_dice(q)``, so a product there costs
about ``q²`` and the tables of a pool of ``n`` cost about ``n³ / 3``: right for a grid,
which reads every pool. One query splits the pending dice at ``middle``:

* forward, from the pool down to ``middle``: the test *so far*, per class (ones 0-2 and
  the calm family's sixes), as a polynomial in the successes so far below the threshold,
  weighing over ``6**(most_dice(n) - most_dice(q))``: small where ``q`` is near ``n``;
* backward below ``middle``: the tables of ``passlaw`` (``always_low``, ``needed_table``),
  small where ``q`` is small.

A batch from ``q >= middle`` leaves ``q - d >= middle - 6`` pending dice; there the test
so far meets the table of the rest. The verdict reads one threshold, so the meeting is a
sum over the successes so far (a dot product per pair of classes), not a product of
polynomials. With ``middle`` near ``n / √2`` the two halves together cost about ``n³ / 5``
(the forward half ``n³ / 13``). Measured at 60 dice, threshold 30 (``docs/lab.md``):
``always`` ~0.21 s of CPU, ``needed`` ~0.28 s, where the tables alone took ~0.31 s and
~0.46 s before.

Weights count over ``6**most_dice(n)``, as in ``passlaw``: the forward state scales by
the dice the other batches could still have rolled, the backward tables bring the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from flint import fmpz, fmpz_poly

from meneur.systems.tunnels.passlaw import (
    MEMO,
    Family,
    Key,
    PassWeights,
    always_low,
    flint_batch,
    needed_table,
    products,
)
from meneur.systems.tunnels.polylaw import middle_of, most_dice, padded
from meneur.systems.tunnels.rules import CRITICAL_ONES, EXCEPTIONAL_SIXES, Policy, SixesRule


def _meet(so_far: Family, rest: Family, threshold: int, reading: str) -> int:
    """Sum over the pairs of classes below the caps of ``sum_s so_far[s] * rest[...]``.

    ``reading`` "below": ``rest`` is a law of the successes the rest brings, and the pair
    counts the weight of fewer than ``threshold`` successes in all (``s + b < t``);
    "deficit": ``rest`` is a table by the successes still missing, read at ``t - s``.
    """
    columns: dict[Key, list[int]] = {}
    for key, poly in rest.items():
        values = padded(poly, threshold + 1)
        if reading == "below":  # prefix sums: rest brings at most t - 1 - s successes
            running = 0
            for index, value in enumerate(values):
                running += value
                values[index] = running
        columns[key] = values
    total = 0
    for (ones, sixes), poly in so_far.items():
        merged = [0] * (threshold + 1)
        for (ones_r, sixes_r), values in columns.items():
            if ones + ones_r < CRITICAL_ONES and sixes + sixes_r < EXCEPTIONAL_SIXES:
                merged = [a + b for a, b in zip(merged, values, strict=True)]
        coefficients = padded(poly, threshold)
        if reading == "below":
            total += sum(c * merged[threshold - 1 - s] for s, c in enumerate(coefficients))
        else:
            total += sum(c * merged[threshold - s] for s, c in enumerate(coefficients))
    return total


def _mass(family: Family) -> int:
    """The sum of every coefficient of every class (the polynomials at 1)."""
    return int(sum((poly(1) for poly in family.values()), fmpz()))


def _scaled(family: Family, scale: int) -> Family:
    return {key: poly * scale for key, poly in family.items()} if scale != 1 else family


def _merge(into: Family, family: Family) -> None:
    for key, poly in family.items():
        into[key] = into[key] + poly if key in into else poly


def _pair_mass(left: Family, right: Family) -> fmpz:
    """The mass of ``left ⊗ right`` uncut: per pair of classes below the caps, the
    product of their masses (each polynomial at 1)."""
    total = fmpz()
    masses = [(ones, sixes, poly(1)) for (ones, sixes), poly in right.items()]
    for (ones, sixes), poly in left.items():
        at_one = poly(1)
        for ones_r, sixes_r, mass in masses:
            if ones + ones_r < CRITICAL_ONES and sixes + sixes_r < EXCEPTIONAL_SIXES:
                total += at_one * mass
    return total


def _steps(
    dice: int, middle: int, lowest: int, rule: SixesRule, cap: int
) -> Iterable[tuple[int, int, int, tuple[Family, Family, Family, Family], bool]]:
    """The batches of the forward half: (pending, the dice left, the power of 6 that
    brings the rest to its level, the batch's families and masses, sparse)."""
    for pending in range(dice, middle - 1, -1):
        top = most_dice(pending - 1)
        for distinct, *batch, sparse in flint_batch(pending, lowest, rule, cap):
            rest = pending - distinct
            every, calm, every_mass, calm_mass = batch
            families = (every, calm, every_mass, calm_mass)
            yield pending, rest, 6 ** (top - most_dice(rest)), families, sparse


def always_at(dice: int, threshold: int, lowest: int, rule: SixesRule, cap: int) -> PassWeights:
    """``always`` (T-6): every batch explodes; the verdicts at ``threshold`` (below
    ``cap``, the tables' cut) from the law of the successes so far below it and each
    class's mass, met with ``always_low`` below the middle."""
    middle = middle_of(dice)
    one = {(0, 0): fmpz_poly([1])}
    states: dict[int, tuple[Family, Family, Family, Family]] = {dice: (one, one, one, one)}
    for pending, rest, scale, batch, sparse in _steps(dice, middle, lowest, rule, cap):
        here = states.get(pending)
        if here is None:
            continue
        into = states.setdefault(rest, ({}, {}, {}, {}))
        for family, left, right, cut in zip(
            into, here, batch, (threshold, threshold, 1, 1), strict=True
        ):
            _merge(family, _scaled(products(left, right, cut, sparse and cut > 1), scale))
    every_mass = calm_mass = every_below = calm_below = 0
    for pending, (every, calm, m_every, m_calm) in states.items():
        if pending >= middle:
            continue
        low = always_low(pending, lowest, rule, cap)
        every_mass += _mass(products(m_every, low.every_mass, 1))
        calm_mass += _mass(products(m_calm, low.calm_mass, 1))
        every_below += _meet(every, low.every, threshold, "below")
        calm_below += _meet(calm, low.calm, threshold, "below")
    success = every_mass - every_below
    return PassWeights(
        success,
        success - (calm_mass - calm_below),
        6 ** most_dice(dice) - every_mass,
        6 ** most_dice(dice),
    )


def needed_at(dice: int, threshold: int, lowest: int, rule: SixesRule, cap: int) -> PassWeights:
    """``needed`` (T-6): explode while short of ``threshold``. The forward state keeps the
    tests still short (successes so far below the threshold) by ones, and the calm ones
    by (ones, sixes); a batch that reaches the threshold, or leaves no extra dice, ends
    its test there; below the middle the rest is ``needed_table`` read at the deficit."""
    middle = middle_of(dice)
    one = {(0, 0): fmpz_poly([1])}
    states: dict[int, tuple[Family, Family]] = {dice: (one, one)}
    reached = calm_reached = ends = 0  # over 6**most_dice(dice)
    for pending, rest, scale, batch, sparse in _steps(dice, middle, lowest, rule, cap):
        here = states.get(pending)
        if here is None:
            continue
        done = 6 ** most_dice(pending - 1)  # the ends here, to the whole test's total
        every, calm = (
            products(left, right, threshold, sparse)
            for left, right in zip(here, batch[:2], strict=True)
        )
        mass_every, mass_calm = (
            int(_pair_mass(left, right)) for left, right in zip(here, batch[2:], strict=True)
        )
        short_every, short_calm = _mass(every), _mass(calm)
        reached += (mass_every - short_every) * done
        calm_reached += (mass_calm - short_calm) * done
        ends += (mass_every - short_every) * done
        if rest == 0:  # no extra dice: a test still short ends short
            ends += short_every * done
            continue
        into = states.setdefault(rest, ({}, {}))
        _merge(into[0], _scaled(every, scale))
        _merge(into[1], _scaled(calm, scale))
    for pending, (every, calm) in states.items():
        if pending >= middle:
            continue
        table = needed_table(pending, lowest, rule, cap)
        reached += _meet(every, table.reached, threshold, "deficit")
        calm_reached += _meet(calm, table.calm, threshold, "deficit")
        ends += _meet(every, table.every, threshold, "deficit")
    total = 6 ** most_dice(dice)
    return PassWeights(reached, reached - calm_reached, total - ends, total)


@lru_cache(maxsize=MEMO)
def pass_at(
    dice: int, threshold: int, lowest: int, rule: SixesRule, policy: Policy, cap: int
) -> PassWeights:
    """The verdicts of one exploding test (``always`` or ``needed``) by meeting in the
    middle, memoised."""
    if policy == "always":
        return always_at(dice, threshold, lowest, rule, cap)
    return needed_at(dice, threshold, lowest, rule, cap)
