"""The Tunnels commands of the lab: ``meneur simulate fight|policy|sweep tunnels``.

Many whole fights of a character against a Monster Rating, vectorised and chunked, with
the options of ``meneur fight tunnels`` (``--dice``, ``--endurance``, ``--vs-mr``,
``--explode``, ``--loss``) and the rule variants of docs/rules.md (``--tie``,
``--sixes``...). Help strings are translated on import; the lab loads when run.
"""

from __future__ import annotations

from typing import Annotated

import typer

from meneur.cli.labkit import (
    CELL_TEST_HELP,
    CellCheck,
    CellCol,
    CellOptions,
    CellPanel,
    CellRow,
    CellRuleOptions,
    CellRuns,
    CellWhich,
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
    choice,
    count_option,
    plot_fight,
    print_fight_ending,
    print_victory,
    rule_options,
    run_policies,
    simulate_cell,
    sweep,
    sweep_cells,
)
from meneur.cli.params import Json, Seed, int_parser, listed
from meneur.errors import UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.locale.numbers import grouped
from meneur.systems.base import CommandGroups
from meneur.systems.tunnels.cli import (  # the same flags and bounds as meneur test tunnels
    Blessed,
    Cursed,
    endurance,
    pool,
    successes,
)
from meneur.systems.tunnels.limits import MAX_CHANCE_SPENT

POLICIES = ("never", "always", "needed")
"""When a die explodes (T-6)."""


def fight_command(
    dice: Annotated[
        int | None,
        typer.Option("--dice", metavar="N", parser=pool, help=_("The character's Force (dice).")),
    ] = None,
    endurance: Annotated[
        int | None,
        typer.Option(
            "--endurance",
            metavar="N",
            parser=endurance,
            help=_("The character's Endurance."),
        ),
    ] = None,
    vs_mr: Annotated[
        int | None,
        typer.Option(
            "--vs-mr",
            metavar="N",
            parser=pool,
            help=_("The monster's Monster Rating."),
        ),
    ] = None,
    explode: Annotated[
        str,
        typer.Option(
            "--explode", metavar="POLICY", help=_("Explosion policy: never, always or needed.")
        ),
    ] = "needed",
    vs_explode: Annotated[
        str | None,
        typer.Option(
            "--vs-explode", metavar="POLICY", help=_("The monster's policy (default: the same).")
        ),
    ] = None,
    loss: Annotated[
        str,
        typer.Option(
            "--loss",
            metavar="margin|one",
            help=_("What the loser loses: the margin, or one point."),
        ),
    ] = "margin",
    tie: Annotated[
        str,
        typer.Option(
            "--tie",
            metavar="none|reroll",
            help=_("A tied round: nobody wins it, or it is rolled again."),
        ),
    ] = "none",
    sixes: Annotated[
        str,
        typer.Option(
            "--sixes", metavar="batch|all", help=_("Three 6s in one batch (T-7) or over all dice.")
        ),
    ] = "batch",
    blessed: Blessed = False,
    cursed: Cursed = False,
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
    """Many whole fights, vectorised: win rate with its 95 % interval, rounds, survival."""
    from meneur.cli.output import console, print_json
    from meneur.lab.plot import check_path

    if dice is None or endurance is None:
        raise UsageError(N_("Missing the character: --dice and --endurance."))
    if vs_mr is None:
        raise UsageError(N_("Missing the opponent: --vs-mr."))
    choice(explode, POLICIES, "--explode")
    choice(vs_explode or explode, POLICIES, "--vs-explode")
    choice(loss, ("margin", "one"), "--loss")
    choice(tie, ("none", "reroll"), "--tie")
    choice(sixes, ("batch", "all"), "--sixes")
    if plot is not None:
        check_path(plot)
    from meneur.lab.simulate import run_chunks
    from meneur.systems.tunnels.combat import against_monster
    from meneur.systems.tunnels.lab import fight_report, tunnels_fights

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
        max_rounds=max_rounds,
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
        ).format(dice=dice, endurance=endurance, mr=vs_mr, runs=grouped(tally.runs))
        plot_fight(tally, curves, title, plot, data)
    if as_json:
        print_json(data)
        return
    from meneur.locale.numbers import decimal, percent

    out = console()
    out.print(
        _("[bold]{runs}[/] fights: Force {dice}, Endurance {endurance} against MR {mr}.").format(
            runs=grouped(tally.runs), dice=dice, endurance=endurance, mr=vs_mr
        )
    )
    print_victory(out, data)
    out.print(
        _("Death: {rate}; wounded: {wounded}").format(
            rate=percent(data["death_rate"], 2), wounded=percent(data["wounded_rate"], 2)
        )
    )
    out.print(_("Rounds: {mean} on average").format(mean=decimal(data["rounds"]["mean"])))
    print_fight_ending(out, data, tally, plot)


