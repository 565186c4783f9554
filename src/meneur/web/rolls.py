"""Rolling from a sheet: the check of the character's system, logged in one transaction.

Every roll is drawn through :meth:`meneur.systems.base.Check.roll` and written with
:meth:`meneur.campaign.store.Store.append_roll`. When a game session is open the dice
come from its committed seed (so ``meneur verify`` can recompute them); typed faces are
physical dice (unless the GM refuses them while the dice are committed). The open
session is checked in the database at each roll, whoever opened it (the CLI, the table,
another server process): read before the roll, and checked again as it is written, under
the campaign's lock (a roll of dice the machine drew while a session is open is refused
and drawn again from the session), so no roll of a session can silently use other dice.
The roll
mode and the seat that rolled travel in ``decisions`` (a choice made with the roll,
covered by the entry's hash).

Writes go through worker threads, off the event loop: one on SQLite, which takes one
writer at a time anyway; :data:`WRITERS` on PostgreSQL, where the database orders them
(the campaign's row lock for the chain, the session's counter, the sheet's check).
Another writer, of this process or another, may draw from the session first: the roll
is then drawn again from the session as it now is (:data:`RETRIES`).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from meneur.campaign.chain import CommittedDice
from meneur.campaign.errors import CampaignError, DiceConflict, SheetConflict
from meneur.campaign.names import name_key
from meneur.campaign.records import CharacterInfo, NewRoll
from meneur.campaign.store import Store
from meneur.errors import RuleError, UsageError
from meneur.locale import N_
from meneur.rng import DiceSource, PhysicalDice, SecureDice, parse_faces
from meneur.web.live import ROLL_MODES
from meneur.web.odds import Odds
from meneur.web.systems import RollOptions, adapter_for
from meneur.web.tables import Seat
from meneur.web.waiting import waiting_kinds

T = TypeVar("T")
LUCK_BUDGET = 0.5
"""Seconds the writer waits for a roll's luck verdict; past it the roll is logged unjudged."""
RETRIES = 20
"""Attempts of a roll whose committed dice or sheet another process used first (each
attempt reads them again)."""
WRITERS = 4
"""Writer threads of a server process on PostgreSQL (each waits on the database mostly)."""
SHEET_SECONDS = 2.0
"""How long a sheet read for rolling is reused before it is read again. Reuse never
decides a roll: every roll's sheets are checked again when it is written (``previous``),
and one read meanwhile changed (elsewhere: the CLI, another process) is read again."""


@dataclass(frozen=True, slots=True)
class RollRequest:
    """A roll asked by a seat: whose sheet, which trait, the options, the mode, the faces."""

    character: str
    trait: str
    options: RollOptions
    mode: str = "public"
    faces: str = ""


def params_json(trait: str, params: Any, *rolls: tuple[Any, Any]) -> dict[str, Any]:
    """The params an entry logs: the roll's fields, and each (check, rolled) to replay it."""
    from meneur.campaign.replay import STEPS, step

    data = json.loads(json.dumps(asdict(params), default=str))
    return {"trait": trait, **data, STEPS: [step(check, rolled) for check, rolled in rolls]}


def typed_dice(seat: Seat, committed: CommittedDice | None, faces: str) -> PhysicalDice:
    """The faces a seat typed, as dice, unless the GM takes none while the dice of the
    open session are committed."""
    if committed is not None and not seat.table.physical:
        raise RuleError(
            N_(
                "The GM takes no typed dice while the dice are committed: roll without "
                "physical dice."
            )
        )
    return PhysicalDice(parse_faces(faces))


