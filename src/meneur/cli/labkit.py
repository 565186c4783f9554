"""The lab's command toolkit: the options and endings every simulation command shares.

Each system writes its own ``meneur simulate ...`` commands (``systems/<name>/lab_cli.py``)
with these pieces, so that the runs, the seed, the plot and the way a fight simulation
ends read the same in every system, and the CLI itself names no system.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from meneur.cli.params import int_parser
from meneur.errors import UsageError
from meneur.locale import N_
from meneur.locale import gettext as _

MAX_RUNS = 10**10
"""Runs are chunked (constant memory): 10^10 is hours, not a crash."""


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
            value=value[:40],
            known=", ".join(known),
        )
    return value


def print_fight_ending(out: Any, data: dict[str, Any], tally: Any, plot: Path | None) -> None:
    """The lines every fight simulation ends with: cut fights, an interruption, the plot."""
    from meneur.lab.render import print_ending

    if data["unfinished"]:
        out.print(_("{count} fights stopped at the round limit.").format(count=data["unfinished"]))
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
    from meneur.lab.render import percent

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

    from meneur.lab.render import decimal, percent, print_ending

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


__all__ = [
    "MAX_RUNS",
    "Plot",
    "Runs",
    "choice",
    "count_option",
    "plot_fight",
    "print_fight_ending",
    "print_victory",
    "run_policies",
]
