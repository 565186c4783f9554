"""Experience (O-40) and acquisition (O-41)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from meneur.errors import RuleError
from meneur.odds import brute_force
from meneur.systems.obscur.acquisition import AcquireParams, price_percent, resolve_acquire
from meneur.systems.obscur.catalog import Kind
from meneur.systems.obscur.checks import AcquireCheck
from meneur.systems.obscur.experience import apply_raise, plan_raise, raise_cost
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.tables import acquisition_table

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"


def test_O40_costs_per_kind() -> None:
    """O-40: a Caractéristique to 3 costs 27, a Compétence to 4 costs 12 (x5, x7, x1 too)."""
    assert raise_cost(Kind.ATTRIBUTE, 2, 3) == 27
    assert raise_cost(Kind.SKILL, 3, 4) == 12
    assert raise_cost(Kind.ABILITY, 1, 2) == 10
    assert raise_cost(Kind.KNOWLEDGE, 0, 1) == 7
    assert raise_cost(Kind.CONTACT, 4, 5) == 5
    assert raise_cost(Kind.ATTRIBUTE, 1, 3) == 18 + 27  # each step pays its new level
    assert raise_cost(Kind.SKILL, 2, 2) == 0
    with pytest.raises(RuleError):
        raise_cost(Kind.SKILL, 3, 2)


def test_O40_spending_vecu_on_a_sheet() -> None:
    """O-40: raising a trait spends Vécu; never more than the sheet has."""
    character = load_character(EXAMPLES / "isaure.json")
    plan = plan_raise(character, "esquive", 4)
    assert (plan.trait, plan.kind, plan.level, plan.cost) == ("Esquive", Kind.ABILITY, 3, 20)
    with pytest.raises(RuleError, match="Vécu"):
        apply_raise(character, plan)
    cheap = plan_raise(character, "Mère Ardoise", 3, contact=True)
    after = apply_raise(character, cheap)
    assert after.sheet.contacts["Mère Ardoise"] == 3
    assert after.resource("vecu").current == 8 - 3
    new = apply_raise(character, plan_raise(character, "Natation", 1))  # a Capacité at 0
    assert new.sheet.abilities["Natation"] == 1 and new.resource("vecu").current == 8 - 5


def test_O41_three_successes_vs_rarity_two_at_140_percent() -> None:
    """O-41: 3 dice with 3 successes vs Rareté 2: available at 140 % of the price."""
    outcome = resolve_acquire(AcquireParams(2, price=Fraction(50)), ((6, 4, 1),))
    assert outcome.availability == 3 and outcome.available
    assert outcome.price_percent == 140 and outcome.price == 70
    assert price_percent(3, 2) == 140
    assert not resolve_acquire(AcquireParams(2), ((6, 1, 1),)).available


def test_O41_exact_availability_odds_and_distance_table() -> None:
    """O-41: P(available) is exact; distance raises the Rareté by a provisional table."""
    check = AcquireCheck()
    params = AcquireParams(2)
    odds = check.odds(params)
    assert odds == brute_force(check, params)
    # 3 dice: P(successes > 2) = 1 - P(0) - P(1) - P(2) = 1 - 1/8 - 1/4 - 7/24
    assert odds.p_where(lambda key: key[1]) == Fraction(1, 3)
    table = acquisition_table()
    assert table.provisional
    assert AcquireParams(2, distance=1).effective_rarity == 2 + table.distance[1].rarity_bonus
    with pytest.raises(RuleError):
        AcquireParams(7)
    with pytest.raises(RuleError):
        AcquireParams(2, distance=len(table.distance))


def test_O41_rarete_distance_and_price_are_taken_at_both_ends() -> None:
    """O-41: a Rareté of 1 to 6, a distance from 0 to the table's last row and a price from
    0 to 10**12 are taken at both ends; one past either end is refused with the bounds."""
    from meneur.errors import LimitError
    from meneur.systems.obscur.acquisition import MAX_PRICE, MAX_RARITY

    last = len(acquisition_table().distance) - 1
    assert MAX_RARITY == 6 and MAX_PRICE == 10**12
    for params in (
        AcquireParams(1),
        AcquireParams(6),
        AcquireParams(2, distance=0),
        AcquireParams(2, distance=last),
        AcquireParams(2, price=Fraction(0)),
        AcquireParams(2, price=Fraction(10**12)),
    ):
        assert 1 <= params.rarity <= 6
    with pytest.raises(RuleError) as low:
        AcquireParams(0)
    assert low.value.params == {"limit": 6, "rarity": 0}
    with pytest.raises(RuleError) as far:
        AcquireParams(2, distance=-1)
    assert far.value.params == {"last": last, "distance": -1}
    for price in (Fraction(-1), Fraction(10**12 + 1)):
        with pytest.raises(LimitError):
            AcquireParams(2, price=price)


def test_O40_a_trait_level_is_0_to_30() -> None:
    """O-40: a raise aims at a level from 0 to 30 (the sheet's bounds), both included:
    to 30 costs 30 x the multiplier, staying at 0 costs nothing, 31 or -1 is refused."""
    from meneur.errors import LimitError
    from meneur.systems.obscur.sheet import MAX_TRAIT

    assert MAX_TRAIT == 30
    assert raise_cost(Kind.SKILL, 29, 30) == 30 * 3
    assert raise_cost(Kind.SKILL, 0, 0) == 0
    for target in (-1, 31):
        with pytest.raises(LimitError):
            raise_cost(Kind.SKILL, 0, target)


def test_O40_vecu_equal_to_the_cost_pays_and_a_contact_is_found_whatever_its_case() -> None:
    """O-40: a raise costing exactly the Vécu left is affordable (one point more is not);
    a Contact already on the sheet is raised from its level whatever the case typed."""
    from meneur.systems.obscur.experience import Raise

    assert Raise("Esquive", Kind.ABILITY, 3, 4, 20, 20).affordable
    assert not Raise("Esquive", Kind.ABILITY, 3, 4, 21, 20).affordable
    character = load_character(EXAMPLES / "isaure.json")
    plan = plan_raise(character, "  mère ardoise ", 3, contact=True)
    assert (plan.trait, plan.kind, plan.level, plan.cost) == ("Mère Ardoise", Kind.CONTACT, 2, 3)


def test_O41_an_acquisition_scores_by_its_availability() -> None:
    """O-41: the higher the Disponibilité, the luckier the roll (not whether the item is
    found): 4 scores 4, 2 scores 2."""
    check = AcquireCheck()
    assert check.score((4, True)) == 4.0 and check.score((2, False)) == 2.0
