"""The JSON API: odds beside the button, rolls for scripts and the load test, the log.

POST takes ``application/json`` only: a form on another site cannot send it without the
browser asking this server first (and this server answers no CORS request).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import ValidationError

from meneur.locale.numbers import fraction_text
from meneur.model_errors import first_problem
from meneur.web.forms import OptionsIn, RollIn
from meneur.web.labels import invalid_value
from meneur.web.live import audience, roll_meta, seen_by
from meneur.web.odds import why_none
from meneur.web.refusals import form_system
from meneur.web.rolls import RollRequest
from meneur.web.routes.common import (
    Closing,
    entry_id,
    note_in_fight,
    public_entry,
    publish,
    recent_entries,
)
from meneur.web.state import SeatDep, State
from meneur.web.systems import adapter_for

router = APIRouter(prefix="/api")


@router.get("/t/{table_id}/{token}/odds")
async def odds(
    request: Request, seat: SeatDep, state: State, character: str, trait: str = ""
) -> dict[str, Any]:
    """The exact chance of success of each trait of ``character`` with the given options.

    With ``trait``, also the chance of each amount bought before the roll (where the
    system sells dice).
    Rate-limited like rolls; computed by the odds worker within its budget (a chance it
    could not compute in time is ``null``). An option no roll takes is a 400; one the
    rule refuses (a threshold of 0) makes each chance it touches ``null``, and
    ``refused`` says why.
    """
    if not seat.may_act_for(character[:80]):
        raise HTTPException(status_code=403)
    if not await state.allow_roll(seat):
        raise HTTPException(status_code=429)
    info = await asyncio.to_thread(
        state.store.character, character[:80], campaign=seat.table.campaign
    )
    # strict, unlike a page (which leaves a mangled value out and says so): a script
    # asking threshold=3&push=4 is told push is refused, not given threshold 2's
    options = OptionsIn.model_validate(dict(request.query_params)).options()
    found = await state.odds.asheet(adapter_for(info.system), info.sheet, options, trait[:80])
    if found is not None and found.error:
        raise HTTPException(status_code=400, detail=found.error)
    chances: dict[str, Any] = {}
    for name, chance in (found.chances if found else {}).items():
        chances[name] = (
            {"chance": float(chance), "exact": fraction_text(chance)}
            if chance is not None
            else {"chance": None, "exact": None}
        )
    pushes = [
        {"tier": tier, "dice": dice, "cost": cost, "chance": float(chance)}  # tier: the value
        for tier, dice, cost, chance in (found.pushes if found and trait else [])
    ]
    refused = why_none(found)  # why a trait's chance is null
    return {
        "character": info.name,
        "system": info.system,
        "traits": chances,
        "push": pushes,
        "refused": refused,
    }


@router.get("/t/{table_id}/{token}/action/{system}/{name}/odds")
async def action_odds(
    request: Request, system: str, name: str, seat: SeatDep, state: State
) -> dict[str, Any]:
    """The exact chance of each result of a table action with the choices of its form
    (the query), before the roll. Rate-limited like rolls."""
    from meneur.web.actions import find_action

    action = find_action(system, name)
    if action is None:
        raise HTTPException(status_code=404)
    if not await state.allow_roll(seat):
        raise HTTPException(status_code=429)
    fields = dict(request.query_params)
    rows = await asyncio.to_thread(action.odds, state.roller, seat, fields)
    return {
        "odds": [
            {"label": label, "chance": float(p), "exact": fraction_text(p)} for label, p in rows
        ]
    }


@router.post("/t/{table_id}/{token}/roll")
async def roll(request: Request, seat: SeatDep, state: State) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(status_code=415)
    raw = await request.body()
    try:
        body = RollIn.model_validate_json(raw)
    except ValidationError as error:
        system = await form_system(request, loose_json(raw))
        detail = invalid_value(first_problem(error), system)
        raise HTTPException(status_code=400, detail=detail) from None
    asked = RollRequest(body.character, body.trait, body.options(), body.mode, body.faces)
    closing = Closing(state, seat)
    try:
        entry = await state.roll(seat, asked, first=closing)
    finally:
        await closing.publish()
    if entry is None:
        raise HTTPException(status_code=429)
    publish(state, seat.table, entry)
    await note_in_fight(state, seat, entry)
    seen = audience(body.mode, seat.key, seat.key, viewer_is_gm=seat.is_gm)
    shown = public_entry(seat.table, entry)
    if seen != "full":
        return {"id": shown["id"], "mode": body.mode}
    return {"id": shown["id"], "mode": body.mode, "entry": shown}


@router.get("/t/{table_id}/{token}/log")
def log(seat: SeatDep, state: State) -> dict[str, Any]:
    """The recent entries this seat may see (a blind roll's dice are left out).

    No entry carries its sequence number, chain links or seat id: their gaps and ids
    would tell who rolled in secret and how often (see :func:`public_entry`).
    """
    shown = []
    for entry in recent_entries(state, seat.table.campaign, state.settings.log_lines):
        mode = roll_meta(entry)[0]
        seen = seen_by(entry, seat.key, viewer_is_gm=seat.is_gm)
        if seen == "full":
            shown.append(public_entry(seat.table, entry))
        elif seen == "hidden":
            key = entry_id(seat.table, int(entry["seq"]))
            shown.append({"id": key, "who": entry["who"], "mode": mode, "hidden": True})
    return {"entries": shown}


def loose_json(raw: bytes) -> dict[str, Any]:
    """A refused body's fields, read only to find the system it was for (a body that is
    no JSON object gives none)."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
