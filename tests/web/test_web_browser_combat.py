"""The combat tracker brought up to date live under the GM's hands, in a real browser
(Debian's chromium, Playwright, headless, as in :mod:`web.test_web_browser`).

A fight changes while the GM is at the tracker: a combatant's player rolls in public (the
verdict shows in the tracker), another tab of the GM adds a fighter or moves the turn. The
tracker is rendered again each time; what the GM has typed or picked there and not sent
yet (a fighter being added, the exchange's two fighters, physical dice), the focus and a
button under the finger must survive it. Before, the whole card was replaced: a player's
roll emptied the fields, and put the exchange's fighters back to their defaults, so that
« Échange de coups » then played another pair than the one the GM had picked.
"""

from __future__ import annotations

from typing import Any

from web.test_web_browser import browser as browser
from web.test_web_browser import join, live_page
from web.test_web_browser import server as server

DESK = {"width": 1280, "height": 900}
ADD = "#combat form#combat-add"
EXCHANGE = "#combat form#combat-exchange"


def gm_page(browser: Any, server: dict[str, Any]) -> Any:
    return live_page(browser, server["gm"], viewport=DESK)


def add_fighter(gm: Any, name: str, health: str = "", initiative: str = "") -> None:
    gm.fill(f"{ADD} input[name=name]", name)
    gm.fill(f"{ADD} input[name=health]", health)
    gm.fill(f"{ADD} input[name=initiative]", initiative)
    gm.click(f"{ADD} button[type=submit]")
    gm.wait_for_selector(f"#combat .cname >> text={name}")
    gm.wait_for_selector("#live:not([hidden])")


def picked(gm: Any, name: str) -> str:
    """The fighter a select of the exchange shows."""
    text: str = gm.locator(f"{EXCHANGE} select[name={name}]").evaluate(
        "select => select.options[select.selectedIndex].text"
    )
    return text


def roll_in_public(player: Any) -> None:
    player.check("form.roll input[value='Force']")
    player.click("form.roll button.primary")


