"""``meneur simulate fight SYSTEM`` and ``meneur simulate test SYSTEM`` (numpy, chunked).

The fight takes the options of ``meneur fight tunnels`` (``--dice``, ``--endurance``,
``--vs-mr``, ``--explode``, ``--loss``) plus ``--runs``, ``--seed``, ``--plot``, ``--json``
and the rule variants of docs/rules.md (``--tie``, ``--sixes``...).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from meneur.cli.params import Json, Seed, int_parser
from meneur.errors import UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.tunnels.cli import Blessed, Cursed  # the same flags as meneur test tunnels
from meneur.text import fold

MAX_OPPOSITIONS = 10
"""Oppositions at once in a Légendes scene (L-10)."""
MAX_RUNS = 10**10
"""Runs are chunked (constant memory): 10^10 is hours, not a crash."""


def _count_option(flag: str, low: int, high: int, help: str) -> Any:
    """A bounded count shown as ``N`` (opponents, points, tests...)."""
    return typer.Option(flag, parser=int_parser(low, high), metavar="N", help=help)


SystemArg = Annotated[
    str,
    typer.Argument(metavar="SYSTEM", help=_("The system: tunnels, legendes or obscur (fights).")),
]
Runs = Annotated[int, _count_option("--runs", 1, MAX_RUNS, _("How many runs."))]
Plot = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help=_("Also draw the result in FILE (.png or .svg).")),
]
Modifier = Annotated[
    int,
    typer.Option(
        "--modifier", parser=int_parser(-2, 2), help=_("Légendes: the circumstance, -2, 0 or +2.")
    ),
]
Loss = Annotated[
    str,
    typer.Option(
        "--loss", metavar="margin|one", help=_("What the loser loses: the margin, or one point.")
    ),
]
FighterA = Annotated[
    Path | None, typer.Option("--a", metavar="SHEET", help=_("Obscur: fighter A's sheet."))
]
FighterB = Annotated[
    Path | None, typer.Option("--b", metavar="SHEET", help=_("Obscur: fighter B's sheet."))
]

# One declaration each for the options that one command takes with a plain default and
# another as "not given" (None: the value then comes from --variant, or is missing).
_EXPLODE = typer.Option(
    "--explode", metavar="POLICY", help=_("Explosion policy: never, always or needed.")
)
_SIXES = typer.Option(
    "--sixes", metavar="batch|all", help=_("Three 6s in one batch (T-7) or over all dice.")
)
_ENDURANCE = typer.Option(
    "--endurance", parser=int_parser(1, 10_000), help=_("The character's Endurance.")
)
Explode = Annotated[str, _EXPLODE]
ExplodeOrVariant = Annotated[str | None, _EXPLODE]
Sixes = Annotated[str, _SIXES]
SixesOrVariant = Annotated[str | None, _SIXES]
Endurance = Annotated[int, _ENDURANCE]
EnduranceOrNone = Annotated[int | None, _ENDURANCE]


def _choice(value: str, known: tuple[str, ...], what: str) -> str:
    if value not in known:
        raise UsageError(
            N_("{what}: unknown value '{value}'; choose among {known}."),
            what=what,
            value=value[:40],
            known=", ".join(known),
        )
    return value


def _tunnels_only(system: str) -> None:
    from meneur.lab.adapters import system_named

    found = system_named(system)
    if found.name != "tunnels":
        raise UsageError(
            N_("The simulator plays whole fights of {known} only, not {system} yet."),
            known="tunnels, legendes, obscur",
            system=found.title,
        )


def fight_command(
    system: SystemArg,
    dice: Annotated[
        int | None,
        typer.Option("--dice", parser=int_parser(1, 30), help=_("The character's Force (dice).")),
    ] = None,
    endurance: EnduranceOrNone = None,
    vs_mr: Annotated[
        int | None,
        typer.Option("--vs-mr", parser=int_parser(1, 30), help=_("The monster's Monster Rating.")),
    ] = None,
    vs_level: Annotated[
        str | None,
        typer.Option(
            "--vs-level",
            metavar="LEVEL",
            help=_(
                "Légendes: the opposition's level (commun, elite, heroique, legendaire); "
                "several at once: elite,elite (L-10)."
            ),
        ),
    ] = None,
    modifier: Modifier = 0,
    sheet_a: FighterA = None,
    sheet_b: FighterB = None,
    strategy_a: Annotated[
        str | None,
        typer.Option("--strategy-a", metavar="NAME", help=_("Obscur: how A splits the PA (O-12).")),
    ] = None,
    strategy_b: Annotated[
        str | None,
        typer.Option("--strategy-b", metavar="NAME", help=_("Obscur: how B splits the PA (O-12).")),
    ] = None,
    explode: Explode = "needed",
    vs_explode: Annotated[
        str | None,
        typer.Option(
            "--vs-explode", metavar="POLICY", help=_("The monster's policy (default: the same).")
        ),
    ] = None,
    loss: Loss = "margin",
    tie: Annotated[
        str,
        typer.Option(
            "--tie",
            metavar="none|reroll",
            help=_("A tied round: nobody wins it, or it is rolled again."),
        ),
    ] = "none",
    sixes: Sixes = "batch",
    blessed: Blessed = False,
    cursed: Cursed = False,
    impress: Annotated[
        str | None,
        typer.Option(
            "--impress",
            metavar="a|b|both",
            help=_("Obscur: who tries to impress the other before the fight (O-20)."),
        ),
    ] = None,
    sheathed: Annotated[
        str | None,
        typer.Option(
            "--sheathed",
            metavar="a|b|both",
            help=_("Obscur: who must draw their weapon while fighting (O-18)."),
        ),
    ] = None,
    special_a: Annotated[
        str | None,
        typer.Option("--special-a", metavar="NAME", help=_("Obscur: A's coup spécial (O-22).")),
    ] = None,
    special_b: Annotated[
        str | None,
        typer.Option("--special-b", metavar="NAME", help=_("Obscur: B's coup spécial (O-22).")),
    ] = None,
    opponents_a: Annotated[
        int, _count_option("--opponents-a", 1, 10, _("Obscur: opponents A faces (O-17)."))
    ] = 1,
    opponents_b: Annotated[
        int, _count_option("--opponents-b", 1, 10, _("Obscur: opponents B faces (O-17)."))
    ] = 1,
    with_dice: Annotated[
        str | None,
        typer.Option(
            "--with-dice",
            metavar="N,N",
            help=_("Légendes: the dice of each character fighting beside the hero (L-10)."),
        ),
    ] = None,
    each_other: Annotated[
        bool,
        typer.Option(
            "--each-other", help=_("Légendes: the oppositions also fight each other (L-10).")
        ),
    ] = False,
    partial: Annotated[
        str,
        typer.Option(
            "--partial",
            metavar="wound|doubt",
            help=_("Légendes: a victoire partielle wounds, or makes doubt (L-13)."),
        ),
    ] = "wound",
    max_rounds: Annotated[
        int | None,
        typer.Option(
            "--max-rounds",
            "--rounds",
            parser=int_parser(1, 1000),
            help=_("Stop a fight after this many rounds (default: 200; Obscur: its rule data)."),
        ),
    ] = None,
    runs: Runs = 100_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """Many whole fights, vectorised: win rate with its 95 % interval, rounds, survival."""
    from meneur.cli.output import console, print_json
    from meneur.lab.adapters import system_named
    from meneur.lab.plot import check_path

    found = system_named(system)
    if found.name == "legendes":
        scene = LegendesScene(with_dice, each_other, partial)
        _legendes_fight(
            dice, vs_level, modifier, max_rounds or 200, runs, seed, plot, as_json, scene
        )
        return
    if found.name == "obscur":
        options = ObscurOptions(
            (sheet_a, sheet_b),
            (strategy_a, strategy_b),
            impress,
            sheathed,
            (special_a, special_b),
            (opponents_a, opponents_b),
            max_rounds,
        )
        _obscur_fight(options, runs, seed, plot, as_json)
        return
    _tunnels_only(system)
    if dice is None or endurance is None:
        raise UsageError(N_("Missing the character: --dice and --endurance."))
    if vs_mr is None:
        raise UsageError(N_("Missing the opponent: --vs-mr."))
    policies = ("never", "always", "needed")
    _choice(explode, policies, "--explode")
    _choice(vs_explode or explode, policies, "--vs-explode")
    _choice(loss, ("margin", "one"), "--loss")
    _choice(tie, ("none", "reroll"), "--tie")
    _choice(sixes, ("batch", "all"), "--sixes")
    if plot is not None:
        check_path(plot)
    from meneur.lab.simulate import fight_report, run_chunks, tunnels_fights
    from meneur.systems.tunnels.combat import against_monster

    fight = against_monster(
        dice,
        endurance,
        vs_mr,
        blessed=blessed,
        cursed=cursed,
        explode=explode,
        vs_explode=vs_explode or explode,
        sixes=sixes,
        loss=loss,
        tie=tie,
        max_rounds=max_rounds or 200,
    )
    tally = run_chunks(
        runs,
        lambda rng, n: tunnels_fights(fight, rng, n),
        seed=seed,
        description=_("Fights"),
    )
    data = fight_report(fight, tally)
    if plot is not None:
        curves = {
            _("Character alive"): "dead_at",
            _("Character unhurt"): "wounded_at",
            _("Monster standing"): "won_at",
        }
        title = _(
            "Tunnels: Force {dice}, Endurance {endurance} against MR {mr} ({runs} fights)"
        ).format(dice=dice, endurance=endurance, mr=vs_mr, runs=tally.runs)
        _plot_fight(tally, curves, title, plot, data)
    if as_json:
        print_json(data)
        return
    from meneur.lab.render import decimal, percent

    out = console()
    out.print(
        _("[bold]{runs}[/] fights: Force {dice}, Endurance {endurance} against MR {mr}.").format(
            runs=tally.runs, dice=dice, endurance=endurance, mr=vs_mr
        )
    )
    _print_victory(out, data)
    out.print(
        _("Death: {rate}; wounded: {wounded}").format(
            rate=percent(data["death_rate"], 2), wounded=percent(data["wounded_rate"], 2)
        )
    )
    out.print(_("Rounds: {mean} on average").format(mean=decimal(data["rounds"]["mean"])))
    _print_ending(out, data, tally, plot)


def _print_ending(out: Any, data: dict[str, Any], tally: Any, plot: Path | None) -> None:
    """The lines every fight simulation ends with: cut fights, an interruption, the plot."""
    from meneur.lab.render import print_ending

    if data["unfinished"]:
        out.print(_("{count} fights stopped at the round limit.").format(count=data["unfinished"]))
    print_ending(out, tally.interrupted, plot)


def _plot_fight(
    tally: Any, curves: dict[str, str], title: str, plot: Path, data: dict[str, Any]
) -> None:
    """Draw a fight simulation in ``plot`` and name the file in ``data``.

    ``curves`` maps each curve's label to the histogram of the round its event happened
    (``dead_at``, ``wounded_at``, ``won_at``): each system's fight only differs in those,
    so the survival curves and the rounds histogram are built here once.
    """
    from meneur.lab.plot import plot_fight
    from meneur.lab.simulate import survival

    rounds = tally.histograms.get("rounds", {})
    last = max(rounds, default=0)
    survivals = {
        label: survival(tally.histograms.get(key, {}), tally.runs, last)
        for label, key in curves.items()
    }
    plot_fight(survivals, {k: v / tally.runs for k, v in rounds.items()}, plot, title)
    data["plot"] = str(plot)


def _print_victory(out: Any, data: dict[str, Any]) -> None:
    """The win rate and its 95 % interval, as the Tunnels and Légendes fights print it."""
    from meneur.lab.render import percent

    low, high = data["win_interval_95"]
    out.print(
        _("Victory: [bold green]{rate}[/] (95 % interval {low} to {high})").format(
            rate=percent(data["win_rate"], 2), low=percent(low, 2), high=percent(high, 2)
        )
    )


@dataclass(frozen=True)
class ObscurOptions:
    """The options of ``meneur fight obscur`` that ``meneur simulate fight obscur`` takes."""

    sheets: tuple[Path | None, Path | None]
    strategies: tuple[str | None, str | None]
    impress: str | None
    sheathed: str | None
    specials: tuple[str | None, str | None]
    opponents: tuple[int, int]
    rounds: int | None


def _sides(value: str | None, flag: str) -> set[str]:
    if value is None:
        return set()
    chosen = _choice(fold(value), ("a", "b", "both"), flag)
    return {"a", "b"} if chosen == "both" else {chosen}


def _obscur_fight(
    options: ObscurOptions,
    runs: int,
    seed: int | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Two sheets in melee (O-11..O-22): numpy duels, or the system's own fight for what
    they do not cover (several weapons, drawing, impressing, coups spéciaux)."""
    from meneur.cli.output import console, print_json
    from meneur.lab.plot import check_path

    sheets = options.sheets
    if sheets[0] is None or sheets[1] is None:
        raise UsageError(N_("Missing a fighter: --a SHEET and --b SHEET."))
    impress = _sides(options.impress, "--impress")
    sheathed = _sides(options.sheathed, "--sheathed")
    if plot is not None:
        check_path(plot)
    from meneur.systems.obscur.combat import MAX_ROUNDS, FightParams, fighter_of
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    chars = (load_character(sheets[0]), load_character(sheets[1]))
    fighters = [
        fighter_of(
            chars[i],
            strategy=options.strategies[i],
            sheathed=side in sheathed,
            special=options.specials[i],
            opponents=options.opponents[i],
        )
        for i, side in enumerate("ab")
    ]
    params = FightParams(
        fighters[0],
        fighters[1],
        body_of(chars[0]),
        body_of(chars[1]),
        impress=tuple(side for side in ("a", "b") if side in impress),
        max_rounds=None if options.rounds is None else min(options.rounds, MAX_ROUNDS),
    )
    from meneur.lab.obscur_duel import obscur_duel_tally, vectorisable
    from meneur.lab.simulate import duel_report, obscur_duels, run_chunks

    vectorised = vectorisable(params)
    tally = run_chunks(
        runs,
        (lambda rng, n: obscur_duel_tally(params, rng, n))
        if vectorised
        else (lambda rng, n: obscur_duels(params, rng, n)),
        seed=seed,
        chunk=1 << 16 if vectorised else 1000,
        description=_("Fights"),
    )
    names = (params.a.name, params.b.name)
    data = duel_report(names, (params.a.strategy, params.b.strategy), tally)
    data["vectorised"] = vectorised
    if plot is not None:
        curves = {
            _("{name} standing").format(name=names[0]): "dead_at",
            _("{name} standing").format(name=names[1]): "won_at",
        }
        title = _("Obscur: {a} against {b} ({runs} fights)").format(
            a=names[0], b=names[1], runs=tally.runs
        )
        _plot_fight(tally, curves, title, plot, data)
    if as_json:
        print_json(data)
        return
    from meneur.lab.render import decimal, percent

    out = console()
    low, high = data["win_interval_95"]
    out.print(
        _("[bold]{runs}[/] fights: {a} ({sa}) against {b} ({sb}).").format(
            runs=tally.runs,
            a=names[0],
            sa=params.a.strategy,
            b=names[1],
            sb=params.b.strategy,
        )
    )
    out.print(
        _("Victory of {name}: [bold green]{rate}[/] (95 % interval {low} to {high})").format(
            name=names[0],
            rate=percent(data["win_rate"], 2),
            low=percent(low, 2),
            high=percent(high, 2),
        )
    )
    out.print(_("Rounds: {mean} on average").format(mean=decimal(data["rounds"]["mean"])))
    _print_ending(out, data, tally, plot)


