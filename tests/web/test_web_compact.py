"""The GM's compact view (issue 17), as the server writes it: one row per character, its
traits as one-tap rolls that work without JavaScript, the full form on demand.

The browser suite (:mod:`web.test_web_browser_layout`) checks the layout itself; these
check the markup and the form posts a page without script sends.
"""

from __future__ import annotations

import html
import re

from web.web_helpers import Table

QUICK = re.compile(
    r'<form method="post" action="[^"]+/roll" class="quick" id="[^"]+" data-character="([^"]+)"'
)
TAP = re.compile(r'<button class="tap" type="submit" name="trait" value="([^"]+)"')


def quick_forms(page: str) -> dict[str, list[str]]:
    """Each one-tap row of the page: its character and the traits of its buttons."""
    rows: dict[str, list[str]] = {}
    for part in page.split('<section class="card sheet')[1:]:
        found = QUICK.search(part)
        if found:
            rows[found.group(1)] = TAP.findall(part.split("</form>")[0])
    return rows


def test_the_GM_sees_one_row_per_character_with_each_trait_as_a_one_tap_roll(
    table: Table,
) -> None:
    table.create(table.gm, "tunnels", "Garde", Force="4", Dextérité="3", Constitution="3")
    table.create(table.gm, "krasses", "Grobide", characteristics="Force=2", skills="Bagarre=3")
    page = table.client.get(table.gm).text
    rows = quick_forms(page)
    assert set(rows) == {"Garde", "Grobide"}
    assert rows["Garde"][:3] == ["Force", "Dextérité", "Constitution"]
    assert rows["Grobide"] == ["Bagarre", "Force"]
    # the full roll form and the sheet's edit form are still there, inside the disclosure
    for name in rows:
        card = page.split(f'data-character="{name}"')[1].split("</section>")[0]
        assert '<details class="more">' in page
        assert 'class="roll"' in card and "<summary" in card


def test_a_one_tap_roll_without_script_rolls_its_trait_with_the_default_options(
    table: Table,
) -> None:
    table.create(table.gm, "tunnels", "Garde", Force="4", Dextérité="3", Constitution="3")
    data = {"csrf": table.csrf(table.gm), "character": "Garde", "trait": "Dextérité"}
    answer = table.client.post(f"{table.gm}/roll", data=data, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    [roll] = table.store.rolls()
    assert roll["who"] == "Garde"
    assert roll["params"]["trait"] == "Dextérité"
    assert roll["params"]["threshold"] == 2  # T-5's default: two successes


def test_the_odds_a_row_shows_are_the_odds_it_rolls_with(table: Table) -> None:
    """A page asked with options (« Update the odds » without script) shows the one-tap
    chances for them: the row carries them, so a tap rolls what it shows."""
    table.create(table.gm, "tunnels", "Garde", Force="4", Dextérité="3", Constitution="3")
    plain = table.client.get(table.gm).text
    assert (
        'type="hidden" name="threshold"' not in plain.split('class="quick"')[1].split("</form>")[0]
    )
    asked = table.client.get(f"{table.gm}?threshold=3&blessed=true").text
    row = asked.split('class="quick"')[1].split("</form>")[0]
    assert '<input type="hidden" name="threshold" value="3">' in row
    assert '<input type="hidden" name="blessed" value="true">' in row
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', row))
    answer = table.client.post(
        f"{table.gm}/roll", data={**fields, "trait": "Force"}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    [roll] = table.store.rolls()
    assert roll["params"]["threshold"] == 3
    assert roll["params"]["blessed"] is True


def test_a_page_asked_with_options_off_the_rules_says_so_and_keeps_the_others(
    table: Table,
) -> None:
    """``?threshold=x&blessed=true``: the page drops the threshold (no roll takes it:
    T-3's niveau 2 stands), keeps « blessed » (T-4), and says which value it did not
    take; ``?threshold=0``, a number the rule refuses, says why beside the sheet's « – ».
    Both showed the chances of other options, or dashes, without a word."""
    table.create(table.gm, "tunnels", "Garde", Force="4", Dextérité="3", Constitution="3")
    page = html.unescape(table.client.get(f"{table.gm}?threshold=x&blessed=true").text)
    assert (
        '<p class="message refused" id="refused" role="alert">Valeur invalide pour Seuil : '
        "un nombre entier est attendu. La page affiche la valeur par défaut à la place.</p>"
    ) in page
    row = page.split('class="quick"')[1].split("</form>")[0]
    assert '<input type="hidden" name="blessed" value="true">' in row
    assert 'name="threshold"' not in row  # the rules' default, not asked
    zero = html.unescape(table.client.get(f"{table.gm}?threshold=0").text)
    assert 'id="refused"' not in zero  # a number: the form carries it, the rule judges
    note = '<p class="message odds-note" role="status"{}>{}</p>'
    assert note.format("", "Un seuil vaut au moins 1, pas 0.") in zero
    assert zero.count('<span class="chance">–</span>') == 6  # every trait, one reason
    plain = html.unescape(table.client.get(f"{table.gm}?threshold=3").text)
    assert 'id="refused"' not in plain and note.format(" hidden", "") in plain
    # the address's ``lang`` stays for the next pages: asked last
    english = html.unescape(table.client.get(f"{table.gm}?explode=parfois&lang=en").text)
    assert "Invalid value for Explosions: must be one of" in english
    assert "The page shows the default value instead." in english


def test_a_player_keeps_the_full_form_with_its_roll_button_docked(table: Table) -> None:
    seat = table.join("Alice")
    table.create(seat, "tunnels", "Brindille", Force="2", Dextérité="5", Constitution="2")
    page = table.client.get(seat).text
    assert quick_forms(page) == {}
    assert '<div class="actions dock">' in page
    assert '<span class="seat-name">Alice</span>' in page
    gm = table.client.get(table.gm).text
    assert "actions dock" not in gm
