"""Helpers to compare a sampled frequency with an exact probability."""

from __future__ import annotations

import math
from fractions import Fraction


def standard_error(p: float | Fraction, n: int) -> float:
    """The standard error of a frequency over ``n`` independent trials of probability ``p``."""
    value = float(p)
    return math.sqrt(value * (1.0 - value) / n)


def agrees(p: float | Fraction, hits: int, n: int, *, sigmas: float = 4.0) -> bool:
    """Whether ``hits / n`` lies within ``sigmas`` standard errors of ``p``.

    A probability of exactly 0 or 1 must be matched exactly.
    """
    value = float(p)
    if value in (0.0, 1.0):
        return hits == round(value * n)
    return abs(hits / n - value) <= sigmas * standard_error(value, n)


def wilson_interval(hits: int, n: int, *, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a frequency (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    phat = hits / n
    denominator = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denominator
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
