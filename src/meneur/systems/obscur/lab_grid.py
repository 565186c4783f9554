"""Whole rows of Obscur's exact grid for ``meneur table`` (O-2, O-3, O-5, O-6, O-8).

Successes per face are the scoring's values, so the law of ``n`` dice is the polynomial
of one die (``3 + 2x + x²`` normally) to the power ``n``
(:func:`meneur.lab.fastgrid.score_tails`); a Maladresse is every die showing 1 (weight 1
of ``6**n``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from meneur.lab.fastgrid import score_tails
from meneur.lab.grid import ExactCell, FullRow


def obscur_row(values: tuple[int, ...], pool: int, difficulties: Sequence[Hashable]) -> FullRow:
    """(success, fumble) of ``pool`` dice at each difficulty (O-2, O-3, O-8)."""
    tails = score_tails(values, pool)
    top = len(tails)
    total = 6**pool
    fumble = 1 if pool else 0
    names = ("success", "fumble")
    cuts = cast(Sequence[int], difficulties)
    return FullRow([ExactCell(names, (tails[t] if t < top else 0, fumble), total) for t in cuts])
