"""The GM manages the table (issue 16, point 6): seats, links, lock, join rate.

Before, one person with the invite filled a table in under a second, nobody could be
removed, and a seat deleted from the database kept working until a restart.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from meneur.web.state import WebSettings
from meneur.web.tables import Tables
from web.test_web_live import receive
from web.web_helpers import Table, make_table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


def manage(table: Table, **form: object) -> int:
    data = {"csrf": table.csrf(table.gm), **form}
    answer = table.client.post(f"{table.gm}/seats", data=data, follow_redirects=False)
    return answer.status_code


def seat_id(table: Table, name: str) -> int:
    [found] = [p.id for p in Tables(table.store).players(table.info.id) if p.name == name]
    return found


def test_a_removed_seat_stops_at_once_and_its_socket_closes(table: Table) -> None:
    alice = table.join("Alice")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    with table.client.websocket_connect(f"{alice}/ws") as socket:
        receive(socket)
        assert manage(table, action="kick", player=seat_id(table, "Alice")) == 303
        with pytest.raises(WebSocketDisconnect):
            socket.receive_text()
    assert table.client.get(alice).status_code == 404
    refused = table.client.post(
        f"/api{alice}/roll", json={"character": "Brindille", "trait": "Force"}
    )
    assert refused.status_code == 404
    # her character is free again
    assert "Brindille" in table.client.get(table.join("Bob")).text


def test_a_renewed_link_replaces_the_old_one(table: Table) -> None:
    alice = table.join("Alice")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    data = {"csrf": table.csrf(table.gm), "action": "renew", "player": seat_id(table, "Alice")}
    page = table.client.post(f"{table.gm}/seats", data=data).text
    assert table.client.get(alice).status_code == 404
    new = page.split('id="new-link" readonly value="', 1)[1].split('"', 1)[0]
    path = "/t/" + new.split("/t/", 1)[1]
    assert table.roll(path, "Brindille", "Force")["entry"]  # the seat keeps its character


def test_the_gm_gives_a_character_to_a_seat_and_takes_it_back(table: Table) -> None:
    table.create(table.gm, "tunnels", "Garde", **TUNNELS)
    alice = table.join("Alice")
    assert manage(table, action="assign", character="Garde", holder=seat_id(table, "Alice")) == 303
    assert table.roll(alice, "Garde", "Force")["entry"]
    assert manage(table, action="assign", character="Garde", holder="gm") == 303
    refused = table.client.post(f"/api{alice}/roll", json={"character": "Garde", "trait": "Force"})
    assert refused.status_code == 400
    assert manage(table, action="assign", character="Garde", holder="free") == 303
    assert "Garde" in table.client.get(alice).text.split("Journal")[0]
    player = table.join("Bob")
    assert manage(table, action="kick", player=seat_id(table, "Bob")) == 303
    assert table.client.post(f"{player}/seats", data={"action": "lock"}).status_code == 404


def test_new_invite_and_lock(table: Table) -> None:
    old = table.invite
    assert manage(table, action="invite") == 303
    assert table.client.get(old).status_code == 404
    assert table.client.post(old, data={"name": "Eve"}).status_code == 404
    info = Tables(table.store).get(table.info.id)
    assert info is not None
    invite = f"/t/{info.id}/join/{info.invite_token}"
    assert manage(table, action="lock") == 303
    locked = table.client.post(invite, data={"name": "Eve"})
    assert locked.status_code == 400 and "verrouillé" in locked.text
    assert manage(table, action="unlock") == 303
    assert (
        table.client.post(invite, data={"name": "Eve"}, follow_redirects=False).status_code == 303
    )


def test_players_may_not_manage(table: Table) -> None:
    alice = table.join("Alice")
    data = {"csrf": table.csrf(alice), "action": "lock"}
    assert table.client.post(f"{alice}/seats", data=data).status_code == 403


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_joins_are_rate_limited_per_address_and_table(tmp_path: Path, database: str) -> None:
    settings = WebSettings(join_rate=0.001, join_burst=3)
    for table in make_table(tmp_path, settings, database=database):
        codes = [
            table.client.post(table.invite, data={"name": f"P{n}"}, follow_redirects=False)
            for n in range(5)
        ]
        assert [c.status_code for c in codes] == [303, 303, 303, 429, 429]
        assert "Trop" in codes[-1].text
        assert len(Tables(table.store).players(table.info.id)) == 3


def test_each_campaign_has_its_own_tables(table: Table) -> None:
    """``serve --campaign`` serves that campaign's table; ``--new-table`` replaces that
    campaign's tables only."""
    tables = Tables(table.store)
    table.store.create_campaign("Bravo")
    bravo = tables.default_for("bravo")
    assert bravo.campaign == "Bravo" and bravo.id != table.info.id
    assert tables.default_for("Bravo") == bravo
    found = tables.get(bravo.id)
    assert found is not None and found.campaign == "Bravo"
    second = tables.create("Bravo")  # without replace: both stay
    assert tables.get(bravo.id) is not None and tables.get(second.id) is not None
    assert tables.seat(bravo.id, bravo.gm_token) is not None
    third = tables.create("Bravo", replace=True)
    # the old links stop (SQLite may give a new table an old id: never its tokens)
    for old in (bravo, second):
        assert tables.seat(old.id, old.gm_token) is None
    assert [t.id for t in (tables.get(n) for n in range(1, third.id + 9)) if t] == [
        table.info.id,
        third.id,
    ]
    assert tables.get(table.info.id) == table.info  # another campaign's table stays


def test_an_invite_renewed_meanwhile_seats_nobody(table: Table) -> None:
    """The invite is checked again as the seat is written: one renewed between the
    check of the link and the join (at the same moment) seats nobody."""
    from meneur.campaign.errors import CampaignError

    tables = Tables(table.store)
    tables.rotate_invite(table.info)
    with pytest.raises(CampaignError):
        tables.join(table.info, "Eve")
    assert tables.players(table.info.id) == []


def test_a_seat_removed_meanwhile_is_refused_in_one_clear_line(table: Table) -> None:
    """A seat that no longer exists (removed at the same moment) claims, gets, loses or
    renews nothing: each says so, never a server error."""
    from meneur.campaign.errors import CampaignError

    table.create(table.gm, "tunnels", "Ombre", free="true", **TUNNELS)
    tables = Tables(table.store)
    seat = tables.seat(table.info.id, table.join("Alice").split("/")[-1])
    assert seat is not None and seat.player is not None
    gone = seat.player.id
    assert tables.kick(table.info, gone) == f"p{gone}"
    attempts = (
        lambda: tables.claim(seat, "Ombre"),
        lambda: tables.assign(table.info, "Ombre", gone),
        lambda: tables.kick(table.info, gone),
        lambda: tables.renew(table.info, gone),
    )
    for attempt in attempts:
        with pytest.raises(CampaignError, match="n'existe plus"):
            attempt()
    assert tables.holds(table.info.id) == {}


def test_a_kick_or_renewal_that_names_no_seat_touches_none(table: Table) -> None:
    """The seat to remove is the one the form names: a form without it (an old page, a
    hand-made post) removes and renews nobody, never the first seat."""
    alice = table.join("Alice")
    for action in ("kick", "renew"):
        assert manage(table, action=action) == 400
    assert table.client.get(alice).status_code == 200
    assert [p.name for p in Tables(table.store).players(table.info.id)] == ["Alice"]
