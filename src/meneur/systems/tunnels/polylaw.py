"""The law of a Tunnels test as integer polynomials in the successes (T-3 to T-8).

Only four numbers of a batch matter to the rule: its successes, its ones (capped at 3),
its sixes state (three 6s in the batch; under the ``all`` option the count capped at 3)
and its number of *distinct* faces ``d``, which is at most 6: a batch of ``p`` dice
leaves ``p - d`` extra dice (T-5). So the explosion chain moves from ``p`` pending dice
to ``p - d`` with ``d`` in 1..6, whatever the pool.

* :func:`batch_law` builds the joint law of one batch without enumerating multisets: the
  failures and the successes of a batch are split by a binomial, and within each side a
  face-value count (the special face, 1 or 6, and the surjections of the other dice onto
  the other faces) gives the ones or sixes and the distinct faces. Weights are the
  multinomial counts of the ``6**p`` ordered outcomes (exact integers).
* a law is a list of polynomials in the successes, one per *class* (ones capped at 3,
  sixes state); a batch followed by the rest of the test is a polynomial product, done
  by FLINT (``python-flint``'s ``fmpz_poly``), so the cost grows polynomially with the
  pool. FLINT is imported with this module, and this module only when odds are asked.
* ``always`` (and ``never``) do not look at the successes: :func:`always_tail` is the
  law of everything that ``p`` pending dice still bring, memoised for every ``p``, so a
  grid of pools shares it; one pool's law alone meets in the middle instead
  (:func:`always_law`). ``needed`` stops once the threshold is reached:
  :func:`needed_law` runs forward from the pool over the successes so far (below the
  threshold), cutting the product at the threshold.

Weights are integers: a law from ``p`` pending dice counts over ``6**most_dice(p)``,
the most dice they can still roll; a branch that rolls fewer is scaled by a power of 6.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from math import comb, isqrt
from typing import Any

from flint import fmpz_poly

from meneur.systems.tunnels.rules import CRITICAL_ONES, EXCEPTIONAL_SIXES, SixesRule

Poly = list[int]
"""Coefficients by successes (index = successes)."""
Law = dict[tuple[int, int], Poly]
"""(ones capped at 3, sixes state) -> polynomial in the successes."""
Progress = Callable[[int], None]
"""Told the work done since it was last told (a progress bar's ``advance``)."""


def most_dice(pending: int) -> int:
    """The most dice that ``pending`` dice can still bring (themselves included)."""
    return pending * (pending + 1) // 2


def six_state(count: int, rule: SixesRule) -> int:
    """What a batch's sixes tell the rule: 3 for three or more (``batch``), else 0;
    under ``all`` the count capped at 3 (it adds up over batches)."""
    if rule == "all":
        return min(EXCEPTIONAL_SIXES, count)
    return EXCEPTIONAL_SIXES if count >= EXCEPTIONAL_SIXES else 0


def next_six(state: int, batch: int, rule: SixesRule) -> int:
    """The sixes state after a batch whose own state is ``batch``."""
    if rule == "all":
        return min(EXCEPTIONAL_SIXES, state + batch)
    return max(state, batch)


@cache
def onto(dice: int, faces: int) -> tuple[int, ...]:
    """``ways[j]``: the ways ``dice`` dice show exactly ``j`` of ``faces`` given faces."""
    surjections = [1] + [0] * faces  # 0 dice onto exactly j faces
    for _ in range(dice):
        surjections = [0] + [j * (surjections[j] + surjections[j - 1]) for j in range(1, faces + 1)]
    return tuple(comb(faces, j) * surjections[j] for j in range(faces + 1))


@cache
def _side(dice: int, others: int, kind: str, rule: SixesRule) -> tuple[tuple[int, int, int], ...]:
    """The failures (``kind`` "ones") or the successes ("sixes") of a batch on their own.

    ``dice`` dice all fall on one side: the special face (1 or 6) takes ``c`` of them,
    the ``others`` faces the rest. Returns (state, distinct faces, ways) where the state
    is the ones capped at 3 or the sixes state.
    """
    merged: dict[tuple[int, int], int] = {}
    for count in range(dice + 1):
        state = min(CRITICAL_ONES, count) if kind == "ones" else six_state(count, rule)
        rest = onto(dice - count, others)
        for j, ways in enumerate(rest):
            if ways:
                key = (state, j + (count > 0))
                merged[key] = merged.get(key, 0) + comb(dice, count) * ways
    return tuple((state, distinct, ways) for (state, distinct), ways in merged.items())


@cache
def batch_law(dice: int, lowest: int, rule: SixesRule) -> dict[int, Law]:
    """The law of one batch: ``law[d][(ones, sixes)][k]`` weighs ``k`` successes and ``d``
    distinct faces, over ``6**dice`` (T-3 to T-5, T-7, T-8)."""
    out: dict[int, Law] = {}
    failing, succeeding = lowest - 2, 6 - lowest  # faces besides 1 and besides 6
    for k in range(dice + 1):
        split = comb(dice, k)
        for ones, distinct_f, ways_f in _side(dice - k, failing, "ones", rule):
            for sixes, distinct_s, ways_s in _side(k, succeeding, "sixes", rule):
                law = out.setdefault(distinct_f + distinct_s, {})
                poly = law.setdefault((ones, sixes), [0] * (dice + 1))
                poly[k] += split * ways_f * ways_s
    return out


@cache
def leaf_law(dice: int, lowest: int, rule: SixesRule) -> dict[tuple[int, int], tuple[int, ...]]:
    """One batch that will not explode: :func:`batch_law` summed over its distinct faces."""
    merged: dict[tuple[int, int], list[int]] = {}
    for law in batch_law(dice, lowest, rule).values():
        for key, poly in law.items():
            into = merged.setdefault(key, [0] * (dice + 1))
            for k, weight in enumerate(poly):
                into[k] += weight
    return {key: tuple(poly) for key, poly in merged.items()}


# --- products in flint -------------------------------------------------------------
#
# A law of the test so far (or of the rest of it) has one polynomial per class whose
# coefficients run to thousands of bits (weights over ``6**most_dice``) and whose degree
# reaches ``most_dice(pool)``. Its product with one batch's law (degree at most the
# batch, small coefficients) is done by FLINT's ``fmpz_poly``, which multiplies such
# unbalanced integer polynomials some 20 times faster than Python integers packed side
# by side (Kronecker substitution, the previous engine): 1,770 coefficients of 4,600 bits
# times 60 coefficients take ~20 ms in FLINT, ~430 ms as packed Python integers.

FLaw = dict[tuple[int, int], fmpz_poly]
"""(ones capped at 3, sixes state) -> polynomial in the successes (FLINT integers)."""


@cache
def flint_batch_law(dice: int, lowest: int, rule: SixesRule) -> dict[int, FLaw]:
    """:func:`batch_law` as FLINT polynomials (converted once per batch size)."""
    return {
        distinct: {key: fmpz_poly(poly) for key, poly in law.items()}
        for distinct, law in batch_law(dice, lowest, rule).items()
    }


def _add(into: FLaw | dict[int, fmpz_poly], key: Any, value: fmpz_poly) -> None:
    if not value.is_zero():
        into[key] = into[key] + value if key in into else value


Triple = tuple[Any, Any, Any]
"""``(c0, c1, c2)``: the terms of ``c0 + c1 y + c2 y²`` (``y`` counts ones or sixes)."""


def cube_product(
    left: Triple,
    right: Triple,
    mul: Callable[[Any, Any], Any],
    add: Callable[[Any, Any], Any],
    sub: Callable[[Any, Any], Any],
    constant: Callable[[Triple], bool] | None = None,
) -> Triple:
    """``(l0 + l1 y + l2 y²)(r0 + r1 y + r2 y²)`` modulo ``y³`` with 5 products instead
    of 6 (Karatsuba on the middle term: ``l0 r1 + l1 r0 = (l0 + l1)(r0 + r1) - l0 r0 -
    l1 r1``); ``y`` counts the ones or the sixes, whose third is absorbing.

    ``constant(side)``: whether a side has only its ``y⁰`` term; that side then scales
    the other's three terms (products by zero cost nothing), where Karatsuba would
    multiply its one term twice.
    """
    if constant is not None and constant(left):
        left, right = right, left
    if constant is not None and constant(right):
        return mul(left[0], right[0]), mul(left[1], right[0]), mul(left[2], right[0])
    low = mul(left[0], right[0])
    middle = mul(left[1], right[1])
    both = mul(add(left[0], left[1]), add(right[0], right[1]))
    top = add(add(mul(left[0], right[2]), mul(left[2], right[0])), middle)
    return low, sub(sub(both, low), middle), top


ZERO = fmpz_poly()
STATES = range(CRITICAL_ONES)
"""Ones 0-2 and sixes states 0-2: the classes below the caps (``CRITICAL_ONES`` ==
``EXCEPTIONAL_SIXES``: both counters stop at 3)."""


def _times(left: fmpz_poly, right: fmpz_poly) -> fmpz_poly:
    return ZERO if left.is_zero() or right.is_zero() else left * right


def _poly_constant(side: Triple) -> bool:
    return bool(side[1].is_zero() and side[2].is_zero())


def _row_constant(side: Triple) -> bool:
    return all(poly.is_zero() for row in side[1:] for poly in row)


def _rows(a: Triple, b: Triple) -> Triple:
    """Two polynomials in the sixes, modulo ``z³`` (the inner product of :func:`combine`)."""
    return cube_product(a, b, _times, operator.add, operator.sub, _poly_constant)


def add_triples(a: Triple, b: Triple) -> Triple:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def sub_triples(a: Triple, b: Triple) -> Triple:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _parts(law: FLaw) -> tuple[Triple, Triple, Triple, fmpz_poly]:
    """A law's classes below both caps (by ones, rows by sixes state), its sums by ones
    below the cap (every sixes state) and by sixes state below the cap, and its total."""
    rows = [(law.get((o, 0), ZERO), law.get((o, 1), ZERO), law.get((o, 2), ZERO)) for o in STATES]
    by_ones = [ZERO, ZERO, ZERO]
    by_sixes = [ZERO, ZERO, ZERO]
    total = ZERO
    for (ones, sixes), poly in law.items():
        total += poly
        if ones < CRITICAL_ONES:
            by_ones[ones] += poly
        if sixes < EXCEPTIONAL_SIXES:
            by_sixes[sixes] += poly
    return (
        (rows[0], rows[1], rows[2]),
        (by_ones[0], by_ones[1], by_ones[2]),
        (by_sixes[0], by_sixes[1], by_sixes[2]),
        total,
    )


def combine(left: FLaw, right: FLaw) -> FLaw:
    """Two independent parts of a test, classes added (ones and sixes capped at 3).

    ``left`` is the test so far (or the rest of it), ``right`` one batch's law. Below
    both caps, the classes are a polynomial in ``y`` (ones) and ``z`` (sixes) modulo
    ``y³`` and ``z³``: :func:`cube_product` on both counters, 25 products where the
    pairs of classes take 36, and fewer when a law has only its ``z⁰`` term (a batch
    under the ``batch`` rule has sixes 0 or 3, none below the cap but 0). A capped class
    is a product of sums less the classes below the cap: ones ``i`` with the sixes
    capped, from the laws summed over the sixes (5 products); the ones capped with
    sixes state ``j``, from the laws summed over the ones (5); both capped, the totals'
    product less every other class (1).
    """
    cap = CRITICAL_ONES
    below_l, ones_l, sixes_l, total_l = _parts(left)
    below_r, ones_r, sixes_r, total_r = _parts(right)
    below = cube_product(below_l, below_r, _rows, add_triples, sub_triples, _row_constant)
    ones = cube_product(ones_l, ones_r, _times, operator.add, operator.sub, _poly_constant)
    sixes = cube_product(sixes_l, sixes_r, _times, operator.add, operator.sub, _poly_constant)
    out: FLaw = {}
    rest = total_l * total_r
    for i in STATES:
        for j in STATES:
            _add(out, (i, j), below[i][j])
        capped_sixes = ones[i] - below[i][0] - below[i][1] - below[i][2]
        capped_ones = sixes[i] - below[0][i] - below[1][i] - below[2][i]
        _add(out, (i, cap), capped_sixes)
        _add(out, (cap, i), capped_ones)
        rest -= ones[i] + capped_ones
    _add(out, (cap, cap), rest)
    return out


def _accumulate(into: FLaw, parts: FLaw, scale: int) -> None:
    for key, value in parts.items():
        _add(into, key, value * scale)


# --- the test ------------------------------------------------------------------------


_TAILS: dict[tuple[int, int, SixesRule], FLaw] = {}
"""The memo of :func:`always_tail`: a dict, so that :func:`always_law` can ask whether a
pool's law is already built (a grid built it) before meeting in the middle."""


def always_tail(pending: int, lowest: int, rule: SixesRule) -> FLaw:
    """The law of what ``pending`` dice still bring when every batch explodes (T-5, T-6).

    Keys are the ones (capped at 3) and the sixes state these dice add; polynomials in
    the successes they add, weighing over ``6**most_dice(pending)``. Memoised: the law of
    a pool holds the laws of every smaller pool, so a grid of pools computes it once.
    """
    key = (pending, lowest, rule)
    found = _TAILS.get(key)
    if found is not None:
        return found
    if pending == 0:
        found = {(0, 0): fmpz_poly([1])}
    else:
        found = {}
        for distinct, law in flint_batch_law(pending, lowest, rule).items():
            rest = pending - distinct
            scale = 6 ** (most_dice(pending) - pending - most_dice(rest))
            _accumulate(found, combine(always_tail(rest, lowest, rule), law), scale)
    _TAILS[key] = found
    return found


def clear_tails() -> None:
    """Forget the memoised :func:`always_tail` and :func:`always_law` laws (benchmarks
    time a cold engine)."""
    _TAILS.clear()
    _MET.clear()


def middle_of(dice: int) -> int:
    """Where a pool's pending dice split to meet in the middle: the law of the test so
    far at ``q`` pending dice and the law of the rest weigh ``most_dice(n) -
    most_dice(q)`` and ``most_dice(q)`` dice, even near ``n / √2``. At least 1: the law
    of 0 pending dice is where every test ends."""
    return max(1, isqrt(dice * dice // 2))


WHOLE_MEET_FROM = 24
"""One pool's whole ``always`` law meets in the middle (:func:`always_law`) from this many
dice; below, the chain of smaller pools is as fast (a few tens of milliseconds) and a
grid reads it again."""


def meets(dice: int, lowest: int, rule: SixesRule) -> bool:
    """Whether :func:`always_law` meets in the middle for this pool (or read the law it
    met before): a large one whose chain (:func:`always_tail`) is not already built."""
    return dice >= WHOLE_MEET_FROM and (dice, lowest, rule) not in _TAILS


def meet_work(dice: int) -> list[int]:
    """The work of :func:`always_law`'s steps, in the units of :func:`chain_work` (the
    cost of a product grows with its length and with its weights' bits): the rest's law
    for each level below the middle, the test so far for each level from the pool down
    to it, then the meeting (one step per level it arrives at), which multiplies two laws
    of about ``most_dice(dice) / 2`` successes each (measured at 60 dice: 1.0, 1.4 and
    1.0 s for the three parts, as these units forecast)."""
    middle, top = middle_of(dice), most_dice(dice)
    below = chain_work(middle - 1)
    forward = [
        4 * pending * (top - most_dice(pending)) ** 2 for pending in range(dice, middle - 1, -1)
    ]
    arrivals = min(6, middle)
    return below + forward + [4 * dice * top**2 // arrivals] * arrivals


def chain_work(dice: int) -> list[int]:
    """The work of :func:`always_tail` for each pool up to ``dice``: about the pool to
    the fifth (its laws' length times their weights' bits times a batch's length)."""
    return [pending**5 for pending in range(1, dice + 1)]


QUIET_LEVELS = 20
"""The smallest pools' laws are reported together, once the 20th is built (a tenth of a
second in all): one level's time there is mostly fixed costs, and a bar that forecast the
rest from the first level would show for work that ends at once."""
MET_MEMO = 4
"""Pools' laws met in the middle kept (the most recent): another threshold of the same
pool reads the same law (60 dice: ~9 MB)."""
_MET: OrderedDict[tuple[int, int, SixesRule], FLaw] = OrderedDict()


def build_chain(upto: int, lowest: int, rule: SixesRule, progress: Progress) -> None:
    """:func:`always_tail` of every pool up to ``upto``, smallest first (each reads the
    smaller ones'), telling ``progress`` each pool's :func:`chain_work`, the first
    :data:`QUIET_LEVELS` pools together."""
    quiet = 0
    for pending, work in enumerate(chain_work(upto), start=1):
        always_tail(pending, lowest, rule)
        quiet += work
        if pending >= QUIET_LEVELS or pending == upto:
            progress(quiet)
            quiet = 0


def built(dice: int, lowest: int, rule: SixesRule) -> bool:
    """Whether this pool's whole ``always`` law is in memory (chained or met)."""
    return (dice, lowest, rule) in _TAILS or (dice, lowest, rule) in _MET


def always_law(dice: int, lowest: int, rule: SixesRule, progress: Progress | None = None) -> FLaw:
    """:func:`always_tail` of one pool, meeting in the middle when :func:`meets` (T-5, T-6).

    The chain builds every smaller pool's law: right for a grid, which reads them all,
    but a pool's law of ``most_dice(q)`` successes over ``6**most_dice(q)`` costs about
    ``q**5``, so the chain of ``n`` dice costs about ``n**6 / 6``. Alone, the pool splits
    at ``middle`` (:func:`middle_of`): forward from the pool, the law of the successes
    so far at each level of pending dice (short and light near the pool); below the
    middle, the chain's laws (short and light near 0). A batch from ``q >= middle``
    that leaves fewer arrives at one of the (at most six) levels under the middle, and
    there the two laws multiply once per level. Same weights as the chain (tests),
    about 2.3 times faster at 60 dice (3.1 s instead of 7.0 s, ``docs/lab.md``).

    ``progress(work)`` after each step, :func:`meet_work` in all (the levels under the
    middle together up to :data:`QUIET_LEVELS`). Memoised (:data:`MET_MEMO` pools).
    """
    key = (dice, lowest, rule)
    if not meets(dice, lowest, rule):
        return always_tail(dice, lowest, rule)
    found = _MET.get(key)
    if found is not None:
        _MET.move_to_end(key)
        return found
    tell = progress or (lambda _work: None)
    middle = middle_of(dice)
    build_chain(middle - 1, lowest, rule, tell)
    work = iter(meet_work(dice)[middle - 1 :])  # the forward levels, then the arrivals
    states: dict[int, FLaw] = {dice: {(0, 0): fmpz_poly([1])}}
    for pending in range(dice, middle - 1, -1):  # over 6**(most_dice(dice) - most_dice(pending))
        here = states.pop(pending)  # every level is reached (a batch of one face: d = 1)
        for distinct, law in flint_batch_law(pending, lowest, rule).items():
            rest = pending - distinct
            onward = 6 ** (most_dice(pending - 1) - most_dice(rest))
            _accumulate(states.setdefault(rest, {}), combine(here, law), onward)
        tell(next(work))
    out: FLaw = {}
    for rest, arrived in sorted(states.items()):  # every level under the middle
        _accumulate(out, combine(arrived, always_tail(rest, lowest, rule)), 1)
        tell(next(work))
    _MET[key] = out
    while len(_MET) > MET_MEMO:
        _MET.popitem(last=False)
    return out


def needed_law(
    dice: int, threshold: int, lowest: int, rule: SixesRule, progress: Progress | None = None
) -> FLaw:
    """The law of a test that explodes while its successes are below ``threshold`` (T-6).

    A forward pass over the pending dice, from the pool down: each state holds, per
    (ones, sixes state), the polynomial of the successes so far (all below the
    threshold). A batch multiplies it by the batch's polynomial; the part that reaches
    the threshold (or has no extra dice) is done, the rest waits for its extra dice.
    Weights count over ``6**most_dice(dice)``.

    ``progress(1)`` after each level of pending dice (``dice`` in all): a high threshold
    keeps long polynomials to the end, and 60 dice at threshold 1,000 take 15 s (45 s
    under the ``all`` rule), each level about as long as the others.
    """
    done: FLaw = {}
    states: dict[int, FLaw] = {dice: {(0, 0): fmpz_poly([1])}}
    for pending in range(dice, 0, -1):
        if progress is not None and pending < dice:
            progress(1)
        here = states.pop(pending, None)
        if not here:
            continue
        finished: FLaw = {}  # this level's done part, scaled once below
        for distinct, law in flint_batch_law(pending, lowest, rule).items():
            rest = pending - distinct
            if not rest:
                _accumulate(finished, combine(here, law), 1)
                continue
            onward = 6 ** (most_dice(pending) - pending - most_dice(rest))
            waiting = states.setdefault(rest, {})
            for key, value in combine(here, law).items():
                low = value.truncate(threshold)
                _add(waiting, key, low * onward)
                _add(finished, key, value - low)
        _accumulate(done, finished, 6 ** (most_dice(pending) - pending))
    if progress is not None:
        progress(1)
    return done


def coefficients(poly: fmpz_poly) -> list[int]:
    """The weights by successes as Python integers (trailing zeros dropped)."""
    return [int(c) for c in poly.coeffs()]


def padded(poly: fmpz_poly, size: int) -> list[int]:
    """The first ``size`` weights by successes as Python integers, zeros past the end."""
    out = [int(c) for c in poly.coeffs()[:size]]
    return out + [0] * (size - len(out))
