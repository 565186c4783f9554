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


def test_an_opposition_needs_a_level(table: Table) -> None:
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    csrf = table.csrf(table.gm)
    post(table, csrf, action="add", name="Aube")
    post(table, csrf, action="add", name="Ombre")
    no_level = post(table, csrf, action="exchange", index="0", other="1")
    assert no_level.status_code == 400 and "Ombre" in no_level.text
    assert table.store.rolls() == []


def heroes_table(table: Table, *others: tuple[str, str]) -> str:
    """Aube (Épée, legendary: 3 dice) and Brune (Arc, secondary: 2 dice), then ``others``."""
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    table.create(table.gm, "legendes", "Brune", secondary="Arc")
    csrf = table.csrf(table.gm)
    for name in ("Aube", "Brune"):
        assert post(table, csrf, action="add", name=name).status_code == 200
    for name, level in others:
        assert post(table, csrf, action="add", name=name, level=level).status_code == 200
    return csrf


def exchange(table: Table, csrf: str, **data: str) -> dict[str, Any]:
    answer = post(table, csrf, action="exchange", **data)
    assert answer.status_code == 200, answer.text
    entry: dict[str, Any] = table.store.rolls()[-1]
    return entry


def test_L10_two_heroes_of_the_campaign_fight_and_both_sheets_are_written(table: Table) -> None:
    """L-10 (player characters included): Aube (3 dice) against Brune (2 dice), 12 against
    7: a victoire partielle; Brune's stored sheet gets her light wound (L-13), Aube's none,
    and a wounded hero stays in the fight (L-14)."""
    csrf = heroes_table(table)
    entry = exchange(table, csrf, index="0", other="1", faces="4 4 4", vs_faces="3 4")
    assert (entry["outcome"]["total"], entry["outcome"]["opposition_total"]) == (12, 7)
    assert entry["outcome"]["pairs"][0]["effects"] == ["opposition_wound:light"]
    assert table.store.character("Brune").sheet["wound"] == "light"
    assert table.store.character("Aube").sheet["wound"] == "none"
    brune = tracker(table)[1]
    assert brune["wounds"] == "blessure légère" and not brune["out"]


def test_L8_L10_each_side_of_an_exchange_shows_its_own_result(table: Table) -> None:
    """L-8: Aube (Épée) loses 6 to 9 to Brune (Arc), an avantage for Brune: the tracker
    shows « Échec (avantage) » beside Aube only, « Réussite (avantage) » beside Brune (it
    showed the loser's verdict beside both). L-10: with Brune beside her against Orsk,
    each pair is compared on its own: Aube and Brune each read their own win, Orsk its
    defeat against each of them (it showed only the first)."""
    csrf = heroes_table(table)
    entry = exchange(table, csrf, index="0", other="1", faces="1 2 3", vs_faces="4 5")
    assert (entry["outcome"]["winner"], entry["outcome"]["outcome"]) == ("opposition", "advantage")
    aube, brune = tracker(table)
    assert (aube["name"], brune["name"]) == ("Aube", "Brune")
    assert aube["last"] == "Échec (avantage)" and brune["last"] == "Réussite (avantage)"
    assert post(table, csrf, action="add", name="Orsk", level="heroique").status_code == 200
    exchange(table, csrf, index="0", other="2", third="1", faces="4 4 4 3 4", vs_faces="2 3")
    aube, brune, orsk = tracker(table)
    assert aube["last"] == "Réussite (définitive)"
    assert brune["last"] == "Réussite (avantage)"
    assert orsk["last"] == "contre Aube : Échec (définitive) ; contre Brune : Échec (avantage)"


