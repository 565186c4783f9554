"""What the web table needs from each system's main test: traits, params, odds, verdict.

The web layer rolls through :meth:`meneur.systems.base.Check.roll` and the registry; this
module only translates between a sheet plus a form and the check's params, and between
the check's public JSON and words for the log. One small adapter per system, chosen by
the system's name; a system without an adapter is shown but cannot be rolled from here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.base import Check
from meneur.systems.registry import find_system

MAX_OPTION = 200
MAX_SPENT = 3
HELP_EFFECTS = ("none", "plus_1", "plus_2", "extra_die")
"""What a help (L-11) can give the helped hero's roll."""
"""Motivation points offered in one roll on the table's form."""


@dataclass(frozen=True, slots=True)
class Trait:
    """A line of the sheet one can roll: its name and what it gives (dice or bonus)."""

    name: str
    label: str
    value: int
    shown: str


@dataclass(frozen=True, slots=True)
class RollOptions:
    """The options of a roll as the form gave them (validated by the system's params)."""

    threshold: int = 2
    difficulty: int = 1
    modifier: int = 0
    blessed: bool = False
    cursed: bool = False
    explode: str = "needed"
    level: str = "elite"
    motivation: bool = False
    push: int = 0
    """Obscur Dépassement bought before the roll: the tier of extra dice (O-10)."""
    spend: int = 0
    """Légendes motivation points spent for dice (L-12)."""
    help: str = "none"
    """Légendes: the effect of the help received for this roll (L-11)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One die as shown in the log: its face and whether it is a success (or a fumble)."""

    face: int
    css: str


@dataclass(frozen=True, slots=True)
class Verdict:
    passed: bool | None
    words: str
    detail: str


def _dist_success(dist: Any, passed: Callable[[Hashable], bool]) -> Fraction:
    chance: Fraction = dist.p_where(passed)
    return chance


