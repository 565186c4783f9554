"""The Obscur test and opposition (O-1 to O-9), each rule pinned by a test citing it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meneur.errors import LimitError, RuleError
from meneur.odds import brute_force
from meneur.systems.obscur.checks import OpposeCheck
from meneur.systems.obscur.checks import TestCheck as Check
from meneur.systems.obscur.odds import summary
from meneur.systems.obscur.odds import test_dist as dist_of
from meneur.systems.obscur.rules import MALUS_NAMES, Maluses, OpposeParams, resolve_oppose
from meneur.systems.obscur.rules import TestParams as Params

CHECK = Check()


def roll(params: Params, *faces: int):  # type: ignore[no-untyped-def]
    return CHECK.resolve(params, (tuple(faces),))


def test_O1_automatic_success_and_failure_roll_nothing() -> None:
    """O-1: common sense: no dice are read, the verdict is given."""
    success = roll(Params(3, automatic="success"))
    failure = roll(Params(3, automatic="failure"))
    assert success.passed and success.faces == () and success.automatic == "success"
    assert not failure.passed and failure.faces == ()
    _, figures = summary(Params(3, automatic="success", difficulty=5))
    assert figures["p_success"] == 1
    _, figures = summary(Params(30, automatic="failure"))
    assert figures["p_success"] == 0


def test_O2_faces_give_zero_one_or_two_successes() -> None:
    """O-2: 1-3 nothing, 4-5 one, 6 two; faces 6,4,2 give 3 successes."""
    for face, expected in zip(range(1, 7), (0, 0, 0, 1, 1, 2), strict=True):
        assert roll(Params(1), face).successes == expected
    outcome = roll(Params(3), 6, 4, 2)
    assert outcome.successes == 3 and outcome.passed and not outcome.fumble


def test_O2_three_dice_distribution_is_exact() -> None:
    """O-2/O-8: 3 dice at difficulty 1 succeed 7/8; the whole distribution is pinned."""
    _, figures = summary(Params(3, difficulty=1))
    assert figures["p_success"] == Fraction(7, 8)
    assert figures["successes"] == {
        0: Fraction(1, 8),
        1: Fraction(1, 4),
        2: Fraction(7, 24),
        3: Fraction(11, 54),
        4: Fraction(7, 72),
        5: Fraction(1, 36),
        6: Fraction(1, 216),
    }


def test_O3_all_ones_is_a_maladresse() -> None:
    """O-3: faces 1,1,1 are a Maladresse with 0 successes; one other face is not."""
    outcome = roll(Params(3), 1, 1, 1)
    assert outcome.fumble and outcome.successes == 0 and not outcome.passed
    assert not roll(Params(3), 1, 1, 2).fumble


def test_O3_a_maladresse_is_judged_the_worst_luck() -> None:
    """O-3: the roll log judges a roll's luck by its score: a Maladresse ranks below every
    other result, 0 successes included; otherwise more successes is better."""
    check = Check()
    assert check.score((0, True)) < check.score((0, False)) < check.score((1, False))
    assert check.score((3, True)) < check.score((0, False))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 20, 40])
def test_O3_fumble_probability_is_one_over_six_to_the_n(n: int) -> None:
    """O-3: P(Maladresse) = 1/6^N."""
    _, figures = summary(Params(n))
    assert figures["p_fumble"] == Fraction(1, 6**n)


def test_O4_pool_is_the_sum_of_the_two_traits() -> None:
    """O-4: the pool is the dice count; a test reads exactly that many faces."""
    assert Params(5).pool == 5
    assert len(roll(Params(4), 1, 2, 3, 4).faces) == 4


def test_O5_zero_skill_counts_only_sixes_two_each() -> None:
    """O-5: a Capacité at 0: only 6s count, still 2 each."""
    params = Params(3, zero_skill=True)
    assert roll(params, 4, 5, 6).successes == 2
    assert roll(params, 6, 6, 5).successes == 4
    _, figures = summary(params)
    assert figures["successes"][0] == Fraction(125, 216)


def test_O6_zero_attribute_counts_only_sixes_one_each() -> None:
    """O-6: a Caractéristique at 0: only 6s, 1 each; both zero: the same."""
    assert roll(Params(3, zero_attribute=True), 4, 5, 6).successes == 1
    assert roll(Params(3, zero_attribute=True, zero_skill=True), 6, 6, 5).successes == 2
    _, figures = summary(Params(2, zero_attribute=True, difficulty=2))
    assert figures["p_success"] == Fraction(1, 36)


def test_O6_both_zero_faces_one_to_five_give_nothing_and_six_gives_one() -> None:
    """O-6: Capacité and Caractéristique both at 0: both rules, only a 6 counts, for 1.

    Faces 1..6 give 0,0,0,0,0,1; with 2 dice at difficulty 1 only a 6 passes:
    1 - (5/6)^2 = 11/36.
    """
    params = Params(1, zero_attribute=True, zero_skill=True)
    for face, expected in zip(range(1, 7), (0, 0, 0, 0, 0, 1), strict=True):
        assert roll(params, face).successes == expected
    _, figures = summary(Params(2, zero_attribute=True, zero_skill=True))
    assert figures["p_success"] == Fraction(11, 36)


def test_O7_modifiers_change_the_pool_and_zero_dice_cannot_succeed() -> None:
    """O-7: modifiers add or remove dice; 0 or fewer dice: 0 successes, no Maladresse."""
    assert Params(3, modifier=2).pool == 5
    empty = Params(2, modifier=-3)
    assert empty.pool == 0
    outcome = roll(empty)
    assert outcome.successes == 0 and not outcome.fumble and not outcome.passed
    assert dist_of(empty).probabilities() == {(0, False): 1}


def test_O8_difficulty_and_margins() -> None:
    """O-8: MR = excess successes, ME = shortfall (shown as a negative margin)."""
    win = roll(Params(3, difficulty=2), 6, 6, 1)
    assert win.passed and win.margin == 2
    loss = roll(Params(3, difficulty=4), 6, 1, 1)
    assert not loss.passed and loss.margin == -2
    exact = roll(Params(2, difficulty=2), 4, 5)
    assert exact.passed and exact.margin == 0


def test_O9_opposition_more_successes_wins_by_the_difference() -> None:
    """O-9: more successes wins by the difference; equal: no winner."""
    params = OpposeParams(Params(3, difficulty=0, tally=True), Params(2, difficulty=0, tally=True))
    won = resolve_oppose(params, ((6, 4, 1), (5, 1)))
    assert won.winner == "a" and won.margin == 2
    tie = resolve_oppose(params, ((4, 1, 1), (5, 2)))
    assert tie.winner is None and tie.margin == 0
    lost = resolve_oppose(params, ((1, 1, 1), (6, 6)))
    assert lost.winner == "b" and lost.margin == 4 and lost.a.fumble
    odds = OpposeCheck().odds(params)
    assert odds == brute_force(OpposeCheck(), params)
    assert sum(odds.probabilities().values()) == 1


def test_limits_are_clear_errors() -> None:
    with pytest.raises(LimitError):
        Params(10_000)
    with pytest.raises(RuleError, match="O-8"):  # below 1: the rule, as for 0
        Params(3, difficulty=-1)
    with pytest.raises(LimitError):
        Params(3, difficulty=201)
    with pytest.raises(LimitError):
        Params(3, difficulty=-1, tally=True)  # a tally has no difficulty: 0 and no less


def test_O8_the_default_difficulty_is_one_success() -> None:
    """O-8: « par défaut 1 »: with no difficulty given, one success (a single 4) passes
    with MR 0, and 0 successes fail with ME 1."""
    assert Params(3).difficulty == 1
    one = roll(Params(2), 4, 1)
    assert one.passed and one.margin == 0
    none = roll(Params(2), 3, 2)
    assert not none.passed and none.margin == -1


def test_the_bounds_of_a_pool_a_modifier_and_a_difficulty_are_inclusive() -> None:
    """The limits (not rules): 0 to 60 dice, a modifier of -60 to +60, a difficulty up to
    200 are taken; one past either end is refused, never read as a pool (O-7)."""
    limit = Params.MAX_DICE
    assert Params(0).pool == 0 and Params(limit).pool == limit
    with pytest.raises(LimitError):
        Params(-1)
    with pytest.raises(LimitError):
        Params(limit + 1)
    assert Params(limit, modifier=-limit).pool == 0
    assert Params(limit, modifier=limit).pool == 2 * limit
    for modifier in (-limit - 1, limit + 1):
        with pytest.raises(LimitError):
            Params(3, modifier=modifier)
    assert Params(3, difficulty=200).difficulty == 200


def test_O29_a_malus_of_the_sheet_is_0_to_60_dice() -> None:
    """O-29: a sheet's condition takes dice, never gives them: a negative malus is refused,
    as is one past the bound; 60 is taken."""
    limit = Params.MAX_DICE
    for name in MALUS_NAMES:
        assert getattr(Maluses(**{name: limit}), name) == limit
        for value in (-1, limit + 1):
            with pytest.raises(LimitError):
                Maluses(**{name: value})


def test_O1_an_automatic_test_has_no_success_margin_nor_maladresse() -> None:
    """O-1: with no roll there is nothing to count: 0 successes, margin 0, and no
    Maladresse (O-3: no Vécu point is earned by a test nobody rolled)."""
    for automatic in ("success", "failure"):
        outcome = roll(Params(3, difficulty=2, automatic=automatic))
        assert outcome.successes == 0 and outcome.margin == 0 and not outcome.fumble
        assert outcome.rolled == () and outcome.rerolled == () and outcome.adjusted == ()


def test_O9_the_margin_is_the_difference_when_both_sides_score() -> None:
    """O-9: « par la différence »: 1 success against 3 is won by b by 2 (not 4), and
    3 against 1 by a by 2."""
    params = OpposeParams(Params(2, difficulty=0, tally=True), Params(2, difficulty=0, tally=True))
    lost = resolve_oppose(params, ((4, 1), (6, 5)))
    assert (lost.a.successes, lost.b.successes) == (1, 3)
    assert lost.winner == "b" and lost.margin == 2
    won = resolve_oppose(params, ((6, 5), (4, 1)))
    assert won.winner == "a" and won.margin == 2


def test_O2_O3_O5_the_marked_faces_are_those_that_score_or_fumble() -> None:
    """O-2: 4, 5 and 6 score (marked « hit »), 1-3 do not; O-5: with a Capacité at 0
    only the 6 scores; O-3: the 1s are marked only when they make a Maladresse."""
    assert CHECK.marks(Params(4), ((6, 4, 3, 1),)) == (("hit", "hit", "", ""),)
    assert CHECK.marks(Params(3, zero_skill=True), ((6, 5, 4),)) == (("hit", "", ""),)
    assert CHECK.marks(Params(2), ((1, 1),)) == (("fumble", "fumble"),)


def test_O9_an_opposition_scores_from_side_a_and_simulates_only_rolled_sides() -> None:
    """O-9: an opposition's score (the luck a roll reads) is side a's margin: +2 when a
    wins by 2, -2 when b does, 0 on a tie. O-1: a side that succeeds without a roll has no
    dice, so the opposition offers no numpy resolve (it would roll that side)."""
    check = OpposeCheck()
    assert [check.score(key) for key in (("a", 2), ("b", 2), (None, 0))] == [2.0, -2.0, 0.0]
    auto = Params(2, automatic="success")
    assert check.vectorised(OpposeParams(auto, Params(2))) is None
    assert check.vectorised(OpposeParams(Params(2), auto)) is None
    assert check.vectorised(OpposeParams(Params(2), Params(2))) is not None


def test_O9_an_opposition_rolls_two_streams_side_a_then_side_b() -> None:
    """O-9: both sides test, so a roll draws exactly two streams of dice: side a's pool
    from the first source, side b's from the second, and no third. Side a's 6 and 4 make
    2 + 1 = 3 successes (O-2), side b's 5, 2, 1 make 1: a wins by 3 - 1 = 2."""
    from meneur.rng import PhysicalDice

    params = OpposeParams(Params(2, difficulty=0, tally=True), Params(3, difficulty=0, tally=True))
    rolled = OpposeCheck().roll(params, [PhysicalDice((6, 4)), PhysicalDice((5, 2, 1))])
    assert rolled.faces == ((6, 4), (5, 2, 1))
    assert (rolled.outcome.a.successes, rolled.outcome.b.successes) == (3, 1)
    assert (rolled.outcome.winner, rolled.outcome.margin) == ("a", 2)
