"""The design lab's commands: ``table``, ``compare`` and ``simulate``.

Only the command the user typed gets its full options (start-up stays fast); numpy,
matplotlib and the systems' odds load inside the command bodies.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from meneur.cli.params import ForceOpt, Json, Seed, int_parser, listed
from meneur.errors import UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.locale.numbers import fraction_text, grouped
from meneur.systems.base import CommandGroups, System
from meneur.text import visible

COMMANDS = ("table", "compare", "simulate")


def _systems_help() -> str:
    """``SYSTEM``'s help: the registered systems' names (the CLI reads them, never spells
    them)."""
    from meneur.systems.registry import SYSTEMS

    return _("The system: {names}.").format(names=", ".join(s.name for s in SYSTEMS))


SystemArg = Annotated[str, typer.Argument(metavar="SYSTEM", help=_systems_help())]
CheckOpt = Annotated[
    str | None,
    typer.Option(
        "--check",
        metavar="CHECK",
        help=_(
            "Which roll: test (default) or oppose; compare also takes fight, where the "
            "system offers fights."
        ),
    ),
]
RowsOpt = Annotated[
    str | None,
    typer.Option(
        "--rows",
        metavar="1..10",
        parser=listed,
        help=_("The rows: the system's own (dice, bonus...), as 1..10 or 2,4,6."),
    ),
]
ColsOpt = Annotated[
    str | None,
    typer.Option(
        "--cols",
        metavar="1..10",
        parser=listed,
        help=_(
            "The columns: the system's own (threshold, difficulty, opposing dice or bonus, "
            "opposition level...), as 1..10 or 2,4,6."
        ),
    ),
]
PanelsOpt = Annotated[
    str | None,
    typer.Option(
        "--panels",
        metavar="P,P",
        parser=listed,
        help=_(
            "Which panels: the system's own (modes and policies such as blessed/needed, "
            "circumstances such as 0,2...)."
        ),
    ),
]
CsvOpt = Annotated[bool, typer.Option("--csv", help=_("Print the table as CSV."))]
PlotOpt = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help=_("Also draw the table in FILE (.png or .svg).")),
]
KindOpt = Annotated[
    str,
    typer.Option(
        "--kind",
        metavar="curves|heatmap|distribution",
        help=_(
            "The kind of output: curves or heatmap of the grid, or the exact distribution "
            "of one cell."
        ),
    ),
]


def system_named(name: str) -> System:
    """The registered system ``name``: the CLI looks systems up, the lab is handed them."""
    from meneur.systems.registry import find_system

    return find_system(name)


def _adapter(system: str) -> Any:
    from meneur.lab.adapter import adapter_for

    return adapter_for(system_named(system))


def _title(adapter: Any, check: str) -> str:
    return _("{system}: {check}, exact odds").format(system=adapter.owner.title, check=check)


def _check_kind(kind: str) -> str:
    if kind not in ("curves", "heatmap", "distribution"):
        raise UsageError(N_("A plot is curves, heatmap or distribution, not '{kind}'."), kind=kind)
    return kind


def _distribution(
    adapter: Any,
    check: str | None,
    variant: dict[str, str],
    rows: str | None,
    cols: str | None,
    panels: str | None,
    as_csv: bool,
    as_json: bool,
    plot: Path | None,
) -> None:
    """The exact law of one cell (the first row, column and panel named)."""
    from meneur.cli.output import console, print_json
    from meneur.lab.progress import LazyBar

    bar = LazyBar(0, _("Exact odds"))
    try:
        params, law = adapter.distribution(check, variant, rows, cols, panels, progress=bar)
    finally:
        bar.stop()
    name = adapter.check_name(check)
    title = _("{system}: {check}, exact distribution").format(
        system=adapter.owner.title, check=name
    )
    if plot is not None:
        from meneur.lab.plot import plot_distribution

        plot_distribution(
            {adapter.outcome_words(name, label): float(p) for label, p in law},
            plot,
            title,
            _("Outcome"),
        )
    if as_json:
        data: dict[str, Any] = {
            "system": adapter.system,
            "check": name,
            "variant": variant,
            "params": repr(params),
            "distribution": [
                {"outcome": label, "p": float(p), "exact": fraction_text(p)} for label, p in law
            ],
        }
        if plot is not None:
            data["plot"] = str(plot)
        print_json(data)
        return
    if as_csv:
        print("outcome,p")
        for label, p in law:
            print(f"{label},{float(p):.12g}")
        return
    from rich.table import Table

    from meneur.lab.render import print_ending
    from meneur.locale.numbers import exact, percent

    table = Table(title=title, title_style="bold")
    table.add_column(_("Outcome"), justify="right")
    table.add_column("%", justify="right")
    table.add_column(_("Exact"), justify="right")
    for label, p in law:
        table.add_row(adapter.outcome_words(name, label), percent(p, 2), exact(p))
    out = console()
    out.print(table)
    print_ending(out, False, plot)  # exact odds: never cut short


def table_command(
    system: SystemArg,
    check: CheckOpt = None,
    rows: RowsOpt = None,
    cols: ColsOpt = None,
    panels: PanelsOpt = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            metavar="OPTION=VALUE",
            parser=listed,
            help=_("Rule options, such as explode=always,sixes=all."),
        ),
    ] = None,
    as_csv: CsvOpt = False,
    as_json: Json = False,
    plot: PlotOpt = None,
    kind: KindOpt = "curves",
) -> None:
    """Exact odds over a grid, from the system's own odds."""
    from meneur.cli.output import console, print_json
    from meneur.lab.plot import check_path, plot_grid

    if as_csv and as_json:
        raise UsageError(N_("Choose --csv or --json, not both."))
    _check_kind(kind)
    if plot is not None:
        check_path(plot)
    adapter = _adapter(system)
    chosen = adapter.parse_variant(variant or "")
    if kind == "distribution":
        _distribution(adapter, check, chosen, rows, cols, panels, as_csv, as_json, plot)
        return
    from meneur.lab.progress import LazyBar

    bar = LazyBar(0, _("Exact odds"))
    try:
        grid = adapter.grid(check, chosen, rows, cols, panels, progress=bar)
    finally:
        bar.stop()
    title = _title(adapter, grid.check)
    if plot is not None:
        plot_grid(grid, plot, title, kind)
    if as_json:
        data = grid.to_json()
        if plot is not None:
            data["plot"] = str(plot)
        print_json(data)
    elif as_csv:
        print(grid.to_csv(), end="")
    else:
        from meneur.lab.render import print_ending, render_grid

        out = console()
        render_grid(out, grid, title)
        print_ending(out, grid.interrupted, plot)


