"""A Krâsses cooperation at the table (K-7, issue 17): chosen among the table's characters,
rolled once for everyone, logged in one entry, its exact chance shown before the roll,
replayable, and as secret as its roll mode says.

The dice are typed through the table's dice source (a :class:`PhysicalDice` standing in
for the secure dice), so each outcome is known: the leader, each +2 and the verdict are
those K-7 gives, not merely what the engine happens to say.
"""

from __future__ import annotations

import html
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from meneur.campaign.chain import verify_log
from meneur.campaign.replay import STEPS, replay_entries
from web.web_helpers import Table, action_dice

FETCH = {"x-requested-with": "fetch"}
COOPERATE = "/action/krasses/cooperate"


def _crew(table: Table) -> None:
    table.create(table.gm, "krasses", "Aldo", characteristics="Force=2", skills="Bagarre=3")
    table.create(table.gm, "krasses", "Bea", characteristics="Force=1", skills="Bagarre=5")
    table.create(table.gm, "krasses", "Cid", characteristics="Force=1", skills="Chant=2")
    table.create(table.gm, "krasses", "Dan", characteristics="Force=1", skills="Bagarre=1")


def _cooperate(table: Table, base: str, *names: str, **fields: str) -> Any:
    form = {"csrf": table.csrf(base), "skill": "Bagarre", **fields}
    form.update({f"join:{name}": "1" for name in names})
    return table.client.post(f"{base}{COOPERATE}", data=form, headers=FETCH)