def policy_command(
    dice: Annotated[
        int | None,
        typer.Option("--dice", metavar="N", parser=pool, help=_("Dice rolled (the pool).")),
    ] = None,
    threshold: Annotated[
        int | None,
        typer.Option(
            "--threshold",
            metavar="T",
            parser=successes,
            help=_("Successes needed (the niveau): a number, or a level such as moyenne."),
        ),
    ] = None,
    points: Annotated[
        int, count_option("--points", 0, MAX_CHANCE_SPENT, _("The Chance points to spend (T-12)."))
    ] = 1,
    explode: Annotated[
        str,
        typer.Option(
            "--explode", metavar="POLICY", help=_("Explosion policy: never, always or needed.")
        ),
    ] = "needed",
    blessed: Blessed = False,
    cursed: Cursed = False,
    runs: Runs = 200_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """When to spend Chance on a test (T-12): every policy's success rate and interval."""
    from meneur.lab.plot import check_path
    from meneur.systems.tunnels.lab import SPENDING_POLICIES, chance_chunk
    from meneur.systems.tunnels.rules import TestParams
    from meneur.systems.tunnels.system import SYSTEM

    if plot is not None:
        check_path(plot)
    if dice is None or threshold is None:
        raise UsageError(N_("Missing the test: --dice and --threshold."))
    policy = choice(explode, POLICIES, "--explode")
    params = TestParams(
        dice=dice,
        threshold=threshold,
        blessed=blessed,
        cursed=cursed,
        explode=policy,  # type: ignore[arg-type]
    )
    setting = {
        "points": points,
        "dice": dice,
        "threshold": threshold,
        "explode": policy,
        "mode": params.mode,
    }
    chunks = {p: chance_chunk(params, points, p) for p in SPENDING_POLICIES}
    run_policies(
        (SYSTEM.name, SYSTEM.title), setting, chunks, _("Test passed"), runs, seed, plot, as_json
    )


def sweep_command(
    dice: Annotated[
        str | None,
        typer.Option(
            "--dice", metavar="1..6", parser=listed, help=_("The character's Force: a range.")
        ),
    ] = None,
    endurance: Annotated[
        int,
        typer.Option(
            "--endurance",
            metavar="N",
            parser=endurance,
            help=_("The character's Endurance."),
        ),
    ] = 8,
    vs_mr: Annotated[
        str,
        typer.Option(
            "--vs-mr",
            metavar="1..8",
            parser=listed,
            help=_("The monster's Monster Rating: a range."),
        ),
    ] = "1..8",
    check: CellCheck = None,
    rows: Rows = None,
    cols: Cols = None,
    panel: Panel = None,
    variant: Variant = None,
    explode: Annotated[
        str,
        typer.Option(
            "--explode", metavar="POLICY", help=_("Explosion policy: never, always or needed.")
        ),
    ] = "needed",
    loss: Annotated[
        str,
        typer.Option(
            "--loss",
            metavar="margin|one",
            help=_("What the loser loses: the margin, or one point."),
        ),
    ] = "margin",
    runs: SweepRuns = 100_000,
    seed: Seed = None,
    scheduler: Scheduler = None,
    workers: Workers = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """A grid of simulations, each point on a worker: fights (dice × MR), or a table's cells."""
    run = SweepRun.checked(runs, seed, scheduler, workers, plot, as_json)
    cells = CellOptions(check, rows, cols, panel, variant)
    from meneur.systems.tunnels.system import SYSTEM

    if cells.given():
        from functools import partial

        from meneur.systems.tunnels.lab import cell_point

        ties_again = rule_options(SYSTEM, variant).get("tie") == "reroll"  # T-9 option
        sweep_cells(SYSTEM, cells, run, partial(cell_point, ties_again=ties_again))
        return
    from meneur.lab.grid import Axis, parse_int_list
    from meneur.lab.sweep import Point
    from meneur.systems.tunnels.combat import against_monster
    from meneur.systems.tunnels.lab import fights_point
    from meneur.systems.tunnels.rules import TestParams

    choice(explode, POLICIES, "--explode")
    choice(loss, ("margin", "one"), "--loss")
    dice_values = parse_int_list(dice or "2..6", 1, TestParams.MAX_DICE, "--dice")
    mr_values = parse_int_list(vs_mr, 1, TestParams.MAX_DICE, "--vs-mr")
    points = [
        Point(
            fights_point,
            against_monster(
                d, endurance, mr, explode=explode, vs_explode=explode, loss=loss, max_rounds=200
            ),
        )
        for d in dice_values
        for mr in mr_values
    ]
    axes = (Axis("dice", N_("Dice"), dice_values), Axis("mr", N_("Monster Rating"), mr_values))
    title = _(
        "Tunnels: victory over Force × MR, Endurance {endurance} ({runs} fights a point)"
    ).format(endurance=endurance, runs=grouped(runs))
    sweep((SYSTEM.name, "fights"), axes, points, title, run)


def test_command(
    check: CellWhich = None,
    row: CellRow = None,
    col: CellCol = None,
    panel: CellPanel = None,
    variant: CellRuleOptions = None,
    dice: Annotated[
        int | None,
        typer.Option("--dice", metavar="N", parser=pool, help=_("Dice rolled (Tunnels).")),
    ] = None,
    threshold: Annotated[
        int | None,
        typer.Option(
            "--threshold",
            metavar="T",
            parser=successes,
            help=_("Successes needed (the niveau): a number, or a level such as moyenne."),
        ),
    ] = None,
    blessed: Blessed = False,
    cursed: Cursed = False,
    explode: Annotated[
        str | None,
        typer.Option(
            "--explode", metavar="POLICY", help=_("Explosion policy: never, always or needed.")
        ),
    ] = None,
    sixes: Annotated[
        str | None,
        typer.Option(
            "--sixes", metavar="batch|all", help=_("Three 6s in one batch (T-7) or over all dice.")
        ),
    ] = None,
    chance: Annotated[
        int,
        count_option(
            "--chance",
            0,
            MAX_CHANCE_SPENT,
            _("Tunnels: Chance points spent automatically on a failed test (T-12)."),
        ),
    ] = 0,
    chance_all: Annotated[
        bool,
        typer.Option("--chance-all", help=_("T-12 option: one Chance rerolls every failed die.")),
    ] = False,
    runs: CellRuns = 1_000_000,
    seed: Seed = None,
    plot: Plot = None,
    as_json: Json = False,
) -> None:
    """Many rolls of one cell of ``meneur table``, vectorised, beside its exact odds, with
    the options of ``meneur test tunnels`` and Chance spent automatically (T-12)."""
    from meneur.systems.tunnels.system import SYSTEM

    chosen = rule_options(SYSTEM, variant)
    for given, alias, name, other in (
        (dice, row, "--dice", "--row"),
        (threshold, col, "--threshold", "--col"),
    ):
        if given is not None and alias is not None:  # the alias was ignored
            raise UsageError(
                N_("{name} and {other} name the same thing: give one."), name=name, other=other
            )
    from meneur.systems.tunnels.lab_adapter import ADAPTER as LAB

    if threshold is not None and LAB.check_name(check) == "oppose":
        raise UsageError(  # it named the other side's dice in silence
            N_("An opposition has no threshold (T-9): give the other side's dice with --col.")
        )
    if (dice is not None or threshold is not None) and (
        (dice is None and row is None) or (threshold is None and col is None)
    ):  # the test's own form, half given: ask in its words, not the table's --row/--col
        if LAB.check_name(check) == "oppose":
            raise UsageError(N_("Missing the other side's dice: --col (as in meneur table)."))
        raise UsageError(N_("Missing the test: --dice and --threshold."))
    if dice is not None:
        row = str(dice)
    if threshold is not None:
        col = str(threshold)
    for key, flag, typed, values in (
        ("explode", "--explode", explode, POLICIES),
        ("sixes", "--sixes", sixes, ("batch", "all")),
    ):
        if typed is None:
            continue
        if key in chosen:  # one of the two was dropped in silence
            raise UsageError(
                N_("{name} and {other} name the same thing: give one."),
                name=flag,
                other=f"--variant {key}",
            )
        chosen[key] = choice(typed, values, flag)
    if panel is None:
        mode = (
            "blessed"
            if blessed and not cursed
            else "cursed"
            if cursed and not blessed
            else "normal"
        )
        panel = f"{mode}/{chosen.get('explode', 'needed')}"

    def chunk_of(name: str, params: object) -> object:
        from meneur.systems.tunnels.lab import (
            as_cell_chunk,
            cell_point,
            tunnels_chance_chunk,
            tunnels_test_chunk,
        )

        if chance and name != "test":
            raise UsageError(N_("--chance is a Tunnels test's resource (T-12)."))
        if chance:
            return tunnels_chance_chunk(params, chance, chance_all)
        if name == "test":
            return as_cell_chunk(tunnels_test_chunk(params))
        if chosen.get("tie") == "reroll":  # T-9 option: as the exact odds beside it count
            return cell_point((LAB.check(name), params), ties_again=True)[0]
        return None

    simulate_cell(
        SYSTEM,
        CellOptions(check, row, col, panel),
        chosen,
        SweepRun(runs, seed, None, None, plot, as_json),
        chunk_of=chunk_of,
        chance=chance,
        values_label=_("Successes"),
    )


def register(groups: CommandGroups) -> None:
    """Add ``simulate fight|policy|sweep|test tunnels``."""
    groups.group("simulate", "test").command("tunnels", help=_(CELL_TEST_HELP))(test_command)
    groups.group("simulate", "fight").command(
        "tunnels", help=_("Simulate many whole fights of a character against a Monster Rating.")
    )(fight_command)
    groups.group("simulate", "policy").command(
        "tunnels", help=_("When to spend Chance (T-12): each policy's success rate.")
    )(policy_command)
    groups.group("simulate", "sweep").command(
        "tunnels", help=_("Sweep fights (Force × MR) or a table's cells, on cores or Dask.")
    )(sweep_command)


__all__ = ["fight_command", "policy_command", "register", "sweep_command", "test_command"]
