"""``meneur simulate test|sweep SYSTEM`` (numpy, chunked).

``meneur simulate fight|policy SYSTEM`` are each system's own (``systems/<name>/lab_cli.py``),
registered through ``register_cli``; the pieces they share are in :mod:`.labkit`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from meneur.cli.labkit import Plot, Runs
from meneur.cli.labkit import choice as _choice
from meneur.cli.labkit import count_option as _count_option
from meneur.cli.params import Json, Seed, int_parser
from meneur.errors import UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.tunnels.cli import Blessed, Cursed  # the same flags as meneur test tunnels

SystemArg = Annotated[
    str,
    typer.Argument(metavar="SYSTEM", help=_("The system: tunnels, legendes or obscur (fights).")),
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
SixesOrVariant = Annotated[str | None, _SIXES]
Endurance = Annotated[int, _ENDURANCE]


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
    from meneur.lab.sweep import Point
    from meneur.systems.legendes.lab import LegendesConflict
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


def register_simulate(group: typer.Typer) -> None:
    """Add ``simulate test`` and ``simulate sweep``."""
    group.command(
        "test", help=_("Simulate one cell of a table beside its exact odds (every system).")
    )(test_command)
    group.command(
        "sweep",
        help=_(
            "Sweep fights (Tunnels, Légendes, Obscur) or table cells (every system), on "
            "local cores or a Dask cluster."
        ),
    )(sweep_command)
