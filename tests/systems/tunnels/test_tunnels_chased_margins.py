"""(winner, margin) of ``needed`` oppositions read from the sides' trajectories (T-8 to T-10).

:mod:`meneur.systems.tunnels.margins` sums, level by level, how the winner first gets
past the loser's total or past the level of the loser's critical batch. It must equal,
fraction for fraction, enumeration of every face on the tiniest pools and the joint
walk (``odds.margin_lead``, read by ``judge``) wherever that runs; past it, who wins
must equal the other trajectory reading (``chase``) and the margins seeded rolls.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from meneur.odds import brute_force
from meneur.odds.dist import Dist
from meneur.systems.tunnels import margins
from meneur.systems.tunnels.odds import (
    MAX_CHASED_MARGIN_DICE,
    MAX_MARGIN_DICE,
    MAX_MARGIN_SMALL_SIDE,
    MAX_OPPOSED_WIDE_DICE,
    margin_lead,
    who_wins,
    winner_odds,
)
from meneur.systems.tunnels.rules import OpposedParams, Policy, TunnelsOppose, judge

from .test_tunnels_margins import assert_margins_agree_with_rolls, by_winner
from .test_tunnels_opposed import opposition

CHASED: list[tuple[Policy, Policy]] = [
    ("needed", "needed"),
    ("needed", "never"),
    ("never", "needed"),
]
MODE_PAIRS = [("normal", "normal"), ("blessed", "cursed"), ("cursed", "blessed")]

Shares = dict[tuple[str | None, int], Fraction]


def chased(params: OpposedParams) -> Shares:
    weights, total = margins.margin_weights(params)
    assert sum(weights.values()) == total
    assert all(weight > 0 for weight in weights.values())
    return {key: Fraction(weight, total) for key, weight in weights.items()}


def judged(law: Dist[tuple[int, bool, bool, bool, bool]]) -> Shares:
    """(winner, margin) read from a law of (lead, flags) by the rules' ``judge``."""
    read = law.map(lambda k: judge(max(k[0], 0), k[2], max(-k[0], 0), k[4]))
    return {key: Fraction(weight, read.total) for key, weight in read.items()}


@pytest.mark.parametrize("policies", CHASED, ids="-".join)
def test_T8_T9_T10_chased_margins_equal_enumeration_of_every_face(
    policies: tuple[Policy, Policy],
) -> None:
    """T-9/T-10 on the tiniest pools, normal and blessed against cursed: every face of
    every batch of both sides enumerated and each opposition judged by the rules."""
    for dice_a, dice_b in ((1, 1), (1, 2), (2, 1), (2, 2), (3, 1)):
        for mode_a, mode_b in (("normal", "normal"), ("blessed", "cursed")):
            params = opposition(dice_a, mode_a, policies[0], dice_b, mode_b, policies[1], "batch")
            assert chased(params) == judged(brute_force(TunnelsOppose(), params)), params


@pytest.mark.parametrize("policies", CHASED, ids="-".join)
def test_T8_T9_T10_chased_margins_equal_the_joint_walk(policies: tuple[Policy, Policy]) -> None:
    """T-8/T-9/T-10: every pair of pools from 1 to 9 dice, three pairs of modes (T-4):
    the trajectories give the joint walk's law of (winner, margin), every fraction
    (critical failures, ranks of batches without a success at one level, the first
    batches, ties)."""
    for dice_a, dice_b in product(range(1, 10), range(1, 10)):
        for mode_a, mode_b in MODE_PAIRS:
            params = opposition(dice_a, mode_a, policies[0], dice_b, mode_b, policies[1], "batch")
            assert chased(params) == judged(margin_lead(params)), params


def test_T9_T10_chased_margins_at_the_joint_walks_bounds() -> None:
    """The joint walk's edges (``MAX_MARGIN_DICE`` a side, ``MAX_OPPOSED_WIDE_DICE``
    against ``MAX_MARGIN_SMALL_SIDE``): the same law, where criticals are frequent (20
    dice) and with a cursed side."""
    for params in (
        opposition(
            MAX_MARGIN_DICE, "normal", "needed", MAX_MARGIN_DICE, "normal", "needed", "batch"
        ),
        opposition(
            MAX_OPPOSED_WIDE_DICE,
            "normal",
            "needed",
            MAX_MARGIN_SMALL_SIDE,
            "cursed",
            "needed",
            "all",
        ),
    ):
        assert chased(params) == judged(margin_lead(params))


