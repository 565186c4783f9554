"""Dépassement (O-10) and its exact advisor, against brute force over faces and choices."""

from __future__ import annotations

import random
from fractions import Fraction
from importlib import resources
from itertools import permutations, product
from pathlib import Path

import numpy as np
import pytest

from meneur.errors import RuleError
from meneur.odds import brute_force
from meneur.systems.base import FaceReader
from meneur.systems.obscur.advisor import advise_after, advise_before
from meneur.systems.obscur.checks import TestCheck as Check
from meneur.systems.obscur.depassement import (
    ADJUST_VARIANTS,
    NO_PUSH,
    PushPlan,
    best_assignment,
    extra_dice,
    margin_bonus,
    plan_payment,
    reroll_up_to,
    tier_cost,
    tier_for_points,
)
from meneur.systems.obscur.odds import test_dist as dist_of
from meneur.systems.obscur.rules import TestParams as Params
from meneur.systems.obscur.rules import resolve_test, verdict
from meneur.systems.obscur.scoring import Scoring
from meneur.systems.obscur.tables import rule_tables

CHECK = Check()


def roll(params: Params, *faces: int):  # type: ignore[no-untyped-def]
    return resolve_test(params, FaceReader((tuple(faces),)))


def test_O10_cost_tables_are_exact() -> None:
    """O-10: every kind costs 1/3/6 points for its three tiers; 2, 4, 5 buy the tier below."""
    assert [tier_cost(t) for t in range(4)] == [0, 1, 3, 6]
    assert [tier_for_points(p) for p in range(8)] == [0, 1, 1, 2, 2, 2, 3, 3]
    assert [extra_dice(t) for t in range(4)] == [0, 1, 2, 3]
    assert [reroll_up_to(t) for t in range(4)] == [0, 1, 2, 3]
    assert [margin_bonus(t) for t in range(4)] == [0, 1, 2, 3]
    assert ADJUST_VARIANTS[1] == ((1,),)
    assert set(ADJUST_VARIANTS[2]) == {(2,), (1, 1)}
    assert set(ADJUST_VARIANTS[3]) == {(3,), (1, 2), (1, 1, 1)}
    assert PushPlan(dice=1, reroll=2, adjust=3, margin=1).cost == 1 + 3 + 6 + 1


def test_O10_one_tier_of_each_kind_at_most() -> None:
    """O-10: a plan holds one tier per kind; a fourth tier or a wrong split is refused."""
    with pytest.raises(RuleError):
        PushPlan(reroll=4)
    with pytest.raises(RuleError):
        PushPlan(adjust=2, adjust_on=((0, 1), (1, 1), (2, 1)))
    with pytest.raises(RuleError):
        PushPlan(adjust=2, adjust_on=((0, 1), (0, 1)))
    with pytest.raises(RuleError):
        tier_for_points(-1)


def test_O10_extra_dice_are_bought_before_the_roll() -> None:
    """O-10: +1/+2/+3 dice join the pool that is rolled."""
    assert [Params(2, push=PushPlan(dice=t)).pool for t in range(4)] == [2, 3, 4, 5]
    assert roll(Params(1, push=PushPlan(dice=1)), 4, 6).successes == 3


def test_O10_reroll_reads_new_faces_after_the_pool() -> None:
    """O-10: rerolls replace the 1s (and 2s, 3s by tier) once, from the same stream."""
    outcome = roll(Params(3, push=PushPlan(reroll=2)), 1, 2, 3, 6, 1)
    assert outcome.rolled == (1, 2, 3)
    assert outcome.rerolled == (0, 1)
    assert outcome.faces == (6, 1, 3)  # rerolled once: the new 1 stays
    assert roll(Params(3, push=PushPlan(reroll=3)), 1, 2, 3, 4, 5, 6).faces == (4, 5, 6)


def test_O10_maladresse_is_judged_on_final_faces() -> None:
    """O-10: a reroll or an adjustment can undo a Maladresse; all 1s after a reroll stay one."""
    assert not roll(Params(2, push=PushPlan(reroll=1)), 1, 1, 1, 4).fumble
    assert roll(Params(2, push=PushPlan(reroll=1)), 1, 1, 1, 1).fumble
    assert not roll(Params(2, push=PushPlan(adjust=1)), 1, 1).fumble


