"""The polynomial engine against the brute force, the previous engine and icepool (T-3..T-9).

Every comparison is between exact laws (``Dist`` of integer weights): equal or not.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meneur.odds import brute_force
from meneur.odds.dist import Dist
from meneur.systems.tunnels import polylaw
from meneur.systems.tunnels.odds import clear_caches, opposed_odds, side_law, test_odds
from meneur.systems.tunnels.polylaw import (
    WHOLE_MEET_FROM,
    always_law,
    always_tail,
    batch_law,
    leaf_law,
    meet_work,
    meets,
)
from meneur.systems.tunnels.rules import (
    LOWEST_SUCCESS,
    POLICIES,
    OpposedParams,
    Policy,
    Side,
    SixesRule,
    TestParams,
    TunnelsOppose,
    TunnelsTest,
    check_policy,
)

from . import reference_odds, reference_polylaw
from .tunnels_icepool import icepool_test_law


def params_strategy(most_dice: int, most_threshold: int) -> st.SearchStrategy[TestParams]:
    return st.builds(
        TestParams,
        dice=st.integers(1, most_dice),
        threshold=st.integers(1, most_threshold),
        blessed=st.booleans(),
        cursed=st.booleans(),
        explode=st.sampled_from(POLICIES),
        sixes=st.sampled_from(("batch", "all")),
    )


@settings(max_examples=60, deadline=None)
@given(params=params_strategy(3, 6))
def test_T5_T6_engine_equals_brute_force(params: TestParams) -> None:
    """T-3..T-8: the engine equals the enumeration of every face of every batch."""
    assert test_odds(params) == brute_force(TunnelsTest(), params)


@settings(max_examples=120, deadline=None)
@given(params=params_strategy(9, 14))
def test_T5_T6_engine_equals_the_previous_engine(params: TestParams) -> None:
    """T-5..T-8: the same exact law as the engine it replaced, every policy and option."""
    assert test_odds(params) == reference_odds.test_odds(params)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("dice", [12, 14])
def test_T6_larger_pools_equal_the_previous_engine(policy: str, dice: int) -> None:
    """T-6: past the six faces (every batch of 7+ dice explodes again) both agree."""
    params = TestParams(dice, dice // 2, explode=policy, sixes="all")  # type: ignore[arg-type]
    assert test_odds(params) == reference_odds.test_odds(params)


@pytest.mark.parametrize("policy", POLICIES)
def test_T5_engine_equals_icepool_past_six_dice(policy: str) -> None:
    """T-5..T-8: 8 dice (a batch always repeats a face) against icepool's multisets."""
    params = TestParams(8, 4, explode=policy)  # type: ignore[arg-type]
    oracle = icepool_test_law(8, 4, lowest=4, policy=policy, rule="batch")
    assert test_odds(params).probabilities() == oracle


@pytest.mark.parametrize("sixes", ["batch", "all"])
@pytest.mark.parametrize("mode", ["normal", "blessed", "cursed"])
@pytest.mark.parametrize("policy", POLICIES)
def test_T5_T8_flint_engine_equals_the_python_integer_engine(
    policy: Policy, mode: str, sixes: SixesRule
) -> None:
    """T-5..T-8: the FLINT engine gives the very integer weights, class by class, of the
    Python-integer engine it replaced, at 18 dice (three batches of 6+ dice at least)."""
    params = TestParams(
        18,
        7,
        blessed=mode == "blessed",
        cursed=mode == "cursed",
        explode=policy,
        sixes=sixes,
    )
    lowest = LOWEST_SUCCESS[params.mode]
    assert side_law(18, 7, lowest, params.sixes, params.explode) == reference_polylaw.side_law(
        params
    )


