"""Two real ``meneur serve`` processes on one PostgreSQL database (issue 16, point 7).

Each server is its own process (its own seats kept in memory, its own writer, its own
``LISTEN/NOTIFY`` connections), driven over loopback as players would: HTTP and
WebSockets. The GM on one and two players on the other see each other's rolls live, in
one order; a roll waiting for its batch choice, started on one, ends on the other; two
spends that exceed a sheet's points, one through each process at once, leave exactly
one applied; a kick on one closes the kicked seat's socket on the other; a session
opened from the CLI commits the rolls of both and ``meneur verify --strict`` passes.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import websockets

from meneur.campaign.store import Store
from meneur.web.tables import Tables
from web.web_helpers import CSRF, PG_SKIP, postgres_url

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}
LINK = re.compile(r"http://127\.0\.0\.1:\d+(/t/\d+/(?:join/)?[A-Za-z0-9_-]{43})\s")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """One ``meneur serve`` process: its port, and the GM and invite links it printed."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.errors = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "meneur", "serve", "--port", str(self.port)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=self.errors,
        )
        assert self.process.stdout is not None
        links: list[str] = []
        while len(links) < 2:  # the GM link, then the invite link
            line = self.process.stdout.readline().decode()
            assert line, log.read_text()
            links += LINK.findall(line)
        self.gm, self.invite = links
        self.root = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)
        self.errors.close()


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meneur", *args], env=env, capture_output=True, text=True
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[dict[str, str], Server, Server]]:
    url = postgres_url()
    if url is None:
        pytest.skip(PG_SKIP)
    env = {**os.environ, "MENEUR_DB_URL": url, "MENEUR_LANG": "en"}
    first = Server(env, tmp_path / "first.log")
    servers = [first]
    try:
        servers.append(Server(env, tmp_path / "second.log"))
        yield env, first, servers[1]
    finally:
        for server in servers:
            server.stop()


async def wait_up(*servers: Server) -> None:
    async with httpx2.AsyncClient() as http:
        for server in servers:
            for _ in range(400):
                try:
                    await http.get(f"{server.root}/")
                    break
                except httpx2.TransportError:
                    await asyncio.sleep(0.05)


class Page:
    """A seat's live page: its WebSocket and the messages received so far."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.pending: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, server: Server, base: str) -> Page:
        page = cls(await websockets.connect(f"ws://127.0.0.1:{server.port}{base}/ws"))
        assert (await page.next())["type"] == "hello"
        return page

    async def next(self) -> dict[str, Any]:
        while not self.pending:
            data = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            self.pending.extend(data if isinstance(data, list) else [data])
        return self.pending.pop(0)

    async def rolls(self, count: int) -> list[str]:
        seen: list[str] = []
        while len(seen) < count:
            message = await self.next()
            if message["type"] == "roll":
                seen.append(message["id"])
        return seen


async def join(http: httpx2.AsyncClient, server: Server, name: str) -> str:
    answer = await http.post(f"{server.root}{server.invite}", data={"name": name})
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"])


async def csrf(http: httpx2.AsyncClient, server: Server, base: str) -> str:
    page = await http.get(f"{server.root}{base}")
    assert page.status_code == 200, page.text
    found = CSRF.search(page.text)
    assert found is not None
    return found.group(1)


async def create(
    http: httpx2.AsyncClient, server: Server, base: str, system: str, name: str, **fields: str
) -> None:
    form = {"csrf": await csrf(http, server, base), "action": "create", "system": system}
    answer = await http.post(
        f"{server.root}{base}/character", data={**form, "name": name, **fields}
    )
    assert answer.status_code == 303, answer.text


async def roll(
    http: httpx2.AsyncClient, server: Server, base: str, character: str, trait: str, **more: Any
) -> httpx2.Response:
    body = {"character": character, "trait": trait, **more}
    return await http.post(f"{server.root}/api{base}/roll", json=body)


def test_two_serve_processes_share_one_table(
    served: tuple[dict[str, str], Server, Server], tmp_path: Path
) -> None:
    env, one, other = served
    assert one.gm == other.gm  # one table, whichever process printed it
    asyncio.run(play(env, one, other))
    export = tmp_path / "log.json"
    assert cli(env, "session", "reveal").returncode == 0
    assert cli(env, "log", "--export", str(export)).returncode == 0
    verified = cli(env, "verify", str(export), "--strict", "--json")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    sessions = json.loads(verified.stdout)["sessions"]
    assert [s["sources"] for s in sessions] == [{"committed": 5}]


async def play(env: dict[str, str], one: Server, other: Server) -> None:
    await wait_up(one, other)
    async with httpx2.AsyncClient(timeout=30) as http:
        alice, bob = await join(http, other, "Alice"), await join(http, other, "Bob")
        await create(http, other, alice, "tunnels", "Brindille", **TUNNELS)
        await create(http, other, bob, "tunnels", "Gros Jean", **TUNNELS)
        await create(http, one, one.gm, "legendes", "Aube", secondary="Ruse", motivation_points="3")

        # T-5 batch by batch: started through one process, chosen through the other
        form = {"csrf": await csrf(http, one, alice), "character": "Brindille", "trait": "Force"}
        fetch = {"x-requested-with": "fetch"}
        started = await http.post(
            f"{one.root}{alice}/roll",
            data={**form, "explode": "ask", "faces": "4 4 2"},
            headers=fetch,
        )
        assert started.json() == {"pending": True}
        chosen = await http.post(
            f"{other.root}{alice}/roll/next",
            data={"csrf": form["csrf"], "choice": "explode", "faces": "1"},
            headers=fetch,
        )
        assert chosen.status_code == 200, chosen.text

        # a session opened from the command line commits what both processes roll
        assert cli(env, "session", "start").returncode == 0
        gm, a, b = (
            await Page.open(one, one.gm),
            await Page.open(other, alice),
            await Page.open(other, bob),
        )
        made = []
        for server, base, who, trait in (
            (other, alice, "Brindille", "Force"),
            (one, one.gm, "Gros Jean", "Force"),
            (one, bob, "Gros Jean", "Dextérité"),
            (other, bob, "Gros Jean", "Force"),
        ):
            answer = await roll(http, server, base, who, trait)
            assert answer.status_code == 200, answer.text
            made.append(answer.json()["id"])
        # every page, whichever process serves it, in one order (the notifications')
        orders = [await page.rolls(len(made)) for page in (gm, a, b)]
        assert orders[0] == orders[1] == orders[2] and sorted(orders[0]) == sorted(made)

        # L-12 two spends of 2 points at once, one through each process, on 3 points
        spend = {"level": "elite", "spend": 2}
        answers = await asyncio.gather(
            roll(http, one, one.gm, "Aube", "Ruse", **spend),
            roll(http, other, one.gm, "Aube", "Ruse", **spend),
        )
        assert sorted(answer.status_code for answer in answers) == [200, 400]
        with Store(env["MENEUR_DB_URL"]) as store:
            assert store.character("Aube").sheet["motivation_points"] == 1
            table_id = int(one.gm.split("/")[2])
            [bob_seat] = [p.id for p in Tables(store).players(table_id) if p.name == "Bob"]

        # the GM removes Bob through the first process: his page on the second closes
        kick = {"csrf": await csrf(http, one, one.gm), "action": "kick", "player": str(bob_seat)}
        assert (await http.post(f"{one.root}{one.gm}/seats", data=kick)).status_code == 303
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await b.next()
        assert (await http.get(f"{other.root}{bob}")).status_code == 404
        for page in (gm, a):
            await page.ws.close()
