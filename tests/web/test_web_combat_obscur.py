"""The combat tracker plays Obscur melee rounds by the system's own rules (O-11..O-13, O-31)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meneur.campaign.chain import verify_log
from meneur.campaign.summary import entry_summary
from meneur.web.state import WebSettings
from meneur.web.tables import Tables
from web.web_helpers import Table, make_table

# Isaure: Agilité 4, Hargne 4, Bagarre 2: unarmed PA 6 (3 attack, 3 parade), RA 4.
ISAURE = {"Agilité": "4", "Hargne": "4", "abilities": "Bagarre=2"}
# Garou: the form's defaults: Agilité 2 (RA 2), Résistance 2, Bagarre 0: PA 2, Vie 14.


def tracker(table: Table) -> list[dict[str, Any]]:
    info = Tables(table.store).get(table.info.id)
    assert info is not None
    people: list[dict[str, Any]] = info.combat["combatants"]
    return people


def post(table: Table, csrf: str, **data: str) -> Any:
    return table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})


def two_fighters(table: Table) -> str:
    table.create(table.gm, "obscur", "Garou")
    table.create(table.gm, "obscur", "Isaure", **ISAURE)
    csrf = table.csrf(table.gm)
    assert post(table, csrf, action="add", name="Garou").status_code == 200
    assert post(table, csrf, action="add", name="Isaure").status_code == 200
    return csrf


def test_O11_obscur_characters_join_the_fight_in_rang_d_action_order(table: Table) -> None:
    """O-11: left empty, the initiative is the Rang d'Action (Agilité − the weapon's
    Initiative), highest first, whatever the order of arrival; the reserve is Vie."""
    two_fighters(table)
    people = tracker(table)
    assert [(c["name"], c["initiative"]) for c in people] == [("Isaure", 4), ("Garou", 2)]
    assert [(c["health"], c["max"]) for c in people] == [(18, 18), (14, 14)]
    assert all(c["system"] == "obscur" for c in people)


def test_O12_O13_a_melee_round_wounds_the_sheet_and_the_tracker(table: Table) -> None:
    """O-11: Isaure (RA 4) strikes first; O-12: her 3 Attack dice (6 6 6: 6 successes)
    against Garou's 1 Parade die (1: none), margin 6; O-13: hit zone die 6 (Jambes),
    damage 6 + Hargne bonus 2 (Hargne 4, bare hands: half) − Résistance 2 = 6; O-28:
    Garou's shock (3, less the Choc test) leaves him no Attack die; Isaure parries 6 6 6.
    Garou's sheet loses 6 Vie as one wound, in the log entry's transaction."""
    csrf = two_fighters(table)
    answer = post(
        table,
        csrf,
        action="exchange",
        index="0",
        other="1",
        faces="6 6 6 6 6 6 6",
        vs_faces="1 3 3",
    )
    assert answer.status_code == 200, answer.text
    entry = table.store.rolls()[-1]
    assert entry["system"] == "obscur" and entry["kind"] == "melee"
    assert entry["source"] == "physical"
    record = entry["outcome"]["round"]
    assert record["initiator"] == "a"
    first, second = record["strikes"]
    assert first["attacker"] == "a" and first["margin"] == 6 and first["zone"] == "Jambes"
    assert first["damage"] == 6
    assert second["attacker"] == "b" and not second["hit"]
    garou = table.store.character("Garou").sheet
    assert garou["ressources"]["vie"]["current"] == 8
    assert garou["etat"]["blessures"] == [{"points": 6, "source": "coup", "soignee": False}]
    isaure = table.store.character("Isaure").sheet
    assert isaure["ressources"]["vie"]["current"] == 18
    people = tracker(table)
    assert [c["health"] for c in people] == [18, 8]
    assert people[1]["wounds"] == "blessures : 6" and people[1]["wounded"]
    assert people[0]["wounds"] == "" and not people[0]["wounded"]
    assert "Isaure touche Garou (Jambes) : 6 dégâts" in people[1]["last"]
    assert entry_summary(entry) == "Isaure touche Garou (Jambes) : 6 dégâts"  # meneur log
    page = table.client.get(table.gm).text
    assert (
        'mêlée (<a class="rule-link" href="#rule-O-12">O-12</a>)' in page
        and "blessures : 6" in page
    )


def test_O31_a_character_in_a_coma_cannot_fight_on(table: Table) -> None:
    """O-31: Vie at 0 is a coma; the tracker says so and refuses another round."""
    csrf = two_fighters(table)
    for _ in range(40):
        people = tracker(table)
        if any(c["health"] <= 0 for c in people):
            break
        assert post(table, csrf, action="exchange", index="0", other="1").status_code == 200
        entry = table.store.rolls()[-1]
        after = entry["outcome"]["after"]
        for person, body in zip(tracker(table), after, strict=True):
            sheet = table.store.character(person["name"]).sheet
            assert person["health"] == body["vie"] == sheet["ressources"]["vie"]["current"]
    people = tracker(table)
    down = [c for c in people if c["health"] <= 0]
    assert down and down[0]["wounds"] in ("coma", "mort")
    refused = post(table, csrf, action="exchange", index="0", other="1")
    assert refused.status_code == 400 and "coma" in refused.text


def test_an_obscur_exchange_needs_two_obscur_characters(table: Table) -> None:
    """The rules fight sheets: a combatant without an Obscur sheet is refused, nothing logged."""
    table.create(table.gm, "obscur", "Isaure", **ISAURE)
    csrf = table.csrf(table.gm)
    post(table, csrf, action="add", name="Isaure")
    post(table, csrf, action="add", name="Ombre", health="9")
    count = len(table.store.rolls())
    refused = post(table, csrf, action="exchange", index="0", other="1")
    assert refused.status_code == 400 and "Ombre" in refused.text
    one_side = post(table, csrf, action="exchange", index="0", other="1", faces="6")
    assert one_side.status_code == 400
    assert len(table.store.rolls()) == count
    player = table.join("Alice")
    forbidden = table.client.post(
        f"{player}/combat", data={"csrf": table.csrf(player), "action": "exchange"}
    )
    assert forbidden.status_code == 403


def test_an_obscur_round_on_committed_dice_verifies(table: Table) -> None:
    """With a game session open the round draws committed dice; the revealed log verifies."""
    csrf = two_fighters(table)
    assert table.client.post(f"{table.gm}/session/start", data={"csrf": csrf}).status_code == 200
    assert post(table, csrf, action="exchange", index="0", other="1").status_code == 200
    assert table.store.rolls()[-1]["source"] == "committed"
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    report = verify_log(table.store.export_log())
    assert report.recomputed == 1


def test_exchanges_are_rolls_under_the_same_rate_limit(tmp_path: Path) -> None:
    """Each exchange rolls and logs: past the burst, 429 and nothing more is logged."""
    for table in make_table(tmp_path, WebSettings(roll_rate=0.01, roll_burst=2)):
        csrf = two_fighters(table)
        codes = [
            post(table, csrf, action="exchange", index="0", other="1").status_code for _ in range(3)
        ]
        assert codes == [200, 200, 429]
        assert len(table.store.rolls()) == 2


def test_O14_O21_a_shot_from_the_tracker_wounds_the_target(table: Table) -> None:
    """O-14: Mireille (Gardien du feu 1 + Armes de trait 3, a crossbow) shoots the passive
    Garou at courte distance: difficulty 1; 6 6 1 1: 4 successes, MR 3; zone die 3; damage
    3 + Arbalète 4 − Résistance 2 = 5, with Garou's shock (O-28). O-21: an aim of 11 rounds
    is refused with the same message as the CLI's."""
    table.create(table.gm, "obscur", "Garou")
    table.create(table.gm, "obscur", "Mireille", skills="Armes de trait=3")
    sheet = table.store.character("Mireille").sheet
    table.store.update_character("Mireille", sheet={**sheet, "equipement": {"armes": ["Arbalète"]}})
    csrf = table.csrf(table.gm)
    assert post(table, csrf, action="add", name="Mireille").status_code == 200
    assert post(table, csrf, action="add", name="Garou").status_code == 200
    names = [c["name"] for c in tracker(table)]
    shooter, target = names.index("Mireille"), names.index("Garou")
    answer = post(
        table,
        csrf,
        action="shot",
        index=str(shooter),
        other=str(target),
        faces="6 6 1 1 3",
        vs_faces="1 1",
    )
    assert answer.status_code == 200, answer.text
    entry = table.store.rolls()[-1]
    assert entry["system"] == "obscur" and entry["kind"] == "shot"
    shot = entry["outcome"]["shot"]
    assert shot["rule"] == "O-14" and shot["difficulty"] == 1 and shot["attack"]["dice"] == 4
    assert shot["damage"] == 3 + 4 - 2 and shot["shock"]["lost"] == 5
    garou = table.store.character("Garou").sheet
    assert garou["ressources"]["vie"]["current"] == 14 - 5
    assert tracker(table)[target]["health"] == 14 - 5
    assert entry_summary(entry) == "Mireille touche Garou (Torse) : 5 dégâts"  # meneur log
    count = len(table.store.rolls())
    refused = post(table, csrf, action="shot", index=str(shooter), other=str(target), aim="11")
    assert refused.status_code == 400 and "11" in refused.text
    assert len(table.store.rolls()) == count


