"""The chances beside a roll form in a real browser, as they change under the player's hand
(Debian's chromium, Playwright, headless, as in :mod:`web.test_web_browser`).

The odds are asked again whenever the form changes, the threshold's field included when it
loses the focus, which is the very moment a player presses the mouse on a trait or on
« Lancer ». Two things then must hold: the note saying why a chance reads « – » may come or
go, but nothing the player can press moves under the pointer; and answers that come back
out of order never show an older question's chances after a newer one's.
"""

from __future__ import annotations

from typing import Any

from web.test_web_browser import THRESHOLD, ask_threshold, held_questions, join
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server

REFUSED = "Un seuil vaut au moins 1, pas 0."


def middle(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_note_coming_and_going_never_moves_a_trait_or_the_roll_button(
    browser: Any, server: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    page = join(browser, server, "Aude", "Ronce", viewport={"width": 1280, "height": 900})
    note = page.locator("section:has(form.roll) .odds-note")
    ask_threshold(page, "0")
    expect(note).to_have_text(REFUSED)
    # a valid threshold typed, not yet sent: it is sent as the field loses the focus, when
    # the mouse goes down on a trait; the answer hides the note before the mouse goes up
    page.fill(THRESHOLD, "3")
    trait = page.locator("form.roll input[value='Dextérité']")
    roll = page.locator("form.roll button.primary")
    trait_before, roll_before = trait.bounding_box(), roll.bounding_box()
    page.mouse.move(*middle(trait_before))
    with page.expect_response(lambda r: "/odds?" in r.url and "threshold=3" in r.url):
        page.mouse.down()
    expect(note).to_be_hidden()
    assert trait.bounding_box() == trait_before
    assert roll.bounding_box() == roll_before
    page.mouse.up()
    expect(trait).to_be_checked()
    page.context.close()


def test_an_older_answer_never_replaces_a_newer_one(browser: Any, server: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    page = join(browser, server, "Blaise", "Sureau", viewport={"width": 1280, "height": 900})
    chance = page.locator(".chance[data-trait='Force']")
    note = page.locator("section:has(form.roll) .odds-note")
    older, newer = held_questions(
        page,
        "**/odds?*",
        lambda: ask_threshold(page, "0"),  # refused: « – » and the note, if its answer were shown
        lambda: ask_threshold(page, "3"),
    )
    assert "threshold=0" in older.request.url and "threshold=3" in newer.request.url
    answer = newer.fetch()
    exact = answer.json()["traits"]["Force"]["exact"]
    newer.fulfill(response=answer)
    # the newer answer shown (the chance before it ended in « % » too: read its exact title)
    expect(chance).to_have_attribute("title", exact)
    shown = chance.inner_text()
    assert shown.endswith("%")
    with page.expect_response(lambda r: "threshold=0" in r.url):
        older.fulfill(response=older.fetch())
    page.wait_for_timeout(300)  # time for the page to (wrongly) show it
    assert chance.inner_text() == shown
    assert chance.get_attribute("title") == exact
    expect(note).to_be_hidden()
    page.context.close()
