"""The Légendes help at the table (L-11) and the GM's « new scene » that ends its effects.

« Si le but de l'action est d'aider un autre personnage […], il effectue un jet opposé avec
le personnage aidé » : the helper rolls the dice of the domain they help with against the
helped hero's dice in the domain of their action; the difference gives +1 die, +2, +1 or
nothing but colour. The roll is :class:`~meneur.systems.legendes.procedures.SceneAid`, the
step of ``meneur scene legendes aid``, on the helped hero's stored sheet: the effect waits
in their scene (``pending_help``) for their next roll at the table — the main roll or an
opposed roll of the tracker — which spends it. The helper's sheet keeps whom they helped
in the scene (``gave_help``): « ce jet ne peut être tenté qu'une fois par scène », once per
helper per scene (L-11), across every process since the sheets live in the database and
are written with the entry under their row lock. A scene at the table runs until the GM's
« new scene », which ends it for every hero: light wounds heal (L-13), help waiting is
dropped, everyone may help again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from meneur.campaign.errors import CampaignError
from meneur.campaign.records import CharacterInfo, NewRoll
from meneur.errors import MeneurError, RuleError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.rng import DiceSource
from meneur.web.actions import ActionRoll, log_action, roll_mode, table_character
from meneur.web.rolls import Roller
from meneur.web.systems import Verdict, int_field
from meneur.web.tables import Seat

MAX_MODIFIER = 60
"""The largest circumstance (either sign) the GM gives the helper's roll."""


def effect_labels() -> dict[str, str]:
    """What each result of L-11 gives, as the table says it."""
    return {
        "extra_die": _("+1 die"),
        "plus_2": "+2",
        "plus_1": "+1",
        "cosmetic": _("cosmetic"),
        "none": _("no effect"),
    }


def dice_of(adapter: Any, sheet: Mapping[str, Any], trait: str) -> tuple[str, int]:
    """The domain a hero rolls (their first legendary domain when none is chosen) and its
    dice (L-1)."""
    found = adapter.find_trait(sheet, trait.strip()[:80]) if trait.strip() else None
    found = found or adapter.traits(sheet)[0]
    return str(found.name), int(found.value)


def effect_rows(
    helper_dice: int, helped_dice: int, modifier: int, helped_wound: str = "none"
) -> list[tuple[str, Fraction]]:
    """The exact chance of each result of L-11, from the best to none, the helped hero's
    wound weighing on their side as in the roll itself (L-13)."""
    from meneur.systems.legendes.rules import EFFECTS, HelpParams, LegendesAid

    params = HelpParams(
        helper_dice=helper_dice,
        helped_dice=helped_dice,
        modifier=modifier,
        helped_wound=helped_wound,  # type: ignore[arg-type]  # checked by HelpParams
    )
    dist = LegendesAid().odds(params)
    labels = effect_labels()
    return [(labels[effect], dist.p(effect)) for effect in EFFECTS]


@dataclass(frozen=True)
class Pairing:
    """A help as the form asks it: who helps whom, with which domains' dice (L-1)."""

    helper: CharacterInfo
    helped: CharacterInfo
    helper_domain: str
    helper_dice: int
    helped_domain: str
    helped_dice: int
    modifier: int

    @property
    def helped_wound(self) -> str:
        return wound_on(self.helped.sheet)


def wound_on(sheet: Mapping[str, Any]) -> str:
    """A hero's wound, as their sheet keeps it (L-13): what weighs on their side of a help."""
    return str(sheet.get("wound", "none"))


def pairing(roller: Roller, seat: Seat, fields: Mapping[str, str]) -> Pairing:
    """The helper and the helped hero the form names, read now, refused in one clear
    line when they cannot help (L-11)."""
    from meneur.systems.legendes.web.adapter import LegendesWeb

    helper = table_character(roller, seat, fields.get("helper", ""), "legendes")
    helped = table_character(roller, seat, fields.get("helped", ""), "legendes")
    if not seat.may_act_for(helper.name):
        raise CampaignError(
            N_("You may help only with your own character, not {name}."), name=helper.name
        )
    if helper.name == helped.name:
        raise RuleError(N_("A hero cannot help themself (L-11): choose another hero."))
    adapter = LegendesWeb()
    helper_domain, helper_dice = dice_of(adapter, helper.sheet, fields.get("helper_trait", ""))
    helped_domain, helped_dice = dice_of(adapter, helped.sheet, fields.get("helped_trait", ""))
    label = _("Modifier")
    modifier = int_field({label: fields.get("modifier", "")}, label, 0, -MAX_MODIFIER, MAX_MODIFIER)
    return Pairing(helper, helped, helper_domain, helper_dice, helped_domain, helped_dice, modifier)


