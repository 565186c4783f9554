"""What a Tunnels roll highlights (the checks' ``marks``), and a test chosen batch by batch."""

from __future__ import annotations

import pytest

from meneur.errors import MeneurError
from meneur.systems.tunnels.combat import FightParams, TunnelsFight, character, monster
from meneur.systems.tunnels.rules import OpposedParams, Side, TestParams, TunnelsOppose, TunnelsTest


def test_T3_T4_T8_marks_follow_the_mode_and_the_three_ones() -> None:
    test = TunnelsTest()
    assert test.marks(TestParams(4, 2, explode="never"), ((1, 3, 4, 6),)) == (
        ("", "", "hit", "hit"),
    )
    assert test.marks(TestParams(4, 2, blessed=True, explode="never"), ((1, 3, 4, 6),)) == (
        ("", "hit", "hit", "hit"),
    )
    assert test.marks(TestParams(4, 2, cursed=True, explode="never"), ((1, 3, 4, 6),)) == (
        ("", "", "", "hit"),
    )
    assert test.marks(TestParams(3, 1, explode="never"), ((1, 1, 1),)) == (
        ("fumble", "fumble", "fumble"),
    )


def test_T4_T9_each_side_of_an_opposition_is_marked_by_its_own_mode() -> None:
    params = OpposedParams(Side(2, blessed=True, explode="never"), Side(2, explode="never"))
    assert TunnelsOppose().marks(params, ((3, 4), (3, 4))) == (("hit", "hit"), ("", "hit"))


def test_T10_a_fight_is_marked_exchange_by_exchange() -> None:
    params = FightParams(character("a", 2, 1), monster("b", 1), explode="never", vs_explode="never")
    faces = ((4, 5), (2,))
    assert TunnelsFight().marks(params, faces) == (("hit", "hit"), ("",))


def test_T6_a_test_chosen_batch_by_batch_stops_where_the_player_stopped() -> None:
    """T-6: 2-2-5 grants a die; the player stopped after the first batch, so it is not read."""
    stopped = TestParams(3, 2, explode="always", chosen_batches=1)
    outcome = TunnelsTest().resolve(stopped, ((2, 2, 5),))
    assert outcome.batches == ((2, 2, 5),) and outcome.successes == 1 and not outcome.passed
    went_on = TestParams(3, 2, explode="always", chosen_batches=2)
    assert TunnelsTest().resolve(went_on, ((2, 2, 5, 6),)).passed
    with pytest.raises(MeneurError):
        TunnelsTest().odds(stopped)  # the player's choices have no exact odds
    for bad in (0, 4, True):
        with pytest.raises(MeneurError):
            TestParams(3, 2, chosen_batches=bad)  # type: ignore[arg-type]


def test_T8_T10_a_fight_marks_the_ones_of_an_exchange_lost_on_three_of_them() -> None:
    """T-8/T-10: three 1s in an exchange are a critical failure, marked; a single 1 is not."""
    params = FightParams(
        character("a", 3, 1), monster("b", 3), explode="never", vs_explode="never", max_rounds=1
    )
    faces = ((1, 1, 1), (1, 2, 4))
    assert TunnelsFight().marks(params, faces) == (("fumble", "fumble", "fumble"), ("", "", "hit"))
