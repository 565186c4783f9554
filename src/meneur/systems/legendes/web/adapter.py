"""Légendes at the web table: a domain's roll against an opposition level (L-3 to L-8,
L-11, L-12), the opposed roll of a scene at the tracker (L-8, L-10, L-13, L-14), and the
help of one hero to another with the GM's « new scene » (L-11, L-13, :mod:`.help`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from meneur.errors import RuleError
from meneur.locale import N_, fill
from meneur.locale import gettext as _
from meneur.systems.legendes.system import SYSTEM
from meneur.web.systems import (
    EditField,
    NewCombatant,
    RollOptions,
    Trait,
    Verdict,
    WebAdapter,
    chance_where,
    declared_bounds,
    flag_field,
    int_field,
    names_of,
    number_field,
    refused,
)
from meneur.web.words import dice_words

HELP_EFFECTS = ("none", "plus_1", "plus_2", "extra_die")
"""What a help (L-11) can give the helped hero's roll."""
MOST_SPENT_AT_ONCE = 3
"""Motivation points offered in one roll on the table's form (L-12)."""


def pending_help(sheet: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The help won for the hero's next roll of the scene (L-11), as the sheet keeps it."""
    scene = sheet.get("scene") or {}
    return list(scene.get("pending_help") or [])


class LegendesWeb(WebAdapter):
    definition = SYSTEM
    templates = Path(__file__).parent / "templates"
    health = N_("Health")
    shows_health = False
    option_fields = ("level", "modifier", "motivation", "spend", "help")
    preload = ("meneur.systems.legendes.odds",)

    def exchange(
        self,
        roller: Any,
        seat: Any,
        combat: dict[str, Any],
        first: int,
        second: int,
        fields: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """An opposed roll of the scene (L-8, L-10, L-13, L-14)."""
        from meneur.systems.legendes.web.oppose import OpposeFields, exchange

        form = OpposeFields.model_validate(dict(fields))
        return exchange(
            roller,
            seat,
            combat,
            first,
            second,
            form.trait,
            form.faces,
            form.vs_faces,
            form.third,
            form.each_other,
            form.partial,
            form.take,
        )

    def table_actions(self) -> tuple[Any, ...]:
        """L-11: a hero helps another; the GM's « new scene » ends the help's effects."""
        from meneur.systems.legendes.web.help import Help, NewScene

        return (Help(), NewScene())

    def describe(self, entry: Mapping[str, Any]) -> tuple[str, Verdict] | None:
        """A help (L-11) or a new scene in words."""
        from meneur.systems.legendes.render import scene_words
        from meneur.systems.legendes.web.help import help_words

        outcome = entry.get("outcome") or {}
        if entry.get("kind") == "aid":
            if "helper" not in outcome:  # the command line's help rolls dice, not heroes
                return _("help (L-11)"), help_words(outcome)
            title = _("help (L-11): {helper} helps {helped}").format(
                helper=outcome["helper"], helped=outcome.get("helped", "?")
            )
            return title, help_words(outcome)
        if entry.get("kind") == "scene":
            return _("new scene"), Verdict(None, *scene_words(outcome))
        return None

    def levels(self) -> Mapping[str, str]:
        """The opposition levels (L-3) an opposition without a sheet shows."""
        return {
            "commun": _("common"),
            "elite": _("elite"),
            "heroique": _("heroic"),
            "legendaire": _("legendary"),
        }

    def combatant(
        self, sheet: Mapping[str, Any], order: int | None, value: int | None
    ) -> NewCombatant:
        """A hero joins by name: the opposed rolls need no health (L-13 wounds or doubts)."""
        return NewCombatant(order or 0, 10 if value is None else value, system=self.system)

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        from meneur.systems.legendes.rules import domain_dice

        found = []
        for key, domain in (("legendary", "legendary"), ("secondary", "secondary")):
            dice = domain_dice(domain)  # type: ignore[arg-type]
            for name in sheet.get(key, []):
                found.append(Trait(name, name, dice, dice_words(dice)))
        ordinary = domain_dice("ordinary")
        found.append(Trait("-", _("Ordinary domain"), ordinary, dice_words(ordinary)))
        return found

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        from meneur.systems.legendes.rules import (
            OpposedParams,
            effect_bonus,
            level_dice,
            parse_level,
        )

        found = self.find_trait(sheet, trait)
        if options.help not in HELP_EFFECTS:
            raise RuleError(N_("Unknown help effect '{effect}'."), effect=options.help)
        help_dice, help_points = effect_bonus(options.help)  # type: ignore[arg-type]
        for waiting in pending_help(sheet):  # L-11: the help rolled at the table, spent now
            help_dice += int(waiting.get("extra_dice", 0))
            help_points += int(waiting.get("bonus", 0))
        level = parse_level(options.level)
        wound = sheet.get("wound", "none")
        return OpposedParams(
            dice=found.value,
            vs_dice=level_dice(level),
            vs_level=level,
            modifier=options.modifier,
            motivation=options.motivation,
            spend=options.spend,
            extra_dice=help_dice,
            bonus=help_points,
            weakness=trait in sheet.get("weaknesses", []),
            light_wound=wound == "light",
            grave_wound=wound == "grave",
        )

    def success(self, params: Any) -> Fraction:
        return chance_where(self.check.odds(params), lambda key: str(key).startswith("win:"))

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        """The roll's verdict, and a domain not on the sheet said (L-1, the command line's
        words): typed loosely at the tracker, it was rolled as ordinary unsaid."""
        told = self._pairs_verdict(result)
        if not result.get("domain_unlisted"):
            return told
        from meneur.systems.legendes.render import unlisted_words

        note = unlisted_words(str(result.get("domain", "?"))).removesuffix(".")
        return Verdict(told.passed, told.words, " ; ".join(filter(None, (told.detail, note))))

    def _pairs_verdict(self, result: Mapping[str, Any]) -> Verdict:
        """The roll's verdict; a roll of several pairs (L-10) says each pair's, named."""
        pairs = result.get("pairs") or []
        if len(pairs) < 2:
            return self.pair_verdict(result)
        lead = str((result.get("names") or ["?"])[0])
        told = [self.pair_verdict(pair) for pair in pairs]
        words = " ; ".join(
            _("{side} against {opposition}: {result}").format(
                side=pair["side"] or lead, opposition=pair["opposition"], result=verdict.words
            )
            for pair, verdict in zip(pairs, told, strict=True)
        )
        details = " ; ".join(verdict.detail for verdict in told if verdict.detail)
        own = {v.passed for pair, v in zip(pairs, told, strict=True) if pair["side"] is None}
        return Verdict(own.pop() if len(own) == 1 else None, words, details)

    def pair_verdict(self, result: Mapping[str, Any]) -> Verdict:
        """One pair's verdict, from its side's point of view (L-8)."""
        bands = {
            "definitive": _("definitive"),
            "partial": _("partial"),
            "advantage": _("advantage"),
            "cosmetic": _("cosmetic"),
        }
        detail = _("{total} against {opposition}").format(
            total=result["total"], opposition=result["opposition_total"]
        )
        if result["swept"]:
            return Verdict(True, _("The opposition is swept aside"), "")
        if result["winner"] == "pc":
            words = _("Success ({band})").format(band=bands.get(result["outcome"], "?"))
            return Verdict(True, words, detail)
        if result["winner"] == "opposition":
            words = _("Failure ({band})").format(band=bands.get(result["outcome"], "?"))
            return Verdict(False, words, detail)
        return Verdict(None, _("Tie"), detail)

    def paid(self, sheet: Mapping[str, Any], params: Any) -> dict[str, Any] | None:
        """L-12: the motivation points spent leave the sheet with the roll; L-11: so does
        the help waiting for this roll (it applies to the next roll only)."""
        if not params.spend and not pending_help(sheet):
            return None
        points = int(sheet.get("motivation_points", 0))
        if params.spend > points:
            raise RuleError(
                N_("{name} has {points} motivation point(s), not enough to spend {spend}."),
                name=str(sheet.get("name", "?")),
                points=points,
                spend=params.spend,
            )
        new = {**sheet, "motivation_points": points - params.spend}
        if pending_help(sheet):
            new["scene"] = {**sheet["scene"], "pending_help": []}
        return new

    def push_chances(
        self, sheet: Mapping[str, Any], trait: str, options: RollOptions
    ) -> list[tuple[int, int, int, Fraction]]:
        """Each number of motivation points the hero can spend now, with its exact chance."""
        from dataclasses import replace

        from meneur.systems.legendes.data import rules_data

        per_point = rules_data().motivation.dice_per_point
        most = min(int(sheet.get("motivation_points", 0)), MOST_SPENT_AT_ONCE)
        return [
            (
                spend,
                spend * per_point,
                spend,
                self.success(self.params(sheet, trait, replace(options, spend=spend))),
            )
            for spend in range(most + 1)
        ]

    def stats(self, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        wounds = {"none": _("none"), "light": _("light"), "grave": _("grave")}
        found = [
            (_("Wound"), wounds.get(str(sheet.get("wound", "none")), "?")),
            (_("Motivation"), str(sheet.get("motivation_points", 0))),
        ]
        for waiting in pending_help(sheet):
            from meneur.systems.legendes.web.help import effect_labels

            effect = effect_labels().get(str(waiting.get("effect")), "?")
            found.append(
                (
                    _("Help waiting (L-11)"),
                    fill(_("{effect} from {helper}"), effect=effect, helper=waiting.get("helper")),
                )
            )
        return found

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.systems.legendes.sheet import Hero

        sheet = {
            "system": "legendes",
            "name": name,
            "legendary": names_of(fields.get("legendary", "")),
            "secondary": names_of(fields.get("secondary", "")),
            "weaknesses": names_of(fields.get("weaknesses", "")),
            "motivation": fields.get("motivation") or "",
            "motivation_points": int_field(fields, "motivation_points", 1, 0, 99),
        }
        return Hero.model_validate(sheet).model_dump(mode="json", exclude_none=True)

    def edit_fields(self, sheet: Mapping[str, Any]) -> list[EditField]:
        """The wound (L-13), the motivation points (L-12), the motivation, and death."""
        from meneur.systems.legendes.sheet import Hero

        wounds = (("none", _("none")), ("light", _("light")), ("grave", _("grave")))
        return [
            EditField(("wound",), _("Wound"), str(sheet.get("wound", "none")), choices=wounds),
            number_field(
                ("motivation_points",),
                _("Motivation points"),
                sheet.get("motivation_points", 0),
                declared_bounds(Hero, "motivation_points"),
            ),
            EditField(
                ("motivation",), _("Motivation"), str(sheet.get("motivation", "")), text=True
            ),
            flag_field(("dead",), _("dead"), sheet.get("dead", False)),
        ]

    def valid_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Judged by the CLI's own Légendes hero model."""
        from pydantic import ValidationError

        from meneur.systems.legendes.sheet import Hero

        try:
            return Hero.model_validate(sheet).model_dump(mode="json", exclude_none=True)
        except ValidationError as error:
            raise refused(error, self.definition) from None
