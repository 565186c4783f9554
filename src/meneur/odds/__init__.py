"""Exact odds: the :class:`Dist` value type and the engine shared by every system."""

from meneur.odds.dist import Dist
from meneur.odds.enumerate import brute_force

__all__ = ["Dist", "brute_force"]
