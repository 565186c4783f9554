"""The Obscur commands: test, oppose, odds, push (the Dépassement advisor), xp, acquire.

Options are parsed by meneur's parsers (one translated line for bad input); rules, odds
and sheets load inside the command bodies. A sheet is changed only after every check
has passed, and written atomically: on any error the file is left untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meneur.cli.params import (
    OWN_SHEET_OPPOSED,
    CharacterArg,
    FacesArg,
    Json,
    ReadCharacterArg,
    Seed,
    VsCharacterArg,
    VsFacesArg,
    int_parser,
    meneur_parser,
    parse_int,
    refuse_own_sheet,
    required_sheet,
    sheet_or_character,
)
from meneur.errors import RuleError, UsageError
from meneur.locale import N_, fill, labelled, ngettext, pgettext
from meneur.locale import gettext as _
from meneur.locale.numbers import Chances, floats_of, fraction_text, fractions_of, grouped
from meneur.systems.base import CommandGroups
from meneur.text import is_digits, visible

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from meneur.systems.obscur.depassement import Payment, PushPlan
    from meneur.systems.obscur.rules import Automatic, Maluses, TestParams
    from meneur.systems.obscur.sheet import Character


def _automatic(text: str) -> str:
    from meneur.text import fold

    wanted = fold(text)
    if wanted in {"success", "reussite", "succes"}:
        return "success"
    if wanted in {"failure", "echec"}:
        return "failure"
    raise UsageError(N_("'{value}' is not success or failure."), value=str(text))


@dataclass(frozen=True, slots=True)
class Adjustments:
    """``--adjust-on 2:+1,4:+1`` (a class so that Typer reads one text value)."""

    pairs: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Pay:
    """``--pay vecu=1,moral=2``."""

    points: dict[str, int]


def _adjust_on(text: str) -> Adjustments:
    pairs: list[tuple[int, int]] = []
    for item in str(text).replace(" ", "").split(","):
        die, sep, inc = item.partition(":")
        if (
            not sep
            or not is_digits(die)
            or inc.lstrip("+") not in {"1", "2", "3"}
            or not 1 <= int(die) <= 99
        ):
            raise UsageError(
                N_("Give adjustments as DIE:+N, such as 2:+1,4:+1 (not '{item}')."), item=item
            )
        pairs.append((int(die) - 1, int(inc.lstrip("+"))))
    return Adjustments(tuple(pairs))


def _pay(text: str) -> Pay:
    from meneur.text import fold

    names = {"vecu": "vecu", "volonte": "volonte", "moral": "moral"}
    points: dict[str, int] = {}
    for item in str(text).replace(" ", "").split(","):
        name, sep, value = item.partition("=")
        key = names.get(fold(name))
        if key is None or not sep or not is_digits(value) or len(value) > 6:
            raise UsageError(
                N_("Give a payment as RESOURCE=POINTS, such as vecu=1,moral=2 (not '{item}')."),
                item=item,
            )
        points[key] = points.get(key, 0) + int(value)
    return Pay(points)


def _price(text: str) -> Fraction:
    cleaned = str(text).strip().replace(",", ".")
    if len(cleaned) > 20:  # not echoed cut short: a cut number would look like a price
        raise UsageError(
            N_("A price has at most 20 characters, not {length}."), length=len(cleaned)
        )
    try:  # Fraction reads ١٠٠ and 1_000 too: ASCII and no underscore first
        value = Fraction(cleaned) if cleaned.isascii() and "_" not in cleaned else None
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None:
        raise UsageError(N_("'{value}' is not a price."), value=cleaned)
    from meneur.systems.obscur.acquisition import MAX_PRICE

    if not 0 <= value <= MAX_PRICE:  # the params' own bound, said where it was typed
        raise UsageError(N_("A price is 0 to {limit}."), limit=grouped(MAX_PRICE))
    return value


PointsTier = int_parser(0, 6)


def _parsed_option(flag: str, parse: Callable[[str], Any], metavar: str, help: str) -> Any:
    """An option read by one of meneur's parsers (one translated line for bad input)."""
    return typer.Option(flag, parser=meneur_parser(parse), metavar=metavar, help=help)


