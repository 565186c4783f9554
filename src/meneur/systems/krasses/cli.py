"""The Krâsses commands: ``test``, ``oppose``, ``cooperate`` and ``odds krasses``.

Options are parsed by meneur's own parsers (one translated line for bad input); rules,
odds and the rich rendering load inside the command bodies.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from meneur.cli.params import (
    CharacterArg,
    ForceOpt,
    Json,
    ReadCharacterArg,
    Seed,
    TypedFaces,
    VsCharacterArg,
    faces_option,
    int_parser,
    meneur_parser,
    sheet_or_character,
)
from meneur.errors import UsageError
from meneur.locale import N_, pgettext, quoted
from meneur.locale import gettext as _
from meneur.locale.numbers import Chances, floats_of, fractions_of
from meneur.pairs import WRITE_PAIR, once_each, parse_pair
from meneur.systems.base import CommandGroups
from meneur.systems.krasses.rules import TRAIT_NAME, Difficulty, Krasse, Member, TestParams
from meneur.text import cut, is_digits, visible

LIMIT = TestParams.MAX_VALUE
"""The rules' one bound on a bonus, a modifier and a difficulty."""
MAX_MODIFIERS = 20


def _difficulty(text: str) -> Difficulty:
    """A number needs no data file (start-up stays fast); a name loads the ladder (K-3)."""
    cleaned = str(text).strip()
    digits = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if is_digits(digits) and len(digits) <= 7 and abs(int(cleaned)) <= LIMIT:
        return Difficulty(int(cleaned))
    from meneur.systems.krasses.ladder import parse_difficulty

    return parse_difficulty(text)


def _krasse(text: str) -> Krasse:
    from meneur.systems.krasses.ladder import parse_krasse

    name, value = parse_krasse(text)
    return Krasse(name, value)


def _member(text: str) -> Member:
    bonus, sep, level = str(text).strip().partition(":")
    try:
        if not sep:
            raise typer.BadParameter("")
        bonus_value = int_parser(-LIMIT, LIMIT)(bonus)
        level_value = int_parser(0, Member.MAX_LEVEL)(level)
    except typer.BadParameter as error:
        detail = f" ({error.message.rstrip('.')})" if error.message else ""
        raise UsageError(
            N_("A member is BONUS:LEVEL such as 5:1, not '{text}'{detail}."),
            text=str(text),
            detail=detail,
        ) from None
    return Member(bonus_value, level_value)


def _kind(text: str) -> str:
    from meneur.text import fold

    wanted = fold(text)
    if wanted in {"pc", "pj", "player"}:
        return "pc"
    if wanted in {"npc", "pnj", "non-player"}:
        return "npc"
    raise UsageError(N_("Unknown kind '{kind}': choose pc or npc."), kind=str(text))


Value = int_parser(-LIMIT, LIMIT)


def _value_option(flag: str, metavar: str, help_text: str) -> Any:
    """A bounded whole-number option (a bonus or a modifier, for one side or the other)."""
    return typer.Option(flag, parser=Value, metavar=metavar, help=help_text)


def _text_option(flag: str, metavar: str, help_text: str) -> Any:
    """A plain text or path option (a sheet or a skill, for one side or the other)."""
    return typer.Option(flag, metavar=metavar, help=help_text)


def _kind_option(flag: str, help_text: str) -> Any:
    """A side's kind, pc or npc (K-4 gives ties to the PC). ``None`` when not given (the
    help says the default), so that ``odds`` can refuse it where it does not apply."""
    return typer.Option(flag, parser=meneur_parser(_kind), metavar="pc|npc", help=help_text)