@dataclass(frozen=True, slots=True)
class LegendesScene:
    """The L-10/L-13 options of a Légendes fight, as typed (checked by the fight)."""

    with_dice: str | None = None
    each_other: bool = False
    partial: str = "wound"


def _legendes_fight(
    dice: int | None,
    vs_level: str | None,
    modifier: int,
    max_rounds: int,
    runs: int,
    seed: int | None,
    plot: Path | None,
    as_json: bool,
    options: LegendesScene,
) -> None:
    """A hero against one opposition, roll after roll, until someone is out (L-8, L-13, L-14).

    With allies, oppositions that fight each other or doubt instead of wounds, the
    scene's simulation plays every pair (L-10, L-13).
    """
    from meneur.cli.output import console, print_json
    from meneur.lab.grid import parse_int_list
    from meneur.lab.plot import check_path
    from meneur.systems.legendes.rules import check_circumstance, parse_level, parse_partial

    partial = parse_partial(options.partial)
    allies = tuple(  # one number per character: "2,2" is two characters of 2 dice
        value
        for part in (options.with_dice or "").split(",")[: MAX_OPPOSITIONS + 1]
        if part.strip()
        for value in parse_int_list(part, 0, 30, _("Dice"))
    )
    if len(allies) > MAX_OPPOSITIONS:
        raise UsageError(
            N_("A scene has at most {most} characters beside the hero (--with-dice)."),
            most=MAX_OPPOSITIONS,
        )
    if dice is None or vs_level is None:
        raise UsageError(N_("Missing the hero's dice (--dice) or the opposition (--vs-level)."))
    levels = tuple(parse_level(part) for part in vs_level.split(",") if part.strip())
    if not 1 <= len(levels) <= MAX_OPPOSITIONS:
        raise UsageError(
            N_("A scene has 1 to {most} oppositions (--vs-level elite,elite,...)."),
            most=MAX_OPPOSITIONS,
        )
    level = levels[0]
    check_circumstance(modifier)
    if plot is not None:
        check_path(plot)
    from meneur.lab.adapters.legendes import ADAPTER
    from meneur.lab.simulate import (
        LegendesConflict,
        conflict_report,
        legendes_conflicts,
        legendes_scene,
        run_chunks,
    )

    shown = ", ".join(ADAPTER.level_label(one) for one in levels)
    conflict = LegendesConflict(dice, level, modifier, None, max_rounds)
    if len(levels) == 1 and not allies and partial == "wound":

        def chunk(rng: Any, n: int) -> Any:
            return legendes_conflicts(conflict, rng, n)

    else:  # L-10: several oppositions at once, compared two by two with the hero

        def chunk(rng: Any, n: int) -> Any:
            return legendes_scene(
                dice, levels, rng, n, modifier=modifier, max_rolls=max_rounds, allies=allies,
                each_other=options.each_other, partial=partial,
            )  # fmt: skip

    tally = run_chunks(runs, chunk, seed=seed, description=_("Fights"))
    data = conflict_report(conflict, tally)
    data["fight"]["level"] = level if len(levels) == 1 else list(levels)
    data["fight"].update(allies=list(allies), each_other=options.each_other, partial=partial)
    if plot is not None:
        curves = {
            _("Hero standing"): "dead_at",
            _("Hero unhurt"): "wounded_at",
            _("Opposition standing"): "won_at",
        }
        title = _("Légendes: {dice} dice against {level} ({runs} conflicts)").format(
            dice=dice, level=shown, runs=tally.runs
        )
        _plot_fight(tally, curves, title, plot, data)
    if as_json:
        print_json(data)
        return
    from meneur.lab.render import decimal, percent

    out = console()
    out.print(
        _("[bold]{runs}[/] conflicts: {dice} dice against {level}.").format(
            runs=tally.runs, dice=dice, level=shown
        )
    )
    if allies:
        out.print(
            _("Beside the hero: characters of {dice} dice (L-10).").format(
                dice=", ".join(map(str, allies))
            )
        )
    if options.each_other:
        out.print(_("The oppositions also fight each other (L-10)."))
    if partial == "doubt":
        out.print(_("A victoire partielle makes the loser doubt, never wounds (L-13)."))
    _print_victory(out, data)
    out.print(
        _("Defeat: {rate}; wounded: {wounded}").format(
            rate=percent(data["defeat_rate"], 2), wounded=percent(data["wounded_rate"], 2)
        )
    )
    out.print(_("Rolls: {mean} on average").format(mean=decimal(data["rounds"]["mean"])))
    _print_ending(out, data, tally, plot)


