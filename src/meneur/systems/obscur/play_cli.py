"""The Obscur commands of play (issue 5): fight, survive, hurt, heal, rest, march.

Sheets are read and checked first (gear, state, options); dice are rolled through
:mod:`meneur.systems.obscur.procedures`; a sheet is written last, atomically, and
only when asked (``--save`` for a fight or a journey; ``hurt``/``heal``/``rest``/``march``
write unless ``--dry-run``). Any error before that leaves every file untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meneur.cli.params import (
    CharacterArg,
    FacesArg,
    Json,
    Seed,
    VsFacesArg,
    character_option,
    int_parser,
    meneur_parser,
    refuse_own_sheet,
    required_sheet,
)
from meneur.errors import RuleError, UsageError
from meneur.locale import N_, labelled, ngettext
from meneur.locale import gettext as _
from meneur.systems.base import CommandGroups
from meneur.text import is_digits

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from meneur.systems.obscur.sheet import Character
    from meneur.systems.obscur.state import Body

PROVISIONAL = N_("table provisoire")


def _strategy(text: str) -> str:
    from meneur.systems.obscur.combat import check_strategy

    return check_strategy(text)


def _side(text: str) -> str:
    from meneur.text import fold

    value = fold(text)
    if value not in {"a", "b", "both"}:
        raise UsageError(N_("Give a, b or both (not '{value}')."), value=str(text))
    return value


@dataclass(frozen=True, slots=True)
class Poison:
    """``--poison 6,2`` (a class so that Typer reads one text value)."""

    virulence: int
    dispersion: int


def _pair(text: str) -> Poison:
    parts = str(text).replace(" ", "").split(",")
    if len(parts) != 2 or not all(is_digits(p) and len(p) <= 3 for p in parts):
        raise UsageError(
            N_("Give VIRULENCE,DISPERSION as two whole numbers, such as 6,2 (not '{value}')."),
            value=str(text),
        )
    return Poison(int(parts[0]), int(parts[1]))


SheetA = Annotated[
    Path | None,
    typer.Option("--a", metavar="SHEET", help=_("Fighter A's sheet (JSON or TOML).")),
]
SheetB = Annotated[
    Path | None,
    typer.Option("--b", metavar="SHEET", help=_("Fighter B's sheet (JSON or TOML).")),
]
StoredA = Annotated[str | None, character_option("--a-character")]
StoredB = Annotated[str | None, character_option("--b-character")]


def _strategy_option(flag: str) -> Any:
    return typer.Option(
        flag,
        parser=meneur_parser(_strategy),
        metavar="NAME",
        help=_(
            "How the PA is split: equilibree, offensive, defensive, totale, prudente, attaque=N."
        ),
    )


def _int_option(flag: str, low: int, high: int, metavar: str, help: str) -> Any:
    """A bounded whole-number option (the many int options differ by these alone)."""
    return typer.Option(flag, parser=int_parser(low, high), metavar=metavar, help=help)


def _parsed_option(flag: str, parse: Callable[[str], Any], metavar: str, help: str) -> Any:
    """An option read by one of meneur's parsers (one translated line for bad input)."""
    return typer.Option(flag, parser=meneur_parser(parse), metavar=metavar, help=help)


def _side_option(flag: str, help: str) -> Any:
    """Which fighter an option of the fight is about: a, b or both."""
    return _parsed_option(flag, _side, "a|b|both", help)


def _name_option(flag: str, help: str) -> Any:
    """A text option naming something (a coup spécial...)."""
    return typer.Option(flag, metavar="NAME", help=help)


SheetOpt = Annotated[
    Path | None, typer.Option("--sheet", metavar="FILE", help=_("An Obscur character sheet."))
]
DryRun = Annotated[
    bool, typer.Option("--dry-run", help=_("Show the result without writing the sheet."))
]
Save = Annotated[
    bool, typer.Option("--save", help=_("Write the new state back to the sheet files."))
]


def _load(path: Path) -> tuple[Character, Body]:
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    character = load_character(path)
    return character, body_of(character)


def _vie_text(body: dict[str, Any]) -> str:
    status = {"ok": "", "coma": " — " + _("coma"), "dead": " — " + _("dead")}[body["status"]]
    return _("Vie {vie}/{max}").format(vie=body["vie"], max=body["vie_max"]) + status


def _test_line(console: Console, label: str, test: dict[str, Any]) -> None:
    from meneur.systems.obscur.render import dice_text

    line = dice_text(test["faces"])
    won = ngettext("{n} success", "{n} successes", test["successes"])
    line.append(" → " + won.format(n=test["successes"]), style="bold")
    if test["difficulty"]:
        verdict = _("Réussite") if test["passed"] else _("Échec")
        line.append(
            "  " + _("difficulty {d}: {verdict}").format(d=test["difficulty"], verdict=verdict)
        )
    if test["fumble"]:
        line.append("  " + _("Maladresse!"), style="bold red")
    dice = test["dice"]
    if test.get("pool", {}).get("maluses"):  # O-29: where the dice went
        from meneur.systems.obscur.render import pool_text

        dice = pool_text(test["pool"])
    console.print("  " + labelled(f"{label} ({dice})").rstrip(), line)


# --- fight ------------------------------------------------------------------------------


def fight_rounds(text: str) -> int:
    """A fight's round limit, up to the rules' one bound (``combat.MAX_ROUNDS``), in play
    and in the lab alike (the lab took 1,000 where play took 200); read when parsed."""
    from meneur.cli.params import parse_int
    from meneur.systems.obscur.combat import MAX_ROUNDS

    return parse_int(text, low=1, high=MAX_ROUNDS)


