"""Verdicts at a threshold from cut tables (``passlaw``) against the whole law (T-3..T-8).

``pass_odds`` never builds the law of successes: ``always`` keeps the weights below the
cap and each class's mass, ``needed`` runs backward over the successes still missing.
Both must give the very fractions the whole law gives, for every policy, mode and sixes
rule; the comparisons are exact (integer weights over the same total, or Fractions).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from meneur.systems.tunnels.odds import pass_odds, test_odds
from meneur.systems.tunnels.passlaw import Family
from meneur.systems.tunnels.polylaw import most_dice
from meneur.systems.tunnels.rules import POLICIES, Policy, SixesRule, TestParams, check_policy

MODES = ("normal", "blessed", "cursed")


def whole(params: TestParams) -> tuple[Fraction, Fraction, Fraction]:
    """Success, exceptional success, critical failure read from the whole law."""
    law = test_odds(params)
    return (
        law.p_where(lambda k: k[0] >= params.threshold and not k[2]),
        law.p_where(lambda k: k[1]),
        law.p_where(lambda k: k[2]),
    )


def fast(params: TestParams, cap: int | None = None) -> tuple[Fraction, Fraction, Fraction]:
    weights = pass_odds(params, cap)
    return (
        Fraction(weights.success, weights.total),
        Fraction(weights.exceptional, weights.total),
        Fraction(weights.critical, weights.total),
    )


def make(dice: int, threshold: int, mode: str, sixes: SixesRule, policy: Policy) -> TestParams:
    return TestParams(
        dice,
        threshold,
        blessed=mode == "blessed",
        cursed=mode == "cursed",
        explode=policy,
        sixes=sixes,
    )


def thresholds(dice: int) -> list[int]:
    """Every threshold up to one past the most successes for small pools; beyond, the
    edges and a spread (the ``needed`` law is one computation per threshold)."""
    top = most_dice(dice) + 1
    if dice <= 7:
        return list(range(1, top + 2))
    return sorted({1, 2, 3, dice // 2, dice - 1, dice, dice + 1, 2 * dice, top, top + 5})


@pytest.mark.parametrize("sixes", ["batch", "all"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("policy", POLICIES)
def test_T3_T8_verdicts_equal_the_whole_law_up_to_18_dice(
    policy: Policy, mode: str, sixes: SixesRule
) -> None:
    """T-3..T-8 (T-6 every policy, T-7 both rules): success, exceptional success and
    critical failure from the cut tables equal the whole law's, 1 to 18 dice."""
    for dice in range(1, 19):
        if policy == "needed" and dice > 12 and dice % 3:
            continue  # one whole law per threshold: 13..18 dice sampled
        for threshold in thresholds(dice):
            params = make(dice, threshold, mode, sixes, policy)
            assert fast(params) == whole(params), (dice, threshold)


@pytest.mark.parametrize("policy", ["needed", "always"])
def test_T6_one_table_serves_every_threshold_below_its_cap(policy: Policy) -> None:
    """T-6: a table cut at 64 (a grid's) gives the cells a table cut at the threshold
    gives (a single query's): the cut only drops weights above it."""
    for dice in (5, 13, 21):
        for threshold in (1, 4, dice, 40):
            params = make(dice, threshold, "blessed", "all", policy)
            assert fast(params, cap=64) == fast(params)


def test_T6_needed_stops_at_the_threshold_always_does_not() -> None:
    """T-6, T-8: exploding past the threshold only adds risk of three 1s: with the same
    dice, ``needed`` fails critically less often than ``always`` and passes as often."""
    needed = fast(make(10, 3, "normal", "batch", "needed"))
    always = fast(make(10, 3, "normal", "batch", "always"))
    assert needed[2] < always[2]
    assert needed[0] > always[0]