def test_O10_a_face_never_exceeds_six() -> None:
    """O-10: +3 on a 5 gives a 6, not an 8."""
    outcome = roll(Params(2, push=PushPlan(adjust=3, adjust_on=((0, 3),))), 5, 1)
    assert outcome.faces == (6, 1)
    for face in range(1, 7):
        for inc in (1, 2, 3):
            plan = PushPlan(adjust=3 if inc == 3 else 2 if inc == 2 else 1, adjust_on=((0, inc),))
            assert max(roll(Params(1, push=plan), face).faces) <= 6


def test_O10_margin_adjustment_changes_effects_not_verdict() -> None:
    """O-10: MR + n on a success, ME - n on a failure, never a failure turned into success;
    option: it counts as successes."""
    plan = PushPlan(margin=2)
    success = roll(Params(2, difficulty=1, push=plan), 6, 1)
    assert success.passed and success.margin == 1 + 2
    failure = roll(Params(2, difficulty=3, push=plan), 4, 1)
    assert not failure.passed and failure.margin == 0
    option = roll(Params(2, difficulty=3, push=plan, margin_counts=True), 4, 1)
    assert option.passed and option.margin == 0


def test_O10_payment_never_drives_a_resource_below_zero() -> None:
    """O-10: any mix of Vécu, Volonté and Moral, never below 0; option: one resource."""
    paid = plan_payment(4, {"vecu": 1, "volonte": 2, "moral": 5})
    assert dict(paid.points) == {"vecu": 1, "volonte": 2, "moral": 1}
    with pytest.raises(RuleError):
        plan_payment(9, {"vecu": 1, "volonte": 2, "moral": 5})
    with pytest.raises(RuleError):
        plan_payment(3, {"vecu": 1, "volonte": 2, "moral": 5}, asked={"vecu": 3})
    with pytest.raises(RuleError):
        plan_payment(
            3,
            {"vecu": 1, "volonte": 2, "moral": 5},
            asked={"vecu": 1, "moral": 2},
            single_resource=True,
        )
    single = plan_payment(3, {"vecu": 1, "volonte": 2, "moral": 5}, single_resource=True)
    assert dict(single.points) == {"moral": 3}


def _explicit_best(faces: tuple[int, ...], tier: int, values: tuple[int, ...]) -> int:
    """The best adjustment by trying every variant on every ordered choice of dice."""
    base = sum(values[f - 1] for f in faces)
    best = base
    for variant in ADJUST_VARIANTS[tier]:
        if len(variant) > len(faces):
            continue
        for dice in permutations(range(len(faces)), len(variant)):
            raised = list(faces)
            for index, inc in zip(dice, variant, strict=True):
                raised[index] = min(6, raised[index] + inc)
            best = max(best, sum(values[f - 1] for f in raised))
    return best - base


@pytest.mark.parametrize("scoring", list(Scoring))
def test_O10_best_adjustment_equals_explicit_search(scoring: Scoring) -> None:
    """O-10: the engine's "best allocation" is the best over every allocation."""
    rng = random.Random(4)
    for _ in range(300):
        faces = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 5)))
        counts = [faces.count(f) for f in range(1, 7)]
        for tier in range(4):
            assert best_assignment(counts, tier, scoring)[0] == _explicit_best(
                faces, tier, scoring.values
            )


@pytest.mark.parametrize(
    "params",
    [
        Params(3, push=PushPlan(reroll=3)),
        Params(3, difficulty=3, push=PushPlan(adjust=3)),
        Params(2, difficulty=2, zero_attribute=True, push=PushPlan(reroll=2, adjust=2)),
        Params(2, push=PushPlan(dice=2, adjust=1, margin=3), difficulty=4, margin_counts=True),
        Params(3, push=PushPlan(adjust=3, adjust_on=((0, 1), (1, 2)))),
    ],
)
def test_O10_odds_with_dependencies_equal_brute_force(params: Params) -> None:
    """O-10: rerolls and adjustments keep the odds exact (brute force over every face)."""
    assert dist_of(params) == brute_force(CHECK, params)


# -- the advisor against an independent brute force over faces and choices ---------------