BonusOpt = Annotated[
    int | None,
    _value_option(
        "--bonus",
        "B",
        _("The score rolled: a skill, an advantage or a characteristic (0 with no level)."),
    ),
]
VsBonusOpt = Annotated[
    int | None, _value_option("--vs-bonus", "B", _("The opposing side's bonus (opposed roll)."))
]
DifficultyOpt = Annotated[
    Difficulty | None,
    typer.Option(
        "--difficulty",
        parser=meneur_parser(_difficulty),
        metavar="D|NAME",
        # the names of the default ladder: a table's own (difficulties.toml) would cost
        # reading the file at every start of the command, help or not; an unknown name's
        # error lists the names in force
        help=_(
            "A whole number or a named difficulty: automatique, tres-facile (5), facile (10), "
            "moyen (15), ardu (20), difficile (25), impensable (30), presque-impossible (35), "
            "heroique (40), or the English names. That is the default ladder: "
            "$MENEUR_DATA_DIR/krasses/difficulties.toml replaces it."
        ),
    ),
]
ModifierOpt = Annotated[
    list[int] | None,
    _value_option("--modifier", "M", _("A temporary bonus or malus to the total (repeatable).")),
]
VsModifierOpt = Annotated[
    list[int] | None,
    _value_option("--vs-modifier", "M", _("A bonus or malus to the opposing side's total.")),
]
KrasseOpt = Annotated[
    list[Krasse] | None,
    typer.Option(
        "--krasse",
        parser=meneur_parser(_krasse),
        metavar="NAME[:VALUE]",
        help=_(
            "A krâsse moving the difficulty: NAME from krasses.toml, NAME:VALUE "
            "or VALUE (repeatable; positive is harder)."
        ),
    ),
]
SheetOpt = Annotated[
    Path | None,
    _text_option("--sheet", "FILE", _("A Krâsses character sheet (JSON or TOML).")),
]
SkillOpt = Annotated[
    str | None,
    _text_option(
        "--skill", "NAME", _("The skill, advantage or characteristic to roll from the sheet.")
    ),
]
VsSheetOpt = Annotated[
    Path | None,
    _text_option("--vs-sheet", "FILE", pgettext("krasses", "The opposing side's sheet.")),
]
VsSkillOpt = Annotated[
    str | None,
    _text_option("--vs-skill", "NAME", _("What the opposing side rolls from its sheet.")),
]
AKindOpt = Annotated[
    str | None, _kind_option("--a-kind", _("Side a: pc (player, the default) or npc."))
]
BKindOpt = Annotated[
    str | None, _kind_option("--b-kind", _("Side b: pc (player) or npc (the default)."))
]
IgnoreNaturalsOpt = Annotated[
    bool,
    typer.Option(
        "--ignore-naturals",
        help=_("Option of K-4: natural 20s and 1s do not decide an opposition."),
    ),
]
TestFacesOpt = Annotated[TypedFaces | None, faces_option(example="14")]
"""``--faces`` of a test: one d20 (the help showed the four d6 of a Tunnels test)."""
OpposeFacesOpt = Annotated[TypedFaces | None, faces_option(example="12")]
"""``--faces`` of side a in an opposition: a d20 a pass (a tie rerolled takes the next)."""
VsFacesOpt = Annotated[TypedFaces | None, faces_option("--vs-faces", example="11")]
CooperateFacesOpt = Annotated[TypedFaces | None, faces_option(example="14,8,15")]
"""``--faces`` of a cooperation: one d20 a member, in the order of ``--member``."""
MemberOpt = Annotated[
    list[Member] | None,
    typer.Option(
        "--member",
        parser=meneur_parser(_member),
        metavar="BONUS:LEVEL",
        help=_("A member of a cooperation as BONUS:LEVEL (repeat for each member)."),
    ),
]


def _modifiers(values: list[int] | None) -> int:
    values = values or []
    if len(values) > MAX_MODIFIERS:
        raise UsageError(N_("At most {limit} modifiers on one roll."), limit=MAX_MODIFIERS)
    return sum(values)


def _refuse_given(options: dict[str, Any], message: str) -> None:
    """Refuse those of ``options`` (flag: value) that were given, naming them: each
    would be silently ignored where it does not apply (``odds krasses --vs-modifier 7``
    with no ``--vs-bonus`` answered a plain test). Not given is ``None`` or ``False``."""
    given = [flag for flag, value in options.items() if value is not None and value is not False]
    if given:
        raise UsageError(message, flags=", ".join(given))


def _need(value: Any, option: str) -> Any:
    if value is None:
        raise UsageError(N_("Missing {option}."), option=option)
    return value


def _cooperation_difficulty(difficulty: Difficulty | None) -> tuple[int, str | None]:
    """A cooperation's difficulty value and name: required, and never automatic (K-7)."""
    chosen: Difficulty = _need(difficulty, "--difficulty")
    if chosen.value is None:
        raise UsageError(N_("An automatic action needs no roll, and so no cooperation."))
    return chosen.value, chosen.name


def _trait(sheet: Path | None, skill: str | None, prefix: str) -> tuple[int, int, dict[str, Any]]:
    """Bonus, modifier and description of what a sheet rolls for a skill (K-1, K-5, K-6)."""
    from meneur.systems.krasses.sheet import load_sheet, trait_roll

    path = _need(sheet, prefix + "sheet")
    trait = trait_roll(load_sheet(path), _need(skill, prefix + "skill"))
    described = {
        "name": trait.name,
        "source": trait.source,
        "level": trait.level,
        "modifiers": [{"name": n, "value": v} for n, v in trait.modifiers],
    }
    return trait.bonus, trait.modifier, described