def test_command(
    system: SystemArg,
    check: Annotated[
        str | None,
        typer.Option("--check", metavar="CHECK", help=_("Which roll: test (default) or oppose.")),
    ] = None,
    row: Annotated[
        str | None,
        typer.Option(
            "--row", metavar="R", help=_("The row of the table to simulate (as in meneur table).")
        ),
    ] = None,
    col: Annotated[
        str | None,
        typer.Option("--col", metavar="C", help=_("The column of the table to simulate.")),
    ] = None,
    panel: Annotated[
        str | None,
        typer.Option("--panel", metavar="P", help=_("The panel of the table to simulate.")),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            metavar="OPTION=VALUE",
            help=_("Rule options, such as explode=always,sixes=all."),
        ),
    ] = None,
    dice: Annotated[
        int | None,
        typer.Option("--dice", parser=int_parser(1, 30), help=_("Dice rolled (Tunnels).")),
    ] = None,
    threshold: Annotated[
        int | None,
        typer.Option(
            "--threshold", parser=int_parser(1, 1000), help=_("Successes needed (Tunnels).")
        ),
    ] = None,
    blessed: Blessed = False,
    cursed: Cursed = False,
    explode: ExplodeOrVariant = None,
    sixes: SixesOrVariant = None,
    chance: Annotated[
        int,
        _count_option(
            "--chance",
            0,
            20,
            _("Tunnels: Chance points spent automatically on a failed test (T-12)."),
        ),
    ] = 0,
    chance_all: Annotated[
        bool,
        typer.Option("--chance-all", help=_("T-12 option: one Chance rerolls every failed die.")),
    ] = False,
    runs: Runs = 1_000_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """Many rolls of one cell of ``meneur table``, vectorised, beside its exact odds."""
    from meneur.cli.output import console, print_json
    from meneur.lab.adapters import adapter_for, check_of, system_named
    from meneur.lab.plot import check_path

    found = system_named(system)
    adapter = adapter_for(found)
    chosen = adapter.parse_variant(variant or "")
    if found.name == "tunnels":  # the options of ``meneur test tunnels``
        if dice is not None:
            row = str(dice)
        if threshold is not None:
            col = str(threshold)
        if explode is not None:
            chosen["explode"] = _choice(explode, ("never", "always", "needed"), "--explode")
        if sixes is not None:
            chosen["sixes"] = _choice(sixes, ("batch", "all"), "--sixes")
        if panel is None:
            mode = (
                "blessed"
                if blessed and not cursed
                else "cursed"
                if cursed and not blessed
                else "normal"
            )
            panel = f"{mode}/{chosen.get('explode', 'needed')}"
    if row is None or col is None:
        raise UsageError(N_("Name the cell to simulate: --row and --col (as in meneur table)."))
    if plot is not None:
        check_path(plot)
    name = adapter.check_name(check)
    panels, rows, columns = adapter.named_axes(name, chosen, row, col, panel)
    at = (panels.values[0], rows.values[0], columns.values[0])
    from meneur.lab.simulate import cell_chunk, run_chunks

    params = adapter.params_at(name, chosen, *at)
    if chance and (found.name != "tunnels" or name != "test"):
        raise UsageError(N_("--chance is a Tunnels test's resource (T-12)."))
    if chance:
        from meneur.lab.simulate import tunnels_chance_chunk

        one = tunnels_chance_chunk(params, chance, chance_all)
    elif found.name == "tunnels" and name == "test":
        from meneur.lab.simulate import as_cell_chunk, tunnels_test_chunk

        one = as_cell_chunk(tunnels_test_chunk(params))
    else:
        vector = check_of(found.name, name).vectorised(params)
        if vector is None:
            raise UsageError(
                N_("No vectorised resolve for this roll yet (it is left to exact odds).")
            )
        one = cell_chunk(vector)
    tally = run_chunks(runs, one, seed=seed, description=_("Tests"))
    measures = adapter.measures(name)
    exact = adapter.cell(name, chosen, *at)
    p_exact = None if exact is None else exact[measures[0].name]
    rate = tally.rate("success")
    values = tally.histograms.get("values", {})
    data: dict[str, Any] = {
        "system": found.name,
        "check": name,
        "variant": chosen,
        "panel": panels.label_of(0),
        rows.name: rows.values[0],
        columns.name: columns.values[0],
        "measure": measures[0].name,
        "runs": tally.runs,
        "success_rate": rate["rate"],
        "success_interval_95": rate["interval_95"],
        "exact": None if p_exact is None else float(p_exact),
        "exact_fraction": None if p_exact is None else f"{p_exact.numerator}/{p_exact.denominator}",
        "values": {str(k): v / tally.runs for k, v in sorted(values.items())},
        "chance": chance,
        "chance_spent_mean": tally.counts.get("spent", 0) / tally.runs if chance else 0.0,
        "interrupted": tally.interrupted,
        "seconds": round(tally.seconds, 3),
    }
    if plot is not None:
        from meneur.lab.plot import plot_distribution

        plot_distribution(
            data["values"],
            plot,
            _("{system}: {runs} rolls of one cell").format(system=found.title, runs=tally.runs),
            _("Successes") if found.name in ("tunnels", "obscur") else _("Outcome"),
        )
        data["plot"] = str(plot)
    if as_json:
        print_json(data)
        return
    from meneur.lab.render import decimal, percent, print_ending

    out = console()
    low, high = rate["interval_95"]
    out.print(
        _("{runs} rolls: {measure} {rate} (95 % interval {low} to {high})").format(
            runs=tally.runs,
            measure=_(measures[0].label).lower(),
            rate=percent(rate["rate"], 2),
            low=percent(low, 2),
            high=percent(high, 2),
        )
    )
    if p_exact is not None:
        exact_label = (
            _("Exact odds without Chance: {p} ({fraction})")
            if chance
            else _("Exact odds: {p} ({fraction})")
        )
        out.print(exact_label.format(p=percent(p_exact, 2), fraction=data["exact_fraction"]))
    if chance:
        out.print(
            _("Chance spent: {mean} on average").format(mean=decimal(data["chance_spent_mean"]))
        )
    out.print(
        _("{rate} rolls per second").format(rate=f"{tally.runs / max(tally.seconds, 1e-9):,.0f}")
    )
    print_ending(out, tally.interrupted, None)  # (this command never named its plot file)