class WebAdapter:
    """The web view of one system's main test (``test``)."""

    system: str
    option_fields: tuple[str, ...] = ()

    @property
    def check(self) -> Check[Any, Any]:
        return find_system(self.system).checks()["test"]

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        raise NotImplementedError

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        raise NotImplementedError

    def success(self, params: Any) -> Fraction:
        raise NotImplementedError

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        raise NotImplementedError

    def marks_json(self, params: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]]:
        """The dice of a logged roll, successes marked (``params`` as logged)."""
        return [[Mark(face, "") for face in stream] for stream in faces]

    def stats(self, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What the table shows of a character besides its traits (Endurance, Vie...)."""
        return []

    def paid(self, sheet: Mapping[str, Any], params: Any) -> dict[str, Any] | None:
        """The sheet after paying what the roll costs before it is rolled, or ``None``."""
        return None

    def push_chances(
        self, sheet: Mapping[str, Any], trait: str, options: RollOptions
    ) -> list[tuple[int, int, int, Fraction]]:
        """Each Dépassement bought before the roll: (tier, dice, cost, exact chance)."""
        return []

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        raise NotImplementedError

    def exchange(
        self, roller: Any, seat: Any, combat: dict[str, Any], first: int, second: int, form: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """One exchange of blows at the tracker, played by the system's own rules.

        A system whose text gives no exchange refuses it (the GM adjusts the tracker by
        hand): it is never played as another system's.
        """
        raise RuleError(
            N_("{system} has no exchange of blows in its text: adjust the tracker by hand."),
            system=find_system(self.system).title,
        )

    def find_trait(self, sheet: Mapping[str, Any], name: str) -> Trait:
        for trait in self.traits(sheet):
            if trait.name == name:
                return trait
        raise RuleError(N_("Unknown trait '{name}' on this sheet."), name=name[:60])


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def _int_field(fields: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = (fields.get(name) or "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise RuleError(N_("'{value}' is not a whole number."), value=text[:20]) from None
    if not low <= value <= high:
        raise RuleError(
            N_("{name} must be from {low} to {high}."), name=name[:40], low=low, high=high
        )
    return value


def _pairs(text: str, low: int, high: int) -> dict[str, int]:
    """``Bagarre=3, Discrétion=2`` (commas or lines) as a dict."""
    found: dict[str, int] = {}
    for item in text.replace("\n", ",").split(","):
        if not item.strip():
            continue
        name, _sep, value = item.partition("=")
        found[name.strip()[:80]] = _int_field({"v": value}, "v", 0, low, high)
    return found


def _names(text: str) -> list[str]:
    return [item.strip()[:80] for item in text.replace("\n", ",").split(",") if item.strip()]


class TunnelsWeb(WebAdapter):
    system = "tunnels"
    option_fields = ("threshold", "blessed", "cursed", "explode")

    def exchange(
        self, roller: Any, seat: Any, combat: dict[str, Any], first: int, second: int, form: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A melee exchange (T-10, T-11): one round of the system's fight."""
        from meneur.web.melee import exchange

        return exchange(roller, seat, combat, first, second, form.faces, form.vs_faces)

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        return [
            Trait(name, name, int(value), _("{dice} dice").format(dice=value))
            for name, value in sheet.get("characteristics", {}).items()
        ]

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        from meneur.systems.tunnels.rules import TestParams, check_policy

        return TestParams(
            dice=self.find_trait(sheet, trait).value,
            threshold=options.threshold,
            blessed=options.blessed,
            cursed=options.cursed,
            explode=check_policy(options.explode),
        )

    def success(self, params: Any) -> Fraction:
        threshold = params.threshold
        return _dist_success(
            self.check.odds(params),
            lambda key: key[0] >= threshold and not key[2],  # type: ignore[index]
        )

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        detail = _("{successes} successes for {threshold} needed, margin {margin}").format(
            successes=result["successes"],
            threshold=result["threshold"],
            margin=_signed(result["margin"]),
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
        return shown

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.rng import SecureDice
        from meneur.systems.tunnels.character import Pool, create, derive
        from meneur.systems.tunnels.data import TRAITS
        from meneur.systems.tunnels.rules import TestParams

        sheet = create(name, SecureDice())
        typed = {t: _int_field(fields, t, 0, 0, TestParams.MAX_DICE) for t in TRAITS}
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

    def creation_fields(self) -> list[str]:
        from meneur.systems.tunnels.data import TRAITS

        return list(TRAITS)


class ObscurWeb(WebAdapter):
    system = "obscur"
    option_fields = ("difficulty", "modifier", "push", "after")

    def exchange(
        self, roller: Any, seat: Any, combat: dict[str, Any], first: int, second: int, form: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """One melee round (O-11 to O-13, O-28, O-31)."""
        from meneur.web.obscur_melee import exchange

        return exchange(roller, seat, combat, first, second, form.faces, form.vs_faces)

    def _character(self, sheet: Mapping[str, Any]) -> Any:
        from meneur.systems.obscur.sheet import character_from

        return character_from(dict(sheet), "sheet")

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

        from meneur.systems.obscur.depassement import RESOURCES, plan_payment
        from meneur.systems.obscur.sheet import add_to_resource

        cost = params.push.cost
        if not cost:
            return None
        character = self._character(sheet)
        available: dict[str, int] = {
            str(name): int(character.resource(name).current) for name in RESOURCES
        }
        payment = plan_payment(cost, available)
        raw = copy.deepcopy(dict(sheet))
        for name, points in payment.points.items():
            add_to_resource(raw, name, -points)
        self._character(raw)
        return raw

    def push_chances(
        self, sheet: Mapping[str, Any], trait: str, options: RollOptions
    ) -> list[tuple[int, int, int, Fraction]]:
        from dataclasses import replace

        from meneur.systems.obscur.depassement import TIERS, extra_dice, tier_cost

        return [
            (
                tier,
                extra_dice(tier),
                tier_cost(tier),
                self.success(self.params(sheet, trait, replace(options, push=tier))),
            )
            for tier in TIERS
        ]

    def success(self, params: Any) -> Fraction:
        from meneur.systems.obscur.rules import verdict

        return _dist_success(
            self.check.odds(params),
            lambda key: verdict(params, key[0])[0],  # type: ignore[index]
        )

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        detail = _("{successes} successes for a difficulty of {difficulty}").format(
            successes=result["successes"], difficulty=result["difficulty"]
        )
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

    def creation_fields(self) -> list[str]:
        from meneur.systems.obscur.catalog import Kind, catalog

        known = catalog()
        return [*known.names(Kind.ATTRIBUTE), *known.names(Kind.KNOWLEDGE)]

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.systems.obscur.catalog import Kind, catalog

        known = catalog()
        attributes = {n: _int_field(fields, n, 2, 0, 30) for n in known.names(Kind.ATTRIBUTE)}
        knowledge = {n: _int_field(fields, n, 1, 0, 30) for n in known.names(Kind.KNOWLEDGE)}
        life = 10 + 2 * max(attributes.values(), default=0)
        sheet = {
            "system": "obscur",
            "name": name,
            "caracteristiques": attributes,
            "connaissances": knowledge,
            "capacites": _pairs(fields.get("abilities", ""), 0, 30),
            "competences": _pairs(fields.get("skills", ""), 0, 30),
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


class KrassesWeb(WebAdapter):
    system = "krasses"
    option_fields = ("difficulty", "modifier")

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        from meneur.systems.krasses.sheet import KrassesSheet, trait_roll

        model = KrassesSheet.model_validate(dict(sheet))
        found = []
        for name in [*model.skills, *model.characteristics]:
            roll = trait_roll(model, name)
            bonus = roll.bonus + roll.modifier
            found.append(Trait(name, name, bonus, _("d20 {bonus}").format(bonus=_signed(bonus))))
        return found

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        from meneur.systems.krasses.rules import TestParams

        found = self.find_trait(sheet, trait)
        return TestParams(
            bonus=found.value, difficulty=options.difficulty, modifier=options.modifier
        )

    def success(self, params: Any) -> Fraction:
        return _dist_success(self.check.odds(params), lambda key: bool(key[0]))  # type: ignore[index]

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        if result["automatic"]:
            return Verdict(True, _("Automatic success"), "")
        detail = _("natural {natural}, total {total} against {difficulty}").format(
            natural=result["natural"], total=result["total"], difficulty=result["difficulty"]
        )
        if result["natural"] == 20:
            return Verdict(True, _("Success (natural 20)"), detail)
        if result["natural"] == 1:
            return Verdict(False, _("Failure (natural 1)"), detail)
        if result["passed"]:
            return Verdict(True, _("Success"), detail)
        return Verdict(False, _("Failure"), detail)

    def marks_json(self, params: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]]:
        return [
            [Mark(f, "hit" if f == 20 else ("fumble" if f == 1 else "")) for f in stream]
            for stream in faces
        ]

    def creation_fields(self) -> list[str]:
        return []

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.systems.krasses.sheet import KrassesSheet

        sheet = {
            "system": "krasses",
            "name": name,
            "characteristics": _pairs(fields.get("characteristics", ""), -MAX_OPTION, MAX_OPTION),
            "skills": _pairs(fields.get("skills", ""), 0, MAX_OPTION),
            "advantages": [],
            "equipment": [],
        }
        return KrassesSheet.model_validate(sheet).model_dump(mode="json")


class LegendesWeb(WebAdapter):
    system = "legendes"
    option_fields = ("level", "modifier", "motivation", "spend", "help")

    def exchange(
        self, roller: Any, seat: Any, combat: dict[str, Any], first: int, second: int, form: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """An opposed roll of the scene (L-8, L-13, L-14)."""
        from meneur.web.legendes_oppose import exchange

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

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        from meneur.systems.legendes.rules import domain_dice

        found = []
        for key, domain in (("legendary", "legendary"), ("secondary", "secondary")):
            dice = domain_dice(domain)  # type: ignore[arg-type]
            for name in sheet.get(key, []):
                found.append(Trait(name, name, dice, _("{dice} dice").format(dice=dice)))
        ordinary = domain_dice("ordinary")
        found.append(
            Trait("-", _("Ordinary domain"), ordinary, _("{dice} dice").format(dice=ordinary))
        )
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
            raise RuleError(N_("Unknown help effect '{effect}'."), effect=options.help[:20])
        help_dice, help_points = effect_bonus(options.help)  # type: ignore[arg-type]
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
        return _dist_success(self.check.odds(params), lambda key: str(key).startswith("win:"))

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
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
        """L-12: the motivation points spent leave the sheet with the roll."""
        if not params.spend:
            return None
        points = int(sheet.get("motivation_points", 0))
        if params.spend > points:
            raise RuleError(
                N_("{name} has {points} motivation point(s), not enough to spend {spend}."),
                name=str(sheet.get("name", "?")),
                points=points,
                spend=params.spend,
            )
        return {**sheet, "motivation_points": points - params.spend}

    def push_chances(
        self, sheet: Mapping[str, Any], trait: str, options: RollOptions
    ) -> list[tuple[int, int, int, Fraction]]:
        """Each number of motivation points the hero can spend now, with its exact chance."""
        from dataclasses import replace

        from meneur.systems.legendes.data import rules_data

        per_point = rules_data().motivation.dice_per_point
        most = min(int(sheet.get("motivation_points", 0)), MAX_SPENT)
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
        return [
            (_("Wound"), wounds.get(str(sheet.get("wound", "none")), "?")),
            (_("Motivation"), str(sheet.get("motivation_points", 0))),
        ]

    def creation_fields(self) -> list[str]:
        return []

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.systems.legendes.sheet import Hero

        sheet = {
            "system": "legendes",
            "name": name,
            "legendary": _names(fields.get("legendary", "")),
            "secondary": _names(fields.get("secondary", "")),
            "weaknesses": _names(fields.get("weaknesses", "")),
            "motivation": (fields.get("motivation") or "")[:300],
            "motivation_points": _int_field(fields, "motivation_points", 1, 0, 99),
        }
        return Hero.model_validate(sheet).model_dump(mode="json", exclude_none=True)


ADAPTERS: dict[str, WebAdapter] = {
    adapter.system: adapter for adapter in (TunnelsWeb(), ObscurWeb(), KrassesWeb(), LegendesWeb())
}


def adapter_for(system: str) -> WebAdapter:
    adapter = ADAPTERS.get(find_system(system).name)
    if adapter is None:
        raise RuleError(N_("The web table cannot roll for the system '{name}' yet."), name=system)
    return adapter


def creation_fields(adapter: WebAdapter) -> list[str]:
    fields: Callable[[], list[str]] | None = getattr(adapter, "creation_fields", None)
    return fields() if fields else []
