"""Exact odds of the Tunnels test and opposition: pinned fractions, brute force, icepool."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from meneur.errors import LimitError
from meneur.odds import brute_force
from meneur.odds.montecarlo import agrees
from meneur.rng import SeededDice
from meneur.systems.tunnels.odds import clear_caches, opposed_odds, test_odds, winner_odds
from meneur.systems.tunnels.polylaw import batch_law
from meneur.systems.tunnels.rules import (
    POLICIES,
    OpposedParams,
    Side,
    TestParams,
    TunnelsOppose,
    TunnelsTest,
    judge,
)

from .tunnels_icepool import icepool_test_law

TEST = TunnelsTest()
OPPOSE = TunnelsOppose()


def p_success(params: TestParams) -> Fraction:
    return test_odds(params).p_where(lambda k: k[0] >= params.threshold and not k[2])


def test_T3_seed_example_is_one_half() -> None:
    """T-3: Dextérité 3, niveau 2, no explosion: P(success) = 1/2 exactly."""
    assert p_success(TestParams(dice=3, threshold=2, explode="never")) == Fraction(1, 2)


def test_T4_seed_example_blessed_is_twenty_over_twenty_seven() -> None:
    """T-4: blessed, the same test passes with 20/27."""
    assert p_success(TestParams(dice=3, threshold=2, blessed=True, explode="never")) == Fraction(
        20, 27
    )
    cursed = p_success(TestParams(dice=3, threshold=2, cursed=True, explode="never"))
    assert cursed == Fraction(7, 27)
    both = TestParams(dice=3, threshold=2, blessed=True, cursed=True, explode="never")
    assert p_success(both) == Fraction(1, 2)


def test_T5_batch_law_weighs_every_ordered_outcome() -> None:
    """T-5: one batch's law weighs all 6**n ordered faces; n dice show 1..min(n, 6)
    distinct faces, so a batch grants at most n - 1 extra dice."""
    for n in (1, 2, 3, 6, 7, 12):
        law = batch_law(n, 4, "batch")
        assert sum(sum(p) for classes in law.values() for p in classes.values()) == 6**n
        assert set(law) == set(range(1, min(n, 6) + 1))
    # 2 dice: 6 doubles of 36 (one distinct face) grant one die
    assert sum(sum(p) for p in batch_law(2, 4, "batch")[1].values()) == 6


def test_T6_the_three_policies_give_different_odds() -> None:
    """T-6: never, always and needed differ (needed stops at the threshold)."""
    laws = {policy: test_odds(TestParams(4, 3, explode=policy)) for policy in POLICIES}
    success = {p: laws[p].p_where(lambda k: k[0] >= 3 and not k[2]) for p in POLICIES}
    critical = {p: laws[p].p_where(lambda k: k[2]) for p in POLICIES}
    assert len(set(success.values())) == 3
    assert success["never"] < success["needed"]
    assert critical["needed"] < critical["always"]
    assert success["always"] < success["needed"]  # always risks the critical failure


def test_T7_T8_pinned_exact_values() -> None:
    """T-7 / T-8: three 6s in 3 dice is 1/216; three 1s too (no explosion)."""
    law = test_odds(TestParams(3, 1, explode="never"))
    assert law.p_where(lambda k: k[1]) == Fraction(1, 216)
    assert law.p_where(lambda k: k[2]) == Fraction(1, 216)
    # with explosions, a critical failure becomes likelier
    always = test_odds(TestParams(3, 1, explode="always"))
    assert always.p_where(lambda k: k[2]) > Fraction(1, 216)


CASES = [
    TestParams(dice, threshold, blessed=blessed, cursed=cursed, explode=policy, sixes=sixes)
    for dice, threshold in ((1, 1), (2, 2), (3, 1), (3, 3))
    for policy in POLICIES
    for blessed, cursed in ((False, False), (True, False), (False, True))
    for sixes in ("batch", "all")
]


@pytest.mark.parametrize("params", CASES, ids=str)
def test_T5_odds_equal_brute_force(params: TestParams) -> None:
    """T-3..T-8: the exact engine equals enumeration of every face and batch."""
    assert test_odds(params) == brute_force(TEST, params)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("sixes", ["batch", "all"])
@pytest.mark.parametrize(
    ("dice", "threshold", "lowest", "blessed", "cursed"),
    [
        (4, 2, 4, False, False),
        (6, 3, 4, False, False),
        (5, 2, 3, True, False),
        (5, 1, 5, False, True),
    ],
)
def test_T5_odds_equal_icepool(
    policy: str, sixes: str, dice: int, threshold: int, lowest: int, blessed: bool, cursed: bool
) -> None:
    """T-5..T-8: the exact engine equals an independent icepool formulation."""
    params = TestParams(
        dice, threshold, blessed=blessed, cursed=cursed, explode=policy, sixes=sixes
    )  # type: ignore[arg-type]
    oracle = icepool_test_law(dice, threshold, lowest=lowest, policy=policy, rule=sixes)
    assert test_odds(params).probabilities() == oracle


def test_T5_monte_carlo_of_100000_tests_agrees() -> None:
    """T-5/T-6: a seeded Monte Carlo of 10**5 tests lies within 4 standard errors."""
    params = TestParams(5, 3, explode="needed")
    law = test_odds(params)
    source = SeededDice(7)
    n = 100_000
    counts = Counter(TEST.key(TEST.roll(params, [source]).outcome) for _ in range(n))
    for key, p in law.probabilities().items():
        assert agrees(p, counts[key], n, sigmas=4.0), (key, p, counts[key])
    assert set(counts) <= set(law)


OPPOSED = [
    OpposedParams(Side(2, explode="never"), Side(3, explode="needed")),
    OpposedParams(Side(3, explode="needed"), Side(2, explode="needed")),
    OpposedParams(Side(2, blessed=True, explode="always"), Side(2, cursed=True, explode="needed")),
    OpposedParams(Side(2, explode="always"), Side(2, explode="always"), sixes="all"),
]


@pytest.mark.parametrize("params", OPPOSED, ids=str)
def test_T9_opposed_odds_equal_brute_force(params: OpposedParams) -> None:
    """T-9: the opposed engine equals enumeration of every face of both sides."""
    assert opposed_odds(params) == brute_force(OPPOSE, params)


def test_T9_opposed_odds_of_two_single_dice() -> None:
    """T-9: 1 die against 1 die, never exploding: each wins 1/4, tie 1/2 exactly."""
    law = winner_odds(OpposedParams(Side(1, explode="never"), Side(1, explode="never")))
    assert law.p(("a", 1)) == Fraction(1, 4)
    assert law.p(("b", 1)) == Fraction(1, 4)
    assert law.p((None, 0)) == Fraction(1, 2)
    assert judge(1, False, 0, False) == ("a", 1)


def test_params_refuse_pools_past_the_declared_bound() -> None:
    """The one bound on dice (``TestParams.MAX_DICE``) is the params' own."""
    with pytest.raises(LimitError):
        TestParams(TestParams.MAX_DICE + 1, 1)


