"""State every server process sees (issue 16, point 7): waits, rate limits and seats.

Two apps, each with its own store, seats and ``LISTEN/NOTIFY`` connections, share one
PostgreSQL database as two ``meneur serve`` processes would (the test with two real
processes is ``test_web_two_serves.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from meneur.campaign.store import Store
from meneur.errors import UsageError
from meneur.web.app import create_app
from meneur.web.limits import Limits
from meneur.web.state import WebSettings
from meneur.web.tables import Tables
from web.web_helpers import PG_SKIP, Table, postgres_url

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}
FETCH = {"x-requested-with": "fetch"}


@pytest.fixture
def two() -> Iterator[tuple[Table, Table]]:
    url = postgres_url()
    if url is None:
        pytest.skip(PG_SKIP)
    settings = WebSettings(roll_burst=1000, roll_rate=1000)
    first, second = Store(url), Store(url)
    info = Tables(first).default()
    with (
        TestClient(create_app(first, settings=settings)) as one,
        TestClient(create_app(second, settings=settings)) as other,
    ):
        yield Table(one, first, info), Table(other, second, info)
    first.close()
    second.close()


def test_T5_a_batch_started_on_one_server_is_chosen_on_the_other(
    two: tuple[Table, Table],
) -> None:
    """T-5 batch by batch: the roll waits in the database, not in the process that rolled."""
    one, other = two
    alice = one.join("Alice")
    one.create(alice, "tunnels", "Brindille", **TUNNELS)
    form = {
        "csrf": one.csrf(alice),
        "character": "Brindille",
        "trait": "Force",
        "explode": "ask",
        "faces": "4 4 2",
    }
    assert one.client.post(f"{alice}/roll", data=form, headers=FETCH).json() == {"pending": True}
    assert 'id="pending"' in other.client.get(alice).text  # the other process sees it
    choice = {"csrf": form["csrf"], "choice": "explode", "faces": "9"}
    refused = other.client.post(f"{alice}/roll/next", data=choice, headers=FETCH)
    assert refused.status_code == 400  # bad faces: the roll still waits, as it was
    assert 'id="pending"' in one.client.get(alice).text
    done = other.client.post(f"{alice}/roll/next", data={**choice, "faces": "1"}, headers=FETCH)
    assert done.status_code == 200, done.text
    [entry] = one.store.rolls()
    assert entry["faces"] == [[4, 4, 2, 1]] and "explode" in entry["decisions"]
    assert 'id="pending"' not in one.client.get(alice).text


def test_a_waiting_roll_is_taken_by_one_choice_only(two: tuple[Table, Table]) -> None:
    """Two choices at once (any processes): the first takes the roll, the other finds none."""
    one, other = two
    alice = one.join("Alice")
    one.create(alice, "tunnels", "Brindille", **TUNNELS)
    form = {"csrf": one.csrf(alice), "character": "Brindille", "trait": "Force"}
    one.client.post(f"{alice}/roll", data={**form, "explode": "ask", "faces": "5 5 5"})
    table_id, token = alice.split("/")[2:4]
    seat = Tables(one.store).seat(int(table_id), token)
    assert seat is not None
    first, second = one.client.app.state.web, other.client.app.state.web  # type: ignore[attr-defined]
    with first.waits["next"].choosing(seat) as pending:
        assert pending.extra == 2
        assert second.waits["next"].of(seat) is None
        with pytest.raises(UsageError), second.waits["next"].choosing(seat):
            pass
    assert first.waits["next"].of(seat) is None and one.store.rolls() == []


def _waiting(table: Table, alice: str, faces: str) -> Any:
    """A T-5 roll of Alice's started with ``faces``, left waiting: its seat and the roll."""
    form = {"csrf": table.csrf(alice), "character": "Brindille", "trait": "Force"}
    answer = table.client.post(
        f"{alice}/roll", data={**form, "explode": "ask", "faces": faces}, headers=FETCH
    )
    assert answer.json() == {"pending": True}, answer.text
    table_id, token = alice.split("/")[2:4]
    seat = Tables(table.store).seat(int(table_id), token)
    waits = table.client.app.state.web.waits["next"]  # type: ignore[attr-defined]
    return seat, waits, waits.of(seat)


