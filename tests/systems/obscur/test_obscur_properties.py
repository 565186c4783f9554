"""Property tests: for any small test, the exact odds equal brute force over the faces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meneur.odds import brute_force
from meneur.systems.obscur.checks import TestCheck as Check
from meneur.systems.obscur.depassement import PushPlan
from meneur.systems.obscur.rules import TestParams as Params

CHECK = Check()


@st.composite
def small_tests(draw: st.DrawFn) -> Params:
    dice = draw(st.integers(0, 2))
    plan = PushPlan(
        dice=draw(st.integers(0, 1)),
        reroll=draw(st.integers(0, 3)),
        adjust=draw(st.integers(0, 3)),
        margin=draw(st.integers(0, 3)),
    )
    return Params(
        dice,
        difficulty=draw(st.integers(1, 5)),
        modifier=draw(st.integers(-2, 1)),
        zero_skill=draw(st.booleans()),
        zero_attribute=draw(st.booleans()),
        push=plan,
        margin_counts=draw(st.booleans()),
    )


@settings(max_examples=60, deadline=None)
@given(small_tests())
def test_O2_to_O10_odds_equal_brute_force_for_any_small_test(params: Params) -> None:
    """O-2..O-10: every combination of pool, zero rules, modifier and Dépassement plan."""
    assert CHECK.odds(params) == brute_force(CHECK, params)


@settings(max_examples=60, deadline=None)
@given(small_tests(), st.lists(st.integers(1, 6), min_size=8, max_size=8))
def test_O10_final_faces_never_exceed_six_and_fumble_is_all_ones(
    params: Params, faces: list[int]
) -> None:
    """O-10: a face never exceeds 6; O-3: Maladresse iff every final face is 1."""
    outcome = CHECK.resolve(params, (tuple(faces),))
    assert all(1 <= f <= 6 for f in outcome.faces)
    assert outcome.fumble == (bool(outcome.faces) and all(f == 1 for f in outcome.faces))
    assert len(outcome.faces) == params.pool
