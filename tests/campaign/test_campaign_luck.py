"""Luck per player: their dice against the exact odds of fair dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from cli_helpers import invoke
from meneur.campaign.luck import dice_of, luck_table, tail_at_least
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
