"""The exact law of an opposition where a side plays ``needed`` (T-9), lead as polynomials.

T-9: after both first batches, a ``needed`` side explodes while it is not ahead, so each
side looks at the other's successes and the sides are not independent. But a side looks
only at the *sign* of the lead (and at the criticals, T-8), never at its value. So the
walk keeps, for each pair of side states (pending dice, ones capped, sixes state), the
whole law of the lead as one polynomial instead of one dict entry per lead value (the
engine it replaced, kept in ``tests/systems/tunnels/reference_opposed.py``):

* a polynomial is one integer, a slot of bits per lead (Kronecker substitution: no
  weight carries into the next slot, so a product of integers is the product of the
  polynomials, done by FLINT's ``fmpz`` in one call), with its lowest non-empty slot
  kept apart so that products do not multiply empty slots;
* a batch of side a multiplies the lead's polynomial by its successes polynomial; a
  batch of side b by its successes polynomial read backwards (b's successes lower the
  lead);
* the ``needed`` decision cuts the polynomial at lead 0 (a mask): the part where a is
  ahead, the tie, the part where b is ahead, each with its own decision;
* once a side has three 1s (T-8: a critical failure loses, whatever comes next) or no
  side that plays ``needed`` still has dice pending, nobody's decision depends on the
  lead any more: each side's rest is the precomputed law of its remaining dice
  (:func:`~meneur.systems.tunnels.polylaw.always_tail`, or nothing for a side that
  stops), multiplied in at once instead of stepped through.

Index of the lead in a state's polynomial: ``lead + most_dice(b's pool) -
most_dice(b's pending dice)``, never negative (b cannot have lost more than the dice it
rolled), and b's batches only raise it, so no polynomial is ever shifted down. Weights
are exact integers scaled as in the joint walk it replaced: a state with R =
most_dice(pending a) + most_dice(pending b) still to come holds v with probability
v / 6**(D - R), D being the most dice of the whole opposition.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flint import fmpz

from meneur.systems.tunnels.polylaw import always_tail, batch_law, most_dice, next_six
from meneur.systems.tunnels.rules import (
    CRITICAL_ONES,
    EXCEPTIONAL_SIXES,
    Policy,
    SixesRule,
    Winner,
    wants_to_explode,
)

Followed = SixesRule | None
"""The sixes rule a walk follows (T-7), or ``None``: the three 6s are not followed."""

SideState = tuple[int, int, int]
"""(dice pending, ones capped at 3, sixes state) of one side."""

Flags = tuple[bool, bool]
"""(three 6s, critical failure) of one side at the end."""

LeadKey = tuple[int, bool, bool, bool, bool]
"""(a's successes minus b's, three 6s a, critical a, three 6s b, critical b)."""

Moves = tuple[tuple[SideState, int, fmpz], ...]
"""A side's batches by next state: (next state, lowest slot of the move, packed move)."""


@cache
def _moves(
    pending: int, lowest: int, rule: Followed, ones: int, sixes: int
) -> tuple[tuple[int, SideState, int], ...]:
    """A side's possible batches from (pending, ones, sixes): (successes, next state, factor).

    The factor is the batch's weight times 6**(most_dice(pending) - pending -
    most_dice(extra)), which depends on this side only; batches that lead to the same
    next state and successes are merged (with ``rule`` ``None``, whatever their 6s).
    """
    merged: dict[tuple[int, SideState], int] = {}
    top = most_dice(pending) - pending
    for distinct, law in batch_law(pending, lowest, rule or "batch").items():
        extra = pending - distinct
        scale = 6 ** (top - most_dice(extra))
        for (batch_ones, batch_sixes), poly in law.items():
            ones_after = min(CRITICAL_ONES, ones + batch_ones)
            six = 0 if rule is None else next_six(sixes, batch_sixes, rule)
            state = (extra, ones_after, six)
            for successes, ways in enumerate(poly):
                if ways:
                    key = (successes, state)
                    merged[key] = merged.get(key, 0) + ways * scale
    return tuple((successes, state, factor) for (successes, state), factor in merged.items())


def _pack(coefficients: dict[int, int] | list[int], width: int) -> fmpz:
    """Coefficients (index -> weight, all >= 0) as one integer, ``width`` bits a slot."""
    items = coefficients.items() if isinstance(coefficients, dict) else enumerate(coefficients)
    return fmpz(sum(weight << (index * width) for index, weight in items))


