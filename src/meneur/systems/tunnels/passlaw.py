"""Pass or fail at a threshold, without the whole law of successes (T-3 to T-8).

A test's verdict at threshold ``t`` reads only three numbers: the weight of ``t`` or more
successes without a critical failure (a success), the same with an exceptional success,
and the weight of a critical failure. :mod:`meneur.systems.tunnels.polylaw` builds the
whole law of successes (degree ``most_dice(pool)``, 1,830 at 60 dice); here every
polynomial is cut below a *cap* (one more than the largest threshold asked), so a product
costs ``cap²`` coefficients instead of ``cap × most_dice``.

Classes. Only the outcomes below the absorbing states are tracked; an absorbed class is a
total minus the others:

* ``ALL``: ones 0, 1 or 2 (three or more is a critical failure, T-8), sixes ignored;
* ``CALM``: ones 0-2 and no exceptional success yet (T-7): under the ``batch`` rule no
  batch showed three 6s; under ``all`` the 6s so far, 0-2.

Two parts of a test combine by adding their classes (a product of polynomials per pair of
classes whose sum stays below 3 ones and 3 sixes); an overflowing pair is dropped. The
pairs are a product modulo ``y³`` in the ones (and ``z³`` in the sixes): Karatsuba takes 5
products instead of 6 (25 instead of 36), and a batch of one distinct face (two terms)
multiplies term by term (:func:`products`).

* ``never`` is one batch: suffix sums of its whole law (``polylaw.leaf_law``).
* ``always`` does not look at the successes: :func:`always_low` holds, per class, the
  weights of the successes below the cap that ``p`` pending dice bring and the class's
  whole mass; ``P(s >= t) = mass - sum(low[:t])``.
* ``needed`` stops exploding once the threshold is reached: :func:`needed_table` runs
  backward over the *deficit* ``r`` (the successes still missing). ``F(p, r)``, the law of
  the rest of a test with ``p`` pending dice that still needs ``r``, is a polynomial in
  ``r``: a batch of ``k`` successes and ``d`` distinct faces ends the test when ``k >= r``
  and otherwise leads to ``F(p - d, r - k)``: for a fixed ``p`` a product of the batch's
  polynomial with ``F(p - d, .)``. One table serves every pool and every threshold below
  the cap: the test of ``n`` dice at threshold ``t`` is ``F(n, t)``. It keeps three
  families: the ends that reach the threshold (``ALL``), the same without an exceptional
  success (``CALM``), and every end by its ones (a critical failure is the rest). A test
  that ends short was short at every batch, so it exploded them all: every end is one
  that reaches ``r`` or one of ``always`` below ``r``, a prefix sum of
  :func:`always_family` (shared with the ``always`` policy in a grid of every policy).

Measured in ``benchmarks/bench_tunnels_exact.py`` (``docs/lab.md``, a shared machine,
best CPU time of three cold processes): the lab's grid of every pool and threshold up to
60 in three modes, ``always`` ~1.8 s, ``needed`` ~2.6 s, the three policies in one process
~3.7 s (the ``needed`` table reads the ``always`` one). A single query meets these tables
halfway (:mod:`meneur.systems.tunnels.passmid`): at 60 dice, ~0.2 s for ``always`` (the
whole law: ~10-13 s), ~0.3 s for ``needed``.

Weights of ``p`` pending dice count over ``6**most_dice(p)``, as in ``polylaw``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from operator import add, mul, sub

from flint import fmpz_poly

from meneur.systems.tunnels.polylaw import (
    STATES,
    ZERO,
    Triple,
    add_triples,
    cube_product,
    leaf_law,
    most_dice,
    onto,
    sub_triples,
)
from meneur.systems.tunnels.rules import CRITICAL_ONES, EXCEPTIONAL_SIXES, Policy, SixesRule

MEMO = 1024
"""Tables memoised (one per pending dice, mode, sixes rule and cap): a few caps' worth of
every pool up to the bound, a few megabytes each."""
Key = tuple[int, int]
"""(ones 0-2, sixes 0-2) of the ``CALM`` family; ``ALL`` uses sixes 0 (ignored)."""
Family = dict[Key, fmpz_poly]


@dataclass(frozen=True, slots=True)
class PassWeights:
    """A test's verdicts as integer weights over ``total`` (exact: ``weight / total``)."""

    success: int
    exceptional: int
    critical: int
    total: int