def test_T5_T6_the_whole_law_is_prepared_smallest_pool_first_with_its_work_reported() -> None:
    """T-5/T-6: ``always`` reads every smaller pool's law; built in order, each level is
    reported (the command's bar) and the law is the one computed without preparing."""
    from meneur.systems.tunnels.odds import prepare_whole_law, whole_law_work

    params = TestParams(dice=22, threshold=4, explode="always")
    clear_caches()
    reported: list[int] = []
    work = whole_law_work(params)
    prepare_whole_law(params, reported.append)  # the first 20 pools together
    assert reported == [sum(pool**5 for pool in range(1, 21)), 21**5, 22**5]
    assert sum(reported) == work
    assert whole_law_work(params) == 0  # built: nothing left to report
    prepare_whole_law(params, reported.append)
    assert len(reported) == 3
    prepared = test_odds(params)
    clear_caches()
    assert test_odds(params) == prepared
    quiet = TestParams(dice=9, threshold=4, explode="never")  # one batch: no bar
    prepare_whole_law(quiet, reported.append)
    assert whole_law_work(quiet) == 0 and len(reported) == 3


def test_T5_T6_one_large_always_pool_meets_in_the_middle_with_its_work_reported() -> None:
    """T-5/T-6: one test of a large ``always`` pool builds its law alone (meeting in the
    middle, no chain of smaller pools), reports each step (``whole_law_work`` in all:
    the command's bar) and gives the law computed through the chain."""
    from meneur.systems.tunnels import polylaw
    from meneur.systems.tunnels.odds import reported_test_odds, whole_law_work

    params = TestParams(polylaw.WHOLE_MEET_FROM + 1, 9, explode="always", cursed=True)
    clear_caches()
    reported: list[int] = []
    work = whole_law_work(params)
    law = reported_test_odds(params, reported.append)
    steps = polylaw.meet_work(params.dice)
    below = polylaw.middle_of(params.dice) - 1  # the levels under the middle: one report
    assert reported == [sum(steps[:below]), *steps[below:]] and sum(reported) == work
    assert not polylaw.meets(below, 5, "batch")  # built below the middle
    assert polylaw.meets(params.dice - 1, 5, "batch")  # not the chain above the middle
    assert whole_law_work(params) == 0  # kept: another threshold reads it at once
    again = TestParams(params.dice, 3, explode="always", cursed=True)
    assert reported_test_odds(again, reported.append) == test_odds(again)
    assert sum(reported) == work
    clear_caches()
    assert whole_law_work(params) == sum(polylaw.meet_work(params.dice))
    polylaw.always_tail(params.dice, 5, "batch")  # the chain first: read, not met again
    assert whole_law_work(params) == 0 and not polylaw.meets(params.dice, 5, "batch")
    assert test_odds(params) == law


