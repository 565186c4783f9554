"""A Krâsses cooperation from the page, in a real browser (K-7, issue 17): Debian's
chromium, driven by Playwright, headless.

The GM picks the difficulty on the ladder: the exact chance beside the button follows
(the same fraction as the odds API), then one click rolls everyone, and the entry —
the leader, the +2s, the verdict — arrives live in the log of the GM and of a player.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx2

from web.test_web_browser import DOCS_IMAGES, WAIT, held_questions
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
LOAD = 30_000  # ms: a page holding every card's exact odds, on a busy machine
CREW = (("Aldo", "Bagarre=3"), ("Bea", "Bagarre=5"), ("Dan", "Bagarre=1"))


def prepare(server: dict[str, Any]) -> str:
    """Three Krâsses characters, over HTTP; the exact chance of their cooperation at Ardu."""
    with httpx2.Client(base_url=server["root"]) as client:
        gm = server["gm"].removeprefix(server["root"])
        csrf = CSRF.search(client.get(gm).text)
        assert csrf
        for name, skills in CREW:
            data = {
                "csrf": csrf.group(1),
                "action": "create",
                "system": "krasses",
                "name": name,
                "characteristics": "Force=1",
                "skills": skills,
            }
            assert client.post(f"{gm}/character", data=data).status_code in (200, 303)
        query = {f"join:{name}": "1" for name, _skills in CREW}
        query.update(skill="Bagarre", difficulty="20")
        answer = client.get(f"/api{gm}/action/krasses/cooperate/odds", params=query)
        assert answer.status_code == 200, answer.text
        exact: str = answer.json()["odds"][0]["exact"]
        return exact


def test_the_gm_rolls_a_cooperation_from_the_page_and_everyone_sees_it(
    browser: Any, server: dict[str, Any], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    keep = os.environ.get("MENEUR_SCREENSHOTS", "") in ("1", "true", "yes")
    shots = DOCS_IMAGES if keep else tmp_path
    ardu = prepare(server)
    gm = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900}).new_page()
    gm.set_default_timeout(WAIT)
    gm.goto(server["gm"], timeout=LOAD)
    gm.wait_for_selector("#live:not([hidden])")
    player = browser.new_context(locale="fr-FR").new_page()
    player.set_default_timeout(WAIT)
    player.goto(server["invite"], timeout=LOAD)
    player.fill("input[name=name]", "Alice")
    player.click("button[type=submit]")
    player.wait_for_selector("#live:not([hidden])")

    card = gm.locator("#action-krasses-cooperate")
    expect(card.locator("select[name=difficulty]")).to_have_value("15")  # K-3: Moyen
    expect(card.locator(".odds")).to_contain_text("Réussite")
    # two questions whose answers come back crossed: the later question's chances stay
    difficulty = card.locator("select[name=difficulty]")
    older, newer = held_questions(
        gm,
        "**/cooperate/odds?*",
        lambda: difficulty.select_option("10"),
        lambda: difficulty.select_option("20"),
    )
    assert "difficulty=10" in older.request.url and "difficulty=20" in newer.request.url
    newer.fulfill(response=newer.fetch())
    expect(card.locator(".odds .stat")).to_have_attribute("title", ardu)
    with gm.expect_response(lambda r: "difficulty=10" in r.url):
        older.fulfill(response=older.fetch())
    gm.wait_for_timeout(300)  # time for the page to (wrongly) show it
    assert card.locator(".odds .stat").get_attribute("title") == ardu
    gm.unroute("**/cooperate/odds?*")
    card.locator("button.primary").click()

    for page in (gm, player):
        entry = page.locator("#log li.entry", has_text="coopération").first
        expect(entry).to_contain_text("Bagarre")
        expect(entry).to_contain_text("mène : total")
        expect(entry).to_contain_text("contre 20")
        expect(entry.locator(".die")).to_have_count(3)
    card.scroll_into_view_if_needed()
    gm.evaluate("window.scrollBy(0, -80)")  # below the sticky header
    card.screenshot(path=str(shots / "cooperation.png"))
    gm.locator("#log li.entry").first.screenshot(path=str(shots / "cooperation-log.png"))
    (logged,) = [e for e in server["store"].rolls() if e["kind"] == "cooperate"]
    assert logged["params"]["difficulty"] == 20 and logged["who"] == "Aldo, Bea, Dan"
    for page in (gm, player):
        page.context.close()


def test_a_help_from_the_page_shows_on_the_helped_heros_card(
    browser: Any, server: dict[str, Any], tmp_path: Path
) -> None:
    """L-11 from the page: the GM has Bran help Ysolde; the result is logged, and the help
    waiting for Ysolde's next roll shows on her card, live."""
    from playwright.sync_api import expect

    keep = os.environ.get("MENEUR_SCREENSHOTS", "") in ("1", "true", "yes")
    shots = DOCS_IMAGES if keep else tmp_path
    with httpx2.Client(base_url=server["root"]) as client:
        gm = server["gm"].removeprefix(server["root"])
        csrf = CSRF.search(client.get(gm).text)
        assert csrf
        for name, legendary, secondary in (("Ysolde", "Épée", "Chant"), ("Bran", "Ruse", "")):
            data = {
                "csrf": csrf.group(1),
                "action": "create",
                "system": "legendes",
                "name": name,
                "legendary": legendary,
                "secondary": secondary,
            }
            assert client.post(f"{gm}/character", data=data).status_code in (200, 303)
    page = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(WAIT)
    page.goto(server["gm"], timeout=LOAD)
    page.wait_for_selector("#live:not([hidden])")
    card = page.locator("#action-legendes-help")
    card.locator("select[name=helper]").select_option("Bran")
    card.locator("select[name=helped]").select_option("Ysolde")
    card.locator("select[name=helped_trait]").select_option("Chant")
    expect(card.locator(".odds .stat")).to_have_count(5)  # +1 die, +2, +1, cosmetic, none
    card.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -80)")
    card.screenshot(path=str(shots / "help.png"))
    card.locator("button.primary").click()
    entry = page.locator("#log li.entry", has_text="Bran aide Ysolde").first
    expect(entry.locator(".verdict")).to_contain_text("Bran")
    (logged,) = [e for e in server["store"].rolls() if e["kind"] == "aid"]
    if logged["outcome"]["effect"] in ("extra_die", "plus_2", "plus_1"):
        ysolde = page.locator("section.card.sheet", has=page.locator("h2", has_text="Ysolde"))
        expect(ysolde.locator(".stats")).to_contain_text("de Bran")
    page.context.close()
