"""The live log over WebSocket: the server pushes each roll the seat may see.

Clients only listen (and may send small pings): a message over the size limit, or more
messages than the rate limit allows, closes the connection (1009 / 1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meneur.web.language import choose_language
from meneur.web.live import Connection, TokenBucket
from meneur.web.state import TOKEN_PATTERN, WebState

router = APIRouter()
TOO_BIG = 1009
POLICY = 1008


@router.websocket("/t/{table_id}/{token}/ws")
async def live(websocket: WebSocket, table_id: int) -> None:
    import re

    state: WebState = websocket.app.state.web
    token = websocket.path_params.get("token", "")
    seat = (
        await asyncio.to_thread(state.tables.seat, table_id, token)
        if re.match(TOKEN_PATTERN, token)
        else None
    )
    if seat is None:
        await websocket.close(code=POLICY)
        return
    await websocket.accept()
    connection = Connection(
        websocket,
        table_id,
        seat.key,
        seat.is_gm,
        choose_language(websocket),
    )
    state.hub.send(connection, json.dumps({"type": "hello", "seat": seat.key}))
    state.hub.add(connection)
    pump = asyncio.create_task(state.hub.pump(connection))
    bucket = TokenBucket(state.settings.ws_rate, state.settings.ws_burst)
    try:
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text") or message.get("bytes") or ""
            if len(data) > state.settings.max_ws_message:
                await websocket.close(code=TOO_BIG)
                break
            if not bucket.take():
                await websocket.close(code=POLICY)
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        state.hub.remove(connection)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
