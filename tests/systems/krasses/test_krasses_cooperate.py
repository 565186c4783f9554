"""Krâsses cooperation (K-7): the best total leads; each other member with a level who
rolled 15 or more gives +2 (a natural 1 never helps, a natural 20 always does)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from meneur.errors import LimitError, RuleError
from meneur.odds import brute_force
from meneur.systems.krasses.odds import cooperate_dist, cooperate_p_success
from meneur.systems.krasses.rules import CooperateParams, Krasse, KrassesCooperate, Member

CHECK = KrassesCooperate()


def test_K7_helper_with_15_and_a_level_gives_2() -> None:
    """K-7 (issue check): a helper with total 15 and level 1 gives +2."""
    params = CooperateParams((Member(5, 1), Member(5, 1)), 20)
    outcome = CHECK.resolve(params, ((14, 10),))
    assert outcome.leader == 0 and outcome.helpers == (1,)
    assert (outcome.totals, outcome.total, outcome.passed) == ((19, 15), 21, True)


def test_K7_helper_with_15_and_no_level_gives_nothing() -> None:
    """K-7 (issue check): a helper with total 15 and level 0 gives nothing."""
    params = CooperateParams((Member(5, 1), Member(5, 0)), 20)
    outcome = CHECK.resolve(params, ((14, 10),))
    assert outcome.helpers == () and outcome.total == 19 and not outcome.passed


def test_K7_the_best_total_leads() -> None:
    """K-7 (issue check): the member with the best total leads, wherever listed."""
    params = CooperateParams((Member(2, 1), Member(8, 1), Member(0, 1)), 25)
    outcome = CHECK.resolve(params, ((15, 12, 16),))
    assert outcome.totals == (17, 20, 16)
    assert outcome.leader == 1
    assert outcome.helpers == (0, 2)
    assert outcome.total == 24 and not outcome.passed
    assert outcome.margin == -1  # 20 + 2 × 2 = 24 against 25
    data = CHECK.to_json(params, outcome)
    assert [m["leader"] for m in data["members"]] == [False, True, False]
    assert [m["helps"] for m in data["members"]] == [True, False, True]
    assert (data["help_bonus"], data["margin"]) == (4, -1)


def test_K7_below_15_does_not_help() -> None:
    params = CooperateParams((Member(10, 3), Member(4, 3)), 15)
    outcome = CHECK.resolve(params, ((10, 10),))
    assert outcome.helpers == ()


def test_K7_helper_natural_1_never_helps_natural_20_always_does() -> None:
    """K-7: a helper's natural 1 never helps, even at 15+; a natural 20 always does."""
    fumble = CHECK.resolve(CooperateParams((Member(20, 1), Member(14, 1)), 30), ((15, 1),))
    assert fumble.leader == 0 and fumble.helpers == ()
    crit = CHECK.resolve(CooperateParams((Member(30, 1), Member(-10, 1)), 30), ((15, 20),))
    assert crit.totals[1] == 10 and crit.helpers == (1,)


def test_K7_leader_keeps_the_naturals_of_K2() -> None:
    """K-7 with K-2: the leader's natural 20 succeeds, a natural 1 fails."""
    params = CooperateParams((Member(0, 1),), 40)
    assert CHECK.resolve(params, ((20,),)).passed
    params = CooperateParams((Member(40, 1), Member(0, 1)), 10)
    assert not CHECK.resolve(params, ((1, 5),)).passed


def test_K7_equal_best_totals_first_member_leads() -> None:
    """K-7 is silent on a tie for the lead: the first member given leads (documented)."""
    outcome = CHECK.resolve(CooperateParams((Member(5, 0), Member(5, 1)), 30), ((11, 11),))
    assert outcome.leader == 0 and outcome.helpers == (1,)


def test_K7_krasses_move_the_difficulty() -> None:
    params = CooperateParams((Member(5, 1), Member(5, 1)), 15, (Krasse("nuit", 7),))
    outcome = CHECK.resolve(params, ((14, 10),))
    assert outcome.difficulty == 22 and not outcome.passed


def test_K7_zero_members_is_refused() -> None:
    with pytest.raises(RuleError):
        CooperateParams((), 15)
    with pytest.raises(LimitError):
        CooperateParams(tuple(Member(0, 0) for _ in range(13)), 15)


def test_K7_one_member_is_a_plain_test() -> None:
    """K-7 with one member: the same chance as the test (K-1): bonus 5 vs 15, 11/20."""
    assert cooperate_p_success(CooperateParams((Member(5, 2),), 15)) == Fraction(11, 20)


@pytest.mark.parametrize(
    "members",
    [
        (Member(5, 1), Member(3, 1)),
        (Member(0, 0), Member(0, 1)),
        (Member(4, 2), Member(6, 0), Member(2, 1)),
        (Member(10, 1), Member(-5, 1), Member(10, 1)),
    ],
)
@pytest.mark.parametrize("difficulty", [15, 25])
def test_K7_odds_equal_brute_force(members: tuple[Member, ...], difficulty: int) -> None:
    """K-7: the convolution engine equals enumeration of every face, exactly."""
    params = CooperateParams(members, difficulty)
    assert cooperate_dist(params) == brute_force(CHECK, params)


def independent_group(faces: tuple[int, ...], members: tuple[Member, ...], difficulty: int) -> bool:
    """An independent reading of K-7 for icepool."""
    totals = [f + m.bonus for f, m in zip(faces, members, strict=True)]
    lead = max(range(len(totals)), key=lambda i: (totals[i], -i))
    bonus = sum(
        2
        for i, (f, m) in enumerate(zip(faces, members, strict=True))
        if i != lead and m.level >= 1 and f != 1 and (f == 20 or totals[i] >= 15)
    )
    if faces[lead] in (1, 20):
        return faces[lead] == 20
    return totals[lead] + bonus >= difficulty


@pytest.mark.parametrize(
    "members",
    [(Member(5, 1), Member(3, 1)), (Member(8, 1), Member(2, 0), Member(5, 3))],
)
def test_K7_odds_equal_icepool(members: tuple[Member, ...]) -> None:
    """K-7 against icepool (an independent engine and an independent reading)."""
    import icepool

    group = icepool.map(
        lambda *faces: independent_group(faces, members, 20), *([icepool.d20] * len(members))
    )
    assert cooperate_p_success(CooperateParams(members, 20)) == group.probability(True)


def test_K7_large_groups_stay_fast_and_sum_to_one() -> None:
    """K-7: twelve members would be 20^12 face sequences; the engine conditions instead."""
    members = tuple(Member(bonus, bonus % 3) for bonus in range(12))
    dist = cooperate_dist(CooperateParams(members, 30))
    assert sum(dist.probabilities().values()) == 1
    members3 = (Member(1, 1), Member(2, 1), Member(3, 0))
    manual = Fraction(0)
    for faces in itertools.product(range(1, 21), repeat=3):
        manual += Fraction(independent_group(faces, members3, 18), 8000)
    assert cooperate_p_success(CooperateParams(members3, 18)) == manual


def test_K7_a_member_level_past_the_bound_is_refused() -> None:
    """K-7: a member's level is bounded once, on ``Member.MAX_LEVEL`` (the CLI reads it)."""
    Member(3, Member.MAX_LEVEL)
    with pytest.raises(LimitError):
        Member(3, Member.MAX_LEVEL + 1)


def test_K6_K7_a_level_below_zero_is_refused() -> None:
    """K-6: with no level, no bonus: a level is 0 or more; -1 is refused, 0 is taken."""
    assert Member(3, 0).level == 0
    with pytest.raises(RuleError):
        Member(3, -1)