def test_T6_the_needed_law_reports_each_level_of_pending_dice() -> None:
    """T-6: ``needed`` keeps nothing between thresholds, so its law is built where it is
    read, one report per level of pending dice (``whole_law_work``), and equals the law
    :func:`test_odds` gives without reporting."""
    from meneur.systems.tunnels.odds import reported_test_odds, whole_law_work

    params = TestParams(dice=9, threshold=7, explode="needed", sixes="all")
    reported: list[int] = []
    law = reported_test_odds(params, reported.append)
    assert reported == [1] * 9 and sum(reported) == whole_law_work(params)
    clear_caches()
    assert law == test_odds(params)


def test_T9_exact_opposition_bounds_are_the_documented_numbers() -> None:
    """T-9 with a ``needed`` side: the bounds odds.py documents, at each edge, one die past
    refused before any work. The whole law: 14 a side, or 4 against up to 30; the walk of
    the margins (and of the lead): 20 a side, or 10 against up to 30; margins read from
    both sides' trajectories: 30 a side, whatever the other."""
    from meneur.systems.tunnels.odds import (
        check_lead_size,
        check_margin_size,
        check_opposed_size,
        check_walk_size,
    )

    needed, beside_always = ("needed", "needed"), ("needed", "always")
    walk_in, walk_out = [(20, 20), (10, 30), (30, 10)], [(21, 20), (20, 21), (11, 30), (10, 31)]
    cases = [
        (check_opposed_size, needed, [(14, 14), (4, 30), (30, 4)], [(15, 14), (5, 30), (4, 31)]),
        (check_walk_size, needed, walk_in, walk_out),
        (check_lead_size, needed, walk_in, walk_out),
        (check_margin_size, beside_always, walk_in, walk_out),
        (check_margin_size, needed, [(30, 30), (30, 1), (1, 30)], [(31, 1), (1, 31), (31, 31)]),
    ]
    for check, policies, inside, outside in cases:
        for dice_a, dice_b in inside:
            check(dice_a, dice_b, policies)
        for dice_a, dice_b in outside:
            with pytest.raises(LimitError):
                check(dice_a, dice_b, policies)


