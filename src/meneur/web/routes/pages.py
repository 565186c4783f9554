"""HTML pages and their forms: they work without JavaScript (POST, then redirect)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from meneur.campaign.store import NewCharacter
from meneur.errors import RuleError, UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.web import combat as fights
from meneur.web.forms import (
    CharacterForm,
    CombatForm,
    CsrfForm,
    JoinForm,
    RollForm,
    SeatsForm,
)
from meneur.web.rolls import RollRequest
from meneur.web.routes.common import (
    Closing,
    check_csrf,
    entry_id,
    note_in_fight,
    publish,
    table_context,
)
from meneur.web.state import SeatDep, State, Token
from meneur.web.systems import NewCombatant, Waiting, adapter_for, adapters
from meneur.web.tables import Seat
from meneur.whole import parse_whole, whole_within

router = APIRouter()
CARDS = '{"type": "cards"}'
"""The live message that the table's characters or seats changed (a character made, picked
or given, a seat come or changed): each page brings its cards, seats and tracker up to date
(``table.js``, ``renewCards``)."""


def back(seat: Seat, query: dict[str, Any] | None = None) -> RedirectResponse:
    url = f"/t/{seat.table.id}/{seat.token}"
    if query:
        url += "?" + urlencode(query)
    return RedirectResponse(url, status_code=303)


@router.get("/", response_class=HTMLResponse)
def home(request: Request, state: State) -> Response:
    return state.templates.TemplateResponse(request, "home.html", {})


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    """The tab's icon (a die), where browsers look for it even without a ``<link>``."""
    from meneur.web.state import HERE

    icon = (HERE / "static" / "favicon.svg").read_bytes()
    return Response(icon, media_type="image/svg+xml")


@router.get("/t/{table_id}/join/{invite}", response_class=HTMLResponse)
def join_page(request: Request, table_id: int, invite: Token, state: State) -> Response:
    table = state.tables.invited(table_id, invite)
    if table is None:
        raise HTTPException(status_code=404)
    return state.templates.TemplateResponse(
        request, "join.html", {"table": table, "invite": invite}
    )


@router.post("/t/{table_id}/join/{invite}")
async def join(
    request: Request,
    table_id: int,
    invite: Token,
    form: Annotated[JoinForm, Form()],
    state: State,
) -> Response:
    """Take a seat with the invite: rate-limited per address and table (429 beyond)."""
    table = await asyncio.to_thread(state.tables.invited, table_id, invite)
    if table is None:
        raise HTTPException(status_code=404)
    address = request.client.host if request.client else "-"
    if not await state.allow_join(table.id, address):
        raise HTTPException(status_code=429, detail=_("Too many joins from here: wait a moment."))
    player = await state.roller.run(state.tables.join, table, form.name)
    state.broadcast(table.id, CARDS)  # the GM's list of seats
    return RedirectResponse(f"/t/{table.id}/{player.token}", status_code=303)


@router.get("/t/{table_id}/{token}", response_class=HTMLResponse)
def table_page(request: Request, seat: SeatDep, state: State) -> Response:
    context = table_context(state, seat, dict(request.query_params))
    context["root"] = str(request.base_url).rstrip("/")
    return state.templates.TemplateResponse(request, "table.html", context)


@router.get("/t/{table_id}/{token}/log.json")
async def download_log(seat: SeatDep, state: State) -> Response:
    """The log this seat may see, as a file ``meneur verify`` checks (see :mod:`.download`)."""
    import json

    from meneur.web.download import file_name, seat_log

    document = await asyncio.to_thread(seat_log, state.store, seat)
    body = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    disposition = f'attachment; filename="{file_name(seat.table.campaign)}"'
    return Response(
        body, media_type="application/json", headers={"content-disposition": disposition}
    )


@router.post("/t/{table_id}/{token}/roll")
async def roll(
    request: Request, seat: SeatDep, form: Annotated[RollForm, Form()], state: State
) -> Response:
    check_csrf(state, seat, form.csrf)
    if not await state.allow_roll(seat):
        raise HTTPException(status_code=429)
    wait = state.waiting_for(form)
    form = blind_choices(form, wait)
    wait = state.waiting_for(form)
    closing = Closing(state, seat)
    try:
        if wait is not None:
            entry = await state.roller.run(
                closing.then(wait.start),
                state.roller,
                seat,
                form.character,
                form.trait,
                form.options(),
                form.mode,
                form.faces,
            )
        else:
            asked = RollRequest(form.character, form.trait, form.options(), form.mode, form.faces)
            entry = await state.roller.run(closing.then(state.roller.roll), seat, asked)
    finally:
        await closing.publish()
    keep = form.model_dump(include={"threshold", "difficulty", "modifier", "explode", "level"})
    return await after_roll(request, seat, entry, keep)


