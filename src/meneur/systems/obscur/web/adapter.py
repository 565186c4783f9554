"""Obscur at the web table: a trait's test with its conditions (O-29, O-34, O-42),
the Dépassement before and after the roll (O-10), the melee round (O-11 to O-13) and the
shot (O-14, O-15, O-21)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meneur.errors import MeneurError
from meneur.locale import N_, ngettext, plural_count
from meneur.locale import gettext as _
from meneur.systems.obscur.system import SYSTEM
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
    chance_where,
    declared_bounds,
    int_field,
    number_field,
    pairs,
)

if TYPE_CHECKING:
    from meneur.campaign.store import Store


def resources(character: Any) -> dict[str, int]:
    """The points a character can spend on a Dépassement, by resource (O-10)."""
    from meneur.systems.obscur.depassement import RESOURCES as SPENDABLE

    return {str(name): int(character.resource(name).current) for name in SPENDABLE}


def associations(text: str) -> dict[str, str]:
    """``Crochetage=Technique`` (commas or lines): a custom trait and the trait it adds
    its dice to (O-4), checked by the sheet itself."""
    found: dict[str, str] = {}
    for item in text.replace("\n", ",").split(","):
        if item.strip():
            name, _sep, base = item.partition("=")
            found[name.strip()[:80]] = base.strip()[:80]
    return found


class ObscurWeb(WebAdapter):
    definition = SYSTEM
    templates = Path(__file__).parent / "templates"
    health = N_("Vie")
    option_fields = ("difficulty", "modifier", "push", "after")
    preload = ("meneur.systems.obscur.odds",)
    initiative_rule = N_("Rang d'Action (O-11)")

    def exchange(
        self,
        roller: Any,
        seat: Any,
        combat: dict[str, Any],
        first: int,
        second: int,
        fields: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """One melee round (O-11 to O-13, O-28, O-31)."""
        from meneur.systems.obscur.web.melee import exchange

        faces, vs_faces = str(fields.get("faces", "")), str(fields.get("vs_faces", ""))
        return exchange(roller, seat, combat, first, second, faces, vs_faces)

    def tracker_action(
        self,
        action: str,
        roller: Any,
        seat: Any,
        combat: dict[str, Any],
        first: int,
        second: int,
        fields: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A shot, the first combatant at the second (O-14, O-15, O-21)."""
        if action != "shot":
            return super().tracker_action(action, roller, seat, combat, first, second, fields)
        from meneur.systems.obscur.web.melee import ShotFields, shoot

        shot = ShotFields.model_validate(dict(fields))
        return shoot(roller, seat, combat, first, second, shot.params(), shot.faces, shot.vs_faces)

    def waits(self, store: Store) -> tuple[Waiting, ...]:
        """The Dépassement chosen after seeing the dice, with the advisor (O-10)."""
        from meneur.systems.obscur.web.pushes import Pushes

        return (Pushes(store),)

    def combatant(
        self, sheet: Mapping[str, Any], order: int | None, value: int | None
    ) -> NewCombatant:
        """A character brings its current Vie and its Rang d'Action as initiative (O-11,
        Agilité breaking ties)."""
        from meneur.systems.obscur.combat import action_rank, fighter_of
        from meneur.systems.obscur.state import body_of

        character = self._character(sheet)
        fighter = fighter_of(character)
        body = body_of(character)
        rank = action_rank(fighter, fighter.arms or (fighter.unarmed,))
        return NewCombatant(
            rank if order is None else order,
            body.vie if value is None else value,
            system=self.system,
            agility=fighter.agility,
            most=body.vie_max,
        )

    def initiative(self, sheet: Mapping[str, Any]) -> tuple[int, int] | None:
        """The Rang d'Action: Agilité − the weapon's Initiative, Agilité breaking ties
        (O-11). No die is rolled."""
        from meneur.systems.obscur.combat import action_rank, fighter_of

        fighter = fighter_of(self._character(sheet))
        return action_rank(fighter, fighter.arms or (fighter.unarmed,)), fighter.agility

    def describe(self, entry: Mapping[str, Any]) -> tuple[str, Verdict] | None:
        """A melee round (O-12, O-13) or a shot (O-14, O-15, O-21), in words."""
        from meneur.systems.obscur.log_words import melee_round_words, shot_words

        outcome = entry.get("outcome") or {}
        if "names" not in outcome:
            return None
        if entry.get("kind") == "melee":
            return _("melee round (O-12)"), Verdict(None, *melee_round_words(outcome))
        if entry.get("kind") == "shot":
            return _("shot (O-14)"), Verdict(None, *shot_words(outcome))
        return None

    def _character(self, sheet: Mapping[str, Any]) -> Any:
        from meneur.systems.obscur.sheet import character_from

        return character_from(dict(sheet), str(sheet.get("name") or "?"))  # its errors name it

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        """Each trait with its pool's breakdown (O-29: « 5 dés − 2 douleur = 3 dés »)."""
        from meneur.systems.obscur.conditions import sheet_pool
        from meneur.systems.obscur.render import pool_text

        character = self._character(sheet)
        found = []
        for table in ("caracteristiques", "capacites", "connaissances", "competences"):
            for name in sheet.get(table, {}):
                pool = sheet_pool(character, name, effort=False)
                shown = pool_text(pool.params().pool_json())
                found.append(Trait(name, pool.label, pool.params().pool, shown))
        return found

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        """The sheet's test with its conditions (O-29) and Volonté (O-34), as the CLI's."""
        from meneur.systems.obscur.conditions import sheet_pool
        from meneur.systems.obscur.depassement import PushPlan

        self.find_trait(sheet, trait)
        return sheet_pool(self._character(sheet), trait).params(
            difficulty=options.difficulty,
            modifier=options.modifier,
            push=PushPlan(dice=options.push),
        )

    def paid(self, sheet: Mapping[str, Any], params: Any) -> dict[str, Any] | None:
        """O-10: the extra dice are paid from Vécu, Volonté, Moral (the data's order)."""
        import copy

        from meneur.systems.obscur.depassement import plan_payment
        from meneur.systems.obscur.sheet import add_to_resource

        cost = params.push.cost
        if not cost:
            return None
        payment = plan_payment(cost, resources(self._character(sheet)))
        raw = copy.deepcopy(dict(sheet))
        for name, points in payment.points.items():
            add_to_resource(raw, name, -points)
        self._character(raw)
        return raw

    def settled(self, sheet: Mapping[str, Any], params: Any, outcome: Any) -> dict[str, Any] | None:
        """O-3: a Maladresse earns the character its Vécu, as the CLI's test writes it."""
        import copy

        from meneur.systems.obscur.sheet import add_to_resource
        from meneur.systems.obscur.survival import fumble_reward

        if not outcome.fumble or not fumble_reward():
            return None
        raw = copy.deepcopy(dict(sheet))
        add_to_resource(raw, "vecu", fumble_reward())
        self._character(raw)
        return raw

    def push_chances(
        self, sheet: Mapping[str, Any], trait: str, options: RollOptions
    ) -> list[tuple[int, int, int, Fraction]]:
        """Each Dépassement the character can pay now (O-10: never below 0), with its
        exact chance: the menu offered +3 dice for 6 points to a sheet holding 2, and
        the roll was then refused."""
        from dataclasses import replace

        from meneur.systems.obscur.depassement import TIERS, extra_dice, tier_cost

        offered = []
        for tier in TIERS:
            params = self.params(sheet, trait, replace(options, push=tier))
            try:
                self.paid(sheet, params)
            except MeneurError:
                continue
            offered.append((tier, extra_dice(tier), tier_cost(tier), self.success(params)))
        return offered

    def success(self, params: Any) -> Fraction:
        from meneur.systems.obscur.rules import verdict

        return chance_where(
            self.check.odds(params),
            lambda key: verdict(params, key[0], key[1])[0],  # type: ignore[index]
        )

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        detail = ngettext(
            "{successes} success for a difficulty of {difficulty}",
            "{successes} successes for a difficulty of {difficulty}",
            plural_count(result["successes"]),
        ).format(successes=result["successes"], difficulty=result["difficulty"])
        if result["fumble"]:
            return Verdict(False, _("Fumble (Maladresse)"), detail)
        if result["passed"]:
            words = _("Success, Marge de Réussite {margin}").format(margin=result["margin"])
            return Verdict(True, words, detail)
        words = _("Failure, Marge d'Échec {margin}").format(margin=-result["margin"])
        return Verdict(False, words, detail)

    def marks_json(self, params: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]]:
        from meneur.systems.obscur.scoring import Scoring

        scoring = Scoring.of(
            zero_skill=bool(params["zero_skill"]), zero_attribute=bool(params["zero_attribute"])
        )
        values = scoring.values
        return [
            [Mark(f, "hit" if values[f - 1] else ("fumble" if f == 1 else "")) for f in stream]
            for stream in faces
        ]

    def stats(self, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        shown = []
        for key, label in (("vie", "Vie"), ("vecu", "Vécu"), ("volonte", "Volonté")):
            value = sheet.get("ressources", {}).get(key)
            if isinstance(value, dict):
                maximum = value.get("max")
                text = f"{value.get('current')}" + (f"/{maximum}" if maximum is not None else "")
                shown.append((label, text))
            elif value is not None:
                shown.append((label, str(value)))
        return shown

    def creation_fields(self) -> list[CreationField]:
        """The attributes and knowledges, each a level of the sheet (0 to its bound)."""
        from meneur.systems.obscur.catalog import Kind, catalog
        from meneur.systems.obscur.sheet import MAX_TRAIT

        known = catalog()
        names = [*known.names(Kind.ATTRIBUTE), *known.names(Kind.KNOWLEDGE)]
        return [CreationField(name, 0, MAX_TRAIT) for name in names]

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.systems.obscur.catalog import Kind, catalog
        from meneur.systems.obscur.sheet import MAX_TRAIT

        known = catalog()
        attributes = {n: int_field(fields, n, 2, 0, MAX_TRAIT) for n in known.names(Kind.ATTRIBUTE)}
        knowledge = {n: int_field(fields, n, 1, 0, MAX_TRAIT) for n in known.names(Kind.KNOWLEDGE)}
        life = 10 + 2 * max(attributes.values(), default=0)
        sheet = {
            "system": "obscur",
            "name": name,
            "caracteristiques": attributes,
            "connaissances": knowledge,
            "capacites": pairs(fields.get("abilities", ""), 0, MAX_TRAIT, field=_("Capacités")),
            "competences": pairs(fields.get("skills", ""), 0, MAX_TRAIT, field=_("Compétences")),
            "associations": associations(fields.get("associations", "")),
            "ressources": {
                "vie": {"max": life, "current": life},
                "vecu": 0,
                "volonte": {"max": 5, "current": 5},
                "moral": {"max": 5, "current": 5},
                "encombrement": {"max": 10, "current": 10},
            },
        }
        self._character(sheet)
        return sheet

    def edit_fields(self, sheet: Mapping[str, Any]) -> list[EditField]:
        """Vie, Vécu, Volonté, Moral, Encombrement (current and maximum) and the notes."""
        from meneur.systems.obscur.sheet import NEVER_BELOW_ZERO, Resource

        resources = resources_of(sheet)
        fields = []
        low, high = current = declared_bounds(Resource, "current")
        spent = (max(low or 0, 0), high)  # O-10: points spent never fall below 0
        most = declared_bounds(Resource, "max")
        for key, label in RESOURCES:
            value = resources.get(key)
            if not isinstance(value, dict):
                continue
            where = (RESOURCE_KEY, key)
            bounds = spent if key in NEVER_BELOW_ZERO else current
            fields.append(number_field((*where, "current"), label, value["current"], bounds))
            if value.get("max") is not None:
                max_label = _("{name} max").format(name=label)
                fields.append(number_field((*where, "max"), max_label, value["max"], most))
        wounds = (sheet.get("etat") or {}).get("blessures") or []
        fields.append(EditField(WOUNDS, _("Wounds"), wounds_text(wounds), text=True))
        fields.append(EditField(("notes",), _("Notes"), str(sheet.get("notes", "")), text=True))
        return fields

    def edited(self, sheet: Mapping[str, Any], values: Mapping[str, str]) -> dict[str, Any]:
        """As any system's, on the sheet with every resource written in full (a bare
        number means current and maximum, the Vécu's current only: O-10)."""
        full = {k: v for k, v in sheet.items() if k not in ("resources", RESOURCE_KEY)}
        full[RESOURCE_KEY] = resources_of(sheet)
        rest = dict(values)
        typed = rest.pop("/".join(WOUNDS), None)
        if typed is not None and typed.strip() != wounds_text(
            (sheet.get("etat") or {}).get("blessures") or []
        ):
            full["etat"] = {**(sheet.get("etat") or {}), "blessures": wounds_from(typed)}
        return super().edited(full, rest)

    def valid_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Judged by the CLI's own Obscur model (``character_from``: ranges, current ≤ max,
        the catalogue); a refusal names the character."""
        from meneur.systems.obscur.sheet import character_from

        character_from(sheet, str(sheet.get("name") or "-"))
        return sheet


RESOURCE_KEY = "ressources"
RESOURCES = (
    ("vie", "Vie"),
    ("vecu", "Vécu"),
    ("volonte", "Volonté"),
    ("moral", "Moral"),
    ("encombrement", "Encombrement"),
)
"""The resources of an Obscur sheet, as the table names them."""


def resources_of(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet's resources each written in full (``{"current": …, "max": …}``)."""
    raw = sheet.get(RESOURCE_KEY, sheet.get("resources")) or {}
    full: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, int) and not isinstance(value, bool):
            full[key] = {"current": value} if key == "vecu" else {"current": value, "max": value}
        else:
            full[key] = dict(value) if isinstance(value, dict) else value
    return full


WOUNDS = ("etat", "blessures")
TREATED = "soignée"


def wounds_text(wounds: list[Any]) -> str:
    """The wounds of ``etat.blessures`` as typed at the table: ``4 coup, 2 chute soignée``."""
    return ", ".join(
        f"{w.get('points')} {w.get('source', 'coup')}" + (f" {TREATED}" if w.get("soignee") else "")
        for w in wounds
        if isinstance(w, dict)
    )


def wounds_from(text: str) -> list[dict[str, Any]]:
    """``4 coup, 2 chute soignée`` as wounds: points, source, treated (the sheet's model
    judges them with the rest)."""
    found = []
    for item in text.replace("\n", ",").split(","):
        words = item.split()
        if not words:
            continue
        treated = words[-1] == TREATED
        if treated:
            words = words[:-1]
        label = _("Wounds")
        points = int_field({label: words[0] if words else "0"}, label, 0, 0, 100_000)
        found.append(
            {"points": points, "source": " ".join(words[1:])[:80] or "coup", "soignee": treated}
        )
    return found