def _side_bonus(
    bonus: int | None,
    modifier: list[int] | None,
    sheet: Path | None,
    skill: str | None,
    prefix: str,
) -> tuple[int, int, dict[str, Any] | None]:
    """One side's bonus and modifier: from ``--bonus`` or from ``--sheet`` and ``--skill``."""
    extra = _modifiers(modifier)
    if sheet is None and skill is None:
        return _need(bonus, (prefix or "--") + "bonus"), extra, None
    if bonus is not None:
        raise UsageError(
            N_("Give either {bonus} or {sheet} with {skill}, not both."),
            bonus=(prefix or "--") + "bonus",
            sheet=(prefix or "--") + "sheet",
            skill=(prefix or "--") + "skill",
        )
    trait_bonus, trait_modifier, described = _trait(sheet, skill, prefix or "--")
    return trait_bonus, extra + trait_modifier, described


def _test_params(
    bonus: int | None,
    difficulty: Difficulty | None,
    modifier: list[int] | None,
    krasse: list[Krasse] | None,
    sheet: Path | None,
    skill: str | None,
) -> tuple[TestParams, dict[str, Any] | None]:
    """The test's parameters, from ``--bonus`` or from ``--sheet`` and ``--skill``."""
    value, extra, rolled = _side_bonus(bonus, modifier, sheet, skill, "")
    chosen = _need(difficulty, "--difficulty")
    params = TestParams(
        bonus=value, difficulty=chosen.value, modifier=extra, krasses=tuple(krasse or ())
    )
    return params, rolled