def test_two_waiting_rolls_started_at_once_by_one_seat_keep_the_last(
    two: tuple[Table, Table],
) -> None:
    """A double click (or two tabs on two servers) starts two waiting rolls of one seat
    at once: the second replaces the first, as on SQLite. Each was a delete then an
    insert: the second insert waited for the first's commit and was refused, « the
    database refused the change: this entry already exists » (14 double starts in 30 on
    two ``meneur serve``). Here the second starts while the first is not yet committed."""
    from concurrent.futures import ThreadPoolExecutor

    one, other = two
    alice = one.join("Alice")
    one.create(alice, "tunnels", "Brindille", **TUNNELS)
    seat, waits, first = _waiting(one, alice, "4 4 2")
    _seat, other_waits, second = _waiting(other, alice, "5 5 5")
    with one.store.engine.connect() as holding, ThreadPoolExecutor(1) as pool:
        holding.execute(text("DELETE FROM web_waits"))  # the first start, not committed
        holding.execute(
            text(
                "INSERT INTO web_waits (table_id, seat, kind, data, stamp)"
                " VALUES (:table, :seat, 'batches', :data, :stamp)"
            ),
            {"table": seat.table.id, "seat": seat.key, "data": b"first", "stamp": time.time()},
        )
        started = pool.submit(other_waits.hold, seat, second)  # the second start
        deadline = time.monotonic() + 10
        with one.store.engine.connect() as watching:
            while time.monotonic() < deadline:  # until it waits for the first's row
                waiting = watching.scalar(
                    text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND datname = current_database()"
                    )
                )
                watching.rollback()
                if waiting:
                    break
                time.sleep(0.01)
        assert waiting, "the second start never waited for the first"
        holding.commit()
        started.result()
    assert waits.of(seat).view() == second.view() != first.view()


def test_a_choice_refused_keeps_a_roll_started_meanwhile(table: Table) -> None:
    """A choice refused on its input puts its roll back, unless the seat started another
    one meanwhile (another tab): that one stays, and the player reads why the choice was
    refused, not « the database refused the change »."""
    one = table
    alice = one.join("Alice")
    one.create(alice, "tunnels", "Brindille", **TUNNELS)
    seat, waits, _first = _waiting(one, alice, "4 4 2")
    with pytest.raises(UsageError, match="bad faces"), waits.choosing(seat):
        _seat, _waits, newer = _waiting(one, alice, "5 5 5")
        raise UsageError("bad faces")
    assert waits.of(seat).view() == newer.view()


def test_rate_limits_count_once_over_two_processes(two: tuple[Table, Table]) -> None:
    """A bucket of 3 (no refill) gives 3 takes in all, whichever process takes them."""
    one, other = two
    limits = [Limits(one.store), Limits(other.store)]
    assert all(limit.shared for limit in limits)
    taken = [limits[i % 2].take("roll:test", 0.0, 3.0) for i in range(6)]
    assert taken == [True, True, True, False, False, False]
    assert limits[1].take("roll:another", 0.0, 3.0)  # another key, another bucket


def test_a_shared_bucket_below_one_token_never_allows_and_one_token_allows_once(
    two: tuple[Table, Table],
) -> None:
    """``web/limits.py``: a bucket that never holds a whole token refuses every take (none
    allowed then, not a first one on a new row); a bucket of exactly one allows one."""
    one, _other = two
    limits = Limits(one.store)
    assert [limits.take("roll:half", 0.0, 0.5) for _ in range(2)] == [False, False]
    assert [limits.take("roll:zero", 0.0, 0.0) for _ in range(2)] == [False, False]
    assert [limits.take("roll:one", 0.0, 1.0) for _ in range(2)] == [True, False]


def test_a_shared_bucket_key_is_cut_to_the_column_s_120_characters(
    two: tuple[Table, Table],
) -> None:
    """``web/limits.py`` keeps a key to the 120 characters ``web_limits.key`` holds: a
    longer key is counted (no database error), and keys that differ only past the 120th
    character share one bucket."""
    one, other = two
    first, second = Limits(one.store), Limits(other.store)
    long = "join:" + "x" * 115
    assert len(long) == 120
    assert first.take(long + "a", 0.0, 1.0) is True
    assert second.take(long + "b", 0.0, 1.0) is False  # the same bucket, now empty


