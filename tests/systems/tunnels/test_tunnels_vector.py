"""The numpy form of the Tunnels checks (``tunnels/vector.py``) on faces given by hand.

``tests/test_conformance_vector.py`` ties each vectorised resolve to the scalar one on
random faces; what it never reads (widths, ``success``, the margin of two critical
failures, the edges of automatic Chance, the cap on exchanges) is pinned here, each value
derived by hand from the rules.
"""

from __future__ import annotations

import numpy as np

from meneur.systems.tunnels.combat import Fighter, FightParams, character, monster
from meneur.systems.tunnels.rules import OpposedParams, Side, TestParams
from meneur.systems.tunnels.vector import (
    TiesRolledAgain,
    TunnelsFightVector,
    TunnelsOpposeVector,
    TunnelsTestVector,
    judge,
    tunnels_chance,
)
from meneur.vector import ArrayReader


def _fight(params: FightParams, faces_a: list[int], faces_b: list[int]) -> tuple[object, bool]:
    """One fight on the given faces: its key and whether side a won (``success``)."""
    vector = TunnelsFightVector(params)
    result = vector(np.array([[faces_a, faces_b]]))
    return vector.key_at(result, 0), bool(vector.success(result)[0])


def test_T5_a_roll_reads_at_most_n_plus_n_minus_1_down_to_1_dice() -> None:
    """T-5: a batch of n dice grants at most n - 1, so n dice read at most n(n+1)/2 faces
    (3 dice: 3 + 2 + 1 = 6; 60 dice: 1830); none beyond the pool when nothing explodes. A
    fight reads at most 4 exchanges a round (ties rolled again), each of its largest pool."""
    assert TunnelsTestVector(TestParams(3, 2, explode="never")).width == 3
    assert TunnelsTestVector(TestParams(3, 2, explode="always")).width == 6
    assert TunnelsTestVector(TestParams(60, 2)).width == 1830
    fight = FightParams(character("a", 3, 5), monster("b", 2), max_rounds=12)
    assert TunnelsFightVector(fight).width == 4 * 12 * 6


def test_T3_T8_the_vectorised_test_passes_at_the_threshold_without_three_ones() -> None:
    """T-3: passed at successes >= threshold (2 of 5 dice); T-8: three 1s fail it whatever
    its successes; T-7: three 6s do not change the verdict."""
    vector = TunnelsTestVector(TestParams(5, 2, explode="never"))
    rows = [
        (4, 5, 2, 2, 3),  # 2 successes: just passes
        (1, 1, 1, 4, 5),  # 2 successes, three 1s: fails
        (4, 2, 2, 3, 3),  # 1 success: fails
        (6, 6, 6, 2, 3),  # 3 successes, three 6s: passes
    ]
    result = vector(np.array(rows)[:, None, :])
    assert vector.success(result).tolist() == [True, False, False, True]


def test_T9_judge_many_exchanges() -> None:
    """T-9: more successes wins by the difference; a critical failure loses (by the
    difference, at least 1); both critical: nobody wins, margin 0."""
    cases = [  # (sa, ca, sb, cb) -> (winner, margin)
        ((3, False, 1, False), (1, 2)),
        ((1, False, 3, False), (-1, 2)),
        ((2, False, 2, False), (0, 0)),
        ((3, True, 1, False), (-1, 1)),
        ((0, True, 4, False), (-1, 4)),
        ((1, False, 3, True), (1, 1)),
        ((4, True, 2, True), (0, 0)),
    ]
    sa, ca, sb, cb = (np.array(column) for column in zip(*(c for c, _ in cases), strict=True))
    winner, margin = judge(sa, ca, sb, cb)
    assert list(zip(winner.tolist(), margin.tolist(), strict=True)) == [e for _, e in cases]


def test_T9_option_ties_rolled_again_leave_no_tie() -> None:
    """T-9 option (reroll): one die against one die, no explosion and no critical failure
    possible, ties half the time; rolled again, every run ends with a winner by 1."""
    ties = TiesRolledAgain(
        TunnelsOpposeVector(OpposedParams(Side(1, explode="never"), Side(1, explode="never")))
    )
    for seed in range(20):
        result = ties.sample(np.random.default_rng(seed), 1)
        assert not ties.nobody(result).any(), seed
        assert result[0].tolist() in ([1], [-1]), seed


def _chance(params: TestParams, faces: list[int], rerolls: list[int]) -> tuple[bool, int]:
    passed, spent = tunnels_chance(
        ArrayReader(np.array([faces])), ArrayReader(np.array([rerolls])), 1, params, 3
    )
    return bool(passed[0]), int(spent[0])


def test_T12_chance_rerolls_a_single_failed_die() -> None:
    """T-12: 2 dice at threshold 2 show 4 and 1: the one failed die is rerolled (5), one
    Chance spent, the test passes."""
    assert _chance(TestParams(2, 2, explode="never"), [4, 1], [5, 5, 5]) == (True, 1)


def test_T12_chance_stops_when_no_failed_die_is_left() -> None:
    """T-12: 2 dice cannot reach threshold 3. Shown 2 and 4, the 2 is rerolled (5) and
    then no die has failed: one Chance spent, still failed. Shown 4 and 5, nothing to
    reroll: none spent."""
    params = TestParams(2, 3, explode="never")
    assert _chance(params, [2, 4], [5, 5, 5]) == (False, 1)
    assert _chance(params, [4, 5], [5, 5, 5]) == (False, 0)


def test_T11_a_loss_absorbed_whole_leaves_endurance_0_unwounded() -> None:
    """T-10, T-11: armour 9 takes the whole loss of margin 1, so a character at Endurance
    0 loses nothing and is not wounded (only a loss brings Endurance to 0). Round 1: 1
    against 4, a loses 0; round 2: 4 against 1, the orc goes from MR 1 to 0."""
    hero = Fighter("a", 1, endurance=0, max_endurance=0, absorb=9)
    params = FightParams(hero, monster("b", 1), explode="never", vs_explode="never", max_rounds=2)
    key, won = _fight(params, [1, 4, 4, 4, 4, 4, 4, 4], [4, 1, 1, 1, 1, 1, 1, 1])
    assert (key, won) == (("a", 2, False, False, False, False), True)
    key, won = _fight(params, [1, 1, 1, 1, 1, 1, 1, 1], [4, 4, 4, 4, 4, 4, 4, 4])
    assert (key, won) == ((None, 2, False, False, False, False), False)


def test_T9_ties_rolled_again_end_a_fight_after_four_exchanges_a_round() -> None:
    """T-9 option (reroll) in a fight of 1 round: four tied exchanges (4 against 4) end it
    unfinished, no round counted, though a fifth (4 against 1) would have won it."""
    params = FightParams(
        character("a", 1, 1),
        monster("b", 1),
        explode="never",
        vs_explode="never",
        tie="reroll",
        max_rounds=1,
    )
    key, won = _fight(params, [4] * 8, [4, 4, 4, 4, 1, 1, 1, 1])
    assert (key, won) == ((None, 0, False, False, False, False), False)
