"""Load test of the live table on loopback: rolls per second and time to every client.

A real uvicorn (in its own process, as ``meneur serve`` runs it) serves one table with
50 seated players. This script connects one WebSocket per player (50 clients), then
rolls Tunnels tests through the HTTP JSON API from several concurrent connections for a
bounded time. Every roll is logged (SQLite, WAL) and broadcast. One roll in ten is a
``gmroll``: only its roller may receive it (there is no GM socket), which the count checks.

Figures, printed beside the targets of issue 10:

* rolls per second through the HTTP API (target >= 500);
* latency from sending the request to the LAST allowed client receiving the roll,
  p50 / p99 (target p99 < 100 ms);
* deliveries: every client got every roll it may see, and no roll it may not see.

Usage: python benchmarks/bench_web.py [--seconds 5] [--clients 50] [--senders 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from meneur.campaign.store import Store
from meneur.web.tables import Tables

TUNNELS = {
    "Force": 3,
    "Dextérité": 4,
    "Constitution": 3,
    "Volonté": 3,
    "Intelligence": 2,
    "Charisme": 3,
}

SERVER = """
import sys, uvicorn
from meneur.campaign.store import Store
from meneur.web.app import create_app
from meneur.web.state import WebSettings
settings = WebSettings(roll_rate=1e6, roll_burst=1e6)
app = create_app(Store(sys.argv[1]), settings=settings)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_per_message_deflate=False, ws=sys.argv[3] if len(sys.argv) > 3 else "auto")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by process ``pid`` (Linux), for the report."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def prepare(url: str, players: int) -> tuple[int, list[tuple[str, str, str]]]:
    """A table with ``players`` seats, each playing a Tunnels character."""
    from meneur.systems.tunnels.character import Pool, Sheet

    store = Store(url)
    tables = Tables(store)
    table = tables.default()
    seats = []
    for number in range(players):
        name = f"Héros {number:02d}"
        sheet = Sheet(
            name=name,
            characteristics=TUNNELS,
            endurance=Pool(current=6, max=6),
            mana=Pool(current=5, max=5),
            chance=Pool(current=3, max=3),
        ).model_dump(mode="json")
        store.add_character("tunnels", name, sheet)
        player = tables.join(table, f"Joueur {number:02d}")
        seat = tables.seat(table.id, player.token)
        assert seat is not None
        tables.claim(seat, name)
        seats.append((f"p{player.id}", player.token, name))
    store.close()
    return table.id, seats


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    url = f"sqlite:///{folder / 'table.db'}"
    table_id, seats = prepare(url, args.clients)
    port = free_port()
    env = {**os.environ, "MENEUR_LANG": "fr"}
    server = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port), args.ws], env=env)
    root = f"127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=f"http://{root}", timeout=10) as http:
            for _ in range(200):
                try:
                    await http.get("/")
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
        pool: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(args.connections):
            pool.put_nowait(await Connection.open("127.0.0.1", port))
        cpu = time.process_time()
        result = await load(args, pool, root, table_id, seats)
        result["client_cpu"] = time.process_time() - cpu
        result["server_cpu"] = cpu_seconds(server.pid)
        while not pool.empty():
            pool.get_nowait().close()
        return result
    finally:
        server.terminate()
        server.wait(timeout=10)