def _int_option(flag: str, low: int, high: int, metavar: str, help: str) -> Any:
    """A bounded whole-number option (the many int options differ by these alone)."""
    return typer.Option(flag, parser=int_parser(low, high), metavar=metavar, help=help)


def _pool(text: str) -> int:
    """A Potentiel d'Action: 0 to the rules' one bound (``TestParams.MAX_DICE``), read when
    the option is parsed so that ``--help`` imports no rules."""
    from meneur.systems.obscur.rules import TestParams

    return parse_int(text, low=0, high=TestParams.MAX_DICE)


def _dice_modifier(text: str) -> int:
    """Dice added or removed: at most ``TestParams.MAX_DICE`` either way."""
    from meneur.systems.obscur.rules import TestParams

    return parse_int(text, low=-TestParams.MAX_DICE, high=TestParams.MAX_DICE)


def _points(text: str) -> int:
    """Points to spend: the advisor's own bound (``advisor.MAX_POINTS``)."""
    from meneur.systems.obscur.advisor import MAX_POINTS

    return parse_int(text, low=0, high=MAX_POINTS)


def _ruled_option(flag: str, parser: Any, metavar: str, help: str) -> Any:
    """A whole-number option bounded where the rules declare it."""
    return typer.Option(flag, parser=parser, metavar=metavar, help=help)


def _points_option(flag: str, help: str) -> Any:
    """A Dépassement option: the points spent on one kind (1, 3 or 6), given at most once."""
    return typer.Option(flag, parser=PointsTier, metavar="P", help=help)


DiceOpt = Annotated[
    int | None, _ruled_option("--dice", _pool, "N", _("Potentiel d'Action: dice to roll."))
]
SheetOpt = Annotated[
    Path | None,
    typer.Option("--sheet", metavar="FILE", help=_("An Obscur character sheet (JSON or TOML).")),
]
TraitOpt = Annotated[
    str | None,
    typer.Option(
        "--trait",
        metavar="NAME",
        help=_("The trait tested from the sheet (its associated trait is added)."),
    ),
]
DifficultyOpt = Annotated[
    int,
    typer.Option(  # below 1: refused by the rules themselves, citing O-8
        "--difficulty",
        parser=int_parser(None, 200),
        metavar="D",
        help=_("Seuil de Réussite: successes needed."),
    ),
]
ZeroSkillOpt = Annotated[
    bool,
    typer.Option(
        "--zero-skill", help=_("The Capacité or Compétence is 0: only 6s count (2 each).")
    ),
]
ZeroAttrOpt = Annotated[
    bool,
    typer.Option(
        "--zero-attribute",
        help=_("The Caractéristique or Connaissance is 0: only 6s count, 1 each."),
    ),
]
ModifierOpt = Annotated[
    int, _ruled_option("--modifier", _dice_modifier, "M", _("Dice added or removed."))
]
PushDiceOpt = Annotated[
    list[int] | None,
    _points_option("--push-dice", _("Dépassement: points for extra dice (1, 3 or 6).")),
]
RerollOpt = Annotated[
    list[int] | None, _points_option("--reroll", _("Dépassement: points for rerolls (1, 3 or 6)."))
]
AdjustOpt = Annotated[
    list[int] | None,
    _points_option("--adjust", _("Dépassement: points for score adjustment (1, 3 or 6).")),
]
AdjustOnOpt = Annotated[
    Adjustments | None,
    _parsed_option(
        "--adjust-on",
        _adjust_on,
        "DIE:+N,...",
        _("Which dice the score adjustment raises (default: the best choice)."),
    ),
]
MarginOpt = Annotated[
    list[int] | None,
    _points_option("--margin-points", _("Dépassement: points for margin adjustment (1, 3 or 6).")),
]
PayOpt = Annotated[
    Pay | None,
    _parsed_option(
        "--pay",
        _pay,
        "RES=P,...",
        _("Who pays the Dépassement, such as vecu=1,moral=2 (default: the table's order)."),
    ),
]
OneResourceOpt = Annotated[
    bool,
    typer.Option("--one-resource", help=_("Option: a Dépassement is paid from one resource only.")),
]
MarginCountsOpt = Annotated[
    bool,
    typer.Option("--margin-counts", help=_("Option: the margin adjustment counts as successes.")),
]
AutomaticOpt = Annotated[
    str | None,
    _parsed_option(
        "--automatic",
        _automatic,
        "success|failure",
        _("Common sense: the test succeeds or fails without a roll."),
    ),
]


