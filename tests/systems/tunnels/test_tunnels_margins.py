"""The law of (winner, margin) of an opposition with a ``needed`` side (T-8 to T-10).

:func:`~meneur.systems.tunnels.odds.winner_odds` walks the sides' joint state without
the three 6s (T-7), which decide neither who wins nor by how much: the same walk as
:func:`~meneur.systems.tunnels.odds.opposed_odds` (checked against the dict walk and
brute force), with a side's state one of two fewer. It must give the same margins,
fraction for fraction, wherever both run, and it runs further (``MAX_MARGIN_DICE``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest

from meneur.odds.dist import Dist
from meneur.odds.montecarlo import agrees
from meneur.systems.tunnels.odds import (
    MAX_MARGIN_DICE,
    MAX_OPPOSED_ODDS_DICE,
    opposed_odds,
    who_wins,
    winner_odds,
)
from meneur.systems.tunnels.rules import OpposedParams, Policy, SixesRule, judge
from meneur.systems.tunnels.vector import TunnelsOpposeVector
from meneur.systems.tunnels.vector import judge as judge_many

from .test_tunnels_opposed import opposition

POLICY_PAIRS: list[tuple[Policy, Policy]] = [
    ("needed", "needed"),
    ("needed", "never"),
    ("never", "needed"),
    ("needed", "always"),
    ("always", "needed"),
]
MODE_PAIRS = [("normal", "normal"), ("blessed", "cursed"), ("cursed", "blessed")]


def shares(law: Dist[tuple[str | None, int]]) -> dict[tuple[str | None, int], Fraction]:
    return {key: Fraction(weight, law.total) for key, weight in law.items() if weight}


def whole_walk_margins(params: OpposedParams) -> dict[tuple[str | None, int], Fraction]:
    """(winner, margin) read from the whole law, three 6s included (the reference)."""
    law = opposed_odds(params).map(lambda k: judge(max(k[0], 0), k[2], max(-k[0], 0), k[4]))
    return shares(law)


@pytest.mark.parametrize("rule", ["batch", "all"])
@pytest.mark.parametrize("policies", POLICY_PAIRS)
def test_T9_T10_margins_without_the_sixes_equal_the_whole_walk(
    policies: tuple[Policy, Policy], rule: SixesRule
) -> None:
    """T-9/T-10: every pair from 1 to 6 dice a side, three pairs of modes (T-4), each
    pairing of ``needed`` with ``needed``, ``never`` or ``always``, both sixes rules
    (T-7): the law of (winner, margin) walked without the three 6s equals the one read
    from the whole walk, every margin's fraction."""
    for dice_a, dice_b in product(range(1, 7), range(1, 7)):
        for mode_a, mode_b in MODE_PAIRS:
            params = opposition(dice_a, mode_a, policies[0], dice_b, mode_b, policies[1], rule)
            assert shares(winner_odds(params)) == whole_walk_margins(params), params


def test_T9_T10_margins_at_the_whole_walks_bound() -> None:
    """T-9 at ``MAX_OPPOSED_ODDS_DICE`` (14) a side, both ``needed``, and 14 against 11
    with a blessed side: the same margins as the whole walk, which takes ~5 times as
    long there."""
    for params in (
        opposition(14, "normal", "needed", 14, "normal", "needed", "batch"),
        opposition(MAX_OPPOSED_ODDS_DICE, "blessed", "needed", 11, "normal", "needed", "all"),
    ):
        assert shares(winner_odds(params)) == whole_walk_margins(params)


