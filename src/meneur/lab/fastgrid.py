"""Whole rows of exact grids from integer polynomials, one die multiplied in at a time.

A row of ``meneur table`` (one pool, every threshold or difficulty) is the tail of one
law, and the law of ``n + 1`` dice is the law of ``n`` dice times one die: so a panel of
rows ``1..N`` costs ``N`` polynomial multiplications in all, instead of one exact engine
run per row or per cell. Weights are integers over ``6**n`` (exact); cells are
:class:`~meneur.lab.grid.ExactCell` (a Fraction is made only when read).

* Obscur (O-2, O-3, O-5, O-6): successes per face are the scoring's values, so the
  law is the polynomial of one die (``3 + 2x + x²`` normally) to the power ``n``; a
  Maladresse is every die showing 1 (weight 1 of ``6**n``).
* Tunnels without explosion (T-3 to T-5, T-7): a die is one of four kinds (a 1, another
  failure, a success below 6, a 6); the state keeps the successes, the ones (0-2; three
  are a critical failure, dropped) and the sixes (0-3). numpy int64 holds ``6**24``.

The conformance of both with the systems' own exact odds is tested for every cell
(``tests/lab/test_lab_fastgrid.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from itertools import accumulate
from typing import Any, cast

import numpy as np

from meneur.lab.grid import ExactCell

INT64_DICE = 24
"""6**24 < 2**63: pools up to 24 dice count in int64, larger ones in Python integers."""


def _tail(weights: Sequence[int], thresholds: Sequence[Hashable]) -> list[int]:
    """Weight of ``value >= t`` for each ``t`` (one suffix sum)."""
    suffix = [*accumulate(reversed(weights))][::-1]
    suffix.append(0)
    top = len(weights)
    out = []
    for t in thresholds:
        assert isinstance(t, int)
        out.append(suffix[min(max(t, 0), top)])
    return out


# --- Obscur ------------------------------------------------------------------------------


_OBSCUR: dict[tuple[tuple[int, ...], int], list[int]] = {}
"""Per (scoring, bytes per coefficient): the packed laws of 0, 1, 2... dice so far."""


def _width(pool: int) -> int:
    """Bytes per packed coefficient: 8 while ``6**pool`` fits 64 bits, else 24 (6**70)."""
    if pool > 63:
        raise ValueError("pools above 63 dice overflow the packed coefficients")
    return 8 if pool <= INT64_DICE else 24


def _obscur_tails(values: tuple[int, ...], pool: int) -> list[int]:
    """``tails[k]``: the weight of at least ``k`` successes with ``pool`` dice.

    A polynomial with coefficients below ``2**(8·w)`` is one integer in that base
    (Kronecker substitution): a die more is one integer product; the coefficients are
    read back from the integer's bytes (as a C array when they fit 64 bits) and summed
    from the top.
    """
    width = _width(pool)
    base = 1 << (8 * width)
    laws: list[int] = _OBSCUR.setdefault((values, width), [1])
    if len(laws) <= pool:
        die = sum(base**value for value in values)
        law = laws[-1]
        while len(laws) <= pool:
            law *= die
            laws.append(law)
    law = laws[pool]
    packed = law.to_bytes(width * (law.bit_length() // (8 * width) + 1), sys.byteorder)
    if width == 8:
        weights: list[int] = memoryview(packed).cast("Q").tolist()
    else:
        read = int.from_bytes
        order = sys.byteorder
        weights = [read(packed[k : k + width], order) for k in range(0, len(packed), width)]
    return [*accumulate(reversed(weights))][::-1]


def obscur_row(
    values: tuple[int, ...], pool: int, difficulties: Sequence[Hashable]
) -> list[ExactCell]:
    """(success, fumble) of ``pool`` dice at each difficulty (O-2, O-3, O-8)."""
    tails = _obscur_tails(values, pool)
    top = len(tails)
    total = 6**pool
    fumble = 1 if pool else 0
    names = ("success", "fumble")
    cuts = cast(Sequence[int], difficulties)
    return [ExactCell(names, (tails[t] if t < top else 0, fumble), total) for t in cuts]


# --- Tunnels without explosion ------------------------------------------------------------

_TUNNELS: dict[int, tuple[list[Any], list[tuple[list[int], list[int]]]]] = {}
"""Per lowest succeeding face: ([the state of the last pool], laws of 0, 1, 2... dice)."""


def _grow(state: Any, failures: int, middles: int) -> Any:
    """The state of one die more: ones 0-2 (a third is a critical failure, dropped),
    sixes 0-3 (3: three or more), successes."""
    ones, sixes, successes = state.shape
    dtype: Any = np.int64 if successes <= INT64_DICE else object
    grown = np.zeros((ones, sixes, successes + 1), dtype=dtype)
    grown[:, :, :-1] = state * failures
    grown[1:, :, :-1] += state[:-1]  # a 1
    grown[:, :, 1:] += state * middles  # a success below 6
    grown[:, 1:, 1:] += state[:, :-1]  # a 6
    grown[:, 3, 1:] += state[:, 3]  # a 6 past the third
    return grown


def _tunnels_law(lowest: int, pool: int) -> tuple[list[int], list[int]]:
    """(weights by successes with fewer than three 1s, the same with three 6s or more)."""
    if lowest not in _TUNNELS:
        state = np.zeros((3, 4, 1), dtype=np.int64)
        state[0, 0, 0] = 1
        _TUNNELS[lowest] = ([state], [([1], [0])])
    last, laws = _TUNNELS[lowest]
    while len(laws) <= pool:
        state = _grow(last[0], lowest - 2, 6 - lowest)
        last[0] = state
        laws.append(
            (
                [int(w) for w in state.sum(axis=(0, 1)).tolist()],
                [int(w) for w in state[:, 3, :].sum(axis=0).tolist()],
            )
        )
    return laws[pool]


def tunnels_plain_row(lowest: int, pool: int, thresholds: Sequence[Hashable]) -> list[ExactCell]:
    """(success, exceptional, critical) of ``pool`` dice that never explode (T-3 to T-7)."""
    ok, streak = _tunnels_law(lowest, pool)
    total = 6**pool
    critical = total - sum(ok)
    names = ("success", "exceptional", "critical")
    return [
        ExactCell(names, (w, e, critical), total)
        for w, e in zip(_tail(ok, thresholds), _tail(streak, thresholds), strict=True)
    ]


def clear_caches() -> None:
    """Forget the memoised laws (benchmarks time a cold computation)."""
    _OBSCUR.clear()
    _TUNNELS.clear()