def test_L10_two_heroes_attack_a_third_compared_two_by_two(table: Table) -> None:
    """L-10: « deux personnages s'attaquent à un troisième »: Aube and Brune (the third
    combatant) attack Orsk (héroïque, 2 dice), who rolls once: 12 against 5 (définitive)
    and 7 against 5 (avantage)."""
    csrf = heroes_table(table, ("Orsk", "heroique"))
    entry = exchange(
        table, csrf, index="0", other="2", third="1", faces="4 4 4 3 4", vs_faces="2 3"
    )
    pairs = entry["outcome"]["pairs"]
    assert [(p["side"], p["opposition"], p["total"], p["opposition_total"]) for p in pairs] == [
        (None, "Orsk", 12, 5),
        ("Brune", "Orsk", 7, 5),
    ]
    assert entry["params"]["with"] == ["Brune"] and entry["faces"] == [[4, 4, 4, 3, 4], [2, 3]]
    assert tracker(table)[2]["out"]


def test_L10_three_fight_each_other(table: Table) -> None:
    """L-10: « trois personnages se combattent les uns les autres »: Aube, Brune and Orsk
    each roll once, and the three pairs are compared: Aube puts Brune out (12 against 5,
    définitive) and Orsk wounds her (9 against 5, partielle): her sheet is wounded."""
    csrf = heroes_table(table, ("Orsk", "heroique"))
    entry = exchange(
        table, csrf, index="0", other="1", third="2", each_other="true",
        faces="4 4 4", vs_faces="2 3 4 5",
    )  # fmt: skip
    pairs = entry["outcome"]["pairs"]
    assert [(p["side"], p["opposition"], p["total"], p["opposition_total"]) for p in pairs] == [
        (None, "Brune", 12, 5),
        (None, "Orsk", 12, 9),
        ("Brune", "Orsk", 5, 9),
    ]
    assert table.store.character("Brune").sheet["wound"] == "light"
    assert tracker(table)[1]["out"] and not tracker(table)[2]["out"]


def test_L10_each_of_three_shows_its_result_against_every_opponent(table: Table) -> None:
    """L-10: in a fight of three, each against each, every combatant faced two others:
    the tracker shows each one's own result against each (it showed only its first
    pair's), and the log line names every pair with its totals. Aube 12, Brune 5, Orsk 9:
    Aube beats Brune (définitive) and Orsk (avantage), Orsk beats Brune (partielle)."""
    csrf = heroes_table(table, ("Orsk", "heroique"))
    exchange(
        table, csrf, index="0", other="1", third="2", each_other="true",
        faces="4 4 4", vs_faces="2 3 4 5",
    )  # fmt: skip
    aube, brune, orsk = (person["last"] for person in tracker(table))
    assert aube == "contre Brune : Réussite (définitive) ; contre Orsk : Réussite (avantage)"
    assert brune == "contre Aube : Échec (définitive) ; contre Orsk : Échec (partielle)"
    assert orsk == "contre Aube : Échec (avantage) ; contre Brune : Réussite (partielle)"
    page = table.client.get(table.gm).text
    assert all(words in page for words in (aube, brune, orsk))
    assert "Aube contre Brune : Réussite (définitive) ; Aube contre Orsk" in page
    assert "Brune contre Orsk : Échec (partielle)" in page
    assert "12 contre 5 ; 12 contre 9 ; 5 contre 9" in page


def test_L13_a_partial_victory_in_a_social_contest_makes_doubt(table: Table) -> None:
    """L-13: asked for a social contest, the hero's victoire partielle makes the heroic
    opposition doubt: no wound on the tracker; the winner may also take less (L-8)."""
    csrf = hero_against(table, "Conseiller", "heroique")
    entry = roll_with(table, csrf, faces="6 6 1", vs_faces="4 4", partial="doubt")
    assert entry["outcome"]["taken"] == "partial" and entry["params"]["partial"] == "doubt"
    assert entry["outcome"]["pairs"][0]["effects"] == ["opposition_doubt"]
    assert tracker(table)[1]["wounds_state"] == "none"
    less = roll_with(table, csrf, faces="6 6 1", vs_faces="4 4", take="advantage")
    assert (less["outcome"]["outcome"], less["outcome"]["taken"]) == ("partial", "advantage")
    assert tracker(table)[1]["wounds_state"] == "none"


def roll_with(table: Table, csrf: str, **data: str) -> dict[str, Any]:
    return exchange(table, csrf, index="0", other="1", **data)