def test_T3_thresholds_beyond_every_success_never_pass() -> None:
    """T-3: 3 dice roll at most 6 dice in all (2 + 1 extra): threshold 7 or 1000 never
    passes, and both ask the same question."""
    for threshold in (7, 1000):
        success, exceptional, critical = fast(make(3, threshold, "normal", "batch", "always"))
        assert success == exceptional == 0 and critical > 0
    assert fast(make(3, 7, "normal", "all", "needed")) == fast(
        make(3, 1000, "normal", "all", "needed")
    )


PINS = json.loads((Path(__file__).parent / "pinned_odds.json").read_text())
PINNED = {**PINS["pins"], **PINS["verdict_pins"]}


@pytest.mark.parametrize("key", sorted(PINNED))
def test_T3_T8_pinned_verdicts_at_large_pools(key: str) -> None:
    """T-3..T-8 at 60 dice (every policy, ``always`` too): the fractions the whole-law
    engines computed once, pinned."""
    dice, threshold, mode, sixes, policy = key.split(",")
    params = make(
        int(dice), int(threshold), mode, "all" if sixes == "all" else "batch", check_policy(policy)
    )
    expected = PINNED[key]
    assert fast(params) == tuple(
        Fraction(expected[name]) for name in ("success", "exceptional", "critical")
    )


def pairs_below_caps(left: Family, right: Family, cap: int) -> Family:
    """Every pair of classes of two parts of a test, adding their ones and sixes, the
    pairs reaching three 1s (T-8) or three 6s (T-7) dropped; products cut at ``cap``."""
    from flint import fmpz_poly

    out: Family = {}
    for (o1, x1), a in left.items():
        for (o2, x2), b in right.items():
            if o1 + o2 < 3 and x1 + x2 < 3:
                key = (o1 + o2, x1 + x2)
                out[key] = out.get(key, fmpz_poly()) + a.mul_low(b, cap)
    return out


def nonzero(family: Family) -> Family:
    return {key: poly for key, poly in family.items() if not poly.is_zero()}


@pytest.mark.parametrize("sixes", [False, True])
def test_T7_T8_class_products_equal_the_pairs_of_classes(sixes: bool) -> None:
    """T-7, T-8: two parts of a test combine by adding their ones (and under ``all`` their
    sixes); a pair reaching three 1s or three 6s drops. The 5 (25) products of
    ``passlaw.products`` equal the 6 (36) products of every pair below the caps."""
    import random

    from flint import fmpz_poly

    from meneur.systems.tunnels.passlaw import products

    rng = random.Random(18)
    states = [(o, x) for o in range(3) for x in (range(3) if sixes else (0,))]
    for cap in (1, 5, 12):
        left = {k: fmpz_poly([rng.getrandbits(300) for _ in range(9)]) for k in states}
        right = {k: fmpz_poly([rng.getrandbits(40) for _ in range(7)]) for k in states[:-1]}
        got = products(left, right, cap)
        assert nonzero(got) == pairs_below_caps(left, right, cap)


def test_T7_all_rule_parts_that_each_showed_a_six_add_their_sixes() -> None:
    """T-7 (``all``: the 6s count over every die), T-8: two parts of a test in which every
    class shows a 6 still add their sixes and their ones. One 6 and one 6 make two (kept:
    calm), one 1 and two 1s make a critical failure, two 6s and one 6 an exceptional
    success (both dropped from the classes below the caps)."""
    from flint import fmpz_poly

    from meneur.systems.tunnels.passlaw import products

    left = {(0, 1): fmpz_poly([0, 2, 1]), (1, 1): fmpz_poly([3, 5])}
    right = {(0, 1): fmpz_poly([1, 4]), (2, 1): fmpz_poly([7])}
    assert nonzero(products(left, right, 4)) == {
        (0, 2): fmpz_poly([0, 2, 9, 4]),  # (2x + x²)(1 + 4x)
        (1, 2): fmpz_poly([3, 17, 20]),  # (3 + 5x)(1 + 4x)
        (2, 2): fmpz_poly([0, 14, 7]),  # (2x + x²) * 7
    }
    left[(0, 2)] = fmpz_poly([1])
    assert nonzero(products(left, right, 4)) == pairs_below_caps(left, right, 4)