def fight_command(
    a: SheetA = None,
    b: SheetB = None,
    stored_a: StoredA = None,
    stored_b: StoredB = None,
    strategy_a: Annotated[str | None, _strategy_option("--strategy-a")] = None,
    strategy_b: Annotated[str | None, _strategy_option("--strategy-b")] = None,
    impress: Annotated[
        str | None,
        _side_option("--impress", _("Who tries to impress the other before the fight (O-20).")),
    ] = None,
    sheathed: Annotated[
        str | None,
        _side_option("--sheathed", _("Who must draw their weapon while fighting (O-18).")),
    ] = None,
    special_a: Annotated[
        str | None,
        _name_option(
            "--special-a",
            _("A's coup spécial, tried with every attack (O-22, table provisoire)."),
        ),
    ] = None,
    special_b: Annotated[
        str | None,
        _name_option(
            "--special-b",
            _("B's coup spécial, tried with every attack (O-22, table provisoire)."),
        ),
    ] = None,
    opponents_a: Annotated[
        int,
        _int_option(
            "--opponents-a",
            1,
            10,
            "N",
            _("Opponents A faces (O-17: -3 dice each beyond the first)."),
        ),
    ] = 1,
    opponents_b: Annotated[
        int,
        _int_option(
            "--opponents-b",
            1,
            10,
            "N",
            _("Opponents B faces (O-17: -3 dice each beyond the first)."),
        ),
    ] = 1,
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", parser=fight_rounds, metavar="N", help=_("Stop after N rounds.")),
    ] = None,
    shoot: Annotated[
        bool,
        typer.Option(
            "--shoot", help=_("A shoots once at B with a ranged weapon (O-14, O-15, O-21).")
        ),
    ] = False,
    speed: Annotated[
        str, typer.Option("--speed", metavar="NAME", help=_("Shot: the target's speed (O-14)."))
    ] = "immobile",
    cover: Annotated[
        str, typer.Option("--cover", metavar="NAME", help=_("Shot: the target's cover (O-14)."))
    ] = "aucune",
    distance: Annotated[
        str,
        typer.Option("--distance", metavar="NAME", help=_("Shot: the distance (O-14).")),
    ] = "courte",
    aim: Annotated[
        int,
        typer.Option(
            "--aim",
            parser=meneur_parser(_aim),
            metavar="ROUNDS",
            help=_("Shot: rounds spent aiming, +1 die each (O-21)."),
        ),
    ] = 0,
    gardien_only: Annotated[
        bool,
        typer.Option(
            "--gardien-only",
            help=_("Shot: roll only Gardien du feu; the unrolled dice add to the damage (O-21)."),
        ),
    ] = False,
    dodge: Annotated[
        bool,
        typer.Option(
            "--dodge", help=_("Shot: B is an active target and dodges (Hargne + Esquive, O-15).")
        ),
    ] = False,
    save: Save = False,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """A melee to the end (O-11..O-22): RA, split, dice, MR, damage, shock, state; or,
    with --shoot, one shot from A at B (O-14, O-15, O-21)."""
    a = required_sheet(a, stored_a, "obscur", "--a/--a-character")
    b = required_sheet(b, stored_b, "obscur", "--b/--b-character")
    save = save or stored_a is not None or stored_b is not None  # stored: always kept
    melee = {
        "--strategy-a": strategy_a is not None,
        "--strategy-b": strategy_b is not None,
        "--impress": impress is not None,
        "--sheathed": sheathed is not None,
        "--special-a": special_a is not None,
        "--special-b": special_b is not None,
        "--opponents-a": opponents_a != 1,
        "--opponents-b": opponents_b != 1,
        "--rounds": rounds is not None,
    }
    ranged = {
        "--speed": speed != "immobile",
        "--cover": cover != "aucune",
        "--distance": distance != "courte",
        "--aim": aim != 0,
        "--gardien-only": gardien_only,
        "--dodge": dodge,
    }
    _one_kind_of_fight(shoot, melee, ranged)
    if shoot:
        shot = ShotOptions(speed, cover, distance, aim, gardien_only, dodge)
        _shoot(a, b, shot, save, faces, vs_faces, seed, as_json)
        return
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.obscur.combat import (
        FightParams,
        combat_data,
        fighter_of,
        final_bodies,
    )
    from meneur.systems.obscur.gear import armoury
    from meneur.systems.obscur.health import health_tables
    from meneur.systems.obscur.procedures import ObscurFight
    from meneur.systems.obscur.state import save_bodies

    char_a, body_a = _load(a)
    char_b, body_b = _load(b)
    if save:
        refuse_own_sheet(a, b)
    both = {"a", "b"} if sheathed == "both" else {sheathed} if sheathed else set()
    params = FightParams(
        fighter_of(
            char_a,
            strategy=strategy_a,
            sheathed="a" in both,
            special=special_a,
            opponents=opponents_a,
        ),
        fighter_of(
            char_b,
            strategy=strategy_b,
            sheathed="b" in both,
            special=special_b,
            opponents=opponents_b,
        ),
        body_a,
        body_b,
        impress=("a", "b") if impress == "both" else ((impress,) if impress else ()),  # type: ignore[arg-type]
        max_rounds=rounds,
    )
    fought = ObscurFight().roll(params, dice_sources(seed, faces, vs_faces))
    outcome, rolled = fought.outcome, fought.faces
    provisional = armoury().provisional or health_tables().provisional
    data: dict[str, Any] = {
        "system": "obscur",
        "fighters": {
            "a": {"name": params.a.name, "sheet": str(a), "strategy": params.a.strategy},
            "b": {"name": params.b.name, "sheet": str(b), "strategy": params.b.strategy},
        },
        **ObscurFight().printed_json(params, outcome),
        "faces": {"a": list(rolled[0]), "b": list(rolled[1])},
        "provisional_tables": provisional,
        "max_rounds": rounds or combat_data().variants.max_rounds,
        "saved": save,
    }
    if save:
        new_a, new_b = final_bodies(params, outcome)
        save_bodies([(char_a, new_a), (char_b, new_b)])
    names = {"a": params.a.name, "b": params.b.name}
    emit(data, lambda console: render_fight(console, data, names), as_json=as_json)


