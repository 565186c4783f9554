"""The table plays the systems' own rules: its batch-by-batch ending and its marks (issue 14).

A deliberate break of the table's rules used to survive the suite: the batch-by-batch
ending that forgot the critical failure (T-8), the marks that counted 5+ as hits. Both
now come from the Tunnels test itself, and these tests pin them.
"""

from __future__ import annotations

from meneur.campaign.replay import replay_entries
from meneur.web.tables import Tables
from meneur.web.views import log_line
from web.web_helpers import TUNNELS, Table


def test_T8_a_batch_by_batch_roll_with_three_ones_fails_whatever_its_successes(
    table: Table,
) -> None:
    """T-8 at the table: 1-1-4 then the extra die shows 1: three 1s, the test fails."""
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    fetch = {"x-requested-with": "fetch"}
    started = table.client.post(
        f"{player}/roll", data={**form, "threshold": "1", "faces": "1 1 4"}, headers=fetch
    )
    assert started.json() == {"pending": True}
    table.client.post(
        f"{player}/roll/next", data={"csrf": csrf, "choice": "explode", "faces": "1"}, headers=fetch
    )
    [entry] = table.store.rolls()
    assert entry["faces"] == [[1, 1, 4, 1]]
    outcome = entry["outcome"]
    assert outcome["successes"] >= 1 and outcome["critical"] and outcome["passed"] is False
    assert replay_entries([entry]).problems == ()  # the entry replays through the rule


def test_T3_T8_the_table_marks_the_faces_the_rule_counts(table: Table) -> None:
    """T-3: 4, 5 and 6 are successes (4 included); a lone 1 is no critical failure (T-8)."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    answer = table.client.post(
        f"/api{table.gm}/roll",
        json={"character": "Brindille", "trait": "Force", "faces": "4 1 5", "explode": "never"},
    )
    assert answer.status_code == 200, answer.text
    [entry] = table.store.rolls()
    marks = [(mark.face, mark.css) for mark in log_line(entry, "public").streams[0]]
    assert marks == [(4, "hit"), (1, ""), (5, "hit")]


def test_T11_a_character_the_tracker_killed_rolls_no_more(table: Table) -> None:
    """T-11: Pip (Endurance 4) loses 3 an exchange against an orc of MR 3 (1 2 against
    4 5 6): wounded at 0, then dead at 0. A roll of Pip's Force is then refused with the
    reason, nothing logged, and Pip's card says « mort »."""
    player = table.join("Bastien")
    table.create(player, "tunnels", "Pip", Force="2", Constitution="2")
    csrf = table.csrf(table.gm)
    for name, health in (("Pip", ""), ("Orque", "3")):
        data = {"csrf": csrf, "action": "add", "name": name, "initiative": "1", "health": health}
        assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    exchange = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
    for _ in range(4):
        answer = table.client.post(
            f"{table.gm}/combat", data={**exchange, "faces": "1 2", "vs_faces": "4 5 6"}
        )
        assert answer.status_code == 200, answer.text
    pip = Tables(table.store).get(table.info.id).combat["combatants"][0]  # type: ignore[union-attr]
    assert pip["name"] == "Pip" and pip["health"] == 0 and pip["wounds"] == "mort"
    assert table.store.character("Pip").sheet["dead"] is True
    count = len(table.store.rolls())
    refused = table.client.post(
        f"/api{player}/roll", json={"character": "Pip", "trait": "Force", "threshold": 1}
    )
    assert refused.status_code == 400
    assert "Pip est mort (T-11)" in refused.json()["error"]
    assert len(table.store.rolls()) == count
    assert "<b>État</b> mort" in table.client.get(player).text


def test_T11_a_character_wounded_on_its_sheet_joins_the_fight_wounded(table: Table) -> None:
    """T-11: the tracker read only a character's current Endurance, so Pip, wounded on
    his sheet, fought as unwounded (at 0 he would recover, not die) and his maximum was
    his current Endurance. He now joins wounded, with his sheet's maximum, and dies at 0;
    a dead character cannot join."""
    table.create(table.gm, "tunnels", "Pip", Force="2", Constitution="2")
    sheet = table.store.character("Pip").sheet
    most = sheet["endurance"]["max"]
    csrf = table.csrf(table.gm)
    edit = {"csrf": csrf, "character": "Pip", "wounded": "true", "endurance/current": "4"}
    assert table.client.post(f"{table.gm}/sheet", data=edit).status_code in (200, 303)
    for name, health in (("Pip", ""), ("Orque", "3")):
        data = {"csrf": csrf, "action": "add", "name": name, "initiative": "1", "health": health}
        assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    pip = Tables(table.store).get(table.info.id).combat["combatants"][0]  # type: ignore[union-attr]
    assert pip["wounded"] is True and pip["max"] == most and pip["health"] == 4
    exchange = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
    for _ in range(2):  # 4 -> 1 -> 0: already wounded, so dead (no recovery)
        answer = table.client.post(
            f"{table.gm}/combat", data={**exchange, "faces": "1 2", "vs_faces": "4 5 6"}
        )
        assert answer.status_code == 200, answer.text
    assert table.store.character("Pip").sheet["dead"] is True
    table.client.post(f"{table.gm}/combat", data={"csrf": csrf, "action": "remove", "index": "0"})
    again = {"csrf": csrf, "action": "add", "name": "Pip", "initiative": "1", "health": ""}
    refused = table.client.post(f"{table.gm}/combat", data=again)
    assert refused.status_code == 400 and "mort" in refused.text


def test_a_krasses_exchange_is_refused_never_played_as_tunnels(table: Table) -> None:
    """Krâsses has no wounds nor exchange in its text: the tracker refuses, nothing is logged."""
    for name in ("Aurore", "Bastien"):
        table.create(table.gm, "krasses", name, characteristics="Force=2", skills="Bagarre=3")
    csrf = table.csrf(table.gm)
    for name in ("Aurore", "Bastien"):
        table.client.post(f"{table.gm}/combat", data={"csrf": csrf, "action": "add", "name": name})
    answer = table.client.post(
        f"{table.gm}/combat",
        data={"csrf": csrf, "action": "exchange", "index": "0", "other": "1"},
        headers={"x-requested-with": "fetch"},
    )
    assert answer.status_code == 400
    assert "Krâsses" in answer.json()["error"]
    assert table.store.rolls() == []
