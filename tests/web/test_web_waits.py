"""Rolls waiting for their player's choice (Tunnels batch by batch, T-6; Obscur's
Dépassement after the roll, O-10) when the table changes between the roll and the choice."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from meneur.web.state import WebSettings
from meneur.web.tables import Tables
from meneur.web.waiting import waiting_kinds
from web.test_web_log_lines import entry_html_of
from web.web_helpers import TUNNELS, Table, make_table

FETCH = {"x-requested-with": "fetch"}


def waiting_push(table: Table, faces: str = "") -> tuple[str, str]:
    """A player's Obscur roll waiting for its Dépassement (O-10): (their link, csrf)."""
    player = table.join("Alice")
    table.create(player, "obscur", "Isaure")
    csrf = table.csrf(player)
    form = {
        "csrf": csrf,
        "character": "Isaure",
        "trait": "Agilité",
        "after": "true",
        "difficulty": "2",
    }
    started = table.client.post(f"{player}/roll", data={**form, "faces": faces}, headers=FETCH)
    assert started.json() == {"pending": True}, started.text
    assert 'id="pushing"' in table.client.get(player).text
    return player, csrf


def waiting_batch(table: Table) -> tuple[str, str, dict[str, str]]:
    """A player's Tunnels test waiting for the choice of its batch 4 4 2 (T-6): (their
    link, csrf, the roll form)."""
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    started = table.client.post(f"{player}/roll", data={**form, "faces": "4 4 2"}, headers=FETCH)
    assert started.json() == {"pending": True}
    return player, csrf, form


def test_O10_a_push_the_log_can_no_longer_take_is_dropped_not_left_waiting(
    table: Table,
) -> None:
    """O-10 after the roll: the GM opened a game session between the roll (secure dice)
    and the player's choice. The log refuses dice drawn outside the session, so no plan
    could ever be logged; yet the roll was put back waiting, its card offering plans
    that each failed again, until it expired ten minutes later."""
    player, csrf = waiting_push(table)
    sheet = table.store.character("Isaure").sheet
    opened = table.client.post(f"{table.gm}/session/start", data={"csrf": table.csrf(table.gm)})
    assert opened.status_code in (200, 303)
    refused = table.client.post(
        f"{player}/roll/push", data={"csrf": csrf, "plan": "0"}, headers=FETCH
    )
    assert refused.status_code == 400 and "séance" in refused.json()["error"], refused.text
    assert 'id="pushing"' not in table.client.get(player).text  # no card left to click
    again = table.client.post(
        f"{player}/roll/push", data={"csrf": csrf, "plan": "0"}, headers=FETCH
    )
    assert again.status_code == 400 and "attend" in again.json()["error"], again.text
    assert table.store.rolls() == [] and table.store.character("Isaure").sheet == sheet


def test_O10_a_push_whose_character_was_deleted_is_dropped(table: Table) -> None:
    """The character was deleted (``meneur char rm``) while its roll waited: the choice
    is refused in one line, and the roll goes with it instead of waiting on."""
    player, csrf = waiting_push(table, "1 5")
    table.store.delete_character("Isaure", campaign=table.info.campaign)
    refused = table.client.post(
        f"{player}/roll/push", data={"csrf": csrf, "plan": "0"}, headers=FETCH
    )
    assert refused.status_code == 400 and "Isaure" in refused.json()["error"], refused.text
    again = table.client.post(
        f"{player}/roll/push", data={"csrf": csrf, "plan": "0"}, headers=FETCH
    )
    assert again.status_code == 400 and "attend" in again.json()["error"], again.text
    assert table.store.rolls() == []


