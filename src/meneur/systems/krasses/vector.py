"""The Krâsses checks with numpy (K-1, K-2, K-4): many rolls at once, the rules of ``rules.py``.

Checked against the scalar ``resolve`` on the same faces (``tests/test_conformance_vector.py``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from meneur.vector import ArrayReader, Bool, Int, RandomReader


class KrassesTestVector:
    """d20 + bonus against the difficulty; natural 20 passes, natural 1 fails (K-1, K-2)."""

    width = 1

    def __init__(self, params: Any) -> None:
        self.params = params

    def run(self, reader: Any, runs: int) -> tuple[Bool, Int]:
        natural = reader.take(np.arange(runs), np.ones(runs, dtype=np.int64))[0].astype(np.int64)
        total = natural + self.params.bonus + self.params.modifier
        target = self.params.target
        passed = np.where(natural == 20, True, np.where(natural == 1, False, total >= target))
        return passed, total - target

    def __call__(self, faces: NDArray[Any]) -> tuple[Bool, Int]:
        return self.run(ArrayReader(faces[:, 0, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng, 20), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        passed: Bool = result[0]
        return passed

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        return (bool(result[0][i]), int(result[1][i]))


class KrassesOpposeVector:
    """K-4, round after round until decided: naturals first (unless the option ignores
    them), then totals, then a PC beats an NPC or the tie is rolled again.
    Key: (winner, what decided it)."""

    DECISIONS = ("natural", "total", "tie")

    def __init__(self, params: Any) -> None:
        self.params = params
        # a reroll needs more faces; 200 ties in a row never happen (1/20 each at most)
        self.width = 200 if params.rerolls_ties else 1

    def run(self, reader_a: Any, reader_b: Any, runs: int) -> tuple[Int, Int]:
        p = self.params
        winner = np.zeros(runs, dtype=np.int64)
        how = np.zeros(runs, dtype=np.int64)
        live: Int = np.arange(runs)
        while live.size:
            one = np.ones(live.size, dtype=np.int64)
            a_nat = reader_a.take(live, one)[0].astype(np.int64)
            b_nat = reader_b.take(live, one)[0].astype(np.int64)
            a_total = a_nat + p.a.bonus + p.a.modifier
            b_total = b_nat + p.b.bonus + p.b.modifier
            won = np.zeros(live.size, dtype=np.int64)
            by = np.zeros(live.size, dtype=np.int64)
            open_ = np.ones(live.size, dtype=np.bool_)
            if p.naturals:
                for natural, wins in ((20, True), (1, False)):
                    a_has, b_has = a_nat == natural, b_nat == natural
                    hit = open_ & (a_has != b_has)
                    won[hit] = np.where((a_has == wins)[hit], 1, -1)
                    by[hit] = 0
                    open_ &= ~hit
            hit = open_ & (a_total != b_total)
            won[hit] = np.where((a_total > b_total)[hit], 1, -1)
            by[hit] = 1
            open_ &= ~hit
            if not p.rerolls_ties:
                won[open_] = 1 if p.a.kind == "pc" else -1
                by[open_] = 2
                open_[:] = False
            done = ~open_
            winner[live[done]] = won[done]
            how[live[done]] = by[done]
            live = live[open_]
        return winner, how

    def __call__(self, faces: NDArray[Any]) -> tuple[Int, Int]:
        return self.run(ArrayReader(faces[:, 0, :]), ArrayReader(faces[:, 1, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng, 20), RandomReader(rng, 20), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        won: Bool = result[0] == 1
        return won

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        return ("a" if result[0][i] == 1 else "b", self.DECISIONS[int(result[1][i])])
