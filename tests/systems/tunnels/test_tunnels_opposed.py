"""The opposition engine for ``needed`` sides (T-9) against the dict walk it replaced and
the brute force: every comparison is between exact laws (``Dist`` of integer weights).

T-9: after both first batches, a side that plays ``needed`` explodes while it is not
ahead; a critical failure (T-8) loses whatever the successes. The slow cases (pools up to
6 a side in every mode, 9 against 10) run with ``MENEUR_SLOW=1``; the pin at the bound
(a few seconds) runs always.
"""

from __future__ import annotations

import os
from fractions import Fraction
from itertools import product

import pytest

from meneur.errors import LimitError
from meneur.odds import brute_force
from meneur.systems.tunnels.odds import (
    MAX_OPPOSED_ODDS_DICE,
    MAX_OPPOSED_SMALL_SIDE,
    MAX_OPPOSED_WIDE_DICE,
    opposed_odds,
    winner_odds,
)
from meneur.systems.tunnels.rules import OpposedParams, Policy, Side, SixesRule, TunnelsOppose

from . import reference_opposed

slow = pytest.mark.skipif(
    os.environ.get("MENEUR_SLOW") != "1", reason="slow exact comparison: MENEUR_SLOW=1"
)

MODES = {"normal": {}, "blessed": {"blessed": True}, "cursed": {"cursed": True}}
NEEDED_PAIRS: list[tuple[Policy, Policy]] = [
    ("needed", "needed"),
    ("needed", "never"),
    ("never", "needed"),
    ("needed", "always"),
    ("always", "needed"),
]
RULES: list[SixesRule] = ["batch", "all"]


def opposition(
    dice_a: int,
    mode_a: str,
    policy_a: Policy,
    dice_b: int,
    mode_b: str,
    policy_b: Policy,
    rule: SixesRule,
) -> OpposedParams:
    return OpposedParams(
        Side(dice_a, explode=policy_a, **MODES[mode_a]),
        Side(dice_b, explode=policy_b, **MODES[mode_b]),
        sixes=rule,
    )


def check_against_reference(
    pools: range, modes: list[tuple[str, str]], policies: tuple[Policy, Policy], rule: SixesRule
) -> None:
    for dice_a, dice_b in product(pools, pools):
        for mode_a, mode_b in modes:
            params = opposition(dice_a, mode_a, policies[0], dice_b, mode_b, policies[1], rule)
            assert opposed_odds(params) == reference_opposed.opposed_odds(params), params


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("policies", NEEDED_PAIRS, ids="-".join)
def test_T9_needed_engine_equals_the_dict_walk_on_small_pools(
    policies: tuple[Policy, Policy], rule: SixesRule
) -> None:
    """T-9: 1 to 3 dice a side, either or both sides ``needed``: the same exact law."""
    modes = [("normal", "normal"), ("blessed", "cursed"), ("cursed", "blessed")]
    check_against_reference(range(1, 4), modes, policies, rule)


@slow
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("policies", NEEDED_PAIRS, ids="-".join)
def test_T9_needed_engine_equals_the_dict_walk_up_to_six_dice_every_mode(
    policies: tuple[Policy, Policy], rule: SixesRule
) -> None:
    """T-9: every pair of pools of 1 to 6 dice, every pair of modes (T-4), every sixes
    rule (T-7): the same exact law as the dict walk."""
    check_against_reference(range(1, 7), list(product(MODES, MODES)), policies, rule)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("policies", NEEDED_PAIRS, ids="-".join)
def test_T9_needed_engine_equals_brute_force_on_the_tiniest_pools(
    policies: tuple[Policy, Policy], rule: SixesRule
) -> None:
    """T-9: enumeration of every face of every batch of both sides agrees."""
    for dice_a, dice_b in ((1, 1), (1, 2), (2, 1), (2, 2)):
        for mode_a, mode_b in (("normal", "normal"), ("blessed", "cursed")):
            params = opposition(dice_a, mode_a, policies[0], dice_b, mode_b, policies[1], rule)
            assert opposed_odds(params) == brute_force(TunnelsOppose(), params), params


def test_T8_T9_a_critical_failure_stops_the_looking() -> None:
    """T-8/T-9: three 1s lose whatever the lead, so the engine absorbs the rest of both
    sides at once; the law still equals the dict walk that steps through it, in a case
    where criticals are frequent (cursed sides of 4 and 5 dice, ``needed``)."""
    params = opposition(4, "cursed", "needed", 5, "cursed", "needed", "all")
    law = opposed_odds(params)
    assert law.p_where(lambda k: k[2] or k[4]) > Fraction(1, 10)
    assert law == reference_opposed.opposed_odds(params)