def test_L10_L13_bad_choices_are_refused_as_the_command_line_does(table: Table) -> None:
    """The same parsers as `meneur scene legendes roll`: an unknown partial effect or band
    is refused with the command line's message; nothing is logged, no sheet changes."""
    csrf = hero_against(table, "Conseiller", "heroique")
    for data, words in (
        ({"partial": "maim"}, "Effet de victoire partielle inconnu « maim »"),
        ({"take": "all"}, "Résultat inconnu « all »"),
        ({"third": "7"}, "trois combattants différents"),
        ({"each_other": "true"}, "L-10"),
    ):
        refused = post(table, csrf, action="exchange", index="0", other="1", **data)
        assert refused.status_code == 400 and words in refused.text, (data, refused.text[-300:])
    assert table.store.rolls() == []


def test_L10_a_third_of_thousands_of_digits_is_refused_not_a_crash(table: Table) -> None:
    """The tracker read the third combatant's index with int() to find the exchange's
    system: 5,000 digits (past Python's 4,300) were HTTP 500 and a traceback. It is the
    form's to refuse, as any index past 100; nothing is logged."""
    csrf = hero_against(table, "Garde", "heroique")
    refused = post(table, csrf, action="exchange", index="0", other="1", third="9" * 5000)
    assert refused.status_code == 400, refused.text[-300:]
    assert "100" in refused.text
    assert table.store.rolls() == []


def test_a_legendes_roll_on_committed_dice_verifies(table: Table) -> None:
    csrf = hero_against(table, "Garde", "heroique")
    assert table.client.post(f"{table.gm}/session/start", data={"csrf": csrf}).status_code == 200
    assert post(table, csrf, action="exchange", index="1", other="0").status_code == 200
    entry = table.store.rolls()[-1]
    assert entry["source"] == "committed" and entry["outcome"]["names"] == ["Aube", "Garde"]
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    assert verify_log(table.store.export_log()).recomputed == 1


def test_L1_a_domain_typed_nearly_as_the_sheet_has_it_is_refused(table: Table) -> None:
    """L-1 rolls what the sheet does not list as ordinary (0 dice): « Épé » for « Épée »
    lost Aube the exchange, logged. The tracker refuses it with the command line's words,
    in French and in English; nothing is logged, no sheet changes."""
    csrf = hero_against(table, "Garde", "heroique")
    sheet = table.store.character("Aube").sheet
    refused = post(table, csrf, action="exchange", index="0", other="1", trait="Épé")
    assert refused.status_code == 400
    assert "« Épé » n&#39;est pas sur la fiche d&#39;Aube" in refused.text, refused.text[-400:]
    assert "vouliez-vous dire « Épée » ?" in refused.text
    english = table.client.post(
        f"{table.gm}/combat",
        data={"csrf": csrf, "action": "exchange", "index": "0", "other": "1", "trait": "Épé"},
        headers={"accept-language": "en"},
    )
    assert english.status_code == 400
    assert "is not on Aube&#39;s sheet: did you mean &#39;Épée&#39;?" in english.text
    assert table.store.rolls() == [] and table.store.character("Aube").sheet == sheet


def test_L1_a_domain_unlike_the_sheets_rolls_ordinary_and_the_log_says_so(table: Table) -> None:
    """L-1: « Escalade » is like nothing on Aube's sheet: rolled as ordinary (0 dice) and
    the log's line says so, as the command line does; a listed domain says nothing."""
    csrf = hero_against(table, "Garde", "heroique")
    listed = roll_with(table, csrf, trait="épée", faces="1 1 1", vs_faces="1 1")
    assert listed["outcome"]["dice"] == 3 and listed["outcome"]["domain_unlisted"] is False
    assert "pas sur la fiche" not in table.client.get(table.gm).text
    entry = roll_with(table, csrf, trait="Escalade")
    assert entry["outcome"]["dice"] == 0 and entry["outcome"]["domain_unlisted"] is True
    note = "; « Escalade » n&#39;est pas sur la fiche : domaine ordinaire, 0 dé ("
    assert note in table.client.get(table.gm).text  # (L-1) is a link to the rule