def blind_choices(form: RollForm, wait: Waiting | None) -> RollForm:
    """What a blind roller may still choose: everything decided before the dice roll.

    A blind roller never sees a die, a count or a chance drawn from them, so no choice
    can wait for the dice: each waiting roll says what it becomes for a blind roller
    (a policy chosen up front, or a clear refusal).
    """
    if form.mode != "blindroll" or wait is None:
        return form
    blind: RollForm = wait.blind(form)
    return blind


def whole(typed: str, low: int, high: int) -> int | None:
    """A whole number typed in the tracker's form, ``None`` when left empty."""
    text = typed.strip()
    if not text:
        return None
    try:
        return parse_whole(text, low=low, high=high)  # the command line's one rule
    except UsageError:
        raise RuleError(
            N_("'{value}' is not a whole number from {low} to {high}."),
            value=typed,
            low=low,
            high=high,
        ) from None


def combatant(state: State, seat: Seat, name: str, typed: str, initiative: str) -> NewCombatant:
    """A new combatant as its sheet gives it (its system's adapter says how); the values
    typed win. Anyone without a sheet starts at 10, initiative 0."""
    from meneur.campaign.errors import CampaignError

    value = whole(typed, 0, 10000)
    order = whole(initiative, -100, 100)
    try:
        info = state.store.character(name, campaign=seat.table.campaign)
    except CampaignError:
        return NewCombatant(order or 0, 10 if value is None else value)
    adapter = adapters().get(info.system)
    if adapter is None:
        return NewCombatant(order or 0, 10 if value is None else value, system=info.system)
    return adapter.combatant(info.sheet, order, value)