def test_O29_the_table_shows_each_pool_breakdown_beside_its_odds(table: Table) -> None:
    """O-29: a wounded, fatigued sheet at the table: the trait list shows « 6 dés − 2
    douleur − 1 fatigue = 3 dés » and the odds beside it are those of 3 dice; O-34: at
    Volonté 0 its roll is refused with the reason, nothing logged."""
    from fractions import Fraction

    table.create(table.gm, "obscur", "Isaure", **ISAURE)
    table.create(table.gm, "obscur", "Garou")
    sheet = table.store.character("Isaure").sheet
    sheet["ressources"]["vie"]["current"] -= 6
    sheet["etat"] = {"blessures": [{"points": 6, "source": "coup"}], "fatigue": 1}
    table.store.update_character("Isaure", sheet=sheet)
    garou = table.store.character("Garou").sheet
    garou["ressources"]["volonte"]["current"] = 0
    table.store.update_character("Garou", sheet=garou)
    page = table.client.get(table.gm).text
    assert "6 dés − 2 douleur − 1 fatigue = 3 dés" in page  # Bagarre 2 + Hargne 4
    answer = table.client.get(
        f"/api{table.gm}/odds", params={"character": "Isaure", "difficulty": 1}
    ).json()
    assert Fraction(answer["traits"]["Bagarre"]["exact"]) == 1 - Fraction(1, 8)
    entry = table.roll(table.gm, "Isaure", "Bagarre", faces="6 1 1")["entry"]
    assert isinstance(entry, dict) and entry["params"]["maluses"] == {
        "pain": 2,
        "intemperies": 0,
        "fatigue": 1,
        "movement": 0,
    }
    count = len(table.store.rolls())
    refused = table.client.post(
        f"/api{table.gm}/roll", json={"character": "Garou", "trait": "Agilité"}
    )
    assert refused.status_code == 400 and "O-34" in refused.json()["error"]
    assert len(table.store.rolls()) == count