@cache
def _steps(
    pending: int, lowest: int, rule: Followed, ones: int, sixes: int, backward: bool, width: int
) -> Moves:
    """A side's batch by next state: (next state, slots, packed move of the lead's index).

    Side a (``backward`` false) moves the index up by its successes k. Side b moves it
    by ``pending - k`` plus ``most_dice(pending - 1) - most_dice(extra)``: its successes
    lower the lead while the index's offset (b's most dice still to come) falls. The
    move's lowest slot is kept apart (``slots``), shifted in after the product, so that
    the product does not multiply zero slots.
    """
    grouped: dict[SideState, dict[int, int]] = {}
    for successes, state, factor in _moves(pending, lowest, rule, ones, sixes):
        if backward:
            shift = pending - successes + most_dice(pending - 1) - most_dice(state[0])
        else:
            shift = successes
        by_index = grouped.setdefault(state, {})
        by_index[shift] = by_index.get(shift, 0) + factor
    out = []
    for state, by_index in grouped.items():
        low = min(by_index)
        move = _pack({index - low: factor for index, factor in by_index.items()}, width)
        out.append((state, low, move))
    return tuple(out)


@cache
def _rest(
    pending: int,
    lowest: int,
    rule: Followed,
    ones: int,
    sixes: int,
    go: bool,
    backward: bool,
    width: int,
) -> tuple[tuple[Flags, fmpz], ...]:
    """The rest of a side that no longer looks at the lead, by its final flags, packed.

    ``go``: it explodes every batch left (:func:`always_tail`); else it stops and its
    pending dice only scale the weight (``6**most_dice(pending)``). Side b's polynomial
    is read backwards (index ``most_dice(pending) - successes``), which brings the
    lead's index offset to ``most_dice`` of b's whole pool.
    """
    top = most_dice(pending)
    if go:
        tail = {
            key: [int(c) for c in poly.coeffs()]
            for key, poly in always_tail(pending, lowest, rule or "batch").items()
        }
    else:
        tail = {(0, 0): [6**top]}
    by_flags: dict[Flags, fmpz] = {}
    for (tail_ones, tail_sixes), coefficients in tail.items():
        flags = (
            rule is not None and next_six(sixes, tail_sixes, rule) >= EXCEPTIONAL_SIXES,
            min(CRITICAL_ONES, ones + tail_ones) >= CRITICAL_ONES,
        )
        if backward:
            coefficients = [0] * (top + 1 - len(coefficients)) + coefficients[::-1]
        packed = _pack(coefficients, width)
        by_flags[flags] = by_flags[flags] + packed if flags in by_flags else packed
    return tuple(by_flags.items())


def _winner(lead_sign: int, critical_a: bool, critical_b: bool) -> Winner:
    """Who is ahead (T-9): a critical failure loses, else the lead's sign decides."""
    if critical_a or critical_b:
        return None if critical_a and critical_b else ("b" if critical_a else "a")
    return "a" if lead_sign > 0 else "b" if lead_sign < 0 else None


Key = tuple[SideState, SideState, bool]
"""(state a, state b, b rolls next with no choice: the second half of a step)."""

Part = tuple[int, fmpz]
"""(lowest slot, the lead's law packed from that slot up): the slots below are empty."""


