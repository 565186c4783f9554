"""The lab's command toolkit: the options and endings every simulation command shares.

Each system writes its own ``meneur simulate ...`` commands (``systems/<name>/lab_cli.py``)
with these pieces, so that the runs, the seed, the plot and the way a fight simulation
ends read the same in every system, and the CLI itself names no system.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meneur.cli.params import Json, Seed, int_parser, listed
from meneur.errors import LimitError, UsageError
from meneur.locale import N_, ngettext
from meneur.locale import gettext as _
from meneur.locale.numbers import fraction_text, grouped
from meneur.systems.base import System

if TYPE_CHECKING:
    from fractions import Fraction

    from meneur.lab.adapter import Adapter

MAX_RUNS = 10**10
"""Runs are chunked (constant memory): 10^10 is hours, not a crash."""
MAX_SWEEP_POINTS = 400
"""Points of one sweep: enough for a heat map, not a runaway grid."""


def count_option(flag: str, low: int, high: int, help: str) -> Any:
    """A bounded count shown as ``N`` (opponents, points, tests...)."""
    return typer.Option(flag, parser=int_parser(low, high), metavar="N", help=help)


Runs = Annotated[int, count_option("--runs", 1, MAX_RUNS, _("How many runs."))]
Plot = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help=_("Also draw the result in FILE (.png or .svg).")),
]


def choice(value: str, known: tuple[str, ...], what: str) -> str:
    """``value`` if it is one of ``known``, else one clear line naming the choices."""
    if value not in known:
        raise UsageError(
            N_("{what}: unknown value '{value}'; choose among {known}."),
            what=what,
            value=value,
            known=", ".join(known),
        )
    return value


def print_fight_ending(out: Any, data: dict[str, Any], tally: Any, plot: Path | None) -> None:
    """The lines every fight simulation ends with: cut fights, an interruption, the plot."""
    from meneur.lab.render import print_ending

    if data["unfinished"]:
        stopped = grouped(data["unfinished"])
        out.print(_("{count} fights stopped at the round limit.").format(count=stopped))
    print_ending(out, tally.interrupted, plot)


def plot_fight(
    tally: Any, curves: dict[str, str], title: str, plot: Path, data: dict[str, Any]
) -> None:
    """Draw a fight simulation in ``plot`` and name the file in ``data``.

    ``curves`` maps each curve's label to the histogram of the round its event happened
    (``dead_at``, ``wounded_at``, ``won_at``): each system's fight only differs in those,
    so the survival curves and the rounds histogram are built here once.
    """
    from meneur.lab.plot import plot_fight as draw
    from meneur.lab.simulate import survival

    rounds = tally.histograms.get("rounds", {})
    last = max(rounds, default=0)
    survivals = {
        label: survival(tally.histograms.get(key, {}), tally.runs, last)
        for label, key in curves.items()
    }
    draw(survivals, {k: v / tally.runs for k, v in rounds.items()}, plot, title)
    data["plot"] = str(plot)


def print_victory(out: Any, data: dict[str, Any]) -> None:
    """The win rate and its 95 % interval, as a fight simulation prints it."""
    from meneur.locale.numbers import percent

    low, high = data["win_interval_95"]
    out.print(
        _("Victory: [bold green]{rate}[/] (95 % interval {low} to {high})").format(
            rate=percent(data["win_rate"], 2), low=percent(low, 2), high=percent(high, 2)
        )
    )


def run_policies(
    system: tuple[str, str],
    setting: dict[str, Any],
    chunks: dict[str, Any],
    goal: str,
    runs: int,
    seed: int | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Run every policy a system built (``chunks``) and show them side by side.

    ``system`` is its name and title. A ``tests_passed`` count (a series of tests)
    adds a column when the series has more than one test (``setting["tests"]``).
    """
    from meneur.cli.output import console, print_json
    from meneur.lab.policies import compare_policies, policy_report

    name, title_of_system = system
    results = compare_policies(chunks, runs, seed=seed, description=_("Policies"))
    data = policy_report(name, setting, results)
    data["goal"] = goal
    points = setting["points"]
    title = _("{system}: when to spend {points} point(s)").format(
        system=title_of_system, points=points
    )
    if plot is not None:
        from meneur.lab.plot import plot_policies

        plot_policies(data["policies"], plot, title, goal)
        data["plot"] = str(plot)
    if as_json:
        print_json(data)
        return
    from rich.table import Table

    from meneur.lab.render import print_ending
    from meneur.locale.numbers import decimal, percent

    series = setting.get("tests", 1) > 1
    table = Table(title=title, title_style="bold")
    table.add_column(_("Policy"))
    table.add_column(goal, justify="right")
    table.add_column(_("95 % interval"), justify="right")
    table.add_column(_("Points spent"), justify="right")
    if series:
        table.add_column(_("Tests passed"), justify="right")
    for row in data["policies"]:
        low, high = row["success_interval_95"]
        cells = [
            row["policy"],
            percent(row["success_rate"], 2),
            f"{percent(low, 2)} – {percent(high, 2)}",
            decimal(row["spent_mean"]),
        ]
        if "tests_passed_mean" in row and series:
            cells.append(decimal(row["tests_passed_mean"]))
        table.add_row(*cells)
    out = console()
    out.print(table)
    out.print(_("{runs} runs per policy.").format(runs=data["policies"][0]["runs"]))
    print_ending(out, data["interrupted"], plot)