def test_O10_a_plan_the_sheet_can_no_longer_pay_leaves_the_roll_waiting(table: Table) -> None:
    """The points were spent elsewhere between the roll and the choice: the plan is
    refused on the sheet as it now is (O-10), and the roll waits for a cheaper one."""
    player, csrf = waiting_push(table, "1 5")
    emptied = {
        "csrf": csrf,
        "character": "Isaure",
        "ressources/vecu/current": "0",
        "ressources/volonte/current": "0",
        "ressources/moral/current": "0",
    }
    assert table.client.post(f"{player}/sheet", data=emptied, headers=FETCH).status_code == 200
    dear = table.client.post(f"{player}/roll/push", data={"csrf": csrf, "plan": "0"}, headers=FETCH)
    assert dear.status_code == 400 and "points" in dear.json()["error"], dear.text
    page = table.client.get(player).text
    free = page.count('name="plan"') - 1  # the last plan shown: no Dépassement, 0 points
    chosen = table.client.post(
        f"{player}/roll/push", data={"csrf": csrf, "plan": str(free)}, headers=FETCH
    )
    assert chosen.status_code == 200, chosen.text
    assert [entry["kind"] for entry in table.store.rolls()] == ["edit", "test"]


def test_a_refused_choice_reads_in_its_readers_language(table: Table) -> None:
    """A refusal worded on the writer thread (a plural: « 1 die not used ») came in the
    server's language, French here, to a reader of English: the thread did not carry
    the request's language. T-6: a batch's choice, then a plain roll."""
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    english = {**FETCH, "accept-language": "en"}
    plain = {**form, "explode": "never", "faces": "1 2 3 4"}
    rolled = table.client.post(f"{player}/roll", data=plain, headers=english)
    assert rolled.json() == {"error": "Too many dice typed: 1 die not used (4)."}
    started = table.client.post(f"{player}/roll", data={**form, "faces": "4 4 2"}, headers=FETCH)
    assert started.json() == {"pending": True}
    choice = {"csrf": csrf, "choice": "explode", "faces": "5 6"}
    refused = table.client.post(f"{player}/roll/next", data=choice, headers=english)
    assert refused.json() == {"error": "Too many dice typed: 1 die not used (6)."}
    french = table.client.post(f"{player}/roll/next", data=choice, headers=FETCH)
    assert french.json() == {"error": "Trop de dés saisis : 1 dé non utilisé (6)."}
    assert table.store.rolls() == []


def test_T6_faces_typed_with_stop_are_refused_not_lost(table: Table) -> None:
    """T-6: the physical dice typed, then « Stop here » clicked: the faces were dropped
    without a word and the roll logged without them. As a Dépassement that rerolls no
    die (O-10), they are refused, and the roll waits for the player's choice."""
    player, csrf, _form = waiting_batch(table)
    typed = {"csrf": csrf, "choice": "stop", "faces": "5"}
    refused = table.client.post(f"{player}/roll/next", data=typed, headers=FETCH)
    assert refused.json() == {"error": "Trop de dés saisis : 1 dé non utilisé (5)."}
    assert table.store.rolls() == []
    explode = {"csrf": csrf, "choice": "explode", "faces": "5"}
    chosen = table.client.post(f"{player}/roll/next", data=explode, headers=FETCH)
    assert set(chosen.json()) == {"id"}, chosen.text
    [entry] = table.store.rolls()
    assert entry["faces"] == [[4, 4, 2, 5]] and entry["decisions"][1:] == ["explode"]


def test_a_roll_that_waited_shows_its_verdict_in_the_combat_tracker(table: Table) -> None:
    """A combatant's public roll shows its verdict in the tracker; one that waited for
    its player's choice (T-6 batch by batch, O-10 after the roll) never did, whether it
    ended at the choice or at once (no batch to choose)."""
    from meneur.web.tables import Tables

    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "obscur", "Isaure")
    csrf = table.csrf(table.gm)
    for name in ("Brindille", "Isaure"):
        added = table.client.post(
            f"{table.gm}/combat", data={"csrf": csrf, "action": "add", "name": name}
        )
        assert added.status_code in (200, 303)

    def last() -> dict[str, str]:
        combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
        return {str(c["name"]): str(c.get("last", "")) for c in combat["combatants"]}

    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    at_once = table.client.post(f"{table.gm}/roll", data={**form, "faces": "1 2 3"}, headers=FETCH)
    assert set(at_once.json()) == {"id"} and last()["Brindille"] and not last()["Isaure"]
    table.client.post(f"{table.gm}/roll", data={**form, "faces": "4 4 5"}, headers=FETCH)
    before = last()["Brindille"]
    table.client.post(f"{table.gm}/roll/next", data={"csrf": csrf, "choice": "stop"})
    assert last()["Brindille"] != before  # failure (1 2 3), then success (4 4 5)
    push = {"csrf": csrf, "character": "Isaure", "trait": "Agilité", "after": "true"}
    table.client.post(f"{table.gm}/roll", data={**push, "faces": "1 5"}, headers=FETCH)
    table.client.post(f"{table.gm}/roll/push", data={"csrf": csrf, "plan": "0"})
    assert last()["Isaure"] and len(table.store.rolls()) == 3