def compare_command(
    system: SystemArg,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            metavar="OPTION=VALUE",
            parser=listed,
            help=_(
                "A variant (give it twice): rule options such as explode=always. "
                "An empty one is the default rules."
            ),
        ),
    ] = None,
    check: CheckOpt = None,
    rows: RowsOpt = None,
    cols: ColsOpt = None,
    panels: PanelsOpt = None,
    as_csv: CsvOpt = False,
    as_json: Json = False,
    plot: PlotOpt = None,
    endurance: Annotated[
        int,
        typer.Option(
            "--endurance",
            metavar="N",
            parser=int_parser(1, 10_000),
            help=_("--check fight: the character's Endurance."),
        ),
    ] = 8,
    runs: Annotated[
        int,
        typer.Option(
            "--runs",
            parser=int_parser(1, 10**8),
            metavar="N",
            help=_("--check fight: fights per cell and variant."),
        ),
    ] = 20_000,
    seed: Seed = None,
) -> None:
    """Two variants of the rules side by side, with the difference (odds, or fights)."""
    from meneur.cli.output import console, print_json
    from meneur.lab.compare import compare_grids
    from meneur.lab.plot import check_path, plot_compare

    if as_csv and as_json:
        raise UsageError(N_("Choose --csv or --json, not both."))
    variants = list(variant or [])
    if len(variants) != 2:
        raise UsageError(
            N_("Give exactly two --variant options (an empty one is the default rules).")
        )
    if plot is not None:
        check_path(plot)
    adapter = _adapter(system)
    if check == "fight":  # Monte Carlo: the fight options (loss, tie) matter here
        from meneur.lab.compare import compare_fights

        if not adapter.compares_fights() and "fight" in simulate_commands(adapter.owner):
            raise UsageError(
                N_("{system} has no fights to compare; try meneur simulate fight {name}."),
                system=adapter.owner.title,
                name=adapter.system,
            )

        result = compare_fights(
            adapter,
            variants[0],
            variants[1],
            rows,
            cols,
            endurance=endurance,
            runs=runs,
            seed=seed,
        )
        labels = result.labels()
        title = _("{system}: {a} against {b}").format(
            system=_("{system}: fights won (Endurance {endurance}, {runs} fights a cell)").format(
                system=adapter.owner.title, endurance=endurance, runs=grouped(runs)
            ),
            a=labels[0],
            b=labels[1],
        )
    else:
        result = compare_grids(adapter, variants[0], variants[1], check, rows, cols, panels)
        labels = result.labels()
        title = _("{system}: {a} against {b}").format(
            system=_title(adapter, result.a.check), a=labels[0], b=labels[1]
        )
    if plot is not None:
        plot_compare(result.a, result.b, labels, plot, title)
    if as_json:
        data = result.to_json()
        if plot is not None:
            data["plot"] = str(plot)
        print_json(data)
    elif as_csv:
        print(result.to_csv(), end="")
    else:
        from meneur.lab.render import print_ending, render_compare

        out = console()
        render_compare(out, result.a, result.b, title)
        print_ending(out, result.a.interrupted or result.b.interrupted, plot)


