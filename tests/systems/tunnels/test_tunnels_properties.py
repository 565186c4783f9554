"""Properties of the Tunnels test over random faces (hypothesis): T-3 to T-8 hold together."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meneur.systems.tunnels.rules import (
    LOWEST_SUCCESS,
    POLICIES,
    TestParams,
    TunnelsTest,
    extra_dice,
)

TEST = TunnelsTest()

params_strategy = st.builds(
    TestParams,
    dice=st.integers(1, 8),
    threshold=st.integers(1, 8),
    blessed=st.booleans(),
    cursed=st.booleans(),
    explode=st.sampled_from(POLICIES),
    sixes=st.sampled_from(("batch", "all")),
)


@settings(max_examples=400, deadline=None)
@given(params=params_strategy, faces=st.lists(st.integers(1, 6), min_size=40, max_size=40))
def test_T5_T6_batches_follow_the_rule(params: TestParams, faces: list[int]) -> None:
    """T-5/T-6: each batch has the previous batch's extra dice; the policy decides."""
    out = TEST.resolve(params, (tuple(faces),))
    batches = out.batches
    assert len(batches[0]) == params.dice
    assert out.faces == tuple(faces[: len(out.faces)])
    lowest = LOWEST_SUCCESS[params.mode]
    successes = 0
    for index, batch in enumerate(batches):
        successes += sum(face >= lowest for face in batch)
        if index + 1 < len(batches):
            assert len(batches[index + 1]) == extra_dice(batch)
            assert params.explode != "never"
            if params.explode == "needed":
                assert successes < params.threshold
        elif extra_dice(batch) and params.explode == "always":
            raise AssertionError("always must explode every double")
        elif extra_dice(batch) and params.explode == "needed":
            assert successes >= params.threshold


@settings(max_examples=400, deadline=None)
@given(params=params_strategy, faces=st.lists(st.integers(1, 6), min_size=40, max_size=40))
def test_T3_T7_T8_verdict_is_consistent(params: TestParams, faces: list[int]) -> None:
    """T-3/T-7/T-8: successes, critical failure and exceptional success agree with the faces."""
    out = TEST.resolve(params, (tuple(faces),))
    lowest = LOWEST_SUCCESS[params.mode]
    assert out.successes == sum(face >= lowest for face in out.faces)
    assert out.critical == (out.faces.count(1) >= 3)
    assert out.passed == (out.successes >= params.threshold and not out.critical)
    three_in_a_batch = any(batch.count(6) >= 3 for batch in out.batches)
    streak = three_in_a_batch if params.sixes == "batch" else out.faces.count(6) >= 3
    assert out.exceptional == (out.passed and streak)
    assert out.margin == out.successes - params.threshold