@cache
def _failures(dice: int, failing: int) -> tuple[dict[int, int], ...]:
    """``dice`` failing dice with exactly ``o`` ones (0-2): ways by distinct faces (the
    1 and the ``failing`` other failing faces), one dict per ``o``."""
    out = []
    for ones in range(min(CRITICAL_ONES - 1, dice) + 1):
        split = comb(dice, ones)
        out.append(
            {
                j + (ones > 0): split * ways
                for j, ways in enumerate(onto(dice - ones, failing))
                if ways
            }
        )
    return tuple(out)


@cache
def _successes(
    dice: int, succeeding: int, rule: SixesRule
) -> tuple[tuple[int, ...], dict[int, list[int]]]:
    """``dice`` succeeding dice: ways by distinct faces (the 6 and the ``succeeding``
    others), and the same for the ``CALM`` family by its sixes state."""
    calm: dict[int, list[int]] = {}
    for sixes in range(min(EXCEPTIONAL_SIXES - 1, dice) + 1):
        into = calm.setdefault(sixes if rule == "all" else 0, [0] * 7)
        split = comb(dice, sixes)
        for j, ways in enumerate(onto(dice - sixes, succeeding)):
            into[j + (sixes > 0)] += split * ways
    return onto(dice, succeeding + 1), calm


@cache
def _sides(
    dice: int, lowest: int, rule: SixesRule
) -> tuple[dict[Key, tuple[int, ...]], dict[Key, tuple[int, ...]], dict[Key, tuple[int, ...]]]:
    """Columns over ``m`` = 0 to ``dice`` dice all on one side: failures by (ones, distinct
    faces), successes by distinct faces (key ``(0, d)``) and by (sixes state, distinct
    faces) below three 6s. Grown from ``dice - 1``: a grid builds each column once."""
    failing, succeeding = lowest - 2, 6 - lowest
    last: tuple[dict[Key, tuple[int, ...]], ...] = (
        ({}, {}, {}) if dice == 0 else _sides(dice - 1, lowest, rule)
    )
    every, calm = _successes(dice, succeeding, rule)
    here: tuple[dict[Key, int], ...] = (
        {
            (ones, d): w
            for ones, side in enumerate(_failures(dice, failing))
            for d, w in side.items()
        },
        {(0, d): w for d, w in enumerate(every) if w},
        {(sixes, d): w for sixes, ways in calm.items() for d, w in enumerate(ways) if w},
    )
    out = []
    for columns, ways in zip(last, here, strict=True):
        grown = {key: (*column, ways.get(key, 0)) for key, column in columns.items()}
        for key, value in ways.items():
            if key not in grown:
                grown[key] = (0,) * dice + (value,)
        out.append(grown)
    return out[0], out[1], out[2]


@cache
def _batch(
    dice: int, lowest: int, rule: SixesRule
) -> tuple[tuple[int, dict[Key, list[int]], dict[Key, list[int]]], ...]:
    """One batch of ``dice`` dice per distinct faces ``d``: (d, ``ALL`` weights by ones,
    ``CALM`` weights by (ones, sixes)), as lists by successes (T-3 to T-5, T-7, T-8).

    The ``k`` successes and ``dice - k`` failures split by a binomial; each side counts
    its special face (1 or 6) and the distinct faces of the others (surjections), as
    :func:`~meneur.systems.tunnels.polylaw.batch_law` does, keeping only the classes
    below the caps (three 1s, an exceptional success are totals minus the rest). Each
    side is a column over ``k`` per (state, distinct faces) (:func:`_sides`); a pair of
    columns multiplies element by element (``map``), so the Python loops run over a few
    dozen pairs, not over every ``k`` of every pair.
    """
    failures, wins, calm_wins = _sides(dice, lowest, rule)
    split = [comb(dice, k) for k in range(dice + 1)]
    fails = {key: list(map(mul, split, reversed(column))) for key, column in failures.items()}
    every: dict[int, dict[Key, list[int]]] = {}
    calm: dict[int, dict[Key, list[int]]] = {}
    for (ones, distinct_f), fail in fails.items():
        for into, sides in ((every, wins), (calm, calm_wins)):
            for (sixes, distinct_s), win in sides.items():
                product = list(map(mul, fail, win))
                if any(product):
                    law = into.setdefault(distinct_f + distinct_s, {})
                    key = (ones, sixes)
                    law[key] = list(map(add, law[key], product)) if key in law else product
    return tuple((d, every[d], calm.get(d, {})) for d in sorted(every))


