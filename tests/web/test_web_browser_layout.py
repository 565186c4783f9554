"""The table's layout in a real browser (issue 17): the GM's compact view, the phone,
the keyboard, an axe-core check of each page, and the screenshots of each system.

Debian's chromium, driven by Playwright, headless, as in :mod:`web.test_web_browser`.
Each system gets a table of its own (its campaign, three characters, a player, a few
rolls), made over HTTP as a GM and a player would. The axe-core check
(``axe-playwright-python``) fails on any *serious* or *critical* violation.
``MENEUR_SCREENSHOTS=1`` writes the pictures to ``docs/img/`` (docs/web.md shows them);
by default they go to the test's temporary folder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest

from meneur.web.tables import Tables
from web.test_web_browser import DOCS_IMAGES, WAIT, axe_check, join
from web.test_web_browser import browser as browser
from web.test_web_browser import server as server

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_CONTEXT: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}

CHARACTERS: dict[str, list[tuple[str, dict[str, str]]]] = {
    "tunnels": [
        ("Garde", {"Force": "4", "Dextérité": "3", "Constitution": "3"}),
        ("Brindille", {"Force": "2", "Dextérité": "5", "Constitution": "2"}),
        ("Orque", {"Force": "5", "Dextérité": "2", "Constitution": "4"}),
    ],
    "obscur": [("Isaure", {}), ("Mathias", {}), ("Sœur Agathe", {})],
    "krasses": [
        ("Grobide", {"characteristics": "Force=2, Agilité=1", "skills": "Bagarre=3"}),
        ("Pustule", {"characteristics": "Force=1, Agilité=2", "skills": "Discrétion=2"}),
        ("Morvan", {"characteristics": "Force=3", "skills": "Bagarre=1"}),
    ],
    "legendes": [
        ("Aélis", {"legendary": "Épée", "secondary": "Chant", "motivation": "Venger"}),
        ("Bran", {"legendary": "Hache", "secondary": "Pister", "weaknesses": "Orgueil"}),
        ("Ysolde", {"legendary": "Magie", "secondary": "Histoire", "motivation": "Savoir"}),
    ],
}
TITLES = {"tunnels": "Tunnels", "obscur": "Obscur", "krasses": "Krâsses", "legendes": "Légendes"}
PLAYER = "Marguerite-Amandine de la Tour"
"""A long name, as French players have: the header never cuts it."""


@dataclass(frozen=True)
class SystemTable:
    system: str
    gm: str
    invite: str
    player: str
    """The player's seat (their character is the first of :data:`CHARACTERS`)."""


def _csrf(client: httpx2.Client, page: str) -> str:
    found = CSRF.search(client.get(page).text)
    assert found, page
    return found.group(1)


def _create(
    client: httpx2.Client, seat: str, system: str, name: str, fields: dict[str, str]
) -> None:
    data = {"csrf": _csrf(client, seat), "action": "create", "system": system, "name": name}
    answer = client.post(f"{seat}/character", data={**data, **fields})
    assert answer.status_code == 303, answer.text


def _roll(client: httpx2.Client, seat: str, character: str) -> None:
    page = client.get(seat).text
    card = page[page.index(f'data-character="{character}"') :]
    trait = re.search(r'name="trait" value="([^"]+)"', card)
    assert trait, page
    body = {"character": character, "trait": trait.group(1)}
    answer = client.post(f"/api{seat}/roll", json=body)
    assert answer.status_code == 200, answer.text


def system_table(server: dict[str, Any], system: str) -> SystemTable:
    """A table of its own for ``system``: three characters (the first a player's), rolls;
    made once per server."""
    made: dict[str, SystemTable] = server.setdefault("systems", {})
    if system not in made:
        made[system] = _new_system_table(server, system)
    return made[system]