MAX_SWEEP_POINTS = 400
"""Points in one sweep at most (each is a whole simulation)."""


def sweep_command(
    system: SystemArg,
    dice: Annotated[
        str | None,
        typer.Option(
            "--dice",
            metavar="1..6",
            help=_("The character's Force (Tunnels) or the hero's dice (Légendes): a range."),
        ),
    ] = None,
    endurance: Endurance = 8,
    vs_mr: Annotated[
        str,
        typer.Option("--vs-mr", metavar="1..8", help=_("The monster's Monster Rating: a range.")),
    ] = "1..8",
    vs_level: Annotated[
        str | None,
        typer.Option(
            "--vs-level",
            metavar="L,L",
            help=_("Légendes: opposition levels (default: elite, heroique, legendaire)."),
        ),
    ] = None,
    sheet_a: FighterA = None,
    sheet_b: FighterB = None,
    strategies_a: Annotated[
        str | None,
        typer.Option(
            "--strategies-a", metavar="S,S", help=_("Obscur: A's strategies (default: all).")
        ),
    ] = None,
    strategies_b: Annotated[
        str | None,
        typer.Option(
            "--strategies-b", metavar="S,S", help=_("Obscur: B's strategies (default: all).")
        ),
    ] = None,
    check: Annotated[
        str | None,
        typer.Option(
            "--check",
            metavar="CHECK",
            help=_("Sweep the cells of a table instead of fights: which roll (test, oppose)."),
        ),
    ] = None,
    rows: Annotated[
        str | None,
        typer.Option("--rows", metavar="1..10", help=_("Table cells: the rows (as meneur table).")),
    ] = None,
    cols: Annotated[
        str | None,
        typer.Option(
            "--cols", metavar="1..10", help=_("Table cells: the columns (as meneur table).")
        ),
    ] = None,
    panel: Annotated[
        str | None,
        typer.Option("--panel", metavar="P", help=_("Table cells: the panel (as meneur table).")),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option("--variant", metavar="OPTION=VALUE", help=_("Table cells: rule options.")),
    ] = None,
    explode: Explode = "needed",
    loss: Loss = "margin",
    runs: Annotated[
        int, _count_option("--runs", 1, 10**9, _("Fights (or rolls) per point of the sweep."))
    ] = 100_000,
    seed: Seed = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help=_("A Dask scheduler (tcp://host:8786) to run the sweep on; default: local cores."),
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", parser=int_parser(1, 256), help=_("Local processes (default: the cores).")
        ),
    ] = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """A grid of simulations, each point on a worker: fights (Tunnels dice × MR, Légendes
    dice × level, Obscur strategy × strategy) or the cells of a table (every system)."""
    from meneur.cli.output import console, print_json
    from meneur.lab.adapters import system_named
    from meneur.lab.plot import check_path

    found = system_named(system)
    if plot is not None:
        check_path(plot)
    cells = found.name == "krasses" or any(v is not None for v in (check, rows, cols))
    if cells:
        row_axis, col_axis, points, title = _cell_points(found, check, rows, cols, panel, variant)
        title = _("{title} ({runs} rolls a point)").format(title=title, runs=runs)
    elif found.name == "tunnels":
        row_axis, col_axis, points = _tunnels_points(dice, endurance, vs_mr, explode, loss)
        title = _(
            "Tunnels: victory over Force × MR, Endurance {endurance} ({runs} fights a point)"
        ).format(endurance=endurance, runs=runs)
    elif found.name == "legendes":
        row_axis, col_axis, points = _legendes_points(dice, vs_level)
        title = _("Légendes: victory over dice × opposition ({runs} conflicts a point)").format(
            runs=runs
        )
    elif found.name == "obscur":
        row_axis, col_axis, points, names = _obscur_points(
            (sheet_a, sheet_b), strategies_a, strategies_b
        )
        title = _("Obscur: victory of {a} over strategies ({runs} fights a point)").format(
            a=names[0], runs=runs
        )
    else:  # a system that offers no fight sweep says so, never plays another's
        raise UsageError(
            N_("{system} has no fights to sweep: sweep its tables with --rows and --cols."),
            system=found.title,
        )
    if len(points) > MAX_SWEEP_POINTS:
        from meneur.errors import LimitError

        raise LimitError(
            N_("A sweep has at most {limit} points, not {points}: narrow it."),
            limit=MAX_SWEEP_POINTS,
            points=len(points),
        )
    from meneur.lab.sweep import run_sweep, sweep_grid

    swept = run_sweep(
        points,
        runs,
        seed=seed,
        scheduler=scheduler,
        workers=workers,
        progress=True,
        description=_("Points"),
    )
    reports = swept.reports
    measure = None
    if cells:
        from meneur.lab.adapters import adapter_for

        measure = adapter_for(found).measures(adapter_for(found).check_name(check))[0]
    grid = sweep_grid(found.name, row_axis, col_axis, reports, measure)
    if plot is not None:
        from meneur.lab.plot import plot_grid

        plot_grid(grid, plot, title, "heatmap")
    if as_json:
        from meneur.lab.grid import jsonable

        entries = []
        for index, report in enumerate(reports):
            if report is None:
                continue
            r, c = divmod(index, len(col_axis.values))
            entries.append(
                {
                    row_axis.name: jsonable(row_axis.values[r]),
                    col_axis.name: jsonable(col_axis.values[c]),
                    "win_rate": report["win_rate"],
                    "win_interval_95": report["win_interval_95"],
                    "rounds_mean": report["rounds_mean"],
                }
            )
        data: dict[str, Any] = {
            "system": found.name,
            "kind": "cells" if cells else "fights",
            "runs": runs,
            "scheduler": scheduler,
            "points": entries,
            "interrupted": swept.interrupted,
        }
        if plot is not None:
            data["plot"] = str(plot)
        print_json(data)
        return
    from meneur.lab.render import print_ending, render_grid

    out = console()
    render_grid(out, grid, title)
    print_ending(out, swept.interrupted, plot)


