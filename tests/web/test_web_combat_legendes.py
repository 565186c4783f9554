"""The combat tracker plays Légendes opposed rolls by the scene rules (L-8, L-13, L-14)."""

from __future__ import annotations

from typing import Any

from meneur.campaign.chain import verify_log
from meneur.web.tables import Tables
from web.web_helpers import Table


def tracker(table: Table) -> list[dict[str, Any]]:
    info = Tables(table.store).get(table.info.id)
    assert info is not None
    people: list[dict[str, Any]] = info.combat["combatants"]
    return people


def post(table: Table, csrf: str, **data: str) -> Any:
    return table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})


def hero_against(table: Table, name: str, level: str) -> str:
    """Aube (Épée legendary: 3 dice) first, the opposition second."""
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    csrf = table.csrf(table.gm)
    assert post(table, csrf, action="add", name="Aube", initiative="3").status_code == 200
    added = post(table, csrf, action="add", name=name, initiative="1", level=level)
    assert added.status_code == 200
    return csrf


def roll(table: Table, csrf: str, faces: str, vs_faces: str) -> dict[str, Any]:
    answer = post(
        table, csrf, action="exchange", index="0", other="1", faces=faces, vs_faces=vs_faces
    )
    assert answer.status_code == 200, answer.text
    entry: dict[str, Any] = table.store.rolls()[-1]
    assert entry["system"] == "legendes" and entry["source"] == "physical"
    return entry


def test_L13_partial_victories_wound_a_heroic_opposition_light_then_grave(table: Table) -> None:
    """L-8: 13 against 8 is a victoire partielle (4-5): a light wound (L-13); the heroic
    opposition fights on (L-14) with −2 (L-13): 13 against 10 − 2 = 8, partial again: the
    second wound is grave; then it rolls one die less (2 − 1)."""
    csrf = hero_against(table, "Garde", "heroique")
    first = roll(table, csrf, "6 6 1", "4 4")
    assert first["outcome"]["difference"] == 5 and first["outcome"]["taken"] == "partial"
    garde = tracker(table)[1]
    assert garde["wounds"] == "blessure légère" and not garde["out"]
    second = roll(table, csrf, "6 6 1", "5 5")
    assert second["outcome"]["opposition_total"] == 8
    garde = tracker(table)[1]
    assert garde["wounds"] == "blessure grave" and not garde["out"]
    third = roll(table, csrf, "6 6 1", "3")
    assert third["outcome"]["opposition_dice"] == 1
    assert "Garde" in table.client.get(table.gm).text
    assert table.store.character("Aube").sheet["wound"] == "none"


def test_L13_the_hero_wounded_by_a_partial_defeat_sheet_and_tracker(table: Table) -> None:
    """L-13: a legendary opposition (3 dice) wins 7 to 3: the hero's light wound is written
    to the sheet with the entry and costs 2 on the next roll (18 − 2 = 16)."""
    csrf = hero_against(table, "Sorcière", "legendaire")
    entry = roll(table, csrf, "1 1 1", "2 3 2")
    assert entry["outcome"]["winner"] == "opposition"
    assert entry["outcome"]["taken"] == "partial"
    assert table.store.character("Aube").sheet["wound"] == "light"
    aube = tracker(table)[0]
    assert aube["wounds"] == "blessure légère" and aube["wounded"]
    after = roll(table, csrf, "6 6 6", "6 6 6")
    assert after["outcome"]["total"] == 16 and after["outcome"]["opposition_total"] == 18
    assert "Échec" in tracker(table)[0]["last"]


def test_L14_a_non_heroic_opposition_is_out_after_its_first_wound(table: Table) -> None:
    """L-14: an elite opposition (1 die) wounded by 11 against 6 leaves the fight; the
    tracker refuses another roll against it, and nothing more is logged."""
    csrf = hero_against(table, "Sbire", "elite")
    roll(table, csrf, "6 4 1", "6")
    sbire = tracker(table)[1]
    assert sbire["out"] and sbire["wounds"] == "blessure légère, hors de combat"
    count = len(table.store.rolls())
    refused = post(table, csrf, action="exchange", index="0", other="1")
    assert refused.status_code == 400 and "L-14" in refused.text
    assert len(table.store.rolls()) == count


def test_an_opposition_needs_a_level_and_a_hero_needs_an_opposition(table: Table) -> None:
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    table.create(table.gm, "legendes", "Brune", legendary="Arc")
    csrf = table.csrf(table.gm)
    for name in ("Aube", "Brune", "Ombre"):
        post(table, csrf, action="add", name=name)
    assert post(table, csrf, action="exchange", index="0", other="1").status_code == 400
    no_level = post(table, csrf, action="exchange", index="0", other="2")
    assert no_level.status_code == 400 and "Ombre" in no_level.text
    assert table.store.rolls() == []


def test_a_legendes_roll_on_committed_dice_verifies(table: Table) -> None:
    csrf = hero_against(table, "Garde", "heroique")
    assert table.client.post(f"{table.gm}/session/start", data={"csrf": csrf}).status_code == 200
    assert post(table, csrf, action="exchange", index="1", other="0").status_code == 200
    entry = table.store.rolls()[-1]
    assert entry["source"] == "committed" and entry["outcome"]["names"] == ["Aube", "Garde"]
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    assert verify_log(table.store.export_log()).recomputed == 1