def _new_system_table(server: dict[str, Any], system: str) -> SystemTable:
    store = server["store"]
    campaign = f"Soirée {TITLES[system]}"
    if not any(c.name == campaign for c in store.campaigns()):
        store.create_campaign(campaign)
    info = Tables(store).default_for(campaign)
    root = server["root"]
    gm = f"/t/{info.id}/{info.gm_token}"
    with httpx2.Client(base_url=root, follow_redirects=False) as client:
        joined = client.post(f"/t/{info.id}/join/{info.invite_token}", data={"name": PLAYER})
        assert joined.status_code == 303, joined.text
        player = str(joined.headers["location"]).removeprefix(root)
        (first, fields), *others = CHARACTERS[system]
        _create(client, player, system, first, fields)
        for name, typed in others:
            _create(client, gm, system, name, typed)
        _roll(client, player, first)
        for name, _typed in others:
            _roll(client, gm, name)
    return SystemTable(
        system, root + gm, f"{root}/t/{info.id}/join/{info.invite_token}", root + player
    )


def opened(browser: Any, url: str, **context: Any) -> Any:
    page = browser.new_context(locale="fr-FR", **context).new_page()
    page.set_default_timeout(WAIT)
    page.goto(url)
    page.wait_for_selector("#log", state="attached")
    if "/join/" not in url:
        page.wait_for_selector("#live:not([hidden])")
    return page