def _tunnels_points(
    dice: str | None, endurance: int, vs_mr: str, explode: str, loss: str
) -> tuple[Any, Any, list[Any]]:
    from meneur.lab.grid import Axis, parse_int_list
    from meneur.lab.sweep import Point
    from meneur.systems.tunnels.combat import against_monster

    _choice(explode, ("never", "always", "needed"), "--explode")
    _choice(loss, ("margin", "one"), "--loss")
    dice_values = parse_int_list(dice or "2..6", 1, 30, "--dice")
    mr_values = parse_int_list(vs_mr, 1, 30, "--vs-mr")
    points = [
        Point(
            "tunnels",
            against_monster(
                d, endurance, mr, explode=explode, vs_explode=explode, loss=loss, max_rounds=200
            ),
        )
        for d in dice_values
        for mr in mr_values
    ]
    return (
        Axis("dice", N_("Dice"), dice_values),
        Axis("mr", N_("Monster Rating"), mr_values),
        points,
    )


def _legendes_points(dice: str | None, vs_level: str | None) -> tuple[Any, Any, list[Any]]:
    from meneur.lab.adapters.legendes import ADAPTER
    from meneur.lab.grid import Axis, parse_int_list
    from meneur.lab.simulate import LegendesConflict
    from meneur.lab.sweep import Point
    from meneur.systems.legendes.rules import parse_level

    dice_values = parse_int_list(dice or "1..4", 0, 12, "--dice")
    levels = tuple(
        dict.fromkeys(
            parse_level(part)
            for part in (vs_level or "elite,heroique,legendaire").split(",")
            if part.strip()
        )
    )
    points = [
        Point("legendes", LegendesConflict(d, level)) for d in dice_values for level in levels
    ]
    return (
        Axis("dice", N_("Dice"), dice_values),
        Axis("level", N_("Opposition"), levels, tuple(ADAPTER.level_label(v) for v in levels)),
        points,
    )