def test_a_seat_deleted_by_hand_stops_on_every_server(two: tuple[Table, Table]) -> None:
    """The seats each process keeps are forgotten when the database says they changed,
    whoever changed them (here ``psql``-like SQL, outside meneur)."""
    one, other = two
    alice = one.join("Alice")
    for table in (one, other):
        assert table.client.get(alice).status_code == 200  # read, then kept
        assert table.client.get(alice).status_code == 200
    with one.store.engine.begin() as connection:
        connection.execute(text("DELETE FROM web_players WHERE name = 'Alice'"))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the notification lands within milliseconds
        if all(t.client.get(alice).status_code == 404 for t in (one, other)):
            break
        time.sleep(0.02)
    assert [t.client.get(alice).status_code for t in (one, other)] == [404, 404]


def test_two_tracker_changes_at_once_both_apply(two: tuple[Table, Table]) -> None:
    """Each change reads the tracker under the table's row lock: none is lost."""
    from concurrent.futures import ThreadPoolExecutor

    from meneur.web import combat as fights

    one, other = two

    def slow_add(name: str) -> Any:
        def change(combat: dict[str, Any]) -> dict[str, Any]:
            time.sleep(0.3)  # the other change starts meanwhile
            return fights.add(combat, name, 10, 5)

        return change

    with ThreadPoolExecutor(2) as pool:
        done = [
            pool.submit(Tables(table.store).update_combat, one.info.id, slow_add(name))
            for table, name in ((one, "Orque"), (other, "Gobelin"))
        ]
        for future in done:
            future.result()
    combat = Tables(one.store).get(one.info.id)
    assert combat is not None
    assert sorted(c["name"] for c in fights.normal(combat.combat)["combatants"]) == [
        "Gobelin",
        "Orque",
    ]


def test_a_process_that_stops_hearing_keeps_no_seat(two: tuple[Table, Table]) -> None:
    """Its listening connection lost, a process cannot hear that a seat changed: it keeps
    none and reads each from the database, so a removed seat still stops there."""
    one, other = two
    alice = one.join("Alice")
    state = other.client.app.state.web  # type: ignore[attr-defined]
    assert other.client.get(alice).status_code == 200 and state.tables.cached

    async def lose_listener() -> None:
        await state.fanout._connections[0].close()

    other.client.portal.call(lose_listener)  # type: ignore[union-attr]
    deadline = time.monotonic() + 10
    while state.tables.cached and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not state.tables.cached
    with one.store.engine.begin() as connection:
        connection.execute(text("DELETE FROM web_players WHERE name = 'Alice'"))
    assert other.client.get(alice).status_code == 404  # read from the database at once