def _sparse_times(left: fmpz_poly, right: fmpz_poly, cap: int) -> fmpz_poly:
    """``left * right`` cut at ``cap`` when ``right`` has a few terms: a shifted multiple
    of ``left`` per term, where FLINT's product would transform every coefficient."""
    out = fmpz_poly()
    for power, coefficient in enumerate(right.coeffs()[:cap]):
        if coefficient:
            term = left.truncate(cap - power) * coefficient
            out += term.left_shift(power) if power else term
    return out


def products(left: Family, right: Family, cap: int, sparse: bool = False) -> Family:
    """``left ⊗ right`` cut at ``cap``: classes add, the pairs that overflow drop.

    The classes are a polynomial in the ones ``y`` (and the sixes ``z`` under the ``all``
    rule) modulo ``y³`` (``z³``): :func:`cube_product` takes 5 products where the pairs of
    classes take 6, and nested on both counters 25 where the pairs take 36. A missing
    class is zero. ``sparse``: every polynomial of ``right`` has a few terms (a batch of
    one distinct face: no success or all successes), multiplied term by term.
    """

    def times(a: fmpz_poly, b: fmpz_poly) -> fmpz_poly:
        return _sparse_times(a, b, cap) if sparse else a.mul_low(b, cap)

    if all(sixes == 0 for _, sixes in (*left, *right)):  # the ones only
        out = cube_product(
            (left.get((0, 0), ZERO), left.get((1, 0), ZERO), left.get((2, 0), ZERO)),
            (right.get((0, 0), ZERO), right.get((1, 0), ZERO), right.get((2, 0), ZERO)),
            times,
            add,
            sub,
        )
        return {(ones, 0): poly for ones, poly in zip(STATES, out, strict=True)}

    def by_sixes(family: Family, ones: int) -> Triple:
        return tuple(family.get((ones, sixes), ZERO) for sixes in STATES)  # type: ignore[return-value]

    def mul_sixes(a: Triple, b: Triple) -> Triple:
        return cube_product(a, b, times, add, sub)

    rows = cube_product(
        (by_sixes(left, 0), by_sixes(left, 1), by_sixes(left, 2)),
        (by_sixes(right, 0), by_sixes(right, 1), by_sixes(right, 2)),
        mul_sixes,
        add_triples,
        sub_triples,
    )
    return {(ones, sixes): rows[ones][sixes] for ones in STATES for sixes in STATES}


def _horner(pending: int, parts: dict[int, Family]) -> Family:
    """``sum(6**(most_dice(pending - 1) - most_dice(pending - d)) * parts[d])``.

    The batch that shows ``d`` distinct faces leaves ``pending - d`` dice; the dice the
    other batches could have rolled beyond it weigh a power of 6. The powers are nested
    (``6**(pending - d)`` from ``d + 1`` to ``d``), so each step multiplies by a number
    of a few limbs instead of each product by one of up to ``5 * pending`` dice.
    """
    acc: Family = {}
    for distinct in range(min(6, pending), 0, -1):
        if acc:
            step = 6 ** (pending - distinct)
            acc = {key: value * step for key, value in acc.items()}
        for key, value in parts.get(distinct, {}).items():
            acc[key] = acc[key] + value if key in acc else value
    return acc


Batch = tuple[tuple[int, Family, Family, Family, Family, bool], ...]
"""Per distinct faces ``d``: (d, ``ALL`` cut at the cap, ``CALM`` cut, their masses,
sparse: every polynomial has at most ``SPARSE`` terms)."""
SPARSE = 2
"""A batch of one distinct face has 0 successes or all of them: two terms. Multiplying
by it term by term costs two scalings instead of a product of ``cap`` coefficients (at 60
dice about a sixth of a table's products, and the largest of each level)."""


@cache
def flint_batch(dice: int, lowest: int, rule: SixesRule, cap: int) -> Batch:
    """:func:`_batch` cut at ``cap`` as FLINT polynomials, with each class's mass (a
    constant polynomial: masses combine by the same products, cut at 1)."""
    return tuple(
        (
            distinct,
            {key: fmpz_poly(poly[:cap]) for key, poly in every.items()},
            {key: fmpz_poly(poly[:cap]) for key, poly in calm.items()},
            {key: fmpz_poly([sum(poly)]) for key, poly in every.items()},
            {key: fmpz_poly([sum(poly)]) for key, poly in calm.items()},
            all(
                sum(1 for weight in poly[:cap] if weight) <= SPARSE
                for poly in (*every.values(), *calm.values())
            ),
        )
        for distinct, every, calm in _batch(dice, lowest, rule)
    )


@dataclass(frozen=True, slots=True)
class Low:
    """What ``p`` pending dice bring when every batch explodes, cut at a cap: per class
    the weights of the successes below the cap, and the class's whole mass."""

    every: Family
    calm: Family
    every_mass: Family
    calm_mass: Family


