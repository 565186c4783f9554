"""The dice line and chat (:mod:`meneur.web.chat`): one POST per line, sent live.

The form works without JavaScript (POST, then back to the table; ``/help`` answers
with the table page, the help under the line); the page's script
sends it with ``X-Requested-With: fetch`` and reads a JSON answer: ``{"id": ...}`` for
a line logged, ``{"help": ...}`` for ``/help`` or an unknown command, ``{"error": ...}``
(400) for a line refused, 429 past the seat's rate.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from meneur.locale import gettext as _
from meneur.web import chat
from meneur.web.routes.common import check_csrf, entry_id, publish, table_context
from meneur.web.routes.pages import back
from meneur.web.state import SeatDep, State, WebState
from meneur.web.tables import Seat

router = APIRouter()


class LineForm(BaseModel):
    csrf: str = Field(max_length=100)
    line: str = Field(max_length=8 * chat.MAX_LINE)
    """Bounded again, with a clear message, by :func:`meneur.web.chat.clean_line`."""
    mode: str = Field(default="public", max_length=20)


def help_text(unknown: str = "") -> str:
    """The short help of the line (after an unknown command, says which)."""
    words = _(
        "/r 2d6+3 rolls (in the mode chosen) · /r 2d6+3 = 4 5 logs your own dice · "
        "/gr GM only · /br blind · /sr for you only · "
        "/w Name message whispers (the GM reads every whisper) · any other text is said "
        "to the table."
    )
    if unknown:
        return _("{command} is not a command.").format(command=unknown) + " " + words
    return words


async def help_page(request: Request, state: WebState, seat: Seat, text: str) -> Response:
    """The table page with the help under the line, for a browser without JavaScript
    (the script shows the same words in the same place): nothing is logged, so there is
    nothing to come back to by a redirect."""
    context = await asyncio.to_thread(table_context, state, seat, {})
    context.update(
        said_help=text,
        page_url=f"/t/{seat.table.id}/{seat.token}",  # served at the form's address
        root=str(request.base_url).rstrip("/"),
    )
    return state.templates.TemplateResponse(request, "table.html", context)


@router.post("/t/{table_id}/{token}/say")
async def say(
    request: Request, seat: SeatDep, state: State, form: Annotated[LineForm, Form()]
) -> Response:
    """One line of the dice line: a roll, a whisper, a chat line, or the help."""
    check_csrf(state, seat, form.csrf)
    command = chat.parse_line(form.line, form.mode)
    fetch = request.headers.get("x-requested-with") == "fetch"
    if isinstance(command, chat.Help):
        if fetch:
            return JSONResponse({"help": help_text(command.unknown)})
        return await help_page(request, state, seat, help_text(command.unknown))
    if not await state.allow_chat(seat):
        raise HTTPException(status_code=429, detail=_("Too many lines at once: wait a moment."))
    entry: dict[str, Any]
    if isinstance(command, chat.DiceLine):
        if not await state.allow_roll(seat):
            raise HTTPException(status_code=429)
        entry = await state.roller.run(chat.roll, state.roller, seat, command)
    elif isinstance(command, chat.Whisper):
        players = await asyncio.to_thread(state.tables.players, seat.table.id)
        target, text = chat.addressee(command.typed, chat.seat_refs(players), seat.key)
        entry = await state.roller.run(chat.say, state.store, seat, text, target)
    else:
        entry = await state.roller.run(chat.say, state.store, seat, command.text)
    publish(state, seat.table, entry)
    if fetch:
        return JSONResponse({"id": entry_id(seat.table, int(entry["seq"]))})
    return back(seat)
