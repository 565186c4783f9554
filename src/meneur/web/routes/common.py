"""Helpers the routes share: the table page's data, rendering a log line, publishing a roll,
noting it in the combat tracker, closing the rolls that wait before a new one."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from fastapi import HTTPException
from markupsafe import Markup
from sqlalchemy import select

from meneur.campaign.models import Campaign, Roll
from meneur.campaign.names import name_key
from meneur.campaign.store import roll_dict
from meneur.errors import MeneurError
from meneur.locale import current_language, set_language
from meneur.locale import gettext as _
from meneur.web import combat as fights
from meneur.web.live import Audience, roll_meta, seen_by, whisper_to
from meneur.web.odds import why_none
from meneur.web.rulesdoc import Rule, for_systems
from meneur.web.state import WebState
from meneur.web.systems import EditField, RollOptions, Trait, adapters
from meneur.web.tables import PlayerInfo, Seat, TableInfo, same_token
from meneur.web.views import LogLine, log_line, mode_label


@contextlib.contextmanager
def language(code: str) -> Iterator[None]:
    before = current_language()
    set_language(code)
    try:
        yield
    finally:
        set_language(before)


def check_csrf(state: WebState, seat: Seat, given: str) -> None:
    if not same_token(given, state.csrf(seat)):
        raise HTTPException(status_code=403)


def recent_entries(state: WebState, campaign: str, limit: int) -> list[dict[str, Any]]:
    """The last ``limit`` log entries of the campaign, oldest first."""
    with state.store.transaction() as session:
        rows = session.scalars(
            select(Roll)
            .join(Campaign, Campaign.id == Roll.campaign_id)
            .where(Campaign.name == campaign)
            .order_by(Roll.seq.desc())
            .limit(limit)
        ).all()
        return [roll_dict(row) for row in reversed(rows)]


HIDDEN_FIELDS = frozenset({"seq", "prev_hash", "hash", "counter", "draws"})
"""What a table never shows of a log entry: its place in the chain. Sequence numbers,
links and committed-dice counters have gaps where the secret rolls are: they would count
them. The GM's export (``meneur log export``) holds them all."""


def entry_id(table: TableInfo, seq: int) -> str:
    """An entry's opaque id at ``table`` (stable, unordered, unguessable without the GM token)."""
    key = table.gm_token.encode()
    return hmac.new(key, f"entry:{seq}".encode(), hashlib.sha256).hexdigest()[:16]


