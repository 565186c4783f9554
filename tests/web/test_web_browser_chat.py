"""The dice line and chat in a real browser (issue 17): Debian's chromium, headless.

A player types ``/r 4d6kh3`` and Enter in the labelled line: the roll shows in the GM's
open page, live; the up arrow brings the line back. A whisper to the GM shows on the
GM's page and not on another player's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from web.test_web_browser import DOCS_IMAGES, WAIT, join
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server


def test_a_player_rolls_from_the_line_and_recalls_it(
    browser: Any, server: dict[str, Any], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    keep = os.environ.get("MENEUR_SCREENSHOTS", "") in ("1", "true", "yes")
    shots = DOCS_IMAGES if keep else tmp_path

    gm = browser.new_context(locale="fr-FR").new_page()
    gm.set_default_timeout(WAIT)
    alice = join(browser, server, "Alice", "Brindille")
    bob = join(browser, server, "Bob", "Gros Jean", viewport={"width": 390, "height": 844})
    gm.goto(server["gm"])
    gm.wait_for_selector("#live:not([hidden])")

    line = alice.get_by_label("Dés et discussion")  # a labelled control
    line.click()
    line.type("/r 4d6kh3")
    line.press("Enter")  # Enter sends
    roll = gm.locator("#log li.entry", has_text="4d6kh3")
    expect(roll).to_have_count(1)
    expect(roll.locator(".die")).to_have_count(4)
    expect(roll.locator(".die.dropped")).to_have_count(1)
    [entry] = [e for e in server["store"].rolls() if e["kind"] == "roll"]
    expect(roll.locator(".verdict")).to_have_text(f"Total {entry['outcome']['total']}")
    expect(line).to_have_value("")

    line.type("Bonsoir <b>tout le monde</b>")
    line.press("Enter")
    expect(gm.locator("#log li.chat p.said").first).to_have_text("Bonsoir <b>tout le monde</b>")
    line.press("ArrowUp")
    expect(line).to_have_value("Bonsoir <b>tout le monde</b>")
    line.press("ArrowUp")  # the up arrow recalls the lines sent, the latest first
    expect(line).to_have_value("/r 4d6kh3")
    line.press("ArrowDown")
    expect(line).to_have_value("Bonsoir <b>tout le monde</b>")
    line.fill("/w MJ la porte est piégée ?")
    line.press("Enter")
    whisper = gm.locator("#log li.whisper")
    expect(whisper).to_have_count(1)
    expect(whisper.locator(".who")).to_have_text("Alice (Brindille) vous chuchote")
    expect(alice.locator("#log li.whisper .who")).to_have_text("Vous chuchotez au MJ")
    expect(bob.locator("#log li.chat")).to_have_count(1)  # the chat line, not the whisper
    assert bob.locator("#log li.whisper").count() == 0

    gm.locator("section.card.log").screenshot(path=str(shots / "web_chat.png"))
    bob.screenshot(path=str(shots / "web_chat_phone.png"))
    line.fill("/w Zorglub salut")
    line.press("Enter")
    expect(alice.locator("#say-answer")).to_contain_text("Personne à cette table")
    expect(line).to_have_value("/w Zorglub salut")  # kept to be corrected
    for page in (gm, alice, bob):
        page.context.close()