HELP_TOO_SECRET = N_(
    "{name}'s card would show this help to someone who may not see the roll: "
    "choose a less secret roll mode."
)
"""A help's effect shows on the helped hero's card and in their chances: every seat
that reads that card must see the roll in full (a player's GM-only help to another
player's hero), :meth:`~meneur.web.rolls.Roller.secret_enough`."""


class Help:
    """L-11 at the table (a :class:`~meneur.web.systems.TableAction`)."""

    name = "help"
    template = "legendes/help.html"

    def view(
        self, seat: Seat, characters: Sequence[Any], fields: Mapping[str, str]
    ) -> dict[str, Any] | None:
        """The heroes who may help (the seat's own; the GM's: all) and who may be helped."""
        from meneur.systems.legendes.web.adapter import LegendesWeb

        heroes = [c for c in characters if c.system == "legendes" and not c.sheet.get("dead")]
        helpers = [c.name for c in heroes if seat.may_act_for(c.name)]
        if len(heroes) < 2 or not helpers:
            return None
        adapter = LegendesWeb()
        by_name = {c.name: c for c in heroes}
        helper = fields.get("helper") if fields.get("helper") in helpers else helpers[0]
        helped = fields.get("helped", "")
        if helped not in by_name or helped == helper:
            helped = next(c.name for c in heroes if c.name != helper)
        try:
            helper_domain, helper_dice = dice_of(
                adapter, by_name[helper].sheet, fields.get("helper_trait", "")
            )
            helped_domain, helped_dice = dice_of(
                adapter, by_name[helped].sheet, fields.get("helped_trait", "")
            )
            odds = effect_rows(helper_dice, helped_dice, 0, wound_on(by_name[helped].sheet))
        except MeneurError:  # a domain of another hero: the first domains, no chances yet
            helper_domain, helped_domain, odds = "", "", []
        return {
            "helpers": helpers,
            "heroes": [c.name for c in heroes],
            "domains": {
                c.name: [(t.name, t.label) for t in adapter.traits(c.sheet)] for c in heroes
            },
            "helped_already": [
                c.name for c in heroes if (c.sheet.get("scene") or {}).get("gave_help")
            ],
            "helper": helper,
            "helped": helped,
            "helper_trait": helper_domain,
            "helped_trait": helped_domain,
            "odds": odds,
        }

    def odds(
        self, roller: Roller, seat: Seat, fields: Mapping[str, str]
    ) -> list[tuple[str, Fraction]]:
        """The exact chance of each result of L-11, from the best to none."""
        asked = pairing(roller, seat, fields)
        return effect_rows(asked.helper_dice, asked.helped_dice, asked.modifier, asked.helped_wound)

    def act(self, roller: Roller, seat: Seat, fields: Mapping[str, str]) -> dict[str, Any]:
        """The opposed roll, logged with both sheets: the helped hero's waiting effect and
        the helper's mark for the scene (one transaction)."""
        from meneur.campaign.replay import STEPS, step
        from meneur.systems.legendes import scene
        from meneur.systems.legendes.procedures import SceneAid, SceneAidParams
        from meneur.systems.legendes.sheet import Hero

        mode = roll_mode(fields)

        def make(source: DiceSource) -> ActionRoll:
            asked = pairing(roller, seat, fields)
            helper, helped = asked.helper, asked.helped
            roller.secret_enough(seat, mode, helped.name, HELP_TOO_SECRET)
            giver = scene.give_help(Hero.model_validate(dict(helper.sheet)), helped.name)
            hero = scene.in_scene(Hero.model_validate(dict(helped.sheet)))
            procedure = SceneAid()
            params = SceneAidParams(
                hero, helper.name, asked.helper_dice, asked.helped_dice, asked.modifier
            )
            rolled = procedure.roll(params, [source, source])
            report = dict(rolled.outcome.report)
            report.update(
                helped=helped.name, helper_domain=asked.helper_domain, domain=asked.helped_domain
            )
            return ActionRoll(
                NewRoll(
                    system="legendes",
                    kind="aid",
                    params={
                        "trait": asked.helper_domain,
                        "helper": helper.name,
                        "helped": helped.name,
                        "domain": asked.helped_domain,
                        STEPS: [step(procedure, rolled)],
                    },
                    faces=[list(stream) for stream in rolled.faces],
                    outcome=report,
                    source=source.kind,
                    character=helper.name,
                ),
                sheets={
                    helper.name: giver.model_dump(mode="json", exclude_none=True),
                    helped.name: rolled.outcome.hero.model_dump(mode="json", exclude_none=True),
                },
                previous={helper.name: helper.sheet, helped.name: helped.sheet},
            )

        return log_action(roller, seat, mode, make)