def test_T6_a_waiting_roll_is_logged_when_its_seat_rolls_again(table: Table) -> None:
    """T-6 batch by batch: a player who disliked the batch shown (4 4 2) rolled the test
    again; the waiting roll was replaced, its dice never logged: a roll could be tried
    until it pleased. Now the seat's next roll closes it as it stands (no explosion),
    logged first, said in the log; the new roll follows."""
    player, csrf, form = waiting_batch(table)
    again = table.client.post(f"{player}/roll", data={**form, "faces": "5 6 1"}, headers=FETCH)
    assert set(again.json()) == {"id"}, again.text
    closed, rolled = table.store.rolls()
    assert closed["faces"] == [[4, 4, 2]] and closed["decisions"][1:] == [
        "stop",
        {"closed": "new roll"},
    ]
    assert closed["outcome"]["successes"] == 2 and rolled["faces"] == [[5, 6, 1]]
    assert 'id="pending"' not in table.client.get(player).text
    assert "clos sans choix : son joueur a fait un autre jet" in table.client.get(table.gm).text
    late = table.client.post(f"{player}/roll/next", data={"csrf": csrf, "choice": "explode"})
    assert late.status_code == 400 and len(table.store.rolls()) == 2


def test_T6_only_the_closed_roll_says_it_was_closed_unchosen(table: Table) -> None:
    """T-6 batch by batch: of the roll closed by its seat's next roll (4 4 2) and that next
    roll (5 6 1), only the first reads « clos sans choix » in the log."""
    player, _csrf, form = waiting_batch(table)
    table.client.post(f"{player}/roll", data={**form, "faces": "5 6 1"}, headers=FETCH)
    note = "clos sans choix : son joueur a fait un autre jet"
    lines = entry_html_of(table.client.get(table.gm).text)
    faces = {
        tuple(int(f) for f in re.findall(r'class="die[^"]*">(\d+)<', line)): note in line
        for line in lines
    }
    assert faces == {(4, 4, 2): True, (5, 6, 1): False}


def test_O10_a_waiting_push_is_logged_without_depassement_when_its_seat_rolls_again(
    table: Table,
) -> None:
    """O-10 after the roll: the faces 1 5 shown, the player rolled again (a plain roll)
    instead of choosing: the first roll is logged with no Dépassement, nothing paid for
    it, marked closed; then the new one."""
    player, csrf = waiting_push(table, "1 5")
    sheet = table.store.character("Isaure").sheet
    form = {"csrf": csrf, "character": "Isaure", "trait": "Agilité", "difficulty": "2"}
    again = table.client.post(f"{player}/roll", data={**form, "faces": "6 6"}, headers=FETCH)
    assert set(again.json()) == {"id"}, again.text
    closed, rolled = [entry for entry in table.store.rolls() if entry["kind"] == "test"]
    assert closed["faces"] == [[1, 5]] and rolled["faces"] == [[6, 6]]
    assert closed["decisions"][1]["push"] == {
        "extra_dice": 0,
        "reroll_up_to": 0,
        "adjust_tier": 0,
        "margin_bonus": 0,
        "cost": 0,
    }
    assert closed["decisions"][2:] == [{"closed": "new roll"}]
    assert table.store.character("Isaure").sheet["ressources"] == sheet["ressources"]
    assert 'id="pushing"' not in table.client.get(player).text


