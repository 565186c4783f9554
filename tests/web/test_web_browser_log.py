"""The log in a real browser (issue 17): times in the reader's zone, rule ids that open
their entry of the rules panel. Debian's chromium, driven by Playwright, headless."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx2

from web.test_web_browser import WAIT
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


def prepare(server: dict[str, Any]) -> None:
    """A Tunnels hero, an Obscur one, a roll and a melee exchange (T-10), over HTTP."""
    with httpx2.Client(base_url=server["root"]) as client:
        gm = server["gm"].removeprefix(server["root"])
        csrf = CSRF.search(client.get(gm).text)
        assert csrf
        token = csrf.group(1)
        for system, name, fields in (("tunnels", "Pip", TUNNELS), ("obscur", "Isaure", {})):
            data = {"csrf": token, "action": "create", "system": system, "name": name, **fields}
            assert client.post(f"{gm}/character", data=data).status_code in (200, 303)
        answer = client.post(
            f"/api{gm}/roll", json={"character": "Pip", "trait": "Force", "faces": "4 5 6"}
        )
        assert answer.status_code == 200, answer.text
        for name in ("Pip", "Orque"):
            data = {"csrf": token, "action": "add", "name": name, "health": "5"}
            assert client.post(f"{gm}/combat", data=data).status_code in (200, 303)
        data = {"csrf": token, "action": "exchange", "index": "0", "other": "1"}
        assert client.post(f"{gm}/combat", data=data).status_code in (200, 303)


def test_times_show_in_the_readers_zone_and_rule_ids_open_the_rules(
    browser: Any, server: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    prepare(server)
    [roll] = [e for e in server["store"].rolls() if e["kind"] == "test"]
    context = browser.new_context(locale="fr-FR", timezone_id="America/New_York")
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(server["gm"])
    page.wait_for_selector("#live:not([hidden])")

    # the time: the roll's UTC moment, shown in New York's zone by the browser
    moment = datetime.fromisoformat(roll["at"].replace("Z", "+00:00"))
    expected = moment.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M:%S")
    stamp = page.locator(f"#log time[datetime='{roll['at']}']")
    expect(stamp).to_have_text(expected)

    # a rule id in a log line is a link; a click opens its entry in the page
    link = page.locator("#log a.rule-link[href='#rule-T-10']").first
    link.click()
    view = page.locator(".rule-view[role=dialog]")
    expect(view).to_be_visible()
    expect(view.locator("h3")).to_have_text("T-10 · Melee")
    assert "loser" in view.inner_text() or "margin" in view.inner_text()
    page.keyboard.press("Escape")
    expect(view).to_have_count(0)

    # ids in the page's own text (an Obscur option: « (O-10) ») are linked by the script;
    # the GM's compact card shows its options on demand
    card = page.locator("section.card.sheet", has=page.locator("h2", has_text="Isaure"))
    card.locator("details.more > summary").click()
    obscur = page.locator("a.rule-link[href='#rule-O-10']").first
    expect(obscur).to_be_attached()
    obscur.click()
    expect(page.locator(".rule-view h3")).to_have_text(re.compile(r"^O-10 · "))
    page.locator(".rule-view button.close").click()
    expect(page.locator(".rule-view")).to_have_count(0)
    assert page.locator("button a.rule-link, option a.rule-link").count() == 0
    context.close()