def _as_automatic(value: str | None) -> Automatic | None:
    if value == "success":
        return "success"
    if value == "failure":
        return "failure"
    return None


def _points_tier(points: list[int] | None, flag: str) -> int:
    """The tier bought with a kind's points; each kind once per test (O-10)."""
    from meneur.systems.obscur.depassement import tier_for_points

    if not points:
        return 0
    if len(points) > 1:
        raise UsageError(
            N_("{flag} is given twice: one tier of each kind per test (O-10)."), flag=flag
        )
    return tier_for_points(points[0])


def _push_plan(
    push_dice: list[int] | None,
    reroll: list[int] | None,
    adjust: list[int] | None,
    margin_points: list[int] | None,
    adjust_on: Adjustments | None = None,
) -> PushPlan:
    """The Dépassement bought with the four points options (test and odds alike)."""
    from meneur.systems.obscur.depassement import PushPlan

    return PushPlan(
        dice=_points_tier(push_dice, "--push-dice"),
        reroll=_points_tier(reroll, "--reroll"),
        adjust=_points_tier(adjust, "--adjust"),
        margin=_points_tier(margin_points, "--margin-points"),
        adjust_on=adjust_on.pairs if adjust_on else None,
    )


def _test_params(
    pool: Pool,
    difficulty: int,
    modifier: int,
    plan: PushPlan,
    margin_counts: bool,
    automatic: str | None = None,
) -> TestParams:
    """A test's params from the options (test and odds alike; odds has no --automatic)."""
    from meneur.systems.obscur.rules import TestParams

    return TestParams(
        pool.dice,
        difficulty=difficulty,
        modifier=modifier,
        zero_skill=pool.zero_skill,
        zero_attribute=pool.zero_attribute,
        push=plan,
        automatic=_as_automatic(automatic),
        margin_counts=True if margin_counts else None,
        maluses=pool.maluses,
    )


@dataclass(frozen=True, slots=True)
class Pool:
    """The dice of a side: from ``--dice`` or from a sheet (its conditions derived by
    :func:`meneur.systems.obscur.conditions.sheet_pool`, O-29)."""

    dice: int
    zero_skill: bool
    zero_attribute: bool
    maluses: Maluses
    character: Character | None = None
    label: str | None = None


def _resolve_pool(
    dice: int | None,
    sheet: Path | None,
    trait: str | None,
    zero_skill: bool,
    zero_attribute: bool,
    side: str = "",
    dice_flag: str = "--dice",
) -> Pool:
    """Dice and zero rules from ``--dice`` or from a sheet and a trait (O-4 to O-6), with
    the sheet's conditions (O-29) and its Volonté (O-34).

    ``side`` prefixes the sheet options of the other camp (``--vs-sheet``); its dice
    option is ``dice_flag`` (``--vs``), named as such in the messages."""
    from meneur.systems.obscur.conditions import sheet_pool
    from meneur.systems.obscur.rules import NO_MALUS
    from meneur.systems.obscur.sheet import load_character

    if sheet is not None:
        if dice is not None:
            raise UsageError(
                N_("Give either {dice_flag} or --{side}sheet with --{side}trait, not both."),
                side=side,
                dice_flag=dice_flag,
            )
        if not trait:
            raise UsageError(
                N_("--{side}sheet needs --{side}trait (the trait to test)."), side=side
            )
        character = load_character(sheet)
        found = sheet_pool(character, trait)
        return Pool(
            found.trait.dice,
            zero_skill or found.trait.zero_skill,
            zero_attribute or found.trait.zero_attribute,
            found.maluses,
            character,
            found.label,
        )
    if trait:
        raise UsageError(N_("--{side}trait needs --{side}sheet."), side=side)
    if dice is None:
        raise UsageError(
            N_("Give {dice_flag} N, or --{side}sheet FILE with --{side}trait NAME."),
            side=side,
            dice_flag=dice_flag,
        )
    return Pool(dice, zero_skill, zero_attribute, NO_MALUS)


def _available(character: Character) -> dict[str, int]:
    return {name: character.resource(name).current for name in ("vecu", "volonte", "moral")}


