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


def _margins(law: FLaw) -> tuple[dict[int, fmpz_poly], dict[int, fmpz_poly], fmpz_poly]:
    """A law summed by ones, by sixes state, and in all (one pass)."""
    by_ones: dict[int, fmpz_poly] = {}
    by_sixes: dict[int, fmpz_poly] = {}
    total = fmpz_poly()
    for (ones, sixes), value in law.items():
        _add(by_ones, ones, value)
        _add(by_sixes, sixes, value)
        total += value
    return by_ones, by_sixes, total


def combine(left: FLaw, right: FLaw) -> FLaw:
    """Two independent parts of a test, classes added (ones and sixes capped at 3).

    ``left`` is the test so far (or the rest of it), ``right`` one batch's law.
    ``out[c]`` sums ``left[a] * right[b]`` over the class pairs whose capped sum is
    ``c``. Only the pairs that stay below both caps are multiplied one by one; a capped
    class is a product of sums minus those pairs, so under the ``batch`` rule a batch
    costs 14 products instead of 64. The sums are made once per call: on small pools
    the cost is the number of FLINT calls, not the size of the numbers.
    """
    out: FLaw = {}
    cap = CRITICAL_ONES  # == EXCEPTIONAL_SIXES: both counters stop at 3
    ones_l, sixes_l, total_l = _margins(left)
    ones_r, sixes_r, total_r = _margins(right)
    low_six = [(x, y) for x in sixes_l for y in sixes_r if x + y < cap]
    by_sixes: dict[int, fmpz_poly] = {}  # sixes below the cap -> the pairs' products
    for o, sum_l in ones_l.items():
        for a, sum_r in ones_r.items():
            if o + a >= cap:
                continue
            every = sum_l * sum_r
            for x, y in low_six:
                if (o, x) in left and (a, y) in right:
                    value = left[(o, x)] * right[(a, y)]
                    _add(out, (o + a, x + y), value)
                    _add(by_sixes, x + y, value)
                    every -= value
            _add(out, (o + a, cap), every)
    for x, y in low_six:
        _add(by_sixes, x + y, -(sixes_l[x] * sixes_r[y]))
    rest = total_l * total_r
    for sixes, minus in by_sixes.items():
        _add(out, (cap, sixes), -minus)
    for value in out.values():
        rest -= value
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
    """Forget the memoised :func:`always_tail` laws (benchmarks time a cold engine)."""
    _TAILS.clear()


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
    """Whether :func:`always_law` meets in the middle for this pool: a large one whose
    chain (:func:`always_tail`) is not already built."""
    return dice >= WHOLE_MEET_FROM and (dice, lowest, rule) not in _TAILS


def meet_work(dice: int) -> list[int]:
    """The work of :func:`always_law`'s steps, in the units of :func:`chain_work` (the
    cost of a product grows with its length and with its weights' bits): the rest's law
    for each level below the middle, the test so far for each level from the pool down
    to it, then the meeting (one step per level it arrives at), which multiplies two laws
    of about ``most_dice(dice) / 2`` successes each (measured at 60 dice: 1.0, 1.4 and
    1.0 s for the three parts, as these units forecast)."""
    middle, top = middle_of(dice), most_dice(dice)
    below = [pending**5 for pending in range(1, middle)]
    forward = [
        4 * pending * (top - most_dice(pending)) ** 2 for pending in range(dice, middle - 1, -1)
    ]
    arrivals = min(6, middle)
    return below + forward + [4 * dice * top**2 // arrivals] * arrivals


def chain_work(dice: int) -> list[int]:
    """The work of :func:`always_tail` for each pool up to ``dice``: about the pool to
    the fifth (its laws' length times their weights' bits times a batch's length)."""
    return [pending**5 for pending in range(1, dice + 1)]


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

    ``progress(work)`` after each step, :func:`meet_work` in all.
    """
    if not meets(dice, lowest, rule):
        return always_tail(dice, lowest, rule)
    tell = progress or (lambda _work: None)
    middle = middle_of(dice)
    work = iter(meet_work(dice))
    for pending in range(1, middle):
        always_tail(pending, lowest, rule)
        tell(next(work))
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