def test_K7_the_best_total_leads_and_a_15_with_a_level_gives_plus_2(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """K-7: Bea's 19 leads; Aldo's 15 exactly, with a level, gives +2; Cid's 17 without a
    level in Bagarre gives nothing (K-6: he rolls it with no level); Dan's natural 1 never
    helps. 19 + 2 = 21 against Ardu 20: a success (19 alone would fail)."""
    _crew(table)
    action_dice(monkeypatch, 12, 14, 17, 1)
    answer = _cooperate(table, table.gm, "Aldo", "Bea", "Cid", "Dan", difficulty="20")
    assert answer.status_code == 200, answer.text
    (entry,) = table.store.rolls()
    outcome = entry["outcome"]
    assert entry["kind"] == "cooperate" and entry["faces"] == [[12, 14, 17, 1]]
    assert [m["total"] for m in outcome["members"]] == [15, 19, 17, 2]
    assert [m["name"] for m in outcome["members"]] == ["Aldo", "Bea", "Cid", "Dan"]
    assert outcome["leader"] == 1 and outcome["helpers"] == [0]
    assert (outcome["total"], outcome["difficulty"], outcome["passed"]) == (21, 20, True)
    line = html.unescape(table.client.get(table.gm).text)
    assert "Bea mène : total 21 contre 20 (+2 d'Aldo)" in line
    assert "Aldo 15 (naturel 12)" in line and "Dan 2 (naturel 1)" in line


def test_K7_a_helpers_natural_20_always_helps_and_a_natural_1_never(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """K-7: Dan's natural 20 (total 21) helps though Bea leads with 24; Eve's natural 1
    (total 16, a level of 15) does not. 24 + 2 = 26 against Difficile 25."""
    _crew(table)
    table.create(table.gm, "krasses", "Eve", characteristics="Force=1", skills="Bagarre=15")
    action_dice(monkeypatch, 19, 20, 1)
    answer = _cooperate(table, table.gm, "Bea", "Dan", "Eve", difficulty="25")
    assert answer.status_code == 200, answer.text
    outcome = table.store.rolls()[-1]["outcome"]
    assert [m["total"] for m in outcome["members"]] == [24, 21, 16]
    assert outcome["leader"] == 0 and outcome["helpers"] == [1]
    assert (outcome["total"], outcome["passed"]) == (26, True)


def test_K7_a_member_rolls_the_trait_chosen_for_them(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cid rolls Chant (his level 2) instead of the cooperation's skill: 13 + 2 = 15 with a
    level, so he gives Aldo +2."""
    _crew(table)
    action_dice(monkeypatch, 17, 13)
    answer = _cooperate(table, table.gm, "Aldo", "Cid", **{"trait:Cid": "Chant"})
    assert answer.status_code == 200, answer.text
    entry = table.store.rolls()[-1]
    assert entry["params"]["members"] == [
        {"name": "Aldo", "trait": "Bagarre"},
        {"name": "Cid", "trait": "Chant"},
    ]
    assert entry["outcome"]["helpers"] == [1] and entry["outcome"]["total"] == 22


def _k7_by_hand(members: list[tuple[int, int]], difficulty: int) -> Fraction:
    """K-7 counted over every face of every member (20^n outcomes), from the text."""
    wins = 0
    for faces in product(range(1, 21), repeat=len(members)):
        totals = [face + bonus for face, (bonus, _level) in zip(faces, members, strict=True)]
        lead = totals.index(max(totals))
        helps = sum(
            1
            for i, (face, (_bonus, level)) in enumerate(zip(faces, members, strict=True))
            if i != lead and level >= 1 and face != 1 and (face == 20 or totals[i] >= 15)
        )
        total = totals[lead] + 2 * helps
        natural = faces[lead]
        wins += natural == 20 or (natural != 1 and total >= difficulty)
    return Fraction(wins, 20 ** len(members))


def test_K7_the_exact_chance_before_the_roll_defaults_to_moyen_15(table: Table) -> None:
    """The odds the form asks before the roll are K-7's exact chance; with no difficulty
    given it is Moyen 15 (K-3), the one the page selects."""
    _crew(table)
    query = {"join:Aldo": "1", "join:Bea": "1", "join:Dan": "1", "skill": "Bagarre"}
    answer = table.client.get(f"/api{table.gm}{COOPERATE}/odds", params=query)
    assert answer.status_code == 200, answer.text
    (row,) = answer.json()["odds"]
    expected = _k7_by_hand([(3, 3), (5, 5), (1, 1)], 15)
    assert row["exact"] == f"{expected.numerator}/{expected.denominator}"
    ardu = table.client.get(f"/api{table.gm}{COOPERATE}/odds", params={**query, "difficulty": "20"})
    harder = _k7_by_hand([(3, 3), (5, 5), (1, 1)], 20)
    assert ardu.json()["odds"][0]["exact"] == f"{harder.numerator}/{harder.denominator}"
    page = table.client.get(table.gm).text
    assert '<option value="15" selected>Moyen (15)</option>' in page
    assert "Héroïque (40)" in page and "Très facile (5)" in page


@pytest.mark.parametrize(
    ("fields", "names", "message"),
    [
        ({}, ("Aldo", "Personne"), "Personne"),
        ({}, ("Aldo", "Ysolde"), "ne joue pas à Krâsses"),
        ({"difficulty": "beaucoup"}, ("Aldo", "Bea"), "n'est pas un nombre entier"),
        ({"difficulty": "5000000"}, ("Aldo", "Bea"), "Difficulté"),
        ({"mode": "partout"}, ("Aldo", "Bea"), "partout"),
        ({}, (), "Choisissez qui participe"),
        ({"trait:Aldo": "Chant\x1b[31m"}, ("Aldo", "Bea"), "caractère de contrôle"),
        ({"trait:Aldo": "[red]Chant"}, ("Aldo", "Bea"), "crochets"),
        ({"trait:Aldo": "C" * 61}, ("Aldo", "Bea"), "au plus 60 caractères"),
    ],
)
def test_a_refused_cooperation_says_why_in_one_line_and_logs_nothing(
    table: Table, fields: dict[str, str], names: tuple[str, ...], message: str
) -> None:
    _crew(table)
    table.create(table.gm, "legendes", "Ysolde", legendary="Épée")
    answer = _cooperate(table, table.gm, *names, **fields)
    assert answer.status_code == 400, answer.text
    assert message in answer.json()["error"] and "\n" not in answer.json()["error"]
    odds = table.client.get(
        f"/api{table.gm}{COOPERATE}/odds",
        params={**fields, **{f"join:{name}": "1" for name in names}, "skill": "Bagarre"},
    )
    if "mode" not in fields:  # the odds ignore the mode: they refuse the rest alike
        assert odds.status_code == 400 and message in odds.json()["error"]
    assert table.store.rolls() == []


def test_a_player_cooperates_only_with_their_own_character_in_it(table: Table) -> None:
    _crew(table)
    player = table.join("Alice")
    csrf = table.csrf(table.gm)
    table.client.post(
        f"{table.gm}/seats",
        data={"csrf": csrf, "action": "assign", "character": "Aldo", "holder": "1"},
    )
    assert _cooperate(table, player, "Bea", "Dan").status_code == 400
    assert _cooperate(table, player, "Aldo", "Bea").status_code == 200
    assert table.store.rolls()[-1]["who"] == "Aldo, Bea"


def test_a_blind_cooperation_shows_its_roller_no_die_and_gm_only_stays_with_the_gm(
    table: Table,
) -> None:
    """Roll modes: a player's blind cooperation is hidden from that player (no dice, no
    verdict) and a GM-only one never reaches another player."""
    _crew(table)
    alice, bob = table.join("Alice"), table.join("Bob")
    csrf = table.csrf(table.gm)
    for character, holder in (("Aldo", "1"), ("Bea", "2")):
        table.client.post(
            f"{table.gm}/seats",
            data={"csrf": csrf, "action": "assign", "character": character, "holder": holder},
        )
    assert _cooperate(table, alice, "Aldo", "Dan", mode="blindroll").status_code == 200
    assert _cooperate(table, alice, "Aldo", "Dan", mode="gmroll").status_code == 200
    mine = table.client.get(f"/api{alice}/log").json()["entries"]
    assert mine[0]["hidden"] is True and "faces" not in mine[0] and "outcome" not in mine[0]
    assert "faces" in mine[1]
    assert table.client.get(f"/api{bob}/log").json()["entries"] == []
    assert len(table.client.get(f"/api{table.gm}/log").json()["entries"]) == 2
    assert "Aldo, Dan" not in table.client.get(bob).text


def test_a_cooperation_at_the_table_replays(table: Table) -> None:
    """``meneur verify --replay``: the entry's step is K-7's own check, resolved again."""
    _crew(table)
    assert _cooperate(table, table.gm, "Aldo", "Bea", "Cid").status_code == 200
    document = table.store.export_log()
    verify_log(document)
    steps = document["entries"][0]["params"][STEPS]
    assert [(s["system"], s["check"]) for s in steps] == [("krasses", "cooperate")]
    report = replay_entries(document["entries"])
    assert report.problems == () and report.rolls == 1
