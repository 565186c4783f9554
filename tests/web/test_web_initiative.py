"""« Tirer l'initiative » at the tracker (issue 17): each combatant's initiative by its
system's rule, read from its sheet, then the fight sorted. Obscur orders by the Rang
d'Action (O-11); the texts of Tunnels, Krâsses and Légendes give no initiative: the
tracker says so and keeps the typed order."""

from __future__ import annotations

from typing import Any

from meneur.web.tables import Tables
from web.web_helpers import Table

# Isaure: Agilité 4 (RA 4); Garou: the form's default Agilité 2 (RA 2).
ISAURE = {"Agilité": "4", "Hargne": "4"}


def tracker(table: Table) -> list[dict[str, Any]]:
    info = Tables(table.store).get(table.info.id)
    assert info is not None
    people: list[dict[str, Any]] = info.combat["combatants"]
    return people


def post(table: Table, csrf: str, **data: str) -> Any:
    return table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})


def test_O11_initiative_sorts_Obscur_fighters_by_their_Rang_d_Action(table: Table) -> None:
    """Typed initiatives put Garou first; the Rang d'Action (Agilité − the weapon's
    Initiative, O-11) puts Isaure (4) before Garou (2); the sheet is read at the roll,
    so Garou's Agilité raised to 5 since he joined puts him first."""
    table.create(table.gm, "obscur", "Garou")
    table.create(table.gm, "obscur", "Isaure", **ISAURE)
    csrf = table.csrf(table.gm)
    assert post(table, csrf, action="add", name="Garou", initiative="9").status_code == 200
    assert post(table, csrf, action="add", name="Isaure", initiative="1").status_code == 200
    post(table, csrf, action="next")
    assert [c["name"] for c in tracker(table)] == ["Garou", "Isaure"]
    page = table.client.get(table.gm).text
    assert "Tirer l&#39;initiative" in page and "Rang d&#39;Action (O-11)" in page
    assert post(table, csrf, action="initiative").status_code == 200
    people = tracker(table)
    assert [(c["name"], c["initiative"]) for c in people] == [("Isaure", 4), ("Garou", 2)]
    info = Tables(table.store).get(table.info.id)
    assert info is not None and info.combat["turn"] == 0
    sheet = table.store.character("Garou").sheet
    sheet["caracteristiques"]["Agilité"] = 5
    table.store.update_character("Garou", sheet=sheet)
    assert post(table, csrf, action="initiative").status_code == 200
    assert [(c["name"], c["initiative"]) for c in tracker(table)] == [("Garou", 5), ("Isaure", 4)]
    assert table.store.rolls() == []  # no die rolled: nothing to log


def test_O11_equal_Rang_d_Action_goes_to_the_higher_Agilite(table: Table) -> None:
    """O-11 ties: Bran's sword (Initiative 1) brings Agilité 3 down to RA 2, Garou's bare
    hands keep RA 2 from Agilité 2: Bran, the more agile, acts first."""
    table.create(table.gm, "obscur", "Garou")
    table.create(table.gm, "obscur", "Bran", **{"Agilité": "3"})
    sheet = table.store.character("Bran").sheet
    sheet["equipement"] = {"armes": ["Épée"]}
    table.store.update_character("Bran", sheet=sheet)
    csrf = table.csrf(table.gm)
    post(table, csrf, action="add", name="Garou", initiative="5")
    post(table, csrf, action="add", name="Bran", initiative="0")
    assert post(table, csrf, action="initiative").status_code == 200
    assert [(c["name"], c["initiative"]) for c in tracker(table)] == [("Bran", 2), ("Garou", 2)]


def test_a_system_without_initiative_keeps_the_typed_order_and_says_so(table: Table) -> None:
    table.create(table.gm, "tunnels", "Pip")
    table.create(table.gm, "tunnels", "Zed")
    csrf = table.csrf(table.gm)
    post(table, csrf, action="add", name="Zed", initiative="3")
    post(table, csrf, action="add", name="Pip", initiative="7")
    post(table, csrf, action="add", name="Orc", initiative="5")
    page = table.client.get(table.gm).text
    assert "Tunnels : son texte ne donne pas d&#39;initiative" in page
    assert "Tirer l&#39;initiative" not in page  # no system here has a rule to apply
    assert post(table, csrf, action="initiative").status_code == 200
    assert [c["name"] for c in tracker(table)] == ["Pip", "Orc", "Zed"]
