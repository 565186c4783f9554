"""``meneur simulate test SYSTEM`` (numpy, chunked).

``meneur simulate fight|policy|sweep SYSTEM`` are each system's own (``systems/<name>/lab_cli.py``),
registered through ``register_cli``; the pieces they share are in :mod:`.labkit`.
"""

from __future__ import annotations

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
# "Not given" (None): the value then comes from --variant.
_EXPLODE = typer.Option(
    "--explode", metavar="POLICY", help=_("Explosion policy: never, always or needed.")
)
_SIXES = typer.Option(
    "--sixes", metavar="batch|all", help=_("Three 6s in one batch (T-7) or over all dice.")
)
ExplodeOrVariant = Annotated[str | None, _EXPLODE]
SixesOrVariant = Annotated[str | None, _SIXES]


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
        from meneur.systems.tunnels.lab import tunnels_chance_chunk

        one = tunnels_chance_chunk(params, chance, chance_all)
    elif found.name == "tunnels" and name == "test":
        from meneur.systems.tunnels.lab import as_cell_chunk, tunnels_test_chunk

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


def register_simulate(group: typer.Typer) -> None:
    """Add ``simulate test``."""
    group.command(
        "test", help=_("Simulate one cell of a table beside its exact odds (every system).")
    )(test_command)