class Connection:
    """A lean keep-alive HTTP/1.1 client for the load (httpx costs the script more CPU
    per request than the server spends on it; the page itself uses no such thing)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readuntil(b"\r\n")
        length = 0
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        answer = await self.reader.readexactly(length)
        return int(status_line.split()[1]), answer

    def close(self) -> None:
        self.writer.close()


ROLL = re.compile(r'"type": "roll", "id": "([0-9a-f]+)"')


class Phase:
    """One run of rolls: what was sent, and when each client received what."""

    def __init__(self) -> None:
        self.sent: dict[str, tuple[float, str, str]] = {}  # id -> (start, roller, mode)
        self.errors = 0
        self.began = time.perf_counter()
        self.ended = self.began


async def load(
    args: argparse.Namespace,
    pool: asyncio.Queue[Connection],
    root: str,
    table_id: int,
    seats: list[tuple[str, str, str]],
) -> dict[str, Any]:
    received: dict[str, dict[str, float]] = {key: {} for key, _, _ in seats}
    sockets = []
    for key, token, _ in seats:
        ws = await websockets.connect(
            f"ws://{root}/t/{table_id}/{token}/ws?lang=fr", max_size=2**20, compression=None
        )
        hello = json.loads(await ws.recv())
        assert hello["type"] == "hello" and hello["seat"] == key
        sockets.append((key, ws))

    async def listen(key: str, ws: Any) -> None:
        mine = received[key]
        try:
            async for message in ws:
                now = time.perf_counter()
                for entry in ROLL.findall(message):  # a frame holds one roll or several
                    mine[entry] = now
        except websockets.ConnectionClosed:
            pass

    listeners = [asyncio.create_task(listen(key, ws)) for key, ws in sockets]
    rng = random.Random(1)

    async def one(phase: Phase) -> None:
        key, token, name = seats[rng.randrange(len(seats))]
        mode = "gmroll" if rng.random() < 0.1 else "public"
        body = {"character": name, "trait": "Force", "threshold": 2, "mode": mode}
        start = time.perf_counter()
        connection = await pool.get()
        try:
            status, answer = await connection.post(f"/api/t/{table_id}/{token}/roll", body)
        finally:
            pool.put_nowait(connection)
        if status != 200:
            phase.errors += 1
            return
        phase.sent[json.loads(answer)["id"]] = (start, key, mode)

    # 1. throughput: closed loop, each sender rolls again as soon as it is answered
    most = Phase()
    stop = time.perf_counter() + args.seconds

    async def sender() -> None:
        while time.perf_counter() < stop:
            await one(most)

    await asyncio.gather(*(sender() for _ in range(args.senders)))
    most.ended = time.perf_counter()
    await settle(most, received, seats)

    # 2. latency at the target rate: one roll every 1/rate s, whatever the answers
    paced = Phase()
    interval = 1 / args.rate
    tasks = []
    count = int(args.seconds * args.rate)
    for index in range(count):
        delay = paced.began + index * interval - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(paced)))
    await asyncio.gather(*tasks)
    paced.ended = time.perf_counter()
    await settle(paced, received, seats)

    for _, ws in sockets:
        await ws.close()
    for task in listeners:
        task.cancel()
    return {
        "clients": len(seats),
        "throughput": summary(most, received, seats),
        "paced": summary(paced, received, seats),
    }


def expected_by_seat(phase: Phase, seats: list[tuple[str, str, str]]) -> dict[str, set[str]]:
    return {
        key: {q for q, (_, roller, mode) in phase.sent.items() if mode == "public" or roller == key}
        for key, _, _ in seats
    }


async def settle(
    phase: Phase, received: dict[str, dict[str, float]], seats: list[tuple[str, str, str]]
) -> None:
    """Wait (at most 5 s) until every client has what it may see."""
    expected = expected_by_seat(phase, seats)
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline:
        if all(expected[key] <= received[key].keys() for key in expected):
            return
        await asyncio.sleep(0.05)


def summary(
    phase: Phase, received: dict[str, dict[str, float]], seats: list[tuple[str, str, str]]
) -> dict[str, Any]:
    expected = expected_by_seat(phase, seats)
    seqs = set(phase.sent)
    missing = sum(len(expected[key] - received[key].keys()) for key in expected)
    leaked = sum(len((received[key].keys() & seqs) - expected[key]) for key in expected)
    latencies = []
    for seq, (start, _, _) in phase.sent.items():
        arrivals = [received[key].get(seq) for key in expected if seq in expected[key]]
        if all(a is not None for a in arrivals):
            latencies.append(max(a for a in arrivals if a is not None) - start)
    latencies.sort()

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    seconds = phase.ended - phase.began
    return {
        "rolls": len(phase.sent),
        "errors": phase.errors,
        "seconds": seconds,
        "rate": len(phase.sent) / seconds,
        "p50": pct(0.50),
        "p99": pct(0.99),
        "deliveries": sum(len(v) for v in expected.values()),
        "missing": missing,
        "leaked": leaked,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each phase")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--senders", type=int, default=8, help="closed-loop HTTP senders")
    parser.add_argument("--rate", type=float, default=500.0, help="paced phase, rolls/s")
    parser.add_argument("--connections", type=int, default=16, help="HTTP connections")
    parser.add_argument("--ws", default="auto", help="uvicorn's WebSocket implementation")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    most, paced = result["throughput"], result["paced"]
    print(f"live table: {result['clients']} WebSocket clients on one table, loopback")
    print(f"{'figure':<46}{'measured':>10}{'target':>10}")
    print(
        f"{'rolls/s through the HTTP API (' + str(args.senders) + ' senders)':<46}"
        f"{most['rate']:>10.0f}{'>= 500':>10}"
    )
    print(
        f"{'  latency to every client then, p50 / p99 ms':<46}"
        f"{most['p50']:>5.0f} /{most['p99']:>4.0f}"
    )
    print(
        f"{'at ' + str(int(args.rate)) + ' rolls/s paced: rolls/s done':<46}{paced['rate']:>10.0f}"
    )
    print(f"{'  latency to every client, p50 ms':<46}{paced['p50']:>10.1f}")
    print(f"{'  latency to every client, p99 ms':<46}{paced['p99']:>10.1f}{'< 100':>10}")
    for label, phase in (("closed loop", most), ("paced", paced)):
        print(
            f"{label}: {phase['rolls']} rolls, {phase['errors']} errors, "
            f"{phase['deliveries']} deliveries expected, {phase['missing']} missing, "
            f"{phase['leaked']} secret rolls leaked"
        )
    print(
        f"CPU: server {result['server_cpu']:.1f} s (start-up included), "
        f"this load script {result['client_cpu']:.1f} s, on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
