"""The least a live table can do, for ``bench_web.py --ceiling``: the same routes and
messages, nothing behind them.

``POST /api/t/{table}/{token}/roll`` answers at once (no dice, no database, no rendering)
and queues one ready-made message of the size a real roll's has to every WebSocket that
may see it (a ``gmroll``: its roller's only); each socket is sent by its own task, the
messages that queued meanwhile together in one frame, waiting ``FRAME_GAP`` between
frames — as :class:`meneur.web.live.Hub` does. Same FastAPI, uvicorn (uvloop, httptools)
and options as ``meneur serve``. What the load reaches against it is what this machine
allows any table on this stack: the rest is meneur's own cost.

Run by the bench: ``python web_ceiling.py SEATS.json PORT SIZE WS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect

from meneur.web.live import FRAME_GAP  # the live table's own gap between two frames


def create(seats: dict[str, str], size: int) -> FastAPI:
    """The bare table: ``seats`` maps each token to its seat key (``p3``)."""
    app = FastAPI()
    queues: dict[str, list[asyncio.Queue[str]]] = {}

    @app.get("/")
    def home() -> dict[str, str]:
        return {"ok": "yes"}

    @app.post("/api/t/{table}/{token}/roll")
    async def roll(table: int, token: str, request: Request) -> dict[str, Any]:
        body = json.loads(await request.body())
        key, mode = seats[token], body.get("mode", "public")
        found = secrets.token_hex(8)
        head = f'{{"type": "roll", "id": "{found}", "html": "'
        message = head + "x" * max(0, size - len(head) - 2) + '"}'
        for seat, waiting in queues.items():
            if mode == "public" or seat == key:
                for queue in waiting:
                    queue.put_nowait(message)
        return {"id": found, "mode": mode, "entry": {"id": found, "who": key}}

    @app.websocket("/t/{table}/{token}/ws")
    async def live(websocket: WebSocket, table: int, token: str) -> None:
        await websocket.accept()
        key = seats[token]
        queue: asyncio.Queue[str] = asyncio.Queue()
        queues.setdefault(key, []).append(queue)
        await websocket.send_text(json.dumps({"type": "hello", "seat": key}))
        pump = asyncio.create_task(send(websocket, queue))
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.receive_text()
        pump.cancel()
        queues[key].remove(queue)

    return app


async def send(websocket: WebSocket, queue: asyncio.Queue[str]) -> None:
    last = 0.0
    with contextlib.suppress(Exception):
        while True:
            message = await queue.get()
            wait = FRAME_GAP - (time.monotonic() - last)
            if wait > 0:
                await asyncio.sleep(wait)
            last = time.monotonic()
            batch = [message]
            while not queue.empty():
                batch.append(queue.get_nowait())
            text = batch[0] if len(batch) == 1 else "[" + ",".join(batch) + "]"
            await websocket.send_text(text)


if __name__ == "__main__":
    seats = json.loads(Path(sys.argv[1]).read_text())
    uvicorn.run(
        create(seats, int(sys.argv[3])),
        host="127.0.0.1",
        port=int(sys.argv[2]),
        log_level="warning",
        ws_per_message_deflate=False,
        ws=sys.argv[4],
    )