@lru_cache(maxsize=MEMO)
def always_family(pending: int, lowest: int, rule: SixesRule, cap: int, calm: bool) -> Family:
    """One family of :func:`always_low` (``ALL``, or ``CALM`` when ``calm``) cut at
    ``cap``, memoised on its own: the ``needed`` table reads the ``ALL`` family alone."""
    if pending == 0:
        return {(0, 0): fmpz_poly([1])}
    parts: dict[int, Family] = {}
    for distinct, every, quiet, _m, _n, sparse in flint_batch(pending, lowest, rule, cap):
        tail = always_family(pending - distinct, lowest, rule, cap, calm)
        parts[distinct] = products(tail, quiet if calm else every, cap, sparse)
    return _horner(pending, parts)


@lru_cache(maxsize=MEMO)
def always_mass(pending: int, lowest: int, rule: SixesRule, cap: int, calm: bool) -> Family:
    """The masses of :func:`always_family` (constants: the same products cut at 1)."""
    if pending == 0:
        return {(0, 0): fmpz_poly([1])}
    parts: dict[int, Family] = {}
    for distinct, _e, _q, every, quiet, _s in flint_batch(pending, lowest, rule, cap):
        tail = always_mass(pending - distinct, lowest, rule, cap, calm)
        parts[distinct] = products(tail, quiet if calm else every, 1)
    return _horner(pending, parts)


def always_low(pending: int, lowest: int, rule: SixesRule, cap: int) -> Low:
    """The law of what ``pending`` dice bring when every batch explodes (T-5, T-6), cut
    at ``cap`` successes, over ``6**most_dice(pending)``. Memoised: a grid of pools
    builds each smaller pool's once."""
    return Low(
        always_family(pending, lowest, rule, cap, False),
        always_family(pending, lowest, rule, cap, True),
        always_mass(pending, lowest, rule, cap, False),
        always_mass(pending, lowest, rule, cap, True),
    )


@dataclass(frozen=True, slots=True)
class Deficit:
    """``F(p, .)`` of the ``needed`` policy: polynomials in the deficit ``r`` (index r,
    ``r >= 1``; index 0 stays empty), over ``6**most_dice(p)``.

    ``reached``: the test reaches the threshold with these ones; ``calm``: the same
    without an exceptional success; ``every``: any end (reached or not) by ones.
    """

    reached: Family
    calm: Family
    every: Family


def _suffix(poly: list[int], cap: int) -> fmpz_poly:
    """``out[r] = sum(poly[r:])`` for ``1 <= r < cap``: the batch alone reaches ``r``."""
    out = [0] * min(cap, len(poly))
    running = 0
    for r in range(len(poly) - 1, 0, -1):
        running += poly[r]
        if r < cap:
            out[r] = running
    return fmpz_poly(out)


def _prefix(poly: list[int], cap: int) -> fmpz_poly:
    """``out[r] = sum(poly[:r])`` for ``1 <= r < cap``: the weight of fewer than ``r``."""
    out = [0] * cap
    running = 0
    for r in range(1, cap):
        if r - 1 < len(poly):
            running += poly[r - 1]
        out[r] = running
    return fmpz_poly(out)


def _add(into: Family, key: Key, value: fmpz_poly) -> None:
    into[key] = into[key] + value if key in into else value


@lru_cache(maxsize=MEMO)
def needed_table(pending: int, lowest: int, rule: SixesRule, cap: int) -> Deficit:
    """``F(pending, r)`` for ``1 <= r < cap`` (T-6 ``needed``): explode while short.

    A test that ends short of ``r`` exploded every batch (it was short at each): its ends
    are those of ``always`` with fewer than ``r`` successes. So every end is one that
    reaches ``r`` or a prefix sum of :func:`always_family`'s ``ALL`` family, which a grid
    of every policy shares, instead of a third family of products here.
    """
    reached: Family = {}
    calm: Family = {}
    if pending == 0:
        return Deficit(reached, calm, {})
    top = 6 ** (most_dice(pending) - pending)
    ones_law: dict[Key, list[int]] = {}  # this batch by ones, whatever its faces
    calm_law: dict[Key, list[int]] = {}
    for _distinct, b_every, b_calm in _batch(pending, lowest, rule):
        for into, law in ((ones_law, b_every), (calm_law, b_calm)):
            for key, poly in law.items():
                merged = into.setdefault(key, [0] * (pending + 1))
                into[key] = list(map(add, merged, poly))
    for key, poly in ones_law.items():  # the batch alone reaches the deficit
        _add(reached, key, _suffix(poly, cap) * top)
    for key, poly in calm_law.items():
        _add(calm, key, _suffix(poly, cap) * top)
    parts: list[dict[int, Family]] = [{}, {}]
    for distinct, f_every, f_calm, _m, _n, sparse in flint_batch(pending, lowest, rule, cap):
        if distinct == pending:
            continue
        tail = needed_table(pending - distinct, lowest, rule, cap)
        parts[0][distinct] = products(tail.reached, f_every, cap, sparse)
        parts[1][distinct] = products(tail.calm, f_calm, cap, sparse)
    for family, part in zip((reached, calm), parts, strict=True):
        for key, value in _horner(pending, part).items():
            _add(family, key, value)
    every = dict(reached)
    for key, short in always_family(pending, lowest, rule, cap, False).items():
        _add(every, key, _prefix([int(c) for c in short.coeffs()], cap))  # short of r
    return Deficit(reached, calm, every)


