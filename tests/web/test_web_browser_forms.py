"""The table's plain forms in a real browser (Debian's chromium, Playwright, headless):
the sheet's edit form refuses a number past the sheet model's bounds before posting,
and a refused form post, JavaScript off, comes back as the table page with the reason.
"""

from __future__ import annotations

import re
from typing import Any

import httpx2

from web.test_web_browser import WAIT, live_page
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def create(server: dict[str, Any], system: str, name: str, **fields: str) -> None:
    """A character of the GM's, made over HTTP."""
    with httpx2.Client(base_url=server["root"]) as client:
        gm = server["gm"].removeprefix(server["root"])
        csrf = CSRF.search(client.get(gm).text)
        assert csrf
        data = {"csrf": csrf.group(1), "action": "create", "system": system, "name": name}
        answer = client.post(f"{gm}/character", data={**data, **fields})
        assert answer.status_code in (200, 303), answer.text


def sheet_card(page: Any, name: str) -> Any:
    """``name``'s card on ``page``."""
    return page.locator("section.card.sheet", has=page.locator("h2", has_text=name))


def edit_form(page: Any, name: str) -> Any:
    """The edit form of ``name``'s card, unfolded (the GM's card folds it twice)."""
    card = sheet_card(page, name)
    more = card.locator("details.more > summary")
    if more.count():
        more.click()
    card.locator("details.edit-sheet > summary").click()
    return card.locator("form.edit")


def save_edit(page: Any, name: str, field: str, value: object) -> None:
    """Type ``value`` in ``field`` of ``name``'s edit form on ``page`` and save it."""
    form = edit_form(page, name)
    form.locator(f"input[name='{field}']").fill(str(value))
    form.locator("button[type=submit]").click()


def refused_edit(context: Any, server: dict[str, Any], name: str) -> Any:
    """The GM's page after a sheet edit the model refuses (Endurance past its maximum),
    posted as the page's form posts it: the table page again under a 400, the reason on
    top."""
    from playwright.sync_api import expect

    create(server, "tunnels", name, Force="3", Dextérité="4", Constitution="3")
    gm = context.new_page()
    gm.set_default_timeout(WAIT)
    gm.goto(server["gm"])
    form = edit_form(gm, name)
    form.locator("input[name='endurance/current']").fill("9999")
    with gm.expect_response(lambda r: r.request.method == "POST") as posted:
        form.locator("button[type=submit]").click()
    assert posted.value.status == 400
    expect(gm.locator("#refused")).to_contain_text("dépasse le maximum")
    return gm


def test_the_edit_form_refuses_a_number_past_the_sheet_models_bounds(
    browser: Any, server: dict[str, Any]
) -> None:
    """The edit form's numbers carry the bounds of each system's sheet model (they all
    said -100000..100000): a Krâsses skill level from 0 to 1000, a characteristic from
    -1000 to 1000, Légendes motivation points from 0 to 99 (L-12). Past them, the browser
    refuses to post: nothing is logged, the sheet is unchanged."""
    create(server, "krasses", "Grok", characteristics="Force=2", skills="Bagarre=3")
    create(server, "legendes", "Aube", legendary="Épée")
    store = server["store"]
    before = len(store.rolls())
    gm = browser.new_context(locale="fr-FR").new_page()
    gm.set_default_timeout(WAIT)
    gm.goto(server["gm"])
    form = edit_form(gm, "Grok")
    skill, force = (
        form.locator("input[name='skills/Bagarre']"),
        form.locator("input[name='characteristics/Force']"),
    )
    assert (skill.get_attribute("min"), skill.get_attribute("max")) == ("0", "1000")
    assert (force.get_attribute("min"), force.get_attribute("max")) == ("-1000", "1000")
    for field, wrong in ((skill, "-1"), (force, "1001")):
        field.fill(wrong)
        form.locator("button[type=submit]").click()
        assert field.evaluate("input => !input.validity.valid"), wrong
        assert gm.url == server["gm"]
        field.fill("4")
    points = edit_form(gm, "Aube").locator("input[name=motivation_points]")
    points.fill("100")
    points.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    assert points.evaluate("input => input.validity.rangeOverflow")
    assert gm.url == server["gm"]
    assert len(store.rolls()) == before
    assert store.character("Grok").sheet["skills"]["Bagarre"] == 3
    assert store.character("Aube").sheet.get("motivation_points", 0) != 100
    gm.context.close()


