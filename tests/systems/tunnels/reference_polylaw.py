"""The previous polynomial engine (Python integers, Kronecker-packed), kept as a reference.

The engine in ``meneur.systems.tunnels.polylaw`` replaced it (same algorithms, products
in FLINT); the tests check both give the same exact laws wherever this one runs.

The law of a Tunnels test as integer polynomials in the successes (T-3 to T-8).

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
  as one integer product (Kronecker substitution: the coefficients side by side in one
  Python integer), so the cost grows polynomially with the pool.
* ``always`` (and ``never``) do not look at the successes: :func:`always_tail` is the
  law of everything that ``p`` pending dice still bring, memoised for every ``p``, so a
  grid of pools shares it. ``needed`` stops once the threshold is reached:
  :func:`needed_law` runs forward from the pool over the successes so far (below the
  threshold), cutting the product at the threshold.

Weights are integers: a law from ``p`` pending dice counts over ``6**most_dice(p)``,
the most dice they can still roll; a branch that rolls fewer is scaled by a power of 6.
"""

from __future__ import annotations

from functools import cache
from math import comb

from meneur.systems.tunnels.rules import (
    CRITICAL_ONES,
    EXCEPTIONAL_SIXES,
    LOWEST_SUCCESS,
    SixesRule,
    TestParams,
)

Poly = list[int]
"""Coefficients by successes (index = successes)."""
Law = dict[tuple[int, int], Poly]
"""(ones capped at 3, sixes state) -> polynomial in the successes."""


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
def _onto(dice: int, faces: int) -> tuple[int, ...]:
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
        rest = _onto(dice - count, others)
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


# --- packed polynomials -------------------------------------------------------------
#
# A polynomial with coefficients below 2**(8*width) is one integer, its coefficients
# side by side (Kronecker substitution): adding two laws is one integer sum, a batch
# followed by the rest of the test one integer product. Every law of one computation
# shares one width, large enough for its largest weight (6**most_dice(pool)).

Packed = dict[tuple[int, int], int]
"""(ones capped at 3, sixes state) -> packed polynomial in the successes."""

WIDTH_STEP = 10
"""Pools are rounded up to a multiple of 10 for the width, so that nearby pools share
the memoised laws (a grid of pools 1..60 uses six widths)."""


