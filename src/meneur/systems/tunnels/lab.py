"""What the lab simulates of Tunnels beyond a check: spending Chance (T-12).

The chunks plug into the lab's generic runner (:func:`meneur.lab.policies.compare_policies`);
the dice rules they use are the system's numpy forms (:mod:`.vector`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meneur.lab.policies import Chunk
from meneur.lab.simulate import Tally
from meneur.vector import RandomReader

SPENDING_POLICIES = ("never", "one-die", "all-failed")
"""When to spend Chance, the first one spending nothing (the reference)."""


def chance_chunk(params: Any, points: int, policy: str) -> Chunk:
    """One chunk of tests under a Chance ``policy`` with ``points`` to spend (T-12)."""
    from meneur.systems.tunnels.vector import tunnels_chance

    def one(rng: np.random.Generator, size: int) -> Tally:
        spend = 0 if policy == "never" else points
        passed, spent = tunnels_chance(
            RandomReader(rng), RandomReader(rng), size, params, spend, policy == "all-failed"
        )
        return Tally(
            runs=size,
            counts={"success": int(passed.sum()), "spent": int(spent.sum())},
        )

    return one