def _pass_after_adjust(
    faces: tuple[int, ...], budget: int, need: int, values: tuple[int, ...], counts: bool
) -> bool:
    for adjust in range(4):
        for margin in range(4) if counts else (0,):
            if tier_cost(adjust) + tier_cost(margin) > budget:
                continue
            bonus = margin_bonus(margin) if counts and faces else 0  # O-7: no dice, no count
            gain = _explicit_best(faces, adjust, values) if faces else 0
            # O-8: all 1s is a Maladresse, never a success (the counted margin cannot
            # save it), unless an adjustment lifts one of them (O-10: the final faces)
            fumble = bool(faces) and all(f == 1 for f in faces) and adjust == 0
            if not fumble and sum(values[f - 1] for f in faces) + gain + bonus >= need:
                return True
    return False


def _reroll_average(faces, reroll, then, values, difficulty, counts) -> Fraction:  # type: ignore[no-untyped-def]
    up_to = reroll_up_to(reroll)
    indexes = [i for i, f in enumerate(faces) if f <= up_to]
    hits = 0
    for new in product(range(1, 7), repeat=len(indexes)):
        final = list(faces)
        for index, face in zip(indexes, new, strict=True):
            final[index] = face
        hits += then(tuple(final))
    return Fraction(hits, 6 ** len(indexes))


def _best_after(
    faces: tuple[int, ...], budget: int, difficulty: int, values: tuple[int, ...], counts: bool
) -> Fraction:
    best = Fraction(int(_pass_after_adjust(faces, budget, difficulty, values, counts)))
    for reroll in (1, 2, 3):
        left = budget - tier_cost(reroll)
        if left < 0:
            continue
        value = _reroll_average(
            faces,
            reroll,
            lambda f, left=left: _pass_after_adjust(f, left, difficulty, values, counts),
            values,
            difficulty,
            counts,
        )
        best = max(best, value)
    return best


def _brute_before(
    dice: int, points: int, difficulty: int, scoring: Scoring, counts: bool
) -> dict[int, Fraction]:
    out = {}
    for tier in range(4):
        if tier_cost(tier) > points:
            continue
        n = dice + extra_dice(tier)
        total = sum(
            _best_after(faces, points - tier_cost(tier), difficulty, scoring.values, counts)
            for faces in product(range(1, 7), repeat=n)
        )
        out[tier] = Fraction(total, 6**n)
    return out


@pytest.mark.parametrize(
    ("dice", "points", "difficulty", "scoring", "counts"),
    [
        (2, 4, 2, Scoring.NORMAL, False),
        (1, 6, 3, Scoring.NORMAL, False),
        (2, 3, 3, Scoring.ZERO_SKILL, False),
        (1, 4, 2, Scoring.NORMAL, True),
        (2, 6, 3, Scoring.NORMAL, True),
        (0, 6, 1, Scoring.NORMAL, True),
    ],
)
def test_O10_advisor_before_roll_equals_brute_force(
    dice: int, points: int, difficulty: int, scoring: Scoring, counts: bool
) -> None:
    """O-10 advisor: before the roll, every option's probability equals brute force over
    all faces and all choices (best play after the roll)."""
    options = advise_before(dice, difficulty, points, scoring=scoring, counts_margin=counts)
    expected = _brute_before(dice, points, difficulty, scoring, counts)
    assert {o.plan.dice: o.p_success for o in options} == expected
    assert [o.p_success for o in options] == sorted((o.p_success for o in options), reverse=True)


@pytest.mark.parametrize(
    ("faces", "points", "difficulty"),
    [((1, 2, 5), 4, 3), ((1, 1, 3), 7, 3), ((3, 3, 2, 1), 6, 4), ((6,), 1, 2), ((1, 1), 10, 2)],
)
def test_O10_advisor_after_roll_equals_brute_force(
    faces: tuple[int, ...], points: int, difficulty: int
) -> None:
    """O-10 advisor: with the faces known, each plan's probability is exact (rerolls have a
    known distribution), and the best option is the best play."""
    values = Scoring.NORMAL.values
    options = advise_after(faces, difficulty, points)
    for option in options:
        plan = option.plan

        def adjusted(final: tuple[int, ...], plan: PushPlan = plan) -> bool:
            gain = _explicit_best(final, plan.adjust, values)
            return sum(values[f - 1] for f in final) + gain >= difficulty

        if plan.reroll:
            expected = _reroll_average(faces, plan.reroll, adjusted, values, difficulty, False)
        else:
            expected = Fraction(int(adjusted(faces)))
        assert option.p_success == expected, plan
        assert option.cost == plan.cost <= points
    assert options[0].p_success == _best_after(faces, points, difficulty, values, False)
    costs = [o.cost for o in options]
    assert costs == sorted(costs, reverse=True) or len(set(o.p_success for o in options)) == len(
        options
    )


