"""What the lab simulates of Légendes beyond a check: motivation (L-12) in a conflict.

Never; ``early`` spends a point (+1 die) on every roll while points last; ``wounded``
only once the hero is wounded; ``finish`` only once the opposition is wounded.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meneur.lab.policies import Chunk
from meneur.lab.simulate import Tally

SPENDING_POLICIES = ("never", "early", "wounded", "finish")
"""When to spend motivation, the first one spending nothing (the reference)."""


def motivation_chunk(conflict: Any, points: int, policy: str) -> Chunk:
    """One chunk of conflicts under a motivation ``policy`` with ``points`` (L-12)."""
    from meneur.lab.simulate import legendes_conflicts

    def one(rng: np.random.Generator, size: int) -> Tally:
        tally = legendes_conflicts(conflict, rng, size, motivation=points, policy=policy)
        tally.counts["success"] = tally.counts.get("won", 0)
        return tally

    return one