def initiatives(state: State, seat: Seat, combat: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each combatant's initiative by its system's rule, read from its sheet now (by
    name); a combatant without a sheet, or whose system's text gives none, is left out
    (it keeps its typed initiative)."""
    from meneur.campaign.errors import CampaignError

    found: dict[str, tuple[int, int]] = {}
    for fighter in fights.normal(combat)["combatants"]:
        adapter = adapters().get(str(fighter.get("system") or ""))
        if adapter is None or not adapter.initiative_rule:
            continue
        try:
            info = state.store.character(str(fighter["name"]), campaign=seat.table.campaign)
        except CampaignError:
            continue
        if info.system == adapter.system:
            value = adapter.initiative(info.sheet)
            if value is not None:
                found[str(fighter["name"])] = value
    return found


async def after_roll(
    request: Request, seat: Seat, entry: dict[str, Any] | None, keep: dict[str, Any]
) -> Response:
    """The answer to a roll or to a choice, which may wait for a (next) choice: ``entry``
    is ``None`` then, and the roller knows a roll waits (:meth:`Roller.now_waiting`); a
    finished one is sent live and noted in the tracker, as any roll. ``keep``: the roll
    form's options to keep selected."""
    state: Any = request.app.state.web
    if entry is None:
        state.roller.now_waiting(seat)
    else:
        publish(state, seat.table, entry)
        await note_in_fight(state, seat, entry)
    if request.headers.get("x-requested-with") == "fetch":
        return JSONResponse(
            {"id": entry_id(seat.table, entry["seq"])} if entry else {"pending": True}
        )
    return back(seat, keep)


@router.post("/t/{table_id}/{token}/roll/{wait}")
async def roll_choice(request: Request, wait: str, seat: SeatDep, state: State) -> Response:
    """The roller's choice for a roll waiting on it (the system's own form fields)."""
    raw = await request.form()
    fields = {k: v for k, v in raw.items() if isinstance(v, str)}
    check_csrf(state, seat, fields.pop("csrf", ""))
    waiting = state.waits.get(wait)
    if waiting is None:
        raise HTTPException(status_code=404)
    if not await state.allow_roll(seat):  # a choice draws dice and writes: as a roll
        raise HTTPException(status_code=429)
    entry = await state.roller.run(waiting.choose, state.roller, seat, fields)
    return await after_roll(request, seat, entry, dict(waiting.keep))


@router.post("/t/{table_id}/{token}/action/{system}/{name}")
async def table_action(
    request: Request, system: str, name: str, seat: SeatDep, state: State
) -> Response:
    """A roll between several of the table's characters (or a step of play) that a
    system offers (:class:`~meneur.web.systems.TableAction`): rate-limited as rolls,
    logged with the sheets it changes, sent live."""
    from meneur.web.actions import find_action

    raw = await request.form()
    fields = {k: v for k, v in raw.items() if isinstance(v, str)}
    check_csrf(state, seat, fields.pop("csrf", ""))
    action = find_action(system, name)
    if action is None:
        raise HTTPException(status_code=404)
    if not await state.allow_roll(seat):
        raise HTTPException(status_code=429)
    entry = await state.roller.run(action.act, state.roller, seat, fields)
    state.roller.forget_sheets()
    publish(state, seat.table, entry)
    state.broadcast(seat.table.id, '{"type": "sheet"}')
    if request.headers.get("x-requested-with") == "fetch":
        return JSONResponse({"id": entry_id(seat.table, entry["seq"])})
    return back(seat)


@router.post("/t/{table_id}/{token}/character")
async def character(request: Request, seat: SeatDep, state: State) -> Response:
    """Pick a free character (a player's first), or create one.

    A player's new character is theirs; the GM's is a non-player character (theirs alone)
    unless the GM leaves it free for a player to pick.
    """
    raw = await request.form()
    form = CharacterForm.model_validate({k: v for k, v in raw.items() if isinstance(v, str)})
    check_csrf(state, seat, form.csrf)
    if form.action == "pick":
        if seat.is_gm:
            raise HTTPException(status_code=403)
        await state.roller.run(state.tables.claim, seat, form.character)
        state.broadcast(seat.table.id, CARDS)
        return back(seat)
    if seat.player is not None and seat.player.character is not None:
        raise HTTPException(status_code=400, detail=_("You already play a character."))
    adapter = adapter_for(form.system)
    fields = {k: v for k, v in (form.model_extra or {}).items() if isinstance(v, str)}
    # refused: the form comes back as it was typed, with the reason (meneur.web.refusals)
    sheet = adapter.new_sheet(form.name, fields)
    new = NewCharacter(adapter.system, form.name, sheet)
    made = await state.roller.run(
        lambda: state.store.add_characters([new], campaign=seat.table.campaign)
    )
    if not seat.is_gm:
        await state.roller.run(state.tables.claim, seat, made[0].name)
    elif not form.free:
        await state.roller.run(state.tables.assign, seat.table, made[0].name, None)
    state.broadcast(seat.table.id, CARDS)  # the GM sees a player's new character come in
    return back(seat)


@router.post("/t/{table_id}/{token}/sheet")
async def edit_sheet(request: Request, seat: SeatDep, state: State) -> Response:
    """Change the values of a sheet that vary in play: a player their own character's,
    the GM any. Rate-limited as rolls; logged and sent live to the table."""
    from meneur.web.sheets import edit_sheet as edit

    raw = await request.form()
    fields = {k: v for k, v in raw.items() if isinstance(v, str)}
    check_csrf(state, seat, fields.pop("csrf", ""))
    if not await state.allow_roll(seat):
        raise HTTPException(status_code=429)
    name = fields.pop("character", "")
    entry = await state.roller.run(edit, state.store, seat, name, fields)
    state.roller.forget_sheets()
    if entry is not None:
        publish(state, seat.table, entry)
        state.broadcast(seat.table.id, '{"type": "sheet"}')
    if request.headers.get("x-requested-with") == "fetch":
        return JSONResponse({"id": entry_id(seat.table, entry["seq"]) if entry else None})
    return back(seat)


@router.post("/t/{table_id}/{token}/session/{action}")
async def session(
    action: str, seat: SeatDep, form: Annotated[CsrfForm, Form()], state: State
) -> Response:
    check_csrf(state, seat, form.csrf)
    if not seat.is_gm or action not in ("start", "reveal"):
        raise HTTPException(status_code=403)
    campaign = seat.table.campaign

    def change() -> None:
        if action == "start":
            state.store.start_session(campaign=campaign)
        else:
            state.store.reveal_session(campaign=campaign)

    await state.roller.run(change)
    state.broadcast(seat.table.id, '{"type": "session"}')
    return back(seat)


@router.post("/t/{table_id}/{token}/seats", response_model=None)
async def seats(
    request: Request, seat: SeatDep, form: Annotated[SeatsForm, Form()], state: State
) -> Response:
    """The GM manages the table: remove a seat or renew its link, give a character to a
    seat (or keep it, or free it), renew the invite link, lock the table, take or refuse
    typed faces while the dice are committed. A removed or renewed seat's link stops at
    once and its live pages are closed."""
    check_csrf(state, seat, form.csrf)
    if not seat.is_gm:
        raise HTTPException(status_code=403)
    table, tables = seat.table, state.tables
    if form.action in ("kick", "renew"):
        method = tables.kick if form.action == "kick" else tables.renew
        done = await state.roller.run(method, table, form.player)
        state.close_seat(table.id, f"p{form.player}")
        if form.action == "renew":  # the new link, shown once to the GM (never stored here)
            context = table_context(state, seat, {})
            context["root"] = str(request.base_url).rstrip("/")
            context["new_link"] = f"{context['root']}/t/{table.id}/{done}"
            context["page_url"] = f"/t/{table.id}/{seat.token}"  # served at the form's URL
            return state.templates.TemplateResponse(request, "table.html", context)
    elif form.action == "assign":
        if form.holder == "free":
            await state.roller.run(tables.release, table, form.character)
        else:
            holder = None if form.holder == "gm" else int(form.holder)
            await state.roller.run(tables.assign, table, form.character, holder)
    elif form.action == "invite":
        await state.roller.run(tables.rotate_invite, table)
    else:
        flags = {
            "lock": {"locked": True},
            "unlock": {"locked": False},
            "physical": {"physical": True},
            "no_physical": {"physical": False},
        }[form.action]
        await state.roller.run(lambda: tables.set_flags(table, **flags))
    state.broadcast(table.id, CARDS)  # a character given to a seat comes to its page
    return back(seat)


TRACKER_ONLY = ("add", "remove", "next", "reset", "adjust", "initiative")
"""The tracker's own actions; any other is a roll between combatants, by their system."""


@router.post("/t/{table_id}/{token}/combat")
async def combat(request: Request, seat: SeatDep, state: State) -> Response:
    raw = await request.form()
    fields = {k: v for k, v in raw.items() if isinstance(v, str)}
    form = CombatForm.model_validate(fields)
    check_csrf(state, seat, form.csrf)
    if not seat.is_gm:
        raise HTTPException(status_code=403)
    table = state.tables.get(seat.table.id)
    assert table is not None
    current = table.combat
    if form.action not in TRACKER_ONLY:  # a roll between combatants, by their system
        if not await state.allow_roll(seat):  # an exchange is a roll: the same rate limit
            raise HTTPException(status_code=429)
        third = whole_within(fields.get("third", ""), 0, fights.MAX_COMBATANTS)
        joined = (form.index, form.other, third)
        systems = {
            str(c.get("system") or "")
            for i, c in enumerate(fights.normal(current)["combatants"])
            if i in joined
        } - {""}
        if len(systems) != 1:  # each system plays its own exchange, never another's
            raise RuleError(
                N_("An exchange of blows needs characters of one system (with a sheet).")
            )
        adapter = adapter_for(systems.pop())
        if form.action == "exchange":
            played: Any = adapter.exchange
        else:
            played = partial(adapter.tracker_action, form.action)

        def play(tracker: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
            # on the tracker as it is once held, not as this request read it: an exchange
            # or a change made meanwhile (another tab, another process) is played on,
            # with the fighters the page showed at their places (else refused)
            fights.shown_there(tracker, (i for i in joined if i is not None), fields)
            result: tuple[dict[str, Any], dict[str, Any]] = state.roller.checked(
                played, state.roller, seat, tracker, form.index, form.other, fields
            )
            return result

        entry = await state.roller.run(state.tables.play_combat, table.id, play)
        publish(state, table, entry)
        state.broadcast(table.id, '{"type": "combat"}')
        return back(seat)
    change: Callable[[dict[str, Any]], dict[str, Any]]
    if form.action == "add":
        new = await state.roller.run(
            combatant, state, seat, form.name, form.health, form.initiative
        )
        change = partial(
            fights.add,
            name=form.name,
            initiative=new.initiative,
            health=new.health,
            dice=new.dice,
            system=new.system,
            agility=new.agility,
            most=new.most,
            wounded=new.wounded,
            level=form.level,
        )
    elif form.action == "remove":  # the combatant shown at that place, if the page says
        change = partial(fights.remove, index=form.index, name=form.combatant or None)
    elif form.action == "adjust":
        change = partial(
            fights.adjust,
            index=form.index,
            delta=form.delta,
            wounds=form.wounds or None,
            name=form.combatant or None,
        )
    elif form.action == "reset":
        change = lambda _combat: fights.empty()  # noqa: E731
    elif form.action == "initiative":
        found = await state.roller.run(initiatives, state, seat, current)
        change = partial(fights.reorder, found=found)
    else:
        change = fights.advance
    # applied to the tracker as it is now, under its row lock: two changes at once
    # (through any processes) both apply, one after the other
    await state.roller.run(state.tables.update_combat, table.id, change)
    state.broadcast(table.id, '{"type": "combat"}')
    return back(seat)