def test_L11_a_help_given_on_another_server_goes_to_the_very_next_roll(
    two: tuple[Table, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """L-11: the help waits on the helped sheet; the next roll takes it even when the server
    it rolls on read that sheet a moment before the help was given on the other one."""
    from web.web_helpers import action_dice

    one, other = two
    one.create(one.gm, "legendes", "Ysolde", legendary="Épée", secondary="Chant")
    one.create(one.gm, "legendes", "Bran", legendary="Ruse")
    first = one.roll(one.gm, "Ysolde", "Épée")["entry"]  # the first server reads her sheet
    assert isinstance(first, dict) and first["params"]["bonus"] == 0
    action_dice(monkeypatch, 5, 3, 1, 1, 3)
    form = {"csrf": other.csrf(other.gm), "helper": "Bran", "helped": "Ysolde"}
    form["helped_trait"] = "Chant"  # Ruse 3 dice against Chant 2 dice
    helped = other.client.post(f"{other.gm}/action/legendes/help", data=form, headers=FETCH)
    assert helped.status_code == 200, helped.text  # 9 against 4: +2 on her next roll
    nxt = one.roll(one.gm, "Ysolde", "Épée")["entry"]
    assert isinstance(nxt, dict) and nxt["params"]["bonus"] == 2
    assert one.store.character("Ysolde").sheet["scene"].get("pending_help") in (None, [])


def test_T11_an_exchange_never_writes_over_a_sheet_changed_on_another_server(
    two: tuple[Table, Table],
) -> None:
    """T-10/T-11: an exchange writes the fighter's Endurance with its log entry; Mana
    spent meanwhile on the other server, on a sheet the first one had just read for a
    roll, stays spent (typed dice: 2 3 5 against 4 5 2, one success against two)."""
    one, other = two
    one.create(one.gm, "tunnels", "Brindille", **TUNNELS)  # Endurance 5
    csrf = one.csrf(one.gm)

    def exchange() -> None:
        data = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
        data.update(faces="2 3 5", vs_faces="4 5 2")
        answer = one.client.post(f"{one.gm}/combat", data=data)
        assert answer.status_code == 200, answer.text

    for name, health in (("Brindille", ""), ("Orque", "3")):
        data = {"csrf": csrf, "action": "add", "name": name, "health": health}
        assert one.client.post(f"{one.gm}/combat", data=data).status_code == 200
    exchange()
    one.roll(one.gm, "Brindille", "Force")  # the first server reads her sheet again
    spent = other.store.character("Brindille").sheet
    other.store.update_sheets({"Brindille": {**spent, "mana": {**spent["mana"], "current": 0}}})
    exchange()
    sheet = one.store.character("Brindille").sheet
    assert (sheet["mana"]["current"], sheet["endurance"]["current"]) == (0, 3)


def test_O10_a_depassement_after_the_roll_pays_from_the_sheet_as_it_is_now(
    two: tuple[Table, Table],
) -> None:
    """O-10: the plan is paid when chosen, from the points the sheet holds then: points
    spent meanwhile on the other server leave too few, and the plan is refused in words
    (the roll waits again) instead of paid from the sheet read when the roll began."""
    one, other = two
    player = one.join("Alice")
    one.create(player, "obscur", "Isaure")
    csrf = one.csrf(player)
    form = {"csrf": csrf, "character": "Isaure", "trait": "Agilité", "after": "true"}
    started = one.client.post(
        f"{player}/roll", data={**form, "difficulty": "2", "faces": "1 5"}, headers=FETCH
    )
    assert started.json() == {"pending": True}
    sheet = other.store.character("Isaure").sheet
    points = sheet["ressources"]
    spent = {
        **points,
        "vecu": 0,
        "volonte": {**points["volonte"], "current": 0},
        "moral": {**points["moral"], "current": 0},
    }
    other.store.update_sheets({"Isaure": {**sheet, "ressources": spent}})  # as the CLI would
    chosen = one.client.post(f"{player}/roll/push", data={"csrf": csrf, "plan": "0"})
    assert chosen.status_code == 400 and "point" in chosen.text.lower()
    assert one.store.character("Isaure").sheet["ressources"] == spent
    assert one.store.rolls() == []


def test_T10_an_exchange_and_a_tracker_change_made_at_once_both_apply(
    two: tuple[Table, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """T-10/T-11: two exchanges, one on each server, and the GM adding a combatant on
    the second, all at once: each exchange holds the tracker until its result is written,
    so all three apply, one after the other, each on the tracker the one before left
    (typed dice 1 2 3 against 4 5 6: Brindille loses 3 Endurance each time, 5 then 2,
    then 0: wounded, and back to 5)."""
    from concurrent.futures import ThreadPoolExecutor

    import meneur.systems.tunnels.web.melee as melee
    from meneur.web import combat as fights

    one, other = two
    one.create(one.gm, "tunnels", "Brindille", **TUNNELS)  # Endurance 5
    csrf_one, csrf_other = one.csrf(one.gm), other.csrf(other.gm)
    for name, health in (("Brindille", ""), ("Orque", "3")):
        data = {"csrf": csrf_one, "action": "add", "name": name, "health": health}
        assert one.client.post(f"{one.gm}/combat", data=data).status_code == 200
    play = melee.exchange

    def slow(*args: Any) -> Any:
        time.sleep(0.4)  # the other requests arrive meanwhile
        return play(*args)

    monkeypatch.setattr(melee, "exchange", slow)

    def exchange(table: Table, csrf: str) -> int:
        data = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
        data.update(faces="1 2 3", vs_faces="4 5 6")
        return table.client.post(f"{table.gm}/combat", data=data).status_code

    def add() -> int:
        time.sleep(0.1)
        data = {"csrf": csrf_other, "action": "add", "name": "Gobelin", "health": "4"}
        return other.client.post(f"{other.gm}/combat", data=data).status_code

    with ThreadPoolExecutor(3) as pool:
        done = [
            pool.submit(exchange, one, csrf_one),
            pool.submit(add),
            pool.submit(exchange, other, csrf_other),
        ]
        assert [future.result() for future in done] == [200, 200, 200]
    tracker = Tables(one.store).get(one.info.id)
    assert tracker is not None
    people = {c["name"]: c for c in fights.normal(tracker.combat)["combatants"]}
    assert {name: c["health"] for name, c in people.items()} == {
        "Brindille": 5,
        "Orque": 3,
        "Gobelin": 4,
    }
    assert people["Brindille"]["wounded"]
    assert [e["outcome"]["lost"] for e in one.store.rolls() if e["kind"] == "oppose"] == [3, 3]
