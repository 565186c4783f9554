"""Luck per player: their dice against the exact odds of fair dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from cli_helpers import invoke
from meneur.campaign.luck import check_luck_table, dice_of, luck_table, tail_at_least
from meneur.campaign.rolllog import log_roll
from meneur.campaign.store import Store


@pytest.mark.parametrize(("sides", "dice"), [(6, 1), (6, 2), (6, 3), (4, 4), (20, 2), (10, 3)])
def test_tail_is_exact_against_brute_force(sides: int, dice: int) -> None:
    sums = [sum(faces) for faces in product(range(1, sides + 1), repeat=dice)]
    for total in range(dice - 1, dice * sides + 2):
        expected = Fraction(sum(s >= total for s in sums), len(sums))
        assert tail_at_least(sides, dice, total) == (expected, True)


def test_many_dice_use_a_marked_normal_approximation() -> None:
    _, is_exact = tail_at_least(20, 150, 1650)
    assert is_exact
    approx, is_exact = tail_at_least(20, 3000, 33000)
    assert not is_exact and 0 < float(approx) < 1e-4
    # just past the exact limit, the approximation stays close to the exact value
    near, _ = tail_at_least(20, 160, 160 * 21 // 2 + 20)
    assert abs(float(near) - float(tail_at_least(20, 150, 150 * 21 // 2 + 19)[0])) < 0.05


def test_dice_of_generic_and_system_entries() -> None:
    generic = {
        "system": "generic",
        "faces": [[6, 1, 4]],
        "outcome": {
            "tree": {
                "type": "operation",
                "left": {"type": "dice", "sides": 6, "dice": [{"face": 6}, {"face": 1}]},
                "right": {"type": "dice", "sides": 8, "dice": [{"face": 4}]},
            }
        },
    }
    assert dice_of(generic) == [(6, 6), (6, 1), (8, 4)]
    krasses = {"system": "krasses", "faces": [[17], [3]], "outcome": {}}
    assert dice_of(krasses) == [(20, 17)]  # the opposition's stream is not the player's
    assert dice_of({"system": "nowhere", "faces": [[1]], "outcome": {}}) == []


def test_luck_table_and_cli(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db_url) as store:
        store.add_character("krasses", "Zoé", {"name": "Zoé"})
        store.add_character("krasses", "Bastien", {"name": "Bastien"})
        for face in (20, 19, 18):
            log_roll(store, "krasses", "test", {}, [[face]], {}, "physical", character="Zoé")
        log_roll(store, "krasses", "test", {}, [[1]], {}, "physical", character="Bastien")
        table = luck_table(store.rolls())
    assert [(line.who, line.sides, line.dice, line.total) for line in table] == [
        ("Bastien", 20, 1, 1),
        ("Zoé", 20, 3, 57),
    ]
    assert table[0].tail == 1.0
    assert table[1].tail == float(Fraction(1 + 3 + 6 + 10, 8000))  # 60, 59, 58, 57 on 3d20
    rows = invoke(capsys, "log", "--luck", "--json").json()
    assert rows[1]["who"] == "Zoé" and rows[1]["exact"] is True
    assert "Zoé" in invoke(capsys, "log", "--luck").out


def _tree_entry(who: str, sides: int, faces: list[int]) -> dict[str, object]:
    dice = [{"face": face} for face in faces]
    return {"who": who, "outcome": {"tree": {"type": "dice", "sides": sides, "dice": dice}}}


def test_luck_line_gives_the_mean_face_beside_a_fair_dies_mean() -> None:
    """docs/campaign.md's table: Isaure's 4 d6 (11 in all) average 2.75 against a fair
    d6's 3.5, and fair dice do at least as well in 84.1 % of rolls: 4d6 make at most 10
    in 1 + 4 + 10 + 20 + 35 + 56 + 80 = 206 of 1296 ways, so P(>= 11) = 1090/1296."""
    [line] = luck_table([_tree_entry("Isaure", 6, [2, 3, 1, 5])])
    assert (line.who, line.sides, line.dice, line.total) == ("Isaure", 6, 4, 11)
    assert line.mean == 2.75 and line.expected == 3.5
    assert line.tail == float(Fraction(1090, 1296)) and line.exact
    [d20] = luck_table([_tree_entry("Zed", 20, [20, 1, 9])])
    assert d20.mean == 10 and d20.expected == 10.5


def test_luck_lines_are_frozen_values() -> None:
    """A line of either luck table is a value: it cannot be changed once judged."""
    from dataclasses import FrozenInstanceError

    from meneur.campaign.luck import CheckLuck, Luck

    line = Luck("Isaure", 6, 4, 11, 0.5, True)
    judged = CheckLuck("Isaure", 1, 0.15, 0.9)
    with pytest.raises(FrozenInstanceError):
        line.total = 24  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        judged.rank = 1.0  # type: ignore[misc]


def test_the_lowest_sum_is_certain_even_past_the_exact_limit() -> None:
    """Every die shows at least 1, so P(sum of 400 d6 >= 400) is exactly 1 (exact, not
    the normal law's 0.99999...), although 400 d6 are past the exact computation."""
    assert tail_at_least(6, 400, 400) == (Fraction(1), True)
    assert tail_at_least(6, 400, 2401) == (Fraction(0), True)
    assert not tail_at_least(6, 400, 401)[1]


@pytest.mark.parametrize(("sides", "most"), [(20, 155), (12, 224), (4, 576)])
def test_exact_odds_up_to_the_memory_budget(sides: int, most: int) -> None:
    """The law of n dice is packed as top + 1 coefficients (top = n * (sides - 1)) of
    bit_length(sides**n) + 1 bits each, exact while that fits EXACT_BITS (2,000,000 bits,
    docs/campaign.md: "au-delà d'environ 150 d20", normal law past it). By hand:
    155 d20: 671 * 2946 = 1,976,766 bits, 156 d20: 676 * 2965 = 2,004,340;
    224 d12: 804 * 2465 = 1,981,860, 225 d12: 808 * 2476 = 2,000,608;
    576 d4: 1154 * 1729 = 1,995,266, 577 d4: 1156 * 1732 = 2,002,192."""
    middle = most * (sides + 1) // 2
    assert tail_at_least(sides, most, middle)[1] is True
    assert tail_at_least(sides, most + 1, middle)[1] is False


def test_the_normal_approximation_is_close_to_the_exact_law() -> None:
    """Past the exact limit (400 d6), the normal law with its continuity correction
    (mean n(s-1)/2 over faces 0..s-1, variance n(s^2-1)/12) is within 1e-4 of the exact
    tail at every total; the exact tail here comes from convolving 400 fair d6 in floats."""
    import numpy as np

    dice, sides = 400, 6
    law = np.array([1.0])
    for _ in range(dice):
        law = np.convolve(law, np.full(sides, 1 / sides))
    exact = np.cumsum(law[::-1])[::-1]  # exact[k] = P(sum >= dice + k)
    for total in range(dice + 1, dice * sides + 1):
        approx, is_exact = tail_at_least(sides, dice, total)
        assert not is_exact
        assert abs(float(approx) - exact[total - dice]) < 1e-4, total


def test_dice_of_keeps_only_faces_of_a_known_die() -> None:
    """A face outside 1..sides (0, 21 on a d20) or not a number is no die of that size,
    and a tree's dice with no sides, or a die with no face, are left out."""
    krasses = {"system": "krasses", "faces": [[0, 21, 5, 20, "x", 1.5]], "outcome": {}}
    assert dice_of(krasses) == [(20, 5), (20, 20)]
    tree = {
        "type": "operation",
        "left": {"type": "dice", "dice": [{"face": 3}]},
        "right": {"type": "dice", "sides": 8, "dice": [{"face": 4}, {"kept": False}, 7]},
    }
    assert dice_of({"system": "generic", "outcome": {"tree": tree}}) == [(8, 4)]


def test_check_luck_skips_half_judged_verdicts() -> None:
    """A verdict with a rank but no variance (or a variance but no rank) is not judged."""
    half = [{"rank": 0.9, "var": None}, {"rank": None, "var": 0.1}, {"rank": 0.9}]
    entries = [{"who": "Ana", "outcome": {"luck": half}}]
    entries.append({"who": "Ana", "outcome": {"luck": [{"rank": 0.5, "var": 0.25}]}})
    [line] = check_luck_table(entries)
    assert (line.who, line.rolls, line.rank, line.tail) == ("Ana", 1, 0.5, 0.5)


def test_check_luck_of_certain_checks_is_even() -> None:
    """A check with a single possible outcome ranks it 0.5 with variance 0: fair dice
    do exactly as well, and the line says 0.5 (no division by a zero variance)."""
    entries = [{"who": "Bo", "outcome": {"luck": [{"rank": 0.5, "var": 0}]}}] * 3
    [line] = check_luck_table(entries)
    assert (line.rolls, line.rank, line.tail) == (3, 0.5, 0.5)


def test_check_luck_tail_is_the_normal_law_of_the_summed_ranks() -> None:
    """Four rolls of rank 0.625 and variance 1/16: the ranks add to 2.5, 0.5 above their
    mean 2, whose standard deviation is sqrt(4/16) = 0.5, one deviation: P(Z >= 1)."""
    from statistics import NormalDist

    entries = [{"who": "Cy", "outcome": {"luck": [{"rank": 0.625, "var": 1 / 16}]}}] * 4
    [line] = check_luck_table(entries)
    assert line.rank == 0.625
    assert line.tail == pytest.approx(1 - NormalDist().cdf(1), abs=1e-12)
