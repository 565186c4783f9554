"""The exact distribution type: integer weights, Fraction probabilities, immutable."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meneur.errors import LimitError
from meneur.odds import Dist, brute_force
from meneur.systems.krasses.rules import KrassesTest, TestParams


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


def test_zero_weights_are_allowed_and_dropped() -> None:
    """A zero weight is not an error (only a negative one is): the outcome is not listed."""
    dist = Dist({"a": 1, "b": 0})
    assert dist.outcomes() == ["a"]
    assert dist == Dist.certain("a")
    assert Dist({"a": 0, "b": 3}).total == 1


def test_an_absent_outcome_has_weight_zero_and_chance_zero() -> None:
    d6 = Dist.uniform(range(1, 7))
    assert d6.weight(7) == 0
    assert d6.p(7) == Fraction(0)
    assert d6.weight(3) == 1
    assert 3 in d6
    assert 7 not in d6


def test_repr_shows_the_first_eight_outcomes_then_an_ellipsis() -> None:
    assert repr(Dist.uniform(range(1, 9))) == (
        "Dist({1: 1/8, 2: 1/8, 3: 1/8, 4: 1/8, 5: 1/8, 6: 1/8, 7: 1/8, 8: 1/8})"
    )
    assert repr(Dist.uniform(range(1, 10))) == (
        "Dist({1: 1/9, 2: 1/9, 3: 1/9, 4: 1/9, 5: 1/9, 6: 1/9, 7: 1/9, 8: 1/9, ...})"
    )


def test_K1_brute_force_enumerates_exactly_the_twenty_faces_of_the_d20() -> None:
    """K-1 rolls one d20: brute force visits 20 face sequences, so a limit of 20 is
    enough and a limit of 19 stops it with a LimitError."""
    params = TestParams(bonus=5, difficulty=15)
    exact = brute_force(KrassesTest(), params, max_leaves=20)
    assert exact.p_where(lambda key: key[0]) == Fraction(11, 20)
    with pytest.raises(LimitError):
        brute_force(KrassesTest(), params, max_leaves=19)