# --- sweeps: each system's fights, or any system's table cells ------------------------

SweepRuns = Annotated[
    int, count_option("--runs", 1, 10**9, _("Fights (or rolls) per point of the sweep."))
]
CellCheck = Annotated[
    str | None,
    typer.Option(
        "--check",
        metavar="CHECK",
        help=_("Sweep the cells of a table instead of fights: which roll (test, oppose)."),
    ),
]
Rows = Annotated[
    str | None,
    typer.Option(
        "--rows", metavar="1..10", parser=listed, help=_("Table cells: the rows (as meneur table).")
    ),
]
Cols = Annotated[
    str | None,
    typer.Option(
        "--cols",
        metavar="1..10",
        parser=listed,
        help=_("Table cells: the columns (as meneur table)."),
    ),
]
Panel = Annotated[
    str | None,
    typer.Option(
        "--panel", metavar="P", parser=listed, help=_("Table cells: the panel (as meneur table).")
    ),
]
Variant = Annotated[
    str | None,
    typer.Option(
        "--variant", metavar="OPTION=VALUE", parser=listed, help=_("Table cells: rule options.")
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help=_("A Dask scheduler (tcp://host:8786) to run the sweep on; default: local cores."),
    ),
]
Workers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        metavar="N",
        parser=int_parser(1, 256),
        help=_("Local processes (default: the cores)."),
    ),
]


@dataclass(frozen=True)
class CellOptions:
    """Which table's cells a sweep rolls (as ``meneur table`` names them)."""

    check: str | None = None
    rows: str | None = None
    cols: str | None = None
    panel: str | None = None
    variant: str | None = None

    def given(self) -> bool:
        """Whether the user asked for cells rather than the system's fights; a panel or a
        variant alone is refused: a sweep of fights ignored them."""
        asked = any(value is not None for value in (self.check, self.rows, self.cols))
        if not asked and (self.panel is not None or self.variant is not None):
            raise UsageError(
                N_(
                    "--panel and --variant choose a table's cells: give --check, --rows or "
                    "--cols with them (a sweep of fights takes neither)."
                )
            )
        return asked


@dataclass(frozen=True)
class SweepRun:
    """How a sweep runs and shows its result, whatever it sweeps."""

    runs: int
    seed: int | None
    scheduler: str | None
    workers: int | None
    plot: Path | None
    as_json: bool

    @classmethod
    def checked(
        cls,
        runs: int,
        seed: int | None,
        scheduler: str | None,
        workers: int | None,
        plot: Path | None,
        as_json: bool,
    ) -> SweepRun:
        """The sweep's settings, its plot's path checked before a single run."""
        from meneur.lab.plot import check_path

        if plot is not None:
            check_path(plot)
        return cls(runs, seed, scheduler, workers, plot, as_json)


def sweep_cells(
    system: System, cells: CellOptions, run: SweepRun, build: Callable[[Any], Any] | None = None
) -> None:
    """Sweep the cells of one of ``system``'s tables, each rolled ``run.runs`` times.

    ``build`` makes a cell's chunk (a :class:`meneur.lab.sweep.Point`'s ``build``);
    by default the check's vectorised form.
    """
    from meneur.lab.adapter import adapter_for
    from meneur.lab.sweep import Point, cell_point

    adapter = adapter_for(system)
    name = adapter.check_name(cells.check)
    chosen = adapter.parse_variant(cells.variant or "")
    panels, row_axis, col_axis = adapter.named_axes(
        name, chosen, cells.rows, cells.cols, cells.panel
    )
    at = panels.values[0]
    points = [
        Point(build or cell_point, (adapter.check(name), adapter.params_at(name, chosen, at, r, c)))
        for r in row_axis.values
        for c in col_axis.values
    ]
    title = _("{system}: {check}, simulated cells ({panel})").format(
        system=system.title, check=name, panel=panels.label_of(0)
    )
    title = _("{title} ({runs} rolls a point)").format(title=title, runs=run.runs)
    measure = adapter.measures(name)[0]
    sweep((system.name, "cells"), (row_axis, col_axis), points, title, run, measure)