@slow
@pytest.mark.parametrize(
    "params",
    [
        opposition(9, "normal", "needed", 10, "normal", "needed", "batch"),
        opposition(10, "blessed", "needed", 9, "cursed", "always", "all"),
        opposition(8, "cursed", "never", 10, "normal", "needed", "batch"),
    ],
    ids=str,
)
def test_T9_needed_engine_equals_the_dict_walk_at_ten_dice(params: OpposedParams) -> None:
    """T-9 at 9 to 10 dice a side, where the dict walk still answers in seconds."""
    assert opposed_odds(params) == reference_opposed.opposed_odds(params)


def test_T9_needed_engine_equals_the_dict_walk_at_five_and_six_dice() -> None:
    """T-9 past the small pools, in the default run: 6 against 5 and 5 against 6, both
    ``needed`` and ``needed`` against ``always``, each sixes rule (the dict walk takes
    about a second each)."""
    for rule in RULES:
        for dice_a, dice_b, policies in (
            (6, 5, ("needed", "needed")),
            (5, 6, ("always", "needed")),
        ):
            params = opposition(dice_a, "normal", policies[0], dice_b, "blessed", policies[1], rule)
            assert opposed_odds(params) == reference_opposed.opposed_odds(params), params


def test_T9_pinned_win_at_the_bound() -> None:
    """T-9 at ``MAX_OPPOSED_ODDS_DICE`` (14) a side, both ``needed``: the exact chance
    that a wins, checked once against the dict walk (~80 s) and pinned. Both sides
    play alike and decide on the counts before each step, so b wins just as often."""
    assert MAX_OPPOSED_ODDS_DICE == 14
    law = winner_odds(opposition(14, "normal", "needed", 14, "normal", "needed", "batch"))
    p_a = law.p_where(lambda k: k[0] == "a")
    assert p_a == Fraction(PINNED_14_NUMERATOR, PINNED_14_DENOMINATOR)
    assert law.p_where(lambda k: k[0] == "b") == p_a


def test_T9_needed_past_the_bound_is_refused() -> None:
    """T-9: past ``MAX_OPPOSED_ODDS_DICE`` a side, a ``needed`` opposition has no exact
    law of the lead (a LimitError naming the bounds), unless one side holds at most
    ``MAX_OPPOSED_SMALL_SIDE`` dice and the other at most ``MAX_OPPOSED_WIDE_DICE``: a
    small side buys a large one (a starting character against a big monster). ``never``
    sides are independent and have no such bound."""
    over = MAX_OPPOSED_ODDS_DICE + 1
    for dice_a, dice_b in ((over, MAX_OPPOSED_SMALL_SIDE + 1), (MAX_OPPOSED_WIDE_DICE + 1, 1)):
        with pytest.raises(LimitError, match=f"{MAX_OPPOSED_ODDS_DICE}.*{MAX_OPPOSED_WIDE_DICE}"):
            opposed_odds(opposition(dice_a, "normal", "needed", dice_b, "normal", "never", "batch"))
    assert (
        opposed_odds(
            opposition(MAX_OPPOSED_ODDS_DICE + 1, "normal", "never", 5, "normal", "never", "batch")
        ).total
        > 0
    )
    at_bounds = opposition(
        MAX_OPPOSED_SMALL_SIDE, "normal", "needed", MAX_OPPOSED_WIDE_DICE, "normal", "never", "all"
    )
    assert opposed_odds(at_bounds).total > 0


PINNED_14_NUMERATOR = int(
    "5167291542469312739487779685996211677958382497415822506518023051805424407663383766"
    "661053429931520303340848769393111242093638113484350164277585062857067564023723939"
)
PINNED_14_DENOMINATOR = int(
    "1290424455212871986670621202907753990201402492131187011700661459560421548901145393"
    "6300641667037371309199103969531780500678671471609509622511377273183884774199001088"
)


def test_T9_independent_verdicts_equal_the_whole_law_of_the_lead() -> None:
    """T-8, T-9: sides that play ``never`` or ``always`` do not look at each other; the
    lab reads who wins from two sums over the successes (``independent_verdicts``), and
    every weight equals the whole law of the lead's (``winner_odds``, itself checked
    against the brute force): both criticals (nobody wins), one (it loses), ties."""
    from meneur.systems.tunnels.odds import independent_verdicts

    policies: list[Policy] = ["never", "always"]
    cases = [
        OpposedParams(
            Side(a, **MODES[mode_a], explode=pa), Side(b, **MODES[mode_b], explode=pb), rule
        )
        for a, b in ((1, 1), (3, 2), (2, 5), (6, 6))
        for mode_a, mode_b in (("normal", "normal"), ("blessed", "cursed"))
        for pa, pb in product(policies, policies)
        for rule in RULES
    ]
    cases.append(OpposedParams(Side(20, explode="always"), Side(13, cursed=True, explode="always")))
    for params in cases:
        law = winner_odds(params)
        win, loss, tie, total = independent_verdicts(params)
        assert Fraction(win, total) == law.p_where(lambda k: k[0] == "a"), params
        assert Fraction(loss, total) == law.p_where(lambda k: k[0] == "b"), params
        assert Fraction(tie, total) == law.p_where(lambda k: k[0] is None), params