def test_T9_margins_past_the_whole_walk_agree_with_the_trajectories_and_rolls() -> None:
    """T-9 past the whole walk, at ``MAX_MARGIN_DICE`` (20): who wins read from the
    margins' law equals who wins read from each side's trajectory (``chase``, an
    independent exact reading) at 20 against 18 and 20 against 8; and at 20 against 8
    (three 1s are likely with 20 dice, rare with 8: margins spread from 1 to 12) every
    (winner, margin) above 0.5 % agrees with 200,000 seeded rolls of the vectorised
    opposition (within 4 standard errors)."""
    for other in (18, 8):
        params = opposition(MAX_MARGIN_DICE, "normal", "needed", other, "normal", "needed", "all")
        law = winner_odds(params)
        assert by_winner(law) == who_wins(params)
    assert_margins_agree_with_rolls(params, law, 200_000, seed=20)


def by_winner(law: Dist[tuple[str | None, int]]) -> tuple[Fraction, Fraction, Fraction]:
    """Who wins read from a law of (winner, margin): a, b, nobody."""
    return (
        law.p_where(lambda k: k[0] == "a"),
        law.p_where(lambda k: k[0] == "b"),
        law.p_where(lambda k: k[0] is None),
    )


def assert_margins_agree_with_rolls(
    params: OpposedParams, law: Dist[tuple[str | None, int]], runs: int, seed: int
) -> None:
    """Every (winner, margin) of ``law`` above 0.5 % agrees with ``runs`` seeded rolls of
    the vectorised opposition, judged by the rules (within 4 standard errors); at least
    ten are checked."""
    lead, _six_a, critical_a, _six_b, critical_b = TunnelsOpposeVector(params).sample(
        np.random.default_rng(seed), runs
    )
    winner, margin = judge_many(lead, critical_a, np.zeros_like(lead), critical_b)
    names = {1: "a", -1: "b", 0: None}
    counts = Counter(
        (names[int(w)], int(m)) for w, m in zip(winner.tolist(), margin.tolist(), strict=True)
    )
    checked = 0
    for key, p in shares(law).items():
        if p > Fraction(1, 200):
            assert agrees(p, counts[key], runs, sigmas=4.0), (key, float(p), counts[key] / runs)
            checked += 1
    assert checked >= 10


def test_T9_the_walks_bound_at_its_edges() -> None:
    """The joint walk's bound (``check_lead_size``: a lab cell's lead, a roll's luck;
    ``check_walk_size``: the margins of ``needed`` against ``always``): both sides up to
    ``MAX_MARGIN_DICE``, or the smaller up to ``MAX_MARGIN_SMALL_SIDE`` against up to
    ``MAX_OPPOSED_WIDE_DICE``; one more die on any edge is refused before any work, with
    both bounds named; sides that do not play ``needed`` have no such bound."""
    from meneur.errors import LimitError
    from meneur.systems.tunnels.odds import (
        MAX_MARGIN_SMALL_SIDE,
        MAX_OPPOSED_WIDE_DICE,
        check_lead_size,
        check_margin_size,
        check_walk_size,
    )

    for policies, check in (
        (("needed", "needed"), check_lead_size),
        (("needed", "always"), check_lead_size),
        (("needed", "always"), check_walk_size),
        (("always", "needed"), check_margin_size),
    ):
        for inside in (
            (MAX_MARGIN_DICE, MAX_MARGIN_DICE),
            (MAX_MARGIN_SMALL_SIDE, MAX_OPPOSED_WIDE_DICE),
            (MAX_OPPOSED_WIDE_DICE, MAX_MARGIN_SMALL_SIDE),
        ):
            check(*inside, policies)
        for outside in (
            (MAX_MARGIN_DICE + 1, MAX_MARGIN_SMALL_SIDE + 1),
            (MAX_MARGIN_SMALL_SIDE + 1, MAX_MARGIN_DICE + 1),
            (1, MAX_OPPOSED_WIDE_DICE + 1),
        ):
            with pytest.raises(LimitError, match=f"{MAX_MARGIN_DICE}.*{MAX_OPPOSED_WIDE_DICE}"):
                check(*outside, policies)
    check_margin_size(60, 60, ("always", "never"))


