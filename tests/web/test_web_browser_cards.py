"""Characters coming to the table live, in a real browser (Debian's chromium, Playwright,
headless, as in :mod:`web.test_web_browser`).

A player who joins and makes a character, a character the GM gives to a seat: the pages
already open show the new card at once, usable at once (its one-tap rolls, its roll form
and its chances), without a reload, and without undoing what their user is doing in the
cards already there.
"""

from __future__ import annotations

import time
from typing import Any

from web.test_web_browser import WAIT, join, live_page
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server
from web.test_web_browser_forms import create, edit_form, save_edit
from web.test_web_browser_forms import sheet_card as card

DESK = {"width": 1280, "height": 900}


def test_a_players_new_character_comes_into_the_gms_page_ready_to_roll(
    browser: Any, server: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    create(server, "tunnels", "Ortie", Force="3", Dextérité="4", Constitution="3")
    gm = live_page(browser, server["gm"], viewport=DESK)
    # the GM is in the middle of something on Ortie's card: her edit form open, a value typed
    form = edit_form(gm, "Ortie")
    form.locator("input[name='mana/current']").fill("1")

    julie = join(browser, server, "Julie", "Bardane", viewport=DESK)
    bardane = card(gm, "Bardane")
    expect(bardane).to_have_count(1)  # in at its place (names in order), without a reload
    names = gm.locator("section.card.sheet h2").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    expect(gm.locator("#seats .seats")).to_contain_text("Julie")
    expect(bardane.locator(".chip")).to_contain_text("Julie")
    # Ortie's card is as the GM left it
    assert form.is_visible() and form.locator("input[name='mana/current']").input_value() == "1"

    # the new card's one-tap roll works at once: sent in place (the page stays), logged
    gm.evaluate("window.stayed = true")
    bardane.locator("form.quick button.tap").first.click()
    expect(gm.locator("#log li.entry:has(.die)", has_text="Bardane")).to_have_count(1)
    assert gm.evaluate("window.stayed === true")
    # and its full roll form's chances are asked as it changes
    bardane.locator("details.more > summary").click()
    roll = bardane.locator("form.roll")
    chance = roll.locator(".chance[data-trait='Force']")
    before = chance.inner_text()
    roll.locator("input[name=threshold]").fill("3")
    roll.locator("input[name=threshold]").dispatch_event("change")
    expect(chance).not_to_have_text(before)
    for page in (gm, julie):
        page.context.close()


def test_a_character_given_to_a_seat_comes_to_its_players_page(
    browser: Any, server: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    create(server, "tunnels", "Sauge", Force="2", Dextérité="3", Constitution="2", free="1")
    marc = browser.new_context(locale="fr-FR", viewport=DESK).new_page()
    marc.set_default_timeout(WAIT)
    marc.goto(server["invite"])
    marc.fill("input[name=name]", "Marc")
    marc.click("button[type=submit]")
    marc.wait_for_selector("#live:not([hidden])")
    expect(marc.locator("#your-character")).to_have_count(1)  # no character yet
    assert card(marc, "Sauge").count() == 0

    gm = live_page(browser, server["gm"], viewport=DESK)
    folded = gm.locator("#seats details:not([open]) > summary")
    if folded.count():
        folded.click()
    assign = gm.locator("#seats-assign")
    assign.locator("select[name=character]").select_option(label="Sauge")
    assign.locator("select[name=holder]").select_option(label="Marc #" + seat_of(gm, "Marc"))
    assign.locator("button[type=submit]").click()

    sauge = card(marc, "Sauge")
    expect(sauge).to_have_count(1)
    expect(marc.locator("#your-character")).to_have_count(0)
    marc.evaluate("window.stayed = true")
    marc.check("form.roll input[value='Dextérité']")
    marc.click("form.roll button.primary")
    expect(marc.locator("#log li.entry:has(.die)", has_text="Sauge")).to_have_count(1)
    assert marc.evaluate("window.stayed === true")  # sent in place, not posted as a plain form
    assert any(e["who"] == "Sauge" for e in server["store"].rolls())
    # taken back (the GM's again): the card leaves Marc's page
    gm.reload()
    folded = gm.locator("#seats details:not([open]) > summary")
    if folded.count():
        folded.click()
    assign.locator("select[name=character]").select_option(label="Sauge")
    assign.locator("select[name=holder]").select_option(value="gm")
    assign.locator("button[type=submit]").click()
    expect(sauge).to_have_count(0)
    for page in (marc, gm):
        page.context.close()


def seat_of(gm: Any, player: str) -> str:
    """The number of ``player``'s seat, as the GM's seat list labels it (« Marc #2 »)."""
    label: str = gm.locator(
        "#seats-assign select[name=holder] option", has_text=player
    ).inner_text()
    return label.rsplit("#", 1)[1]


def test_an_older_rendering_of_the_page_never_undoes_a_newer_one(
    browser: Any, server: dict[str, Any]
) -> None:
    """Two live changes in a row: the page is asked twice, and the answers may cross. The
    newer arrives first and shows; the older, arriving after, must not bring the card
    back to what it was between the two."""
    from playwright.sync_api import expect

    create(server, "tunnels", "Cerfeuil", Force="3", Dextérité="3", Constitution="3")
    gm = live_page(browser, server["gm"], viewport=DESK)
    other = live_page(browser, server["gm"], viewport=DESK)
    endurance = server["store"].character("Cerfeuil").sheet["endurance"]["current"]

    def lower_to(value: int) -> Any:
        def change() -> None:
            with other.expect_navigation():  # the page comes back after a save
                save_edit(other, "Cerfeuil", "endurance/current", value)

        return change

    # each time the page is asked again, the server's answer is read at once (the page as
    # it then is) and held; the two are then let through newer first
    answers: list[tuple[Any, Any]] = []
    pattern = gm.url.split("?")[0] + "*"
    gm.route(pattern, lambda route: answers.append((route, route.fetch())))
    for asked, value in enumerate((endurance - 1, endurance - 2), start=1):
        lower_to(value)()
        deadline = time.monotonic() + WAIT / 1000
        while len(answers) < asked and time.monotonic() < deadline:
            gm.wait_for_timeout(20)
    assert len(answers) == 2
    (older, older_answer), (newer, newer_answer) = answers
    stats = card(gm, "Cerfeuil").locator(".stats")
    newer.fulfill(response=newer_answer)
    expect(stats).to_contain_text(f"Endurance {endurance - 2}/")
    with gm.expect_response(lambda r: r.request is older.request):
        older.fulfill(response=older_answer)
    gm.wait_for_timeout(300)  # time for the page to (wrongly) show it
    expect(stats).to_contain_text(f"Endurance {endurance - 2}/")
    gm.unroute(pattern)
    for page in (gm, other):
        page.context.close()


def test_a_page_the_server_fails_to_draw_leaves_the_cards_as_they_are(
    browser: Any, server: dict[str, Any]
) -> None:
    """A live change arrives and the page asked again answers an error (a seat just
    removed: 404; a server in trouble: 500): the cards stay as they are, instead of going
    away with everything the error page does not hold."""
    from playwright.sync_api import expect

    create(server, "tunnels", "Pervenche", Force="3", Dextérité="3", Constitution="3")
    gm = live_page(browser, server["gm"], viewport=DESK)
    other = live_page(browser, server["gm"], viewport=DESK)
    cards = gm.locator("section.card.sheet")
    count = cards.count()
    assert count >= 1
    pattern = gm.url.split("?")[0] + "*"
    with gm.expect_response(lambda r: r.status == 500):
        gm.route(pattern, lambda route: route.fulfill(status=500, body="Internal Server Error"))
        save_edit(other, "Pervenche", "mana/current", 0)
    gm.wait_for_timeout(300)  # time for the page to (wrongly) drop its cards
    expect(cards).to_have_count(count)
    gm.unroute(pattern)
    for page in (gm, other):
        page.context.close()


def test_a_roll_on_its_way_keeps_its_button_disabled_through_a_live_change(
    browser: Any, server: dict[str, Any]
) -> None:
    """The « Jet » button is disabled while its roll is on its way; a live change that
    renews the card meanwhile must not enable it again (a second press would roll twice)."""
    from playwright.sync_api import expect

    create(server, "tunnels", "Lupin", Force="3", Dextérité="3", Constitution="3")
    gm = live_page(browser, server["gm"], viewport=DESK)
    other = live_page(browser, server["gm"], viewport=DESK)
    tap = card(gm, "Lupin").locator("form.quick button.tap").first
    held: list[Any] = []
    gm.route("**/roll", lambda route: held.append(route))
    tap.click()
    expect(tap).to_be_disabled()
    save_edit(other, "Lupin", "mana/current", 0)
    expect(card(gm, "Lupin").locator(".stats")).to_contain_text("Mana 0/")  # renewed
    expect(tap).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    expect(tap).to_be_enabled()
    expect(gm.locator("#log li.entry:has(.die)", has_text="Lupin")).to_have_count(1)
    gm.unroute("**/roll")
    for page in (gm, other):
        page.context.close()
