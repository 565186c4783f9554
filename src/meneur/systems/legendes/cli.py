"""Légendes commands: ``test``, ``odds``, ``aid`` and ``scene legendes ...``.

Help strings are translated when this module is imported (the language is set before).
Every option is parsed by a bounded parser, so bad input is one line and exit status 2.
The scene commands read the sheet, run one step of :mod:`~meneur.systems.legendes.scene`
on a copy, and write the sheet back atomically only when the step succeeded.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meneur.cli.params import (
    CharacterArg,
    FacesArg,
    Json,
    Seed,
    VsFacesArg,
    dice_sources,
    int_parser,
    meneur_parser,
    required_sheet,
)
from meneur.errors import UsageError
from meneur.locale import N_, ngettext
from meneur.locale import gettext as _
from meneur.locale.numbers import floats_of, fractions_of
from meneur.systems.base import CommandGroups
from meneur.systems.legendes.rules import (
    DOMAIN_LENGTH,
    Band,
    Domain,
    Effect,
    Level,
    OpposedParams,
    Partial,
    SceneKind,
    check_circumstance,
    domain_dice,
    effect_bonus,
    group_level,
    level_dice,
    parse_band,
    parse_domain,
    parse_level,
    parse_partial,
    parse_scene_kind,
)
from meneur.text import has_control, has_markup

if TYPE_CHECKING:
    from meneur.cli.params import TypedFaces
    from meneur.rng import DiceSource


def _parse_modifier(text: str) -> int:
    from meneur.cli.params import parse_int

    return check_circumstance(parse_int(text, low=-1000, high=1000))


def _parse_regret(text: str) -> int:
    from meneur.cli.params import parse_int
    from meneur.errors import RuleError

    value = parse_int(text, low=-1000, high=1000)
    if value not in (0, 1, 2):
        raise RuleError(
            N_("A regret or blocage removes 1 or 2 dice (L-6), not {regret}."), regret=value
        )
    return value


def _parse_effect(text: str) -> Effect:
    from meneur.systems.legendes.rules import EFFECTS
    from meneur.text import fold

    wanted = fold(text).replace("-", "_")
    for effect in EFFECTS:
        if wanted == effect:
            return effect
    raise UsageError(
        N_("Unknown help result '{effect}': choose extra_die, plus_2, plus_1, cosmetic or none."),
        effect=text,
    )


def _number_option(flag: str, metavar: str, low: int, high: int, help_text: str) -> Any:
    """A bounded whole-number option (dice, points, a crowd): a clear error out of range."""
    return typer.Option(flag, metavar=metavar, parser=int_parser(low, high), help=help_text)


def _parsed_option(flag: str, metavar: str, parse: Callable[[str], Any], help_text: str) -> Any:
    """An option read by one of meneur's parsers (a domain, a level, a band...)."""
    return typer.Option(flag, metavar=metavar, parser=meneur_parser(parse), help=help_text)


def _text_option(flag: str, metavar: str, help_text: str) -> Any:
    """A plain text option (an opposition or a domain named as the hero's sheet has it)."""
    return typer.Option(flag, metavar=metavar, help=help_text)