@pytest.mark.parametrize("sixes", ["batch", "all"])
@pytest.mark.parametrize("mode", ["normal", "blessed", "cursed"])
def test_T5_T6_one_pool_met_in_the_middle_equals_the_chain(mode: str, sixes: SixesRule) -> None:
    """T-5/T-6: one pool's whole ``always`` law met in the middle (``always_law``) has the
    very weights, class by class, of the chain of every smaller pool (``always_tail``),
    at the first pool that meets and past it, in every mode and under both rules of the
    6s; and once the chain is built, ``always_law`` reads it instead."""
    lowest = LOWEST_SUCCESS[mode]
    for dice in (WHOLE_MEET_FROM, WHOLE_MEET_FROM + 5):
        clear_caches()
        assert meets(dice, lowest, sixes)
        met = always_law(dice, lowest, sixes)
        clear_caches()
        chained = always_tail(dice, lowest, sixes)
        assert met == chained
        assert not meets(dice, lowest, sixes) and always_law(dice, lowest, sixes) is chained


@pytest.mark.parametrize("middle", [1, 2, 5, 6, 9, 10])
def test_T5_T6_the_meeting_holds_wherever_the_pool_splits(
    monkeypatch: pytest.MonkeyPatch, middle: int
) -> None:
    """T-5/T-6: the meeting equals the chain whatever the middle, down to the law of 0
    pending dice (fewer than six levels under the middle) and up to the pool itself;
    each step is reported once, ``meet_work`` in all (the command's bar)."""
    monkeypatch.setattr(polylaw, "WHOLE_MEET_FROM", 1)
    monkeypatch.setattr(polylaw, "middle_of", lambda _dice: middle)
    lowest = LOWEST_SUCCESS["normal"]
    clear_caches()
    reported: list[int] = []
    met = always_law(10, lowest, "all", reported.append)
    steps = meet_work(10)  # the levels under the middle in one report, then one a step
    assert reported == ([sum(steps[: middle - 1])] if middle > 1 else []) + steps[middle - 1 :]
    assert len(steps) == middle - 1 + 11 - middle + min(6, middle)
    clear_caches()
    assert met == always_tail(10, lowest, "all")


def test_T5_a_batch_of_n_dice_shows_at_most_six_faces() -> None:
    """T-5: 10 dice show 1 to 6 distinct faces (4 to 9 extra dice), weights by face
    value: ten equal faces are 6 of 6**10; ten dice never all differ."""
    law = batch_law(10, 4, "batch")
    assert set(law) == {1, 2, 3, 4, 5, 6}
    assert sum(sum(p) for p in law[1].values()) == 6
    # one distinct face: ten 1s (ones capped at 3, no success) or ten 6s (ten successes)
    assert law[1][(3, 0)][0] == 1 and law[1][(0, 3)][10] == 1


def test_T7_T8_leaf_law_caps_ones_and_sixes() -> None:
    """T-7/T-8: three 1s and three 6s of 3 dice each weigh 1 of 216 (no explosion)."""
    law = leaf_law(3, LOWEST_SUCCESS["normal"], "batch")
    assert law[(3, 0)] == (1, 0, 0, 0)
    assert law[(0, 3)] == (0, 0, 0, 1)


def test_T6_largest_pool_has_exact_odds() -> None:
    """The declared bound has exact odds (``needed``, a middling threshold): they sum to 1."""
    params = TestParams(TestParams.MAX_DICE, 6)
    law = test_odds(params)
    assert sum(law.probabilities().values()) == 1
    assert law.p_where(lambda k: k[0] >= 6 and not k[2]) > 0


side_strategy = st.builds(
    Side,
    dice=st.integers(1, 3),
    blessed=st.booleans(),
    cursed=st.booleans(),
    explode=st.sampled_from(POLICIES),
)


@settings(max_examples=40, deadline=None)
@given(a=side_strategy, b=side_strategy, sixes=st.sampled_from(("batch", "all")))
def test_T9_opposition_equals_the_previous_engine_and_brute_force(
    a: Side, b: Side, sixes: str
) -> None:
    """T-9 (``needed``: a side explodes while not ahead): equal to both references."""
    params = OpposedParams(a, b, sixes=sixes)  # type: ignore[arg-type]
    law = opposed_odds(params)
    assert law == reference_odds.opposed_odds(params)
    if a.dice + b.dice <= 4:
        assert law == brute_force(TunnelsOppose(), params)


