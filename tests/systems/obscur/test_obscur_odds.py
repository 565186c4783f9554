"""The exact odds engine against icepool (an independent exact oracle) and brute force."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from meneur.odds import brute_force
from meneur.systems.obscur.checks import TestCheck as Check
from meneur.systems.obscur.depassement import PushPlan
from meneur.systems.obscur.odds import summary
from meneur.systems.obscur.rules import TestParams as Params
from meneur.systems.obscur.scoring import Scoring


def icepool_successes(
    n: int, values: tuple[int, ...], reroll_up_to: int = 0
) -> dict[int, Fraction]:
    die = icepool.d6
    if reroll_up_to:
        die = die.reroll(lambda face: face <= reroll_up_to, depth=1)
    scored = die.map(lambda face: values[face - 1])
    total = n @ scored
    return {
        int(s): Fraction(total.probability(s)) for s in total.outcomes() if total.probability(s)
    }


@pytest.mark.parametrize("n", [1, 2, 3, 7, 15, 40])
@pytest.mark.parametrize("scoring", list(Scoring))
def test_O2_O5_O6_successes_equal_icepool(n: int, scoring: Scoring) -> None:
    """O-2, O-5, O-6: the distribution of successes for pools up to 40 dice equals icepool's."""
    params = Params(
        n,
        zero_skill=scoring in (Scoring.ZERO_SKILL, Scoring.ZERO_BOTH),
        zero_attribute=scoring in (Scoring.ZERO_ATTRIBUTE, Scoring.ZERO_BOTH),
    )
    _, figures = summary(params)
    assert figures["successes"] == icepool_successes(n, scoring.values)


@pytest.mark.parametrize(("n", "tier"), [(2, 1), (5, 2), (12, 3), (40, 1)])
def test_O10_reroll_odds_equal_icepool(n: int, tier: int) -> None:
    """O-10: a reroll tier makes each die an independent 'reroll once' die (icepool's reroll)."""
    _, figures = summary(Params(n, push=PushPlan(reroll=tier)))
    assert figures["successes"] == icepool_successes(n, Scoring.NORMAL.values, tier)
    assert figures["p_fumble"] == Fraction(tier, 36) ** n


@pytest.mark.parametrize(
    "params",
    [
        Params(4, difficulty=3),
        Params(3, modifier=1, zero_skill=True),
        Params(1, modifier=-1),
        Params(4, difficulty=0, tally=True),
    ],
)
def test_O8_odds_equal_brute_force(params: Params) -> None:
    """O-8: the engine equals brute force over every face sequence."""
    check = Check()
    assert check.odds(params) == brute_force(check, params)


def test_O8_success_probability_at_difficulty() -> None:
    """O-8: P(success) at difficulty D sums the tail of the distribution."""
    _, figures = summary(Params(3, difficulty=2))
    assert figures["p_success"] == 1 - Fraction(1, 8) - Fraction(1, 4)
    _, figures = summary(Params(40, difficulty=30))
    expected = sum(p for s, p in icepool_successes(40, Scoring.NORMAL.values).items() if s >= 30)
    assert figures["p_success"] == expected
