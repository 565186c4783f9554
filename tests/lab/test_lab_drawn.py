"""Tunnels tests drawn five dice at a time: the same law as the exact odds (T-3 to T-8)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meneur.lab.simulate import run_chunks
from meneur.systems.tunnels.lab import tunnels_test_chunk
from meneur.systems.tunnels.vector import _PRESENCE, _TABLES, group_tables


def test_group_tables_sum_the_dice() -> None:
    """Outcome ``code`` of ``k`` dice is faces ``code % 6 + 1``, ``code // 6 % 6 + 1``..."""
    for lowest in (3, 4, 5):
        for k in (1, 2, 5):
            packed, presence = group_tables(lowest, k)
            for code in (0, 1, 6**k - 1, (6**k // 2 + 3) % 6**k):
                faces = [(code // 6**i) % 6 + 1 for i in range(k)]
                assert packed[code] == sum(int(_TABLES[lowest][f]) for f in faces)
                bits = 0
                for f in faces:
                    bits |= int(_PRESENCE[f])
                assert presence[code] == bits


@pytest.mark.parametrize(
    ("dice", "threshold", "explode", "sixes", "mode"),
    [
        (5, 3, "always", "batch", "normal"),
        (5, 3, "needed", "all", "normal"),
        (12, 6, "needed", "all", "blessed"),
        (8, 9, "always", "batch", "cursed"),
        (3, 2, "never", "batch", "normal"),
    ],
)
def test_T6_drawn_tests_agree_with_exact_odds(
    dice: int, threshold: int, explode: str, sixes: str, mode: str
) -> None:
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams

    params = TestParams(
        dice=dice,
        threshold=threshold,
        explode=explode,  # type: ignore[arg-type]
        sixes=sixes,  # type: ignore[arg-type]
        blessed=mode == "blessed",
        cursed=mode == "cursed",
    )
    runs = 400_000
    tally = run_chunks(runs, tunnels_test_chunk(params), seed=dice, progress=False)
    law = test_odds(params)
    for key, exact in (
        ("passed", law.p_where(lambda k: k[0] >= threshold and not k[2])),
        ("exceptional", law.p_where(lambda k: k[1])),
        ("critical", law.p_where(lambda k: k[2])),
    ):
        p = float(exact)
        rate = tally.counts[key] / runs
        assert abs(rate - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-9) / runs), key
    assert np.isfinite(tally.seconds)
