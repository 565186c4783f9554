"""Odds tables over a grid: axes, cells of exact probabilities, JSON and CSV forms.

A grid is ``panels × rows × columns`` of cells; each cell holds a few named exact
probabilities (``Fraction``), the first one being the headline (the chance of success).
An adapter says what the axes mean for its system; this module only computes, stores
and serialises, the same way for every system.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count, repeat
from typing import Any

from meneur.errors import LimitError, UsageError
from meneur.locale import N_
from meneur.locale.numbers import fraction_text
from meneur.text import comma_items, fold, is_digits
from meneur.whole import is_whole, parse_whole

MAX_CELLS = 40_000
"""The most cells one table may hold (a guard: a typo must not start an hour of work).

The largest exact grid offered fits in one table: 60 dice × 60 thresholds × 9 panels
(3 modes × 3 explosion policies), 32,400 cells, a few seconds."""
MAX_AXIS = 200


@dataclass(frozen=True, slots=True)
class Axis:
    """One axis of a grid: its JSON name, its (translatable) label and its values."""

    name: str
    label: str
    values: tuple[Hashable, ...]
    labels: tuple[str, ...] = ()

    def label_of(self, index: int) -> str:
        return self.labels[index] if self.labels else str(self.values[index])


@dataclass(frozen=True, slots=True)
class Measure:
    """A named probability of a cell (``success``, ``critical``...) and its label."""

    name: str
    label: str


Variant = Mapping[str, str]
"""Rule options chosen by name (``{"explode": "always"}``); missing keys keep the default."""


class ExactCell(Mapping[str, Fraction]):
    """A cell's measures as integer weights over one total: exact, Fractions made on reading.

    A grid computed from integer laws (the fast rows of :mod:`meneur.lab.fastgrid`) keeps
    each probability as ``weight / total``; normalising hundreds of Fractions nobody reads
    would cost more than computing them. ``cell[name]`` is the exact ``Fraction``;
    :meth:`probability` is its float, correctly rounded (integer true division).
    """

    __slots__ = ("names", "total", "weights")

    def __init__(self, names: tuple[str, ...], weights: tuple[int, ...], total: int) -> None:
        self.names = names
        self.weights = weights
        self.total = total

    def __getitem__(self, key: str) -> Fraction:
        try:
            index = self.names.index(key)
        except ValueError:
            raise KeyError(key) from None
        return Fraction(self.weights[index], self.total)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def probability(self, key: str) -> float:
        return self.weights[self.names.index(key)] / self.total

    def __repr__(self) -> str:
        return f"ExactCell({dict(self)!r})"


def probability(cell: Mapping[str, Fraction], key: str) -> float:
    """A measure of a cell as a float (without building a Fraction when it need not)."""
    if isinstance(cell, ExactCell):
        return cell.probability(key)
    return float(cell[key])


Cell = Mapping[str, Fraction]


class FullRow(list[ExactCell]):
    """A row of cells with none missing (stored without looking for gaps)."""


@dataclass(frozen=True)
class Grid:
    """A computed table: axes, measures, and ``cells[(panel, row, column)]``."""

    system: str
    check: str
    variant: Mapping[str, str]
    panels: Axis
    rows: Axis
    columns: Axis
    measures: tuple[Measure, ...]
    cells: dict[tuple[int, int, int], Cell] = field(default_factory=dict)
    interrupted: bool = False
    """Ctrl-C stopped the computation: the cells are those done so far."""
    workers: int = 0
    """Worker processes it was handed to (0: computed in this process alone; see
    :mod:`meneur.lab.parallel`, whose rows a worker did not send are computed here)."""

    def headline(self, panel: int, row: int, column: int) -> Fraction | None:
        cell = self.cells.get((panel, row, column))
        return None if cell is None else cell[self.measures[0].name]

    def to_json(self) -> dict[str, Any]:
        def axis(a: Axis) -> dict[str, Any]:
            return {"name": a.name, "values": [jsonable(v) for v in a.values]}

        cells = []
        for (p, r, c), values in sorted(self.cells.items()):
            entry: dict[str, Any] = {
                "panel": jsonable(self.panels.values[p]),
                self.rows.name: jsonable(self.rows.values[r]),
                self.columns.name: jsonable(self.columns.values[c]),
            }
            for measure in self.measures:
                value = values[measure.name]
                entry[measure.name] = float(value)
                entry[f"{measure.name}_exact"] = fraction_text(value)
            cells.append(entry)
        return {
            "system": self.system,
            "check": self.check,
            "variant": dict(self.variant),
            "panels": axis(self.panels),
            "rows": axis(self.rows),
            "columns": axis(self.columns),
            "measures": [m.name for m in self.measures],
            "cells": cells,
            "interrupted": self.interrupted,
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [self.panels.name, self.rows.name, self.columns.name, *(m.name for m in self.measures)]
        )
        for (p, r, c), values in sorted(self.cells.items()):
            writer.writerow(
                [
                    jsonable(self.panels.values[p]),
                    jsonable(self.rows.values[r]),
                    jsonable(self.columns.values[c]),
                    *(f"{probability(values, m.name):.12g}" for m in self.measures),
                ]
            )
        return out.getvalue()


def jsonable(value: Hashable) -> Any:
    """A grid value as JSON/CSV see it: ``("blessed", "always")`` is ``blessed/always``."""
    if isinstance(value, int | float | str) or value is None:
        return value
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    return str(value)


def check_size(panels: Axis, rows: Axis, columns: Axis) -> None:
    """Refuse a grid of more than :data:`MAX_CELLS` cells, before any work starts."""
    size = len(panels.values) * len(rows.values) * len(columns.values)
    if size > MAX_CELLS:
        raise LimitError(
            N_("A table holds at most {limit} cells, not {cells}: narrow the grid."),
            limit=MAX_CELLS,
            cells=size,
        )


CellFunction = Callable[[Hashable, Hashable, Hashable], Cell | None]
RowFunction = Callable[[Hashable, Hashable, Sequence[Hashable]], Sequence[Cell | None] | None]


def compute(
    *,
    system: str,
    check: str,
    variant: Mapping[str, str],
    panels: Axis,
    rows: Axis,
    columns: Axis,
    measures: Sequence[Measure],
    cell: CellFunction,
    row: RowFunction | None = None,
    progress: Callable[[int], None] | None = None,
) -> Grid:
    """Fill every cell with ``cell(panel, row, column)`` (``None``: no cell there).

    ``row(panel, row, columns)``, when given and not ``None``, fills a whole row at once
    from one distribution (a threshold or a difficulty only cuts the same law).
    Ctrl-C stops it with the cells done so far (``grid.interrupted``).
    """
    check_size(panels, rows, columns)
    grid = Grid(system, check, dict(variant), panels, rows, columns, tuple(measures))
    try:
        cells = grid.cells
        for p, panel in enumerate(panels.values):
            for r, row_value in enumerate(rows.values):
                whole = row(panel, row_value, columns.values) if row is not None else None
                if whole is not None:  # a whole row at once
                    if isinstance(whole, FullRow):  # every cell there: stored in C
                        cells.update(zip(zip(repeat(p), repeat(r), count()), whole, strict=False))
                    else:
                        cells.update(((p, r, c), v) for c, v in enumerate(whole) if v is not None)
                    if progress is not None:
                        progress(len(columns.values))
                    continue
                for c, column in enumerate(columns.values):
                    values = cell(panel, row_value, column)
                    if values is not None:
                        cells[(p, r, c)] = values
                    if progress is not None:
                        progress(1)
    except KeyboardInterrupt:  # Ctrl-C: keep the cells done
        object.__setattr__(grid, "interrupted", True)  # frozen: set once, here
    return grid


# --- parsing what the user typed --------------------------------------------------


def parse_int_list(text: str, low: int, high: int, what: str) -> tuple[int, ...]:
    """``1..10``, ``2,4,6`` or ``1..3,8``: whole numbers from ``low`` to ``high``."""
    values: dict[int, None] = {}  # in order, each once: a repeated value counts once
    for part in comma_items(str(text)):
        start, sep, end = part.partition("..")
        if not is_whole(start) or (sep and not is_whole(end)):
            raise UsageError(
                N_("'{text}' is not a list of whole numbers such as 1..10 or 2,4,6."),
                text=str(text),
            )
        first = parse_whole(start)
        last = parse_whole(end) if sep else first
        for number in (first, last):
            if not low <= number <= high:
                raise UsageError(
                    N_("{what}: {number} is out of range, give numbers from {low} to {high}."),
                    what=what,
                    number=number,
                    low=low,
                    high=high,
                )
        if last < first:
            raise UsageError(N_("'{text}' is an empty range."), text=part)
        for number in range(first, last + 1):  # stops at the limit: 1..10**9 builds nothing
            values[number] = None
            if len(values) > MAX_AXIS:
                raise LimitError(N_("An axis has at most {limit} values."), limit=MAX_AXIS)
    if not values:
        raise UsageError(N_("'{text}' names no value."), text=str(text))
    return tuple(values)


def parse_names(text: str, known: Mapping[str, Hashable], what: str) -> tuple[Hashable, ...]:
    """Comma-separated names, matched without case or accents against ``known``."""
    found: list[Hashable] = []
    for part in comma_items(str(text)):
        value = known.get(fold(part))
        if value is None:
            raise UsageError(
                N_("{what}: unknown value '{value}'; choose among {known}."),
                what=what,
                value=part.strip(),
                known=", ".join(dict.fromkeys(str(v) for v in known.values())),
            )
        found.append(value)
    if not found:
        raise UsageError(N_("'{text}' names no value."), text=str(text))
    return tuple(dict.fromkeys(found))


def parse_variant(text: str, options: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """``explode=always,sixes=all``: each key one of ``options``, each value one of its choices."""
    chosen: dict[str, str] = {}
    named = {fold(option): option for option in options}  # margin_counts as margin-counts
    for part in comma_items(str(text)):
        key, sep, value = part.partition("=")
        key, value = named.get(fold(key.strip()), fold(key.strip())), value.strip()
        # a name folds (accents, case); a number keeps its sign (fold dropped the minus
        # of legendary=-1, which then read as 1)
        digits = value.lstrip("+-")
        if is_digits(digits) and len(digits) <= 6:  # "+2" and "02" are 2; "--2" nothing
            value = str(int(value)) if len(value) - len(digits) <= 1 else value
        else:
            value = fold(value)
        if not sep or key not in options:
            raise UsageError(
                N_("Unknown variant '{text}': write OPTION=VALUE with OPTION among {known}."),
                text=part.strip(),
                known=", ".join(options) or "-",
            )
        if value not in options[key]:
            raise UsageError(
                N_("Variant {option}: unknown value '{value}'; choose among {known}."),
                option=key,
                value=value,
                known=", ".join(dict.fromkeys(options[key])),  # the default comes first
            )
        if key in chosen:  # explode=always,explode=never kept the last in silence
            raise UsageError(
                N_("Variant {option}: given more than once; give it once."), option=key
            )
        chosen[key] = value
    return chosen


def variant_label(variant: Mapping[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in variant.items()) or "default"