def _aim(text: str) -> int:
    """``--aim``: bounded by the shot's own params (the web refuses the same values)."""
    from meneur.cli.params import parse_int
    from meneur.systems.obscur.combat import MAX_AIM

    return parse_int(text, low=-MAX_AIM * 100, high=MAX_AIM * 100)


@dataclass(frozen=True, slots=True)
class ShotOptions:
    """The options of a shot as the command line gave them (checked by RangedParams)."""

    speed: str
    cover: str
    distance: str
    aim: int
    gardien_only: bool
    dodge: bool


def _one_kind_of_fight(shoot: bool, melee: dict[str, bool], ranged: dict[str, bool]) -> None:
    """Refuse an option the chosen kind of fight does not read: a shot ignored
    ``--rounds`` and the strategies, a melee the shot's speed, cover and aim, silently."""
    unread = [flag for flag, given in (melee if shoot else ranged).items() if given]
    if unread and shoot:
        raise UsageError(
            N_("{flag} is for a melee; one shot (--shoot) does not read it."), flag=unread[0]
        )
    if unread:
        raise UsageError(N_("{flag} is for a shot: add --shoot, or leave it out."), flag=unread[0])


def _shoot(
    a: Path,
    b: Path,
    options: ShotOptions,
    save: bool,
    faces: Any,
    vs_faces: Any,
    seed: int | None,
    as_json: bool,
) -> None:
    """One shot from A at B (O-14, O-15, O-21): the shooter on stream 0, the target's
    dodge and shock on stream 1; B's new state written with --save."""
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.obscur.combat import combat_data, dice_of, shot_of
    from meneur.systems.obscur.procedures import ObscurShot, ShotParams
    from meneur.systems.obscur.state import require_standing, save_bodies

    shooter, shooter_body = _load(a)
    target, target_body = _load(b)
    if a.resolve() == b.resolve():
        raise UsageError(N_("A shooter cannot shoot at their own sheet."))
    require_standing(shooter, shooter_body)
    params = shot_of(
        shooter,
        target,
        speed=options.speed,
        cover=options.cover,
        distance=options.distance,
        aim_rounds=options.aim,
        gardien_only=options.gardien_only,
        dodge=options.dodge,
    )
    shot = ObscurShot().roll(
        ShotParams(params, target_body, dice_of(target, "Choc")),
        dice_sources(seed, faces, vs_faces),
    )
    result, after, rolled = shot.outcome.result, shot.outcome.target, shot.faces
    if save:
        saved = [(target, after)]
        if result["fumble"]:  # O-3: the shooter's Maladresse earns Vécu
            from meneur.systems.obscur.tables import rule_tables

            shooter_body.vecu += rule_tables().experience.fumble_reward
            saved.insert(0, (shooter, shooter_body))
        save_bodies(saved)
    data: dict[str, Any] = {
        "system": "obscur",
        "shooter": {"name": shooter_body.name, "sheet": str(a), "weapon": params.weapon.name},
        "target": {"name": target_body.name, "sheet": str(b)},
        "shot": result,
        "faces": {"a": list(rolled[0]), "b": list(rolled[1])},
        "provisional_tables": combat_data().ranged.provisional,
        "saved": save,
    }
    emit(data, lambda console: render_shot(console, data), as_json=as_json)


def render_shot(console: Console, data: dict[str, Any]) -> None:
    shot = data["shot"]
    console.print(
        _("{shooter} shoots at {target} ({weapon})").format(
            shooter=data["shooter"]["name"],
            target=data["target"]["name"],
            weapon=data["shooter"]["weapon"],
        ),
        style="bold",
    )
    console.print(
        "  "
        + _("Speed, cover, distance: -{malus} dice; aim: +{aim} dice").format(
            malus=shot["malus"], aim=shot["aim_dice"]
        )
        + (f" ({_(PROVISIONAL)})" if data["provisional_tables"] else ""),
        style="dim",
    )
    if "dodge" in shot:
        _test_line(console, data["target"]["name"] + " — " + _("Esquive"), shot["dodge"])
    _test_line(console, data["shooter"]["name"] + " — " + _("Tir"), shot["attack"])
    if not shot["hit"]:
        console.print("  " + _("Missed."), style="bold")
    else:
        line = _("Hit: {damage} damage").format(damage=shot["damage"])
        if "zone" in shot:
            line += " " + _("({zone}, protection {p})").format(
                zone=shot["zone"], p=shot["protection"]
            )
        if shot.get("aimed_bonus"):
            line += " " + _("(+{n} aimed dice)").format(n=shot["aimed_bonus"])
        console.print("  " + line, style="bold green")
    if "shock" in shot:
        if "test" in shot["shock"]:
            _test_line(console, _("Résistance + Choc"), shot["shock"]["test"])
        malus = shot["shock"]["malus"]
        console.print(
            "  "
            + ngettext("shock malus: -{n} die", "shock malus: -{n} dice", malus).format(n=malus)
        )
    line = labelled(data["target"]["name"], _vie_text(shot["target"]))
    if shot.get("target_fumbles"):
        line += "  " + _("+{n} Vécu (Maladresse).").format(n=shot["target_fumbles"])
    console.print(line, style="cyan")
    if shot["fumble"]:
        console.print(
            data["shooter"]["name"] + " : " + _("+{n} Vécu (Maladresse).").format(n=1),
            style="yellow",
        )
    if data["saved"]:
        console.print(_("State written to the sheets."), style="yellow")


