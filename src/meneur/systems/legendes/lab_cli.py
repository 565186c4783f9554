"""The Légendes commands of the lab: ``meneur simulate fight|policy|sweep legendes``.

A hero against one opposition or a whole scene (L-8, L-10, L-13, L-14), many times,
vectorised. Help strings are translated on import; the lab and the rules load when run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import typer

from meneur.cli.labkit import (
    CELL_TEST_HELP,
    CellCheck,
    CellOptions,
    Cols,
    Panel,
    Plot,
    Rows,
    Runs,
    Scheduler,
    SweepRun,
    SweepRuns,
    Variant,
    Workers,
    cell_test_command,
    count_option,
    plot_fight,
    print_fight_ending,
    print_victory,
    run_policies,
    sweep,
    sweep_cells,
)
from meneur.cli.params import Json, Seed, int_parser, listed, parse_int
from meneur.errors import UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.base import CommandGroups, System

MAX_OPPOSITIONS = 10
"""Oppositions at once in a Légendes scene (L-10)."""


@dataclass(frozen=True, slots=True)
class LegendesScene:
    """The L-10/L-13 options of a Légendes fight, as typed (checked by the fight)."""

    with_dice: str | None = None
    each_other: bool = False
    partial: str = "wound"


def _dice(text: str) -> int:
    """A hero's dice up to the rules' one bound (``OpposedParams.MAX_DICE``), as play and
    odds take them; read when parsed, so that ``--help`` loads no rules."""
    from meneur.systems.legendes.rules import OpposedParams

    return parse_int(text, low=1, high=OpposedParams.MAX_DICE)


def fight_command(
    dice: Annotated[
        int | None,
        typer.Option("--dice", metavar="N", parser=_dice, help=_("The hero's dice.")),
    ] = None,
    vs_level: Annotated[
        str | None,
        typer.Option(
            "--vs-level",
            metavar="LEVEL",
            parser=listed,
            help=_(
                "The opposition's level (commun, elite, heroique, legendaire); "
                "several at once: elite,elite (L-10)."
            ),
        ),
    ] = None,
    modifier: Annotated[
        int,
        typer.Option(
            "--modifier",
            metavar="N",
            parser=int_parser(-2, 2),
            help=_("The circumstance, -2, 0 or +2."),
        ),
    ] = 0,
    with_dice: Annotated[
        str | None,
        typer.Option(
            "--with-dice",
            metavar="N,N",
            parser=listed,
            help=_("The dice of each character fighting beside the hero (L-10)."),
        ),
    ] = None,
    each_other: Annotated[
        bool,
        typer.Option("--each-other", help=_("The oppositions also fight each other (L-10).")),
    ] = False,
    partial: Annotated[
        str,
        typer.Option(
            "--partial",
            metavar="wound|doubt",
            help=_("A victoire partielle wounds, or makes doubt (L-13)."),
        ),
    ] = "wound",
    max_rounds: Annotated[
        int,
        typer.Option(
            "--max-rounds",
            "--rounds",
            metavar="N",
            parser=int_parser(1, 1000),
            help=_("Stop a fight after this many rounds."),
        ),
    ] = 200,
    runs: Runs = 100_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """A hero against one opposition, roll after roll, until someone is out (L-8, L-13, L-14).

    With allies, oppositions that fight each other or doubt instead of wounds, the
    scene's simulation plays every pair (L-10, L-13).
    """
    from meneur.cli.output import console, print_json
    from meneur.lab.grid import parse_int_list
    from meneur.lab.plot import check_path
    from meneur.systems.legendes.rules import (
        OpposedParams,
        check_circumstance,
        parse_level,
        parse_partial,
    )

    scene = LegendesScene(with_dice, each_other, partial)
    partial = parse_partial(scene.partial)
    allies = tuple(  # one number per character: "2,2" is two characters of 2 dice
        value
        for part in (scene.with_dice or "").split(",")[: MAX_OPPOSITIONS + 1]
        if part.strip()
        for value in parse_int_list(part, 0, OpposedParams.MAX_DICE, _("Dice"))
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
    from meneur.lab.simulate import run_chunks
    from meneur.systems.legendes.lab import (
        LegendesConflict,
        conflict_report,
        legendes_conflicts,
        legendes_scene,
    )
    from meneur.systems.legendes.lab_adapter import ADAPTER

    shown = ", ".join(ADAPTER.level_label(one) for one in levels)
    conflict = LegendesConflict(dice, level, modifier, None, max_rounds)
    if len(levels) == 1 and not allies and partial == "wound":

        def chunk(rng: Any, n: int) -> Any:
            return legendes_conflicts(conflict, rng, n)

    else:  # L-10: several oppositions at once, compared two by two with the hero

        def chunk(rng: Any, n: int) -> Any:
            return legendes_scene(
                dice, levels, rng, n, modifier=modifier, max_rolls=max_rounds, allies=allies,
                each_other=scene.each_other, partial=partial,
            )  # fmt: skip

    tally = run_chunks(runs, chunk, seed=seed, description=_("Fights"))
    data = conflict_report(conflict, tally)
    data["fight"]["level"] = level if len(levels) == 1 else list(levels)
    data["fight"].update(allies=list(allies), each_other=scene.each_other, partial=partial)
    if plot is not None:
        curves = {
            _("Hero standing"): "dead_at",
            _("Hero unhurt"): "wounded_at",
            _("Opposition standing"): "won_at",
        }
        title = _("Légendes: {dice} dice against {level} ({runs} conflicts)").format(
            dice=dice, level=shown, runs=tally.runs
        )
        plot_fight(tally, curves, title, plot, data)
    if as_json:
        print_json(data)
        return
    from meneur.locale.numbers import decimal, percent

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
    if scene.each_other:
        out.print(_("The oppositions also fight each other (L-10)."))
    if partial == "doubt":
        out.print(_("A victoire partielle makes the loser doubt, never wounds (L-13)."))
    print_victory(out, data)
    out.print(
        _("Defeat: {rate}; wounded: {wounded}").format(
            rate=percent(data["defeat_rate"], 2), wounded=percent(data["wounded_rate"], 2)
        )
    )
    out.print(_("Rolls: {mean} on average").format(mean=decimal(data["rounds"]["mean"])))
    print_fight_ending(out, data, tally, plot)


def policy_command(
    dice: Annotated[
        int | None,
        typer.Option("--dice", metavar="N", parser=_dice, help=_("Dice rolled (the pool).")),
    ] = None,
    points: Annotated[
        int, count_option("--points", 0, 30, _("The motivation points to spend (L-12)."))
    ] = 1,
    vs_level: Annotated[
        str | None,
        typer.Option(
            "--vs-level",
            metavar="LEVEL",
            help=_("The opposition's level (commun, elite, heroique, legendaire)."),
        ),
    ] = None,
    modifier: Annotated[
        int,
        typer.Option(
            "--modifier",
            metavar="N",
            parser=int_parser(-2, 2),
            help=_("The circumstance, -2, 0 or +2."),
        ),
    ] = 0,
    runs: Runs = 200_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """When to spend motivation in a conflict (L-12): every policy's success rate."""
    from meneur.lab.plot import check_path
    from meneur.systems.legendes.lab import SPENDING_POLICIES, LegendesConflict, motivation_chunk
    from meneur.systems.legendes.rules import check_circumstance, parse_level
    from meneur.systems.legendes.system import SYSTEM

    if plot is not None:
        check_path(plot)
    if dice is None or vs_level is None:
        raise UsageError(N_("Missing the hero's dice (--dice) or the opposition (--vs-level)."))
    level = parse_level(vs_level)
    check_circumstance(modifier)
    conflict = LegendesConflict(dice, level, modifier)
    setting = {"points": points, "dice": dice, "level": level, "modifier": modifier}
    chunks = {p: motivation_chunk(conflict, points, p) for p in SPENDING_POLICIES}
    system = (SYSTEM.name, SYSTEM.title)
    run_policies(system, setting, chunks, _("Conflict won"), runs, seed, plot, as_json)