def needed_lead(
    dice_a: int,
    lowest_a: int,
    policy_a: Policy,
    dice_b: int,
    lowest_b: int,
    policy_b: Policy,
    rule: Followed,
) -> dict[LeadKey, int]:
    """The weights of (lead, flags of a, flags of b) of an opposition (T-9), over
    ``6**D``; any policies, built for a side that plays ``needed``. With ``rule``
    ``None`` the three 6s are not followed (every flag of three 6s is false): who wins
    and by how much do not read them, and a side's state without them is one of two
    (or four) fewer, so the walk is ~5 times faster (14 a side: 0.24 s, not 1.25).

    A forward pass over the joint state by decreasing total of pending dice (each batch
    lowers its side's pending dice, so a state is expanded once, all its ways merged).
    When both sides explode in one step, a's batch is rolled, then b's with no choice
    (the key's flag), as :func:`~meneur.systems.tunnels.rules.roll_opposed` reads them.

    A state's law is one integer, a slot of ``width`` bits per lead (Kronecker
    substitution: a product of integers is the product of the polynomials, as no weight
    reaches ``2**width``), kept from its lowest non-empty slot: the slots below, leads
    that b's most successes could reach but the paths merged there did not, would
    otherwise fill most of every product.
    """
    whole_b = most_dice(dice_b)
    total_weight = 6 ** (most_dice(dice_a) + whole_b)
    width = -(-total_weight.bit_length() // 8) * 8  # whole bytes, read back as such
    finals: dict[tuple[Flags, Flags], fmpz] = {}
    buckets: list[dict[Key, list[Any]]] = [{} for _ in range(dice_a + dice_b + 1)]
    masks: dict[int, fmpz] = {}

    def finish(flags: tuple[Flags, Flags], low: int, packed: fmpz) -> None:
        packed = packed << (low * width)
        finals[flags] = finals[flags] + packed if flags in finals else packed

    def below(packed: fmpz, slots: int) -> fmpz:
        if slots not in masks:
            masks[slots] = (fmpz(1) << (slots * width)) - 1
        return packed & masks[slots]

    def roll(
        fixed: SideState, moved_is_a: bool, go_b: bool, low: int, part: fmpz, moves: Moves
    ) -> None:
        """Multiply ``part`` by each batch of one side and add it into the next state."""
        for state, shift, move in moves:
            key = (state, fixed, go_b) if moved_is_a else (fixed, state, False)
            into = buckets[state[0] + fixed[0]]
            at = low + shift
            product = part * move
            entry = into.get(key)
            if entry is None:
                into[key] = [at, product]
            elif at == entry[0]:
                entry[1] += product
            elif at > entry[0]:
                entry[1] += product << ((at - entry[0]) * width)
            else:
                entry[1] = (entry[1] << ((entry[0] - at) * width)) + product
                entry[0] = at

    start_b: SideState = (dice_b, 0, 0)
    first = _steps(dice_a, lowest_a, rule, 0, 0, False, width)
    roll(start_b, True, True, whole_b - most_dice(dice_b), fmpz(1), first)
    for total in range(dice_a + dice_b, -1, -1):
        bucket, buckets[total] = buckets[total], {}
        for (state_a, state_b, b_next), (low, lead) in bucket.items():
            pending_a, ones_a, sixes_a = state_a
            pending_b, ones_b, sixes_b = state_b
            if b_next:
                moves_b = _steps(pending_b, lowest_b, rule, ones_b, sixes_b, True, width)
                roll(state_a, False, False, low, lead, moves_b)
                continue
            critical_a, critical_b = ones_a >= CRITICAL_ONES, ones_b >= CRITICAL_ONES
            looking = (pending_a and policy_a == "needed") or (pending_b and policy_b == "needed")
            if critical_a or critical_b or not looking:
                # T-8: a critical failure is for good, so who is ahead no longer moves
                winner = _winner(0, critical_a, critical_b)
                go_a = pending_a > 0 and wants_to_explode(policy_a, winner != "a")
                go_b = pending_b > 0 and wants_to_explode(policy_b, winner != "b")
                rest_b = _rest(pending_b, lowest_b, rule, ones_b, sixes_b, go_b, True, width)
                for flags_a, tail_a in _rest(
                    pending_a, lowest_a, rule, ones_a, sixes_a, go_a, False, width
                ):
                    part = lead * tail_a
                    for flags_b, tail_b in rest_b:
                        finish((flags_a, flags_b), low, part * tail_b)
                continue
            # T-9: the lead's sign decides; by rising slot, a merged part keeps the first's
            zero = whole_b - most_dice(pending_b) - low  # the slot of lead 0
            if zero < 0:
                parts: list[tuple[int, int, fmpz]] = [(1, low, lead)]
            else:
                parts = [
                    (-1, low, below(lead, zero)),
                    (0, low + zero, below(lead >> (zero * width), 1)),
                    (1, low + zero + 1, lead >> ((zero + 1) * width)),
                ]
            decided: dict[tuple[bool, bool], Part] = {}
            for sign, start, part in parts:
                if not part:
                    continue
                winner = _winner(sign, False, False)
                go = (
                    pending_a > 0 and wants_to_explode(policy_a, winner != "a"),
                    pending_b > 0 and wants_to_explode(policy_b, winner != "b"),
                )
                if go in decided:
                    first_start, merged = decided[go]
                    decided[go] = (first_start, merged + (part << ((start - first_start) * width)))
                else:
                    decided[go] = (start, part)
            for (go_a, go_b), (start, part) in decided.items():
                if go_a:
                    moves_a = _steps(pending_a, lowest_a, rule, ones_a, sixes_a, False, width)
                    roll(state_b, True, go_b, start, part, moves_a)
                elif go_b:
                    moves_b = _steps(pending_b, lowest_b, rule, ones_b, sixes_b, True, width)
                    roll(state_a, False, False, start, part, moves_b)
                else:  # nobody explodes: the pending dice only scale the weight
                    here = most_dice(pending_a) + most_dice(pending_b)
                    six_a, six_b = sixes_a >= EXCEPTIONAL_SIXES, sixes_b >= EXCEPTIONAL_SIXES
                    finish(
                        ((six_a, False), (six_b, False)),
                        start + most_dice(pending_b),
                        part * 6**here,
                    )
    weights: dict[LeadKey, int] = {}
    size = width // 8
    for ((six_a, critical_a), (six_b, critical_b)), packed in finals.items():
        whole = int(packed)
        data = whole.to_bytes(max(1, -(-whole.bit_length() // 8)), "little")
        for index in range(0, len(data), size):
            weight = int.from_bytes(data[index : index + size], "little")
            if weight:
                key = (index // size - whole_b, six_a, critical_a, six_b, critical_b)
                weights[key] = weight
    return weights


def clear_caches() -> None:
    """Forget the memoised batches and tails (benchmarks time a cold engine)."""
    for function in (_moves, _steps, _rest):
        function.cache_clear()
