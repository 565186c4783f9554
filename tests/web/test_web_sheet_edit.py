"""Sheets edited at the table (issue 17): each system's values that change in play,
judged by the CLI's own sheet model, logged (who, which character, before → after)
with the new sheet in one transaction; players edit their own, the GM any."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from meneur.campaign.chain import session_sources
from meneur.campaign.records import format_at
from meneur.campaign.summary import entry_summary
from meneur.web.state import WebSettings
from web.web_helpers import Table, make_table


def edit(table: Table, base: str, character: str, **values: str) -> Any:
    data = {"csrf": table.csrf(base), "character": character}
    data.update({key.replace("__", "/"): value for key, value in values.items()})
    return table.client.post(f"{base}/sheet", data=data, follow_redirects=False)


def last_edit(table: Table) -> dict[str, Any]:
    entry = table.store.rolls()[-1]
    assert entry["kind"] == "edit"
    return entry


def test_a_player_edits_their_Tunnels_Endurance_and_the_log_says_who_and_what(
    table: Table,
) -> None:
    player = table.join("Bastien")
    table.create(player, "tunnels", "Pip", Force="3", Constitution="4")
    before = table.store.character("Pip").sheet["endurance"]["current"]
    response = edit(table, player, "Pip", endurance__current=str(before - 2), wounded="true")
    assert response.status_code == 303, response.text
    sheet = table.store.character("Pip").sheet
    assert sheet["endurance"]["current"] == before - 2
    assert sheet["wounded"] is True
    entry = last_edit(table)
    assert entry["who"] == "Pip"
    assert entry["params"]["by"] == "Bastien" and entry["params"]["gm"] is False
    assert entry["params"]["changes"] == [
        {"field": "Endurance", "before": str(before), "after": str(before - 2)},
        {"field": "blessé", "before": "non", "after": "oui"},
    ]
    page = table.client.get(player).text
    assert f"Endurance {before} → {before - 2}" in page
    assert "modifié par Bastien" in page
    said = f"Endurance {before} → {before - 2} ; blessé non → oui (modifié par Bastien)"
    assert entry_summary(entry) == said  # meneur log


def test_a_refused_Tunnels_value_changes_nothing_and_says_why_in_one_line(table: Table) -> None:
    table.create(table.gm, "tunnels", "Pip")
    sheet = table.store.character("Pip").sheet
    response = edit(table, table.gm, "Pip", endurance__current="-3")
    assert response.status_code == 400
    assert "(Endurance :" in response.text and "Traceback" not in response.text
    assert "doit valoir au moins 0" in response.text and "Input should" not in response.text
    assert table.store.character("Pip").sheet == sheet
    assert table.store.rolls() == []
    response = edit(table, table.gm, "Pip", mana__max="douze")
    assert response.status_code == 400 and "n&#39;est pas un nombre entier" in response.text
    assert table.store.rolls() == []


def test_T11_Tunnels_current_Endurance_above_its_maximum_is_refused(table: Table) -> None:
    """T-11: a wounded character « recovers full Endurance », so the maximum is a cap; an
    edit above it is refused as Obscur refuses its resources', the sheet unchanged."""
    table.create(table.gm, "tunnels", "Zed", Force="3", Constitution="4")
    sheet = table.store.character("Zed").sheet
    assert sheet["endurance"]["max"] == 7
    response = edit(table, table.gm, "Zed", endurance__current="99")
    assert response.status_code == 400
    assert "endurance" in response.text and "dépasse le maximum" in response.text
    assert table.store.character("Zed").sheet == sheet
    assert table.store.rolls() == []
    response = edit(table, table.gm, "Zed", endurance__max="3")
    assert response.status_code == 400 and "dépasse le maximum" in response.text
    assert edit(table, table.gm, "Zed", endurance__current="7").status_code == 303


def test_a_player_cannot_edit_another_character_the_GM_edits_any(table: Table) -> None:
    bastien, alice = table.join("Bastien"), table.join("Alice")
    table.create(bastien, "tunnels", "Pip")
    table.create(alice, "tunnels", "Zed")
    sheet = table.store.character("Pip").sheet
    response = edit(table, alice, "Pip", endurance__current="1")
    assert response.status_code in (400, 403)
    assert table.store.character("Pip").sheet == sheet
    response = edit(table, table.gm, "Pip", endurance__current="1")
    assert response.status_code == 303
    assert table.store.character("Pip").sheet["endurance"]["current"] == 1
    assert last_edit(table)["params"]["gm"] is True


