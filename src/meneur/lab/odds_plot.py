"""``meneur odds SYSTEM ... --plot FILE``: draw what an ``odds`` command printed.

Every system's ``odds`` command emits one JSON object carrying its exact law: a law of
``successes``, named ``outcomes``, or named probabilities ``p_*``. This module draws
that object, so that no system's command has to know about plots: bars of the outcome
distribution (the outcomes that pass in green, each bar labelled with its percentage)
and, where the check has a threshold or a difficulty, the success curve beside it
(P(success) at every threshold, the one asked for marked). What only a system knows
(which option is the threshold, a curve from its own exact grid, the words of its
outcomes) comes from its lab adapter's ``odds_*`` hooks; by default the threshold is
the JSON's ``difficulty`` and the curve the tail of the successes' law.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from meneur.lab.adapter import Adapter
from meneur.lab.plot import check_path
from meneur.locale import gettext as _
from meneur.systems.base import System

Curve = tuple[list[int], list[float], str, int, str]
"""A success curve: (xs, P(success) at each, x label, the x asked for, title)."""

PASS, FAIL, NEUTRAL, MARK = "#55a868", "#b0b0b0", "#4c72b0", "#dd5555"
MAX_CURVE = 30
"""The success curve goes up to this threshold at most (the exact engine's limit)."""


def _exact(data: Mapping[str, Any], key: str, value: Any) -> Fraction:
    """An exact probability of the JSON when it carries one, else its float."""
    exact = data.get("exact")
    if isinstance(exact, Mapping):
        found = exact.get(key)
        if isinstance(found, Mapping):
            return Fraction(str(found.get(value, 0)))
    return Fraction(float(value)).limit_denominator(10**12)


def odds_figure(
    data: Mapping[str, Any], options: Mapping[str, Any], adapter: Adapter | None = None
) -> dict[str, Any]:
    """What to draw: ``bars`` [(label, p, colour)], ``curve`` (xs, ys, x label, marked x,
    title), ``xlabel``.

    ``options`` are the command's own options (``threshold``, ``difficulty``...);
    ``adapter`` the system's lab adapter, whose hooks say what only the system knows.
    """
    figure: dict[str, Any] = {"bars": [], "curve": None, "xlabel": _("Outcome")}
    bars: list[tuple[str, float, str]] = figure["bars"]
    if isinstance(data.get("successes"), Mapping):
        figure["xlabel"] = _("Successes")
        needed = (adapter or Adapter).odds_needed(data, options)
        for key, p in data["successes"].items():
            count = int(key)
            passes = needed is not None and count >= int(needed)
            bars.append((str(count), float(p), PASS if passes else FAIL))
        curve = adapter.odds_curve(data, options) if adapter is not None else None
        if curve is None and needed is not None:
            curve = tail_curve(data, needed)
        figure["curve"] = curve
    elif isinstance(data.get("outcomes"), Mapping):  # named outcomes: won, lost, other
        for key, p in data["outcomes"].items():
            colour = PASS if key.startswith("win") else FAIL if key.startswith("loss") else NEUTRAL
            label = adapter.outcome_label(key) if adapter is not None else key
            bars.append((label, float(p), colour))
    elif "p_a" in data:  # an opposition that may end in a tie
        bars += [
            (_("a wins"), float(data["p_a"]), PASS),
            (_("b wins"), float(data["p_b"]), FAIL),
            (_("Tie"), float(data["p_tie"]), NEUTRAL),
        ]
    elif "p_a_wins" in data:  # an opposition that always has a winner
        bars += [
            (_("a wins"), float(data["p_a_wins"]), PASS),
            (_("b wins"), float(data["p_b_wins"]), FAIL),
        ]
    elif "p_success" in data:  # a success or a failure (a test, a cooperation)
        p = float(data["p_success"])
        bars += [(_("Success"), p, PASS), (_("Failure"), 1.0 - p, FAIL)]
        for key, value in (data.get("p_leader") or {}).items():
            bars.append((_("leader {n}").format(n=int(key) + 1), float(value), NEUTRAL))
    return figure


def tail_curve(data: Mapping[str, Any], difficulty: int) -> Curve:
    """P(at least d successes) for d = 1..top, where the difficulty only cuts the law."""
    law = {int(k): _exact(data, "successes", k) for k in data["successes"]}
    top = max(1, min(MAX_CURVE, max([difficulty, *law])))
    xs = list(range(1, top + 1))
    ys = [float(sum((p for k, p in law.items() if k >= d), Fraction(0))) for d in xs]
    return xs, ys, _("Difficulty"), difficulty, _("Success by difficulty")


def plot_odds(
    system: System, data: Mapping[str, Any], options: Mapping[str, Any], path: str | Path
) -> Path:
    """Draw the odds an ``odds`` command of ``system`` printed (bars, and the success
    curve if any)."""
    from meneur.lab.plot import _integer_ticks, _label_bars, _percent_axis, _pyplot, _save
    from meneur.locale.numbers import percent

    target = check_path(path)
    hooks = system.lab_adapter()
    figure_data = odds_figure(data, options, hooks if isinstance(hooks, Adapter) else None)
    bars, curve = figure_data["bars"], figure_data["curve"]
    plt = _pyplot()
    width = max(5.5, 0.55 * len(bars) + 2.5)
    if curve is not None:
        figure, (left, right) = plt.subplots(1, 2, figsize=(width + 5.5, 4.4))
    else:
        figure, left = plt.subplots(figsize=(width, 4.4))
        right = None
    labels = [label for label, _p, _c in bars]
    values = [p for _label, p, _c in bars]
    drawn = left.bar(range(len(bars)), values, color=[c for _l, _p, c in bars])
    long_labels = len(bars) > 8 or max((len(t) for t in labels), default=0) > 8
    left.set_xticks(
        range(len(bars)),
        labels,
        rotation=35 if long_labels else 0,
        ha="right" if long_labels else "center",
        fontsize=8,
    )
    _label_bars(left, drawn, values, least=0.0005)
    from matplotlib.patches import Patch

    colours = {c for _l, _p, c in bars}
    legend = [
        Patch(color=colour, label=label)
        for colour, label in (
            (PASS, _("Success")),
            (FAIL, _("Failure")),
            (NEUTRAL, _("Other outcome")),
        )
        if colour in colours
    ]
    if legend:
        left.legend(handles=legend, fontsize=8)
    left.set_xlabel(figure_data["xlabel"])
    left.set_ylabel(_("Probability"))
    left.set_title(_("Distribution of outcomes"))
    left.grid(alpha=0.3, axis="y")
    _percent_axis(left.yaxis)
    if right is not None:
        xs, ys, xlabel, marked, curve_title = curve
        right.plot(xs, ys, marker="o", markersize=4, color=NEUTRAL, label=_("P(success)"))
        if marked in xs:
            y = ys[xs.index(marked)]
            right.plot([marked], [y], "o", markersize=10, color=MARK, label=_("this roll"))
            right.annotate(
                percent(y, 1),
                (marked, y),
                textcoords="offset points",
                xytext=(8, 8),
                fontsize=9,
                color=MARK,
            )
        right.set_ylim(-0.02, 1.02)
        right.set_xlabel(xlabel)
        right.set_ylabel(_("Success"))
        right.set_title(curve_title)
        _integer_ticks(right.xaxis)
        right.grid(alpha=0.3)
        right.legend(fontsize=8)
        _percent_axis(right.yaxis)
    headline = ""
    if "p_success" in data:
        headline = " · " + _("success {p}").format(p=percent(float(data["p_success"]), 1))
    title = _("{system}: exact odds").format(system=system.title) + headline
    figure.suptitle(title, fontsize=12, fontweight="bold")
    figure.tight_layout()
    return _save(figure, target)
