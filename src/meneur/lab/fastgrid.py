"""Whole rows of exact grids from integer polynomials, one die multiplied in at a time.

A row of ``meneur table`` (one pool, every threshold or difficulty) is the tail of one
law, and the law of ``n + 1`` dice is the law of ``n`` dice times one die: so a panel of
rows ``1..N`` costs ``N`` polynomial multiplications in all, instead of one exact engine
run per row or per cell. Weights are integers over ``6**n`` (exact); cells are
:class:`~meneur.lab.grid.ExactCell` (a Fraction is made only when read).

This module holds what is generic: :func:`score_tails`, the law of a total of per-face
scores (the polynomial of one die to the power ``n``), and :func:`tail`. A system's own
rows live in its package (``systems/<name>/lab_grid.py``), built on these; their
conformance with the systems' own exact odds is tested for every cell
(``tests/lab/test_lab_fastgrid.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from itertools import accumulate

INT64_DICE = 24
"""6**24 < 2**63: pools up to 24 dice count in int64, larger ones in Python integers."""


def tail(weights: Sequence[int], thresholds: Sequence[Hashable]) -> list[int]:
    """Weight of ``value >= t`` for each ``t`` (one suffix sum)."""
    suffix = [*accumulate(reversed(weights))][::-1]
    suffix.append(0)
    top = len(weights)
    out = []
    for t in thresholds:
        assert isinstance(t, int)
        out.append(suffix[min(max(t, 0), top)])
    return out


# --- A law of per-face scores -----------------------------------------------------------


_SCORED: dict[tuple[tuple[int, ...], int], list[int]] = {}
"""Per (scoring, bytes per coefficient): the packed laws of 0, 1, 2... dice so far."""


def _width(pool: int) -> int:
    """Bytes per packed coefficient: 8 while ``6**pool`` fits 64 bits, 16 up to 49 dice,
    else 24 (``6**70 < 2**192``)."""
    if pool > 63:
        raise ValueError("pools above 63 dice overflow the packed coefficients")
    return 8 if pool <= INT64_DICE else 16 if pool <= 49 else 24


def score_tails(values: tuple[int, ...], pool: int) -> list[int]:
    """``tails[k]``: the weight of a total of at least ``k`` with ``pool`` dice, each face
    scoring ``values[face - 1]``.

    A polynomial with coefficients below ``2**(8·w)`` is one integer in that base
    (Kronecker substitution): a die more is one integer product; the coefficients are
    read back from the integer's bytes (as a C array when they fit 64 bits) and summed
    from the top.
    """
    width = _width(pool)
    base = 1 << (8 * width)
    laws: list[int] = _SCORED.setdefault((values, width), [1])
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
    elif width == 16 and sys.byteorder == "little":
        words = memoryview(packed).cast("Q").tolist()
        weights = [low + (high << 64) for low, high in zip(words[::2], words[1::2], strict=True)]
    else:
        read = int.from_bytes
        order = sys.byteorder
        weights = [read(packed[k : k + width], order) for k in range(0, len(packed), width)]
    return [*accumulate(reversed(weights))][::-1]


def clear_caches() -> None:
    """Forget the memoised laws (benchmarks time a cold computation)."""
    _SCORED.clear()