DiceOpt = Annotated[
    int | None,
    _number_option(
        "--dice", "N", 0, OpposedParams.MAX_DICE, _("The hero's dice (instead of --domain).")
    ),
]
DomainOpt = Annotated[
    Domain | None,
    _parsed_option(
        "--domain",
        "DOMAIN",
        parse_domain,
        _("The hero's domain: legendary (3 dice), secondary (2) or ordinary (0) (L-1)."),
    ),
]
VsOpt = Annotated[
    Level | None,
    _parsed_option(
        "--vs",
        "LEVEL",
        parse_level,
        _("Opposition level: legendaire, heroique, elite or commun (L-3)."),
    ),
]
GroupOpt = Annotated[
    bool,
    typer.Option("--group", help=_("The opposition is a group of about ten: one level up (L-4).")),
]
VsDiceOpt = Annotated[
    int | None,
    _number_option(
        "--vs-dice", "M", 0, OpposedParams.MAX_DICE, _("The opposition's dice (instead of --vs).")
    ),
]
ModifierOpt = Annotated[
    int,
    _parsed_option(
        "--modifier", "K", _parse_modifier, _("Circumstance: -2 or +2 on the hero's total (L-7).")
    ),
]
WeaknessOpt = Annotated[
    bool, typer.Option("--weakness", help=_("A weakness is involved: -1 die (L-6)."))
]
RegretOpt = Annotated[
    int,
    _parsed_option(
        "--regret", "1|2", _parse_regret, _("Regret or blocage touched: -1 or -2 dice (L-6).")
    ),
]
RemoveOpt = Annotated[
    int,
    _number_option(
        "--remove-dice",
        "N",
        0,
        OpposedParams.MAX_DICE,
        _("Dice the GM removes for an action described too thinly (L-6)."),
    ),
]
MotivationOpt = Annotated[
    bool, typer.Option("--motivation", help=_("The action leads toward the motivation: +2 (L-12)."))
]
SpendOpt = Annotated[
    int,
    _number_option(
        "--spend",
        "N",
        0,
        OpposedParams.MAX_SPEND,
        _("Motivation points spent: +1 die each (L-12)."),
    ),
]
LightOpt = Annotated[
    bool, typer.Option("--light-wound", help=_("The hero has a light wound: -2 (L-13)."))
]
GraveOpt = Annotated[
    bool, typer.Option("--grave-wound", help=_("The hero has a grave wound: -1 die (L-13)."))
]
AidOpt = Annotated[
    Effect | None,
    _parsed_option(
        "--aid",
        "RESULT",
        _parse_effect,
        _("Help received before this roll: extra_die, plus_2 or plus_1 (L-11)."),
    ),
]
TakeOpt = Annotated[
    Band | None,
    _parsed_option("--take", "BAND", parse_band, _("The winner takes at most this outcome (L-8).")),
]

PartialOpt = Annotated[
    Partial | None,
    _parsed_option(
        "--partial",
        "wound|doubt",
        parse_partial,
        _(
            "What a victoire partielle does to the loser: wound, or doubt in a social contest "
            "(L-13; in a scene, default: the scene's kind)."
        ),
    ),
]


def _odds_json(rows: dict[str, Fraction]) -> dict[str, Any]:
    """The odds' JSON: each outcome's probability as a float and as an exact fraction."""
    chances = {"outcomes": rows}
    return {"system": "legendes", **floats_of(chances), "exact": fractions_of(chances)}


def build_params(
    *,
    dice: int | None,
    domain: Domain | None,
    vs: Level | None,
    group: bool,
    vs_dice: int | None,
    modifier: int,
    weakness: bool,
    regret: int,
    remove_dice: int,
    motivation: bool,
    spend: int,
    light_wound: bool,
    grave_wound: bool,
    aid: Effect | None,
    take: Band | None = None,
    partial: Partial | None = None,
) -> OpposedParams:
    """The roll's params from the command-line options, with clear errors for bad mixes."""
    if (dice is None) == (domain is None):
        raise UsageError(N_("Give the hero's dice with exactly one of --dice or --domain."))
    if (vs is None) == (vs_dice is None):
        raise UsageError(N_("Give the opposition with exactly one of --vs or --vs-dice."))
    if group and vs is None:
        raise UsageError(N_("--group needs an opposition level (--vs)."))
    level = group_level(vs) if (group and vs is not None) else vs
    extra, bonus = effect_bonus(aid) if aid is not None else (0, 0)
    return OpposedParams(
        dice=dice if dice is not None else domain_dice(domain),  # type: ignore[arg-type]
        vs_dice=vs_dice if vs_dice is not None else level_dice(level),  # type: ignore[arg-type]
        vs_level=level,
        modifier=modifier,
        weakness=weakness,
        regret=regret,
        removed_dice=remove_dice,
        light_wound=light_wound,
        grave_wound=grave_wound,
        motivation=motivation,
        spend=spend,
        extra_dice=min(extra, OpposedParams.MAX_EXTRA_DICE),
        bonus=bonus,
        take=take,
        partial=partial or "wound",
    )


