"""One bound per parameter: the CLI and the web table refuse the same value (issue 18).

The bound is declared once on the system's params type (Krâsses ``TestParams.MAX_VALUE``
for a difficulty, Légendes ``OpposedParams.MAX_SPEND`` for the motivation points spent);
the CLI's parser and the web's form read it there.
"""

from __future__ import annotations

import html
import re

import pytest

from cli_helpers import invoke
from meneur.systems.krasses.rules import TestParams as KrassesParams
from meneur.systems.legendes.rules import OpposedParams as LegendesParams
from web.web_helpers import Table


def test_K3_a_difficulty_past_the_bound_is_refused_by_the_cli_and_the_web(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """K-3: a difficulty is any whole number up to ``KrassesParams.MAX_VALUE``: 500 is
    rolled by both (the web used to stop at 200), one more than the bound is refused by
    both with the bound in the message (exit 2 for the CLI, 400 for the web)."""
    bound = KrassesParams.MAX_VALUE
    over = bound + 1
    cli = invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", str(over))
    assert cli.status == 2 and f"{bound}" in cli.err and "Traceback" not in cli.err
    assert invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", "500").status == 0
    table.create(table.gm, "krasses", "Héros", characteristics="Force=2", skills="Bagarre=3")
    assert table.roll(table.gm, "Héros", "Bagarre", difficulty=500)["entry"]
    web = table.client.post(
        f"/api{table.gm}/roll",
        json={"character": "Héros", "trait": "Bagarre", "difficulty": over},
    )
    assert web.status_code == 400 and f"{bound}" in web.json()["error"]


def test_L12_motivation_points_spent_past_the_bound_are_refused_by_the_cli_and_the_web(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """L-12: at most ``LegendesParams.MAX_SPEND`` points on one roll, for both."""
    bound = LegendesParams.MAX_SPEND
    over = str(bound + 1)
    cli = invoke(capsys, "test", "legendes", "--dice", "3", "--vs", "elite", "--spend", over)
    assert cli.status == 2 and f"{bound}" in cli.err and "Traceback" not in cli.err
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    web = table.client.post(
        f"/api{table.gm}/roll", json={"character": "Aube", "trait": "Épée", "spend": bound + 1}
    )
    assert web.status_code == 400 and f"{bound}" in web.json()["error"]


def test_T3_a_threshold_past_the_bound_is_refused_by_the_cli_and_the_web(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """T-3: a threshold is any whole number from 1 to ``TunnelsParams.MAX_THRESHOLD``:
    60 is rolled by both (the web form used to stop at 50), one more than the bound and 0
    are refused by both, with the params type's message."""
    from meneur.systems.tunnels.rules import TestParams as TunnelsParams

    bound = TunnelsParams.MAX_THRESHOLD
    cli = invoke(capsys, "test", "tunnels", "--dice", "3", "--threshold", str(bound + 1))
    assert cli.status == 2 and f"{bound}" in cli.err and "Traceback" not in cli.err
    assert invoke(capsys, "test", "tunnels", "--dice", "3", "--threshold", "60").status == 0
    table.create(table.gm, "tunnels", "Pip", Force="3")
    assert table.roll(table.gm, "Pip", "Force", threshold=60)["entry"]
    for refused, words in ((bound + 1, f"{bound}"), (0, "1")):
        web = table.client.post(
            f"/api{table.gm}/roll",
            json={"character": "Pip", "trait": "Force", "threshold": refused},
        )
        assert web.status_code == 400 and words in web.json()["error"], web.json()


REFUSED = re.compile(r'<p class="message refused" id="refused" role="alert">([^<]*)</p>')
NOTES = re.compile(r'<p class="message odds-note" role="status">([^<]+)</p>')
BROWSER = {"accept": "text/html"}


def test_T3_O8_an_option_past_its_bound_names_the_rule_s_bound_never_the_form_s(
    table: Table,
) -> None:
    """T-3, O-8: the options' numbers were stopped at ±1000000000, a bound the form kept
    for itself (« ?difficulty=-99999999999 : doit valoir au moins -1000000000 »), while
    ``threshold=1000000000`` said the rule's (« Un seuil vaut au plus 1000 »); a number
    of 5,000 digits read as no number (« un nombre entier est attendu »). A number too
    long is refused by its length, as the sheet's form says it; any other goes to the
    system's params, whose own check names the rule's bound, on the page's cards as in
    a roll's refusal, from the form and from the API alike."""
    from meneur.systems.obscur.rules import MAX_DIFFICULTY
    from meneur.systems.tunnels.rules import TestParams as TunnelsParams

    table.create(table.gm, "tunnels", "Pip", Force="3")
    table.create(table.gm, "obscur", "Isaure")
    page = html.unescape(table.client.get(f"{table.gm}?threshold={'9' * 5000}").text)
    top = REFUSED.search(page)
    assert top is not None and top.group(1) == (
        "Valeur invalide pour Seuil : 5000 chiffres, c'est trop long pour un nombre ici."
        " La page affiche la valeur par défaut à la place."
    )
    for typed, said in (
        ("-99999999999", "Une difficulté est d'au moins 1 Succès"),
        ("99999999999", f"Une difficulté va de 0 à {MAX_DIFFICULTY} succès"),
    ):
        page = html.unescape(table.client.get(f"{table.gm}?difficulty={typed}").text)
        assert REFUSED.search(page) is None and "1000000000" not in page
        notes = NOTES.findall(page)
        assert any(note.startswith(said) and note.endswith(f"pas {typed}.") for note in notes)
    bound = TunnelsParams.MAX_THRESHOLD
    csrf = table.csrf(table.gm)
    too_long = "Valeur invalide pour Seuil : 1000 chiffres, c'est trop long pour un nombre ici."
    for typed, status, said in (
        ("9" * 1000, 422, too_long),
        (str(10**9), 400, f"Un seuil vaut au plus {bound}, pas 1000000000."),
        (str(10**19), 400, f"Un seuil vaut au plus {bound}, pas {10**19}."),
    ):  # fmt: skip
        form = {"character": "Pip", "trait": "Force", "threshold": typed}
        answer = table.client.post(f"{table.gm}/roll", data={**form, "csrf": csrf}, headers=BROWSER)
        found = REFUSED.search(html.unescape(answer.text))
        assert answer.status_code == status and found is not None and found.group(1) == said
        api = table.client.post(f"/api{table.gm}/roll", json={**form, "threshold": int(typed)})
        assert api.status_code == 400 and api.json() == {"error": said}
        odds = table.client.get(f"/api{table.gm}/odds", params=form).json()
        assert said in (odds.get("error"), odds.get("refused")), odds
    assert table.store.rolls() == []
