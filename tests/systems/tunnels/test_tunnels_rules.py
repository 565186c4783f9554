"""Tunnels rules T-3 to T-9, read from the faces (resolve is pure)."""

from __future__ import annotations

import pytest

from meneur.errors import LimitError, RuleError
from meneur.odds import brute_force
from meneur.rng import PhysicalDice
from meneur.systems.base import NeedMoreDice
from meneur.systems.tunnels.rules import (
    OpposedParams,
    Side,
    TestParams,
    TunnelsOppose,
    TunnelsTest,
    extra_dice,
    judge,
)

TEST = TunnelsTest()
OPPOSE = TunnelsOppose()


def resolve(params: TestParams, *faces: int):  # type: ignore[no-untyped-def]
    return TEST.resolve(params, (tuple(faces),))


def test_T3_successes_are_four_to_six_and_threshold_passes() -> None:
    """T-3: each die of 4-6 is a success; the test passes at successes >= threshold."""
    params = TestParams(dice=3, threshold=2, explode="never")
    out = resolve(params, 3, 4, 6)
    assert (out.successes, out.passed, out.margin) == (2, True, 0)
    out = resolve(params, 3, 2, 6)
    assert (out.successes, out.passed, out.margin) == (1, False, -1)


def test_T4_blessed_cursed_and_both_cancel() -> None:
    """T-4: blessed 3-6 succeed, cursed only 5-6; both together cancel out."""
    faces = (3, 4, 5)
    assert resolve(TestParams(3, 1, blessed=True, explode="never"), *faces).successes == 3
    assert resolve(TestParams(3, 1, cursed=True, explode="never"), *faces).successes == 1
    both = TestParams(3, 1, blessed=True, cursed=True, explode="never")
    assert both.mode == "normal"
    assert resolve(both, *faces).successes == 2


def test_T5_extra_dice_per_batch() -> None:
    """T-5: k equal faces grant k-1 dice: double 1, triple 2, two pairs 2."""
    assert extra_dice((2, 2, 2, 5)) == 2
    assert extra_dice((3, 3, 5, 5)) == 2
    assert extra_dice((1, 1)) == 1
    assert extra_dice((1, 2, 3, 4, 5, 6)) == 0
    assert extra_dice((4, 4, 4, 4)) == 3


def test_T5_explosion_batches_count_for_successes_sixes_and_ones() -> None:
    """T-5: faces 2,2,2,5 grant 2 extra dice, which count like any die."""
    params = TestParams(dice=4, threshold=5, explode="always")
    with pytest.raises(NeedMoreDice) as need:
        resolve(params, 2, 2, 2, 5)
    assert need.value.count == 2
    out = resolve(params, 2, 2, 2, 5, 6, 1)
    assert out.batches == ((2, 2, 2, 5), (6, 1))
    assert (out.successes, out.ones, out.sixes) == (2, 1, 1)
    # the new batch explodes again among its own dice only
    out = resolve(params, 2, 2, 2, 5, 6, 6, 4)
    assert out.batches == ((2, 2, 2, 5), (6, 6), (4,))
    assert out.successes == 4


def test_T6_policies_never_always_needed() -> None:
    """T-6: never stops, always explodes, needed explodes only while short."""
    never = resolve(TestParams(4, 1, explode="never"), 4, 4, 1, 2)
    assert never.batches == ((4, 4, 1, 2),)
    with pytest.raises(NeedMoreDice):
        resolve(TestParams(4, 1, explode="always"), 4, 4, 1, 2)
    reached = resolve(TestParams(4, 2, explode="needed"), 4, 4, 1, 2)
    assert reached.batches == ((4, 4, 1, 2),)
    short = resolve(TestParams(4, 3, explode="needed"), 4, 4, 1, 2, 5)
    assert short.batches == ((4, 4, 1, 2), (5,))
    assert short.passed