def sweep_command(
    dice: Annotated[
        str | None,
        typer.Option("--dice", metavar="1..6", parser=listed, help=_("The hero's dice: a range.")),
    ] = None,
    vs_level: Annotated[
        str | None,
        typer.Option(
            "--vs-level",
            metavar="L,L",
            parser=listed,
            help=_("Opposition levels (default: elite, heroique, legendaire)."),
        ),
    ] = None,
    check: CellCheck = None,
    rows: Rows = None,
    cols: Cols = None,
    panel: Panel = None,
    variant: Variant = None,
    runs: SweepRuns = 100_000,
    seed: Seed = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """A grid of simulations, each point on a worker: conflicts (dice × opposition), or a
    table's cells."""
    run = SweepRun.checked(runs, seed, scheduler, workers, plot, as_json)
    cells = CellOptions(check, rows, cols, panel, variant)
    from meneur.systems.legendes.system import SYSTEM

    if cells.given():
        sweep_cells(SYSTEM, cells, run)
        return
    from meneur.lab.grid import Axis, parse_int_list
    from meneur.lab.sweep import Point
    from meneur.systems.legendes.lab import LegendesConflict, conflicts_point
    from meneur.systems.legendes.lab_adapter import ADAPTER
    from meneur.systems.legendes.rules import OpposedParams, parse_level

    dice_values = parse_int_list(dice or "1..4", 0, OpposedParams.MAX_DICE, "--dice")
    levels = tuple(
        dict.fromkeys(
            parse_level(part)
            for part in (vs_level or "elite,heroique,legendaire").split(",")
            if part.strip()
        )
    )
    points = [
        Point(conflicts_point, LegendesConflict(d, level)) for d in dice_values for level in levels
    ]
    axes = (
        Axis("dice", N_("Dice"), dice_values),
        Axis("level", N_("Opposition"), levels, tuple(ADAPTER.level_label(v) for v in levels)),
    )
    title = _("Légendes: victory over dice × opposition ({runs} conflicts a point)").format(
        runs=runs
    )
    sweep((SYSTEM.name, "fights"), axes, points, title, run)


def _system() -> System:
    from meneur.systems.legendes.system import SYSTEM

    return SYSTEM


def register(groups: CommandGroups) -> None:
    """Add ``simulate fight|policy|sweep|test legendes``."""
    groups.group("simulate", "test").command(name="legendes", help=_(CELL_TEST_HELP))(
        cell_test_command(_system)
    )
    groups.group("simulate", "fight").command(
        "legendes", help=_("Simulate many conflicts of a hero against an opposition or a scene.")
    )(fight_command)
    groups.group("simulate", "policy").command(
        "legendes", help=_("When to spend motivation (L-12): each policy's success rate.")
    )(policy_command)
    groups.group("simulate", "sweep").command(
        "legendes",
        help=_("Sweep conflicts (dice × opposition) or a table's cells, on cores or Dask."),
    )(sweep_command)


__all__ = [
    "MAX_OPPOSITIONS",
    "LegendesScene",
    "fight_command",
    "policy_command",
    "register",
    "sweep_command",
]