def test_what_the_gm_is_typing_in_the_tracker_survives_a_players_roll(
    browser: Any, server: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    paul = join(browser, server, "Paul", "Chardon", viewport=DESK)
    gm = gm_page(browser, server)
    for name, health in (("Chardon", ""), ("Orque", "5"), ("Loup", "4")):
        add_fighter(gm, name, health)
    names = gm.locator("#combat .cname").all_inner_texts()
    # the GM prepares the next exchange: the fighters picked are not the defaults (the
    # turn's fighter against the next one), physical dice typed, a fighter being added
    first, second = names[2], names[0]
    gm.select_option(f"{EXCHANGE} select[name=index]", label=first)
    gm.select_option(f"{EXCHANGE} select[name=other]", label=second)
    gm.click(f"{EXCHANGE} details:has(input[name=faces]) summary")
    gm.fill(f"{ADD} input[name=name]", "Gobelin")
    gm.fill(f"{ADD} input[name=initiative]", "7")
    gm.fill(f"{EXCHANGE} input[name=faces]", "4 6")
    gm.press(f"{EXCHANGE} input[name=faces]", "ArrowLeft")  # the caret inside the field

    roll_in_public(paul)  # Chardon's verdict comes into the GM's tracker, live
    chardon = gm.locator("#combat li", has=gm.locator(".cname", has_text="Chardon"))
    expect(chardon.locator(".last")).not_to_be_empty()

    assert gm.input_value(f"{ADD} input[name=name]") == "Gobelin"
    assert gm.input_value(f"{ADD} input[name=initiative]") == "7"
    assert gm.input_value(f"{EXCHANGE} input[name=faces]") == "4 6"
    assert (picked(gm, "index"), picked(gm, "other")) == (first, second)
    assert gm.locator(f"{EXCHANGE} details:has(input[name=faces])").get_attribute("open") == ""
    focus = gm.evaluate("[document.activeElement.name, document.activeElement.selectionStart]")
    assert focus == ["faces", 2]  # typing goes on where it was: "4 |6"
    gm.keyboard.type(" 1")
    assert gm.input_value(f"{EXCHANGE} input[name=faces]") == "4  16"

    # another tab of the GM adds a fighter who acts first: the list grows, every fighter
    # moves one place down in every select; the GM's pair is still the same two
    # fighters, by name, and is the one played
    other_tab = gm_page(browser, server)
    add_fighter(other_tab, "Rat", "2", initiative="99")
    expect(gm.locator("#combat .cname")).to_have_text(["Rat", *names])
    assert (picked(gm, "index"), picked(gm, "other")) == (first, second)
    assert gm.input_value(f"{ADD} input[name=name]") == "Gobelin"
    gm.fill(f"{EXCHANGE} input[name=faces]", "")
    before = len(server["store"].rolls())
    gm.click(f"{EXCHANGE} button[value=exchange]")
    pair = f"{first} / {second}"  # the exchange's line: the first fighter, then the other
    expect(gm.locator("#log li.entry", has_text=pair)).to_have_count(1)
    assert [entry["who"] for entry in server["store"].rolls()[before:]] == [pair]
    for page in (paul, gm, other_tab):
        page.context.close()


def test_a_fight_moving_on_never_steals_the_gms_press_on_a_button(
    browser: Any, server: dict[str, Any]
) -> None:
    """The turn moves on (another tab of the GM) while the GM's finger is down on a
    fighter's « −1 »: the tracker is brought up to date in place, the button pressed is the
    button released, and the fighter loses the point."""
    from playwright.sync_api import expect

    gm = gm_page(browser, server)
    gm.click("#combat button[value=reset]")
    gm.wait_for_selector("#combat >> text=Aucun combat en cours.")
    for name, health in (("Ours", "6"), ("Renard", "3")):
        add_fighter(gm, name, health)
    ours = gm.locator("#combat li", has=gm.locator(".cname", has_text="Ours"))
    current = gm.locator("#combat li.current .cname")
    turn = current.inner_text()
    minus = ours.locator("button[value='-1']")
    minus.scroll_into_view_if_needed()
    box = minus.bounding_box()
    assert box
    gm.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    gm.mouse.down()
    other_tab = gm_page(browser, server)
    other_tab.click("#combat button[value=next]")
    expect(current).not_to_have_text(turn)  # the GM's page shows the new turn
    gm.mouse.up()
    expect(ours.locator(".hp")).to_have_text("5/6")
    for page in (gm, other_tab):
        page.context.close()


def test_the_gms_page_comes_back_where_it_was_after_a_tracker_button(
    browser: Any, server: dict[str, Any]
) -> None:
    """The tracker's buttons send plain forms, and the page comes back from the server:
    it used to come back at its top (measured: from 810 px down to 0), the GM scrolling
    back down to the fight after each « Tour suivant » or « −1 ». It comes back with the
    tracker where it was on the screen, the button pressed holding the focus."""
    gm = live_page(browser, server["gm"], viewport={"width": 1280, "height": 420})  # far down
    gm.click("#combat button[value=reset]")
    gm.wait_for_selector("#combat >> text=Aucun combat en cours.")
    for name, health in (("Blaireau", "6"), ("Hibou", "3")):
        add_fighter(gm, name, health)
    for button in ("#combat button[value=next]", "#combat li >> nth=1 >> button[value='-1']"):
        gm.locator(button).scroll_into_view_if_needed()
        gm.evaluate("window.scrollBy(0, 120)")  # not at the very bottom: any place will do
        where = gm.evaluate(
            "[scrollY, document.getElementById('combat').getBoundingClientRect().top]"
        )
        assert where[0] > 200, where  # far from the top: the test would prove nothing
        with gm.expect_navigation():
            gm.click(button)
        gm.wait_for_selector("#live:not([hidden])")
        top = gm.evaluate("document.getElementById('combat').getBoundingClientRect().top")
        assert abs(top - where[1]) <= 2, (where, top)
        assert gm.locator(button).evaluate("b => b === document.activeElement")
    assert gm.locator("#combat li >> nth=1 >> .hp").inner_text() in ("5/6", "2/3")  # pressed
    gm.context.close()