def in_viewport(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(
        box
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


def shots_folder(tmp_path: Path) -> Path:
    """docs/img/ with ``MENEUR_SCREENSHOTS=1``, else the test's temporary folder."""
    keep = os.environ.get("MENEUR_SCREENSHOTS", "") in ("1", "true", "yes")
    return DOCS_IMAGES if keep else tmp_path


WIDER_THAN_THE_SCREEN = """[...document.querySelectorAll('*')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right))
  .slice(0, 30)"""


def test_the_compact_GM_view_on_a_phone_rolls_without_scrolling(
    browser: Any, server: dict[str, Any], tmp_path: Path
) -> None:
    """Issue 17: three characters, 390×844: the first character's one-tap roll is in the
    viewport at load, a tap logs a roll; the page is no longer thousands of pixels."""
    from playwright.sync_api import expect

    table = system_table(server, "tunnels")
    gm = opened(browser, table.gm, **PHONE_CONTEXT)
    gm.screenshot(path=str(shots_folder(tmp_path) / "web_gm_phone.png"))
    first = gm.locator("section.card.sheet").first
    tap = first.locator("form.quick button.tap").first
    assert in_viewport(gm, tap), tap.bounding_box()
    assert gm.evaluate("window.scrollY") == 0
    before = gm.locator("#log li.entry").count()
    name = first.locator("h2").inner_text()
    tap.click()
    expect(gm.locator("#log li.entry")).to_have_count(before + 1)
    expect(gm.locator("#log li.entry").first).to_contain_text(name)
    assert gm.evaluate("window.scrollY") == 0
    # every option is still there, on demand: the full roll form opens from its summary
    full = first.locator("form.roll")
    assert not full.is_visible()
    first.locator("details.more > summary").click()
    expect(full.locator("button.primary")).to_be_visible()
    first.locator("details.more > summary").click()
    height = gm.evaluate("document.documentElement.scrollHeight")
    assert height < 3000, height  # three full cards made 4,000 px
    wide = gm.evaluate(WIDER_THAN_THE_SCREEN)  # what pushes the page sideways, if anything
    assert gm.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    gm.context.close()


def test_a_players_roll_button_stays_in_reach_and_their_name_is_never_cut(
    browser: Any, server: dict[str, Any]
) -> None:
    """Issue 17: on a phone the Roll button sits in a bar at the bottom of the screen, at
    load and after scrolling; the header shows the player's whole name."""
    from playwright.sync_api import expect

    table = system_table(server, "obscur")
    page = opened(browser, table.player, **PHONE_CONTEXT)
    button = page.locator("form.roll .actions.dock button.primary")
    assert in_viewport(page, button)
    expect(page.locator(".actions.dock .picked")).not_to_be_empty()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    assert in_viewport(page, button)
    name = page.locator(".top .seat-name")
    assert name.inner_text() == PLAYER
    cut = name.evaluate("node => node.scrollWidth > node.clientWidth")
    assert not cut
    box = name.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    before = page.locator("#log li.entry").count()
    button.click()
    expect(page.locator("#log li.entry")).to_have_count(before + 1)
    page.context.close()


def test_a_roll_arriving_on_a_phone_never_moves_the_traits_under_the_finger(
    browser: Any, server: dict[str, Any]
) -> None:
    """A phone shows the log first, and it grows with each roll until full: at the top of
    the page (where the browser's own scroll anchoring does nothing) a roll from another
    seat leaves the traits where they were, and shows in the log; scrolled, too. A wide
    screen, the log beside the traits, stays at its top."""
    from playwright.sync_api import expect

    bob = join(browser, server, "Basile", "Bogue", **PHONE_CONTEXT)
    alice = join(browser, server, "Agnès", "Airelle", **PHONE_CONTEXT)
    wide = join(browser, server, "Wanda", "Web", viewport={"width": 1280, "height": 400})
    trait = alice.locator("form.roll input[value='Dextérité']")
    entries = alice.locator("#log li.entry")
    for scroll in (0, 0, 150):
        alice.evaluate(f"window.scrollTo(0, {scroll})")
        before, count = trait.bounding_box(), entries.count()
        bob.click("form.roll button.primary")
        expect(entries).to_have_count(count + 1)
        assert abs(trait.bounding_box()["y"] - before["y"]) < 1
    expect(entries.first).to_contain_text("Bogue")
    expect(wide.locator("#log li.entry")).to_have_count(entries.count())
    assert wide.evaluate("window.scrollY") == 0
    for page in (alice, bob, wide):
        page.context.close()


def test_the_table_is_usable_with_the_keyboard_alone(browser: Any, server: dict[str, Any]) -> None:
    """Tab reaches a one-tap roll; Enter rolls; a disclosure opens with Enter; the focused
    control shows an outline; the log is announced (aria-live)."""
    from playwright.sync_api import expect

    table = system_table(server, "krasses")
    page = opened(browser, table.gm, viewport=DESKTOP)
    assert page.locator("#log").get_attribute("aria-live") == "polite"
    tap = page.locator("form.quick button.tap").first
    for _step in range(80):
        page.keyboard.press("Tab")
        if tap.evaluate("node => node === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the first one-tap roll")
    outline = tap.evaluate("node => getComputedStyle(node).outlineStyle")
    assert outline == "solid"
    before = page.locator("#log li.entry").count()
    page.keyboard.press("Enter")
    expect(page.locator("#log li.entry")).to_have_count(before + 1)
    more = page.locator("section.card.sheet details.more > summary").first
    more.focus()
    page.keyboard.press("Enter")
    expect(page.locator("section.card.sheet details.more").first).to_have_attribute("open", "")
    # no clickable div or span: every control is a button, a link, a field or a summary
    clickable = page.evaluate(
        "[...document.querySelectorAll('div[onclick], span[onclick], [role=button]')].length"
    )
    assert clickable == 0
    unlabelled = page.evaluate(
        """[...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
        .filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.name)"""
    )
    assert unlabelled == []
    page.context.close()


@pytest.mark.parametrize("system", list(CHARACTERS))
def test_each_page_passes_axe_and_is_pictured(
    browser: Any, server: dict[str, Any], system: str, tmp_path: Path
) -> None:
    """axe-core finds no serious or critical violation on the home, join, GM and player
    pages of each system; the GM's desktop page and the player's phone page are pictured
    (``MENEUR_SCREENSHOTS=1``: into docs/img/)."""
    shots = shots_folder(tmp_path)
    table = system_table(server, system)
    home = browser.new_context(locale="fr-FR").new_page()
    home.goto(server["root"] + "/")
    axe_check(home, "home")
    home.goto(table.invite)
    axe_check(home, f"{system} join")
    home.context.close()

    gm = opened(browser, table.gm, viewport=DESKTOP)
    axe_check(gm, f"{system} GM table")
    gm.locator("section.card.sheet details.more > summary").first.click()
    axe_check(gm, f"{system} GM table, a character's options open")
    gm.locator("section.card.sheet details.more > summary").first.click()
    gm.screenshot(path=str(shots / f"web_{system}_desktop.png"))
    gm.context.close()

    player = opened(browser, table.player, **PHONE_CONTEXT)
    axe_check(player, f"{system} player table")
    player.screenshot(path=str(shots / f"web_{system}_phone.png"))
    player.context.close()
    for size in ("desktop", "phone"):
        assert (shots / f"web_{system}_{size}.png").stat().st_size > 10_000
