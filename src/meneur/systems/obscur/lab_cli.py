"""The Obscur commands of the lab: ``meneur simulate fight|policy|sweep obscur``.

Two sheets in melee (O-11..O-22), many times: numpy duels where the vector form covers
the fight, the system's own fight otherwise. Help strings are translated on import; the
lab and the rules load when run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

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
    choice,
    count_option,
    plot_fight,
    print_fight_ending,
    run_policies,
    sweep,
    sweep_cells,
)
from meneur.cli.params import Json, Seed, listed, parse_int
from meneur.errors import UsageError
from meneur.locale import N_, fill, pgettext
from meneur.locale import gettext as _
from meneur.locale.numbers import grouped
from meneur.systems.base import CommandGroups, System
from meneur.systems.obscur.play_cli import fight_rounds
from meneur.text import fold


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
    chosen = choice(fold(value), ("a", "b", "both"), flag)
    return {"a", "b"} if chosen == "both" else {chosen}


def fight_command(
    sheet_a: Annotated[
        Path | None, typer.Option("--a", metavar="SHEET", help=_("Fighter A's sheet."))
    ] = None,
    sheet_b: Annotated[
        Path | None, typer.Option("--b", metavar="SHEET", help=_("Fighter B's sheet."))
    ] = None,
    strategy_a: Annotated[
        str | None,
        typer.Option("--strategy-a", metavar="NAME", help=_("How A splits the PA (O-12).")),
    ] = None,
    strategy_b: Annotated[
        str | None,
        typer.Option("--strategy-b", metavar="NAME", help=_("How B splits the PA (O-12).")),
    ] = None,
    impress: Annotated[
        str | None,
        typer.Option(
            "--impress",
            metavar="a|b|both",
            help=_("Who tries to impress the other before the fight (O-20)."),
        ),
    ] = None,
    sheathed: Annotated[
        str | None,
        typer.Option(
            "--sheathed",
            metavar="a|b|both",
            help=_("Who must draw their weapon while fighting (O-18)."),
        ),
    ] = None,
    special_a: Annotated[
        str | None,
        typer.Option("--special-a", metavar="NAME", help=_("A's coup spécial (O-22).")),
    ] = None,
    special_b: Annotated[
        str | None,
        typer.Option("--special-b", metavar="NAME", help=_("B's coup spécial (O-22).")),
    ] = None,
    opponents_a: Annotated[
        int, count_option("--opponents-a", 1, 10, _("Opponents A faces (O-17)."))
    ] = 1,
    opponents_b: Annotated[
        int, count_option("--opponents-b", 1, 10, _("Opponents B faces (O-17)."))
    ] = 1,
    max_rounds: Annotated[
        int | None,
        typer.Option(
            "--max-rounds",
            "--rounds",
            metavar="N",
            parser=fight_rounds,
            help=_("Stop a fight after this many rounds (default: the rule data's limit)."),
        ),
    ] = None,
    runs: Runs = 100_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """Many whole fights, vectorised: win rate with its 95 % interval, rounds, survival."""
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
    from meneur.lab.simulate import run_chunks
    from meneur.systems.obscur.lab import duel_report, obscur_duels
    from meneur.systems.obscur.lab_duel import obscur_duel_tally, vectorisable

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
            a=names[0], b=names[1], runs=grouped(tally.runs)
        )
        plot_fight(tally, curves, title, plot, data)
    if as_json:
        print_json(data)
        return
    from meneur.locale.numbers import decimal, percent

    out = console()
    low, high = data["win_interval_95"]
    out.print(
        _("[bold]{runs}[/] fights: {a} ({sa}) against {b} ({sb}).").format(
            runs=grouped(tally.runs),
            a=names[0],
            sa=params.a.strategy,
            b=names[1],
            sb=params.b.strategy,
        )
    )
    out.print(
        fill(
            _("Victory of {name}: [bold green]{rate}[/] (95 % interval {low} to {high})"),
            name=names[0],
            rate=percent(data["win_rate"], 2),
            low=percent(low, 2),
            high=percent(high, 2),
        )
    )
    out.print(_("Rounds: {mean} on average").format(mean=decimal(data["rounds"]["mean"])))
    print_fight_ending(out, data, tally, plot)


def _pool(text: str) -> int:
    """A pool up to the rules' one bound on dice (``obscur.rules.MAX_DICE``), as play and
    odds take it; read when parsed, so that ``--help`` loads no rules."""
    from meneur.systems.obscur.rules import MAX_DICE

    return parse_int(text, low=1, high=MAX_DICE)


def _difficulty(text: str) -> int:
    """A difficulty up to the rules' bound (``obscur.rules.MAX_DIFFICULTY``)."""
    from meneur.systems.obscur.rules import MAX_DIFFICULTY

    return parse_int(text, low=1, high=MAX_DIFFICULTY)


def _points(text: str) -> int:
    """Dépassement points, as many as the advisor weighs (``advisor.MAX_POINTS``)."""
    from meneur.systems.obscur.advisor import MAX_POINTS

    return parse_int(text, low=0, high=MAX_POINTS)