def test_without_javascript_a_refused_form_comes_back_as_the_table_with_the_reason(
    browser: Any, server: dict[str, Any]
) -> None:
    """JavaScript off, each form posts as a plain browser form: a refusal (a value the
    sheet model refuses, a whisper to nobody) shows the table page again, its reason on
    top and what was typed still there, under a 400 (it showed a bare « Désolé » page)."""
    from playwright.sync_api import expect

    gm = refused_edit(
        browser.new_context(locale="fr-FR", java_script_enabled=False), server, "Ronce"
    )
    expect(gm.locator("#log")).to_be_attached()
    card = sheet_card(gm, "Ronce")
    expect(card.locator("input[name='endurance/current']")).to_have_value("9999")
    expect(card.locator("input[name='endurance/current']")).to_be_visible()
    gm.fill("#say-line", "/w Zorglub on y va ?")
    with gm.expect_response(lambda r: r.request.method == "POST") as posted:
        gm.locator("#say button[type=submit]").click()
    assert posted.value.status == 400
    expect(gm.locator("#refused")).to_contain_text("Zorglub")
    expect(gm.locator("#say-line")).to_have_value("/w Zorglub on y va ?")
    assert server["store"].character("Ronce").sheet["endurance"]["current"] != 9999
    gm.context.close()


def test_with_javascript_a_refused_plain_form_leaves_the_table_live(
    browser: Any, server: dict[str, Any]
) -> None:
    """The sheet's edit form posts plainly even with JavaScript: refused, its page comes
    back at the form's address; the script puts the table's own address back, so that a
    reload shows the table (no form posted again) and a roll still arrives live."""
    from playwright.sync_api import expect

    gm = refused_edit(browser.new_context(locale="fr-FR"), server, "Houx")
    expect(gm).to_have_url(server["gm"])
    gm.wait_for_selector("#live:not([hidden])")
    card = sheet_card(gm, "Houx")
    card.locator("form.quick button[data-trait='Force']").click()
    expect(gm.locator("#log li.entry").first).to_contain_text("Houx")
    reloaded = gm.reload()
    assert reloaded is not None and reloaded.status == 200
    expect(gm.locator("#refused")).to_have_count(0)
    gm.context.close()


def test_the_edit_form_keeps_what_is_typed_while_the_sheet_changes_live(
    browser: Any, server: dict[str, Any]
) -> None:
    """The GM types an Endurance in Sorbier's edit form and looks elsewhere; another tab
    changes Sorbier's Mana. The form is brought up to date live: the Mana shown is the new
    one (saving does not put the old one back) and the Endurance typed is still there. And
    what the GM began from is kept with it: when the other tab then changes the Endurance
    too, saving the typed one is refused (SHOWN in web/systems.py) rather than written
    over the other's."""
    from playwright.sync_api import expect

    create(server, "tunnels", "Sorbier", Force="3", Dextérité="4", Constitution="3")
    store = server["store"]
    endurance = store.character("Sorbier").sheet["endurance"]["current"]
    mana = store.character("Sorbier").sheet["mana"]["current"]
    pages = [live_page(browser, server["gm"]) for _tab in range(2)]
    gm, other = pages
    form, theirs = edit_form(gm, "Sorbier"), edit_form(other, "Sorbier")
    typed = form.locator("input[name='endurance/current']")
    typed.fill(str(endurance - 1))
    gm.locator("#log").focus()  # the GM looks elsewhere: the form no longer has the focus

    theirs.locator("input[name='mana/current']").fill(str(mana - 1))
    theirs.locator("button[type=submit]").click()
    expect(form.locator("input[name='mana/current']")).to_have_value(str(mana - 1))
    expect(typed).to_have_value(str(endurance - 1))
    form.locator("button[type=submit]").click()
    expect(gm.locator("#log li.entry", has_text="fiche modifiée")).to_have_count(2)
    sheet = store.character("Sorbier").sheet
    assert (sheet["endurance"]["current"], sheet["mana"]["current"]) == (endurance - 1, mana - 1)

    # the GM types again; the other tab, once it shows the GM's save (else its own save
    # would rightly be refused: changed meanwhile), changes the Endurance
    theirs_card = sheet_card(other, "Sorbier")
    expect(theirs_card.locator(".stats")).to_contain_text(f"Endurance {endurance - 1}/")
    form = edit_form(gm, "Sorbier")
    form.locator("input[name='endurance/current']").fill(str(endurance - 3))
    save_edit(other, "Sorbier", "endurance/current", endurance - 2)
    expect(gm.locator("#log li.entry", has_text="fiche modifiée")).to_have_count(3)
    expect(form.locator("input[name='endurance/current']")).to_have_value(str(endurance - 3))
    with gm.expect_response(lambda r: r.request.method == "POST") as posted:
        form.locator("button[type=submit]").click()
    assert posted.value.status == 400
    expect(gm.locator("#refused")).to_contain_text("a changé entre-temps")
    assert store.character("Sorbier").sheet["endurance"]["current"] == endurance - 2
    for page in pages:
        page.context.close()


