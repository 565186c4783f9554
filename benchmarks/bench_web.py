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
       python benchmarks/bench_web.py --database postgresql --workers 1,2
       python benchmarks/bench_web.py --database postgresql --workers 1,2 --rounds 5

``--rounds N`` runs every configuration N times, interleaved (the shared machine's moods
weigh on each alike), and prints each figure's median and range, and how many runs met
every target at once.

With ``--workers 2`` (PostgreSQL only) two server processes share the database; the
WebSocket clients and the HTTP connections are spread over them, and every roll must
reach every allowed client whichever process it was made on (``LISTEN/NOTIFY``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
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

import httpx2
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
from meneur.web import heap
heap.settle()  # as meneur serve does before it serves
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


def database_cpu() -> float:
    """CPU time used so far by this machine's PostgreSQL processes (Linux): the server
    processes' work is only part of a roll's, the database's runs on the same cores."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                named = (entry / "comm").read_text().strip() == "postgres"
            except OSError:
                continue
            seconds = cpu_seconds(int(entry.name)) if named else 0.0
            if not math.isnan(seconds):  # a process that ended meanwhile counts no more
                total += seconds
    return total


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


def fresh_postgres(url: str) -> str:
    """A database of the bench's own on the server of ``url``, emptied."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from meneur.campaign.engine import parse_url

    base = make_url(parse_url(url))
    mine = base.set(database=f"{base.database}_bench")
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{mine.database}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{mine.database}"'))
    finally:
        admin.dispose()
    return mine.render_as_string(hide_password=False)


def bare_seats(players: int) -> tuple[int, list[tuple[str, str, str]], list[str]]:
    """Seats for the bare app (``--ceiling``): no database, tokens written to a file."""
    seats = [(f"p{n + 1}", f"token{n:03d}", f"Héros {n:02d}") for n in range(players)]
    path = Path(tempfile.mkdtemp(prefix="bench-web-")) / "seats.json"
    path.write_text(json.dumps({token: key for key, token, _ in seats}))
    return 1, seats, [str(path)]


async def run(args: argparse.Namespace, workers: int, bare: int = 0) -> dict[str, Any]:
    """One load against ``workers`` server processes of meneur, or (``bare``: a message
    size) against the bare app of ``web_ceiling.py``."""
    if bare:
        table_id, seats, argv = bare_seats(args.clients)
        command = [str(Path(__file__).with_name("web_ceiling.py")), *argv]
    else:
        if args.database == "postgresql":
            url = fresh_postgres(args.pg_url)
        else:
            url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='bench-web-')) / 'table.db'}"
        table_id, seats = prepare(url, args.clients)
        command = ["-c", SERVER, url]
    ports = [free_port() for _ in range(workers)]
    env = {**os.environ, "MENEUR_LANG": "fr"}
    tail = [str(bare)] if bare else []
    servers = [
        subprocess.Popen([sys.executable, *command, str(port), *tail, args.ws], env=env)
        for port in ports
    ]
    roots = [f"127.0.0.1:{port}" for port in ports]
    try:
        for root in roots:
            async with httpx2.AsyncClient(base_url=f"http://{root}", timeout=10) as http:
                for _ in range(400):
                    try:
                        await http.get("/")
                        break
                    except httpx2.TransportError:
                        await asyncio.sleep(0.05)
        pool: asyncio.Queue[Connection] = asyncio.Queue()
        for number in range(args.connections):  # the HTTP connections spread over servers
            pool.put_nowait(await Connection.open("127.0.0.1", ports[number % workers]))
        await warm_up(args, pool, table_id, seats)
        cpu, wall = time.process_time(), time.perf_counter()
        served = sum(cpu_seconds(server.pid) for server in servers)
        database = database_cpu()
        result = await load(args, pool, roots, table_id, seats)
        result["wall"] = time.perf_counter() - wall
        result["client_cpu"] = time.process_time() - cpu
        result["server_cpu"] = sum(cpu_seconds(server.pid) for server in servers) - served
        result["database_cpu"] = database_cpu() - database
        result["load"] = os.getloadavg()[0]
        while not pool.empty():
            pool.get_nowait().close()
        return result
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