def public_entry(table: TableInfo, entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as the table's API shows it: no chain position, no seat id."""
    shown = {name: value for name, value in entry.items() if name not in HIDDEN_FIELDS}
    shown["id"] = entry_id(table, int(entry["seq"]))
    shown["decisions"] = [
        {k: v for k, v in d.items() if k not in ("seat", "to")} if isinstance(d, dict) else d
        for d in entry.get("decisions") or []
    ]
    return shown


def visible_lines(state: WebState, seat: Seat) -> list[LogLine]:
    lines = []
    for entry in recent_entries(state, seat.table.campaign, state.settings.log_lines):
        seen = seen_by(entry, seat.key, viewer_is_gm=seat.is_gm)
        if seen is not None:
            key = entry_id(seat.table, int(entry["seq"]))
            mode = roll_meta(entry)[0]
            lines.append(log_line(entry, mode, hidden=seen == "hidden", key=key, viewer=seat.key))
    return list(reversed(lines))


def render_line(state: WebState, line: LogLine) -> str:
    template = state.templates.env.get_template("_line.html")
    return template.render(line=line, mode_label=mode_label)


def publish(state: WebState, table: TableInfo, entry: dict[str, Any]) -> None:
    """Send a new log entry to every page of the table allowed to see it, on every process."""
    key = entry_id(table, int(entry["seq"]))
    message = {"kind": "roll", "table": table.id, "id": key, "entry": entry}
    state.send({**message, "campaign": table.campaign})
    if state.roller.changed_sheets(entry):  # the cards show the sheet as it now is
        state.broadcast(table.id, '{"type": "sheet"}')


def deliver(state: WebState, message: dict[str, Any]) -> None:
    """Hand a live message (see :mod:`meneur.web.fanout`) to this process's pages."""
    table_id = int(message["table"])
    if message["kind"] == "broadcast":
        state.hub.broadcast(table_id, str(message["text"]))
    elif message["kind"] == "close":
        state.hub.close_seat(table_id, str(message["seat"]))
    elif message["kind"] == "seats":  # the database's trigger: the seats changed somewhere
        state.tables.forget(table_id)
    elif message["kind"] == "roll" and "entry" in message:
        deliver_roll(state, table_id, message["entry"], str(message["id"]))
    elif message["kind"] == "roll":  # too large to travel: read from the database
        campaign, seq = str(message["campaign"]), int(message["seq"])

        async def fetch() -> None:
            entry = await asyncio.to_thread(entry_at, state, campaign, seq)
            if entry is not None:
                deliver_roll(state, table_id, entry, str(message["id"]))

        task = asyncio.get_running_loop().create_task(fetch())
        FETCHING.add(task)
        task.add_done_callback(FETCHING.discard)


FETCHING: set[asyncio.Task[None]] = set()
"""The reads of large entries under way (kept referenced until done)."""


def entry_at(state: WebState, campaign: str, seq: int) -> dict[str, Any] | None:
    with state.store.transaction() as session:
        row = session.scalar(
            select(Roll)
            .join(Campaign, Campaign.id == Roll.campaign_id)
            .where(Campaign.name == campaign, Roll.seq == seq)
        )
        return roll_dict(row) if row is not None else None


def deliver_roll(state: WebState, table_id: int, entry: dict[str, Any], key: str) -> int:
    """Queue the entry for every page of this process allowed to see it."""
    mode, roller = roll_meta(entry)
    target = whisper_to(entry)
    if roller is not None and target is not None:  # a whisper: each reader reads their part

        def part(relation: str, code: str) -> str:
            viewer = roller if relation == "from" else target if relation == "to" else ""
            with language(code):
                html = render_line(state, log_line(entry, mode, key=key, viewer=viewer))
            return json.dumps({"type": "roll", "id": key, "html": html})

        return state.hub.whisper(table_id, roller, target, part)

    def render(seen: Audience, code: str) -> str:
        with language(code):
            html = render_line(state, log_line(entry, mode, hidden=seen == "hidden", key=key))
        return json.dumps({"type": "roll", "id": key, "html": html})

    return state.hub.publish(table_id, mode, roller, render)


@dataclass
class SheetView:
    """A character as the table page shows it, with its rollable traits and their odds."""

    name: str
    system: str
    title: str
    options: tuple[str, ...]
    traits: list[tuple[Trait, Fraction | None]]
    stats: list[tuple[str, str]]
    owner: str = ""
    error: str = ""
    refused: str = ""
    """Why a trait shows « – »: the options asked are outside the rules (a threshold of
    0), or one trait is (a Force of 0); the page's script keeps it up to date."""
    fields: list[str] = field(default_factory=list)
    chosen: RollOptions = field(default_factory=RollOptions)
    """The roll options with the system's defaults where the page gave none."""
    choices: Mapping[str, list[tuple[Any, str]]] = field(default_factory=dict)
    """Named values the system's roll form offers (a difficulty ladder...)."""
    pushes: list[tuple[int, int, int, Fraction]] = field(default_factory=list)
    """Each amount bought before the roll, for the first trait (tier, dice, cost, exact
    chance)."""
    edits: list[EditField] = field(default_factory=list)
    """The values of the sheet that change in play, in its edit form."""

    @property
    def anchor(self) -> str:
        """The card's part in its elements' ids: its character's in every rendering of the
        page, not its place (a character made since moves the cards after it), so that the
        page's script brings each card up to date from its own character's."""
        return "c" + hashlib.sha256(name_key(self.name).encode()).hexdigest()[:16]


def options_from(query: dict[str, str]) -> tuple[RollOptions, str]:
    """The roll options of a page's address, and what was wrong with it ("" if nothing).

    A value no roll takes (``?threshold=x``, ``explode=parfois``) is left out and its
    field takes the rules' default; the others stand, and the page says which
    value it did not take, where it showed the default chances of every option without
    a word. (The JSON API refuses such an address: a program wants the error.)
    """
    from pydantic import ValidationError

    from meneur.model_errors import first_problem
    from meneur.web.forms import OptionsIn
    from meneur.web.labels import invalid_value

    try:
        return OptionsIn.model_validate(query).options(), ""
    except ValidationError as error:
        wrong = {str(problem["loc"][0]) for problem in error.errors() if problem["loc"]}
        said = invalid_value(first_problem(error))
    kept = {key: value for key, value in query.items() if key not in wrong}
    options = OptionsIn.model_validate(kept).options()  # each field is checked on its own
    return options, _("{problem} The page shows the default value instead.").format(problem=said)


def sheet_view(
    state: WebState, system: str, name: str, sheet: dict[str, Any], options: RollOptions
) -> SheetView:
    """A character's card: its traits with their exact chances, from the odds worker
    (« – » for a chance past the budget: the page never waits longer)."""
    adapter = adapters().get(system)
    if adapter is None:
        return SheetView(name, system, system, (), [], [])
    title = adapter.title
    options = adapter.chosen(options)
    try:
        names = adapter.traits(sheet)
        stats = adapter.stats(sheet)
        edits = adapter.edit_fields(sheet)
    except MeneurError as error:
        return SheetView(name, system, title, (), [], [], error=str(error))
    first = names[0].name if names else ""
    found = state.odds.sheet(adapter, sheet, options, first)
    if found is not None and found.error:
        return SheetView(name, system, title, (), [], [], error=found.error)
    chances = found.chances if found else {}
    traits = [(trait, chances.get(trait.name)) for trait in names]
    view = SheetView(name, system, title, adapter.option_fields, traits, stats)
    view.pushes = found.pushes if found else []
    view.refused = why_none(found)
    view.chosen = options
    choices: dict[str, list[tuple[Any, str]]] = {}
    for key, named in adapter.choices().items():  # a value given off the list is offered too
        chosen = getattr(options, key)
        extra = [] if any(value == chosen for value, _label in named) else [(chosen, str(chosen))]
        choices[key] = [*named, *extra]
    view.choices = choices
    view.edits = edits
    return view


def rules_panel(systems: set[str]) -> list[tuple[Rule, Markup]]:
    """The rules panel's entries: those of the systems played at the table (all when none
    is yet), from the shipped copy of ``docs/rules.md``."""
    from meneur.systems.registry import SYSTEMS

    return for_systems({s.title for s in SYSTEMS if s.name in systems})


def seat_label(player: PlayerInfo) -> str:
    """A seat as the GM sees it: its name and its number (two Bastien stay two seats)."""
    return f"{player.name} #{player.id}"


def tracker_context(characters: list[Any]) -> dict[str, Any]:
    """The tracker's fields for the systems the campaign's characters play (every
    system's while it has none): their parts of the form, health and levels."""
    known = adapters()
    playing = [name for name in known if any(c.system == name for c in characters)]
    shown = [known[name] for name in (playing or list(known))]
    levels: dict[str, str] = {}
    for adapter in shown:
        levels.update(adapter.levels())
    labels = dict.fromkeys(_(adapter.health) for adapter in shown if adapter.shows_health)
    return {
        "table_systems": [adapter.system for adapter in shown],
        "levels": levels,
        "no_health": [adapter.system for adapter in shown if not adapter.shows_health],
        "health_label": " / ".join(labels) or _("Health"),
        "initiative_rules": [
            (adapter.title, _(adapter.initiative_rule))
            for adapter in shown
            if adapter.initiative_rule
        ],
        "no_initiative": [adapter.title for adapter in shown if not adapter.initiative_rule],
    }


def table_context(state: WebState, seat: Seat, query: dict[str, str]) -> dict[str, Any]:
    options, address = options_from(query)
    players = state.tables.players(seat.table.id)
    labels = {p.id: seat_label(p) for p in players}
    holds = state.tables.holds(seat.table.id)
    characters = state.store.characters(campaign=seat.table.campaign)
    sheets = []
    for info in characters:
        if seat.may_act_for(info.name):
            view = sheet_view(state, info.system, info.name, info.sheet, options)
            key = name_key(info.name)
            if key in holds:
                holder = holds[key]
                view.owner = _("non-player character") if holder is None else labels[holder]
            sheets.append(view)
    sessions = state.store.game_sessions(campaign=seat.table.campaign)
    lines = visible_lines(state, seat)
    unclaimed = [c.name for c in characters if name_key(c.name) not in holds]
    return {
        "seat": seat,
        "table": seat.table,
        "players": players,
        "sheets": sheets,
        "options": options,
        "lines": lines,
        "rules": rules_panel({c.system for c in characters} | {line.system for line in lines}),
        "session": sessions[-1] if sessions else None,
        "csrf": state.csrf(seat),
        "combat": fights.normal(seat.table.combat),
        "waiting": [
            (wait, shown) for wait in state.waits.values() if (shown := wait.view(seat)) is not None
        ],
        "actions": [
            (action, shown)
            for adapter in adapters().values()
            for action in adapter.table_actions()
            if (shown := action.view(seat, characters, query)) is not None
        ],
        "unclaimed": unclaimed,
        "labels": labels,
        "online": state.hub.seats(seat.table.id),
        "systems": [
            (name, adapter.title, adapter.creation_fields()) for name, adapter in adapters().items()
        ],
        **tracker_context(characters),
        "mode_label": mode_label,
        "base": f"/t/{seat.table.id}/{seat.token}",
        "refused_message": address,  # a refused form's own message replaces it
    }


async def note_in_fight(state: WebState, seat: Seat, entry: dict[str, Any]) -> None:
    """A public roll by a combatant shows its verdict in the combat tracker."""
    if roll_meta(entry)[0] != "public" or not seat.table.combat.get("combatants"):
        return
    line = log_line(entry, "public")
    noted = partial(fights.record_roll, name=str(entry["who"]), verdict=line.verdict.words)
    if await state.roller.run(state.tables.update_combat, seat.table.id, noted) is not None:
        state.broadcast(seat.table.id, '{"type": "combat"}')


class Closing:
    """The seat's waiting rolls, logged as they stand before it rolls again from a sheet
    (:meth:`~meneur.web.waiting.SeatWaits.close`): dice seen are never dropped, so a
    roll cannot be tried again until it pleases.

    Done on the writer in the same hop as the new roll (:meth:`then`), after one read
    that finds none waits, the usual case: a hop and a statement per kind before every
    roll cost the JSON API half its rolls per second. The closed rolls are sent live and
    noted in the tracker (:meth:`publish`), even when the new roll is refused.
    """

    def __init__(self, state: WebState, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        self.closed: list[dict[str, Any]] = []

    def __call__(self) -> None:
        """(writer) Close the seat's waiting rolls, if any waits."""
        roller, seat = self.state.roller, self.seat
        present = roller.waiting_kinds(seat)
        for wait in self.state.waits.values():
            if wait.kind in present and (entry := wait.close(roller, seat)) is not None:
                self.closed.append(entry)

    def then(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function``, called on the writer once the waiting rolls are closed."""

        def both(*args: Any) -> Any:
            self()
            return function(*args)

        return both

    async def publish(self) -> None:
        for entry in self.closed:
            publish(self.state, self.seat.table, entry)
            await note_in_fight(self.state, self.seat, entry)
