"""The Légendes test with numpy (L-6 to L-8): many rolls at once, the rules of ``rules.py``.

Checked against the scalar ``resolve`` on the same faces (``tests/test_conformance_vector.py``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from meneur.vector import ArrayReader, Bool, Int, RandomReader


class LegendesTestVector:
    """Both sums, their difference, the band of L-8 (as the index in OUTCOME_KEYS)."""

    def __init__(self, params: Any) -> None:
        from meneur.systems.legendes.data import rules_data
        from meneur.systems.legendes.rules import OUTCOME_KEYS

        self.params = params
        self.keys = OUTCOME_KEYS
        self.width = max(1, params.pc_dice, params.opposition_dice)
        cuts = rules_data().resolution
        self.cuts = (cuts.definitive, cuts.partial, cuts.advantage, cuts.cosmetic)

    def run(self, reader_a: Any, reader_b: Any, runs: int) -> tuple[Int]:
        p = self.params
        rows = np.arange(runs)
        mine = reader_a.take(rows, np.full(runs, p.pc_dice, dtype=np.int64)).sum(
            axis=0, dtype=np.int64
        )
        theirs = reader_b.take(rows, np.full(runs, p.opposition_dice, dtype=np.int64)).sum(
            axis=0, dtype=np.int64
        )
        d = mine + p.pc_bonus - theirs - p.opposition_bonus
        size = np.abs(d)
        definitive, partial, advantage, cosmetic = self.cuts
        band = np.where(
            size >= definitive,
            0,
            np.where(
                size >= partial, 1, np.where(size >= advantage, 2, np.where(size >= cosmetic, 3, 4))
            ),
        )
        index = np.where(band == 4, 4, np.where(d > 0, band, 8 - band))
        return (index,)

    def __call__(self, faces: NDArray[Any]) -> tuple[Int]:
        return self.run(ArrayReader(faces[:, 0, :]), ArrayReader(faces[:, 1, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng), RandomReader(rng), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        """A win of any band (the first four keys of OUTCOME_KEYS)."""
        won: Bool = result[0] <= 3
        return won

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        return self.keys[int(result[0][i])]