def test_nothing_changed_logs_nothing(table: Table) -> None:
    table.create(table.gm, "tunnels", "Pip")
    current = str(table.store.character("Pip").sheet["endurance"]["current"])
    assert edit(table, table.gm, "Pip", endurance__current=current).status_code == 303
    assert table.store.rolls() == []


def test_O10_Obscur_Vie_Vecu_and_notes_edited_through_its_model(table: Table) -> None:
    """Vie may fall below 0 (O-31) but never above its maximum; Vécu never below 0 (O-10)."""
    table.create(table.gm, "obscur", "Ysolde")
    sheet = table.store.character("Ysolde").sheet
    vie = sheet["ressources"]["vie"]["current"]
    response = edit(
        table,
        table.gm,
        "Ysolde",
        ressources__vie__current="-2",
        ressources__vecu__current="3",
        notes="Mordue par un loup",
    )
    assert response.status_code == 303, response.text
    stored = table.store.character("Ysolde").sheet
    assert stored["ressources"]["vie"]["current"] == -2
    assert stored["ressources"]["vecu"] == {"current": 3}
    assert stored["notes"] == "Mordue par un loup"
    changes = last_edit(table)["params"]["changes"]
    assert {"field": "Vie", "before": str(vie), "after": "-2"} in changes
    assert {"field": "Vécu", "before": "0", "after": "3"} in changes
    for typed in ({"ressources__vie__current": str(vie + 1)}, {"ressources__vecu__current": "-1"}):
        response = edit(table, table.gm, "Ysolde", **typed)
        assert response.status_code == 400, typed
    assert table.store.character("Ysolde").sheet == stored
    assert len(table.store.rolls()) == 1


def test_O31_Obscur_wounds_typed_as_a_list_reach_etat_blessures(table: Table) -> None:
    """Wounds (O-31: each a number of points, treated or not) are typed as
    ``4 coup, 2 chute soignée`` and stored under ``etat.blessures``."""
    table.create(table.gm, "obscur", "Ysolde")
    response = edit(table, table.gm, "Ysolde", etat__blessures="4 coup de hache, 2 chute soignée")
    assert response.status_code == 303, response.text
    assert table.store.character("Ysolde").sheet["etat"]["blessures"] == [
        {"points": 4, "source": "coup de hache", "soignee": False},
        {"points": 2, "source": "chute", "soignee": True},
    ]
    changes = last_edit(table)["params"]["changes"]
    assert changes == [
        {"field": "Blessures", "before": "", "after": "4 coup de hache, 2 chute soignée"}
    ]
    stored = table.store.character("Ysolde").sheet
    for typed in ("deux coups", "-3 coup"):
        assert edit(table, table.gm, "Ysolde", etat__blessures=typed).status_code == 400, typed
    assert table.store.character("Ysolde").sheet == stored
    assert edit(table, table.gm, "Ysolde", etat__blessures="").status_code == 303
    assert table.store.character("Ysolde").sheet["etat"]["blessures"] == []


def test_Krasses_skills_and_characteristics_edited_through_its_model(table: Table) -> None:
    table.create(table.gm, "krasses", "Grok", characteristics="Force=2", skills="Bagarre=3")
    response = edit(table, table.gm, "Grok", skills__Bagarre="5", characteristics__Force="-1")
    assert response.status_code == 303, response.text
    sheet = table.store.character("Grok").sheet
    assert sheet["skills"] == {"Bagarre": 5} and sheet["characteristics"] == {"Force": -1}
    assert edit(table, table.gm, "Grok", skills__Bagarre="-1").status_code == 400
    assert table.store.character("Grok").sheet == sheet


def test_L12_L13_Legendes_wound_and_motivation_points_edited(table: Table) -> None:
    table.create(table.gm, "legendes", "Aube", secondary="Ruse", motivation_points="2")
    response = edit(table, table.gm, "Aube", wound="light", motivation_points="4")
    assert response.status_code == 303, response.text
    sheet = table.store.character("Aube").sheet
    assert sheet["wound"] == "light" and sheet["motivation_points"] == 4
    assert {"field": "Blessure", "before": "aucune", "after": "légère"} in last_edit(table)[
        "params"
    ]["changes"]
    for typed in ({"motivation_points": "100"}, {"wound": "dead"}):
        assert edit(table, table.gm, "Aube", **typed).status_code == 400, typed
    assert table.store.character("Aube").sheet == sheet