def test_T9_T10_two_needed_dice_against_one_die_pinned_by_hand() -> None:
    """T-5/T-8/T-9/T-10 by hand: 2 dice (``needed``) against 1 die (``never``).

    a wins by 2 only with two successes against b's failure: 1/4 * 1/2 = 1/8. a wins
    by 1 with two successes against one (1/8), one against none (1/2 * 1/2 = 1/4; a
    success and a failure are never a double), or two failures that are a double (1/3
    of them) against b's failure, then a success on the extra die (1/4 * 1/3 * 1/2 *
    1/2 = 1/48): 19/48. b wins by 1 when a's two failures meet b's success and a does
    not catch up (1/8 * (2/3 + 1/3 * 1/2) = 5/48), or when a's double of 1s meets b's
    failure and the extra die is a third 1 (T-8: 1/4 * 1/2 * 1/9 * 1/6 = 1/432):
    23/216. Nobody wins in the 161/432 left."""
    law = winner_odds(opposition(2, "normal", "needed", 1, "normal", "never", "batch"))
    assert {key: law.p(key) for key in law} == {
        ("a", 2): Fraction(1, 8),
        ("a", 1): Fraction(19, 48),
        ("b", 1): Fraction(23, 216),
        (None, 0): Fraction(161, 432),
    }


def test_T9_T10_chased_margins_past_the_joint_walk_agree_with_rolls() -> None:
    """Past the joint walk (``MAX_CHASED_MARGIN_DICE`` against 12, both ``needed``): who
    wins summed from the margins equals ``chase``'s reading, and every (winner, margin)
    above 0.5 % agrees with 100,000 seeded rolls of the vectorised opposition (within 4
    standard errors)."""
    params = opposition(MAX_CHASED_MARGIN_DICE, "normal", "needed", 12, "normal", "needed", "batch")
    law = winner_odds(params)
    assert by_winner(law) == who_wins(params)
    assert_margins_agree_with_rolls(params, law, 100_000, seed=30)


@pytest.mark.parametrize("policy", ["needed", "never"])
def test_T9_the_margins_walk_builds_the_same_sides_as_who_wins(policy: Policy) -> None:
    """The margins' walk of a trajectory builds the side that who wins reads in the same
    pass (``chase.Laws``): it must equal the side built on its own."""
    from meneur.systems.tunnels import chase
    from meneur.systems.tunnels.odds import clear_caches

    keys = [(9, 4, policy), (7, 5, "needed"), (6, 3, "needed")]
    clear_caches()
    for key in keys:
        margins.trajectory(*key)
    walked = {key: chase.side(*key) for key in keys}
    clear_caches()
    assert {key: chase.side(*key) for key in keys} == walked


def test_T9_the_trajectories_memo_keeps_the_most_recent_and_hands_over_the_sides() -> None:
    """T-9/T-10 (a fight reads the character's trajectory once per MR): past
    ``margins.MEMO`` trajectories the oldest is dropped, the most recent kept in order
    of use; each walk hands the side it built to who wins (``chase.known``); a dropped
    trajectory is walked again, equal to the first walk."""
    from meneur.systems.tunnels import chase
    from meneur.systems.tunnels.odds import clear_caches

    keys: list[tuple[int, int, Policy]] = [
        (dice, lowest, policy)
        for dice in range(1, 12)
        for lowest in (3, 4, 5)
        for policy in ("needed", "never")
    ]
    assert len(keys) > margins.MEMO
    clear_caches()
    walks = [margins.trajectory(*key) for key in keys]
    assert list(margins._WALKS) == keys[-margins.MEMO :]
    assert all(chase.known(key) for key in keys[-10:])
    assert margins.trajectory(*keys[0]) == walks[0]
    assert list(margins._WALKS)[-1] == keys[0]
    clear_caches()