def _payment(
    character: Character | None, plan: PushPlan, pay: dict[str, int] | None, one: bool
) -> Payment | None:
    from meneur.systems.obscur.depassement import plan_payment

    if plan.cost == 0:
        if pay and any(pay.values()):
            raise UsageError(N_("Nothing to pay: no Dépassement was bought."))
        return None
    if character is None:
        if pay is None:
            return None
        return plan_payment(
            plan.cost, dict.fromkeys(pay, plan.cost), asked=pay, single_resource=one or None
        )
    return plan_payment(plan.cost, _available(character), asked=pay, single_resource=one or None)


def _settle(
    character: Character | None, payment: Payment | None, fumble: bool
) -> dict[str, Any] | None:
    """Pay the Dépassement and earn the Vécu of a Maladresse, in one atomic write."""
    from meneur.systems.obscur.sheet import add_to_resource, save_character, updated
    from meneur.systems.obscur.tables import rule_tables

    if character is None:
        return {"paid": dict(payment.points)} if payment is not None else None
    reward = rule_tables().experience.fumble_reward if fumble else 0

    def change(raw: dict[str, Any]) -> None:
        for name, points in (payment.points if payment else {}).items():
            add_to_resource(raw, name, -points)
        if reward:
            add_to_resource(raw, "vecu", reward)

    if reward or payment is not None:
        save_character(updated(character, change))
    return {
        "path": str(character.path),
        "name": character.sheet.name,
        "paid": dict(payment.points) if payment else {},
        "vecu_gained": reward,
    }