def simulate_commands(system: System) -> tuple[str, ...]:
    """The ``meneur simulate`` groups (``fight``, ``policy``, ``sweep``, ``test``) where
    ``system`` registers a command, read from its ``register_lab_cli`` hook: a message
    suggests only a command that exists (a system may simulate no fight)."""

    class Recorded(CommandGroups):
        def __init__(self) -> None:
            self.groups: dict[tuple[str, ...], typer.Typer] = {}

        def group(self, *path: str) -> typer.Typer:
            return self.groups.setdefault(path, typer.Typer())

    recorded = Recorded()
    system.register_lab_cli(recorded)
    return tuple(
        path[1]
        for path, group in recorded.groups.items()
        if len(path) == 2
        and path[0] == "simulate"
        and any(command.name == system.name for command in group.registered_commands)
    )


def add_odds_plot(command: Any) -> None:
    """Give every system's ``odds`` command a ``--plot FILE`` option (PNG or SVG).

    Called once on the built command tree (``meneur.cli.main.run``), so that no system's
    command needs to know about plots: the option is added to each ``odds SYSTEM``
    command and the odds it emits are drawn by :func:`meneur.lab.odds_plot.plot_odds`.
    Only the ``odds`` group is touched; without it (another command) nothing happens.
    """
    group = getattr(command, "commands", {}).get("odds")
    for name, sub in getattr(group, "commands", {}).items():
        if sub.callback is None or any(param.name == "plot" for param in sub.params):
            continue
        sub.params.append(_plot_option())
        sub.callback = _with_plot(name, sub.callback)


def _plot_option() -> Any:
    """The ``--plot FILE`` option as Typer builds it (:func:`_carried`)."""

    def odds_plot(
        plot: Annotated[
            Path | None,
            typer.Option(
                "--plot", metavar="FILE", help=_("Also draw the odds in FILE (.png or .svg).")
            ),
        ] = None,
    ) -> None:
        """Carries the option only."""

    return _carried(odds_plot, "plot")