class Connection:
    """A lean keep-alive HTTP/1.1 client for the load (httpx2 costs the script more CPU
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


async def warm_up(
    args: argparse.Namespace,
    pool: asyncio.Queue[Connection],
    table_id: int,
    seats: list[tuple[str, str, str]],
) -> None:
    """A few rolls through every connection before the figures: the first roll of a
    system imports its rules and fills the caches (seconds of CPU once per process)."""

    async def one(number: int) -> None:
        _, token, name = seats[number % len(seats)]
        body = {"character": name, "trait": "Force", "threshold": 2, "mode": "public"}
        connection = await pool.get()
        try:
            await connection.post(f"/api/t/{table_id}/{token}/roll", body)
        finally:
            pool.put_nowait(connection)

    if args.warmup:
        await one(0)  # alone first: the odds worker starts once
    for _ in range(args.warmup):
        await asyncio.gather(*(one(number) for number in range(args.connections)))


ROLL = re.compile(r'"type": "roll", "id": "([0-9a-f]+)"')


class Phase:
    """One run of rolls: what was sent, and when each client received what."""

    def __init__(self) -> None:
        self.sent: dict[str, tuple[float, str, str]] = {}  # id -> (start, roller, mode)
        self.errors = 0
        self.statuses: dict[int, int] = {}
        self.began = time.perf_counter()
        self.ended = self.began


async def load(
    args: argparse.Namespace,
    pool: asyncio.Queue[Connection],
    roots: list[str],
    table_id: int,
    seats: list[tuple[str, str, str]],
) -> dict[str, Any]:
    received: dict[str, dict[str, float]] = {key: {} for key, _, _ in seats}
    volume = [0, 0]  # bytes and roll messages received, for the bare app's message size
    sockets = []
    for number, (key, token, _) in enumerate(seats):  # the clients spread over servers
        root = roots[number % len(roots)]
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
                found = ROLL.findall(message)  # a frame holds one roll or several
                for entry in found:
                    mine[entry] = now
                volume[0] += len(message.encode()) if found else 0
                volume[1] += len(found)
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
            phase.statuses[status] = phase.statuses.get(status, 0) + 1
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
        "message": volume[0] // max(1, volume[1]),
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
        "statuses": phase.statuses,
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
    parser.add_argument(
        "--warmup", type=int, default=3, help="rounds of rolls (one per connection) not counted"
    )
    parser.add_argument(
        "--workers", default="1", help="server processes: 1, 2, or 1,2 (side by side)"
    )
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="also run the same load against a bare app (web_ceiling.py): what this "
        "machine allows any table on FastAPI and uvicorn",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run every configuration this many times, interleaved; print medians and ranges",
    )
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("MENEUR_BENCH_PG_URL") or os.environ.get("MENEUR_TEST_PG_URL", ""),
        help="PostgreSQL server (a database <name>_bench is made there)",
    )
    args = parser.parse_args()
    counts = [int(part) for part in args.workers.split(",")]
    if args.database == "sqlite" and max(counts) > 1:
        parser.error("several processes need --database postgresql (one per SQLite file)")
    if args.database == "postgresql" and not args.pg_url:
        parser.error("--database postgresql needs --pg-url (or MENEUR_TEST_PG_URL)")
    before = os.getloadavg()[0]
    configs = [(f"{n} proc.", n) for n in counts]
    if args.ceiling:
        configs.append(("bare app", 1))
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in configs}
    for _ in range(args.rounds):  # interleaved: the machine's moods weigh on each alike
        for name, workers in configs:
            if name == "bare app":  # the bare app, sent messages of the size meneur's had
                bare = runs[configs[0][0]][-1]["message"]
                runs[name].append(asyncio.run(run(args, workers, bare=bare)))
            else:
                runs[name].append(asyncio.run(run(args, workers)))
    report(args, counts, before, runs)


def meets(result: dict[str, Any]) -> bool:
    """Issue 16's targets in one run: >= 500 rolls/s in the closed loop, p99 < 100 ms to
    every client at 500 rolls/s paced, nothing lost, nothing leaked, no error."""
    most, paced = result["throughput"], result["paced"]
    return bool(
        most["rate"] >= 500
        and paced["p99"] < 100
        and most["missing"] + paced["missing"] == 0
        and most["leaked"] + paced["leaked"] == 0
        and most["errors"] + paced["errors"] == 0
    )


def cell(values: list[float], digits: int = 0) -> str:
    """One run's value, or the median of several and their range."""
    shown = [f"{value:.{digits}f}" for value in sorted(values)]
    if len(shown) == 1:
        return shown[0]
    return f"{shown[len(shown) // 2]} ({shown[0]}-{shown[-1]})"