def test_the_roll_form_follows_a_sheet_changed_live_and_keeps_what_is_typed(
    browser: Any, server: dict[str, Any]
) -> None:
    """Another tab raises Brak's Bagarre from 3 to 8 while the GM has his roll form open,
    a skill and a difficulty picked: the form shows the new bonus live, the skill
    and the difficulty stay, and the chance is the one of the new bonus at the difficulty
    picked (as a page drawn afresh with the same values shows it), not the old one."""
    from playwright.sync_api import expect

    create(server, "krasses", "Brak", characteristics="Force=2", skills="Bagarre=3,Course=1")
    pages = [live_page(browser, server["gm"]) for _tab in range(2)]
    gm, other = pages

    def roll_form(page: Any) -> Any:
        card = sheet_card(page, "Brak")
        more = card.locator("details.more:not([open]) > summary")
        if more.count():
            more.click()
        return card.locator("form.roll")

    form = roll_form(gm)
    skill = form.locator("label.trait", has=gm.locator("input[value='Bagarre']"))
    before = skill.locator(".tdice").inner_text()
    skill.locator("input").check()
    difficulty = form.locator("select[name=difficulty]")
    difficulty.select_option("20")
    chance = skill.locator(".chance")
    exact = re.compile(r"^\d+/\d+$")  # the answer to the question asked, not the page's hint
    expect(chance).to_have_attribute("title", exact)
    at_3 = chance.get_attribute("title")

    save_edit(other, "Brak", "skills/Bagarre", 8)
    expect(skill.locator(".tdice")).not_to_have_text(before)
    assert "8" in skill.locator(".tdice").inner_text()
    assert skill.locator("input").is_checked()
    assert difficulty.input_value() == "20"
    expect(chance).not_to_have_attribute("title", at_3)
    # the same values on a page drawn afresh: the same chance
    fresh = roll_form(other)
    fresh.locator("input[value='Bagarre']").check()
    fresh.locator("select[name=difficulty]").select_option("20")
    fresh_chance = fresh.locator(".chance[data-trait='Bagarre']")
    expect(fresh_chance).to_have_attribute("title", exact)
    assert fresh_chance.get_attribute("title") != at_3
    expect(chance).to_have_attribute("title", fresh_chance.get_attribute("title") or "-")
    expect(chance).to_have_text(fresh_chance.inner_text())
    for page in pages:
        page.context.close()


def test_a_card_brought_up_to_date_is_its_own_characters_when_a_new_one_sorts_first(
    browser: Any, server: dict[str, Any]
) -> None:
    """Cards are in the order of names; a character made since the page was drawn (here
    « Aaron », first of all) moves every card after it one place down in the page the
    server draws. Brought up to date live, each card of the open page must still be its own
    character's: its values, and its forms, which say whose sheet they edit and roll."""
    from playwright.sync_api import expect

    create(server, "tunnels", "Mélèze", Force="3", Dextérité="4", Constitution="3")
    gm = live_page(browser, server["gm"])
    card = sheet_card(gm, "Mélèze")
    create(server, "tunnels", "Aaron", Force="5", Dextérité="5", Constitution="5")
    other = live_page(browser, server["gm"])
    endurance = server["store"].character("Mélèze").sheet["endurance"]
    save_edit(other, "Mélèze", "endurance/current", endurance["current"] - 1)
    expect(card.locator(".stats")).to_contain_text(f"Endurance {endurance['current'] - 1}/")
    for form in ("form.edit", "form.quick", "form.roll"):
        assert card.locator(f"{form} input[name=character]").input_value() == "Mélèze", form
    forces = card.locator("button.tap[data-trait='Force'] .tdice").all_inner_texts()
    assert forces and all(text.startswith("3") for text in forces), forces
    for page in (gm, other):
        page.context.close()


def test_after_saving_a_sheet_the_page_comes_back_on_its_card(
    browser: Any, server: dict[str, Any]
) -> None:
    """The edit form is sent the plain way and comes back folded: the page comes back with
    the character's card where it was on the screen, not at the top of the page."""
    # Tilleul's card far down the page, and more after it: the page can scroll it back
    for name in ("Alisier", "Bouleau", "Charme", "Tilleul", "Viorne", "Yeuse"):
        create(server, "tunnels", name, Force="3", Dextérité="4", Constitution="3")
    gm = live_page(browser, server["gm"], viewport={"width": 1280, "height": 700})
    form = edit_form(gm, "Tilleul")
    form.locator("button[type=submit]").scroll_into_view_if_needed()
    card = sheet_card(gm, "Tilleul")
    scrolled, before = gm.evaluate("scrollY"), card.evaluate("c => c.getBoundingClientRect().top")
    assert scrolled > 200, scrolled  # far from the top: the test would prove nothing
    form.locator("input[name='mana/current']").fill("1")
    with gm.expect_navigation():
        form.locator("button[type=submit]").click()
    gm.wait_for_selector("#live:not([hidden])")
    after = card.evaluate("c => c.getBoundingClientRect().top")
    assert abs(after - before) <= 2, (before, after)
    assert server["store"].character("Tilleul").sheet["mana"]["current"] == 1
    gm.context.close()