def test_a_roll_waits_for_its_choice_however_long(table: Table) -> None:
    """A waiting roll was dropped, nothing logged, after ten minutes: a player could let
    a batch they disliked expire and roll again. It now waits until chosen (or closed by
    the seat's next roll)."""
    from sqlalchemy import text

    player, csrf, _form = waiting_batch(table)
    with table.store.engine.begin() as connection:
        connection.execute(text("UPDATE web_waits SET stamp = stamp - 86400"))
    assert 'id="pending"' in table.client.get(player).text
    chosen = table.client.post(f"{player}/roll/next", data={"csrf": csrf, "choice": "stop"})
    assert chosen.status_code in (200, 303), chosen.text
    [entry] = table.store.rolls()
    assert entry["faces"] == [[4, 4, 2]] and entry["decisions"][1:] == ["stop"]


def test_T6_a_roll_through_the_json_api_closes_the_waiting_roll_too(table: Table) -> None:
    """The same test rolled again through the JSON API (a program, a second tab's
    script) while a batch waited: the waiting roll is logged first, as from the page."""
    player, _csrf, _form = waiting_batch(table)
    body = {"character": "Brindille", "trait": "Force", "faces": "6 5 3"}
    answer = table.client.post(f"/api{player}/roll", json=body)
    assert answer.status_code == 200, answer.text
    closed, rolled = table.store.rolls()
    assert closed["faces"] == [[4, 4, 2]] and closed["decisions"][-1] == {"closed": "new roll"}
    assert rolled["faces"][0][:3] == [6, 5, 3]


def test_choices_are_rolls_under_the_same_rate_limit(tmp_path: Path) -> None:
    """A choice draws dice (an explosion) and writes the log: past the seat's burst of
    rolls it is refused (429) like a roll, where a seat could send choices unbounded."""
    for table in make_table(tmp_path, WebSettings(roll_rate=0.01, roll_burst=2)):
        player, csrf, _form = waiting_batch(table)  # the start takes one of the two
        stop = {"csrf": csrf, "choice": "stop"}
        codes = [
            table.client.post(f"{player}/roll/next", data=stop, headers=FETCH).status_code
            for _ in range(2)
        ]
        assert codes == [200, 429]
        assert len(table.store.rolls()) == 1


def _seat_and_waits(table: Table, player: str) -> tuple[Any, Any]:
    """The player's seat and the waits of Tunnels batch by batch (``web/waiting.py``)."""
    table_id, token = player.split("/")[2:4]
    seat = Tables(table.store).seat(int(table_id), token)
    return seat, table.client.app.state.web.waits["next"]  # type: ignore[attr-defined]


def test_a_waiting_roll_this_version_cannot_read_is_dropped(table: Table) -> None:
    """``web/waiting.py``: a row another meneur version wrote, that this one cannot read
    back, is « dropped as expired »: no roll waits, and the row is gone from the database
    (no kind of wait left for the seat)."""
    player, _csrf, _form = waiting_batch(table)
    seat, waits = _seat_and_waits(table, player)
    assert waiting_kinds(table.store, seat) == {"batches"}
    waits._put(seat, b"not a pickle", 0.0)
    assert waits.of(seat) is None
    assert waiting_kinds(table.store, seat) == set()


def test_a_held_roll_replaces_the_one_waiting_for_its_seat(table: Table) -> None:
    """``SeatWaits.hold``: « it replaces any earlier one » (two rolls started at once by
    one seat keep the last): the roll held second is the one that waits."""
    player, _csrf, _form = waiting_batch(table)
    seat, waits = _seat_and_waits(table, player)
    first = waits.of(seat)
    second = copy.deepcopy(first)
    second.character = "Gros Jean"
    waits.hold(seat, second)
    assert waits.of(seat).character == "Gros Jean"


def test_O10_a_roll_form_without_the_after_box_is_rolled_at_once(table: Table) -> None:
    """O-10: spending after the roll is the roller's choice (the « after » box): a roll
    form that leaves it out is rolled and logged at once, nothing waits."""
    player = table.join("Alice")
    table.create(player, "obscur", "Isaure")
    form = {"csrf": table.csrf(player), "character": "Isaure", "trait": "Agilité"}
    done = table.client.post(f"{player}/roll", data=form, headers=FETCH)
    assert done.status_code == 200 and "pending" not in done.json(), done.text
    assert len(table.store.rolls()) == 1
    assert 'id="pushing"' not in table.client.get(player).text
