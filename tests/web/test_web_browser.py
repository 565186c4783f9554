"""The live table in a real browser: Debian's chromium, driven by Playwright, headless.

A real uvicorn serves the app on a free local port. A GM and two players, each in their
own browser context: a player rolls and the two others see it live; a GM-only roll never
shows to players; a player cannot act for another's character; a name made of markup is
shown as text; a phone-sized screen is usable (screenshots: MENEUR_SCREENSHOTS=1
writes them to docs/img/).

Without chromium the suite is skipped with that reason, except in CI (``CI=true``),
where a missing browser is a failure: the browser suite never silently skips there.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from meneur.campaign.store import Store
from meneur.web.app import create_app
from meneur.web.state import WebSettings
from meneur.web.tables import Tables

ROOT = Path(__file__).resolve().parents[2]
DOCS_IMAGES = ROOT / "docs" / "img"
"""Where ``MENEUR_SCREENSHOTS=1`` puts the screenshots (docs/web.md shows them); by
default they go to the test's temporary folder, so a test run changes no tracked file."""
CHROMIUM = os.environ.get("MENEUR_CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
WAIT = 8000  # ms


def chromium_path() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if found:
        return found
    message = "browser tests skipped: Debian's chromium is missing (apt-get install chromium)"
    if IN_CI:
        pytest.fail(message.replace("skipped", "cannot run in CI"))
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    import uvicorn

    path = tmp_path_factory.mktemp("web") / "table.db"
    store = Store(f"sqlite:///{path}")
    table = Tables(store).default()
    app = create_app(store, settings=WebSettings())
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not uvicorn_server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    root = f"http://127.0.0.1:{port}"
    yield {
        "root": root,
        "gm": f"{root}/t/{table.id}/{table.gm_token}",
        "invite": f"{root}/t/{table.id}/join/{table.invite_token}",
        "store": store,
        "app": app,
    }
    uvicorn_server.should_exit = True
    thread.join(timeout=10)
    store.close()


@pytest.fixture(scope="module")
def browser(server: dict[str, Any]) -> Iterator[Any]:
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        yield launched
        launched.close()


BLOCKING = ("serious", "critical")
"""The axe-core impacts that fail :func:`axe_check`."""


def axe_check(page: Any, where: str) -> None:
    """Run axe-core on the page; fail on each serious or critical violation, named."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = [v for v in results.response["violations"] if v.get("impact") in BLOCKING]
    described = [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:4])
        for v in found
    ]
    assert not found, f"{where}: " + "; ".join(described)


THRESHOLD = "form.roll input[name=threshold]"


def ask_threshold(page: Any, threshold: str) -> None:
    """Type a threshold in the roll form and say it changed (as the field's losing the
    focus does): the chances are asked again."""
    page.fill(THRESHOLD, threshold)
    page.locator(THRESHOLD).dispatch_event("change")


def held_questions(page: Any, pattern: str, *asks: Callable[[], None]) -> list[Any]:
    """The requests to ``pattern`` that ``asks`` make, one each, held unanswered (to be
    answered with ``route.fulfill(response=route.fetch())`` in the order a test wants;
    ``page.unroute(pattern)`` once they are: it lets any request still held go on)."""
    held: list[Any] = []
    page.route(pattern, lambda route: held.append(route))
    for ask in asks:
        ask()
    deadline = time.monotonic() + WAIT / 1000
    while len(held) < len(asks) and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert len(held) == len(asks), f"{len(held)} of {len(asks)} requests to {pattern}"
    return held


def live_page(browser: Any, address: str, **context: Any) -> Any:
    """A page of the table in a browser of its own (French), open at ``address`` and
    live (its socket connected)."""
    page = browser.new_context(locale="fr-FR", **context).new_page()
    page.set_default_timeout(WAIT)
    page.goto(address)
    page.wait_for_selector("#live:not([hidden])")
    return page


def join(browser: Any, server: dict[str, Any], name: str, character: str, **context: Any) -> Any:
    page = browser.new_context(locale="fr-FR", **context).new_page()
    page.set_default_timeout(WAIT)
    page.goto(server["invite"])
    page.fill("input[name=name]", name)
    page.click("button[type=submit]")
    page.wait_for_selector("#log", state="attached")
    form = page.locator(".create details[open] form")
    form.locator("input[name=name]").fill(character)
    for trait, value in (("Force", "3"), ("Dextérité", "4"), ("Constitution", "3")):
        form.locator(f"input[name='{trait}']").fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("form.roll")
    page.wait_for_selector("#live:not([hidden])")
    return page


def test_three_browsers_play_together(browser: Any, server: dict[str, Any], tmp_path: Path) -> None:
    from playwright.sync_api import expect

    keep = os.environ.get("MENEUR_SCREENSHOTS", "") in ("1", "true", "yes")
    shots = DOCS_IMAGES if keep else tmp_path

    dialogs: list[str] = []
    gm = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900}).new_page()
    gm.set_default_timeout(WAIT)
    gm.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    gm.goto(server["gm"])
    assert gm.input_value("#invite").startswith(server["root"] + "/t/")
    axe_check(gm, "the GM's first page (no character yet)")

    # a newcomer's first minute: create a Tunnels character, roll a test, read the verdict
    started = time.monotonic()
    create = gm.locator(".create details[open] form")
    create.locator("input[name=name]").fill("Garde")
    create.locator("button[type=submit]").click()
    gm.wait_for_selector("form.quick[data-character='Garde']")  # the GM's one-tap row
    gm.click("form.quick[data-character='Garde'] button.tap >> nth=0")
    gm.wait_for_selector("#log li.entry >> text=Garde")
    assert gm.locator("#log li.entry .verdict strong").first.inner_text()
    assert time.monotonic() - started < 60

    gm.click("text=Ouvrir une séance (engager les dés)")
    gm.wait_for_selector("#commitment")

    alice = join(browser, server, "Alice", "Brindille", viewport={"width": 1280, "height": 900})
    bob = join(
        browser,
        server,
        "Bob",
        "<script>alert(1)</script>",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    bob.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    gm.goto(server["gm"])
    gm.wait_for_selector("#live:not([hidden])")

    # the odds beside the button: an exact percentage, updated when the threshold changes
    chance = alice.locator(".chance[data-trait='Dextérité']")
    before = chance.inner_text()
    ask_threshold(alice, "3")
    expect(chance).not_to_have_text(before)
    assert chance.inner_text().endswith("%")
    # a threshold the rule refuses (T-3: at least 1): « – » and why, not « 0,0 % »
    note = alice.locator("section:has(form.roll) .odds-note")
    expect(note).to_be_hidden()
    ask_threshold(alice, "0")
    expect(chance).to_have_text("–")
    expect(note).to_have_text("Un seuil vaut au moins 1, pas 0.")
    ask_threshold(alice, "3")
    expect(chance).to_have_text(re.compile(r"%$"))
    expect(note).to_be_hidden()
    # a value no roll takes (the API refuses it, 400): « – » and the refusal
    ask_threshold(alice, "1e5")
    expect(chance).to_have_text("–")
    expect(note).to_have_text("Valeur invalide pour Seuil : un nombre entier est attendu.")
    # chances the worker gives up (past its budget): « – » and why, not the last ones kept.
    # Brindille's pools answer within any budget on a loaded machine, so the worker's
    # answer is made the one past the budget (the budget itself: web/test_web_odds.py)
    from meneur.web.odds import SLOW

    odds = server["app"].state.web.odds
    odds.run = lambda *args, **kwargs: SLOW
    try:
        ask_threshold(alice, "5")
        expect(chance).to_have_text("–")
        expect(note).to_contain_text("demandent plus de calcul que la table n'en attend")
    finally:
        del odds.run  # the class's own again

    # Alice rolls in public: Bob and the GM see it live, dice and verdict included
    alice.check("form.roll input[value='Dextérité']")
    alice.click("form.roll button.primary")
    for page in (alice, bob, gm):
        page.wait_for_selector("#log li.entry >> text=Brindille")
        entry = page.locator("#log li.entry").first
        assert entry.locator(".die").count() >= 4
        assert entry.locator(".verdict strong").inner_text()

    # Bob's GM-only roll: the GM sees it, Alice never does
    bob.select_option("form.roll select[name=mode]", "gmroll")
    bob.click("form.roll button.primary")
    gm.wait_for_selector("#log li.mode-gmroll")
    bob.wait_for_selector("#log li.mode-gmroll")
    bob.select_option("form.roll select[name=mode]", "public")
    bob.click("form.roll button.primary")
    expect(alice.locator("#log li.entry")).to_have_count(3)  # Garde's, hers, Bob's public
    assert alice.locator("#log li.mode-gmroll").count() == 0
    alice.reload()
    assert alice.locator("#log li.mode-gmroll").count() == 0
    assert alice.locator("#log li.entry").count() == 3

    # the GM ends the game session: the seed shows on every page, live
    gm.click("text=Finir la séance et révéler la graine")
    gm.wait_for_selector("#seed")
    alice.wait_for_selector("#seed")
    assert alice.inner_text("#seed") == gm.inner_text("#seed")

    # Alice chooses her explosions batch by batch (typed faces: 4 4 2 grants a die)
    alice.check("form.roll input[value='Force']")
    alice.select_option("form.roll select[name=explode]", "ask")
    alice.fill("form.roll input[name=faces]", "4 4 2")
    alice.click("form.roll button.primary")
    alice.wait_for_selector("#pending")
    assert alice.locator("#pending .die").count() == 3
    axe_check(alice, "a roll waiting for its roller's choice")
    alice.fill("#pending input[name=faces]", "6")
    alice.click("#pending button[value=explode]")
    bob.wait_for_selector("#log li.entry >> text=Brindille >> nth=1")
    assert alice.locator("#pending").count() == 0

    # markup in a name is text, everywhere; no script ever ran
    for page in (gm, alice, bob):
        assert page.locator("text=<script>alert(1)</script>").count() >= 1
    assert dialogs == []

    # Bob cannot act for Brindille: no form for her, and a forged request is refused
    assert bob.locator("form.roll[data-character='Brindille']").count() == 0
    token_path = bob.url.split("/t/", 1)[1].split("?")[0]
    forged = bob.request.post(
        f"{server['root']}/api/t/{token_path}/roll",
        data={"character": "Brindille", "trait": "Force"},
        headers={"content-type": "application/json"},
    )
    assert forged.status == 400
    rolls = server["store"].rolls()
    assert [r["who"] for r in rolls].count("Brindille") == 2

    # the combat tracker: the GM adds two combatants and plays an exchange (T-10);
    # the players' trackers follow live
    for name, health in (("Brindille", ""), ("Orque", "3")):
        gm.fill("#combat input[name=name]", name)
        gm.fill("#combat input[name=health]", health)
        gm.click("#combat form.wrap:not(.exchange) button[type=submit]")
        gm.wait_for_selector(f"#combat .cname >> text={name}")
    gm.click("#combat form.exchange button[type=submit]")
    gm.wait_for_selector("#log li.entry >> text=Orque")
    expect(alice.locator("#combat .cname")).to_have_count(2)
    expect(alice.locator("#combat .last").first).not_to_be_empty()
    gm.locator("#combat").screenshot(path=str(shots / "web_combat.png"))

    # a phone-sized screen: no sideways scrolling, the roll button reachable
    width = bob.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    button = bob.locator("form.roll button.primary").bounding_box()
    assert button is not None and button["width"] > 200 and button["x"] >= 0
    shots.mkdir(parents=True, exist_ok=True)
    desk = gm.context.new_page()  # the GM's page from the top, as it opens
    desk.goto(server["gm"])
    desk.wait_for_selector("#live:not([hidden])")
    desk.screenshot(path=str(shots / "web_desktop.png"))
    phone = bob.context.new_page()  # the page as a player opening it sees it (top)
    phone.goto(bob.url)
    phone.wait_for_selector("#live:not([hidden])")
    phone.screenshot(path=str(shots / "web_phone.png"))
    for name in ("web_desktop.png", "web_phone.png", "web_combat.png"):
        assert (shots / name).stat().st_size > 10_000  # a page was drawn, not a blank
    # axe-core, with a fight on, the seed revealed and a seat or two: nothing serious
    for page, where in ((desk, "the GM's page in play"), (phone, "a player's phone in play")):
        axe_check(page, where)
    for page in (gm, alice, bob):
        page.context.close()


def test_a_namesake_cannot_take_over_a_character(browser: Any, server: dict[str, Any]) -> None:
    """Issue 16: Eve joins as « Bastien » and asks for Pip, Bastien's character: refused."""
    bastien = join(browser, server, "Bastien", "Pip")
    eve = browser.new_context(locale="fr-FR").new_page()
    eve.set_default_timeout(WAIT)
    eve.goto(server["invite"])
    eve.fill("input[name=name]", "Bastien")
    eve.click("button[type=submit]")
    eve.wait_for_selector("#log", state="attached")
    assert eve.locator("select[name=character] option", has_text="Pip").count() == 0
    csrf = eve.locator("input[name=csrf]").first.input_value()
    seat = eve.url.split("?")[0]
    picked = eve.request.post(
        f"{seat}/character", form={"csrf": csrf, "action": "pick", "character": "Pip"}
    )
    assert picked.status == 400
    token_path = seat.split("/t/", 1)[1]
    rolled = eve.request.post(
        f"{server['root']}/api/t/{token_path}/roll",
        data={"character": "Pip", "trait": "Force"},
        headers={"content-type": "application/json"},
    )
    assert rolled.status == 400
    eve.reload()
    assert eve.locator("form.roll[data-character='Pip']").count() == 0
    bastien.click("form.roll button.primary")  # the real Bastien still rolls
    bastien.wait_for_selector("#log li.entry >> text=Pip")
    for page in (bastien, eve):
        page.context.close()


def test_a_blind_batch_by_batch_roll_shows_the_roller_nothing(
    browser: Any, server: dict[str, Any]
) -> None:
    """Issue 16: « je choisis à chaque lot » in a blind roll showed the dice and the count."""
    player = join(browser, server, "Ariane", "Nox")
    form = "form.roll[data-character='Nox']"
    player.check(f"{form} input[value='Force']")
    player.select_option(f"{form} select[name=explode]", "ask")
    player.select_option(f"{form} select[name=mode]", "blindroll")
    player.fill(f"{form} input[name=threshold]", "3")
    player.fill(f"{form} input[name=faces]", "4 4 2 5")
    assert player.locator(f"{form} .blind-note").is_visible()
    player.click(f"{form} button.primary")
    entry = player.locator("#log li.mode-blindroll >> text=Nox")
    entry.wait_for()
    player.reload()
    player.wait_for_selector("#log li.mode-blindroll")
    assert player.locator("#pending").count() == 0
    assert player.locator("#log li.mode-blindroll .die").count() == 0
    line = player.locator("#log li.mode-blindroll")
    assert line.locator(".dice").count() == 0
    verdict = line.locator(".verdict").inner_text()
    assert "aveugle" in verdict and not any(digit in verdict for digit in "0123456789")
    [logged] = [r for r in server["store"].rolls() if r["who"] == "Nox"]
    assert logged["faces"] == [[4, 4, 2, 5]]  # the GM's log holds them all
    player.context.close()


def test_a_player_edits_their_Endurance_and_the_GM_sees_it_live(
    browser: Any, server: dict[str, Any]
) -> None:
    """Issue 17: Clara lowers Ronce's Endurance in the sheet's edit form; the GM's page,
    open meanwhile, shows the new value and the log entry (who, before → after) live."""
    from playwright.sync_api import expect

    clara = join(browser, server, "Clara", "Ronce")
    gm = live_page(browser, server["gm"])
    before = server["store"].character("Ronce").sheet["endurance"]
    after = before["current"] - 1
    card = clara.locator("section.card.sheet", has=clara.locator("h2", has_text="Ronce"))
    card.locator("details.edit-sheet summary").click()
    card.locator("input[name='endurance/current']").fill(str(after))
    card.locator("form.edit button[type=submit]").click()
    clara.wait_for_selector("#log li.entry >> text=fiche modifiée")
    shown = f"Endurance {after}/{before['max']}"
    theirs = gm.locator("section.card.sheet", has=gm.locator("h2", has_text="Ronce"))
    expect(theirs.locator(".stats")).to_contain_text(shown)
    entry = gm.locator("#log li.entry", has_text="fiche modifiée").first
    expect(entry).to_contain_text(f"Endurance {before['current']} → {after}")
    expect(entry).to_contain_text("modifié par Clara")
    assert server["store"].character("Ronce").sheet["endurance"]["current"] == after
    for page in (clara, gm):
        page.context.close()


def test_a_sheet_changed_live_never_steals_the_gms_press_on_a_one_tap_roll(
    browser: Any, server: dict[str, Any]
) -> None:
    """A sheet changes (here a player's edit) while the GM's finger is down on a one-tap
    roll of that character: the card's values and chances are brought up to date in place,
    so the button pressed is still the button released, and the roll is made."""
    from playwright.sync_api import expect

    ortie = join(browser, server, "Odile", "Ortie")
    gm = live_page(browser, server["gm"])
    tap = gm.locator("form.quick[data-character='Ortie'] button.tap").first
    tap.scroll_into_view_if_needed()
    box = tap.bounding_box()
    assert box
    gm.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    gm.mouse.down()
    before = server["store"].character("Ortie").sheet["endurance"]
    card = ortie.locator("section.card.sheet", has=ortie.locator("h2", has_text="Ortie"))
    card.locator("details.edit-sheet summary").click()
    card.locator("input[name='endurance/current']").fill(str(before["current"] - 1))
    card.locator("form.edit button[type=submit]").click()
    theirs = gm.locator("section.card.sheet", has=gm.locator("h2", has_text="Ortie"))
    # the stats and the taps are brought up to date in one go: once these show, so do those
    expect(theirs.locator(".stats")).to_contain_text(f"Endurance {before['current'] - 1}/")
    gm.mouse.up()
    expect(gm.locator("#log li.entry:has(.die)", has_text="Ortie")).to_have_count(1)
    assert any(e["kind"] == "test" and e["who"] == "Ortie" for e in server["store"].rolls())
    for page in (ortie, gm):
        page.context.close()


def test_a_removed_player_is_told_their_seat_is_gone(browser: Any, server: dict[str, Any]) -> None:
    """The GM removes Zélie's seat: her open page, whose socket then closes for good,
    says so (and how to come back) instead of reconnecting in silence forever."""
    from playwright.sync_api import expect

    zelie = join(browser, server, "Zélie", "Bruyère")
    gone = zelie.locator("#gone")
    assert not gone.is_visible()
    gm = browser.new_context(locale="fr-FR").new_page()
    gm.set_default_timeout(WAIT)
    gm.goto(server["gm"])
    kick = gm.locator("li[data-seat]", has_text="Zélie").locator("button[value=kick]")
    with gm.expect_navigation():
        kick.evaluate("button => button.click()")  # in the GM's folded seats panel
    expect(gone).to_be_visible()
    expect(gone).to_contain_text("a quitté la table")
    for page in (zelie, gm):
        page.context.close()