def test_command(
    dice: DiceOpt = None,
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    trait: TraitOpt = None,
    difficulty: DifficultyOpt = 1,
    zero_skill: ZeroSkillOpt = False,
    zero_attribute: ZeroAttrOpt = False,
    modifier: ModifierOpt = 0,
    push_dice: PushDiceOpt = None,
    reroll: RerollOpt = None,
    adjust: AdjustOpt = None,
    adjust_on: AdjustOnOpt = None,
    margin_points: MarginOpt = None,
    pay: PayOpt = None,
    one_resource: OneResourceOpt = False,
    margin_counts: MarginCountsOpt = False,
    automatic: AutomaticOpt = None,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll an Obscur test: Potentiel d'Action, successes, Maladresse, Dépassement."""
    sheet = sheet_or_character(sheet, stored, "obscur")
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.obscur.checks import TestCheck
    from meneur.systems.obscur.render import render_test

    pool = _resolve_pool(dice, sheet, trait, zero_skill, zero_attribute)
    character, label = pool.character, pool.label
    plan = _push_plan(push_dice, reroll, adjust, margin_points, adjust_on)
    params = _test_params(pool, difficulty, modifier, plan, margin_counts, automatic)
    payment = _payment(
        character, plan, pay.points if pay else None, one_resource
    )  # checked before any die is rolled
    check = TestCheck()
    rolled = check.roll(params, dice_sources(seed, faces))
    data = check.to_json(params, rolled.outcome)
    settled = _settle(character, payment, rolled.outcome.fumble)
    if settled is not None:
        if label:
            settled["trait"] = label
        data["sheet"] = settled
    from meneur.systems.obscur.render import pool_text

    title: str | None = None
    if label:
        title = fill(_("Test of {trait} ({dice})"), trait=label, dice=pool_text(data["pool"]))
    emit(
        data,
        lambda console: render_test(console, data, params.scoring.values, title),
        as_json=as_json,
    )


def oppose_command(
    dice: DiceOpt = None,
    vs: Annotated[
        int | None, _ruled_option("--vs", _pool, "B", _("The opposing side's dice."))
    ] = None,
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    trait: TraitOpt = None,
    vs_sheet: Annotated[
        Path | None,
        typer.Option("--vs-sheet", metavar="FILE", help=_("The opposing side's sheet.")),
    ] = None,
    vs_stored: VsCharacterArg = None,
    vs_trait: Annotated[
        str | None, typer.Option("--vs-trait", metavar="NAME", help=_("The opposing side's trait."))
    ] = None,
    zero_skill: ZeroSkillOpt = False,
    zero_attribute: ZeroAttrOpt = False,
    vs_zero_skill: Annotated[
        bool, typer.Option("--vs-zero-skill", help=_("The opposing side's skill is 0."))
    ] = False,
    vs_zero_attribute: Annotated[
        bool, typer.Option("--vs-zero-attribute", help=_("The opposing side's attribute is 0."))
    ] = False,
    modifier: ModifierOpt = 0,
    vs_modifier: Annotated[
        int,
        _ruled_option(
            "--vs-modifier", _dice_modifier, "M", _("Dice added or removed (opposing side).")
        ),
    ] = 0,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll an Obscur opposition: more successes wins, by the difference (O-9)."""
    sheet = sheet_or_character(sheet, stored, "obscur")
    vs_sheet = sheet_or_character(vs_sheet, vs_stored, "obscur", "--vs-sheet/--vs-character")
    refuse_own_sheet(sheet, vs_sheet, OWN_SHEET_OPPOSED)  # each side writes its Maladresse
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.obscur.checks import OpposeCheck
    from meneur.systems.obscur.rules import OpposeParams, TestParams

    side_a = _resolve_pool(dice, sheet, trait, zero_skill, zero_attribute)
    side_b = _resolve_pool(
        vs, vs_sheet, vs_trait, vs_zero_skill, vs_zero_attribute, side="vs-", dice_flag="--vs"
    )
    a_char, a_label = side_a.character, side_a.label
    b_char, b_label = side_b.character, side_b.label

    def side_params(pool: Pool, shift: int) -> TestParams:
        return TestParams(
            pool.dice,
            difficulty=0,
            modifier=shift,
            zero_skill=pool.zero_skill,
            zero_attribute=pool.zero_attribute,
            maluses=pool.maluses,
            tally=True,
        )

    params = OpposeParams(side_params(side_a, modifier), side_params(side_b, vs_modifier))
    check = OpposeCheck()
    rolled = check.roll(params, dice_sources(seed, faces, vs_faces))
    data = check.to_json(params, rolled.outcome)
    for key, character, outcome, label in (
        ("a", a_char, rolled.outcome.a, a_label),
        ("b", b_char, rolled.outcome.b, b_label),
    ):
        settled = _settle(character, None, outcome.fumble)
        if settled is not None:
            settled["trait"] = label
            data[key]["sheet"] = settled

    def render(console: Console) -> None:
        from meneur.systems.obscur.render import dice_text, pool_text, render_vecu_gained

        for key, p, label in (("a", params.a, a_label), ("b", params.b, b_label)):
            side = data[key]
            name = label or (_("Side A") if key == "a" else _("Side B"))
            if side["pool"]["maluses"]:
                name += f" ({pool_text(side['pool'])})"
            console.print(labelled(name).rstrip(), dice_text(side["faces"], p.scoring.values))
            line = ngettext(
                "  {successes} success", "  {successes} successes", side["successes"]
            ).format(successes=side["successes"])
            if side["fumble"]:
                line += "  " + _("Maladresse!")
            console.print(line)
            render_vecu_gained(console, side.get("sheet"))
        if data["winner"] is None:
            console.print(_("Tie: no winner, status quo."), style="bold")
        else:
            winner = (a_label or _("Side A")) if data["winner"] == "a" else (b_label or _("Side B"))
            console.print(
                _("{winner} wins by {margin}.").format(winner=winner, margin=data["margin"]),
                style="bold green",
            )

    emit(data, render, as_json=as_json)


def odds_command(
    dice: DiceOpt = None,
    sheet: SheetOpt = None,
    stored: ReadCharacterArg = None,
    trait: TraitOpt = None,
    difficulty: DifficultyOpt = 1,
    zero_skill: ZeroSkillOpt = False,
    zero_attribute: ZeroAttrOpt = False,
    modifier: ModifierOpt = 0,
    push_dice: PushDiceOpt = None,
    reroll: RerollOpt = None,
    adjust: AdjustOpt = None,
    margin_points: MarginOpt = None,
    margin_counts: MarginCountsOpt = False,
    as_json: Json = False,
) -> None:
    """Exact odds of an Obscur test (pools up to 60 dice), with an optional Dépassement plan."""
    sheet = sheet_or_character(sheet, stored, "obscur")
    from meneur.cli.output import emit
    from meneur.systems.obscur.odds import summary

    pool = _resolve_pool(dice, sheet, trait, zero_skill, zero_attribute)
    label = pool.label
    plan = _push_plan(push_dice, reroll, adjust, margin_points)
    params = _test_params(pool, difficulty, modifier, plan, margin_counts)
    _dist, figures = summary(params)
    p_success: Fraction = figures["p_success"]  # type: ignore[assignment]
    p_fumble: Fraction = figures["p_fumble"]  # type: ignore[assignment]
    by: dict[int, Fraction] = figures["successes"]  # type: ignore[assignment]
    chances: Chances = {
        "p_success": p_success,
        "p_fumble": p_fumble,
        "successes": {str(s): p for s, p in by.items()},
    }
    data: dict[str, Any] = {
        "system": "obscur",
        **floats_of(chances),
        "dice": params.pool,
        "pool": params.pool_json(),
        "difficulty": difficulty,
        "exact": fractions_of(chances),
    }
    if not plan.is_empty:
        data["push"] = plan.to_json()

    def render(console: Console) -> None:
        from rich.table import Table

        from meneur.locale.numbers import exact, percent
        from meneur.systems.obscur.render import pool_text

        heading = _("{dice}, difficulty {difficulty}").format(
            dice=pool_text(data["pool"]), difficulty=difficulty
        )
        if label:
            heading = labelled(label, heading)
        console.print(heading, style="bold")
        console.print(
            _("Réussite: {p} ({exact})").format(p=percent(p_success), exact=exact(p_success)),
            style="green",
        )
        console.print(
            _("Maladresse: {p} ({exact})").format(p=percent(p_fumble), exact=exact(p_fumble)),
            style="red",
        )
        table = Table(pgettext("obscur", "Successes"), _("Probability"), _("Exact"))
        for s, p in by.items():
            table.add_row(str(s), percent(p), exact(p))
        console.print(table)

    emit(data, render, as_json=as_json)


def push_command(
    dice: DiceOpt = None,
    sheet: SheetOpt = None,
    stored: ReadCharacterArg = None,
    trait: TraitOpt = None,
    difficulty: DifficultyOpt = 1,
    points: Annotated[
        int | None,
        _ruled_option(
            "--points",
            _points,
            "P",
            _("Points of Vécu, Volonté and Moral to spend (default with a sheet: all it has)."),
        ),
    ] = None,
    zero_skill: ZeroSkillOpt = False,
    zero_attribute: ZeroAttrOpt = False,
    modifier: ModifierOpt = 0,
    margin_counts: MarginCountsOpt = False,
    faces: FacesArg = None,
    as_json: Json = False,
) -> None:
    """The Dépassement advisor: the exact success odds of each way to spend points.

    Without --faces: before the roll (extra dice now, or points kept for after). With
    --faces: after the roll, each plan of rerolls and adjustments, best first.
    """
    sheet = sheet_or_character(sheet, stored, "obscur")
    from meneur.cli.output import emit
    from meneur.systems.obscur.advisor import MAX_POINTS as LIMIT
    from meneur.systems.obscur.advisor import advise_after, advise_before
    from meneur.systems.obscur.depassement import TIERS
    from meneur.systems.obscur.rules import TestParams
    from meneur.systems.obscur.tables import rule_tables

    pool = _resolve_pool(dice, sheet, trait, zero_skill, zero_attribute)
    character = pool.character
    counts = margin_counts or rule_tables().options.margin_counts_as_successes
    if character is not None:
        available = _available(character)
        single = rule_tables().options.single_resource
        have = max(available.values()) if single else sum(available.values())
        if points is None:
            points = min(LIMIT, have)
        elif points > have:
            raise RuleError(
                N_("The sheet has only {have} points of Vécu, Volonté and Moral, not {points}."),
                have=have,
                points=points,
            )
    if points is None:
        raise UsageError(N_("Give --points P (the points you may spend)."))
    params = TestParams(
        pool.dice,
        difficulty=difficulty,
        modifier=modifier,
        zero_skill=pool.zero_skill,
        zero_attribute=pool.zero_attribute,
        maluses=pool.maluses,
    )
    if faces is not None:
        from meneur.rng import PhysicalDice

        shown = faces.values
        typed = PhysicalDice(shown)  # the faces of exactly the pool rolled, as `test` asks
        typed.roll(6, params.pool)
        typed.finish()
        options = advise_after(
            shown, difficulty, points, scoring=params.scoring, counts_margin=counts
        )
        stage = "after"
    else:
        from meneur.lab.progress import LazyBar

        bar = LazyBar(len(TIERS), _("Exact odds"))
        try:
            options = advise_before(
                params.pool,
                difficulty,
                points,
                scoring=params.scoring,
                counts_margin=counts,
                progress=bar.advance,
            )
        finally:
            bar.stop()
        stage = "before"
    listed: list[dict[str, Any]] = [
        {
            "spend": option.plan.to_json(),
            "cost": option.cost,
            "kept_for_after": option.kept if stage == "before" else 0,
            "p_success": float(option.p_success),
            "p_exact": fraction_text(option.p_success),
        }
        for option in options
    ]
    data: dict[str, Any] = {
        "system": "obscur",
        "stage": stage,
        "dice": params.pool,
        "pool": params.pool_json(),
        "difficulty": difficulty,
        "points": points,
        "options": listed,
        "best": listed[0] if listed else None,
        "cheapest_sure": min(
            (row for row in listed if row["p_exact"] == "1"),
            key=lambda row: row["cost"],
            default=None,
        ),
    }
    if faces is not None:
        data["faces"] = list(faces.values)

    def describe(spend: dict[str, Any]) -> str:
        parts = []
        if spend["extra_dice"]:
            parts.append(_("extra dice: +{n}").format(n=spend["extra_dice"]))
        if spend["reroll_up_to"]:
            parts.append(_("reroll faces 1 to {n}").format(n=spend["reroll_up_to"]))
        if spend.get("adjust_on"):
            raised = ", ".join(f"#{die} +{inc}" for die, inc in spend["adjust_on"])
            parts.append(_("score adjustment: {dice}").format(dice=raised))
        elif spend["adjust_tier"]:
            parts.append(_("score adjustment tier {n}").format(n=spend["adjust_tier"]))
        if spend["margin_bonus"]:
            parts.append(_("margin +{n}").format(n=spend["margin_bonus"]))
        if stage == "before" and not parts:
            return _("no extra dice")
        return ", ".join(parts) or _("nothing")

    def render(console: Console) -> None:
        from rich.table import Table

        from meneur.locale.numbers import exact, percent
        from meneur.systems.obscur.render import dice_text, pool_text

        if stage == "before":
            console.print(
                _("Before the roll: {dice}, difficulty {difficulty}, {points} points").format(
                    dice=pool_text(data["pool"]), difficulty=difficulty, points=points
                ),
                style="bold",
            )
        else:
            console.print(
                _("After the roll, difficulty {difficulty}, {points} points:").format(
                    difficulty=difficulty, points=points
                ),
                dice_text(list(faces.values) if faces else [], params.scoring.values),
                style="bold",
            )
        if stage == "before":
            table = Table(_("Spend"), _("Cost"), _("Kept for after"), _("Réussite"), _("Exact"))
        else:
            table = Table(_("Spend"), _("Cost"), _("Réussite"), _("Exact"))
        for row, option in zip(listed, options, strict=True):
            cells = [describe(row["spend"]), str(row["cost"])]
            if stage == "before":
                cells.append(str(row["kept_for_after"]))
            table.add_row(*cells, percent(row["p_success"]), exact(option.p_success))
        console.print(table)
        if listed:
            console.print(
                _("Best: {spend}").format(spend=describe(listed[0]["spend"])), style="bold green"
            )

    emit(data, render, as_json=as_json)


def xp_command(
    trait: Annotated[str, typer.Option("--trait", metavar="NAME", help=_("The trait to raise."))],
    to: Annotated[int, _int_option("--to", 0, 30, "LEVEL", _("The level to reach."))],
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    apply: Annotated[
        bool,
        typer.Option("--apply", help=_("Spend the Vécu and write the new level to the sheet.")),
    ] = False,
    contact: Annotated[
        bool, typer.Option("--contact", help=_("The trait is a Contact (a person)."))
    ] = False,
    as_json: Json = False,
) -> None:
    """Experience (O-40): the Vécu cost of raising a trait, and spending it."""
    from meneur.cli.output import emit
    from meneur.systems.obscur.catalog import KIND_LABELS
    from meneur.systems.obscur.experience import apply_raise, plan_raise
    from meneur.systems.obscur.sheet import load_character, save_character

    character = load_character(required_sheet(sheet, stored, "obscur"))
    plan = plan_raise(character, trait, to, contact=contact)
    if apply:
        save_character(apply_raise(character, plan))
    data = {
        "system": "obscur",
        "trait": plan.trait,
        "kind": plan.kind.value,
        "from": plan.level,
        "to": plan.target,
        "cost": plan.cost,
        "vecu": plan.vecu,
        "vecu_after": plan.vecu - plan.cost,
        "affordable": plan.affordable,
        "applied": apply,
    }

    def render(console: Console) -> None:
        console.print(
            _(
                "{kind} {trait}: {level} → {target} costs {cost} Vécu (the sheet has {vecu})."
            ).format(
                kind=_(KIND_LABELS[plan.kind]),
                trait=plan.trait,
                level=plan.level,
                target=plan.target,
                cost=plan.cost,
                vecu=plan.vecu,
            )
        )
        if apply:
            said = _("Done: written to {path}.").format(path=visible(str(sheet)))
            console.print(said, style="bold green", markup=False)
        elif not plan.affordable:
            console.print(_("Not enough Vécu yet."), style="red")

    emit(data, render, as_json=as_json)


def acquire_command(
    rarity: Annotated[
        int, _int_option("--rarity", 1, 6, "R", _("Rareté, 1 (very common) to 6 (exceptional)."))
    ],
    distance: Annotated[
        int,
        _int_option(
            "--distance", 0, 20, "K", _("Distance level to the item's region (table provisoire).")
        ),
    ] = 0,
    price: Annotated[
        Fraction | None,
        _parsed_option("--price", _price, "P", _("Reference price.")),
    ] = None,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Acquisition (O-41): is an item available, and at what price."""
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.obscur.acquisition import AcquireParams
    from meneur.systems.obscur.checks import AcquireCheck

    params = AcquireParams(rarity, distance, price)
    check = AcquireCheck()
    rolled = check.roll(params, dice_sources(seed, faces))
    data = check.to_json(params, rolled.outcome)
    p_available = check.odds(params).p_where(lambda key: bool(key[1]))  # type: ignore[index]
    data["p_available"] = float(p_available)
    data["p_available_exact"] = fraction_text(p_available)

    def render(console: Console) -> None:
        from meneur.locale.numbers import percent
        from meneur.systems.obscur.render import dice_text

        console.print(dice_text(data["faces"]))
        console.print(_("Disponibilité: {availability}").format(availability=data["availability"]))
        note = " " + _("(table provisoire)") if data["provisional"] and distance else ""
        console.print(
            _("Rareté {rarity} (base {base}, distance {distance}){note}").format(
                rarity=data["rarity"], base=rarity, distance=distance, note=note
            )
        )
        if data["available"]:
            line = _("Available at {percent} % of the reference price").format(
                percent=data["price_percent"]
            )
            if data["price"] is not None:
                line += _(": {price}").format(price=data["price"])
            console.print(line, style="bold green")
        else:
            console.print(_("Not available."), style="bold red")
        console.print(
            _("Chance it is available: {p} ({exact})").format(
                p=percent(p_available), exact=p_available
            )
        )

    emit(data, render, as_json=as_json)


def register(groups: CommandGroups) -> None:
    groups.group("test").command(
        "obscur", help=_("Roll an Obscur test (Potentiel d'Action, Dépassement).")
    )(test_command)
    groups.group("oppose").command("obscur", help=_("Roll an Obscur opposition."))(oppose_command)
    groups.group("odds").command("obscur", help=_("Exact odds of an Obscur test."))(odds_command)
    groups.group("push").command(
        "obscur", help=_("The Dépassement advisor: exact odds of each way to spend points.")
    )(push_command)
    groups.group("xp").command(
        "obscur", help=_("Obscur experience: the Vécu cost of raising a trait.")
    )(xp_command)
    groups.group("acquire").command(
        "obscur", help=_("Obscur acquisition: availability and price.")
    )(acquire_command)
    from meneur.cli.newcharacter import from_file

    groups.group("character", "new").command(
        "obscur", help=_("Obscur: store a character from its sheet file.")
    )(from_file("obscur"))
