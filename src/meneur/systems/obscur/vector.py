"""The Obscur checks with numpy (O-2 to O-10): many rolls at once, the rules of ``checks.py``.

Checked against the scalar ``resolve`` on the same faces (``tests/test_conformance_vector.py``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from meneur.vector import ArrayReader, Bool, Int, RandomReader


class ObscurTestVector:
    """The Obscur test, Dépassement included (O-2 to O-10): (successes, fumble).

    After the roll, a reroll tier rerolls the dice up to its face once, reading the new
    faces after the pool in the dice's order; a score adjustment raises the dice the
    system's ``best_assignment`` picks (or the dice named), a face never above 6; the
    Maladresse is judged on the final faces (an adjustment always lands on a die, so a
    roll of 1s that is adjusted is no Maladresse).
    """

    def __init__(self, params: Any) -> None:
        from meneur.systems.obscur.depassement import reroll_up_to

        self.params = params
        push = params.push
        self.up_to = reroll_up_to(push.reroll) if push.reroll else 0
        self.width = max(1, params.pool * (2 if self.up_to else 1))
        self.values = np.array((0, *params.scoring.values), dtype=np.int64)

    def run(self, reader: Any, runs: int) -> tuple[Int, Bool]:
        pool = self.params.pool
        push = self.params.push
        if pool == 0:
            return np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.bool_)
        rows = np.arange(runs)
        faces = reader.take(rows, np.full(runs, pool, dtype=np.int64)).astype(np.int64)
        if self.up_to:  # O-10 reroll: each die up to the tier's face, once, in order
            again = faces <= self.up_to
            counts = again.sum(axis=0)
            fresh = reader.take(rows, counts.astype(np.int64)).astype(np.int64)
            if fresh.shape[0]:
                rank = np.maximum(np.cumsum(again, axis=0) - 1, 0)
                faces = np.where(again, fresh[np.minimum(rank, fresh.shape[0] - 1), rows], faces)
        successes = self.values[faces].sum(axis=0)
        fumble = (faces == 1).all(axis=0)
        if push.adjust and push.adjust_on is not None:  # the dice named, each raised
            for index, increment in push.adjust_on:
                faces[index] = np.minimum(6, faces[index] + increment)
            successes = self.values[faces].sum(axis=0)
            fumble = (faces == 1).all(axis=0)
        elif push.adjust:  # the best adjustment (O-10), always placed on some die
            successes = successes + Adjuster(self.params.scoring).gains(
                faces.astype(np.uint8), push.adjust
            )
            fumble = np.zeros(runs, dtype=np.bool_)
        return successes, fumble

    def __call__(self, faces: NDArray[Any]) -> tuple[Int, Bool]:
        return self.run(ArrayReader(faces[:, 0, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        """O-8, and the O-10 option where a margin adjustment counts as successes."""
        from meneur.systems.obscur.depassement import margin_bonus

        p = self.params
        bonus = margin_bonus(p.push.margin) if p.margin_is_counted else 0
        passed: Bool = (result[0] + bonus >= p.difficulty) & ~result[1]  # O-8: no Maladresse
        return passed

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        return (int(result[0][i]), bool(result[1][i]))


class ObscurOpposeVector:
    """The Obscur opposition (O-9): both sides test, the more successes wins by the
    difference; equal: nobody. Key: (winner, margin)."""

    def __init__(self, params: Any) -> None:
        self.params = params
        self.a, self.b = ObscurTestVector(params.a), ObscurTestVector(params.b)
        self.width = max(self.a.width, self.b.width)

    def run(self, reader_a: Any, reader_b: Any, runs: int) -> tuple[Int]:
        sa, _ = self.a.run(reader_a, runs)
        sb, _ = self.b.run(reader_b, runs)
        lead: Int = sa - sb
        return (lead,)

    def __call__(self, faces: NDArray[Any]) -> tuple[Int]:
        return self.run(ArrayReader(faces[:, 0, :]), ArrayReader(faces[:, 1, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng), RandomReader(rng), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        won: Bool = result[0] > 0
        return won

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        lead = int(result[0][i])
        return ("a" if lead > 0 else "b" if lead < 0 else None, abs(lead))


class Adjuster:
    """Successes a score adjustment of each tier adds to faces (``best_assignment``).

    The gain depends only on how many dice show each face, capped at 3: a key of 4^6
    values, computed once per key met.
    """

    def __init__(self, scoring: Any) -> None:
        self.scoring = scoring
        self.known: dict[tuple[int, int], int] = {}

    def gains(self, faces: NDArray[np.uint8], tier: int) -> Int:
        from meneur.systems.obscur.depassement import best_assignment

        if faces.shape[1] == 0 or tier == 0:
            return np.zeros(faces.shape[1], dtype=np.int64)
        key = np.zeros(faces.shape[1], dtype=np.int64)
        for face in range(1, 7):
            count = np.minimum((faces == face).sum(axis=0), 3)
            key += count.astype(np.int64) * 4 ** (face - 1)
        unique, inverse = np.unique(key, return_inverse=True)
        values = np.empty(unique.size, dtype=np.int64)
        for i, k in enumerate(unique.tolist()):
            if (k, tier) not in self.known:
                counts = [(k // 4**f) % 4 for f in range(6)]
                self.known[(k, tier)] = best_assignment(counts, tier, self.scoring)[0]
            values[i] = self.known[(k, tier)]
        gains: Int = values[inverse.reshape(-1)]
        return gains
