"""Who wins an opposition of ``needed`` sides from their trajectories (T-8, T-9).

:mod:`meneur.systems.tunnels.chase` reads the winner from each side's own laws, where
the joint walk (:func:`~meneur.systems.tunnels.odds.opposed_odds`, itself checked against
the dict walk and brute force) follows both sides together. Both are exact: they agree
fraction for fraction wherever the walk runs, and the chase goes on to 60 dice a side.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from meneur.systems.tunnels import chase
from meneur.systems.tunnels.odds import who_wins, winner_odds
from meneur.systems.tunnels.rules import OpposedParams, Policy, SixesRule

from .test_tunnels_opposed import (
    PINNED_14_DENOMINATOR,
    PINNED_14_NUMERATOR,
    opposition,
)

CHASING_PAIRS: list[tuple[Policy, Policy]] = [
    ("needed", "needed"),
    ("needed", "never"),
    ("never", "needed"),
]
MODE_PAIRS = [("normal", "normal"), ("blessed", "cursed"), ("cursed", "normal")]


def walked(params: OpposedParams) -> tuple[Fraction, Fraction, Fraction]:
    law = winner_odds(params)
    return (
        law.p_where(lambda k: k[0] == "a"),
        law.p_where(lambda k: k[0] == "b"),
        law.p_where(lambda k: k[0] is None),
    )


def chased(params: OpposedParams) -> tuple[Fraction, Fraction, Fraction]:
    win, loss, tie, total = chase.verdicts(params)
    return Fraction(win, total), Fraction(loss, total), Fraction(tie, total)


@pytest.mark.parametrize("rule", ["batch", "all"])
@pytest.mark.parametrize("policies", CHASING_PAIRS, ids="-".join)
def test_T9_T8_who_wins_from_the_trajectories_equals_the_joint_walk(
    policies: tuple[Policy, Policy], rule: SixesRule
) -> None:
    """T-9 (a ``needed`` side explodes while not ahead; on a tie a's batch, then b's with
    no choice) and T-8 (three 1s among the dice rolled lose, both: nobody wins), 1 to 6
    dice a side in three pairs of modes: the same three exact chances as the joint walk.
    These pools hold every case the reading has: criticals at the same level and rank
    (the tie by b's forced batch), at the same level but a later rank (3 dice against 2
    first differs when ranks are ignored), and no critical at all."""
    for dice_a, dice_b in product(range(1, 7), range(1, 7)):
        for mode_a, mode_b in MODE_PAIRS:
            params = opposition(dice_a, mode_a, policies[0], dice_b, mode_b, policies[1], rule)
            assert chased(params) == walked(params), params


def test_T9_who_wins_equals_the_joint_walk_on_larger_unequal_sides() -> None:
    """T-9: 10 blessed dice against 9, and 9 cursed against 11, both ``needed``."""
    for params in (
        opposition(10, "blessed", "needed", 9, "normal", "needed", "batch"),
        opposition(9, "cursed", "needed", 11, "normal", "needed", "all"),
    ):
        assert chased(params) == walked(params)


def test_T9_who_wins_equals_the_joint_walk_of_a_small_side_against_a_large_one() -> None:
    """T-9 past 14 dice where the joint walk still goes (a small side against a large
    one): 20 cursed dice against 3, and 2 blessed against 24, both ``needed``."""
    for params in (
        opposition(20, "cursed", "needed", 3, "normal", "needed", "batch"),
        opposition(2, "blessed", "needed", 24, "normal", "needed", "all"),
    ):
        assert chased(params) == walked(params)


def test_T9_who_wins_at_14_equals_the_pinned_joint_walk() -> None:
    """T-9 at 14 dice a side, both ``needed``: the chance pinned from the dict walk (~80 s
    there), read here from the trajectories in milliseconds."""
    win, loss, _tie = chased(opposition(14, "normal", "needed", 14, "normal", "needed", "batch"))
    assert win == Fraction(PINNED_14_NUMERATOR, PINNED_14_DENOMINATOR) == loss


def test_T9_who_wins_past_the_walk_bound_at_30_dice() -> None:
    """T-9 where the joint walk does not go (30 a side, and 30 against 12): the three
    chances add up to 1; equal sides win alike (as at 14, pinned above); a critical
    failure (T-8) is near certain with 30 dice, so nobody wins most often; the sixes rule
    (T-7) changes nothing in who wins."""
    even = who_wins(opposition(30, "normal", "needed", 30, "normal", "needed", "batch"))
    assert sum(even) == 1 and even[0] == even[1] and even[2] > Fraction(1, 2)
    params = opposition(30, "normal", "needed", 12, "normal", "needed", "batch")
    lopsided = who_wins(params)
    assert sum(lopsided) == 1
    assert lopsided[1] > lopsided[0]  # 30 dice draw three 1s far more often than 12
    assert who_wins(opposition(30, "normal", "needed", 12, "normal", "needed", "all")) == lopsided


def test_T9_who_wins_reads_each_pairing_its_own_way() -> None:
    """T-9: ``always`` beside ``needed`` rolls ahead of its level while the other
    catches up, so who wins keeps the joint walk (and its bound); independent sides read
    two sums; each equals the joint walk's answer."""
    for policies in (("needed", "always"), ("always", "never"), ("never", "never")):
        params = opposition(4, "normal", policies[0], 3, "cursed", policies[1], "batch")
        assert who_wins(params) == walked(params)


def test_T9_a_side_of_one_batch_and_the_side_memory() -> None:
    """A ``never`` side's trajectory is its first batch: its total is that batch's
    successes, its critical level -1 or none. The sides kept are the most recent
    ``MEMO``."""
    one = chase.side(5, 4, "never")
    assert one.total == 6**5 and len(one.critical) == 1
    assert sum(one.calm) + sum(one.critical[0]) == one.total
    many = chase.side(9, 4, "needed")
    assert sum(many.calm) + sum(map(sum, many.critical)) == many.total
    chase.clear_caches()
    keys = [(dice, lowest) for dice in range(1, 23) for lowest in (3, 4, 5)]
    assert len(keys) > chase.MEMO
    for dice, lowest in keys:
        chase.side(dice, lowest, "never")
    assert len(chase._SIDES) == chase.MEMO
    assert (22, 5, "never") in chase._SIDES and (1, 3, "never") not in chase._SIDES