def test_an_edit_during_a_session_bypasses_no_committed_dice(table: Table) -> None:
    """An edit draws no die: ``verify`` does not count it as dice outside the session."""
    table.create(table.gm, "tunnels", "Pip")
    table.store.start_session(campaign=table.info.campaign)
    assert edit(table, table.gm, "Pip", mana__current="0").status_code == 303
    sessions = [
        {"commitment": s.commitment, "started_at": format_at(s.started_at), "revealed_at": None}
        for s in table.store.game_sessions(campaign=table.info.campaign)
    ]
    counted = session_sources(sessions, table.store.rolls())
    assert counted[0].bypassed == 0


@pytest.mark.parametrize("system", ["tunnels", "obscur", "krasses", "legendes"])
def test_each_system_offers_its_edit_form_at_the_table(table: Table, system: str) -> None:
    fields = {"krasses": {"skills": "Bagarre=3"}, "legendes": {"secondary": "Ruse"}}
    table.create(table.gm, system, "Nom", **fields.get(system, {}))
    page = table.client.get(table.gm).text
    assert f'action="{table.gm}/sheet"' in page
    assert "Modifier la fiche" in page


def test_edits_are_rate_limited_as_rolls(tmp_path: Path) -> None:
    """Past the burst, 429 and the sheet and the log stay as they were."""
    for table in make_table(tmp_path, WebSettings(roll_rate=0.01, roll_burst=2)):
        table.create(table.gm, "tunnels", "Pip")
        csrf = table.csrf(table.gm)
        codes = [
            table.client.post(
                f"{table.gm}/sheet",
                data={"csrf": csrf, "character": "Pip", "mana/current": str(value)},
                follow_redirects=False,
            ).status_code
            for value in (0, 1, 2)
        ]
        assert codes == [303, 303, 429]
        assert table.store.character("Pip").sheet["mana"]["current"] == 1
        assert len(table.store.rolls()) == 2


def test_an_edit_without_the_seat_s_csrf_token_is_refused(table: Table) -> None:
    table.create(table.gm, "tunnels", "Pip")
    sheet = table.store.character("Pip").sheet
    response = table.client.post(
        f"{table.gm}/sheet",
        data={"csrf": "0" * 40, "character": "Pip", "mana/current": "0"},
        follow_redirects=False,
    )
    assert response.status_code == 403
    assert table.store.character("Pip").sheet == sheet


def test_control_characters_are_refused_in_notes_wounds_and_the_combat_tracker(
    table: Table,
) -> None:
    """An Obscur sheet's notes and its wounds' sources, and a combatant's name or wounds,
    took NUL, escape sequences and bidi overrides, stored them and sent them back raw
    (names and chat refused them): refused now, nothing stored. Notes keep their lines."""
    table.create(table.gm, "obscur", "Ysolde")
    stored = table.store.character("Ysolde").sheet
    for typed in (
        {"notes": "A\x00B\x1b[31mC"},
        {"notes": "x\u202ey"},
        {"etat__blessures": "4 coup\x1b[2J"},
    ):
        assert edit(table, table.gm, "Ysolde", **typed).status_code == 400, typed
    assert table.store.character("Ysolde").sheet == stored
    response = edit(table, table.gm, "Ysolde", notes="Mordue\npar un loup")
    assert response.status_code == 303, response.text
    assert table.store.character("Ysolde").sheet["notes"] == "Mordue\npar un loup"
    csrf = table.csrf(table.gm)
    for data in ({"name": "A\x00\u202eB", "health": "3"}, {"name": "Orc", "wounds": "x\x1by"}):
        answer = table.client.post(
            f"{table.gm}/combat", data={"csrf": csrf, "action": "add", **data}
        )
        assert answer.status_code == 400, data
    from meneur.web.tables import Tables

    combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
    assert combat.get("combatants", []) == []