def test_O10_advisor_names_the_cheapest_sure_spend() -> None:
    """O-10: 3,3,1 at difficulty 2: two +1 adjustments (3 points) make it sure; for 2
    points, a reroll of the 1 and one +1 give 1/2."""
    options = advise_after((3, 3, 1), 2, 6)
    best = options[0]
    assert (
        best.p_success == 1 and best.cost == 3 and best.plan.adjust == 2 and best.plan.reroll == 0
    )
    cheaper = {o.cost: o.p_success for o in options}
    assert cheaper[2] == Fraction(1, 2)
    assert cheaper[0] == 0


@pytest.mark.parametrize("scoring", list(Scoring))
def test_O10_fast_before_roll_walk_equals_the_plain_multiset_sum(scoring: Scoring) -> None:
    """O-10 advisor: the memoised walk over the first roll equals summing every face
    multiset with its multinomial weight (a second, plainer path)."""
    from meneur.systems.obscur.advisor import after_roll_value, before_roll_value, multisets

    for dice, budget, difficulty, counts in [(3, 4, 3, False), (5, 7, 5, True), (6, 2, 4, False)]:
        plain = (
            sum(
                weight * after_roll_value(c, scoring, budget, difficulty, counts)
                for c, weight in multisets(dice)
            )
            / 6**dice
        )
        assert before_roll_value(dice, scoring, budget, difficulty, counts) == plain


@pytest.mark.parametrize("scoring", list(Scoring))
def test_O10_the_advisor_walk_equals_the_multiset_sum_with_every_budget(scoring: Scoring) -> None:
    """O-10 advisor: the walk that reads each count of 3s once (the splits of 1s and 2s
    sorted by value, bisected at the floor the wider rerolls give) equals the plain sum
    over every face multiset, with budgets that afford every reroll tier and
    difficulties from sure to out of reach."""
    from meneur.systems.obscur.advisor import after_roll_value, before_roll_value, multisets

    for dice, budget, difficulty, counts in [
        (9, 30, 9, False),
        (10, 12, 14, True),
        (8, 5, 30, False),
    ]:
        plain = sum(
            weight * after_roll_value(c, scoring, budget, difficulty, counts)
            for c, weight in multisets(dice)
        ) / Fraction(6**dice)
        assert before_roll_value(dice, scoring, budget, difficulty, counts) == plain


def test_O10_reroll_hits_read_from_the_tail_equal_the_direct_count() -> None:
    """O-10: the rerolled sequences that pass, read from one tail table per (class kept,
    dice rerolled, points left), equal the direct count over the rerolled dice's law for
    every number of successes still needed (below 0, in range, beyond every total)."""
    from meneur.systems.obscur.advisor import best_gain, reroll_hits
    from meneur.systems.obscur.automaton import machine
    from meneur.systems.obscur.odds import class_dist

    for scoring in Scoring:
        classes = range(len(machine(scoring).step))
        for kept, rerolled, budget, counts in product(classes, (1, 4), (0, 3, 30), (False, True)):
            dist = class_dist(rerolled, scoring, 0, kept)
            for need in (-2, 0, 1, 3, 6, 40):
                direct = sum(
                    w
                    for (s, cls), w in dist.items()
                    if s + best_gain(scoring, cls, budget, counts) >= need
                )
                assert reroll_hits(scoring, kept, rerolled, budget, need, counts) == direct


def test_O10_the_advisor_reaches_every_pool_a_test_takes() -> None:
    """O-10: the advisor weighs a pool up to ``MAX_POOL`` (a Potentiel d'Action of 60
    with +60 of modifier, what ``test`` and ``odds`` take) plus the dice a Dépassement
    buys (it stopped at 26, then at 60 + 3): with no points its chance is the plain
    test's (the successes' law, a separate engine), more points never lower it, and one
    die more is refused."""
    from meneur.errors import LimitError
    from meneur.systems.obscur.advisor import before_roll_value
    from meneur.systems.obscur.depassement import TIERS, extra_dice
    from meneur.systems.obscur.odds import successes_weights
    from meneur.systems.obscur.rules import MAX_POOL, TestParams

    most = MAX_POOL + max(extra_dice(tier) for tier in TIERS)
    assert most == 123
    weights = successes_weights(most, Scoring.NORMAL)
    assert before_roll_value(most, Scoring.NORMAL, 0, 40, False) == Fraction(
        sum(weights[40:]), 6**most
    )
    chances = [before_roll_value(most, Scoring.NORMAL, b, 44, False) for b in (0, 2, 6)]
    assert chances == sorted(chances) and chances[0] < chances[-1] < 1
    with pytest.raises(LimitError, match=str(most)):
        before_roll_value(most + 1, Scoring.NORMAL, 0, 40, False)
    options = advise_before(TestParams.MAX_DICE, 44, 6)
    assert {o.plan.dice for o in options} == set(TIERS)