def test_T9_an_opposition_is_prepared_side_by_side_with_its_work_reported() -> None:
    """T-6, T-9: before who wins, ``prepare_opposition`` builds the whole law of the
    largest ``always`` pool of each mode (the chain of pools 1 to n, each about p**5, the
    first 20 told together) and the trajectory of each ``needed`` side (3 dice: the
    squares of 6 - p(p+1)/2 + p for 3, 2, 1 pending dice: 9, 25, 36); it reports them in
    that order, ``opposition_work`` in all."""
    from meneur.systems.tunnels.odds import opposition_work, prepare_opposition

    chain = [sum(p**5 for p in range(1, n + 1)) for n in range(6)]  # 0, 1, 33, 276, ...
    cases = [
        (OpposedParams(Side(5, explode="always"), Side(3, explode="always")), [chain[5]]),
        (OpposedParams(Side(2, explode="always"), Side(3)), [chain[2], 9, 25, 36]),
        (
            OpposedParams(Side(3, explode="always"), Side(2, blessed=True, explode="always")),
            [chain[3], chain[2]],
        ),
    ]
    assert chain[5] == 1 + 32 + 243 + 1024 + 3125
    for params, expected in cases:
        clear_caches()
        work = opposition_work(params)
        reported: list[int] = []
        prepare_opposition(params, reported.append)
        assert (reported, work) == (expected, sum(expected)), params


def test_T9_the_law_of_the_lead_leaves_the_three_sixes_out() -> None:
    """T-7, T-9: ``margin_lead`` keys the lead and the criticals with every flag of three
    6s false, though 3 dice never exploding show three 6s (1/216 a side); a ``needed``
    side of 15 against 5 is past the whole law's bound (14, or 4 against 30) but within
    the lead's (20), and who wins read from it equals the trajectories' reading."""
    from meneur.systems.tunnels.odds import margin_lead, who_wins

    plain = OpposedParams(Side(3, explode="never"), Side(3, explode="never"))
    assert opposed_odds(plain).p_where(lambda k: k[1] or k[3]) > 0
    assert margin_lead(plain).p_where(lambda k: k[1] or k[3]) == 0
    wide = OpposedParams(Side(15), Side(5))
    lead = margin_lead(wide)
    judged = lead.map(lambda k: judge(max(k[0], 0), k[2], max(-k[0], 0), k[4])[0])
    assert (judged.p("a"), judged.p("b"), judged.p(None)) == who_wins(wide)


@pytest.mark.parametrize("explode", ["never", "always", "needed"])
def test_T3_T8_a_row_of_thresholds_reads_each_as_the_whole_law_does(explode: str) -> None:
    """T-3, T-7, T-8: ``pass_row`` cuts one table above the largest threshold it is given
    (its cap left to it): each threshold's success, exceptional success and critical
    failure equal the whole law's at that threshold (4 dice, thresholds 1, 5 and 3, in
    that order; T-6 ``needed`` explodes while short of each)."""
    from meneur.systems.tunnels.odds import pass_row

    params = TestParams(4, 1, explode=explode)  # type: ignore[arg-type]
    for threshold, weights in zip((1, 5, 3), pass_row(params, (1, 5, 3)), strict=True):
        law = test_odds(TestParams(4, threshold, explode=explode))  # type: ignore[arg-type]
        passed = law.p_where(lambda k, t=threshold: k[0] >= t and not k[2])
        exceptional = law.p_where(lambda k, t=threshold: k[0] >= t and k[1] and not k[2])
        assert Fraction(weights.success, weights.total) == passed, threshold
        assert Fraction(weights.exceptional, weights.total) == exceptional, threshold
        assert Fraction(weights.critical, weights.total) == law.p_where(lambda k: k[2])


@pytest.mark.parametrize("threshold", [16, 32])
def test_T6_one_query_at_a_threshold_on_the_cap_step_meets_the_tables_exactly(
    threshold: int,
) -> None:
    """T-6 ``needed``, 16 dice (one query meets in the middle from there): a threshold
    that is a multiple of the tables' cap step (16) must still cut them above itself; the
    verdicts equal those of one table read whole (``pass_row``), exactly."""
    from meneur.systems.tunnels.odds import pass_odds, pass_row

    params = TestParams(16, threshold, explode="needed")
    met, whole = pass_odds(params), pass_row(params, (threshold,))[0]
    for field in ("success", "exceptional", "critical"):
        assert getattr(met, field) * whole.total == getattr(whole, field) * met.total, field