def policy_command(
    dice: Annotated[
        int | None,
        typer.Option("--dice", metavar="N", parser=_pool, help=_("Dice rolled (the pool).")),
    ] = None,
    difficulty: Annotated[
        int | None,
        typer.Option("--difficulty", metavar="N", parser=_difficulty, help=_("The difficulty.")),
    ] = None,
    points: Annotated[
        int,
        typer.Option(
            "--points",
            metavar="N",
            parser=_points,
            help=_("The Dépassement points to spend (O-10)."),
        ),
    ] = 1,
    tests: Annotated[
        int,
        count_option(
            "--tests", 1, 20, _("Tests in a row sharing the points (success: all passed).")
        ),
    ] = 1,
    zero_skill: Annotated[
        bool, typer.Option("--zero-skill", help=_("A skill at 0 (O-5)."))
    ] = False,
    zero_attribute: Annotated[
        bool, typer.Option("--zero-attribute", help=_("An attribute at 0 (O-6)."))
    ] = False,
    runs: Runs = 200_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """When to spend Dépassement (O-10): every policy's success rate and interval."""
    from meneur.lab.plot import check_path
    from meneur.systems.obscur.lab import SPENDING_POLICIES, ObscurSeries, depassement_chunk
    from meneur.systems.obscur.system import SYSTEM

    if plot is not None:
        check_path(plot)
    if dice is None or difficulty is None:
        raise UsageError(N_("Missing the test: --dice and --difficulty."))
    series = ObscurSeries(dice, difficulty, points, tests, zero_skill, zero_attribute)
    setting = {"points": points, "dice": dice, "difficulty": difficulty, "tests": tests}
    chunks = {p: depassement_chunk(series, p) for p in SPENDING_POLICIES}
    goal = _("All tests passed") if tests > 1 else _("Test passed")
    run_policies((SYSTEM.name, SYSTEM.title), setting, chunks, goal, runs, seed, plot, as_json)


def sweep_command(
    sheet_a: Annotated[
        Path | None, typer.Option("--a", metavar="SHEET", help=_("Fighter A's sheet."))
    ] = None,
    sheet_b: Annotated[
        Path | None, typer.Option("--b", metavar="SHEET", help=_("Fighter B's sheet."))
    ] = None,
    strategies_a: Annotated[
        str | None,
        typer.Option(
            "--strategies-a", metavar="S,S", parser=listed, help=_("A's strategies (default: all).")
        ),
    ] = None,
    strategies_b: Annotated[
        str | None,
        typer.Option(
            "--strategies-b", metavar="S,S", parser=listed, help=_("B's strategies (default: all).")
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
    """A grid of simulations, each point on a worker: duels (strategy × strategy), or a
    table's cells."""
    run = SweepRun.checked(runs, seed, scheduler, workers, plot, as_json)
    cells = CellOptions(check, rows, cols, panel, variant)
    from meneur.systems.obscur.system import SYSTEM

    if cells.given():
        sweep_cells(SYSTEM, cells, run)
        return
    from meneur.lab.grid import Axis
    from meneur.lab.sweep import Point
    from meneur.systems.obscur.combat import STRATEGIES, FightParams, check_strategy, fighter_of
    from meneur.systems.obscur.lab import duels_point
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    if sheet_a is None or sheet_b is None:
        raise UsageError(N_("Missing a fighter: --a SHEET and --b SHEET."))
    chars = (load_character(sheet_a), load_character(sheet_b))

    def names(text: str | None) -> tuple[str, ...]:
        chosen = [check_strategy(p) for p in (text or ",".join(STRATEGIES)).split(",") if p.strip()]
        if not chosen:
            raise UsageError(N_("'{text}' names no value."), text=str(text))
        return tuple(dict.fromkeys(chosen))

    mine, theirs = names(strategies_a), names(strategies_b)
    points = [
        Point(
            duels_point,
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
    axes = (
        Axis("strategy_a", N_("Strategy of A"), mine),
        Axis("strategy_b", N_("Strategy of B"), theirs),
    )
    title = fill(
        _("Obscur: victory of {a} over strategies ({runs} fights a point)"),
        a=fighter_of(chars[0]).name,
        runs=grouped(runs),
    )
    sweep((SYSTEM.name, "fights"), axes, points, title, run)


def _system() -> System:
    from meneur.systems.obscur.system import SYSTEM

    return SYSTEM


def register(groups: CommandGroups) -> None:
    """Add ``simulate fight|policy|sweep|test obscur``."""
    groups.group("simulate", "test").command(name="obscur", help=_(CELL_TEST_HELP))(
        cell_test_command(_system, lambda: pgettext("obscur", "Successes"))
    )
    groups.group("simulate", "fight").command(
        "obscur", help=_("Simulate many melees between two sheets (O-11 to O-22).")
    )(fight_command)
    groups.group("simulate", "policy").command(
        "obscur", help=_("When to spend Dépassement (O-10): each policy's success rate.")
    )(policy_command)
    groups.group("simulate", "sweep").command(
        "obscur", help=_("Sweep duels (strategy × strategy) or a table's cells, on cores or Dask.")
    )(sweep_command)


__all__ = ["ObscurOptions", "fight_command", "policy_command", "register", "sweep_command"]
