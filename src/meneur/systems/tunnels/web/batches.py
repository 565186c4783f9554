"""Tunnels explosions chosen batch by batch (T-5, T-6): the player sees each batch first.

A test with the ``ask`` choice rolls its pool, then, whenever a batch grants extra dice
(each face shown k >= 2 times grants k - 1), waits for the roller: explode them as the
next batch, or stop. The outcome is counted by the rule's own :class:`Pool` and
:func:`make_outcome` (T-3 to T-8), then logged as one entry: every face of every batch,
and the choices in ``decisions``.

While a game session commits the dice, this choice is refused: the committed dice of a
log entry must be drawn in one go, and a roll waiting for a player would hold them for
everyone. Choose the explosion policy before the roll then (never, always, if needed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from meneur.campaign.errors import CampaignError
from meneur.campaign.records import NewRoll
from meneur.errors import RuleError, UsageError
from meneur.locale import N_
from meneur.web.tables import Seat
from meneur.web.waiting import CLOSED, SeatWaits, form_dice, sheet_for


@dataclass
class Pending:
    """A Tunnels test waiting for its roller's choice."""

    character: str
    trait: str
    mode: str
    params: Any
    pool: Any
    source: str
    choices: list[Any] = field(default_factory=list)
    """« explode » or « stop » per batch shown; :data:`CLOSED` when closed unchosen."""

    @property
    def batches(self) -> list[list[int]]:
        return [list(batch) for batch in self.pool.batches]

    @property
    def extra(self) -> int:
        return int(self.pool.pending)

    def view(self) -> dict[str, Any]:
        from meneur.systems.tunnels.rules import LOWEST_SUCCESS

        threshold = self.params.threshold
        lowest = LOWEST_SUCCESS[self.params.mode]
        return {
            "character": self.character,
            "trait": self.trait,
            "batches": [
                [(f, "hit" if f >= lowest else "") for f in batch] for batch in self.batches
            ],
            "successes": self.pool.successes,
            "threshold": threshold,
            "extra": self.extra,
            "stop_passes": self.pool.successes >= threshold and not self.pool.critical,
        }


def _draw(count: int, faces: str) -> tuple[tuple[int, ...], str]:
    source = form_dice(faces)
    batch = source.roll(6, count)
    source.finish()
    return batch, source.kind


class BatchChoice(BaseModel):
    """The roller's answer: explode the extra dice (their physical faces, if typed) or stop."""

    choice: Literal["explode", "stop"] = "stop"
    faces: str = Field(default="", max_length=400)


class Batches(SeatWaits[Pending]):
    """The Tunnels tests waiting for a choice, one per seat at most (in the database)."""

    name = "next"
    template = "tunnels/next.html"
    keep: Mapping[str, str] = {"explode": "ask"}

    @staticmethod
    def asks(form: Any) -> bool:
        return bool(form.explode == "ask")

    @staticmethod
    def blind(form: Any) -> Any:
        """A blind roller never sees a batch: explode while short of the threshold (T-5)."""
        return form.model_copy(update={"explode": "needed"})

    def choose(self, roller: Any, seat: Seat, choice: Mapping[str, str]) -> dict[str, Any] | None:
        answer = BatchChoice.model_validate(dict(choice))
        return self.next(roller, seat, answer.choice == "explode", answer.faces)

    def start(
        self,
        roller: Any,
        seat: Seat,
        character: str,
        trait: str,
        options: Any,
        mode: str,
        faces: str,
    ) -> dict[str, Any] | None:
        """Roll the pool; ``None`` when it is waiting for a choice, else the log entry."""
        from dataclasses import replace

        from meneur.systems.tunnels.rules import LOWEST_SUCCESS, Pool

        if roller.committed(seat.table.campaign) is not None:
            raise RuleError(
                N_(
                    "While the dice are committed, choose the explosions before the roll "
                    "(never, always or when needed)."
                )
            )
        info = sheet_for(roller, seat, character, CampaignError)
        from meneur.systems.tunnels.web.adapter import TunnelsWeb

        adapter = TunnelsWeb()
        if info.system != adapter.system:
            raise UsageError(N_("Choosing each batch is a Tunnels rule."))
        params = adapter.params(info.sheet, trait, replace(options, explode="never"))
        pool = Pool(lowest=LOWEST_SUCCESS[params.mode], sixes_rule=params.sixes)
        batch, kind = _draw(params.dice, faces)
        pool.add(batch)
        pending = Pending(info.name, trait, mode, params, pool, kind)
        if pending.extra == 0:
            return self.finish(roller, seat, pending)
        self.hold(seat, pending)
        return None

    def next(self, roller: Any, seat: Seat, explode: bool, faces: str) -> dict[str, Any] | None:
        """The roller's choice: explode the extra dice (``None`` if it waits again) or stop."""
        with self.choosing(seat) as pending:
            if explode:
                batch, kind = _draw(pending.extra, faces)
                if kind == "physical":
                    pending.source = kind
                pending.pool.add(batch)
                pending.choices.append("explode")
                if pending.extra > 0:
                    self.hold(seat, pending)
                    return None
            else:  # faces typed for no die are refused, not lost (the roll waits on)
                form_dice(faces).finish()
                pending.choices.append("stop")
        return self.finish(roller, seat, pending)

    def unchosen(self, roller: Any, seat: Seat, pending: Pending) -> dict[str, Any]:
        """Closed by its seat's next roll: the batches seen, no more explosion (T-6)."""
        pending.choices.extend(["stop", dict(CLOSED)])
        return self.finish(roller, seat, pending)

    @staticmethod
    def finish(roller: Any, seat: Seat, pending: Pending) -> dict[str, Any]:
        from dataclasses import replace

        from meneur.systems.base import Rolled
        from meneur.systems.tunnels.web.adapter import TunnelsWeb
        from meneur.web.rolls import params_json

        # The batches the roller saw, resolved by the test's own rule (T-3 to T-8): the
        # params say the roller stopped after them (T-6), so the entry replays as it is.
        batches = pending.pool.batches
        params = replace(pending.params, explode="always", chosen_batches=len(batches))
        faces = (tuple(face for batch in batches for face in batch),)
        adapter = TunnelsWeb()
        check = adapter.check
        rolled = Rolled(params, faces, check.resolve(params, faces))
        roll = NewRoll(
            system=adapter.system,
            kind="test",
            params=params_json(pending.trait, params, (check, rolled)),
            faces=[list(faces[0])],
            outcome=check.to_json(params, rolled.outcome),
            source=pending.source,
            character=pending.character,
            decisions=[{"mode": pending.mode, "seat": seat.key}, *pending.choices],
        )
        entry: dict[str, Any] = roller.store.append_roll(roll, campaign=seat.table.campaign)
        return entry