def report(
    args: argparse.Namespace,
    counts: list[int],
    before: float,
    runs: dict[str, list[dict[str, Any]]],
) -> None:
    names = list(runs)
    rounds = args.rounds
    print(
        f"live table: {args.clients} WebSocket clients on one table, loopback, "
        f"{args.database}; server processes: {', '.join(map(str, counts))}"
        + (f"; {rounds} rounds, interleaved: median (lowest-highest)" if rounds > 1 else "")
    )
    if args.ceiling:
        print(
            "bare app: web_ceiling.py, 1 process, no dice, no database, no rendering; "
            f"messages of {runs[names[0]][0]['message']} bytes, meneur's mean per roll"
        )
    print(
        f"machine load (1-min average) before: {before:.1f}, after each run: "
        + ", ".join(f"{r['load']:.1f}" for name in names for r in runs[name])
        + f" ({os.cpu_count()} cores; other programs share them)"
    )
    width = 12 if rounds == 1 else 20
    print(f"{'figure':<46}" + "".join(f"{name:>{width}}" for name in names) + "   target")

    def row(label: str, pick: Any, target: str = "", digits: int = 0) -> None:
        cells = [cell([pick(r) for r in runs[name]], digits) for name in names]
        print(f"{label:<46}" + "".join(f"{c:>{width}}" for c in cells) + f"   {target}")

    def both(key: str) -> Any:
        return lambda r: r["throughput"][key] + r["paced"][key]

    def per_roll(r: dict[str, Any], key: str) -> float:
        return float(1000 * r[key] / max(1, r["throughput"]["rolls"] + r["paced"]["rolls"]))

    row(
        f"rolls/s through the HTTP API ({args.senders} senders)",
        lambda r: r["throughput"]["rate"],
        ">= 500",
    )
    row("  latency to every client then, p50 ms", lambda r: r["throughput"]["p50"])
    row("  latency to every client then, p99 ms", lambda r: r["throughput"]["p99"])
    row(f"at {int(args.rate)} rolls/s paced: rolls/s done", lambda r: r["paced"]["rate"])
    row("  latency to every client, p50 ms", lambda r: r["paced"]["p50"], digits=1)
    row("  latency to every client, p99 ms", lambda r: r["paced"]["p99"], "< 100", 1)
    row("rolls lost (deliveries missing)", both("missing"), "0")
    row("secret rolls leaked", both("leaked"), "0")
    row("errors (HTTP statuses)", both("errors"), "0")
    row("CPU ms per roll: the servers", lambda r: per_roll(r, "server_cpu"), digits=1)
    if args.database == "postgresql":
        row("  PostgreSQL", lambda r: per_roll(r, "database_cpu"), digits=1)
    row("  this load script", lambda r: per_roll(r, "client_cpu"), digits=1)
    row("  this load script: share of one core, %", lambda r: 100 * r["client_cpu"] / r["wall"])
    print(
        f"{'runs meeting every target':<46}"
        + "".join(
            f"{str(sum(map(meets, runs[name]))) + ' of ' + str(rounds):>{width}}" for name in names
        )
        + "   (>= 500/s, p99 < 100 ms paced, 0 lost, 0 leaked, 0 errors)"
    )
    errors = sorted(
        {
            s
            for name in names
            for r in runs[name]
            for p in ("throughput", "paced")
            for s in r[p]["statuses"]
        }
    )
    if errors:
        print(f"HTTP statuses of the errors: {errors}")
    print(
        "(CPU over both phases, after the warm-up; the load script and PostgreSQL run on "
        "the same cores as the servers)"
    )


if __name__ == "__main__":
    main()
