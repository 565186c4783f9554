"""Tunnels at the web table: a characteristic's test (T-3 to T-8), creation (T-1),
the melee exchange (T-10, T-11) and explosions chosen batch by batch (T-5, T-6)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meneur.errors import RuleError
from meneur.locale import N_, ngettext, plural_count
from meneur.locale import gettext as _
from meneur.systems.tunnels.system import SYSTEM
from meneur.web.systems import (
    CreationField,
    EditField,
    Mark,
    NewCombatant,
    RollOptions,
    Trait,
    Verdict,
    Waiting,
    WebAdapter,
    declared_bounds,
    flag_field,
    int_field,
    number_field,
    signed,
)
from meneur.web.words import dice_words

if TYPE_CHECKING:
    from meneur.campaign.store import Store


class TunnelsWeb(WebAdapter):
    definition = SYSTEM
    templates = Path(__file__).parent / "templates"
    health = N_("Endurance / MR")
    option_fields = ("threshold", "blessed", "cursed", "explode")
    preload = (
        "meneur.systems.tunnels.odds",
        "meneur.systems.tunnels.polylaw",
        "meneur.systems.tunnels.passlaw",
    )

    def exchange(
        self,
        roller: Any,
        seat: Any,
        combat: dict[str, Any],
        first: int,
        second: int,
        fields: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A melee exchange (T-10, T-11): one round of the system's fight."""
        from meneur.systems.tunnels.web.melee import exchange

        faces, vs_faces = str(fields.get("faces", "")), str(fields.get("vs_faces", ""))
        return exchange(roller, seat, combat, first, second, faces, vs_faces)

    def waits(self, store: Store) -> tuple[Waiting, ...]:
        """Explosions chosen batch by batch (T-5, T-6)."""
        from meneur.systems.tunnels.web.batches import Batches

        return (Batches(store),)

    def combatant(
        self, sheet: Mapping[str, Any], order: int | None, value: int | None
    ) -> NewCombatant:
        """A character brings its Force (its dice, T-10), its Endurance and its maximum,
        and whether it is already wounded (T-11: a wounded character dies at 0, and
        recovers at most its maximum); a dead one does not fight."""
        from meneur.systems.tunnels.character import from_dict

        character = from_dict(dict(sheet), str(sheet.get("name", "-")))
        _trait, force = character.trait("Force")  # the sheet model refuses a dead one
        return NewCombatant(
            order or 0,
            character.endurance.current if value is None else value,
            dice=force,
            system=self.system,
            most=character.endurance.max,
            wounded=character.wounded,
        )

    def describe(self, entry: Mapping[str, Any]) -> tuple[str, Verdict] | None:
        """A melee exchange (T-10): who won, who lost how much."""
        outcome = entry.get("outcome") or {}
        if entry.get("kind") != "oppose" or "names" not in outcome:
            return None
        names = list(outcome.get("names") or ["?", "?"])
        successes = (
            (outcome.get("a") or {}).get("successes"),
            (outcome.get("b") or {}).get("successes"),
        )
        detail = ngettext(
            "{a} success against {b}", "{a} successes against {b}", plural_count(successes[0])
        ).format(a=successes[0], b=successes[1])
        title = _("melee exchange (T-10)")
        winner = outcome.get("winner")
        if winner not in ("a", "b"):
            return title, Verdict(None, _("Tie: nobody is hurt"), detail)
        won, lost = (names[0], names[1]) if winner == "a" else (names[1], names[0])
        words = _("{winner} wins the exchange, {loser} loses {points}").format(
            winner=won, loser=lost, points=outcome.get("lost", 0)
        )
        return title, Verdict(None, words, detail)  # neither side is "the roller": no colour

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        return [
            Trait(name, name, int(value), dice_words(int(value)))
            for name, value in sheet.get("characteristics", {}).items()
        ]

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        """The test of ``trait`` as the CLI's, through the sheet model (a dead character
        rolls none, T-11)."""
        from meneur.systems.tunnels.character import from_dict
        from meneur.systems.tunnels.rules import TestParams, check_policy

        character = from_dict(dict(sheet), str(sheet.get("name", "-")))
        if options.explode == "ask":  # the roll draws batch by batch; its odds have none
            raise RuleError(
                N_(
                    "Batch by batch (T-6), the chance depends on each choice you make; "
                    "« when needed » shows the chance of exploding only while short of "
                    "the threshold."
                )
            )
        return TestParams(
            dice=character.trait(trait)[1],
            threshold=options.threshold,
            blessed=options.blessed,
            cursed=options.cursed,
            explode=check_policy(options.explode),
        )

    def success(self, params: Any) -> Fraction:
        """The chance beside the button: the verdict alone (``odds.pass_odds``, tables
        cut at the threshold), the same fraction as the whole law's, in milliseconds
        where the whole law of a large exploding pool takes seconds."""
        from meneur.systems.tunnels.odds import pass_odds

        weights = pass_odds(params)
        return Fraction(weights.success, weights.total)

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        detail = ngettext(
            "{successes} success for {threshold} needed, margin {margin}",
            "{successes} successes for {threshold} needed, margin {margin}",
            result["successes"],
        ).format(
            successes=result["successes"],
            threshold=result["threshold"],
            margin=signed(result["margin"]),
        )
        if result["critical"]:
            return Verdict(False, _("Critical failure"), detail)
        if result["exceptional"]:
            return Verdict(True, _("Exceptional success"), detail)
        if result["passed"]:
            return Verdict(True, _("Success"), detail)
        return Verdict(False, _("Failure"), detail)

    def marks_json(self, params: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]]:
        from meneur.systems.tunnels.rules import LOWEST_SUCCESS, mode_of

        lowest = LOWEST_SUCCESS[mode_of(bool(params["blessed"]), bool(params["cursed"]))]
        return [
            [Mark(f, "hit" if f >= lowest else ("fumble" if f == 1 else "")) for f in stream]
            for stream in faces
        ]

    def stats(self, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        shown = []
        for key, label in (("endurance", "Endurance"), ("mana", "Mana"), ("chance", "Chance")):
            pool = sheet.get(key)
            if isinstance(pool, dict):
                shown.append((label, f"{pool.get('current')}/{pool.get('max')}"))
        if sheet.get("dead"):  # T-11: the card says why its rolls are refused
            shown.append((_("State"), _("dead")))
        elif sheet.get("wounded"):
            shown.append((_("State"), _("wounded")))
        return shown

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.rng import SecureDice
        from meneur.systems.tunnels.character import Pool, create, derive
        from meneur.systems.tunnels.data import TRAITS
        from meneur.systems.tunnels.rules import TestParams

        sheet = create(name, SecureDice())
        typed = {t: int_field(fields, t, 0, 0, TestParams.MAX_DICE) for t in TRAITS}
        if any(typed.values()):
            chars = {t: typed[t] or sheet.characteristics[t] for t in TRAITS}
            stats = derive(chars)
            sheet = sheet.model_copy(
                update={
                    "characteristics": chars,
                    "endurance": Pool(current=stats["Endurance"], max=stats["Endurance"]),
                    "mana": Pool(current=stats["Mana"], max=stats["Mana"]),
                    "chance": Pool(current=stats["Chance"], max=stats["Chance"]),
                }
            )
        return sheet.model_dump(mode="json")

    def creation_fields(self) -> list[CreationField]:
        """The six characteristics (T-1), each up to the dice a test accepts; 0 or none:
        drawn at random."""
        from meneur.systems.tunnels.data import TRAITS
        from meneur.systems.tunnels.rules import TestParams

        return [CreationField(trait, 0, TestParams.MAX_DICE) for trait in TRAITS]

    def edit_fields(self, sheet: Mapping[str, Any]) -> list[EditField]:
        """Endurance, Mana and Chance (current and maximum, T-2), wounded and dead."""
        from meneur.systems.tunnels.character import Pool

        fields = []
        current, most = declared_bounds(Pool, "current"), declared_bounds(Pool, "max")
        for key, label in (("endurance", "Endurance"), ("mana", "Mana"), ("chance", "Chance")):
            pool = sheet.get(key)
            if isinstance(pool, dict):
                fields.append(number_field((key, "current"), label, pool.get("current"), current))
                max_label = _("{name} max").format(name=label)
                fields.append(number_field((key, "max"), max_label, pool.get("max"), most))
        fields.append(flag_field(("wounded",), _("wounded"), sheet.get("wounded", False)))
        fields.append(flag_field(("dead",), _("dead"), sheet.get("dead", False)))
        return fields

    def valid_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Judged by the CLI's own Tunnels sheet model."""
        from meneur.systems.tunnels.character import from_dict

        return from_dict(sheet, str(sheet.get("name", "-"))).model_dump(mode="json")