def test_T9_the_chased_margins_bound_at_its_edges() -> None:
    """Sides that play ``needed`` or ``never`` (one at least ``needed``) have their
    margins read from their trajectories (``margins``) up to ``MAX_CHASED_MARGIN_DICE``
    a side, whatever the other side; one more die on either side is refused before any
    work, the bound named, and who wins is offered up to the params' bound."""
    from meneur.errors import LimitError
    from meneur.systems.tunnels.odds import MAX_CHASED_MARGIN_DICE, check_margin_size
    from meneur.systems.tunnels.rules import TestParams

    top = MAX_CHASED_MARGIN_DICE
    assert top > MAX_MARGIN_DICE
    for policies in (("needed", "needed"), ("never", "needed"), ("needed", "never")):
        for inside in ((top, top), (1, top), (top, 1)):
            check_margin_size(*inside, policies)
        for outside in ((top + 1, 1), (1, top + 1), (top + 1, top + 1)):
            with pytest.raises(LimitError, match=f"{top}.*{TestParams.MAX_DICE}") as refused:
                check_margin_size(*outside, policies)
            assert refused.value.params["a"] == outside[0]
    check_margin_size(60, 60, ("never", "never"))


def test_T9_T8_a_logged_oppositions_luck_reads_the_margins_law() -> None:
    """The luck of a logged opposition (``meneur log --luck``) ranks its score (the lead,
    a critical failure outweighing it: no three 6s) among the exact outcomes: read from
    the margins' law, it equals the rank read from the whole law wherever that runs, and
    it goes past the whole law's bound (18 against 16), where the roll used to stand
    unjudged."""
    from meneur.campaign.recording import judge as rank
    from meneur.errors import LimitError
    from meneur.rng import SeededDice
    from meneur.systems.tunnels.rules import TunnelsOppose

    check = TunnelsOppose()

    class Whole(TunnelsOppose):  # the luck as it was read: from the whole law
        def score_odds(self, params: OpposedParams) -> Dist[Any]:
            return self.odds(params)

    source = SeededDice(9)
    for params in (
        opposition(6, "blessed", "needed", 5, "normal", "needed", "all"),
        opposition(4, "normal", "needed", 7, "cursed", "always", "batch"),
    ):
        for _ in range(5):
            outcome = check.roll(params, [source]).outcome
            assert rank(check, params, outcome) == rank(Whole(), params, outcome)
    params = opposition(18, "normal", "needed", 16, "normal", "needed", "batch")
    outcome = check.roll(params, [source]).outcome
    verdict = rank(check, params, outcome)
    assert verdict is not None and 0 < verdict["rank"] < 1
    with pytest.raises(LimitError):
        rank(Whole(), params, outcome)


def test_T9_an_opposition_cells_distribution_reads_the_margins_law(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The lab's exact distribution of an opposition cell (``table --kind distribution``)
    shows the lead alone: read from the margins' law, it equals the whole law's lead
    where both run (6 against 5), and a cell past the whole law (18 against 16 with
    ``needed``) has one too, summing to 1."""
    from cli_helpers import invoke
    from meneur.systems.tunnels.lab_adapter import ADAPTER

    _params, shown = ADAPTER.distribution("oppose", {"sixes": "all"}, "6", "5", "needed")
    whole = opposed_odds(opposition(6, "normal", "needed", 5, "normal", "needed", "all"))
    leads: dict[str, Fraction] = {}
    for key, weight in whole.items():
        label = f"{key[0]:+d}"
        leads[label] = leads.get(label, Fraction(0)) + Fraction(weight, whole.total)
    assert dict(shown) == leads
    args = ("table", "tunnels", "--check", "oppose", "--rows", "18", "--cols", "16")
    result = invoke(capsys, *args, "--panels", "needed", "--kind", "distribution", "--json")
    assert result.status == 0, result.err
    law = result.json()["distribution"]
    assert sum(Fraction(entry["exact"]) for entry in law) == 1
