"""Plots with matplotlib (Agg, imported only when a plot is asked for): PNG or SVG.

Every figure has a title and axes in the user's language, probabilities in percent and
a legend. Curves: one line per column value along the rows; heatmaps: the grid itself,
each cell annotated; comparisons: variant A solid, variant B dashed; fights: survival
curves (P(still standing) by round) beside the distribution of the fight's length.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meneur.errors import UsageError
from meneur.files import cannot_write, check_writable
from meneur.lab.grid import Grid
from meneur.locale import N_
from meneur.locale import gettext as _

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = (".png", ".svg")
MAX_LINES = 12


def check_path(path: str | Path) -> Path:
    """A PNG or SVG file in an existing directory; checked before any work is done."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise UsageError(N_("A plot is written as .png or .svg, not '{name}'."), name=target.name)
    try:
        folder = target.parent.is_dir()
    except OSError:  # a folder name too long is no folder either
        folder = False
    if not folder:
        raise UsageError(N_("No directory {path} to write the plot in."), path=str(target.parent))
    check_writable(target)  # a name too long, a read-only folder: said before the work
    return target


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _percent_axis(axis: Any) -> None:
    from matplotlib.ticker import FuncFormatter

    from meneur.locale.numbers import percent

    def label(value: float, _position: Any) -> str:
        whole = abs(value * 100 - round(value * 100)) < 1e-9  # 2.5 % must not read "2 %"
        return percent(value, 0 if whole else 1)

    axis.set_major_formatter(FuncFormatter(label))


