"""The help at the web table (L-11) reads the helped hero's wound as every roll does (L-13).

The table's help is the scene's aid step on the helped hero's stored sheet: its chances
before the roll (the card and its odds request) and the roll itself take the same wound.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from web.web_helpers import Table, action_dice, make_table

FETCH = {"x-requested-with": "fetch"}
HELP = "/action/legendes/help"
ODDS = re.compile(r'<p class="odds stats small".*?</p>', re.S)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from make_table(tmp_path)


def _heroes(table: Table, wound: str) -> None:
    """Bran (Ruse, legendary: 3 dice) helps Ysolde (Chant, secondary: 2 dice), wounded."""
    table.create(table.gm, "legendes", "Ysolde", legendary="Épée", secondary="Chant")
    table.create(table.gm, "legendes", "Bran", legendary="Ruse")
    sheet = table.store.character("Ysolde").sheet
    table.store.update_character("Ysolde", sheet={**sheet, "wound": wound})


def _label(difference: int) -> str:
    if difference < 0:
        return "aucun effet"
    if difference >= 6:
        return "+1 dé"
    return "+2" if difference >= 4 else "+1" if difference >= 2 else "cosmétique"


@pytest.mark.parametrize(("wound", "pool", "penalty"), [("light", 2, 2), ("grave", 1, 0)])
def test_L13_the_help_odds_at_the_table_take_the_helped_hero_s_wound(
    table: Table, wound: str, pool: int, penalty: int
) -> None:
    """L-13: Ysolde's light wound takes 2 from her side of the help roll, a grave one a
    die (L-11: 3 dice against Chant's 2): the chances before the roll, by brute force."""
    _heroes(table, wound)
    answer = table.client.get(
        f"/api{table.gm}{HELP}/odds",
        params={"helper": "Bran", "helped": "Ysolde", "helped_trait": "Chant"},
    )
    assert answer.status_code == 200, answer.text
    rows = {row["label"]: Fraction(row["exact"]) for row in answer.json()["odds"]}
    counts = dict.fromkeys(("+1 dé", "+2", "+1", "cosmétique", "aucun effet"), 0)
    for faces in product(range(1, 7), repeat=3 + pool):
        counts[_label(sum(faces[:3]) - (sum(faces[3:]) - penalty))] += 1
    assert rows == {label: Fraction(n, 6 ** (3 + pool)) for label, n in counts.items()}


def test_L13_the_help_card_s_chances_take_the_helped_hero_s_wound(table: Table) -> None:
    """L-13: the help card's chances (Bran helps Ysolde's first domain, Épée) change with
    her wound: none, light, grave."""
    _heroes(table, "none")
    shown = []
    for wound in ("none", "light", "grave"):
        sheet = table.store.character("Ysolde").sheet
        table.store.update_character("Ysolde", sheet={**sheet, "wound": wound})
        found = ODDS.search(table.client.get(table.gm).text.split('id="action-legendes-help"')[1])
        assert found is not None
        shown.append(found.group(0))
    assert len(set(shown)) == 3


@pytest.mark.parametrize(
    ("wound", "faces", "helped_total", "effect"),
    [("light", (3, 2, 1, 4, 3), 5, "cosmetic"), ("grave", (3, 2, 1, 4), 4, "plus_1")],
)
def test_L13_the_help_roll_at_the_table_takes_the_helped_hero_s_wound(
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    wound: str,
    faces: tuple[int, ...],
    helped_total: int,
    effect: str,
) -> None:
    """L-13: Bran's 6 against Ysolde's Chant: 4 + 3 − 2 = 5 with a light wound, one die
    (4) with a grave one."""
    _heroes(table, wound)
    action_dice(monkeypatch, *faces)
    form = {"csrf": table.csrf(table.gm), "helper": "Bran", "helped": "Ysolde"}
    answer = table.client.post(
        f"{table.gm}{HELP}", data={**form, "helped_trait": "Chant"}, headers=FETCH
    )
    assert answer.status_code == 200, answer.text
    (entry,) = table.store.rolls()
    assert entry["faces"] == [list(faces[:3]), list(faces[3:])]
    assert (entry["outcome"]["helped_total"], entry["outcome"]["effect"]) == (helped_total, effect)