def help_words(outcome: Mapping[str, Any]) -> Verdict:
    """The log's words: what the help gives the helped hero, and both totals."""
    effect = str(outcome.get("effect", "none"))
    given = effect_labels().get(effect, "?")
    helper = str(outcome.get("helper") or _("the helper"))  # the command line names no one
    helped = str(outcome.get("helped") or _("the hero helped"))
    if effect in ("extra_die", "plus_2", "plus_1"):
        words = _("{helped} gets {effect} on their next roll of the scene").format(
            helped=outcome.get("helped") or _("The hero helped"), effect=given
        )
    elif effect == "cosmetic":
        words = _("A cosmetic effect only")
    else:
        words = _("The help is not enough: no effect")
    detail = _("{helper} {total} against {helped} {helped_total}").format(
        helper=helper,
        total=outcome.get("helper_total", "?"),
        helped=helped,
        helped_total=outcome.get("helped_total", "?"),
    )
    return Verdict(effect not in ("none", "cosmetic"), words, detail)


class NewScene:
    """The GM's « new scene » (a :class:`~meneur.web.systems.TableAction` without dice)."""

    name = "scene"
    template = "legendes/scene.html"

    def view(
        self, seat: Seat, characters: Sequence[Any], fields: Mapping[str, str]
    ) -> dict[str, Any] | None:
        if not seat.is_gm or not any(c.system == "legendes" for c in characters):
            return None
        return {}

    def odds(
        self, roller: Roller, seat: Seat, fields: Mapping[str, str]
    ) -> list[tuple[str, Fraction]]:
        return []

    def act(self, roller: Roller, seat: Seat, fields: Mapping[str, str]) -> dict[str, Any]:
        """Every hero of the campaign leaves the scene (L-11, L-13), logged in one entry."""
        from meneur.campaign.replay import STEPS
        from meneur.systems.legendes import scene
        from meneur.systems.legendes.sheet import Hero

        if not seat.is_gm:
            raise CampaignError(N_("Only the GM starts a new scene."))
        campaign = seat.table.campaign

        def leave() -> dict[str, Any]:
            heroes = [
                c for c in roller.store.characters(campaign=campaign) if c.system == "legendes"
            ]
            sheets, healed = {}, []
            for info in heroes:
                new, report = scene.next_scene(Hero.model_validate(dict(info.sheet)))
                if report["light_wound_healed"]:
                    healed.append(info.name)
                sheets[info.name] = new.model_dump(mode="json", exclude_none=True)
            roll = NewRoll(
                system="legendes",
                kind="scene",
                params={"trait": "-", STEPS: []},
                faces=[],
                outcome={"healed": healed, "heroes": [c.name for c in heroes]},
                source="edit",
                decisions=[{"mode": "public", "seat": seat.key}],
            )
            return roller.store.append_roll(
                roll, sheets=sheets, campaign=campaign, previous={c.name: c.sheet for c in heroes}
            )

        entry = roller.checked(leave)  # a sheet changed meanwhile: read them all again
        roller.forget_sheets()
        return entry
