"""The Krâsses opposed roll (K-4): naturals first, then totals; ties to the PC or rerolled.

The odds of a rerolling opposition (two PCs, two NPCs) are a geometric series. Brute
force over the faces never ends there, so they are checked three ways: against an
enumeration truncated after k rounds (exact identity with the remaining tie mass),
against icepool, and against the closed form of the series.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from meneur.errors import RuleError
from meneur.odds import brute_force
from meneur.rng import PhysicalDice, SeededDice
from meneur.systems.base import NeedMoreDice
from meneur.systems.krasses.odds import expected_rerolls, oppose_dist, p_a_wins, p_tie_round
from meneur.systems.krasses.rules import KrassesOppose, OpposeParams, Side

CHECK = KrassesOppose()


def run(params: OpposeParams, a: tuple[int, ...], b: tuple[int, ...]):  # type: ignore[no-untyped-def]
    return CHECK.resolve(params, (a, b))


def test_K4_higher_total_wins() -> None:
    """K-4: 12 + 3 = 15 beats 9 + 5 = 14."""
    outcome = run(OpposeParams(Side(3, "npc"), Side(5, "npc")), (12,), (9,))
    assert (outcome.winner, outcome.decided_by, outcome.rerolls) == ("a", "total", 0)


def test_K4_K5_each_side_adds_its_own_modifier() -> None:
    """K-5: temporary bonuses add to the total, on both sides of K-4: 12 + 3 − 2 = 13
    loses to 9 + 2 + 3 = 14 (without b's +3 a would win)."""
    params = OpposeParams(Side(3, "npc", modifier=-2), Side(2, "npc", modifier=3))
    outcome = run(params, (12,), (9,))
    assert (outcome.last.a_total, outcome.last.b_total) == (13, 14)
    assert (outcome.winner, outcome.decided_by) == ("b", "total")


def test_K4_natural_20_beats_a_higher_total() -> None:
    """K-4 (issue check): a natural 20 with bonus 0 beats a 19 with bonus 10."""
    params = OpposeParams(Side(0, "pc"), Side(10, "npc"))
    outcome = run(params, (20,), (19,))
    assert outcome.last.a_total < outcome.last.b_total
    assert (outcome.winner, outcome.decided_by) == ("a", "natural")


def test_K4_natural_1_loses_to_a_lower_total() -> None:
    """K-4: a natural 1 with bonus 30 loses to a 2 with bonus 0."""
    outcome = run(OpposeParams(Side(30, "pc"), Side(0, "npc")), (1,), (2,))
    assert (outcome.winner, outcome.decided_by) == ("b", "natural")


def test_K4_two_naturals_20_compare_totals() -> None:
    """K-4: a natural 20 only beats a roll that is not a natural 20."""
    outcome = run(OpposeParams(Side(1, "pc"), Side(4, "npc")), (20,), (20,))
    assert (outcome.winner, outcome.decided_by) == ("b", "total")


def test_K4_option_ignores_naturals() -> None:
    """K-4 option: with naturals ignored, the 19 + 10 beats the 20 + 0."""
    params = OpposeParams(Side(0, "pc"), Side(10, "npc"), naturals=False)
    outcome = run(params, (20,), (19,))
    assert (outcome.winner, outcome.decided_by) == ("b", "total")


@pytest.mark.parametrize(("a_kind", "b_kind", "winner"), [("pc", "npc", "a"), ("npc", "pc", "b")])
def test_K4_pc_wins_a_tie_against_an_npc(a_kind: str, b_kind: str, winner: str) -> None:
    """K-4 (issue check): equal totals, the player character wins, no reroll."""
    params = OpposeParams(Side(4, a_kind), Side(4, b_kind))  # type: ignore[arg-type]
    outcome = run(params, (11,), (11,))
    assert (outcome.winner, outcome.decided_by, outcome.rerolls) == (winner, "tie", 0)


@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_K4_same_kinds_reroll_a_tie_and_show_it(kind: str) -> None:
    """K-4 (issue check): two PCs (or two NPCs) tied roll again; every round is kept."""
    params = OpposeParams(Side(2, kind), Side(5, kind))  # type: ignore[arg-type]
    with pytest.raises(NeedMoreDice) as need:
        run(params, (13,), (10,))
    assert need.value.stream == 0
    outcome = run(params, (13, 7, 4), (10, 4, 9))
    assert outcome.rerolls == 2
    assert [r.result for r in outcome.rounds] == ["reroll", "reroll", "b"]
    assert outcome.last == outcome.rounds[2] and (outcome.last.a_total, outcome.last.b_total) == (
        6,
        14,
    )
    data = CHECK.to_json(params, outcome)
    assert data["rerolls"] == 2 and data["winner"] == "b"
    assert data["a"]["naturals"] == [13, 7, 4] and data["b"]["totals"] == [15, 9, 14]
    assert (data["a"]["natural"], data["b"]["total"]) == (4, 14)  # the deciding round


def test_K4_rerolls_drawn_from_a_seeded_source_replay() -> None:
    """K-4: a rerolled opposition replays from its faces (what the roll log relies on)."""
    params = OpposeParams(Side(0, "pc"), Side(0, "pc"))
    seen_reroll = False
    for seed in range(300):
        rolled = CHECK.roll(params, [SeededDice(seed)])
        replay = CHECK.roll(params, [PhysicalDice(rolled.faces[0]), PhysicalDice(rolled.faces[1])])
        assert replay.outcome == rolled.outcome
        seen_reroll |= rolled.outcome.rerolls > 0
    assert seen_reroll


def test_K4_equal_pcs_have_even_odds_and_a_tie_chance_of_one_in_twenty() -> None:
    """K-4: equal bonuses: 1/2 each, a tie per round 20/400, rerolls on average 1/19."""
    params = OpposeParams(Side(3, "pc"), Side(3, "pc"))
    assert p_a_wins(params) == Fraction(1, 2)
    assert p_tie_round(params) == Fraction(1, 20)
    assert expected_rerolls(params) == Fraction(1, 19)


def test_K4_pc_against_npc_with_equal_bonuses() -> None:
    """K-4: a PC against an NPC of equal bonus wins every tie: 1/2 + 1/40."""
    params = OpposeParams(Side(0, "pc"), Side(0, "npc"))
    # Pairs (a, b), naturals first: a wins when a > b (190 pairs) or a == b (20 pairs).
    assert p_a_wins(params) == Fraction(210, 400)


def test_K4_a_pc_against_an_npc_never_rerolls() -> None:
    """K-4: a tie between a PC and an NPC goes to the PC, so no exchange is rolled again:
    the tie chance per round and the mean number of rerolls are 0."""
    params = OpposeParams(Side(0, "pc"), Side(0, "npc"))
    assert p_tie_round(params) == 0
    assert expected_rerolls(params) == 0


@pytest.mark.parametrize(
    "params",
    [
        OpposeParams(Side(0, "pc"), Side(0, "npc")),
        OpposeParams(Side(7, "npc"), Side(2, "pc")),
        OpposeParams(Side(0, "pc"), Side(25, "npc")),
        OpposeParams(Side(5, "pc", modifier=-2), Side(3, "npc"), naturals=False),
        OpposeParams(Side(4, "pc"), Side(2, "npc", modifier=3)),
    ],
)
def test_K4_pc_npc_odds_equal_brute_force(params: OpposeParams) -> None:
    """K-4: with a PC against an NPC no tie rerolls, so brute force is finite and exact."""
    assert CHECK.odds(params) == brute_force(CHECK, params)


def truncated(params: OpposeParams, rounds: int) -> tuple[dict[object, Fraction], Fraction]:
    """Enumerate every face sequence of up to ``rounds`` exchanges through ``resolve``.

    Returns the probability of each key decided within ``rounds`` and the mass still tied.
    """
    decided: dict[object, Fraction] = {}
    pending = Fraction(0)
    for sequence in itertools.product(range(1, 21), repeat=2 * rounds):
        a, b = sequence[0::2], sequence[1::2]
        weight = Fraction(1, 20 ** (2 * rounds))
        try:
            outcome = CHECK.resolve(params, (a, b))
        except NeedMoreDice:
            pending += weight
            continue
        key = CHECK.key(outcome)
        decided[key] = decided.get(key, Fraction(0)) + weight
    return decided, pending


@pytest.mark.parametrize(
    "params",
    [
        OpposeParams(Side(0, "pc"), Side(0, "pc")),
        OpposeParams(Side(4, "npc"), Side(1, "npc")),
        OpposeParams(Side(2, "pc"), Side(3, "pc"), naturals=False),
    ],
)
def test_K4_rerolled_ties_form_the_exact_geometric_series(params: OpposeParams) -> None:
    """K-4: enumerating two full exchanges through resolve (160 000 sequences) gives
    P_2(key) = P(key) * (1 - t^2), with t the tie chance: the series summed exactly."""
    exact = oppose_dist(params)
    tie = p_tie_round(params)
    assert tie > 0
    decided, pending = truncated(params, 2)
    assert pending == tie**2
    for key, probability in exact.probabilities().items():
        assert decided.get(key, Fraction(0)) == probability * (1 - tie**2)
    assert set(decided) == set(exact.outcomes())


def faces_winner(a: int, b: int, a_bonus: int, b_bonus: int) -> int:
    """An independent reading of K-4 for icepool: 1 if a wins, -1 if b wins, 0 for a tie."""
    if (a == 20) != (b == 20):
        return 1 if a == 20 else -1
    if (a == 1) != (b == 1):
        return -1 if a == 1 else 1
    diff = (a + a_bonus) - (b + b_bonus)
    return (diff > 0) - (diff < 0)


@pytest.mark.parametrize(("a_bonus", "b_bonus"), [(0, 0), (5, 2), (0, 10), (12, 1), (3, 30)])
@pytest.mark.parametrize(("a_kind", "b_kind"), [("pc", "pc"), ("npc", "npc"), ("pc", "npc")])
def test_K4_odds_equal_icepool(a_bonus: int, b_bonus: int, a_kind: str, b_kind: str) -> None:
    """K-4 against icepool: one exchange, then the tie rule (PC wins, or w_a / (w_a + w_b))."""
    import icepool

    exchange = icepool.map(
        lambda a, b: faces_winner(a, b, a_bonus, b_bonus), icepool.d20, icepool.d20
    )
    wins, losses, ties = (exchange.quantity(v) for v in (1, -1, 0))
    if a_kind == b_kind:
        expected = Fraction(wins, wins + losses)
    else:
        expected = Fraction(wins + ties, 400)
    params = OpposeParams(Side(a_bonus, a_kind), Side(b_bonus, b_kind))  # type: ignore[arg-type]
    assert p_a_wins(params) == expected


def test_K4_an_opposition_needs_two_sides() -> None:
    """K-4 opposes two sides: a missing or malformed side, on either side, is refused."""
    for a, b in ((Side(0), 3), (3, Side(0)), (None, None)):
        with pytest.raises(RuleError):
            OpposeParams(a, b)  # type: ignore[arg-type]


def test_K4_K5_the_vectorised_exchange_adds_each_side_s_own_modifier() -> None:
    """K-5 in K-4, vectorised: 12 + 3 − 2 = 13 loses to 9 + 2 + 3 = 14 by the total
    (as the scalar resolve); 9 + 3 − 2 = 10 beats 4 + 2 + 3 = 9."""
    import numpy as np

    from meneur.systems.krasses.vector import KrassesOpposeVector

    params = OpposeParams(Side(3, "npc", modifier=-2), Side(2, "npc", modifier=3))
    vector = KrassesOpposeVector(params)
    faces = np.zeros((2, 2, vector.width), dtype=np.int64)
    faces[0, 0, 0], faces[0, 1, 0] = 12, 9
    faces[1, 0, 0], faces[1, 1, 0] = 9, 4
    result = vector(faces)
    assert [vector.key_at(result, i) for i in range(2)] == [("b", "total"), ("a", "total")]


def test_K4_sampled_oppositions_agree_with_the_exact_odds_of_the_stronger_side() -> None:
    """K-4, vectorised: two PCs, a with +5 over b, ties rolled again; the sampled
    share of a's wins agrees with the exact p_a_wins (well above 1/2)."""
    import numpy as np

    from meneur.odds.montecarlo import agrees
    from meneur.systems.krasses.vector import KrassesOpposeVector

    params = OpposeParams(Side(5, "pc"), Side(0, "pc"))
    exact = p_a_wins(params)
    assert exact > Fraction(2, 3)
    vector = KrassesOpposeVector(params)
    runs = 20_000
    won = vector.success(vector.sample(np.random.default_rng(11), runs))
    assert agrees(exact, int(won.sum()), runs)