class Roller:
    """Rolls and logs in worker threads (one on SQLite, :data:`WRITERS` on PostgreSQL)."""

    def __init__(self, store: Store, odds: Odds | None = None) -> None:
        self.store = store
        self.odds = odds if odds is not None else Odds()
        writers = 1 if store.engine.dialect.name == "sqlite" else WRITERS
        self.worker = ThreadPoolExecutor(writers, thread_name_prefix="meneur-writer")
        self._sheets: dict[tuple[str, str], tuple[float, CharacterInfo]] = {}
        self._no_session: dict[str, float] = {}
        """When each campaign was last read with no game session open (:meth:`committed`)."""
        self._sheet_entries: set[str] = set()
        """Hashes of the entries whose roll changed sheets, until they are published."""
        self._no_waits: dict[tuple[int, str], float] = {}
        """When each seat was last read with no roll waiting (:meth:`waiting_kinds`)."""
        self._reads = threading.local()

    async def run(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` on a writer thread, in the request's context (as
        :func:`asyncio.to_thread` does): a message worded there (a plural, « 2 dés non
        utilisés ») is in its reader's language, not the server's."""
        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, context.run, function, *args)

    def close(self) -> None:
        self.worker.shutdown(wait=True)
        self.odds.close()

    def sheet(self, campaign: str, name: str) -> CharacterInfo:
        """The character's sheet, read again after :data:`SHEET_SECONDS` (or a change here);
        noted in the thread's read set when one is open (:meth:`checked`)."""
        key = (campaign, name_key(name))
        found = self._sheets.get(key)
        now = time.monotonic()
        if found is None or now - found[0] > SHEET_SECONDS:
            found = self._sheets[key] = (now, self.store.character(name, campaign=campaign))
        reads: dict[str, dict[str, Any]] | None = getattr(self._reads, "sheets", None)
        if reads is not None:
            reads.setdefault(found[1].name, found[1].sheet)
        return found[1]

    def waiting_kinds(self, seat: Seat) -> set[str]:
        """The kinds of the seat's rolls waiting for its choice, read before each of its
        rolls from a sheet (to close them first). A read that found none within
        :data:`SHEET_SECONDS` is trusted, as :meth:`committed` trusts one: a read per roll
        cost the JSON API a sixth of its rolls per second on SQLite, a quarter on
        PostgreSQL. A roll that starts waiting here forgets it (:meth:`now_waiting`); one
        that started on another process within those seconds is closed by the seat's
        next roll after them: logged after the roll that missed it, never lost."""
        key = (seat.table.id, seat.key)
        now = time.monotonic()
        seen = self._no_waits.get(key)
        if seen is not None and now - seen <= SHEET_SECONDS:
            return set()
        kinds = waiting_kinds(self.store, seat)
        if kinds:
            self._no_waits.pop(key, None)
        else:
            self._no_waits[key] = now
        return kinds

    def now_waiting(self, seat: Seat) -> None:
        """A roll of ``seat`` waits for its choice now (see :meth:`waiting_kinds`)."""
        self._no_waits.pop((seat.table.id, seat.key), None)

    def forget_sheets(self) -> None:
        self._sheets.clear()

    def wrote_sheets(self, entry: Mapping[str, Any]) -> None:
        """Note that ``entry``'s roll changed sheets (a spend, a Maladresse's Vécu): the
        pages then draw their cards again when it is published (:meth:`changed_sheets`)."""
        self._sheet_entries.add(str(entry["hash"]))

    def changed_sheets(self, entry: Mapping[str, Any]) -> bool:
        """Whether ``entry``'s roll changed sheets here (asked once, as it is published)."""
        key = str(entry.get("hash"))
        if key not in self._sheet_entries:
            return False
        self._sheet_entries.discard(key)
        return True

    def read_sheets(self) -> dict[str, dict[str, Any]]:
        """The sheets this thread read since :meth:`checked` began, as they were read."""
        reads: dict[str, dict[str, Any]] | None = getattr(self._reads, "sheets", None)
        return dict(reads) if reads is not None else {}

    def checked(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` (worker thread) with every sheet it reads checked again when
        its entry is written (:meth:`read_sheets`, passed as ``previous``): one changed
        meanwhile, by another process or the CLI, or committed dice another writer drew
        first, send it back to play on the sheets and the session as they now are
        (nothing was logged or shown), at most :data:`RETRIES` times. Every roll of the
        table is written through here."""
        for attempt in range(RETRIES):
            self._reads.sheets = {}
            try:
                return function(*args)
            except (DiceConflict, SheetConflict):
                self.forget_sheets()
                self._no_session.clear()
                if attempt == RETRIES - 1:
                    raise
            finally:
                self._reads.sheets = None
        raise AssertionError("unreachable")  # pragma: no cover

    def committed(self, campaign: str, *, recent: bool = False) -> CommittedDice | None:
        """The open session's dice for ``campaign``, read from the database now, or ``None``.

        ``recent``: a read that found no session open within :data:`SHEET_SECONDS` is
        trusted (a plain roll, the hot path of the table, saves a query). That is safe
        because the log checks again, under the campaign's lock that opening a session
        takes too, that no session is open when dice the machine drew are written: a
        session opened meanwhile refuses the roll, and :meth:`checked` plays it again
        from the session's dice."""
        if recent:
            seen = self._no_session.get(campaign)
            if seen is not None and time.monotonic() - seen < SHEET_SECONDS:
                return None
        found = self.store.committed_dice(campaign=campaign)
        if found is None:
            self._no_session[campaign] = time.monotonic()
        else:
            self._no_session.pop(campaign, None)
        return found

    def luck(self, system: str, check: Any, params: Any, outcome: Any) -> dict[str, Any] | None:
        """The roll's rank among its exact outcomes, from the odds worker within
        :data:`LUCK_BUDGET` (the writer never computes odds itself), else ``None``."""
        from meneur.web.odds import SLOW, roll_luck

        try:
            key = check.key(outcome)
        except (TypeError, ValueError):
            return None
        found = self.odds.run(roll_luck, system, params, key, budget=LUCK_BUDGET)
        return None if found is SLOW or found is None else dict(found)

    def roll(self, seat: Seat, request: RollRequest) -> dict[str, Any]:
        """Roll for ``seat`` (worker thread); the log entry as stored."""
        if request.mode not in ROLL_MODES:
            raise UsageError(N_("Unknown roll mode '{mode}'."), mode=request.mode)
        if not seat.may_act_for(request.character):
            raise CampaignError(
                N_("You may roll only for your own character, not for {name}."),
                name=request.character[:80],
            )
        # another process drew from the session, or changed the sheet, first: again, on
        # the session and the sheet as they now are (the points may not be enough any
        # more: then the roll is refused in one clear line)
        return self.checked(self._attempt, seat, request)

    def secret_enough(self, seat: Seat, mode: str, name: str, words: str = "") -> None:
        """A roll whose result shows on ``name``'s card (the Vécu of a Maladresse, a
        help's effect) tells it to every seat that reads the card: the GM and the player
        who holds the character. Each must see the roll in full, or the mode is refused:
        a player's blind roll put +1 Vécu on their own card, the fumble it hid. ``words``:
        the refusal's message id (``{name}`` the character), the roll's by default."""
        from meneur.web.live import audience
        from meneur.web.tables import Tables

        holder = Tables(self.store, cached=False).holds(seat.table.id).get(name_key(name))
        readers = {"gm", *((f"p{holder}",) if holder is not None else ())}
        if all(audience(mode, seat.key, r, viewer_is_gm=r == "gm") == "full" for r in readers):
            return
        raise RuleError(
            words
            or N_(
                "{name}'s card would show this roll's result to someone who may not see the"
                " roll: choose a less secret roll mode."
            ),
            name=name,
        )

    def _attempt(self, seat: Seat, request: RollRequest) -> dict[str, Any]:
        campaign = seat.table.campaign
        character = self.sheet(campaign, request.character)
        adapter = adapter_for(character.system)
        if adapter.result_shows_on_sheet:
            self.secret_enough(seat, request.mode, character.name)
        params = adapter.params(character.sheet, request.trait, request.options)
        paid = adapter.paid(character.sheet, params)  # refused before any die is rolled
        previous = self.read_sheets()  # checked again as the roll is written (see checked)

        def settle(outcome: Any) -> dict[str, dict[str, Any]] | None:
            written = adapter.after_roll(character.sheet, paid, params, outcome)
            return {character.name: written} if written is not None else None

        return self._roll_and_log(
            seat, request, character.name, adapter.system, adapter.check, params, settle, previous
        )

    def _roll_and_log(
        self,
        seat: Seat,
        request: RollRequest,
        name: str,
        system: str,
        check: Any,
        params: Any,
        settle: Callable[[Any], dict[str, dict[str, Any]] | None] | None = None,
        previous: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Roll, and log the roll with the sheets it changes: ``settle`` gives them from
        the outcome (what was paid before the roll, what the result gives, O-3)."""
        campaign = seat.table.campaign
        committed = self.committed(campaign, recent=not request.faces.strip())
        shared: DiceSource = committed if committed is not None else SecureDice()
        sources: list[DiceSource] = [shared] * check.streams(params)
        kind = shared.kind
        if request.faces.strip():
            sources[0] = typed_dice(seat, committed, request.faces)
            kind = "physical"
            if len(sources) > 1:
                sources[1:] = [SecureDice()] * (len(sources) - 1)
        rolled = check.roll(params, sources)
        sheets = settle(rolled.outcome) if settle is not None else None
        outcome = check.to_json(params, rolled.outcome)
        verdict = self.luck(system, check, params, rolled.outcome)
        if verdict is not None:  # as the CLI does: `meneur log --luck` judges web rolls too
            outcome["luck"] = [verdict]
        roll = NewRoll(
            system=system,
            kind="test",
            params=params_json(request.trait, params, (check, rolled)),
            faces=[list(stream) for stream in rolled.faces],
            outcome=outcome,
            source=kind,
            character=name,
            decisions=[{"mode": request.mode, "seat": seat.key}],
            dice=committed if kind == "committed" else None,
        )
        entry = self.store.append_roll(roll, sheets=sheets, campaign=campaign, previous=previous)
        if sheets:
            for name in sheets:
                self._sheets.pop((campaign, name_key(name)), None)
            self.wrote_sheets(entry)
        return entry