def _integer_ticks(axis: Any) -> None:
    """Whole numbers only on an axis of dice, thresholds or rounds.

    ``min_n_ticks=1``: with its default (2), MaxNLocator gives up on whole numbers when
    the view holds fewer than two of them, as it does around a single row (one pool of
    3 dice: ticks 2.8, 3.0, 3.2, fractional dice)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def _label_bars(axis: Any, bars: Any, values: Sequence[float], least: float | None = None) -> None:
    """Write each bar's percentage just above it, in the one style of every bar chart
    (``simulate test``'s outcomes, ``odds --plot``); bars under ``least`` stay unlabelled."""
    from meneur.locale.numbers import percent

    for bar, value in zip(bars, values, strict=True):
        if least is None or value >= least:
            axis.text(
                bar.get_x() + bar.get_width() / 2,
                value,
                percent(value, 1),
                ha="center",
                va="bottom",
                fontsize=7,
            )


def _save(figure: Figure, path: Path) -> Path:
    try:
        figure.savefig(path, dpi=110, bbox_inches="tight")
    except OSError as error:  # the folder went away or filled up since check_path
        raise cannot_write(str(path), error) from None
    finally:
        _pyplot().close(figure)
    return path


def _layout(count: int) -> tuple[int, int]:
    """(rows, columns) of subplots for ``count`` panels, three to a row. No panel is
    refused: the adapters refuse panels that select nothing, this keeps any other caller
    from a figure of nothing (or a division by zero)."""
    if count < 1:
        raise UsageError(N_("Nothing to plot: the table has no panel."))
    columns = min(3, count)
    return math.ceil(count / columns), columns


def _columns_shown(grid: Grid) -> list[int]:
    """At most MAX_LINES columns, evenly picked, so that the legend stays readable."""
    total = len(grid.columns.values)
    if total <= MAX_LINES:
        return list(range(total))
    step = total / MAX_LINES
    return sorted({int(i * step) for i in range(MAX_LINES)})


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def plot_grid(
    grid: Grid, path: str | Path, title: str, kind: str = "curves", measure: int = 0
) -> Path:
    """Success curves (one line per column) or a heatmap, one subplot per panel."""
    target = check_path(path)
    plt = _pyplot()
    panels = len(grid.panels.values)
    nrows, ncols = _layout(panels)
    figure, axes = plt.subplots(
        nrows, ncols, figsize=(5.2 * ncols, 4.0 * nrows), squeeze=False, sharey=kind == "curves"
    )
    name = grid.measures[measure].name
    rows_numeric = _numeric(grid.rows.values)
    for panel in range(nrows * ncols):
        ax = axes[panel // ncols][panel % ncols]
        if panel >= panels:
            ax.axis("off")
            continue
        ax.set_title(grid.panels.label_of(panel), fontsize=10)
        if kind == "heatmap":
            _heatmap(ax, grid, panel, name)
            continue
        xs = list(grid.rows.values) if rows_numeric else list(range(len(grid.rows.values)))
        cmap = plt.get_cmap("viridis")
        shown = _columns_shown(grid)
        for i, c in enumerate(shown):
            ys = [
                float(grid.cells[(panel, r, c)][name]) if (panel, r, c) in grid.cells else math.nan
                for r in range(len(grid.rows.values))
            ]
            ax.plot(
                xs,
                ys,
                marker="o",
                markersize=3,
                color=cmap(i / max(1, len(shown) - 1)),
                label=f"{_(grid.columns.label)} {grid.columns.label_of(c)}",
            )
        if not rows_numeric:
            ax.set_xticks(xs, [grid.rows.label_of(r) for r in range(len(xs))])
        else:
            _integer_ticks(ax.xaxis)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.set_xlabel(_(grid.rows.label))
        ax.set_ylabel(_(grid.measures[measure].label))
        _percent_axis(ax.yaxis)
    if kind == "curves":
        handles, labels = axes[0][0].get_legend_handles_labels()
        figure.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=9)
    figure.suptitle(title, fontsize=12, fontweight="bold")
    figure.tight_layout()
    return _save(figure, target)


def _heatmap(ax: Any, grid: Grid, panel: int, name: str) -> None:
    from meneur.locale.numbers import percent

    rows, cols = len(grid.rows.values), len(grid.columns.values)
    data = [
        [
            float(grid.cells[(panel, r, c)][name]) if (panel, r, c) in grid.cells else math.nan
            for c in range(cols)
        ]
        for r in range(rows)
    ]
    image = ax.imshow(data, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(cols), [grid.columns.label_of(c) for c in range(cols)], fontsize=8)
    ax.set_yticks(range(rows), [grid.rows.label_of(r) for r in range(rows)], fontsize=8)
    ax.set_xlabel(_(grid.columns.label))
    ax.set_ylabel(_(grid.rows.label))
    if rows * cols <= 150:
        for r in range(rows):
            for c in range(cols):
                value = data[r][c]
                if not math.isnan(value):
                    ax.text(
                        c,
                        r,
                        percent(value, 0).replace(" %", ""),
                        ha="center",
                        va="center",
                        fontsize=7,
                    )
    colorbar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    colorbar.set_label(_("Probability"))
    _percent_axis(colorbar.ax.yaxis)


def plot_compare(
    a: Grid, b: Grid, labels: tuple[str, str], path: str | Path, title: str, measure: int = 0
) -> Path:
    """Both variants' curves in one figure per panel: A solid, B dashed, same colours."""
    target = check_path(path)
    plt = _pyplot()
    panels = len(a.panels.values)
    nrows, ncols = _layout(panels)
    figure, axes = plt.subplots(
        nrows, ncols, figsize=(5.2 * ncols, 4.0 * nrows), squeeze=False, sharey=True
    )
    name = a.measures[measure].name
    numeric = _numeric(a.rows.values)
    cmap = plt.get_cmap("viridis")
    shown = _columns_shown(a)[:8]
    for panel in range(nrows * ncols):
        ax = axes[panel // ncols][panel % ncols]
        if panel >= panels:
            ax.axis("off")
            continue
        first, second = a.panels.label_of(panel), b.panels.label_of(panel)
        ax.set_title(first if first == second else f"{first} / {second}", fontsize=10)
        xs = list(a.rows.values) if numeric else list(range(len(a.rows.values)))
        for i, c in enumerate(shown):
            colour = cmap(i / max(1, len(shown) - 1))
            for grid, style, label in ((a, "-", labels[0]), (b, "--", labels[1])):
                ys = [
                    float(grid.cells[(panel, r, c)][name])
                    if (panel, r, c) in grid.cells
                    else math.nan
                    for r in range(len(grid.rows.values))
                ]
                ax.plot(
                    xs,
                    ys,
                    style,
                    marker="o",
                    markersize=3,
                    color=colour,
                    label=f"{label} · {_(a.columns.label)} {a.columns.label_of(c)}",
                )
        if not numeric:
            ax.set_xticks(xs, [a.rows.label_of(r) for r in range(len(xs))])
        else:
            _integer_ticks(ax.xaxis)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.set_xlabel(_(a.rows.label))
        ax.set_ylabel(_(a.measures[measure].label))
        _percent_axis(ax.yaxis)
    handles, names = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, names, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    figure.suptitle(title, fontsize=12, fontweight="bold")
    figure.tight_layout()
    return _save(figure, target)


def plot_distribution(
    probabilities: Mapping[str, float], path: str | Path, title: str, xlabel: str
) -> Path:
    """Bars of an outcome distribution, each labelled with its percentage."""
    target = check_path(path)
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(max(5.0, 0.6 * len(probabilities) + 2), 4.0))
    keys = list(probabilities)
    values = [probabilities[k] for k in keys]
    bars = ax.bar(range(len(keys)), values, color="#4c72b0", label=_("Probability"))
    # many bars, or long words (« a l'emporte, par le meilleur total »): slanted labels,
    # which would overlap side by side
    crowded = len(keys) > 8 or sum(len(k) for k in keys) > 8 * max(5, len(keys))
    ax.set_xticks(
        range(len(keys)),
        keys,
        rotation=30 if crowded else 0,
        ha="right" if crowded else "center",
        rotation_mode="anchor",
        fontsize=8,
    )
    _label_bars(ax, bars, values)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_("Probability"))
    _percent_axis(ax.yaxis)
    ax.legend()
    ax.set_title(title, fontweight="bold")
    figure.tight_layout()
    return _save(figure, target)


