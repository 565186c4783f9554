"""Whole rows of Tunnels' exact grid for ``meneur table`` without explosion, one die
multiplied in at a time (T-3 to T-5, T-7): a die is one of four kinds (a 1, another
failure, a success below 6, a 6); the state keeps the successes, the ones (0-2; three
are a critical failure, dropped) and the sixes (0-3). numpy int64 holds ``6**24``.

Exploding rows come from the verdict tables of :mod:`meneur.systems.tunnels.passlaw`
(the earlier multi-prime ``always`` rows here were slower than those, which every pool
of a grid shares).

Weights are integers over ``6**n`` (exact); cells are :class:`~meneur.lab.grid.ExactCell`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from meneur.lab.fastgrid import INT64_DICE, tail
from meneur.lab.grid import ExactCell, FullRow

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


def tunnels_plain_row(lowest: int, pool: int, thresholds: Sequence[Hashable]) -> FullRow:
    """(success, exceptional, critical) of ``pool`` dice that never explode (T-3 to T-7)."""
    ok, streak = _tunnels_law(lowest, pool)
    total = 6**pool
    critical = total - sum(ok)
    names = ("success", "exceptional", "critical")
    return FullRow(
        ExactCell(names, (w, e, critical), total)
        for w, e in zip(tail(ok, thresholds), tail(streak, thresholds), strict=True)
    )


def clear_caches() -> None:
    """Forget the memoised laws (benchmarks time a cold computation)."""
    _TUNNELS.clear()
