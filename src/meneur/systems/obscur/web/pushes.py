"""Obscur's Dépassement after the roll (O-10), with the advisor's exact odds beside each plan.

The roller sees the pool's faces first; :func:`meneur.systems.obscur.advisor.advise_after`
then lists every affordable plan (reroll tier, score adjustment, margin) with its exact
chance of success, best first, the empty plan included. The chosen plan's rerolled dice
are drawn, the test is resolved by the rule's own ``resolve`` on every face (the pool,
then the rerolls, as :func:`meneur.systems.obscur.rules.resolve_test` reads them), and the
points (bought dice and plan) are paid from the sheet in the log entry's transaction.

As for Tunnels' batch-by-batch explosions, this waits for a player: it is refused while
a game session commits the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from meneur.campaign.records import NewRoll
from meneur.errors import RuleError, UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.rng import SecureDice
from meneur.web.tables import Seat
from meneur.web.waiting import CLOSED, SeatWaits, form_dice, sheet_for


@dataclass
class PendingPush:
    character: str
    trait: str
    mode: str
    params: Any
    faces: tuple[int, ...]
    source: str
    points: int
    plans: list[tuple[Any, int, Fraction]]

    def view(self) -> dict[str, Any]:
        return {
            "character": self.character,
            "trait": self.trait,
            "faces": [(f, "hit" if self.params.scoring.values[f - 1] else "") for f in self.faces],
            "difficulty": self.params.difficulty,
            "points": self.points,
            "plans": [
                (index, describe(plan), cost, chance)
                for index, (plan, cost, chance) in enumerate(self.plans)
            ],
        }


def describe(plan: Any) -> str:
    """A post-roll plan in words (O-10)."""
    from meneur.systems.obscur.depassement import margin_bonus, reroll_up_to

    parts = []
    if plan.reroll:
        parts.append(_("reroll the dice up to {face}").format(face=reroll_up_to(plan.reroll)))
    if plan.adjust:
        if plan.adjust_on:
            die = _("die")
            raised = ", ".join(f"{die} {index + 1} +{inc}" for index, inc in plan.adjust_on)
            parts.append(_("raise {dice}").format(dice=raised))
        else:
            parts.append(_("score adjustment, tier {tier}").format(tier=plan.adjust))
    if plan.margin:
        parts.append(_("margin ±{points}").format(points=margin_bonus(plan.margin)))
    return " + ".join(parts) if parts else _("no Dépassement")


class PushChoice(BaseModel):
    """The roller's answer: one of the plans shown, and the rerolls' physical faces."""

    plan: int = Field(default=0, ge=0, le=200)
    faces: str = Field(default="", max_length=400)


class Pushes(SeatWaits[PendingPush]):
    """Obscur rolls waiting for their Dépassement, one per seat (in the database)."""

    name = "push"
    template = "obscur/push.html"
    keep: Mapping[str, str] = {}

    @staticmethod
    def asks(form: Any) -> bool:
        return bool(form.after)

    @staticmethod
    def blind(form: Any) -> Any:
        """A blind roller sees no die to push: buy the dice before the roll (O-10)."""
        raise RuleError(
            N_(
                "A blind roll hides its dice from you: the Dépassement after the roll is not "
                "offered, buy your dice before the roll."
            )
        )

    def choose(self, roller: Any, seat: Seat, choice: Mapping[str, str]) -> dict[str, Any]:
        answer = PushChoice.model_validate(dict(choice))
        return self.apply(roller, seat, answer.plan, answer.faces)

    def start(
        self,
        roller: Any,
        seat: Seat,
        character: str,
        trait: str,
        options: Any,
        mode: str,
        faces: str,
    ) -> None:
        """Roll the pool and list the plans the advisor ranks (nothing logged yet)."""
        from meneur.systems.obscur.advisor import advise_after
        from meneur.systems.obscur.web.adapter import ObscurWeb, resources

        if roller.committed(seat.table.campaign) is not None:
            raise RuleError(
                N_(
                    "While the dice are committed, the Dépassement after the roll is not offered: "
                    "choose the dice to buy before the roll."
                )
            )
        info = sheet_for(roller, seat, character, UsageError)
        adapter = ObscurWeb()
        if info.system != adapter.system:
            raise UsageError(N_("The Dépassement after the roll is an Obscur rule."))
        roller.secret_enough(seat, mode, info.name)  # a Maladresse's Vécu shows on the card
        params = adapter.params(info.sheet, trait, options)
        if params.automatic is not None or params.pool == 0:
            raise RuleError(N_("This test rolls no dice: nothing to push."))
        available = sum(resources(adapter._character(info.sheet)).values())
        points = available - params.push.cost
        if points < 0:
            raise RuleError(N_("Not enough points for the dice bought before the roll."))
        source = form_dice(faces)
        rolled = source.roll(6, params.pool)
        source.finish()
        advised = advise_after(
            tuple(rolled),
            params.difficulty,
            min(points, 30),
            scoring=params.scoring,
            counts_margin=params.counts_margin,
        )
        self.hold(
            seat,
            PendingPush(
                info.name,
                trait,
                mode,
                params,
                tuple(rolled),
                source.kind,
                points,
                [(option.plan, option.cost, option.p_success) for option in advised],
            ),
        )

    def apply(self, roller: Any, seat: Seat, index: int, faces: str) -> dict[str, Any]:
        """Apply the chosen plan: reroll, resolve, pay and log (one transaction)."""
        with self.choosing(seat) as pending:
            if not 0 <= index < len(pending.plans):
                raise UsageError(N_("Choose one of the plans shown."))
            return self._resolve(roller, seat, pending, index, faces, [])

    def unchosen(self, roller: Any, seat: Seat, pending: PendingPush) -> dict[str, Any]:
        """Closed by its seat's next roll: the faces seen, no Dépassement bought after
        them (O-10; the dice bought before the roll are paid, they were rolled)."""
        empty = next(index for index, (plan, *_) in enumerate(pending.plans) if plan.is_empty)
        return self._resolve(roller, seat, pending, empty, "", [dict(CLOSED)])

    def _resolve(
        self,
        roller: Any,
        seat: Seat,
        pending: PendingPush,
        index: int,
        faces: str,
        marks: list[dict[str, str]],
    ) -> dict[str, Any]:
        """The plan of ``index`` applied: reroll, resolve, pay and log (one transaction);
        ``marks``: decisions after the plan's."""
        from meneur.systems.base import Rolled
        from meneur.systems.obscur.depassement import PushPlan, reroll_up_to
        from meneur.systems.obscur.web.adapter import ObscurWeb
        from meneur.web.rolls import params_json

        plan, _cost, _chance = pending.plans[index]
        params = replace(
            pending.params,
            push=PushPlan(
                dice=pending.params.push.dice,
                reroll=plan.reroll,
                adjust=plan.adjust,
                margin=plan.margin,
                adjust_on=plan.adjust_on,
            ),
        )
        up_to = reroll_up_to(plan.reroll)
        count = sum(1 for face in pending.faces if face <= up_to) if plan.reroll else 0
        source = form_dice(faces) if count or faces.strip() else SecureDice()
        rerolled = source.roll(6, count) if count else ()
        source.finish()  # faces typed for a plan that rerolls none are refused, not lost
        kind = "physical" if "physical" in (pending.source, source.kind) else pending.source
        adapter = ObscurWeb()
        check = adapter.check
        all_faces = (tuple(pending.faces) + tuple(rerolled),)
        outcome = check.resolve(params, all_faces)
        roll = NewRoll(
            system=adapter.system,
            kind="test",
            params=params_json(pending.trait, params, (check, Rolled(params, all_faces, outcome))),
            faces=[list(all_faces[0])],
            outcome=check.to_json(params, outcome),
            source=kind,
            character=pending.character,
            decisions=[
                {"mode": pending.mode, "seat": seat.key},
                {"push": plan.to_json()},
                *marks,
            ],
        )

        def pay_and_log() -> dict[str, Any]:
            # paid from the sheet as it is when written: another process may have spent
            # from it meanwhile (then the points are counted again, and may not suffice)
            info = roller.sheet(seat.table.campaign, pending.character)
            paid = adapter.paid(info.sheet, params)  # O-10: the points of the whole plan
            written = adapter.after_roll(info.sheet, paid, params, outcome)  # O-3's Vécu
            logged: dict[str, Any] = roller.store.append_roll(
                roll,
                sheets={info.name: written} if written is not None else None,
                campaign=seat.table.campaign,
                previous=roller.read_sheets(),
            )
            if written is not None:
                roller.wrote_sheets(logged)
            return logged

        entry: dict[str, Any] = roller.checked(pay_and_log)
        roller.forget_sheets()  # the sheet paid from is written: reads kept are stale
        return entry