def _obscur_points(
    sheets: tuple[Path | None, Path | None], strategies_a: str | None, strategies_b: str | None
) -> tuple[Any, Any, list[Any], tuple[str, str]]:
    from meneur.lab.grid import Axis
    from meneur.lab.sweep import Point
    from meneur.systems.obscur.combat import STRATEGIES, FightParams, check_strategy, fighter_of
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    if sheets[0] is None or sheets[1] is None:
        raise UsageError(N_("Missing a fighter: --a SHEET and --b SHEET."))
    chars = (load_character(sheets[0]), load_character(sheets[1]))

    def names(text: str | None) -> tuple[str, ...]:
        chosen = [check_strategy(p) for p in (text or ",".join(STRATEGIES)).split(",") if p.strip()]
        if not chosen:
            raise UsageError(N_("'{text}' names no value."), text=str(text)[:40])
        return tuple(dict.fromkeys(chosen))

    mine, theirs = names(strategies_a), names(strategies_b)
    points = [
        Point(
            "obscur",
            FightParams(
                fighter_of(chars[0], strategy=a),
                fighter_of(chars[1], strategy=b),
                body_of(chars[0]),
                body_of(chars[1]),
            ),
        )
        for a in mine
        for b in theirs
    ]
    first = fighter_of(chars[0]).name
    return (
        Axis("strategy_a", N_("Strategy of A"), mine),
        Axis("strategy_b", N_("Strategy of B"), theirs),
        points,
        (first, fighter_of(chars[1]).name),
    )