def _carried(carrier: Any, name: str) -> Any:
    """The option ``name`` of the function ``carrier`` as Typer builds it: a command of
    one option, built only to take that option onto commands already built."""
    app = typer.Typer()
    app.command()(carrier)
    return next(p for p in typer.main.get_command(app).params if p.name == name)


def _with_plot(system: str, callback: Any) -> Any:
    """``callback`` with ``--plot``: the odds it emits are drawn before being printed.

    The system's command prints through ``meneur.cli.output.emit``; while it runs, a hook
    (:func:`meneur.cli.output.on_emit`) draws the data first and adds ``"plot"`` to it.
    """

    def run(**options: Any) -> Any:
        plot = options.pop("plot", None)
        if plot is None:
            return callback(**options)
        from meneur.cli import output
        from meneur.lab.odds_plot import plot_odds
        from meneur.lab.plot import check_path

        target = check_path(plot)
        drawn: list[Path] = []

        def draw(data: dict[str, Any]) -> None:
            if not drawn:
                drawn.append(plot_odds(system_named(system), data, options, target))
                data["plot"] = str(target)

        with output.on_emit(draw):
            result = callback(**options)
        if drawn and not options.get("as_json"):
            said = _("Plot written to {path}.").format(path=visible(str(target)))
            output.console().print(said, markup=False)
        return result

    return run


def add_plot_force(command: Any) -> None:
    """Give every command of the tree that draws a plot (``--plot FILE``) ``--force``.

    A plot is a file like every other that meneur writes (``--out``, ``log --export``):
    an existing file is replaced only with ``--force`` (a plot replaced any file in
    silence), refused before any work is done. Called on the built command tree
    (``meneur.cli.main.run``) after :func:`add_odds_plot`, so that neither the lab nor a
    system's ``simulate`` command repeats it; a command that has its own ``--force`` is
    left as it is.
    """
    for sub in getattr(command, "commands", {}).values():
        add_plot_force(sub)
        names = {param.name for param in sub.params}
        if sub.callback is None or "plot" not in names or "force" in names:
            continue
        sub.params.append(_force_option())
        sub.callback = _refusing_a_plot_file(sub.callback)


def _force_option() -> Any:
    """The ``--force`` option as Typer builds it (:func:`_carried`)."""

    def plot_force(force: ForceOpt = False) -> None:
        """Carries the option only."""

    return _carried(plot_force, "force")


def _refusing_a_plot_file(callback: Any) -> Any:
    """``callback``, run only once its ``--plot`` file is known to be writable: a new
    file, or an existing one with ``--force``."""

    def run(**options: Any) -> Any:
        force = options.pop("force", False)
        plot = options.get("plot")
        if plot is not None:
            from meneur.cli.newcharacter import check_out
            from meneur.lab.plot import check_path

            check_out(check_path(plot), force)
        return callback(**options)

    return run


def _placeholder() -> None:
    """Shown in ``meneur --help`` only; the real command is built when typed."""


def register(app: typer.Typer, groups: CommandGroups, wanted: Sequence[str] = ()) -> None:
    """Add ``table``, ``compare`` and ``simulate`` (full options only when typed).

    ``simulate fight|policy|sweep|test`` are groups each system fills through
    ``register_cli``; they exist even when the system named offers nothing there, so
    that it is refused as an unknown command.
    """
    first = wanted[0] if wanted else ""
    table_help = _("Exact odds over a grid (dice × threshold...), as a table, CSV, JSON or a plot.")
    compare_help = _("Compare two variants of the rules: odds side by side with the difference.")
    app.command("table", help=table_help)(table_command if first == "table" else _placeholder)
    app.command("compare", help=compare_help)(
        compare_command if first == "compare" else _placeholder
    )
    if first == "simulate":
        for group in ("fight", "policy", "sweep", "test"):
            groups.group("simulate", group)


__all__ = ["COMMANDS", "Seed", "add_odds_plot", "int_parser", "register"]