def test_O8_a_maladresse_is_never_a_success_even_when_the_margin_counts() -> None:
    """O-8 « a Maladresse is never a success », with O-10's option where a margin
    adjustment counts as successes: 1-1 with +3 counted against 3 fails, and the exact
    odds leave out the 1/36 of Maladresses (35/36, not 1), as the vectorised check does."""
    from meneur.systems.obscur.vector import ObscurTestVector

    params = Params(2, difficulty=3, push=PushPlan(margin=3), margin_counts=True)
    fumbled = roll(params, 1, 1)
    assert fumbled.fumble and not fumbled.passed and fumbled.margin <= 0
    assert roll(params, 1, 2).passed  # a 2 beside the 1: no Maladresse, the margin counts
    dist = dist_of(params)
    assert dist.p_where(lambda key: verdict(params, key[0], key[1])[0]) == Fraction(35, 36)
    faces = np.array([[[a, b]] for a in range(1, 7) for b in range(1, 7)])
    vector = ObscurTestVector(params)
    assert int(vector.success(vector(faces)).sum()) == 35


def test_O10_a_score_adjustment_names_only_a_die_rolled() -> None:
    """O-10: « un dé +1 » is one of the dice rolled: on 2 dice, the 3rd (index 2) is
    refused before any face is read; the 2nd (index 1) is taken."""
    with pytest.raises(RuleError):
        Params(2, push=PushPlan(adjust=1, adjust_on=((2, 1),)))
    assert roll(Params(2, push=PushPlan(adjust=1, adjust_on=((1, 1),))), 1, 3).faces == (1, 4)


def test_O7_O10_a_margin_adjustment_on_no_dice_lowers_the_me_and_still_fails() -> None:
    """O-7: 0 dice cannot succeed and make no Maladresse; O-10: ME − 1 still applies.
    At difficulty 2 with no dice the ME is 2; a margin adjustment of 1 makes it 1."""
    params = Params(2, modifier=-2, difficulty=2, push=PushPlan(margin=1))
    outcome = roll(params)
    assert outcome.faces == () and not outcome.fumble
    assert not outcome.passed and outcome.margin == -1


def test_O7_no_dice_cannot_succeed_even_when_the_margin_counts() -> None:
    """O-7 « a pool of 0 or fewer dice cannot succeed », under O-10's option where a
    margin adjustment counts as successes: no die is rolled to count it on. The roll, the
    exact odds, the vectorised check and the advisor (before and after the roll) agree:
    +3 bought on no dice against difficulty 1 fails, ME 0."""
    from meneur.systems.obscur.vector import ObscurTestVector

    params = Params(2, modifier=-2, push=PushPlan(margin=3), margin_counts=True)
    outcome = roll(params)
    assert outcome.faces == () and not outcome.passed and outcome.margin == 0
    assert dist_of(params).p_where(lambda key: verdict(params, key[0], key[1])[0]) == 0
    vector = ObscurTestVector(params)
    assert not vector.success(vector(np.ones((4, 1, 1), dtype=np.int64))).any()
    before = {o.plan.dice: o.p_success for o in advise_before(0, 1, 6, counts_margin=True)}
    assert before[0] == 0 and before[1] == 1  # one die bought: adjust its 1 and add +3
    assert [(o.plan.margin, o.p_success) for o in advise_after((), 1, 6, counts_margin=True)] == [
        (0, 0)
    ]


