"""Two servers on one PostgreSQL database (issue 16, point 7): what each sees.

Two apps, each with its own store, seats, hub and ``LISTEN/NOTIFY`` connections, share
one database as two ``meneur serve`` processes would: the GM on one, two players on the
other see each other's rolls live in the same order; a seat removed on one has its
socket closed on the other; a session opened elsewhere commits the rolls of both and
``meneur verify --strict`` passes on the export.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cli_helpers import invoke
from meneur.campaign.store import Store
from meneur.web.app import create_app
from meneur.web.state import WebSettings
from meneur.web.tables import Tables
from web.test_web_live import receive
from web.web_helpers import PG_SKIP, Table, postgres_url

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


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


def test_two_servers_share_seats_live_rolls_and_kicks(
    two: tuple[Table, Table], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gm_side, players_side = two
    alice, bob = players_side.join("Alice"), players_side.join("Bob")
    players_side.create(alice, "tunnels", "Brindille", **TUNNELS)
    players_side.create(bob, "tunnels", "Gros Jean", **TUNNELS)
    assert gm_side.client.get(alice).status_code == 200  # a seat made on the other server
    with Store(gm_side.store.url) as cli:  # `meneur session start`, from the command line
        cli.start_session(campaign=gm_side.info.campaign)
    with (
        gm_side.client.websocket_connect(f"{gm_side.gm}/ws") as gm,
        players_side.client.websocket_connect(f"{alice}/ws") as a,
        players_side.client.websocket_connect(f"{bob}/ws") as b,
    ):
        for socket in (gm, a, b):
            assert receive(socket)["type"] == "hello"
        made = [
            players_side.roll(alice, "Brindille", "Force")["id"],
            gm_side.roll(gm_side.gm, "Gros Jean", "Force")["id"],
            gm_side.roll(bob, "Gros Jean", "Dextérité")["id"],  # Bob through the other server
            players_side.roll(bob, "Gros Jean", "Force")["id"],
        ]
        orders = [[receive(socket)["id"] for _ in made] for socket in (gm, a, b)]
        assert orders[0] == orders[1] == orders[2] and set(orders[0]) == set(made)
        # the GM removes Bob on the first server: his socket on the second one closes
        data = {"csrf": gm_side.csrf(gm_side.gm), "action": "kick"}
        [bob_seat] = [
            p.id for p in Tables(gm_side.store).players(gm_side.info.id) if p.name == "Bob"
        ]
        gm_side.client.post(f"{gm_side.gm}/seats", data={**data, "player": str(bob_seat)})
        with pytest.raises(WebSocketDisconnect):
            while True:
                receive(b)
    assert players_side.client.get(bob).status_code == 404
    assert {r["source"] for r in gm_side.store.rolls()} == {"committed"}
    gm_side.store.reveal_session(campaign=gm_side.info.campaign)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(gm_side.store.export_log()))
    result = invoke(capsys, "verify", str(path), "--strict", "--json")
    assert result.status == 0, result.err
    assert json.loads(result.out)["sessions"][0]["sources"] == {"committed": 4}
