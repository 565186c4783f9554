"""A refused form post, as a browser without JavaScript sends it, comes back as the table
page with the reason (not a bare error page), under a 4xx, with what was typed; the
page's script (``X-Requested-With: fetch``) and the JSON API keep their ``{"error"}``."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

import pytest

from meneur.locale import N_
from meneur.systems.krasses.system import KrassesSystem
from meneur.web.tables import Tables
from web.web_helpers import Table

BROWSER = {
    "content-type": "application/x-www-form-urlencoded",
    "accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
}
TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}
REFUSED = re.compile(r'<p class="message refused" id="refused" role="alert">([^<]*)</p>')


def gm_form(table: Table) -> tuple[str, dict[str, str]]:
    table.create(table.gm, "tunnels", "Pip", **TUNNELS)
    return table.gm, {"csrf": table.csrf(table.gm)}


def player_form(table: Table) -> tuple[str, dict[str, str]]:
    alice = table.join("Alice")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    return alice, {"csrf": table.csrf(alice)}


PIP = {"character": "Pip"}
FORCE = {**PIP, "trait": "Force"}
CASES: list[
    tuple[str, Callable[[Table], tuple[str, dict[str, str]]], str, dict[str, str], int, str]
]
CASES = [
    # (name, who, path, form, status, words of the message)
    ("roll", gm_form, "roll", {**FORCE, "faces": "4"}, 400, "manque"),
    ("roll, bad value", gm_form, "roll", {**FORCE, "threshold": "x"}, 422, "Seuil"),
    ("roll, unknown trait", gm_form, "roll", {"character": "Pip", "trait": "Vol"}, 400, "Vol"),
    ("roll choice", gm_form, "roll/nothing", {}, 404, "Rien ici"),
    ("sheet", gm_form, "sheet", {"character": "Pip", "endurance/current": "999"}, 400, "maximum"),
    ("sheet of another", player_form, "sheet", {**PIP, "endurance/current": "1"}, 400, "Pip"),
    ("character", player_form, "character", {"action": "pick", "character": "Pip"}, 400, "Pip"),
    ("create", gm_form, "character", {"system": "tunnels", "name": "Pip"}, 400, "Pip"),
    ("say", gm_form, "say", {"line": "/w Zorglub salut"}, 400, "Zorglub"),
    ("action", gm_form, "action/krasses/cooperate", {"skill": "Bagarre"}, 400, ""),
    ("seats", gm_form, "seats", {"action": "kick", "player": "99"}, 400, "n'existe plus"),
    ("seats, player", player_form, "seats", {"action": "lock"}, 403, "pas permise"),
    ("session, player", player_form, "session/start", {}, 403, "pas permise"),
    ("combat", gm_form, "combat", {"action": "add", "name": "O", "initiative": "500"}, 400, "500"),
    ("combat, player", player_form, "combat", {"action": "next"}, 403, "pas permise"),
    ("csrf", gm_form, "roll", {**FORCE, "csrf": "0" * 40}, 403, "pas permise"),
]  # fmt: skip


def refusal(answer: Any) -> str:
    """The reason the table page shows on top; the page is the table's (its log, its
    dice line), never the short error page."""
    assert answer.headers["content-type"].startswith("text/html"), answer.headers
    assert 'id="log"' in answer.text and 'id="say"' in answer.text, answer.text[:300]
    found = REFUSED.search(answer.text)
    assert found, answer.text[:600]
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("who", "path", "form", "status", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_refused_form_post_comes_back_as_the_table_page_with_the_reason(
    table: Table,
    who: Callable[[Table], tuple[str, dict[str, str]]],
    path: str,
    form: dict[str, str],
    status: int,
    words: str,
) -> None:
    base, data = who(table)
    before = len(table.store.rolls())
    answer = table.client.post(f"{base}/{path}", data={**data, **form}, headers=BROWSER)
    assert answer.status_code == status, answer.text[:400]
    message = refusal(answer)
    assert message and words in message, message
    assert len(table.store.rolls()) == before
    fetched = table.client.post(
        f"{base}/{path}", data={**data, **form}, headers={**BROWSER, "x-requested-with": "fetch"}
    )
    assert fetched.status_code == status and fetched.json()["error"] == message


def test_what_was_typed_comes_back_with_the_reason(table: Table) -> None:
    """The refused form is filled as it was: the roll's trait, options and dice; the
    sheet's values (its form open); the dice line; the tracker's new combatant."""
    base, data = gm_form(table)
    table.create(table.gm, "tunnels", "Zed", **TUNNELS)
    rolled = {"character": "Zed", "trait": "Dextérité", "threshold": "3", "faces": "6 6"}
    page = table.client.post(f"{base}/roll", data={**data, **rolled}, headers=BROWSER).text
    zed = page[page.index(">Zed</h2>") :]
    assert 'value="Dextérité" checked' in zed and 'name="faces"' in zed
    assert 'value="6 6"' in zed and 'name="threshold" min="1" value="3"' in zed
    edited = {"character": "Zed", "endurance/current": "999", "wounded": "true"}
    page = table.client.post(f"{base}/sheet", data={**data, **edited}, headers=BROWSER).text
    zed = page[page.index(">Zed</h2>") :]
    assert '<details class="more" open>' in zed and '<details class="edit-sheet" open>' in zed
    assert 'name="endurance/current" value="999"' in zed
    assert '<option value="true" selected>' in zed
    pip = page[page.index(">Pip</h2>") : page.index(">Zed</h2>")]
    # the value typed for Zed, not any « 999 » (a random hidden token may hold one)
    assert 'value="999"' not in pip and '<details class="edit-sheet">' in pip
    said = {"line": "/w Zorglub on y va ?"}
    page = table.client.post(f"{base}/say", data={**data, **said}, headers=BROWSER).text
    assert 'value="/w Zorglub on y va ?"' in html.unescape(page)
    added = {"action": "add", "name": "Orque", "initiative": "500", "health": "7"}
    page = table.client.post(f"{base}/combat", data={**data, **added}, headers=BROWSER).text
    assert 'value="Orque"' in page and 'value="500"' in page and 'value="7"' in page


def test_a_refused_join_comes_back_as_the_join_page(table: Table) -> None:
    """A locked table: the join page again, the reason on top and the name typed kept."""
    info = Tables(table.store).get(table.info.id)
    assert info is not None
    Tables(table.store).set_flags(info, locked=True)
    answer = table.client.post(table.invite, data={"name": "Eve"}, headers=BROWSER)
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("text/html")
    found = REFUSED.search(answer.text)
    assert found and "verrouillé" in found.group(1)
    assert 'value="Eve"' in answer.text and f'action="{table.invite}"' in answer.text


def test_an_unknown_seat_still_gets_the_short_page(table: Table) -> None:
    """No seat, no table to show: the short error page (in the table's layout), 404."""
    wrong = f"/t/{table.info.id}/{'x' * 43}/roll"
    answer = table.client.post(wrong, data={"character": "Pip", "trait": "Force"}, headers=BROWSER)
    assert answer.status_code == 404 and 'class="card narrow error"' in answer.text
    assert table.info.gm_token not in answer.text


def test_the_language_links_of_a_refusal_lead_to_the_table(table: Table) -> None:
    """The page is served at the form's address: its FR / EN links go to the table's own
    (a GET of the form's address is a 405)."""
    base, data = gm_form(table)
    form = {**data, "character": "Pip", "trait": "Force", "faces": "4"}
    page = table.client.post(f"{base}/roll", data=form, headers=BROWSER).text
    assert f'href="{base}?lang=en"' in page


EARLY = [
    # (name, line said, extra headers, status, French reason, English reason)
    ("too large", "x" * 40_000, {}, 413, "Requête trop grande.", "Request too large."),
    (
        "another site",
        "salut",
        {"origin": "http://evil.example"},
        403,
        "Requête venue d'un autre site refusée.",
        "Cross-site request refused.",
    ),
    ("another host", "salut", {"host": "evil.example"}, 400, "Hôte inconnu.", "Unknown host."),
]


def _said(page: str) -> str:
    """The reason the short error page gives."""
    found = re.search(r'<p class="message">([^<]*)</p>', page)
    assert found, page[:600]
    return html.unescape(found.group(1))


def _early(table: Table, line: str, headers: dict[str, str], **more: str) -> Any:
    """A line said by a browser without JavaScript (a plain form post)."""
    data = f"csrf={table.csrf(table.gm)}&line={line}"
    return table.client.post(
        f"{table.gm}/say", content=data, headers={**BROWSER, **headers, **more}
    )


@pytest.mark.parametrize(
    ("line", "headers", "status", "french", "english"),
    [case[1:] for case in EARLY],
    ids=[case[0] for case in EARLY],
)
def test_a_refusal_before_the_routes_is_a_page_in_the_readers_language(
    tmp_path: Any, line: str, headers: dict[str, str], status: int, french: str, english: str
) -> None:
    """A body too large, a post from another site, an unknown host: refused before any
    route, a browser still gets the short page (its status, the reason in its language,
    a link back to the table); a script asking for JSON gets ``{"error"}``."""
    from meneur.web.state import WebSettings
    from web.web_helpers import make_table

    for table in make_table(tmp_path, WebSettings(hosts=("testserver",))):
        answer = _early(table, line, headers)
        assert answer.status_code == status, answer.text[:300]
        assert answer.headers["content-type"].startswith("text/html"), answer.headers
        assert '<html lang="fr">' in answer.text and 'class="card narrow error"' in answer.text
        assert _said(answer.text) == french
        assert f'<a href="{table.gm}">Retour à la table</a>' in answer.text
        assert f'href="{table.gm}?lang=en"' in answer.text
        assert answer.headers["x-frame-options"] == "DENY"
        english_page = _early(table, line, headers, **{"accept-language": "en"})
        assert english_page.status_code == status
        assert _said(english_page.text) == english
        for asks in ({"x-requested-with": "fetch"}, {"accept": "application/json"}):
            fetched = _early(table, line, {**headers, **asks})
            assert fetched.status_code == status
            assert fetched.json() == {"error": french}


def test_a_body_the_routes_cannot_read_is_refused_in_the_readers_words(table: Table) -> None:
    """A form streamed past the limit (no Content-Length to refuse it by) is a 413, not
    FastAPI's 400; a broken multipart form is our 400, not Starlette's English."""

    def streamed() -> Iterator[bytes]:
        for _ in range(50):
            yield b"x" * 1000

    big = table.client.post(f"{table.gm}/say", content=streamed(), headers=BROWSER)
    assert big.status_code == 413 and _said(big.text) == "Requête trop grande."
    assert f'<a href="{table.gm}">Retour à la table</a>' in big.text
    for kind in ("multipart/form-data", "multipart/form-data; boundary=zz"):
        headers = {**BROWSER, "content-type": kind}
        broken = table.client.post(f"{table.gm}/say", content=b"--zz\r\nbad\r\n", headers=headers)
        assert broken.status_code == 400
        assert _said(broken.text) == "Le formulaire envoyé n'a pas pu être lu."
        headers.update({"x-requested-with": "fetch", "accept-language": "en"})
        fetched = table.client.post(f"{table.gm}/say", content=b"--zz\r\nbad\r\n", headers=headers)
        assert fetched.json() == {"error": "The form sent could not be read."}


def test_a_bad_value_names_the_field_as_its_label_does(table: Table) -> None:
    """« Valeur invalide pour Seuil », the word beside the field on the page, in the
    reader's language: never the name the form posts (« threshold »). The JSON API says
    the same, its ``character`` named « Personnage » as the page names it (it said
    « character »)."""
    base, data = gm_form(table)
    page = table.client.get(base).text
    assert re.search(r'<label>Seuil<input type="number" name="threshold"', page)
    wrong = {**data, **FORCE, "threshold": "x"}
    french = "Valeur invalide pour Seuil : un nombre entier est attendu."
    answer = table.client.post(f"{base}/roll", data=wrong, headers=BROWSER)
    assert answer.status_code == 422 and refusal(answer) == french
    fetched = table.client.post(
        f"{base}/roll",
        data=wrong,
        headers={**BROWSER, "x-requested-with": "fetch", "accept-language": "en"},
    )
    assert fetched.json() == {"error": "Invalid value for Threshold: a whole number is expected."}
    api = table.client.post(f"/api{base}/roll", json={**FORCE, "threshold": "x"})
    assert api.status_code == 400 and api.json() == {"error": french}
    not_text = table.client.post(f"/api{base}/roll", json={**FORCE, "character": 5})
    assert not_text.json() == {"error": "Valeur invalide pour Personnage : du texte est attendu."}
    fight = {**data, "action": "adjust", "index": "x", "delta": "1"}
    answer = table.client.post(f"{base}/combat", data=fight, headers=BROWSER)
    assert refusal(answer) == "Valeur invalide pour attaquant : un nombre entier est attendu."


def krasses_roll(table: Table, difficulty: str) -> tuple[str, str, str]:
    """A Krâsses roll whose difficulty is refused: the form's answer (French), the
    page's script's (English) and the API's (French)."""
    form = {"character": "Aurore", "trait": "Bagarre", "difficulty": difficulty}
    data = {**form, "csrf": table.csrf(table.gm)}
    page = table.client.post(f"{table.gm}/roll", data=data, headers=BROWSER)
    english = {**BROWSER, "x-requested-with": "fetch", "accept-language": "en"}
    fetched = table.client.post(f"{table.gm}/roll", data=data, headers=english)
    api = table.client.post(f"/api{table.gm}/roll", json=form)
    assert page.status_code == fetched.status_code == 422 and api.status_code == 400
    return refusal(page), fetched.json()["error"], api.json()["error"]


def test_a_refused_value_is_named_by_the_label_of_its_own_system(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Krâsses roll's refused difficulty is named by Krâsses' label (the one its roll
    form shows), never by Obscur's, the first system that labelled a field of that
    name; the form, the page's script and the API say the same, and so does the rules'
    own refusal of a difficulty past its bound."""
    table.create(table.gm, "krasses", "Aurore", characteristics="Force=2", skills="Bagarre=3")
    french, english, api = krasses_roll(table, "x")
    assert french == api == "Valeur invalide pour Difficulté : un nombre entier est attendu."
    assert english == "Invalid value for Difficulty: a whole number is expected."
    own = MappingProxyType({"difficulty": N_("Threshold")})  # told apart from Obscur's
    monkeypatch.setattr(KrassesSystem, "labels", own)
    french, english, api = krasses_roll(table, "x")
    assert french == api == "Valeur invalide pour Seuil : un nombre entier est attendu."
    assert english == "Invalid value for Threshold: a whole number is expected."
    data = {"character": "Aurore", "trait": "Bagarre", "difficulty": str(2 * 10**6)}
    past = table.client.post(f"/api{table.gm}/roll", json=data)
    assert past.json()["error"].startswith("La valeur « Seuil » est comprise entre")


def test_a_form_naming_no_system_keeps_the_label_every_system_agrees_on(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused roll whose character is not in the campaign names no system: its
    field keeps the label all the systems that label it agree on, else its own name
    (one system's word is never picked by chance)."""
    base, data = gm_form(table)
    wrong = {**data, "character": "Personne", "trait": "Force", "modifier": "x"}
    answer = table.client.post(f"{base}/roll", data=wrong, headers=BROWSER)
    assert refusal(answer) == "Valeur invalide pour Modificateur : un nombre entier est attendu."
    own = MappingProxyType({"modifier": N_("Threshold")})
    monkeypatch.setattr(KrassesSystem, "labels", own)
    answer = table.client.post(f"{base}/roll", data=wrong, headers=BROWSER)
    assert refusal(answer) == "Valeur invalide pour modifier : un nombre entier est attendu."


def test_a_refusal_names_a_field_by_its_label_without_the_rule_it_cites(table: Table) -> None:
    """The form shows « Difficulté (K-3) » beside Krâsses' field, « Dépassement avant le
    jet (O-10) » beside Obscur's: a refusal names them « Difficulté », « Dépassement avant
    le jet », the rule id left out of the sentence (in both languages)."""
    table.create(table.gm, "krasses", "Aurore", characteristics="Force=2", skills="Bagarre=3")
    table.create(table.gm, "obscur", "Isaure")
    page = table.client.get(table.gm, params={"character": "Aurore"}).text
    assert "<label>Difficulté (K-3)<select" in page
    french, english, _api = krasses_roll(table, "9" * 25)  # too long: refused by the form
    too_long = "25 chiffres, c'est trop long pour un nombre ici."
    assert french == f"Valeur invalide pour Difficulté : {too_long}"
    assert english == "Invalid value for Difficulty: 25 digits is too long for a number here."
    past = {"character": "Aurore", "trait": "Bagarre", "difficulty": str(2 * 10**6)}
    said = table.client.post(f"/api{table.gm}/roll", json=past).json()["error"]
    assert said.startswith("La valeur « Difficulté » est comprise entre"), said
    base, data = table.gm, {"csrf": table.csrf(table.gm)}
    pushed = {**data, "character": "Isaure", "trait": "Force", "push": "9"}
    answer = table.client.post(f"{base}/roll", data=pushed, headers=BROWSER)
    assert (
        refusal(answer) == "Valeur invalide pour Dépassement avant le jet : doit valoir au plus 3."
    )
    english = {**BROWSER, "x-requested-with": "fetch", "accept-language": "en"}
    fetched = table.client.post(f"{base}/roll", data=pushed, headers=english)
    assert fetched.json() == {
        "error": "Invalid value for Dépassement before the roll: must be at most 3."
    }


def test_a_missing_character_the_free_box_and_a_body_are_named_in_the_reader_s_words(
    table: Table,
) -> None:
    """An odds question or a roll without ``character`` said « Valeur invalide pour
    character », the GM's creation form with ``free`` sent empty « pour free », a JSON
    body ``[]`` or ``null`` « pour - »: the names the form posts, which the reader never
    sees. Each field is named by its label now (as the page shows it), the body by a
    sentence that names no field."""
    base, data = gm_form(table)
    missing = "Valeur invalide pour Personnage : champ manquant."
    assert table.client.get(f"/api{base}/odds").json() == {"error": missing}
    assert table.client.post(f"/api{base}/roll", json={"trait": "Force"}).json() == {
        "error": missing
    }
    answer = table.client.post(f"{base}/roll", data={**data, "trait": "Force"}, headers=BROWSER)
    assert answer.status_code == 422 and refusal(answer) == missing
    create = {**data, "action": "create", "system": "tunnels", "name": "Zed", "free": ""}
    answer = table.client.post(f"{base}/character", data=create, headers=BROWSER)
    assert answer.status_code == 400
    free = "Libre, à choisir par un joueur"  # the box's label on the page
    assert refusal(answer) == f"Valeur invalide pour {free} : true ou false est attendu."
    assert f'name="free" value="true"> {free} (sinon un personnage non joueur' in answer.text
    english = {**BROWSER, "x-requested-with": "fetch", "accept-language": "en"}
    fetched = table.client.post(f"{base}/character", data=create, headers=english)
    assert fetched.json()["error"].startswith("Invalid value for Free for a player to pick: ")
    for body in (b"[]", b"null"):
        sent = table.client.post(
            f"/api{base}/roll", content=body, headers={"content-type": "application/json"}
        )
        assert sent.status_code == 400
        assert sent.json() == {
            "error": "Le corps de la requête est refusé : une table de champs est attendue."
        }
    assert table.store.rolls() == [] and [c.name for c in table.store.characters()] == ["Pip"]
