"""The exact distribution type: integer weights, Fraction probabilities, immutable."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meneur.odds import Dist


def test_d6_sum_of_two() -> None:
    d6 = Dist.uniform(range(1, 7))
    two = d6.combine(d6, lambda a, b: a + b)
    assert two.p(7) == Fraction(1, 6)
    assert two.p(2) == Fraction(1, 36)
    assert sum(two.probabilities().values()) == 1


def test_weights_are_reduced_so_equal_distributions_compare_equal() -> None:
    assert Dist({"a": 2, "b": 2}) == Dist({"a": 1, "b": 1})
    assert Dist.from_fractions({"a": Fraction(1, 3), "b": Fraction(2, 3)}) == Dist({"a": 1, "b": 2})


def test_map_and_bind() -> None:
    d6 = Dist.uniform(range(1, 7))
    assert d6.map(lambda f: f >= 4).p(True) == Fraction(1, 2)
    rerolled_ones = d6.bind(lambda f: d6 if f == 1 else Dist.certain(f))
    assert rerolled_ones.p(1) == Fraction(1, 36)
    assert rerolled_ones.p(6) == Fraction(7, 36)
    assert d6.p_where(lambda f: f > 4) == Fraction(1, 3)


def test_invalid_distributions() -> None:
    with pytest.raises(ValueError):
        Dist({})
    with pytest.raises(ValueError):
        Dist({"a": -1})