def test_T7_exceptional_needs_three_sixes_within_one_batch() -> None:
    """T-7: three 6s in one batch is exceptional; 6s spread over batches are not."""
    out = resolve(TestParams(3, 1, explode="never"), 6, 6, 6)
    assert out.exceptional and out.passed
    spread = resolve(TestParams(3, 3, explode="always"), 6, 6, 5, 6)
    assert spread.sixes == 3 and not spread.exceptional
    option = resolve(TestParams(3, 3, explode="always", sixes="all"), 6, 6, 5, 6)
    assert option.exceptional


def test_T8_critical_failure_counts_ones_over_all_batches_and_fails() -> None:
    """T-8: three 1s over all batches fail the test whatever its successes."""
    out = resolve(TestParams(4, 2, explode="always"), 1, 1, 6, 6, 1, 5)
    assert out.ones == 3 and out.successes == 3
    assert out.critical and not out.passed and not out.exceptional
    # a critical failure beats an exceptional success
    out = resolve(TestParams(6, 1, explode="never"), 6, 6, 6, 1, 1, 1)
    assert out.critical and not out.exceptional and not out.passed


def test_T8_needed_avoids_the_risky_explosion() -> None:
    """T-8 / T-6: with the threshold reached, needed does not roll the double of 1s."""
    out = resolve(TestParams(4, 2, explode="needed"), 1, 1, 4, 6)
    assert out.passed and not out.critical and len(out.batches) == 1


def test_T9_seed_orc_example() -> None:
    """T-9: 1-1-4-6 against 2-3-5 is 2 successes to 1: a wins by 1."""
    params = OpposedParams(Side(4, explode="never"), Side(3, explode="never"))
    out = OPPOSE.resolve(params, ((1, 1, 4, 6), (2, 3, 5)))
    assert (out.a.successes, out.b.successes, out.winner, out.margin) == (2, 1, "a", 1)
    # with needed the warrior is ahead: he does not explode his double of 1s
    needed = OPPOSE.resolve(OpposedParams(Side(4), Side(3)), ((1, 1, 4, 6), (2, 3, 5)))
    assert needed.a.batches == ((1, 1, 4, 6),) and needed.winner == "a"


def test_T9_needed_means_explode_while_not_ahead() -> None:
    """T-9: after both first batches, a side explodes while it is not ahead."""
    params = OpposedParams(Side(3), Side(3))
    # a 4,4,1 (2 successes) vs b 5,6,2 (2): a tie; a has a double, so a explodes
    with pytest.raises(NeedMoreDice) as need:
        OPPOSE.resolve(params, ((4, 4, 1), (5, 6, 2)))
    assert need.value.stream == 0 and need.value.count == 1
    out = OPPOSE.resolve(params, ((4, 4, 1, 5), (5, 6, 2)))
    assert out.winner == "a" and out.margin == 1
    # b, now behind, has no double: it stays
    assert out.b.batches == ((5, 6, 2),)


def test_T9_ties_and_critical_failures() -> None:
    """T-9: equal successes: nobody wins; a critical failure loses; both: nobody."""
    assert judge(2, False, 2, False) == (None, 0)
    assert judge(3, True, 1, False) == ("b", 1)
    assert judge(1, False, 1, True) == ("a", 1)
    assert judge(0, True, 0, True) == (None, 0)


def test_T9_opposed_rolls_replay_from_physical_dice() -> None:
    params = OpposedParams(Side(4, explode="never"), Side(3, explode="never"))
    rolled = OPPOSE.roll(params, [PhysicalDice((1, 1, 4, 6)), PhysicalDice((2, 3, 5))])
    data = OPPOSE.to_json(params, rolled.outcome)
    assert data["winner"] == "a" and data["margin"] == 1 and data["system"] == "tunnels"
    assert set(data) == {"system", "a", "b", "winner", "margin"}