def plot_fight(
    survival: Mapping[str, Sequence[float]],
    rounds: Mapping[int, float],
    path: str | Path,
    title: str,
) -> Path:
    """Survival curves (P(still standing) after each round) and the length of fights."""
    target = check_path(path)
    plt = _pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (label, curve), colour in zip(
        survival.items(), ("#4c72b0", "#dd5555", "#55a868"), strict=False
    ):
        left.step(range(len(curve)), curve, where="post", color=colour, label=label, linewidth=2)
    left.set_ylim(-0.02, 1.02)
    left.set_xlabel(_("Round"))
    _integer_ticks(left.xaxis)
    left.set_ylabel(_("Still standing"))
    left.set_title(_("Survival by round"))
    left.grid(alpha=0.3)
    left.legend()
    _percent_axis(left.yaxis)
    xs = sorted(rounds)
    right.bar(xs, [rounds[x] for x in xs], color="#8172b2", label=_("Fights ending at this round"))
    right.set_xlabel(_("Rounds to the end"))
    _integer_ticks(right.xaxis)
    right.set_ylabel(_("Probability"))
    right.set_title(_("Length of the fight"))
    right.grid(alpha=0.3, axis="y")
    right.legend()
    _percent_axis(right.yaxis)
    figure.suptitle(title, fontsize=12, fontweight="bold")
    figure.tight_layout()
    return _save(figure, target)


def plot_policies(
    rows: Sequence[Mapping[str, Any]], path: str | Path, title: str, xlabel: str
) -> Path:
    """Each policy's success rate, its 95 % interval as an error bar, the mean spent."""
    from meneur.locale.numbers import decimal, percent

    target = check_path(path)
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(7.5, 1.2 + 0.7 * len(rows)))
    names = [str(row["policy"]) for row in rows]
    rates = [float(row["success_rate"]) for row in rows]
    low = [
        rate - float(row["success_interval_95"][0]) for rate, row in zip(rates, rows, strict=True)
    ]
    high = [
        float(row["success_interval_95"][1]) - rate for rate, row in zip(rates, rows, strict=True)
    ]
    colours = ["#b0b0b0"] + ["#4c72b0"] * (len(rows) - 1)
    ax.barh(
        range(len(rows)),
        rates,
        xerr=[low, high],
        color=colours,
        capsize=4,
        label=_("Success (95 % interval)"),
    )
    for i, (rate, row) in enumerate(zip(rates, rows, strict=True)):
        inside = rate > 0.6  # long bars carry their label inside, in white
        ax.text(
            rate - 0.02 if inside else rate + high[i] + 0.02,
            i,
            _("{p}, {spent} spent").format(
                p=percent(rate, 1), spent=decimal(float(row["spent_mean"]))
            ),
            va="center",
            ha="right" if inside else "left",
            color="white" if inside else "black",
            fontsize=8,
        )
    ax.set_yticks(range(len(rows)), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_("Policy"))
    ax.grid(alpha=0.3, axis="x")
    ax.legend(loc="lower right", fontsize=8)
    _percent_axis(ax.xaxis)
    ax.set_title(title, fontweight="bold")
    figure.tight_layout()
    return _save(figure, target)