def test_command(
    bonus: BonusOpt = None,
    difficulty: DifficultyOpt = None,
    modifier: ModifierOpt = None,
    krasse: KrasseOpt = None,
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    skill: SkillOpt = None,
    faces: TestFacesOpt = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll a Krâsses test: d20 + bonus against a difficulty (K-1 to K-6)."""
    sheet = sheet_or_character(sheet, stored, "krasses")
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.krasses.render import render_test
    from meneur.systems.krasses.rules import KrassesTest

    params, trait = _test_params(bonus, difficulty, modifier, krasse, sheet, skill)
    check = KrassesTest()
    rolled = check.roll(params, dice_sources(seed, faces))
    data = check.to_json(params, rolled.outcome)
    if trait is not None:
        data["trait"] = trait
    name = difficulty.name if difficulty is not None else None
    emit(data, lambda c: render_test(c, params, rolled.outcome, name, trait), as_json=as_json)


def oppose_command(
    bonus: BonusOpt = None,
    vs_bonus: VsBonusOpt = None,
    a_kind: AKindOpt = None,
    b_kind: BKindOpt = None,
    modifier: ModifierOpt = None,
    vs_modifier: VsModifierOpt = None,
    ignore_naturals: IgnoreNaturalsOpt = False,
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    skill: SkillOpt = None,
    vs_sheet: VsSheetOpt = None,
    vs_stored: VsCharacterArg = None,
    vs_skill: VsSkillOpt = None,
    faces: OpposeFacesOpt = None,
    vs_faces: VsFacesOpt = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll an opposition: the higher total wins; ties go to the PC or are rolled again (K-4)."""
    sheet = sheet_or_character(sheet, stored, "krasses")
    vs_sheet = sheet_or_character(vs_sheet, vs_stored, "krasses", "--vs-sheet/--vs-character")
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.krasses.render import render_oppose
    from meneur.systems.krasses.rules import KrassesOppose, OpposeParams, Side, check_kind

    a_bonus, a_extra, a_trait = _side_bonus(bonus, modifier, sheet, skill, "")
    b_bonus, b_extra, b_trait = _side_bonus(vs_bonus, vs_modifier, vs_sheet, vs_skill, "--vs-")
    params = OpposeParams(
        Side(a_bonus, check_kind(a_kind or "pc"), a_extra),
        Side(b_bonus, check_kind(b_kind or "npc"), b_extra),
        naturals=not ignore_naturals,
    )
    check = KrassesOppose()
    rolled = check.roll(params, dice_sources(seed, faces, vs_faces))
    data = check.to_json(params, rolled.outcome)
    for side, trait in (("a", a_trait), ("b", b_trait)):
        if trait is not None:
            data[side]["trait"] = trait
    emit(data, lambda c: render_oppose(c, params, rolled.outcome), as_json=as_json)


def cooperate_command(
    member: MemberOpt = None,
    difficulty: DifficultyOpt = None,
    krasse: KrasseOpt = None,
    faces: CooperateFacesOpt = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll a cooperation: everyone rolls, the best leads, helpers give +2 (K-7)."""
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.krasses.render import render_cooperate
    from meneur.systems.krasses.rules import CooperateParams, KrassesCooperate

    value, name = _cooperation_difficulty(difficulty)
    params = CooperateParams(tuple(_need(member, "--member")), value, tuple(krasse or ()))
    check = KrassesCooperate()
    rolled = check.roll(params, dice_sources(seed, faces))
    data = check.to_json(params, rolled.outcome)
    emit(
        data,
        lambda c: render_cooperate(c, params, rolled.outcome, name),
        as_json=as_json,
    )


def odds_command(
    bonus: BonusOpt = None,
    difficulty: DifficultyOpt = None,
    modifier: ModifierOpt = None,
    krasse: KrasseOpt = None,
    sheet: SheetOpt = None,
    stored: ReadCharacterArg = None,
    skill: SkillOpt = None,
    vs_bonus: VsBonusOpt = None,
    vs_modifier: VsModifierOpt = None,
    a_kind: AKindOpt = None,
    b_kind: BKindOpt = None,
    ignore_naturals: IgnoreNaturalsOpt = False,
    member: MemberOpt = None,
    as_json: Json = False,
) -> None:
    """Exact odds of a Krâsses test, opposition (--vs-bonus) or cooperation (--member).

    An option of another kind of roll is refused, named, never silently ignored."""
    chosen = sheet_or_character(sheet, stored, "krasses")
    from meneur.cli.output import emit
    from meneur.systems.krasses import odds
    from meneur.systems.krasses.render import render_odds
    from meneur.systems.krasses.rules import CooperateParams, OpposeParams, Side, check_kind

    opposition = {
        "--vs-modifier": vs_modifier,
        "--a-kind": a_kind,
        "--b-kind": b_kind,
        "--ignore-naturals": ignore_naturals,
    }
    data: dict[str, Any] = {"system": "krasses"}
    if member is not None:
        _refuse_given(
            {
                "--bonus": bonus,
                "--modifier": modifier,
                "--sheet": sheet,
                "--character": stored,
                "--skill": skill,
                "--vs-bonus": vs_bonus,
                **opposition,
            },
            N_("--member cannot be mixed with {flags}."),
        )
        value, _name = _cooperation_difficulty(difficulty)
        coop = CooperateParams(tuple(member), value, tuple(krasse or ()))
        p = odds.cooperate_p_success(coop)
        leads = odds.cooperate_dist(coop).map(lambda key: key[0] if isinstance(key, tuple) else 0)
        leaders = {str(i): leads.p(i) for i in range(len(coop.members))}
        chances: Chances = {"p_success": p, "p_leader": leaders}
        data.update(kind="cooperate", **floats_of(chances), exact=fractions_of(chances))
    elif vs_bonus is not None:
        _refuse_given(
            {"--difficulty": difficulty, "--krasse": krasse},
            N_("An opposed roll has no difficulty: drop {flags}."),
        )
        a_bonus, a_extra, _trait = _side_bonus(bonus, modifier, chosen, skill, "")
        params = OpposeParams(
            Side(a_bonus, check_kind(a_kind or "pc"), a_extra),
            Side(vs_bonus, check_kind(b_kind or "npc"), _modifiers(vs_modifier)),
            naturals=not ignore_naturals,
        )
        p = odds.p_a_wins(params)
        chances = {
            "p_a_wins": p,
            "p_b_wins": 1 - p,
            "p_tie_round": odds.p_tie_round(params),
            "expected_rerolls": odds.expected_rerolls(params),
        }
        data.update(kind="oppose", **floats_of(chances), exact=fractions_of(chances))
    else:
        _refuse_given(
            opposition,
            N_("A test has no opposing side: drop {flags}, or give --vs-bonus to oppose."),
        )
        test, _trait = _test_params(bonus, difficulty, modifier, krasse, chosen, skill)
        p = odds.test_p_success(test)
        chances = {"p_success": p}
        data.update(kind="test", **floats_of(chances), exact=fractions_of(chances))
    emit(data, lambda c: render_odds(c, data), as_json=as_json)


@dataclass(frozen=True, slots=True)
class Pair:
    """``NAME=VALUE`` from the command line (a class so that Typer reads one text value)."""

    name: str
    value: int


PAIR_NAME = TRAIT_NAME
"""The longest name of a characteristic or a skill typed as ``NAME=VALUE``: the sheet's."""


def _pair(text: str) -> Pair:
    """``NAME=VALUE`` (a characteristic score or a skill level). The value's bounds are
    the sheet's, which says them for each kind (a skill's level is from 0, a
    characteristic may be negative); here a number, of at most a million. Read as the
    web table's creation form reads it (:func:`meneur.pairs.parse_pair`)."""
    name, value = parse_pair(text, low=-1_000_000, high=1_000_000)
    if not name:
        raise UsageError(WRITE_PAIR, text=text)
    if len(name) > PAIR_NAME:
        raise UsageError(
            N_("A name has at most {most} characters, not {count}: '{name}...'."),
            most=PAIR_NAME,
            count=len(name),
            name=name,
        )
    return Pair(name, value)


def _pair_option(flag: str, metavar: str, help_text: str) -> Any:
    """A repeatable ``NAME=VALUE`` option of ``character new krasses``."""
    return typer.Option(flag, parser=meneur_parser(_pair), metavar=metavar, help=help_text)


PairsOpt = Annotated[
    list[Pair] | None,
    _pair_option(
        "--characteristic", "NAME=SCORE", _("A characteristic and its score (repeatable).")
    ),
]
SkillsOpt = Annotated[
    list[Pair] | None,
    _pair_option("--skill", "NAME=LEVEL", _("A skill and its level (repeatable).")),
]


def _once_each(pairs: list[Pair] | None, flag: str) -> dict[str, int]:
    """The pairs as a table; a name given twice is refused (the second silently won:
    ``--skill A=1 --skill A=2`` kept 2, where ``a=1 A=2`` was refused by the sheet), as
    the web table's form refuses it (:func:`meneur.pairs.once_each`)."""
    return once_each(((pair.name, pair.value) for pair in pairs or []), flag)


def new_character_command(
    named: Annotated[
        str | None,
        typer.Argument(metavar="NAME", help=_("The hero's name, as the other systems take it.")),
    ] = None,
    name_option: Annotated[
        str | None, typer.Option("--name", metavar="NAME", help=_("The hero's name."))
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help=_("Also write the sheet to FILE (JSON).")),
    ] = None,
    characteristic: PairsOpt = None,
    skill: SkillsOpt = None,
    force: ForceOpt = False,
    as_json: Json = False,
) -> None:
    """Store a new Krâsses character in the current campaign (and in --out FILE if given)."""
    from meneur.cli.newcharacter import check_out, store_new, stored_line
    from meneur.cli.output import emit
    from meneur.files import write_sheet
    from meneur.systems.krasses.sheet import KrassesSheet, validated

    if (named is None) == (name_option is None):
        raise UsageError(
            N_("Give the hero's name once: meneur character new krasses NAME (or --name NAME).")
        )
    name = named if named is not None else name_option
    assert name is not None
    check_out(out, force)
    sheet: KrassesSheet = validated(
        {
            "system": "krasses",
            "name": name,
            "characteristics": _once_each(characteristic, "--characteristic"),
            "skills": _once_each(skill, "--skill"),
            "advantages": [],
            "equipment": [],
        },
        str(out) if out is not None else quoted(cut(name)),  # no file yet: its name
    )
    data = sheet.model_dump(mode="json")
    campaign = store_new("krasses", sheet.name, data)
    if out is not None:
        write_sheet(out, data)

    def render(console: Any) -> None:
        console.print(stored_line(sheet.name, campaign), markup=False)
        if out is not None:
            said = _("Sheet of {name} written to {path}.")
            console.print(said.format(name=name, path=visible(str(out))), markup=False)

    emit(data, render, as_json=as_json)


def register(groups: CommandGroups) -> None:
    """Add the Krâsses commands to the shared groups."""
    groups.group("test").command("krasses", help=_("Krâsses: d20 + bonus against a difficulty."))(
        test_command
    )
    groups.group("oppose").command(
        "krasses", help=_("Krâsses: opposed d20 rolls, ties to the PC or rerolled.")
    )(oppose_command)
    groups.group("cooperate").command(
        "krasses", help=_("Krâsses: a group roll, the best leads and helpers give +2.")
    )(cooperate_command)
    groups.group("odds").command(
        "krasses", help=_("Krâsses: exact odds of a test, an opposition or a cooperation.")
    )(odds_command)
    groups.group("character", "new").command(
        "krasses", help=_("Krâsses: a new character, stored in the campaign.")
    )(new_character_command)
