"""A refused form post answered as the page it came from, with the reason.

A page's forms work without JavaScript: they POST, then come back to the table. A
refusal (a bad value, a conflict, a seat that is not there...) must come back the same
way, not as a bare error page that leaves the table: the table page (or the join page)
with the reason on top and what was typed kept, under the refusal's own status (4xx).
One place decides it, for every route: the app's exception handlers call
:func:`refusal_page` for each error of a request that does not want JSON (the page's
script sends ``X-Requested-With: fetch`` and keeps reading ``{"error": ...}``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from fastapi import Request
from fastapi.responses import Response

from meneur.errors import MeneurError
from meneur.web.state import WebState
from meneur.web.systems import adapters
from meneur.web.tables import MAX_KEY, Seat
from meneur.whole import whole_within

KEPT = 100
"""At most this many posted fields are kept to fill the page again (a form has fewer)."""


async def posted(request: Request) -> dict[str, str]:
    """The fields of the refused form, as typed (the route has read them already; a body
    that is not a form gives none)."""
    kind = request.headers.get("content-type", "")
    if not kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        return {}
    try:
        form = await request.form()
    except Exception:  # a body that is no form (a forged one): nothing to keep
        return {}
    fields = {k: v for k, v in list(form.items())[:KEPT] if isinstance(v, str)}
    fields.pop("csrf", None)
    return fields


async def form_system(request: Request, fields: Mapping[str, Any]) -> str:
    """The system a refused form or body was for, whose labels name its fields
    (:func:`meneur.web.labels.label`): the one it names (the creation form's ``system``),
    else its character's; ``""`` when it names neither, or a character the seat's
    campaign does not hold."""
    named = fields.get("system")
    if isinstance(named, str) and named in adapters():
        return named
    character = fields.get("character")
    seat: Seat | None = getattr(request.state, "seat", None)  # the route's own seat
    if seat is None or not isinstance(character, str) or not character.strip():
        return ""
    state: WebState = request.app.state.web
    try:
        info = await asyncio.to_thread(
            state.store.character, character[:80], campaign=seat.table.campaign
        )
    except MeneurError:
        return ""
    return info.system


def came_from(request: Request, page: str) -> dict[str, str]:
    """The query of the page the form was on (its roll options), when the browser says
    it was ``page`` (``Referer``, sent to the same origin)."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.path != page:
        return {}
    return dict(parse_qsl(referer.query)[:KEPT])


async def refusal_page(request: Request, status: int, message: str) -> Response | None:
    """The page a refused form post came from, showing ``message``; ``None`` when there
    is no such page (not a POST, a seat or invite that does not exist)."""
    if request.method != "POST" or status >= 500:
        return None
    params = request.path_params
    table_id = whole_within(str(params.get("table_id", "")), 0, MAX_KEY)
    if table_id is None:
        return None
    state: WebState = request.app.state.web
    if "invite" in params:
        page = _join_page(request, state, table_id, str(params["invite"]))
    elif "token" in params:
        page = _table_page(request, state, table_id, str(params["token"]))
    else:
        return None
    return await page(status, message)


Page = Callable[[int, str], Awaitable[Response | None]]
"""A page to show a refusal on: its status and message."""


def _join_page(request: Request, state: WebState, table_id: int, invite: str) -> Page:
    """The join page again, the name typed kept (a locked table, too many joins...)."""

    async def page(status: int, message: str) -> Response | None:
        table = await asyncio.to_thread(state.tables.invited, table_id, invite)
        if table is None:
            return None
        context = {
            "table": table,
            "invite": invite,
            "page_url": f"/t/{table.id}/join/{invite}",
            "refused_message": message,
            "posted": await posted(request),
        }
        return state.templates.TemplateResponse(request, "join.html", context, status_code=status)

    return page


def _table_page(request: Request, state: WebState, table_id: int, token: str) -> Page:
    """The table page of the seat that posted, the form it posted filled as typed."""
    from meneur.web.routes.common import table_context

    async def page(status: int, message: str) -> Response | None:
        seat: Seat | None = getattr(request.state, "seat", None)  # the route's own seat
        if seat is None or seat.table.id != table_id or seat.token != token:
            return None  # no such seat: the route refused it (404)
        fields = await posted(request)
        base = f"/t/{seat.table.id}/{seat.token}"
        at = request.url.path.removeprefix(base).strip("/")
        query = came_from(request, base)
        if at == "roll" or at.startswith("action/"):  # what the form chose: the odds shown
            query.update(fields)
        context = await asyncio.to_thread(table_context, state, seat, query)
        context.update(
            refused_message=message,
            posted=fields,
            refused_at=at,
            page_url=base,
            root=str(request.base_url).rstrip("/"),
        )
        return state.templates.TemplateResponse(request, "table.html", context, status_code=status)

    return page