def _coefficients(family: Family, cap: int) -> list[int]:
    """A family's classes summed, as ``cap`` Python integers."""
    total = fmpz_poly()
    for poly in family.values():
        total += poly
    out = [int(c) for c in total.coeffs()[:cap]]
    return out + [0] * (cap - len(out))


@dataclass(frozen=True, slots=True)
class Verdicts:
    """A pool's verdicts at every threshold below a cap: weights over ``total``."""

    success: tuple[int, ...]
    exceptional: tuple[int, ...]
    critical: tuple[int, ...]
    total: int

    def at(self, threshold: int) -> PassWeights:
        return PassWeights(
            self.success[threshold],
            self.exceptional[threshold],
            self.critical[threshold],
            self.total,
        )


def _always(dice: int, lowest: int, rule: SixesRule, cap: int) -> Verdicts:
    """Every batch explodes: ``t`` or more successes is the mass less the weights below."""
    low = always_low(dice, lowest, rule, cap)
    every_mass = sum(_coefficients(low.every_mass, 1))
    calm_mass = sum(_coefficients(low.calm_mass, 1))
    every, calm = _coefficients(low.every, cap), _coefficients(low.calm, cap)
    ok, quiet = [every_mass], [calm_mass]
    for t in range(1, cap):
        ok.append(ok[-1] - every[t - 1])
        quiet.append(quiet[-1] - calm[t - 1])
    total = 6 ** most_dice(dice)
    return Verdicts(
        tuple(ok),
        tuple(a - b for a, b in zip(ok, quiet, strict=True)),
        (total - every_mass,) * cap,
        total,
    )


def _needed(dice: int, lowest: int, rule: SixesRule, cap: int) -> Verdicts:
    """Explode while short: the table read at the threshold (the deficit at the start)."""
    table = needed_table(dice, lowest, rule, cap)
    ok = _coefficients(table.reached, cap)
    calm = _coefficients(table.calm, cap)
    ends = _coefficients(table.every, cap)
    total = 6 ** most_dice(dice)
    return Verdicts(
        tuple(ok),
        tuple(a - b for a, b in zip(ok, calm, strict=True)),
        tuple(total - e for e in ends),
        total,
    )


def _never(dice: int, lowest: int, rule: SixesRule, cap: int) -> Verdicts:
    """One batch, no explosion: suffix sums of its law."""
    ok = [0] * (dice + 2)
    streak = [0] * (dice + 2)
    critical = 0
    for (ones, sixes), poly in leaf_law(dice, lowest, rule).items():
        if ones >= CRITICAL_ONES:
            critical += sum(poly)
            continue
        for k, weight in enumerate(poly):
            ok[k] += weight
            if sixes >= EXCEPTIONAL_SIXES:
                streak[k] += weight
    for k in range(dice, -1, -1):
        ok[k] += ok[k + 1]
        streak[k] += streak[k + 1]
    top = dice + 1
    return Verdicts(
        tuple(ok[min(t, top)] for t in range(cap)),
        tuple(streak[min(t, top)] for t in range(cap)),
        (critical,) * cap,
        6**dice,
    )


@lru_cache(maxsize=MEMO)
def verdicts(dice: int, lowest: int, rule: SixesRule, policy: Policy, cap: int) -> Verdicts:
    """A pool's verdicts at every threshold below ``cap`` (T-3 to T-8)."""
    if policy == "never":
        return _never(dice, lowest, rule, cap)
    if policy == "always":
        return _always(dice, lowest, rule, cap)
    return _needed(dice, lowest, rule, cap)