def sweep(
    what: tuple[str, str],
    axes: tuple[Any, Any],
    points: list[Any],
    title: str,
    run: SweepRun,
    measure: Any = None,
) -> None:
    """Run ``points`` (a grid over ``axes``) and show the grid, as JSON or a plot.

    ``what`` is (the system's name, ``"fights"`` or ``"cells"``), as the JSON names it.
    """
    from meneur.cli.output import console, print_json

    if len(points) > MAX_SWEEP_POINTS:
        raise LimitError(
            N_("A sweep has at most {limit} points, not {points}: narrow it."),
            limit=MAX_SWEEP_POINTS,
            points=len(points),
        )
    from meneur.lab.sweep import run_sweep, sweep_grid

    system, kind = what
    row_axis, col_axis = axes
    swept = run_sweep(
        points,
        run.runs,
        seed=run.seed,
        scheduler=run.scheduler,
        workers=run.workers,
        progress=True,
        description=_("Points"),
    )
    reports = swept.reports
    grid = sweep_grid(system, row_axis, col_axis, reports, measure)
    if run.plot is not None:
        from meneur.lab.plot import plot_grid

        plot_grid(grid, run.plot, title, "heatmap")
    if run.as_json:
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
            "system": system,
            "kind": kind,
            "runs": run.runs,
            "scheduler": run.scheduler,
            "points": entries,
            "interrupted": swept.interrupted,
        }
        if run.plot is not None:
            data["plot"] = str(run.plot)
        print_json(data)
        return
    from meneur.lab.render import print_ending, render_grid

    out = console()
    render_grid(out, grid, title)
    print_ending(out, swept.interrupted, run.plot)


# --- one cell of a table, rolled many times ----------------------------------------------

CellRow = Annotated[
    str | None,
    typer.Option(
        "--row",
        metavar="R",
        parser=listed,
        help=_("The row of the table to simulate (as in meneur table)."),
    ),
]
CellCol = Annotated[
    str | None,
    typer.Option(
        "--col", metavar="C", parser=listed, help=_("The column of the table to simulate.")
    ),
]
CellPanel = Annotated[
    str | None,
    typer.Option(
        "--panel", metavar="P", parser=listed, help=_("The panel of the table to simulate.")
    ),
]
CellRuleOptions = Annotated[
    str | None,
    typer.Option(
        "--variant",
        metavar="OPTION=VALUE",
        parser=listed,
        help=_("Rule options, such as explode=always,sixes=all."),
    ),
]
CellWhich = Annotated[
    str | None,
    typer.Option("--check", metavar="CHECK", help=_("Which roll: test (default) or oppose.")),
]
CellRuns = Annotated[int, count_option("--runs", 1, MAX_RUNS, _("How many runs."))]


def rule_options(system: System, variant: str | None) -> dict[str, str]:
    """The rule options a ``--variant`` names, checked by the system's lab adapter."""
    from meneur.lab.adapter import adapter_for

    chosen: dict[str, str] = adapter_for(system).parse_variant(variant or "")
    return chosen


def _exact_cell(
    adapter: Adapter, name: str, chosen: dict[str, str], at: tuple[Any, Any, Any], params: Any
) -> dict[str, Fraction] | None:
    """One cell's exact odds, with a bar on standard error while what they read is built
    (when that takes over a second)."""
    from meneur.lab.progress import LazyBar

    bar = LazyBar(0, _("Exact odds"))
    try:
        adapter.prepared(name, params, bar)
        found: dict[str, Fraction] | None = adapter.cell(name, chosen, *at)
    finally:
        bar.stop()
    return found