def render_fight(console: Console, data: dict[str, Any], names: dict[str, str]) -> None:
    console.print(_("Fight: {a} against {b}").format(a=names["a"], b=names["b"]), style="bold")
    if data["provisional_tables"]:
        console.print(
            _("Hit zones, gear, shock and pain: {note}.").format(note=_(PROVISIONAL)), style="dim"
        )
    for step in data["opening"]:
        _test_line(console, names[step["fighter"]] + " " + _("impresses"), step["test"])
        if step["malus"]:
            other = "b" if step["fighter"] == "a" else "a"
            console.print(
                "  "
                + _("{name}: -{n} dice for the whole fight.").format(
                    name=names[other], n=step["malus"]
                )
            )
    status = {"coma": _("coma"), "dead": _("dead")}
    for record in data["rounds"]:
        first = record["initiator"]
        head = _("Round {n}").format(n=record["round"])
        ra = _("RA {a} against {b}").format(a=record["a"]["ra"], b=record["b"]["ra"])
        who = names[first] if first else _("simultaneous")
        console.rule(_("{head} — initiator: {who} ({ra})").format(head=head, who=who, ra=ra))
        for key in ("a", "b"):
            prep = record[key]
            if "draw" in prep:
                _test_line(console, names[key] + " " + _("draws"), prep["draw"])
            parts = ", ".join(
                _("{weapon}: PA {pa} = Attaque {attack} + Parade {parade}").format(**s)
                for s in prep["split"]
            )
            malus = "  " + _("(malus -{n})").format(n=prep["malus"]) if prep["malus"] else ""
            console.print(labelled(names[key], f"{parts}{malus}"))
        if "disengage" in record:
            step = record["disengage"]
            _test_line(console, names[step["fighter"]] + " " + _("disengages"), step["agility"])
            if step["broken"]:
                console.print(
                    "  "
                    + _("RA {ra} above {other}: combat broken.").format(
                        ra=step["ra"], other=step["attacker_ra"]
                    ),
                    style="bold",
                )
        for strike in record["strikes"]:
            attacker = names[strike["attacker"]]
            if "special" in strike:
                console.print(
                    "  "
                    + _("Coup spécial {name}: -{cost} dice of Attaque.").format(
                        name=strike["special"]["name"], cost=strike["special"]["cost"]
                    )
                )
            _test_line(
                console,
                _("{name} — Attaque ({weapon})").format(name=attacker, weapon=strike["weapon"]),
                strike["attack"],
            )
            if "parade" in strike:
                p = strike["parade"]
                label = _("Parade {dice} + Défense {defense} + bouclier {shield}").format(
                    dice=p["parade_dice"], defense=p["defense"], shield=p["shield"]
                )
                _test_line(console, label, p)
            if "dodge" in strike:
                _test_line(console, _("Esquive"), strike["dodge"])
            if not strike["hit"]:
                console.print("  " + _("Parried or dodged."), style="dim")
                continue
            text = _(
                "Hit ({zone}): MR {mr} + Hargne {hargne} + arme {weapon} − armure {armour}"
                " − Résistance {res} = {damage} damage"
            ).format(
                zone=strike["zone"],
                mr=strike["margin"],
                hargne=strike.get("hargne_bonus", 0),
                weapon=strike.get("weapon_damage", 0),
                armour=strike["protection"],
                res=strike.get("resistance", 0),
                damage=strike["damage"],
            )
            console.print("  " + text, style="bold red" if strike["damage"] else "bold")
            if strike.get("disarmed"):
                console.print("  " + _("Disarmed: must draw again (O-18)."), style="bold")
            if "shock" in strike:
                sh = strike["shock"]
                if "test" in sh:
                    _test_line(console, _("Résistance + Choc"), sh["test"])
                console.print(
                    "  "
                    + _(
                        "Shock: -{base} dice, -{n} after the test, for the rest of the round."
                    ).format(base=sh["base_malus"], n=sh["malus"])
                )
        state = record["state"]
        console.print(
            "  ".join(
                _("{name}: Vie {vie}").format(name=names[k], vie=state[k]["vie"])
                + (" " + _("(pain -{n})").format(n=state[k]["pain"]) if state[k]["pain"] else "")
                + (" — " + status[state[k]["status"]] if state[k]["status"] != "ok" else "")
                for k in ("a", "b")
            ),
            style="cyan",
        )
    out = data["outcome"]
    ends = {
        "coma": _("coma"),
        "dead": _("death"),
        "disengaged": _("disengaged"),
        "rounds": _("round limit"),
    }
    if out["winner"]:
        line = ngettext(
            "{winner} wins ({end}) after {n} round.",
            "{winner} wins ({end}) after {n} rounds.",
            out["rounds"],
        ).format(winner=names[out["winner"]], end=ends[out["end"]], n=out["rounds"])
    else:
        line = ngettext(
            "No winner ({end}) after {n} round.",
            "No winner ({end}) after {n} rounds.",
            out["rounds"],
        ).format(end=ends[out["end"]], n=out["rounds"])
    console.print(line, style="bold green")
    for key in ("a", "b"):
        line = labelled(names[key], _vie_text(out[key]))
        if out[key].get("fumbles"):
            line += "  " + _("+{n} Vécu (Maladresse).").format(n=out[key]["fumbles"])
        console.print(line)
    if data["saved"]:
        console.print(_("State written to the sheets."), style="yellow")