@pytest.mark.parametrize("sixes", ["batch", "all"])
@pytest.mark.parametrize("policy", ["needed", "always"])
def test_T5_T8_meeting_in_the_middle_equals_the_tables_wherever_they_meet(
    policy: Policy, sixes: SixesRule, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T-5, T-6 (``needed`` stops at the threshold, ``always`` does not), T-7, T-8: one
    query's verdicts from a forward half and backward tables (``passmid``) equal the
    whole backward tables wherever the halves meet: at the pool (forward alone), at 1
    (backward alone), at every level between, in every mode, at thresholds from 1 to
    past the most successes."""
    from meneur.systems.tunnels import passmid
    from meneur.systems.tunnels.passlaw import verdicts

    at = passmid.needed_at if policy == "needed" else passmid.always_at
    for dice in (2, 7, 11):
        for middle in range(1, dice + 1):
            monkeypatch.setattr(passmid, "middle_of", lambda _dice, m=middle: m)
            for lowest in (3, 4, 5):
                for threshold in {1, 2, dice, most_dice(dice) // 2, most_dice(dice) + 1}:
                    cap = threshold + 2
                    expected = verdicts(dice, lowest, sixes, policy, cap).at(threshold)
                    assert at(dice, threshold, lowest, sixes, cap) == expected, (dice, middle)


def test_T6_a_single_query_meets_in_the_middle_from_16_dice() -> None:
    """T-6: a single query of 16 dice or more goes through ``passmid`` (the table path
    stays for grids and small pools), and gives the grid's cells."""
    from meneur.systems.tunnels import passmid

    passmid.pass_at.cache_clear()
    for policy in ("needed", "always"):
        params = make(24, 13, "cursed", "all", policy)
        assert fast(params) == fast(params, cap=40)
    assert passmid.pass_at.cache_info().currsize == 2


def test_T5_a_batch_of_one_face_multiplies_term_by_term() -> None:
    """T-5: a batch whose dice all show one face has no double left to explode past, and
    no success or all of them: its polynomials have two terms, multiplied term by term
    (``sparse``); the result is the full product's, cut at the cap."""
    import random

    from flint import fmpz_poly

    from meneur.systems.tunnels.passlaw import SPARSE, flint_batch, products

    rng = random.Random(5)
    for dice, cap in ((2, 5), (9, 7), (9, 12), (30, 61)):
        batch = flint_batch(dice, 4, "batch", cap)
        assert [part[5] for part in batch] == [part[0] == 1 for part in batch]
        right = batch[0][1]
        assert all(len([c for c in p.coeffs() if c]) <= SPARSE for p in right.values())
        left = {(o, 0): fmpz_poly([rng.getrandbits(200) for _ in range(cap)]) for o in range(3)}
        assert products(left, right, cap, sparse=True) == products(left, right, cap)


@pytest.mark.parametrize("sixes", ["batch", "all"])
def test_T6_a_needed_test_that_falls_short_exploded_every_batch(sixes: SixesRule) -> None:
    """T-6: ``needed`` explodes while short, so a test that ends short of the threshold
    exploded every batch: its ends short (without three 1s, T-8) are exactly those of
    ``always`` below the threshold (whole laws). The ``needed`` table reads them from the
    ``always`` one instead of a third family of products."""
    for dice in (1, 3, 6, 9):
        for threshold in (1, 2, dice, 2 * dice, most_dice(dice) + 1):
            short = []
            for policy in ("needed", "always"):
                law = test_odds(make(dice, threshold, "normal", sixes, check_policy(policy)))
                weight = sum(w for (s, _e, crit), w in law.items() if s < threshold and not crit)
                short.append(Fraction(weight, law.total))
            assert short[0] == short[1], (dice, threshold)