def test_command(
    dice: DiceOpt = None,
    domain: DomainOpt = None,
    vs: VsOpt = None,
    group: GroupOpt = False,
    vs_dice: VsDiceOpt = None,
    modifier: ModifierOpt = 0,
    weakness: WeaknessOpt = False,
    regret: RegretOpt = 0,
    remove_dice: RemoveOpt = 0,
    motivation: MotivationOpt = False,
    spend: SpendOpt = 0,
    light_wound: LightOpt = False,
    grave_wound: GraveOpt = False,
    aid: AidOpt = None,
    take: TakeOpt = None,
    partial: PartialOpt = None,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """An opposed roll: the hero's domain dice against an opposition level (L-3 to L-8)."""
    from meneur.cli.output import emit
    from meneur.systems.legendes.render import render_opposed
    from meneur.systems.legendes.rules import LegendesTest

    params = build_params(
        dice=dice, domain=domain, vs=vs, group=group, vs_dice=vs_dice, modifier=modifier,
        weakness=weakness, regret=regret, remove_dice=remove_dice, motivation=motivation,
        spend=spend, light_wound=light_wound, grave_wound=grave_wound, aid=aid, take=take,
        partial=partial,
    )  # fmt: skip
    check = LegendesTest()
    rolled = check.roll(params, dice_sources(seed, faces, vs_faces))
    data = check.to_json(params, rolled.outcome)
    emit(data, lambda console: render_opposed(console, data), as_json=as_json)


def odds_command(
    dice: DiceOpt = None,
    domain: DomainOpt = None,
    vs: VsOpt = None,
    group: GroupOpt = False,
    vs_dice: VsDiceOpt = None,
    modifier: ModifierOpt = 0,
    weakness: WeaknessOpt = False,
    regret: RegretOpt = 0,
    remove_dice: RemoveOpt = 0,
    motivation: MotivationOpt = False,
    spend: SpendOpt = 0,
    light_wound: LightOpt = False,
    grave_wound: GraveOpt = False,
    aid: AidOpt = None,
    as_json: Json = False,
) -> None:
    """Exact odds of every outcome band of an opposed roll, from the hero's side (L-8)."""
    from meneur.cli.output import emit
    from meneur.systems.legendes.odds import opposed_odds
    from meneur.systems.legendes.render import KEY_LABELS, render_odds
    from meneur.systems.legendes.rules import OUTCOME_KEYS

    params = build_params(
        dice=dice, domain=domain, vs=vs, group=group, vs_dice=vs_dice, modifier=modifier,
        weakness=weakness, regret=regret, remove_dice=remove_dice, motivation=motivation,
        spend=spend, light_wound=light_wound, grave_wound=grave_wound, aid=aid,
    )  # fmt: skip
    dist = opposed_odds(params)
    rows = {key: dist.p(key) for key in OUTCOME_KEYS}
    data: dict[str, Any] = {
        **_odds_json(rows),
        "dice": params.pc_dice,
        "opposition_dice": params.opposition_dice,
        "swept": params.swept,
    }
    title = _("{dice} {bonus} against {vs}").format(
        dice=ngettext("{number} die", "{number} dice", params.pc_dice).format(
            number=params.pc_dice
        ),
        bonus=f"{params.pc_bonus:+d}",
        vs=ngettext("{number} die", "{number} dice", params.opposition_dice).format(
            number=params.opposition_dice
        ),
    )
    emit(data, lambda console: render_odds(console, title, rows, KEY_LABELS), as_json=as_json)


def aid_command(
    helper_dice: Annotated[
        int,
        _number_option(
            "--helper-dice", "N", 0, OpposedParams.MAX_DICE, _("The helper's dice (L-11).")
        ),
    ],
    helped_dice: Annotated[
        int,
        _number_option(
            "--helped-dice",
            "M",
            0,
            OpposedParams.MAX_DICE,
            _("The helped character's dice (L-11)."),
        ),
    ],
    modifier: ModifierOpt = 0,
    odds: Annotated[
        bool, typer.Option("--odds", help=_("Show the exact odds of each help result instead."))
    ] = False,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Help: the helper rolls against the helped one; the difference gives the bonus (L-11)."""
    from meneur.cli.output import emit
    from meneur.systems.legendes.render import EFFECT_LABELS, render_aid, render_odds
    from meneur.systems.legendes.rules import EFFECTS, HelpParams, LegendesAid

    params = HelpParams(helper_dice=helper_dice, helped_dice=helped_dice, modifier=modifier)
    check = LegendesAid()
    if odds:
        dist = check.odds(params)
        rows: dict[str, Fraction] = {effect: dist.p(effect) for effect in EFFECTS}
        odds_data = _odds_json(rows)
        title = _("Help: {helper} dice against {helped}").format(
            helper=helper_dice, helped=helped_dice
        )
        emit(
            odds_data,
            lambda console: render_odds(console, title, rows, EFFECT_LABELS),
            as_json=as_json,
        )
        return
    rolled = check.roll(params, dice_sources(seed, faces, vs_faces))
    data = check.to_json(params, rolled.outcome)
    emit(data, lambda console: render_aid(console, data), as_json=as_json)


SheetArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="SHEET",
        help=_("The hero sheet (JSON), updated in place (or --character NAME)."),
    ),
]


def _step(sheet: Path, as_json: bool, run: Any) -> None:
    """Load the hero, run one scene step on a copy, save it, print the report."""
    from meneur.cli.output import emit
    from meneur.systems.legendes.render import render_step
    from meneur.systems.legendes.sheet import (
        check_writable,
        load_hero,
        save_hero,
        typed_refusal,
    )

    check_writable(sheet)
    hero = load_hero(sheet)
    with typed_refusal():  # a name or a title the scene's models refuse: one line
        new, data = run(hero)
    save_hero(sheet, new)
    emit(data, lambda console: render_step(console, data), as_json=as_json)


def _rolled_step(
    sheet: Path | None,
    stored: str | None,
    dice: tuple[int | None, TypedFaces | None, TypedFaces | None],
    as_json: bool,
    step: Callable[[Any, DiceSource, DiceSource], Any],
) -> None:
    """A scene step that rolls: the hero's side and the other side each read their own dice."""
    hero_sheet = required_sheet(sheet, stored, "legendes")  # before the dice: they are logged
    sources = dice_sources(*dice)

    def run(hero: Any) -> Any:
        result = step(hero, sources[0], sources[1])
        for source in {id(s): s for s in sources}.values():
            source.finish()
        return result

    _step(hero_sheet, as_json, run)


def scene_start(
    sheet: SheetArg = None,
    stored: CharacterArg = None,
    title: Annotated[
        str, typer.Option("--title", metavar="TEXT", help=_("What the scene is about."))
    ] = "",
    kind: Annotated[
        SceneKind,
        _parsed_option(
            "--kind",
            "physical|social",
            parse_scene_kind,
            _("physical: a victoire partielle wounds; social: it makes the other doubt (L-13)."),
        ),
    ] = "physical",
    as_json: Json = False,
) -> None:
    """Begin a scene: roll counts, helpers and light wounds are tracked until it ends."""
    from meneur.systems.legendes import scene

    _step(
        required_sheet(sheet, stored, "legendes"),
        as_json,
        lambda hero: scene.start(hero, title, kind),  # the model refuses a long one
    )


def scene_add(
    level: Annotated[
        Level | None,
        _parsed_option("--level", "LEVEL", parse_level, _("Its level (L-3).")),
    ] = None,
    sheet: SheetArg = None,
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="NAME", help=_("The opposition's name (the only argument with --character).")
        ),
    ] = None,
    stored: CharacterArg = None,
    group: GroupOpt = False,
    count: Annotated[
        int,
        _number_option(
            "--count", "N", 1, 100_000, _("A crowd of this many members, split by tens (L-4).")
        ),
    ] = 1,
    keeps_fighting: Annotated[
        bool | None,
        typer.Option(
            "--keeps-fighting/--stops-when-wounded",
            help=_(
                "Whether it goes on after its first wound (L-14; default: only heroic ones do)."
            ),
        ),
    ] = None,
    character: Annotated[
        bool,
        typer.Option(
            "--pc",
            help=_(
                "A player character or another hero, with --dice or --domain: it fights "
                "beside the hero (roll --with) or against them (L-10)."
            ),
        ),
    ] = False,
    dice: Annotated[
        int | None,
        _number_option(
            "--dice", "N", 0, OpposedParams.MAX_DICE, _("With --pc: the character's dice.")
        ),
    ] = None,
    domain: Annotated[
        Domain | None,
        _parsed_option(
            "--domain",
            "DOMAIN",
            parse_domain,
            _(
                "With --pc: the character's domain, legendary (3 dice), secondary (2) or "
                "ordinary (0) (L-1)."
            ),
        ),
    ] = None,
    as_json: Json = False,
) -> None:
    """Add an opposition, a group of about ten, a crowd, or a character (L-3, L-4, L-10)."""
    from meneur.systems.legendes import scene

    if stored is not None and name is None and sheet is not None:
        sheet, name = None, str(sheet)  # `add NAME --character HERO`: no sheet file
    if name is None:
        raise UsageError(N_("Missing the opposition's name."))
    if len(name) > 60 or not name.strip():
        raise UsageError(N_("An opposition's name has 1 to 60 characters."))
    if has_markup(name):
        raise UsageError(N_("A name cannot hold square brackets [ ]: {name}"), name=name)
    if character:
        if level is not None or group or count != 1 or keeps_fighting is not None:
            raise UsageError(
                N_("A character has dice, not a level: --pc goes without --level, "
                   "--group, --count or --keeps-fighting.")
            )  # fmt: skip
        if (dice is None) == (domain is None):
            raise UsageError(
                N_("Give the character's dice with exactly one of --dice or --domain.")
            )
        character_dice = dice if dice is not None else domain_dice(domain)  # type: ignore[arg-type]
        _step(
            required_sheet(sheet, stored, "legendes"),
            as_json,
            lambda hero: scene.add_character(hero, name.strip(), character_dice),
        )
        return
    if level is None or dice is not None or domain is not None:
        raise UsageError(
            N_("Give an opposition its --level, or add a character with --pc and its dice.")
        )
    _step(
        required_sheet(sheet, stored, "legendes"),
        as_json,
        lambda hero: scene.add(
            hero, name.strip(), level, group=group, count=count, keeps_fighting=keeps_fighting
        ),
    )