def width_for(dice: int, *, shared: bool = True) -> int:
    """Bytes per coefficient for a pool of ``dice`` (weights below ``6**most_dice``);
    ``shared``: rounded up so that memoised laws serve nearby pools."""
    rounded = -(-dice // WIDTH_STEP) * WIDTH_STEP if shared else dice
    weight: int = 6 ** most_dice(rounded)
    return weight.bit_length() // 8 + 2


def unpack(value: int, width: int) -> Poly:
    """The coefficients of a packed polynomial (trailing zeros dropped)."""
    size = -(-value.bit_length() // (8 * width))
    raw = value.to_bytes(width * size, "little")
    return [int.from_bytes(raw[i : i + width], "little") for i in range(0, width * size, width)]


def times(big: int, small: Poly | tuple[int, ...], width: int) -> int:
    """A packed polynomial times a short one with small coefficients (a batch's law).

    One multiply-and-shift of ``big`` per coefficient of the short one: each costs the
    size of ``big``, less than a product of two packed integers whose slots are mostly
    the width of the largest weight (CPython multiplies large integers in more than
    linear time).
    """
    bits = 8 * width
    out = 0
    for weight in reversed(small):
        out <<= bits
        if weight:
            out += big * weight
    return out


def _sum_big(classes: Packed, ones: int | None, sixes: int | None) -> int:
    return sum(
        value
        for (o, x), value in classes.items()
        if (ones is None or o == ones) and (sixes is None or x == sixes)
    )


def _sum_small(classes: Law, ones: int | None, sixes: int | None) -> Poly:
    chosen = [
        poly
        for (o, x), poly in classes.items()
        if (ones is None or o == ones) and (sixes is None or x == sixes)
    ]
    return [sum(column) for column in zip(*chosen, strict=True)] if chosen else []


def combine(left: Packed, right: Law, width: int) -> Packed:
    """Two independent parts of a test, classes added (ones and sixes capped at 3).

    ``left`` is packed (the test so far, or the rest of it), ``right`` one batch's law.
    ``out[c]`` sums ``left[a] * right[b]`` over the class pairs whose capped sum is
    ``c``. Only the pairs that stay below both caps are multiplied one by one; a capped
    class is a product of sums minus those pairs, so under the ``batch`` rule a batch
    costs 14 products instead of 64.
    """
    out: Packed = {}
    cap = CRITICAL_ONES  # == EXCEPTIONAL_SIXES: both counters stop at 3
    ones_l = sorted({o for o, _ in left})
    ones_r = sorted({o for o, _ in right})
    low_six = sorted({(x, y) for _, x in left for _, y in right if x + y < cap})
    by_sixes: dict[int, int] = {}  # sixes below the cap -> the pairs' products, ones summed
    for o in ones_l:
        for a in ones_r:
            if o + a >= cap:
                continue
            pairs = 0
            for x, y in low_six:
                if (o, x) in left and (a, y) in right:
                    value = times(left[(o, x)], right[(a, y)], width)
                    key = (o + a, x + y)
                    out[key] = out.get(key, 0) + value
                    by_sixes[x + y] = by_sixes.get(x + y, 0) + value
                    pairs += value
            every = times(_sum_big(left, o, None), _sum_small(right, a, None), width) - pairs
            if every:
                out[(o + a, cap)] = out.get((o + a, cap), 0) + every
    for x, y in low_six:
        every = times(_sum_big(left, None, x), _sum_small(right, None, y), width)
        by_sixes[x + y] = by_sixes.get(x + y, 0) - every
    for sixes, minus in by_sixes.items():
        if minus:
            out[(cap, sixes)] = out.get((cap, sixes), 0) - minus
    whole = times(sum(left.values()), _sum_small(right, None, None), width)
    rest = whole - sum(out.values())
    if rest:
        out[(cap, cap)] = out.get((cap, cap), 0) + rest
    return out


def _accumulate(into: Packed, parts: Packed, scale: int) -> None:
    for key, value in parts.items():
        into[key] = into.get(key, 0) + value * scale


# --- the test ------------------------------------------------------------------------


@cache
def always_tail(pending: int, lowest: int, rule: SixesRule, width: int) -> Packed:
    """The law of what ``pending`` dice still bring when every batch explodes (T-5, T-6).

    Keys are the ones (capped at 3) and the sixes state these dice add; packed
    polynomials in the successes they add, weighing over ``6**most_dice(pending)``.
    """
    if pending == 0:
        return {(0, 0): 1}
    out: Packed = {}
    for distinct, law in batch_law(pending, lowest, rule).items():
        rest = pending - distinct
        scale = 6 ** (most_dice(pending) - pending - most_dice(rest))
        _accumulate(out, combine(always_tail(rest, lowest, rule, width), law, width), scale)
    return out


def needed_law(dice: int, threshold: int, lowest: int, rule: SixesRule, width: int) -> Packed:
    """The law of a test that explodes while its successes are below ``threshold`` (T-6).

    A forward pass over the pending dice, from the pool down: each state holds, per
    (ones, sixes state), the packed polynomial of the successes so far (all below the
    threshold). A batch multiplies it by the batch's polynomial; the part that reaches
    the threshold (or has no extra dice) is done, the rest waits for its extra dice.
    Weights count over ``6**most_dice(dice)``, packed ``width`` bytes each.
    """
    below = (1 << (8 * width * threshold)) - 1  # the coefficients of 0..threshold-1
    done: Packed = {}
    states: dict[int, Packed] = {dice: {(0, 0): 1}}
    for pending in range(dice, 0, -1):
        here = states.pop(pending, None)
        if not here:
            continue
        finished: Packed = {}  # this level's done part, scaled once below
        for distinct, law in batch_law(pending, lowest, rule).items():
            rest = pending - distinct
            if not rest:
                _accumulate(finished, combine(here, law, width), 1)
                continue
            onward = 6 ** (most_dice(pending) - pending - most_dice(rest))
            waiting = states.setdefault(rest, {})
            for key, value in combine(here, law, width).items():
                low = value & below
                if low:
                    waiting[key] = waiting.get(key, 0) + low * onward
                if value != low:
                    finished[key] = finished.get(key, 0) + value - low
        _accumulate(done, finished, 6 ** (most_dice(pending) - pending))
    return done


def side_law(params: TestParams) -> dict[tuple[int, int], list[int]]:
    """The law of a test by this engine, by class (as ``odds.side_law`` returns it)."""
    lowest, rule = LOWEST_SUCCESS[params.mode], params.sixes
    if params.explode == "never":
        return {k: list(v) for k, v in leaf_law(params.dice, lowest, rule).items()}
    if params.explode == "always":
        width = width_for(params.dice)
        packed = always_tail(params.dice, lowest, rule, width)
    else:
        width = width_for(params.dice, shared=False)
        packed = needed_law(params.dice, params.threshold, lowest, rule, width)
    return {k: unpack(v, width) for k, v in packed.items()}