def test_params_validate_themselves() -> None:
    with pytest.raises(RuleError):
        TestParams(dice=0, threshold=1)
    with pytest.raises(LimitError):
        TestParams(dice=10_000, threshold=1)
    with pytest.raises(RuleError):
        TestParams(dice=3, threshold=0)
    with pytest.raises(RuleError):
        TestParams(dice=3, threshold=1, explode="sometimes")  # type: ignore[arg-type]


def test_test_json_keys_are_the_contract() -> None:
    params = TestParams(3, 2)
    out = TEST.roll(params, [PhysicalDice((4, 5, 1))]).outcome
    data = TEST.to_json(params, out)
    assert set(data) == {
        "system",
        "batches",
        "successes",
        "threshold",
        "passed",
        "margin",
        "exceptional",
        "critical",
    }
    assert data["batches"] == [[4, 5, 1]]


def test_T5_brute_force_of_a_test_terminates() -> None:
    """T-5: a batch of n dice grants at most n-1: enumeration of all faces is finite."""
    law = brute_force(TEST, TestParams(3, 3, explode="always"))
    assert sum(law.probabilities().values()) == 1


def test_T3_T4_every_face_by_mode() -> None:
    """T-3/T-4: normal 4-6, blessed 3-6 (a 2 still fails), cursed 5-6 (a 4 fails)."""
    faces = (1, 2, 3, 4, 5, 6)
    assert resolve(TestParams(6, 1, explode="never"), *faces).successes == 3
    assert resolve(TestParams(6, 1, blessed=True, explode="never"), *faces).successes == 4
    assert resolve(TestParams(6, 1, cursed=True, explode="never"), *faces).successes == 2


def test_T6_T9_always_explodes_a_side_that_is_already_ahead() -> None:
    """T-6/T-9: ``always`` explodes every double, even when the side is ahead."""
    params = OpposedParams(Side(3, explode="always"), Side(3, explode="never"))
    with pytest.raises(NeedMoreDice) as need:
        OPPOSE.resolve(params, ((5, 5, 4), (1, 2, 3)))
    assert need.value.stream == 0 and need.value.count == 1
    out = OPPOSE.resolve(params, ((5, 5, 4, 6), (1, 2, 3)))
    assert out.a.batches == ((5, 5, 4), (6,)) and out.margin == 4
    # and side b's extra dice come from its own stream
    params = OpposedParams(Side(3, explode="never"), Side(3, explode="always"))
    with pytest.raises(NeedMoreDice) as need:
        OPPOSE.resolve(params, ((1, 2, 3), (5, 5, 4)))
    assert need.value.stream == 1 and need.value.count == 1
    out = OPPOSE.resolve(params, ((1, 2, 3), (5, 5, 4, 6)))
    assert out.b.batches == ((5, 5, 4), (6,)) and out.winner == "b"


def test_T9_the_winner_passed_and_the_loser_did_not() -> None:
    """T-9: the winner wins by the difference; each side's outcome says whether it won,
    and its threshold is the other side's successes."""
    params = OpposedParams(Side(3, explode="never"), Side(3, explode="never"))
    out = OPPOSE.resolve(params, ((2, 3, 5), (4, 5, 6)))
    assert (out.winner, out.margin, out.a.passed, out.b.passed) == ("b", 2, False, True)
    assert (out.a.threshold, out.b.threshold, out.b.margin) == (3, 1, 2)
    tie = OPPOSE.resolve(params, ((4, 3, 2), (5, 1, 2)))
    assert tie.winner is None and not tie.a.passed and not tie.b.passed


def test_T8_T9_three_ones_lose_an_opposition_whatever_the_successes() -> None:
    """T-8/T-9: exactly three 1s (not 2s) make a side's critical failure: it loses, by 1."""
    params = OpposedParams(Side(5, explode="never"), Side(3, explode="never"))
    out = OPPOSE.resolve(params, ((1, 1, 1, 5, 5), (2, 2, 2)))
    assert out.a.critical and not out.b.critical
    assert (out.winner, out.margin, out.a.successes, out.b.successes) == ("b", 1, 2, 0)