def _cell_points(
    found: Any,
    check: str | None,
    rows: str | None,
    cols: str | None,
    panel: str | None,
    variant: str | None,
) -> tuple[Any, Any, list[Any], str]:
    from meneur.lab.adapters import adapter_for
    from meneur.lab.sweep import Point

    adapter = adapter_for(found)
    name = adapter.check_name(check)
    chosen = adapter.parse_variant(variant or "")
    panels, row_axis, col_axis = adapter.named_axes(name, chosen, rows, cols, panel)
    at = panels.values[0]
    points = [
        Point("cell", (found.name, name, adapter.params_at(name, chosen, at, r, c)))
        for r in row_axis.values
        for c in col_axis.values
    ]
    title = _("{system}: {check}, simulated cells ({panel})").format(
        system=found.title, check=name, panel=panels.label_of(0)
    )
    return row_axis, col_axis, points, title


def policy_command(
    system: SystemArg,
    dice: Annotated[
        int | None,
        typer.Option("--dice", parser=int_parser(1, 30), help=_("Dice rolled (the pool).")),
    ] = None,
    threshold: Annotated[
        int | None,
        typer.Option("--threshold", parser=int_parser(1, 30), help=_("Tunnels: successes needed.")),
    ] = None,
    difficulty: Annotated[
        int | None,
        typer.Option("--difficulty", parser=int_parser(1, 60), help=_("Obscur: the difficulty.")),
    ] = None,
    points: Annotated[
        int,
        _count_option(
            "--points", 0, 30, _("The resource to spend: Chance, Dépassement or motivation points.")
        ),
    ] = 1,
    tests: Annotated[
        int,
        _count_option(
            "--tests", 1, 20, _("Obscur: tests in a row sharing the points (success: all passed).")
        ),
    ] = 1,
    vs_level: Annotated[
        str | None,
        typer.Option(
            "--vs-level",
            metavar="LEVEL",
            help=_("Légendes: the opposition's level (commun, elite, heroique, legendaire)."),
        ),
    ] = None,
    modifier: Modifier = 0,
    explode: Explode = "needed",
    blessed: Blessed = False,
    cursed: Cursed = False,
    zero_skill: Annotated[
        bool,
        typer.Option("--zero-skill", help=_("Obscur: a skill at 0 (O-5).")),
    ] = False,
    zero_attribute: Annotated[
        bool,
        typer.Option("--zero-attribute", help=_("Obscur: an attribute at 0 (O-6).")),
    ] = False,
    runs: Runs = 200_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """When to spend a resource: every policy's success rate with its 95 % interval."""
    from meneur.cli.output import console, print_json
    from meneur.lab import policies as lab
    from meneur.lab.adapters import system_named
    from meneur.lab.plot import check_path

    found = system_named(system)
    if found.name not in lab.POLICIES:
        raise UsageError(
            N_("No resource to spend in {system}: policies exist for {known}."),
            system=found.title,
            known=", ".join(lab.POLICIES),
        )
    if plot is not None:
        check_path(plot)
    setting: dict[str, Any] = {"points": points}
    chunks: dict[str, Any] = {}
    if found.name == "tunnels":
        if dice is None or threshold is None:
            raise UsageError(N_("Missing the test: --dice and --threshold."))
        from meneur.systems.tunnels.rules import TestParams

        policy = _choice(explode, ("never", "always", "needed"), "--explode")
        params = TestParams(
            dice=dice,
            threshold=threshold,
            blessed=blessed,
            cursed=cursed,
            explode=policy,  # type: ignore[arg-type]
        )
        setting |= {"dice": dice, "threshold": threshold, "explode": policy, "mode": params.mode}
        chunks = {p: lab.tunnels_chunk(params, points, p) for p in lab.POLICIES["tunnels"]}
        goal = _("Test passed")
    elif found.name == "obscur":
        if dice is None or difficulty is None:
            raise UsageError(N_("Missing the test: --dice and --difficulty."))
        series = lab.ObscurSeries(dice, difficulty, points, tests, zero_skill, zero_attribute)
        setting |= {"dice": dice, "difficulty": difficulty, "tests": tests}
        chunks = {p: lab.obscur_chunk(series, p) for p in lab.POLICIES["obscur"]}
        goal = _("All tests passed") if tests > 1 else _("Test passed")
    else:
        from meneur.lab.simulate import LegendesConflict
        from meneur.systems.legendes.rules import check_circumstance, parse_level

        if dice is None or vs_level is None:
            raise UsageError(N_("Missing the hero's dice (--dice) or the opposition (--vs-level)."))
        level = parse_level(vs_level)
        check_circumstance(modifier)
        conflict = LegendesConflict(dice, level, modifier)
        setting |= {"dice": dice, "level": level, "modifier": modifier}
        chunks = {p: lab.legendes_chunk(conflict, points, p) for p in lab.POLICIES["legendes"]}
        goal = _("Conflict won")
    results = lab.compare_policies(chunks, runs, seed=seed, description=_("Policies"))
    data = lab.policy_report(found.name, setting, results)
    data["goal"] = goal
    title = _("{system}: when to spend {points} point(s)").format(system=found.title, points=points)
    if plot is not None:
        from meneur.lab.plot import plot_policies

        plot_policies(data["policies"], plot, title, goal)
        data["plot"] = str(plot)
    if as_json:
        print_json(data)
        return
    from rich.table import Table

    from meneur.lab.render import decimal, percent, print_ending

    table = Table(title=title, title_style="bold")
    table.add_column(_("Policy"))
    table.add_column(goal, justify="right")
    table.add_column(_("95 % interval"), justify="right")
    table.add_column(_("Points spent"), justify="right")
    if tests > 1 and found.name == "obscur":
        table.add_column(_("Tests passed"), justify="right")
    for row in data["policies"]:
        low, high = row["success_interval_95"]
        cells = [
            row["policy"],
            percent(row["success_rate"], 2),
            f"{percent(low, 2)} – {percent(high, 2)}",
            decimal(row["spent_mean"]),
        ]
        if "tests_passed_mean" in row and tests > 1:
            cells.append(decimal(row["tests_passed_mean"]))
        table.add_row(*cells)
    out = console()
    out.print(table)
    out.print(_("{runs} runs per policy.").format(runs=data["policies"][0]["runs"]))
    print_ending(out, data["interrupted"], plot)


def register_simulate(group: typer.Typer) -> None:
    """Add ``simulate fight`` and ``simulate test``."""
    group.command(
        "fight",
        help=_(
            "Simulate many whole fights (Tunnels: a character against a MR; Légendes: a hero "
            "against an opposition; Obscur: two sheets)."
        ),
    )(fight_command)
    group.command(
        "test", help=_("Simulate one cell of a table beside its exact odds (every system).")
    )(test_command)
    group.command(
        "policy",
        help=_(
            "When to spend a resource (Tunnels Chance, Obscur Dépassement, Légendes "
            "motivation): each policy's success rate with its interval."
        ),
    )(policy_command)
    group.command(
        "sweep",
        help=_(
            "Sweep fights (Tunnels, Légendes, Obscur) or table cells (every system), on "
            "local cores or a Dask cluster."
        ),
    )(sweep_command)