def simulate_cell(
    system: System,
    cell: CellOptions,
    chosen: dict[str, str],
    run: SweepRun,
    *,
    chunk_of: Callable[[str, Any], Any] | None = None,
    chance: int = 0,
    values_label: str | None = None,
) -> None:
    """Many rolls of one cell of ``meneur table``, vectorised, beside its exact odds.

    ``cell`` names it (one row in ``rows``, one column in ``cols``, ``panel``,
    ``check``), ``chosen`` its rule options. ``chunk_of(check, params)`` may give the
    system's own chunk for a roll (None: the check's vectorised form); ``chance`` is
    what it spends, if anything; ``values_label`` the words of a roll's value on the
    plot (« Résultat » by default).
    """
    from meneur.cli.output import console, print_json
    from meneur.lab.adapter import adapter_for
    from meneur.lab.plot import check_path

    adapter = adapter_for(system)
    runs, seed, plot, as_json = run.runs, run.seed, run.plot, run.as_json
    if cell.rows is None or cell.cols is None:
        raise UsageError(N_("Name the cell to simulate: --row and --col (as in meneur table)."))
    if plot is not None:
        check_path(plot)
    name = adapter.check_name(cell.check)
    panels, rows, columns = adapter.named_axes(name, chosen, cell.rows, cell.cols, cell.panel)
    for flag, axis, typed in (
        ("--row", rows, cell.rows),
        ("--col", columns, cell.cols),
        ("--panel", panels, cell.panel),
    ):
        if typed is not None and len(axis.values) > 1:  # only the first was simulated
            raise UsageError(
                N_("One cell is simulated: {flag} names {count} values (meneur simulate sweep "
                   "takes several)."),
                flag=flag,
                count=len(axis.values),
            )  # fmt: skip
    at = (panels.values[0], rows.values[0], columns.values[0])
    from meneur.lab.simulate import cell_chunk, run_chunks

    params = adapter.params_at(name, chosen, *at)
    one = chunk_of(name, params) if chunk_of is not None else None
    if one is None:
        vector = adapter.check(name).vectorised(params)
        if vector is None:
            raise UsageError(
                N_("No vectorised resolve for this roll yet (it is left to exact odds).")
            )
        one = cell_chunk(vector)
    tally = run_chunks(runs, one, seed=seed, description=_("Tests"))
    measures = adapter.measures(name)
    exact = _exact_cell(adapter, name, chosen, at, params)
    p_exact = None if exact is None else exact[measures[0].name]
    rate = tally.rate("success")
    values = tally.histograms.get("values", {})
    data: dict[str, Any] = {
        "system": system.name,
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
        "exact_fraction": None if p_exact is None else fraction_text(p_exact),
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
            _("{system}: {runs} rolls of one cell").format(system=system.title, runs=tally.runs),
            values_label or _("Outcome"),
        )
        data["plot"] = str(plot)
    if as_json:
        print_json(data)
        return
    from meneur.lab.render import print_ending
    from meneur.locale.numbers import decimal, grouped, percent
    from meneur.locale.numbers import exact as exact_text

    out = console()
    low, high = rate["interval_95"]
    out.print(
        ngettext(
            "{runs} roll: {measure} {rate} (95 % interval {low} to {high})",
            "{runs} rolls: {measure} {rate} (95 % interval {low} to {high})",
            tally.runs,
        ).format(
            runs=grouped(tally.runs),
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
        out.print(exact_label.format(p=percent(p_exact, 2), fraction=exact_text(p_exact)))
    if chance:
        out.print(
            _("Chance spent: {mean} on average").format(mean=decimal(data["chance_spent_mean"]))
        )
    speed = round(tally.runs / max(tally.seconds, 1e-9))
    out.print(
        ngettext("{rate} roll per second", "{rate} rolls per second", speed).format(
            rate=grouped(speed)
        )
    )
    print_ending(out, tally.interrupted, None)  # (this command never named its plot file)


CELL_TEST_HELP = N_("Simulate one cell of a table beside its exact odds.")
"""The help line of every system's ``simulate test``."""


def cell_test_command(
    system: Callable[[], System], values_label: Callable[[], str] | None = None
) -> Callable[..., None]:
    """A ``simulate test`` command for a system that adds no option of its own.

    ``system`` gives the system when the command runs (its module loads lazily);
    ``values_label`` the words of a roll's value, translated when shown (default:
    « Résultat »).
    """

    def test_command(
        check: CellWhich = None,
        row: CellRow = None,
        col: CellCol = None,
        panel: CellPanel = None,
        variant: CellRuleOptions = None,
        runs: CellRuns = 1_000_000,
        seed: Seed = None,
        plot: Plot = None,
        as_json: Json = False,
    ) -> None:
        """Many rolls of one cell of ``meneur table``, vectorised, beside its exact odds."""
        found = system()
        simulate_cell(
            found,
            CellOptions(check, row, col, panel),
            rule_options(found, variant),
            SweepRun(runs, seed, None, None, plot, as_json),
            values_label=values_label() if values_label else None,
        )

    return test_command


__all__ = [
    "CELL_TEST_HELP",
    "MAX_RUNS",
    "MAX_SWEEP_POINTS",
    "CellCheck",
    "CellCol",
    "CellOptions",
    "CellPanel",
    "CellRow",
    "CellRuleOptions",
    "CellRuns",
    "CellWhich",
    "Cols",
    "Panel",
    "Plot",
    "Rows",
    "Runs",
    "Scheduler",
    "SweepRun",
    "SweepRuns",
    "Variant",
    "Workers",
    "cell_test_command",
    "choice",
    "count_option",
    "plot_fight",
    "print_fight_ending",
    "print_victory",
    "rule_options",
    "run_policies",
    "simulate_cell",
    "sweep",
    "sweep_cells",
]