def pairwise_lead(params: OpposedParams) -> Dist[tuple[int, bool, bool, bool, bool]]:
    """The lead of two independent sides by a loop over every pair of success counts
    (the previous engine's way, before the product of polynomials)."""
    laws = [
        side_law(side.dice, 0, LOWEST_SUCCESS[side.mode], params.sixes, side.explode)
        for side in (params.a, params.b)
    ]
    weights: dict[tuple[int, bool, bool, bool, bool], int] = {}
    for (ones_a, sixes_a), poly_a in laws[0].items():
        for (ones_b, sixes_b), poly_b in laws[1].items():
            flags = (sixes_a >= 3, ones_a >= 3, sixes_b >= 3, ones_b >= 3)
            for succ_a, weight_a in enumerate(poly_a):
                for succ_b, weight_b in enumerate(poly_b):
                    key = (succ_a - succ_b, *flags)
                    weights[key] = weights.get(key, 0) + weight_a * weight_b
    return Dist(weights)


@pytest.mark.parametrize(
    ("policy_a", "policy_b"), [("never", "never"), ("always", "always"), ("always", "never")]
)
def test_T9_independent_sides_past_the_needed_bound(policy_a: Policy, policy_b: Policy) -> None:
    """T-9: sides that do not look at each other (``never``, ``always``) have odds past the
    ``needed`` bound (14 dice a side): the product of polynomials equals the pairwise loop."""
    params = OpposedParams(
        Side(16, explode=policy_a), Side(13, blessed=True, explode=policy_b), sixes="all"
    )
    assert opposed_odds(params) == pairwise_lead(params)
    small = OpposedParams(Side(5, explode=policy_a), Side(4, cursed=True, explode=policy_b))
    assert opposed_odds(small) == reference_odds.opposed_odds(small)


PINNED = json.loads((Path(__file__).parent / "pinned_odds.json").read_text())["pins"]


@pytest.mark.parametrize("key", sorted(PINNED))
def test_T3_T8_pinned_odds_at_large_pools(key: str) -> None:
    """T-3..T-8 at 60 dice (needed, never) and 30 (always): the exact probabilities the
    previous engine computed, pinned as fractions of ~2,800 digits."""
    dice, threshold, mode, sixes, policy = key.split(",")
    params = TestParams(
        int(dice),
        int(threshold),
        blessed=mode == "blessed",
        cursed=mode == "cursed",
        explode=check_policy(policy),
        sixes="all" if sixes == "all" else "batch",
    )
    law = test_odds(params)
    assert {
        "success": law.p_where(lambda k: k[0] >= params.threshold and not k[2]),
        "exceptional": law.p_where(lambda k: k[1]),
        "critical": law.p_where(lambda k: k[2]),
    } == {name: Fraction(value) for name, value in PINNED[key].items()}


def test_meet_work_forecasts_the_three_measured_parts_at_60_dice() -> None:
    """The progress bar of one large ``always`` pool (``meet_work``) splits its work as the
    parts were measured at 60 dice (``docs/lab.md``): the chain under the middle 1.0 s, the
    forward pass 1.4 s, the meeting 1.0 s. Each forecast part is within 10% of its measured
    share relative to the chain under the middle."""
    dice = 60
    middle = polylaw.middle_of(dice)
    steps = meet_work(dice)
    assert len(steps) == (middle - 1) + (dice - middle + 1) + 6
    below = sum(steps[: middle - 1])
    forward = sum(steps[middle - 1 : dice])
    meeting = sum(steps[dice:])
    assert Fraction(126, 100) <= Fraction(forward, below) <= Fraction(154, 100)
    assert Fraction(90, 100) <= Fraction(meeting, below) <= Fraction(110, 100)