def test_T7_T9_three_sixes_make_the_winner_of_an_opposition_exceptional() -> None:
    """T-7/T-9: the winner's three 6s in one batch are an exceptional success; 5s are not."""
    params = OpposedParams(Side(3, explode="never"), Side(3, explode="never"))
    out = OPPOSE.resolve(params, ((6, 6, 6), (5, 5, 5)))
    assert out.winner is None and out.a.six_streak and not out.b.six_streak
    assert (out.a.sixes, out.b.sixes) == (3, 0)
    won = OPPOSE.resolve(params, ((6, 6, 6), (1, 2, 3)))
    assert won.a.exceptional and won.winner == "a"


def test_T3_dice_and_threshold_are_whole_numbers_not_booleans() -> None:
    """T-3: a pool and a threshold are counts; ``True`` is refused, not read as 1."""
    for bad in ({"dice": True, "threshold": 1}, {"dice": 2, "threshold": True}):
        with pytest.raises(RuleError):
            TestParams(**bad)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        Side(True)  # type: ignore[arg-type]


def test_the_bounds_are_sixty_dice_and_a_thousand_successes() -> None:
    """The documented bounds (docs/lab.md): 60 dice and a threshold of 1000 are accepted,
    one more is refused (a LimitError, not a rule error)."""
    assert TestParams(60, 1000).dice == 60
    with pytest.raises(LimitError):
        TestParams(61, 1)
    with pytest.raises(LimitError):
        TestParams(1, 1001)
    assert Side(60).dice == 60
    with pytest.raises(LimitError):
        Side(61)


def test_T5_T6_a_test_chosen_batch_by_batch_may_use_as_many_batches_as_dice() -> None:
    """T-5/T-6: n dice make at most n batches (each grants at most one die fewer), so a
    player may have chosen to roll all of them."""
    params = TestParams(3, 3, explode="always", chosen_batches=3)
    out = resolve(params, 2, 2, 2, 4, 4, 5)
    assert out.batches == ((2, 2, 2), (4, 4), (5,)) and out.passed


def test_T6_a_test_chosen_batch_by_batch_has_nothing_to_simulate() -> None:
    """T-6: the player's choices are not a policy: no numpy resolve to check it against."""
    assert TEST.vectorised(TestParams(3, 2, explode="always", chosen_batches=1)) is None
    assert TEST.vectorised(TestParams(3, 2, explode="always")) is not None


def test_T9_an_opposition_needs_two_sides() -> None:
    for a, b in ((Side(2), 2), (2, Side(2))):
        with pytest.raises(RuleError):
            OpposedParams(a, b)  # type: ignore[arg-type]


def test_T7_T8_luck_scores_an_exceptional_success_above_and_a_critical_below() -> None:
    """T-7/T-8, the luck report's order: three 6s make the same successes luckier, three
    1s are the worst; in an opposition a's critical failure weighs against a, b's for it."""
    assert (
        TEST.score((2, False, False)) < TEST.score((2, True, False)) < TEST.score((3, False, False))
    )
    assert TEST.score((5, False, True)) < TEST.score((0, False, False))
    assert OPPOSE.score((2, False, True, False, False)) < OPPOSE.score(
        (-5, False, False, False, False)
    )
    assert OPPOSE.score((-2, False, False, False, True)) > OPPOSE.score(
        (5, False, False, False, False)
    )
    assert OPPOSE.score((-1, False, True, False, True)) == -1.0


def test_T9_a_test_reads_one_stream_and_an_opposition_one_per_side() -> None:
    """T-9: each side rolls its own dice; a logged opposition holds exactly two streams."""
    assert TEST.streams(TestParams(3, 2)) == 1
    params = OpposedParams(Side(2, explode="never"), Side(2, explode="never"))
    assert OPPOSE.streams(params) == 2
    rolled = OPPOSE.roll(params, [PhysicalDice((4, 5)), PhysicalDice((1, 2))])
    assert rolled.faces == ((4, 5), (1, 2))