class _EditForm(HTMLParser):
    """The fields of one character's edit form as a browser would post them."""

    def __init__(self, character: str) -> None:
        super().__init__()
        self.character, self.inside, self.fields = character, False, {}
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form" and "edit" in attr.get("class", ""):
            self.inside, self.form = True, {}
        if not self.inside:
            return
        if tag == "input":
            self.form[attr["name"]] = attr.get("value", "")
        elif tag == "select":
            self.select = attr["name"]
        elif tag == "option" and self.select and "selected" in attr:
            self.form[self.select] = attr["value"]
        elif tag == "textarea":
            self.textarea = attr["name"]
            self.form[self.textarea] = ""

    def handle_data(self, data: str) -> None:
        if self.inside and self.textarea:
            self.form[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form" and self.inside:
            self.inside = False
            if self.form.get("character") == self.character:
                self.fields = self.form


def form_as_shown(table: Table, base: str, character: str) -> dict[str, str]:
    parser = _EditForm(character)
    parser.feed(table.client.get(base).text)
    assert parser.fields, "no edit form for " + character
    return dict(parser.fields)


def test_an_edit_from_an_older_page_does_not_put_back_what_another_seat_spent(
    table: Table,
) -> None:
    """The GM's page shows Vécu 8; the player then spends 7 (O-10). The GM changes only
    Volonté from that page: Vécu stays at 1, it is not written back to 8."""
    player = table.join("Bastien")
    table.create(player, "obscur", "Isaure")
    edit(table, table.gm, "Isaure", ressources__vecu__current="8")
    gm_form = form_as_shown(table, table.gm, "Isaure")  # the page as the GM drew it
    assert gm_form["ressources/vecu/current"] == "8"
    edit(table, player, "Isaure", ressources__vecu__current="1")  # the player's spend
    volonte = int(gm_form["ressources/volonte/current"])
    gm_form["ressources/volonte/current"] = str(volonte - 1)
    response = table.client.post(f"{table.gm}/sheet", data=gm_form, follow_redirects=False)
    assert response.status_code == 303, response.text
    stored = table.store.character("Isaure").sheet["ressources"]
    assert stored["vecu"]["current"] == 1 and stored["volonte"]["current"] == volonte - 1
    assert [c["field"] for c in last_edit(table)["params"]["changes"]] == ["Volonté"]


def test_a_value_changed_from_one_that_changed_meanwhile_is_refused_not_written_over(
    table: Table,
) -> None:
    player = table.join("Bastien")
    table.create(player, "obscur", "Isaure")
    edit(table, table.gm, "Isaure", ressources__vecu__current="8")
    gm_form = form_as_shown(table, table.gm, "Isaure")
    edit(table, player, "Isaure", ressources__vecu__current="1")
    sheet = table.store.character("Isaure").sheet
    gm_form["ressources/vecu/current"] = "5"
    response = table.client.post(f"{table.gm}/sheet", data=gm_form, follow_redirects=False)
    assert response.status_code == 400
    assert "Vécu a changé entre-temps (8 → 1)" in html.unescape(response.text)
    assert table.store.character("Isaure").sheet == sheet


def number_bounds(page: str) -> dict[str, tuple[str, str]]:
    """Each number input of the page's edit forms: its name, min and max."""
    found = re.findall(
        r'<input type="number" name="([^"]+)" value="[^"]*" min="(-?\d+)" max="(-?\d+)"', page
    )
    return {name: (low, high) for name, low, high in found}


def test_the_edit_forms_numbers_carry_the_sheet_models_bounds(table: Table) -> None:
    """Each number of the edit form has the bounds its system's sheet model declares
    (Tunnels' Pool 0..10000; Obscur's Resource: Vie from -100000, points spent from 0,
    O-10, O-31), not -100000..100000 for every one."""
    table.create(table.gm, "tunnels", "Pip")
    table.create(table.gm, "obscur", "Ysolde")
    bounds = number_bounds(table.client.get(table.gm).text)
    assert bounds["endurance/current"] == ("0", "10000")
    assert bounds["chance/max"] == ("0", "10000")
    assert bounds["ressources/vie/current"] == ("-100000", "100000")
    assert bounds["ressources/vecu/current"] == ("0", "100000")
    assert bounds["ressources/volonte/max"] == ("0", "100000")


def test_T1_the_creation_form_takes_each_systems_own_bounds(table: Table) -> None:
    """The creation form's numbers carry their system's bounds: a Tunnels characteristic
    up to the dice a test accepts (60), an Obscur trait up to its level bound (30). Every
    system's field read 0..30, so the browser refused a Force of 45 that the table takes."""
    from meneur.systems.obscur.sheet import MAX_TRAIT
    from meneur.systems.tunnels.rules import TestParams

    page = table.client.get(table.gm).text
    found = dict(
        (name, (low, high))
        for name, low, high in re.findall(
            r'<input type="number" name="([^"/]+)" min="(-?\d+)" max="(-?\d+)"', page
        )
    )
    assert found["Force"] == ("0", str(TestParams.MAX_DICE))
    assert found["Agilité"] == ("0", str(MAX_TRAIT))
    table.create(table.gm, "tunnels", "Colosse", Force="45")
    assert table.store.character("Colosse").sheet["characteristics"]["Force"] == 45


def test_a_refused_edit_names_the_value_as_the_edit_form_labels_it(table: Table) -> None:
    """Vie above its maximum: the refusal names « Vie », the word beside the form's
    field, never its path in the sheet (``ressources.vie``), in each reader's language."""
    table.create(table.gm, "obscur", "Ysolde")
    vie = table.store.character("Ysolde").sheet["ressources"]["vie"]["current"]
    fetch = {"x-requested-with": "fetch"}
    data = {"csrf": table.csrf(table.gm), "character": "Ysolde"}
    above = {**data, "ressources/vie/current": str(vie + 1)}
    said = table.client.post(f"{table.gm}/sheet", data=above, headers=fetch).json()["error"]
    assert said == "Ysolde : champ Vie : les points actuels dépassent le maximum."
    english = {**fetch, "accept-language": "en"}
    told = table.client.post(f"{table.gm}/sheet", data=above, headers=english).json()["error"]
    assert told == "Ysolde: field Vie: the current points are above the maximum."


def test_a_long_note_is_logged_as_its_first_200_characters_before_and_after(
    table: Table,
) -> None:
    """``web.sheets.changes``: the sheet keeps the whole note, the log entry only says each
    value as the table showed it, cut to its first 200 characters (an entry stays small
    whatever a note's length), before as after."""
    table.create(table.gm, "obscur", "Ysolde")
    first, second = "a" * 150 + "b" * 150, "c" * 150 + "d" * 150
    assert edit(table, table.gm, "Ysolde", notes=first).status_code == 303
    assert table.store.character("Ysolde").sheet["notes"] == first
    (change,) = last_edit(table)["params"]["changes"]
    assert change == {"field": "Notes", "before": "", "after": "a" * 150 + "b" * 50}
    assert edit(table, table.gm, "Ysolde", notes=second).status_code == 303
    assert table.store.character("Ysolde").sheet["notes"] == second
    (change,) = last_edit(table)["params"]["changes"]
    assert change == {
        "field": "Notes",
        "before": "a" * 150 + "b" * 50,
        "after": "c" * 150 + "d" * 50,
    }


def _another_process_turns_wounded(
    table: Table, monkeypatch: pytest.MonkeyPatch, times: int
) -> list[bool]:
    """Before each of the first ``times`` writes of the log, another writer turns Pip's
    « blessé » over (straight in the store, as another process would): the write finds
    the sheet it read changed. The value each change set, in order."""
    append = table.store.append_roll
    written: list[bool] = []

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if len(written) < times:
            sheet = table.store.character("Pip").sheet
            sheet["wounded"] = not sheet["wounded"]
            table.store.update_character("Pip", sheet=sheet)
            written.append(sheet["wounded"])
        return append(*args, **kwargs)

    monkeypatch.setattr(table.store, "append_roll", meanwhile)
    return written


def test_an_edit_of_a_sheet_another_process_changed_is_made_again_on_it(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/web.md: a sheet changed meanwhile by another process is read again and the
    edit made again on it: Endurance 7 → 5 is written, and the « blessé » the other
    process set is kept (not written back), in one edit entry."""
    table.create(table.gm, "tunnels", "Pip", Force="3", Constitution="4")
    assert table.store.character("Pip").sheet["wounded"] is False
    written = _another_process_turns_wounded(table, monkeypatch, times=1)
    response = edit(table, table.gm, "Pip", endurance__current="5")
    assert response.status_code == 303, response.text
    assert written == [True]
    sheet = table.store.character("Pip").sheet
    assert sheet["endurance"]["current"] == 5 and sheet["wounded"] is True
    (entry,) = table.store.rolls()
    assert entry["params"]["changes"] == [{"field": "Endurance", "before": "7", "after": "5"}]


def test_an_edit_whose_sheet_changes_at_every_attempt_is_refused_after_RETRIES(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``web.sheets.RETRIES``: an edit whose sheet another process changes before each of
    its writes is tried RETRIES times, then refused with the conflict's own line (the
    sheet as the other process left it, nothing logged)."""
    from meneur.web.sheets import RETRIES

    table.create(table.gm, "tunnels", "Pip", Force="3", Constitution="4")
    written = _another_process_turns_wounded(table, monkeypatch, times=RETRIES + 5)
    response = edit(table, table.gm, "Pip", endurance__current="5")
    assert len(written) == RETRIES
    assert response.status_code == 400, response.status_code
    assert "La fiche de Pip a changé entre-temps" in html.unescape(response.text)
    sheet = table.store.character("Pip").sheet
    assert sheet["endurance"]["current"] == 7 and sheet["wounded"] is written[-1]
    assert table.store.rolls() == []
