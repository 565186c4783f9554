"""Exact odds (L-8, L-11): pinned fractions, brute force, and icepool as an oracle."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meneur.odds import brute_force
from meneur.systems.legendes.odds import help_odds, opposed_odds
from meneur.systems.legendes.rules import (
    OUTCOME_KEYS,
    HelpParams,
    LegendesAid,
    LegendesTest,
    OpposedParams,
    band_of,
    help_effect,
    outcome_key,
)

THREE_VS_TWO = {
    "win:definitive": Fraction(791, 2592),
    "win:partial": Fraction(505, 2592),
    "win:advantage": Fraction(505, 2592),
    "win:cosmetic": Fraction(217, 2592),
    "tie": Fraction(15, 216),
    "loss:cosmetic": Fraction(35, 648),
    "loss:advantage": Fraction(85, 1296),
    "loss:partial": Fraction(49, 1944),
    "loss:definitive": Fraction(7, 972),
}


def _key(difference: int) -> str:
    band = band_of(difference)
    if band == "tie":
        return "tie"
    return outcome_key("pc" if difference > 0 else "opposition", band)


def test_L8_three_vs_two_pinned() -> None:
    """L-8: 3d6 vs 2d6, every band exact; P(tie) = 15/216; they sum to 1."""
    dist = opposed_odds(OpposedParams(dice=3, vs_dice=2))
    assert {key: dist.p(key) for key in OUTCOME_KEYS} == THREE_VS_TWO
    assert dist.p("tie") == Fraction(15, 216)
    assert sum(THREE_VS_TWO.values()) == 1


def test_L8_three_vs_two_by_hand_enumeration() -> None:
    """L-8: the same odds by listing all 6^5 faces, with no code of ours but band_of."""
    counts: dict[str, int] = {}
    for faces in itertools.product(range(1, 7), repeat=5):
        key = _key(sum(faces[:3]) - sum(faces[3:]))
        counts[key] = counts.get(key, 0) + 1
    assert {k: Fraction(v, 6**5) for k, v in counts.items()} == THREE_VS_TWO


def test_L8_three_vs_two_equals_brute_force() -> None:
    """L-8: the fast engine equals brute force through resolve."""
    params = OpposedParams(dice=3, vs_dice=2)
    assert opposed_odds(params) == brute_force(LegendesTest(), params)


def _icepool_opposed(params: OpposedParams) -> dict[str, Fraction]:
    mine = params.pc_dice @ icepool.d6 + params.pc_bonus
    theirs = params.opposition_dice @ icepool.d6 + params.opposition_bonus
    die = (mine - theirs).map(_key)
    return {str(k): Fraction(die.probability(k)) for k in die.outcomes()}


@settings(max_examples=60, deadline=None)
@given(
    dice=st.integers(0, 6),
    vs_dice=st.integers(0, 5),
    modifier=st.sampled_from([-2, 0, 2]),
    weakness=st.booleans(),
    regret=st.integers(0, 2),
    motivation=st.booleans(),
    spend=st.integers(0, 2),
    wound=st.sampled_from(["none", "light", "grave"]),
    bonus=st.integers(0, 2),
    vs_light=st.booleans(),
)
def test_L6_L7_L12_L13_any_modifier_equals_icepool(
    dice: int, vs_dice: int, modifier: int, weakness: bool, regret: int, motivation: bool,
    spend: int, wound: str, bonus: int, vs_light: bool,
) -> None:  # fmt: skip
    """L-6, L-7, L-12, L-13: any dice, any opposition, any modifier: exact = icepool."""
    params = OpposedParams(
        dice=dice, vs_dice=vs_dice, modifier=modifier, weakness=weakness, regret=regret,
        motivation=motivation, spend=spend, light_wound=wound == "light",
        grave_wound=wound == "grave", bonus=bonus, vs_light_wound=vs_light,
    )  # fmt: skip
    assert opposed_odds(params).probabilities() == _icepool_opposed(params)


@pytest.mark.parametrize(("dice", "vs_dice"), [(3, 3), (2, 1), (1, 3), (0, 2), (3, 0)])
def test_L8_small_pools_equal_brute_force(dice: int, vs_dice: int) -> None:
    """L-8: brute force and the engine agree on small pools, with a circumstance."""
    params = OpposedParams(dice=dice, vs_dice=vs_dice, modifier=-2)
    exact = opposed_odds(params)
    assert exact == brute_force(LegendesTest(), params)
    assert sum(exact.probabilities().values()) == 1


def test_L8_large_pools_are_fast_and_sum_to_one() -> None:
    """L-8: 30 dice against 30 is exact and immediate (no enumeration of faces)."""
    dist = opposed_odds(OpposedParams(dice=30, vs_dice=30))
    assert sum(dist.probabilities().values()) == 1
    assert dist.p("win:definitive") == dist.p("loss:definitive")


@pytest.mark.parametrize(
    ("helper", "helped", "modifier"), [(3, 2, 0), (2, 2, 2), (1, 3, -2), (2, 0, 0)]
)
def test_L11_help_odds_equal_brute_force_and_icepool(
    helper: int, helped: int, modifier: int
) -> None:
    """L-11: exact odds of each help result = brute force = icepool."""
    params = HelpParams(helper_dice=helper, helped_dice=helped, modifier=modifier)
    exact = help_odds(params)
    assert exact == brute_force(LegendesAid(), params)
    die = ((helper @ icepool.d6 + modifier) - (helped @ icepool.d6)).map(help_effect)
    assert exact.probabilities() == {str(k): Fraction(die.probability(k)) for k in die.outcomes()}


@pytest.mark.parametrize(
    ("helped", "wound", "pool", "penalty"),
    [(2, "light", 2, 2), (3, "grave", 2, 0), (1, "grave", 0, 0), (2, "none", 2, 0)],
)
def test_L11_L13_help_odds_with_a_wounded_helped_hero_equal_brute_force_and_icepool(
    helped: int, wound: str, pool: int, penalty: int
) -> None:
    """L-11, L-13: the helped hero's wound weighs on their side of the help roll (−2 for a
    light wound, a die less for a grave one): exact odds = brute force = icepool."""
    params = HelpParams(helper_dice=2, helped_dice=helped, helped_wound=wound)  # type: ignore[arg-type]
    exact = help_odds(params)
    assert exact == brute_force(LegendesAid(), params)
    die = ((2 @ icepool.d6) - (pool @ icepool.d6 - penalty)).map(help_effect)
    assert exact.probabilities() == {str(k): Fraction(die.probability(k)) for k in die.outcomes()}
    assert sum(exact.probabilities().values()) == 1


def test_L11_help_odds_pinned() -> None:
    """L-11: 3 dice helping 2: +1 die with probability 791/2592."""
    dist = help_odds(HelpParams(helper_dice=3, helped_dice=2))
    assert dist.p("extra_die") == Fraction(791, 2592)
    assert dist.p("none") == Fraction(197, 1296)