def test_O10_the_margin_option_is_read_from_the_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O-10 option « it counts as successes »: with no choice on the test, the table's
    rules.toml decides; set there, a margin adjustment of 2 lifts 1 success to the
    difficulty 3 (MR 0)."""
    shipped = resources.files("meneur.systems.obscur").joinpath("data/rules.toml")
    text = shipped.read_text(encoding="utf-8")
    assert "margin_counts_as_successes = false" in text
    folder = tmp_path / "obscur"
    folder.mkdir()
    (folder / "rules.toml").write_text(
        text.replace("margin_counts_as_successes = false", "margin_counts_as_successes = true"),
        encoding="utf-8",
    )
    params = Params(2, difficulty=3, push=PushPlan(margin=2))
    assert not roll(params, 4, 1).passed  # the shipped default: no
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    rule_tables.cache_clear()
    try:
        outcome = roll(params, 4, 1)
        assert outcome.passed and outcome.margin == 0
    finally:
        monkeypatch.delenv("MENEUR_DATA_DIR")
        rule_tables.cache_clear()


def test_O10_a_margin_adjustment_past_the_me_stops_at_zero() -> None:
    """O-10: « ME − n » shrinks a failure's margin, never past 0 into an MR: ME 1 with a
    margin adjustment of 3 is a failure of margin 0, not an MR of 2 (nor of 1)."""
    outcome = roll(Params(2, difficulty=2, push=PushPlan(margin=3)), 4, 1)
    assert not outcome.passed and outcome.margin == 0


def test_O10_the_json_numbers_the_dice_adjusted_and_rerolled_from_1() -> None:
    """O-10: the JSON names the dice as the player counts them, from 1: +1 on the 2nd
    die is [2, 1]; the rerolled 1st die is 1."""
    params = Params(2, push=PushPlan(reroll=1, adjust=1, adjust_on=((1, 1),)))
    outcome = roll(params, 1, 3, 5)
    data = CHECK.to_json(params, outcome)
    assert data["rolled"] == [1, 3] and data["faces"] == [5, 4]
    assert data["rerolled"] == [1] and data["adjusted"] == [[2, 1]]


def test_O10_a_score_adjustment_refuses_a_die_before_the_first() -> None:
    """O-10: « un dé +1 » is a die rolled: an index below the first die is refused, alone
    or beside a good one; a plan that names no die (no adjustment) is accepted."""
    with pytest.raises(RuleError):
        PushPlan(adjust=1, adjust_on=((-1, 1),))
    with pytest.raises(RuleError):
        PushPlan(adjust=2, adjust_on=((0, 1), (-1, 1)))
    assert PushPlan(adjust_on=()).cost == 0


def test_O10_a_plan_is_empty_when_it_buys_nothing() -> None:
    """O-10: a plan costing nothing buys nothing (no spend is shown); the cheapest tier
    (1 point) is a spend."""
    assert NO_PUSH.is_empty and PushPlan(adjust_on=()).is_empty
    assert not PushPlan(margin=1).is_empty
    assert not PushPlan(dice=1, reroll=1).is_empty


def test_O10_the_automatic_adjustment_takes_the_first_best_split_and_the_lowest_dice() -> None:
    """O-10, « the engine chooses »: among splits of equal gain the text's order wins (one
    die +2 before two dice +1): 3-1 becomes 5-1, not 4-2; an increment that helps no die
    goes on the lowest die (6-1 with +1 becomes 6-2)."""
    assert roll(Params(2, push=PushPlan(adjust=2)), 3, 1).faces == (5, 1)
    assert roll(Params(2, push=PushPlan(adjust=1)), 6, 1).faces == (6, 2)
    assert roll(Params(2, push=PushPlan(adjust=1)), 1, 6).faces == (2, 6)


def test_O10_payment_skips_resources_at_zero_missing_or_negative() -> None:
    """O-10: « spending never drives a resource below 0 »: the data's order (Vécu,
    Volonté, Moral) passes over a resource at 0, below 0 or not given, and a mix asked
    from a resource not given is refused."""
    assert dict(plan_payment(2, {"vecu": 0, "volonte": 5, "moral": 0}).points) == {"volonte": 2}
    assert dict(plan_payment(3, {"vecu": -1, "volonte": 1, "moral": 5}).points) == {
        "volonte": 1,
        "moral": 2,
    }
    assert dict(plan_payment(2, {"moral": 5}).points) == {"moral": 2}
    with pytest.raises(RuleError):
        plan_payment(3, {"volonte": 2, "moral": 5}, asked={"vecu": 1, "moral": 2})


def test_O10_single_resource_payment_takes_the_first_that_holds_the_whole_cost() -> None:
    """O-10 option « one resource per test »: the first resource in the data's order that
    can pay the whole cost pays it, exactly enough included; one not given cannot."""
    available = {"vecu": 1, "volonte": 3, "moral": 5}
    assert dict(plan_payment(3, available, single_resource=True).points) == {"volonte": 3}
    assert dict(plan_payment(1, {"moral": 2}, single_resource=True).points) == {"moral": 1}


def test_O10_single_resource_payment_no_resource_holds_the_cost() -> None:
    """O-10 option « one resource per test »: when no resource holds the whole cost, the
    refusal says so (it used to name Vécu, the first in the order, as falling below 0)."""
    with pytest.raises(RuleError) as refused:
        plan_payment(4, {"vecu": 1, "volonte": 3, "moral": 2}, single_resource=True)
    assert refused.value.params == {"cost": 4} and "aucune ne détient les 4 points" in str(
        refused.value
    )
    with pytest.raises(RuleError) as absent:
        plan_payment(1, {}, single_resource=True)
    assert absent.value.params == {"cost": 1}


def test_O10_a_refused_payment_counts_the_points_there_are() -> None:
    """O-10, never below 0: « it costs 5, 2 are available » counts each resource from 0
    (a resource below 0 gives nothing), and a resource the sheet lacks has 0 left."""
    with pytest.raises(RuleError) as short:
        plan_payment(5, {"vecu": 1, "volonte": -2, "moral": 1})
    assert short.value.params == {"cost": 5, "have": 2}
    with pytest.raises(RuleError) as lacking:
        plan_payment(2, {"vecu": 1}, asked={"moral": 2})
    assert lacking.value.params == {"name": "Moral", "value": 2, "have": 0}


def test_O10_an_empty_score_adjustment_of_tier_1_names_its_split_as_a_dash() -> None:
    """O-10: a tier-1 score adjustment placed on no die is refused, its split shown « - »."""
    with pytest.raises(RuleError) as refused:
        PushPlan(adjust=1, adjust_on=())
    assert refused.value.params == {"tier": 1, "split": "-"}


def test_O10_a_vectorised_reroll_of_one_run_reads_the_fresh_faces_in_order() -> None:
    """O-10 reroll tier 1 (the 1s), vectorised, on a single run: 1, 1, 1 are rerolled
    as 4, 5, 6 (the faces after the pool, in the dice's order): 1 + 1 + 2 = 4 successes,
    as the scalar roll; 6, 6, 6 rerolls nothing and keeps its 6 successes."""
    from meneur.systems.obscur.vector import ObscurTestVector

    params = Params(3, push=PushPlan(reroll=1))
    vector = ObscurTestVector(params)
    assert vector.width == 6
    rerolled = vector(np.array([[[1, 1, 1, 4, 5, 6]]]))
    assert vector.key_at(rerolled, 0) == (4, False)
    assert roll(params, 1, 1, 1, 4, 5, 6).successes == 4
    kept = vector(np.array([[[6, 6, 6, 6, 6, 6]]]))
    assert vector.key_at(kept, 0) == (6, False)


def test_O10_a_vectorised_best_adjustment_of_one_run() -> None:
    """O-10 score adjustment tier 1 (one die +1), vectorised, on a single run: 3, 1
    becomes 4, 1: 1 success, and no Maladresse."""
    from meneur.systems.obscur.vector import ObscurTestVector

    params = Params(2, push=PushPlan(adjust=1))
    vector = ObscurTestVector(params)
    assert vector.key_at(vector(np.array([[[3, 1]]])), 0) == (1, False)
    assert roll(params, 3, 1).successes == 1


def test_O10_a_vectorised_best_adjustment_sees_four_dice_of_one_face() -> None:
    """O-10 one die +1 on four equal faces, vectorised: 3, 3, 3, 3 gains 1 (a 3 made a
    4); 5, 5, 5, 5 has 4 successes and gains 1 more (a 5 made a 6)."""
    from meneur.systems.obscur.vector import ObscurTestVector

    params = Params(4, push=PushPlan(adjust=1))
    vector = ObscurTestVector(params)
    result = vector(np.array([[[3, 3, 3, 3]], [[5, 5, 5, 5]]]))
    assert [vector.key_at(result, i) for i in range(2)] == [(1, False), (5, False)]
    assert [roll(params, *[face] * 4).successes for face in (3, 5)] == [1, 5]