# --- survival ---------------------------------------------------------------------------


def _at_zero(text: str) -> str:
    from meneur.text import fold

    value = fold(text)
    if value in {"roll", "intemperie", "de"}:
        return "roll"
    if value in {"dependant", "dependent"}:
        return "dependant"
    raise UsageError(N_("Give roll or dependant (not '{value}')."), value=str(text))


def survive_command(
    milieu: Annotated[
        str | None,
        typer.Option("--milieu", metavar="NAME", help=_("A Milieu of the data (O-35).")),
    ] = None,
    milieu_file: Annotated[
        Path | None,
        typer.Option(
            "--milieu-file", metavar="FILE", help=_("A Milieu of your own (TOML or JSON).")
        ),
    ] = None,
    party: Annotated[
        list[Path] | None,
        typer.Option("--party", metavar="SHEET", help=_("A member's sheet (repeat the option).")),
    ] = None,
    party_stored: Annotated[
        list[str] | None,
        typer.Option(
            "--party-character",
            metavar="NAME",
            help=_("A member stored in the campaign (repeat the option); always saved."),
        ),
    ] = None,
    days: Annotated[int, _int_option("--days", 1, 60, "N", _("Days."))] = 1,
    at_zero: Annotated[
        str,
        _parsed_option(
            "--at-zero",
            _at_zero,
            "roll|dependant",
            _("At PS 0: roll an Intempérie of one die, or become Dépendant."),
        ),
    ] = "roll",
    save: Save = False,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """The party's days in a Milieu (O-35..O-39): PS, Intempéries, Dépendance, aid.

    Physical dice (--faces): typed in the order they are rolled, each member's in turn."""
    from meneur.cli.params import stored

    members = [stored(name, "obscur") for name in party_stored or []]
    save = save or bool(members)  # stored: always kept
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.files import read_sheet
    from meneur.systems.obscur.procedures import JourneyParams, ObscurJourney
    from meneur.systems.obscur.state import require_standing, save_bodies
    from meneur.systems.obscur.survival import (
        MAX_PARTY,
        DayParams,
        hostility,
        milieu_from,
        milieu_named,
        milieux,
        traveller_of,
    )

    if (milieu is None) == (milieu_file is None):
        raise UsageError(N_("Give --milieu NAME or --milieu-file FILE (one of them)."))
    if milieu_file is not None:
        raw = read_sheet(milieu_file)
        name = str(raw.pop("name", milieu_file.stem))
        where = milieu_from(raw, str(milieu_file))
        provisional = False
    else:
        name, where = milieu_named(milieu or "")
        provisional = milieux().provisional
    paths = [*(party or []), *members]
    if not 1 <= len(paths) <= MAX_PARTY:
        raise RuleError(
            N_("A party has 1 to {most} members, not {count}."), most=MAX_PARTY, count=len(paths)
        )
    if len({p.resolve() for p in paths}) != len(paths):
        raise UsageError(N_("The same sheet is given twice in the party."))
    loaded = [_load(p) for p in paths]
    for character, body in loaded:
        require_standing(character, body)
    params = DayParams(
        name,
        where,
        tuple(traveller_of(c, "roll" if at_zero == "roll" else "dependant") for c, _b in loaded),
    )

    went = ObscurJourney().roll(
        JourneyParams(params, tuple(b for _c, b in loaded), days), dice_sources(seed, faces)
    )
    journey, bodies, rolled = went.outcome.days, went.outcome.bodies, went.faces
    data: dict[str, Any] = {
        "system": "obscur",
        "milieu": {"name": name, **where.model_dump(), "provisional": provisional},
        "party": [
            {
                "name": t.name,
                "sheet": str(p),
                "marcheur_milieu": t.pool.dice,
                "hostility": hostility(where, t.gear),
            }
            for t, p in zip(params.party, paths, strict=True)
        ],
        "days": journey,
        "final": [b.to_json() for b in bodies],
        "faces": [list(f) for f in rolled],
        "saved": save,
    }
    if save:
        save_bodies([(c, body) for (c, _b), body in zip(loaded, bodies, strict=True)])
    emit(data, lambda console: render_journey(console, data), as_json=as_json)


def render_journey(console: Console, data: dict[str, Any]) -> None:
    from meneur.systems.obscur.survival import THREAT_LABELS

    m = data["milieu"]
    factors = ", ".join(f"{THREAT_LABELS[k]} {m[k]}" for k in THREAT_LABELS)
    note = f" ({_(PROVISIONAL)})" if m["provisional"] else ""
    console.print(
        _("Milieu {name}: {factors}").format(name=m["name"], factors=factors) + note, style="bold"
    )
    for member in data["party"]:
        console.print(
            _("{name}: Marcheur + Milieu {pa}, Hostilité {h}").format(
                name=member["name"], pa=member["marcheur_milieu"], h=member["hostility"]
            )
        )
    results = {
        "fine": _("copes"),
        "dependant": _("Dépendant"),
        "intemperie": _("Intempérie"),
        "dead": _("dead"),
    }
    for day in data["days"]:
        console.rule(_("Day {n}").format(n=day["day"]))
        for entry in day["members"]:
            head = labelled(entry["name"], f"PS {entry.get('ps', '-')}")
            if "test" in entry:
                _test_line(console, head, entry["test"])
                head = "  "
            line = f"{head} → {results[entry['result']]}"
            if "intemperie" in entry:
                line += " " + _("of {n}").format(n=entry["intemperie"])
            if "margin" in entry:
                line += "  " + _("MR {n}").format(n=entry["margin"])
            if entry.get("helps"):
                line += "  " + _("helps {names}").format(names=", ".join(entry["helps"]))
            if "helped_by" in entry:
                line += "  " + _("helped by {name}").format(name=entry["helped_by"])
            if "worsened" in entry:
                line += "  " + _("not helped: Intempérie ({source}) +1").format(
                    source=entry["worsened"]
                )
            if "contracted" in entry:
                line += "  " + _("not helped: an Intempérie of 1")
            line += "  " + _("(Vie {vie})").format(vie=entry.get("vie", "-"))
            console.print(line)
    if data["saved"]:
        console.print(_("State written to the sheets."), style="yellow")


# --- hurt, heal, rest, march ------------------------------------------------------------


def _pools(character: Character, *traits: str) -> tuple[tuple[str, Any], ...]:
    """The pools the care procedure reads, from the sheet (its params hold no path)."""
    from meneur.systems.obscur.combat import dice_of

    return tuple((trait, dice_of(character, trait)) for trait in traits)


def _apply(
    path: Path,
    action: Any,
    dry_run: bool,
    seed: int | None,
    faces: Any,
    as_json: bool,
    title: str,
    extra: dict[str, Any] | None = None,
    *,
    own_tests: bool = True,
) -> None:
    """Roll ``action(body, character)``'s care procedure on the sheet's state; save unless
    dry run."""
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.obscur.health import body_malus, health_tables
    from meneur.systems.obscur.procedures import ObscurCare
    from meneur.systems.obscur.state import save_body

    character, body = _load(path)
    before = body.to_json()
    cared = ObscurCare().roll(action(body, character), dice_sources(seed, faces))
    result, after, rolled = cared.outcome.result, cared.outcome.body, cared.faces
    fumbles = _fumbles(result) if own_tests else 0
    if fumbles:  # O-3: each Maladresse of the character earns Vécu (O-40)
        from meneur.systems.obscur.tables import rule_tables

        after.vecu += fumbles * rule_tables().experience.fumble_reward
    if not dry_run:
        save_body(character, after)
    data: dict[str, Any] = {
        "system": "obscur",
        "sheet": str(path),
        "name": after.name,
        "before": before,
        "result": result,
        "after": after.to_json() | {"malus": body_malus(after)},
        "faces": list(rolled[0]),
        "fumbles": fumbles,
        "provisional_tables": health_tables().provisional,
        "saved": not dry_run,
    } | (extra or {})
    emit(data, lambda console: render_step(console, data, title), as_json=as_json)


def _fumbles(value: Any) -> int:
    """Maladresses among the tests of a result (dicts with faces, successes, fumble)."""
    if isinstance(value, dict):
        if "fumble" in value and "faces" in value:
            return int(bool(value["fumble"]))
        return sum(_fumbles(v) for v in value.values())
    if isinstance(value, list):
        return sum(_fumbles(v) for v in value)
    return 0


def _walk(console: Console, value: Any, label: str = "") -> None:
    """Print every test found in a result, in order, then its numbers."""
    if isinstance(value, dict):
        if "faces" in value and "successes" in value and "test" in value:
            _test_line(console, value["test"], value)
            return
        for key, item in value.items():
            _walk(console, item, key)
    elif isinstance(value, list):
        for item in value:
            _walk(console, item, label)


def _shock_words(malus: int) -> str:
    return ngettext("shock malus: -{n} die", "shock malus: -{n} dice", malus).format(n=malus)


def _step_shocks(result: dict[str, Any]) -> list[tuple[str, int]]:
    """The shock of each round of fire or Période of poison that lost Vie (O-28): the
    step said (« Tour 2 : 4 PV perdus ») and its malus."""
    shocks = []
    for key, number, words in (
        ("rounds", "round", N_("Round {n}: {lost} HP lost")),
        ("periods", "period", N_("Période {n}: {lost} HP lost")),
    ):
        steps = result.get(key)
        for step in steps if isinstance(steps, list) else []:
            if "shock" in step:
                line = _(words).format(n=step[number], lost=step["lost"])
                shocks.append((line, step["shock"]["malus"]))
    return shocks


def render_step(console: Console, data: dict[str, Any], title: str) -> None:
    console.print(f"{data['name']} — {title}", style="bold")
    _walk(console, data["result"])
    result = data["result"]
    for step in result.get("minutes") if isinstance(result.get("minutes"), list) else []:
        if "round" in step:  # O-24: in a coma, the threshold lost each round
            console.print(
                "  "
                + _("Round {n}: coma for lack of air, {lost} HP lost").format(
                    n=step["round"], lost=step["lost"]
                )
            )
    shocks = _step_shocks(result)
    if len(shocks) > 1:  # O-28: each step's loss shocked in its own round
        for line, malus in shocks:
            console.print("  " + line + " · " + _shock_words(malus))
    numbers = []
    for key, label in (
        ("lost", _("HP lost")),
        ("healed", _("HP healed")),
        ("gained", _("HP regained")),
        ("minutes", _("minutes more")),
        ("metres", _("metres swum")),
        ("fatigue", _("fatigue malus")),
        ("surencombrement", _("Surencombrement")),
    ):
        if key in result and isinstance(result[key], int):
            numbers.append(labelled(label, str(result[key])))
    total = sum(
        step.get("lost", 0)
        for k in ("rounds", "periods", "minutes")
        for step in (result.get(k) if isinstance(result.get(k), list) else [])
    )
    if total:
        numbers.append(_("HP lost: {n}").format(n=total))
    shocked = result.get("shock") if isinstance(result.get("shock"), dict) else result
    if "malus" in shocked and "base_malus" in shocked:
        numbers.append(_shock_words(shocked["malus"]))
    elif len(shocks) == 1:  # one round: its shock beside its loss, as a blow's
        numbers.append(_shock_words(shocks[0][1]))
    if numbers:
        console.print("  " + " · ".join(numbers), style="bold")
    if result.get("house_rule"):
        console.print("  " + _("(house rule)"), style="dim")
    before, after = data["before"], data["after"]
    if before["volonte"] != after["volonte"]:
        console.print(
            _("Volonté {a} → {b}").format(a=before["volonte"], b=after["volonte"]), style="cyan"
        )
    if after["asphyxia_malus"]:
        console.print(
            _("Asphyxia malus: -{n} dice on the next test.").format(n=after["asphyxia_malus"])
        )
    console.print(
        f"{_vie_text(before)} → {_vie_text(after)}"
        + (
            "  " + _("malus -{n} dice on every roll").format(n=after["malus"])
            if after["malus"]
            else ""
        ),
        style="cyan",
    )
    if data["fumbles"]:
        console.print(
            _("+{n} Vécu (Maladresse).").format(n=after["vecu"] - before["vecu"]), style="yellow"
        )
    if data["provisional_tables"]:
        console.print("  " + _("Tables: {note}.").format(note=_(PROVISIONAL)), style="dim")
    if data["saved"]:
        console.print(_("Written to {path}.").format(path=data["sheet"]), style="yellow")
    else:
        console.print(_("Dry run: the sheet is unchanged."), style="dim")


def hurt_command(
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    fall: Annotated[
        int | None, _int_option("--fall", 0, 500, "METRES", _("A fall (O-23)."))
    ] = None,
    fire: Annotated[
        int | None, _int_option("--fire", 0, 50, "INTENSITY", _("Fire (O-26)."))
    ] = None,
    poison: Annotated[
        Poison | None,
        _parsed_option("--poison", _pair, "VIRULENCE,DISPERSION", _("Poison or disease (O-27).")),
    ] = None,
    asphyxia: Annotated[
        str | None,
        typer.Option("--asphyxia", metavar="LEVEL", help=_("Asphyxia (O-24), by table level.")),
    ] = None,
    drown: Annotated[
        str | None,
        typer.Option("--drown", metavar="LEVEL", help=_("Drowning (O-25), by table level.")),
    ] = None,
    blow: Annotated[
        int | None,
        _int_option("--blow", 0, 100, "DAMAGE", _("Damage of a blow, with shock (O-28).")),
    ] = None,
    aggravate: Annotated[
        int | None,
        _int_option("--aggravate", 1, 60, "DAYS", _("Untreated wounds worsen over days (O-30).")),
    ] = None,
    steps: Annotated[
        int | None,
        _int_option(
            "--steps",
            1,
            60,
            "N",
            _(
                "Rounds of fire, minutes of asphyxia or drowning (rounds once in a coma):"
                " 1 by default. Périodes of poison: by default until its Virulence is spent."
            ),
        ),
    ] = None,
    modifier: Annotated[
        int, _int_option("--modifier", -30, 30, "M", _("Dice added or removed."))
    ] = 0,
    armour: Annotated[int, _int_option("--armour", 0, 30, "P", _("Armour against fire."))] = 0,
    dry_run: DryRun = False,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Apply one source of damage to a sheet (O-23..O-30)."""
    sheet = required_sheet(sheet, stored, "obscur")
    from meneur.systems.obscur.procedures import CareParams

    given = [
        k
        for k, v in {
            "fall": fall,
            "fire": fire,
            "poison": poison,
            "asphyxia": asphyxia,
            "drown": drown,
            "blow": blow,
            "aggravate": aggravate,
        }.items()
        if v is not None
    ]
    if len(given) != 1:
        raise UsageError(
            N_(
                "Give exactly one of --fall, --fire, --poison, --asphyxia, --drown, --blow,"
                " --aggravate."
            )
        )
    kind = given[0]
    traits = {
        "fall": ("Acrobaties",),
        "fire": ("Résistance",),
        "poison": ("Résistance",),
        "asphyxia": ("Endurance",),
        "drown": ("Natation", "Endurance"),
    }.get(kind, ())
    amount = {"fall": fall, "fire": fire, "blow": blow, "aggravate": aggravate}.get(kind)

    def action(body: Body, character: Character) -> CareParams:
        return CareParams(
            kind,  # type: ignore[arg-type]
            body,
            _pools(character, *traits, "Choc"),
            amount=amount or 0,
            modifier=modifier if kind == "fall" else 0,
            armour=armour if kind == "fire" else 0,
            steps=steps,
            virulence=poison.virulence if poison else 0,
            dispersion=poison.dispersion if poison else 0,
            level=asphyxia or drown or "",
        )

    titles = {
        "fall": _("Fall of {n} m").format(n=fall),
        "fire": _("Fire of intensity {n}").format(n=fire),
        "poison": _("Poison").format(),
        "asphyxia": _("Asphyxia"),
        "drown": _("Drowning"),
        "blow": _("Blow of {n} damage").format(n=blow),
        "aggravate": _("Aggravation over {n} days").format(n=aggravate),
    }
    _apply(sheet, action, dry_run, seed, faces, as_json, titles[kind], {"kind": kind})


def heal_command(
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    healer: Annotated[
        Path | None,
        typer.Option(
            "--healer", metavar="FILE", help=_("Who treats or talks (default: the sheet).")
        ),
    ] = None,
    wound: Annotated[
        int | None, _int_option("--wound", 1, 100, "N", _("Which wound (default: the worst)."))
    ] = None,
    hang_on: Annotated[
        bool, typer.Option("--hang-on", help=_("S'accrocher à la vie: 6 Vécu (O-31)."))
    ] = False,
    morale: Annotated[
        bool, typer.Option("--morale", help=_("Regain morale: Fouineur + Éloquence (O-34)."))
    ] = False,
    catch_breath: Annotated[
        bool,
        typer.Option(
            "--catch-breath",
            help=_("Volonté 0: the few minutes have passed, 1 Volonté comes back (O-34)."),
        ),
    ] = False,
    dry_run: DryRun = False,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Treat a wound (O-32), hang on to life (O-31), lift morale or catch one's breath (O-34)."""
    sheet = required_sheet(sheet, stored, "obscur")
    from meneur.systems.obscur.conditions import refuse_exhausted
    from meneur.systems.obscur.procedures import CareParams
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    if hang_on + morale + catch_breath > 1:
        raise UsageError(N_("Give one of --hang-on, --morale, --catch-breath."))
    helper = load_character(healer) if healer is not None else None
    helper_body = body_of(helper) if helper is not None else None
    if helper_body is not None and not catch_breath:
        refuse_exhausted(helper_body)  # O-34: the healer makes the effort

    def action(body: Body, character: Character) -> CareParams:
        kind = (
            "catch_breath"
            if catch_breath
            else "hang_on"
            if hang_on
            else "morale"
            if morale
            else "treat"
        )
        if kind == "hang_on":
            pools = _pools(character, "Détermination")
        elif kind in ("morale", "treat"):
            pools = _pools(helper or character, "Éloquence" if morale else "Secourisme")
        else:
            pools = ()
        return CareParams(
            kind,  # type: ignore[arg-type]
            body,
            pools,
            wound=wound,
            helper=helper_body if kind in ("morale", "treat") else None,
        )

    title = (
        _("S'accrocher à la vie")
        if hang_on
        else _("Morale")
        if morale
        else _("Catching one's breath")
        if catch_breath
        else _("First aid")
    )
    _apply(
        sheet,
        action,
        dry_run,
        seed,
        faces,
        as_json,
        title,
        own_tests=healer is None or hang_on,
    )


def rest_command(
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    days: Annotated[int, _int_option("--days", 1, 365, "N", _("Days."))] = 6,
    no_rest: Annotated[
        bool,
        typer.Option(
            "--no-rest",
            help=_(
                "Recover without rest: a Résistance + Régénération test per 6 days, wounds only."
            ),
        ),
    ] = False,
    dry_run: DryRun = False,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Recovery (O-33): Résistance + Régénération HP every 6 days at rest (Intempéries
    too, O-32); without rest a test per 6-day period heals wounds only. A new day also
    clears the count of over-encumbrance tests (O-42) and Volonté 0 comes back to 1."""
    sheet = required_sheet(sheet, stored, "obscur")
    from meneur.systems.obscur.procedures import CareParams

    def action(body: Body, character: Character) -> CareParams:
        return CareParams(
            "rest", body, _pools(character, "Régénération"), amount=days, rest=not no_rest
        )

    _apply(sheet, action, dry_run, seed, faces, as_json, _("Recovery"))


def march_command(
    sheet: SheetOpt = None,
    stored: CharacterArg = None,
    hours: Annotated[int, _int_option("--hours", 1, 24, "H", _("Hours of march."))] = 8,
    dry_run: DryRun = False,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """A march with the sheet's load (O-42): Surencombrement and its tests."""
    sheet = required_sheet(sheet, stored, "obscur")
    from meneur.systems.obscur.combat import dice_of
    from meneur.systems.obscur.encumbrance import MarchParams, load_of
    from meneur.systems.obscur.gear import equipment_of
    from meneur.systems.obscur.procedures import CareParams

    def action(body: Body, character: Character) -> CareParams:
        gear = equipment_of(character.sheet.equipment, str(character.path))
        kind, key = character.find("Résistance")
        params = MarchParams(
            load_of(list(gear.charge)),
            character.resource("encombrement").current,
            character.level(kind, key),
            dice_of(character, "Endurance"),
            hours,
        )
        return CareParams("march", body, march=params)

    _apply(sheet, action, dry_run, seed, faces, as_json, _("March of {n} h").format(n=hours))


def register(groups: CommandGroups) -> None:
    groups.group("fight").command("obscur", help=_("An Obscur melee to its end, round by round."))(
        fight_command
    )
    groups.group("survive").command(
        "obscur", help=_("An Obscur party's days in a Milieu (Potentiel de Survie).")
    )(survive_command)
    groups.group("hurt").command("obscur", help=_("Apply an Obscur source of damage to a sheet."))(
        hurt_command
    )
    groups.group("heal").command(
        "obscur", help=_("Obscur first aid, s'accrocher à la vie, morale.")
    )(heal_command)
    groups.group("rest").command("obscur", help=_("Obscur recovery with or without rest."))(
        rest_command
    )
    groups.group("march").command(
        "obscur", help=_("An Obscur march with the sheet's load (encumbrance).")
    )(march_command)