def scene_roll(
    vs: Annotated[
        list[str],
        _text_option("--vs", "NAME", _("An opposition of the scene (repeat for several, L-10).")),
    ],
    sheet: SheetArg = None,
    stored: CharacterArg = None,
    domain: Annotated[
        str,
        _text_option(
            "--domain", "DOMAIN", _("One of the hero's domains, or legendary/secondary/ordinary.")
        ),
    ] = "ordinary",
    dice: DiceOpt = None,
    modifier: ModifierOpt = 0,
    weakness: WeaknessOpt = False,
    regret: RegretOpt = 0,
    remove_dice: RemoveOpt = 0,
    motivation: MotivationOpt = False,
    spend: SpendOpt = 0,
    take: TakeOpt = None,
    partial: PartialOpt = None,
    allies: Annotated[
        list[str] | None,
        _text_option(
            "--with",
            "NAME",
            _("A character of the scene fighting beside the hero (repeat; L-10)."),
        ),
    ] = None,
    each_other: Annotated[
        bool,
        typer.Option(
            "--each-other",
            help=_("The oppositions named fight each other too: every pair is compared (L-10)."),
        ),
    ] = False,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """The hero (and allies) roll against oppositions, compared two by two; saved (L-10)."""
    from meneur.systems.legendes import scene

    request = scene.RollRequest(
        domain=_domain_named(domain), dice=dice, against=tuple(vs), allies=tuple(allies or ()),
        each_other=each_other, modifier=modifier, weakness=weakness, regret=regret,
        removed_dice=remove_dice, motivation=motivation, spend=spend, take=take, partial=partial,
    )  # fmt: skip

    def run(hero: Any, first: DiceSource, second: DiceSource) -> Any:
        if dice is None:  # with --dice the domain is only the roll's name
            scene.check_domain(hero, request.domain)
        return scene.roll(hero, request, first, second)

    _rolled_step(sheet, stored, (seed, faces, vs_faces), as_json, run)


def _domain_named(domain: str) -> str:
    """``domain`` as typed for a scene's roll or help, held to a name's rules: any text
    names a domain (what the sheet does not list is ordinary, L-1) and is kept in the
    roll log: an empty one or an escape sequence was rolled as ordinary and logged, and
    the help cut a long one to 80 characters unsaid."""
    if len(domain) > DOMAIN_LENGTH or not domain.strip():
        raise UsageError(N_("A domain name has 1 to {limit} characters."), limit=DOMAIN_LENGTH)
    if has_control(domain):
        raise UsageError(
            N_("A domain name cannot hold a tab, a line break or another control character.")
        )
    return domain


def scene_aid(
    helper: Annotated[
        str, typer.Option("--helper", metavar="NAME", help=_("Who helps (once per scene, L-11)."))
    ],
    helper_dice: Annotated[
        int,
        _number_option("--helper-dice", "N", 0, OpposedParams.MAX_DICE, _("The helper's dice.")),
    ],
    sheet: SheetArg = None,
    stored: CharacterArg = None,
    domain: Annotated[
        str,
        _text_option("--domain", "DOMAIN", _("The hero's domain for the opposed help roll.")),
    ] = "ordinary",
    modifier: ModifierOpt = 0,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """A helper helps the hero; the result waits for the hero's next roll (L-11)."""
    from meneur.systems.legendes import scene

    domain = _domain_named(domain)

    if len(helper) > 80 or not helper.strip():
        raise UsageError(N_("A helper's name has 1 to 80 characters."))
    if has_control(helper):  # kept on the sheet: the sheet would load no more
        raise UsageError(
            N_("A helper's name cannot hold a tab, a line break or another control character.")
        )
    if has_markup(helper):
        raise UsageError(N_("A name cannot hold square brackets [ ]: {name}"), name=helper)

    def run(hero: Any, first: DiceSource, second: DiceSource) -> Any:
        scene.check_domain(hero, domain)
        kind, name = scene.domain_of(hero, domain)
        new, data = scene.aid(
            hero, helper.strip(), helper_dice, domain_dice(kind), modifier, first, second
        )
        return new, {**data, "domain": name, "domain_unlisted": scene.unlisted(hero, domain)}

    _rolled_step(sheet, stored, (seed, faces, vs_faces), as_json, run)


def scene_wound(
    sheet: SheetArg = None,
    stored: CharacterArg = None,
    grave: Annotated[
        bool, typer.Option("--grave", help=_("A grave wound at once (poison, thirst...)."))
    ] = False,
    as_json: Json = False,
) -> None:
    """The hero takes a wound outside an opposition (L-13)."""
    from meneur.systems.legendes import scene

    _step(
        required_sheet(sheet, stored, "legendes"),
        as_json,
        lambda hero: scene.wound(hero, grave=grave),
    )


def scene_heal(sheet: SheetArg = None, stored: CharacterArg = None, as_json: Json = False) -> None:
    """The cause of the grave wound is treated: the hero is unhurt (L-13)."""
    from meneur.systems.legendes import scene

    _step(required_sheet(sheet, stored, "legendes"), as_json, scene.heal)


def scene_progress(
    sheet: SheetArg = None, stored: CharacterArg = None, as_json: Json = False
) -> None:
    """Significant progress toward the motivation: +1 motivation point (L-12)."""
    from meneur.systems.legendes import scene

    _step(required_sheet(sheet, stored, "legendes"), as_json, scene.progress)


def scene_reached(
    sheet: SheetArg = None,
    stored: CharacterArg = None,
    keep: Annotated[
        bool, typer.Option("--keep", help=_("Keep the motivation: restart at 1 point."))
    ] = False,
    raise_to: Annotated[
        str | None,
        typer.Option(
            "--raise", metavar="TEXT", help=_("Raise it to this harder motivation: points kept.")
        ),
    ] = None,
    as_json: Json = False,
) -> None:
    """The motivation is reached: keep it or raise it (L-12)."""
    from meneur.systems.legendes import scene

    if keep == (raise_to is not None):
        raise UsageError(N_("Choose exactly one of --keep or --raise."))
    if raise_to is not None and len(raise_to) > 300:
        raise UsageError(N_("A motivation has at most 300 characters."))
    _step(
        required_sheet(sheet, stored, "legendes"),
        as_json,
        lambda hero: scene.reached(hero, "keep" if keep else "raise", raise_to),
    )


def scene_end(sheet: SheetArg = None, stored: CharacterArg = None, as_json: Json = False) -> None:
    """End the scene: the light wound heals, helpers may help again (L-11, L-13)."""
    from meneur.systems.legendes import scene

    _step(required_sheet(sheet, stored, "legendes"), as_json, scene.end)


def scene_show(sheet: SheetArg = None, stored: CharacterArg = None, as_json: Json = False) -> None:
    """Show the hero and the scene in progress."""
    from meneur.cli.output import emit
    from meneur.systems.legendes.render import render_hero
    from meneur.systems.legendes.sheet import load_hero

    data = load_hero(required_sheet(sheet, stored, "legendes")).model_dump(mode="json")
    emit(data, lambda console: render_hero(console, data), as_json=as_json)


def register(groups: CommandGroups) -> None:
    groups.group("test").command(
        "legendes", help=_("Légendes: an opposed roll, domain dice against a level.")
    )(test_command)
    groups.group("odds").command("legendes", help=_("Légendes: exact odds of every outcome band."))(
        odds_command
    )
    groups.group("aid").command(
        "legendes", help=_("Légendes: one character helps another (L-11).")
    )(aid_command)
    scene_app = typer.Typer(
        help=_("Légendes: play a scene with a hero sheet, step by step."), no_args_is_help=True
    )
    for name, function, text in (
        ("start", scene_start, N_("Begin a scene.")),
        ("add", scene_add, N_("Add an opposition (level, group, crowd) or a character.")),
        ("roll", scene_roll, N_("The hero rolls against oppositions of the scene.")),
        ("aid", scene_aid, N_("A helper helps the hero (once per scene).")),
        ("wound", scene_wound, N_("The hero takes a wound.")),
        ("heal", scene_heal, N_("Treat the cause of a grave wound.")),
        ("progress", scene_progress, N_("Significant progress toward the motivation: +1 point.")),
        ("reached", scene_reached, N_("The motivation is reached: keep or raise it.")),
        ("end", scene_end, N_("End the scene.")),
        ("show", scene_show, N_("Show the hero and the scene.")),
    ):
        scene_app.command(name, help=_(text))(function)
    groups.group("scene").add_typer(scene_app, name="legendes")
    from meneur.cli.newcharacter import from_file

    groups.group("character", "new").command(
        "legendes", help=_("Légendes: store a character from its sheet file.")
    )(from_file("legendes"))
