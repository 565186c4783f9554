"""What the lab asks of a system to tabulate it: the :class:`Adapter` contract.

Each system offers its adapter through its ``lab_adapter()`` hook (in
``systems/<name>/lab_adapter.py``); the lab never looks a system up by name. An adapter
is built on its system, turns grid coordinates and a variant into the system's own
params and reads the system's own exact odds: the lab adds no rule of its own here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from meneur.errors import UsageError
from meneur.lab.grid import (
    Axis,
    Cell,
    Grid,
    Measure,
    check_size,
    compute,
    jsonable,
    parse_variant,
    variant_label,
)
from meneur.locale import N_, gettext
from meneur.systems.base import Check, System

if TYPE_CHECKING:
    from meneur.odds.dist import Dist


class Adapter(ABC):
    """The lab's view of one system: grid axes, variants, params and their odds."""

    checks: ClassVar[tuple[str, ...]] = ("test",)
    """The checks that have a grid (the first is the default of ``meneur table``)."""
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Variant options and their values (the first value is the rule's default)."""

    def __init__(self, owner: System) -> None:
        self.owner = owner
        """The system tabulated: its checks give the odds, its name and title the labels."""

    @property
    def system(self) -> str:
        """The system's name (as the JSON and the messages give it)."""
        return self.owner.name

    def check(self, name: str) -> Check[Any, Any]:
        """The system's own check ``name`` (its ``odds``, ``resolve``, ``vectorised``)."""
        return self.owner.checks()[name]

    @abstractmethod
    def axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
    ) -> tuple[Axis, Axis, Axis]:
        """(panels, rows, columns) from what the user typed (``None``: the default)."""

    def named_axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
    ) -> tuple[Axis, Axis, Axis]:
        """:meth:`axes` for what works on the first panel named (one cell's exact law, a
        simulated cell, a sweep of cells): there, a panel that names nothing is an error
        (there is no first cell), said the same way by each of them."""
        _not_empty(rows, columns, panels)
        axes = self.axes(check, variant, rows, columns, panels)
        self._refuse_no_panel(check, variant, axes, panels)
        return axes

    def panel_names(self, check: str, panels: Axis) -> list[str]:
        """The panels of ``panels`` as the user types them in ``--panels`` (by default
        their JSON form: ``blessed/needed``, ``-2``)."""
        return [str(jsonable(value)) for value in panels.values]

    def _refuse_no_panel(
        self,
        check: str,
        variant: Mapping[str, str],
        axes: tuple[Axis, Axis, Axis],
        panels: str | None,
    ) -> None:
        """Refuse panels that select nothing (``blessed/needed`` of an opposition, which
        has no modes; ``always`` with ``explode=never``), naming those the check and the
        variant do have: an empty table, or a plot of nothing, answered no question."""
        if axes[0].values or panels is None:
            return
        every = self.axes(check, variant, None, None, None)[0]
        raise UsageError(
            N_("No panel '{text}' in this table ({check}, {variant}): choose among {known}."),
            text=panels,
            check=check,
            variant=variant_label(variant) if variant else gettext("default rules"),
            known=", ".join(self.panel_names(check, every)) or "-",
        )

    @abstractmethod
    def measures(self, check: str) -> tuple[Measure, ...]:
        """The probabilities of a cell, the headline first."""

    @abstractmethod
    def cell(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> dict[str, Fraction] | None:
        """The measures at one point of the grid, from the system's own exact odds."""

    def row(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        columns: Sequence[Hashable],
    ) -> Sequence[Cell | None] | None:
        """Optional: a whole row at once, from one law (``None``: cell by cell)."""
        return None

    def params_at(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> Any:
        """The system's own params at one point of the grid (for simulating one cell)."""
        raise UsageError(N_("The lab cannot simulate {system} yet."), system=self.system)

    def cell_work(self, check: str, params: Any, *, whole_law: bool = False) -> int:
        """Optional: what :meth:`prepare_cell` will report for one cell's exact odds (its
        whole law with ``whole_law``, what :meth:`distribution` reads), in its own units
        (0: nothing worth a bar, the default)."""
        return 0

    def prepare_cell(
        self,
        check: str,
        params: Any,
        progress: Callable[[int], None],
        *,
        whole_law: bool = False,
    ) -> None:
        """Optional: build what one cell's exact odds read (:meth:`cell`; its whole law
        with ``whole_law``), reporting the work done, so a cell that takes seconds (large
        pools on both sides) shows a bar. Default: nothing."""
        return None

    def prepared(self, check: str, params: Any, bar: Any, *, whole_law: bool = False) -> None:
        """Build what one cell reads under ``bar`` (a :class:`~meneur.lab.progress.LazyBar`):
        told the cell's work (:meth:`cell_work`), then following :meth:`prepare_cell`.
        ``whole_law``: the cell's whole law (a distribution), not only its odds (a cell
        of a table, the odds beside a simulation), which may read much less."""
        bar.total = max(1, self.cell_work(check, params, whole_law=whole_law))
        self.prepare_cell(check, params, bar.advance, whole_law=whole_law)

    def law(self, check: str, params: Any) -> Dist[Hashable]:
        """The exact law a cell's distribution shows, read through :meth:`outcome_of`:
        the check's own odds (the default). A system whose labels read only part of the
        key may give a coarser law, cheaper to compute, so that larger cells have one."""
        return self.check(check).odds(params)

    def outcome_of(self, check: str, key: Hashable) -> tuple[Any, str]:
        """(sort order, label) of one value of the check's ``key``, for distributions."""
        return str(key), str(key)

    def outcome_words(self, check: str, label: str) -> str:
        """The words a reader sees for one outcome of a distribution (its table, its
        plot): by default its label. The JSON and the CSV keep the label, the same in
        every language for programs."""
        return label

    def distribution(
        self,
        check: str | None,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
        progress: Any = None,
    ) -> tuple[Any, list[tuple[str, Fraction]]]:
        """The exact law of the first cell named: (params, [(label, probability)...]).

        ``progress`` (a :class:`~meneur.lab.progress.LazyBar`) is told the cell's work
        (:meth:`cell_work`) and follows :meth:`prepare_cell`: one heavy cell (60 dice)
        takes seconds, with a bar rather than silence."""
        name = self.check_name(check)
        panel_axis, row_axis, column_axis = self.named_axes(name, variant, rows, columns, panels)
        at = (panel_axis.values[0], row_axis.values[0], column_axis.values[0])
        params = self.params_at(name, variant, *at)
        if progress is not None:
            self.prepared(name, params, progress, whole_law=True)
        dist = self.law(name, params)
        merged: dict[str, tuple[Any, int]] = {}
        for key, weight in dist.items():
            order, label = self.outcome_of(name, key)
            merged[label] = (order, merged.get(label, (order, 0))[1] + weight)
        ordered = sorted(merged.items(), key=lambda item: item[1][0])
        return params, [(label, Fraction(w, dist.total)) for label, (_, w) in ordered]

    def fight_axes(self, rows: str | None, columns: str | None) -> tuple[Axis, Axis]:
        """Optional: the (rows, columns) of ``meneur compare --check fight`` from what the
        user typed (``None``: the default). By default the system offers no fights there."""
        raise UsageError(
            N_("{system} has no fights to compare: choose --check among {known}."),
            system=self.owner.title,
            known=", ".join(self.checks),
        )

    def compares_fights(self) -> bool:
        """Whether ``meneur compare --check fight`` has fights here (:meth:`fight_axes`
        given by the system's adapter)."""
        return type(self).fight_axes is not Adapter.fight_axes

    def fight_point(
        self, variant: Mapping[str, str], row: Hashable, column: Hashable, *, endurance: int
    ) -> Any:
        """The :class:`meneur.lab.sweep.Point` of one fight cell under ``variant`` (see
        :meth:`fight_axes`)."""
        raise NotImplementedError

    @staticmethod
    def odds_needed(data: Mapping[str, Any], options: Mapping[str, Any]) -> int | None:
        """Successes needed, read from what an ``odds`` command printed (``data``) and
        its ``options`` (``None``: none). By default the JSON's ``difficulty``."""
        value = data.get("difficulty")
        return None if value is None else int(value)

    def odds_curve(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        """Optional: the success curve of an ``odds`` plot, as
        :data:`meneur.lab.odds_plot.Curve` (``None``: the tail of the successes' law at
        :meth:`odds_needed`)."""
        return None

    def outcome_label(self, key: str) -> str:
        """The words of one named outcome of an ``odds`` command (its key by default)."""
        return key

    def parse_variant(self, text: str) -> dict[str, str]:
        return parse_variant(text, self.options)

    def option(self, variant: Mapping[str, str], key: str) -> str:
        return variant.get(key, self.options[key][0])

    def panel_groups(
        self,
        check: str,
        variant: Mapping[str, str],
        panels: Axis,
        rows: Axis,
        columns: Axis,
    ) -> Sequence[Sequence[int]]:
        """Optional: the groups of panels (indices into ``panels.values``) that :meth:`grid`
        may compute in separate worker processes (:mod:`meneur.lab.parallel`).

        Panels that share caches (one's table reads another's) belong to one group, which
        one process computes in the serial order: apart, each would build the shared
        tables again. A cell must not depend on what its process computed before (caches
        save time, never change a value), so that each worker computes exactly the cells
        the serial grid would. Every panel is in exactly one group; the heaviest group
        comes first (handed out first).

        Return no group (or one) when the grid is too light to pay for processes: starting
        a worker costs a few tenths of a second, more than most grids take. By default a
        grid is computed in this process.
        """
        return ()

    def grid(
        self,
        check: str | None = None,
        variant: Mapping[str, str] | None = None,
        rows: str | None = None,
        columns: str | None = None,
        panels: str | None = None,
        progress: Any = None,
    ) -> Grid:
        """The grid of exact odds; over several processes when :meth:`panel_groups` says
        it pays (the same cells, in the same order, as computed here)."""
        check = self.check_name(check)
        variant = dict(variant or {})
        _not_empty(rows, columns, panels)
        axes = self.axes(check, variant, rows, columns, panels)
        self._refuse_no_panel(check, variant, axes, panels)
        check_size(*axes)  # before any process starts
        if progress is not None and hasattr(progress, "total"):  # a LazyBar: the cells to do
            progress.total = max(1, len(axes[0].values) * len(axes[1].values) * len(axes[2].values))
        advance = None if progress is None else getattr(progress, "advance", progress)
        groups = self.panel_groups(check, variant, *axes)
        if len(groups) > 1:
            from meneur.lab.parallel import compute_groups, workers

            processes = workers(len(groups))
            if processes > 1:
                return compute_groups(self, check, variant, axes, groups, processes, advance)
        return self.serial_grid(check, variant, *axes, advance)

    def serial_grid(
        self,
        check: str,
        variant: Mapping[str, str],
        panels: Axis,
        rows: Axis,
        columns: Axis,
        progress: Callable[[int], None] | None = None,
    ) -> Grid:
        """The grid of these axes computed in this process, panel after panel, row after
        row (a worker's share of a parallel grid is computed the same way)."""
        return compute(
            system=self.system,
            check=check,
            variant=variant,
            panels=panels,
            rows=rows,
            columns=columns,
            measures=self.measures(check),
            cell=lambda p, r, c: self.cell(check, variant, p, r, c),
            row=lambda p, r, columns: self.row(check, variant, p, r, columns),
            progress=progress,
        )

    def check_name(self, check: str | None) -> str:
        if check is None:
            return self.checks[0]
        if check not in self.checks:
            raise UsageError(
                N_("No table for the check '{check}' of {system}: choose among {known}."),
                check=check,
                system=self.system,
                known=", ".join(self.checks),
            )
        return check


def adapter_for(system: System) -> Adapter:
    """The adapter ``system`` offers through its ``lab_adapter()`` hook."""
    adapter = system.lab_adapter()
    if not isinstance(adapter, Adapter):
        raise UsageError(
            N_("The lab has no adapter for the system {system} yet."), system=system.name
        )
    return adapter


def tails(weights: Mapping[int, int], thresholds: Sequence[Hashable], total: int) -> list[Fraction]:
    """P(value >= t) for each ``t``, from integer weights by value (one suffix sum)."""
    top = max(weights, default=0)
    suffix = [0] * (top + 2)
    for value in range(top, -1, -1):
        suffix[value] = suffix[value + 1] + weights.get(value, 0)
    out = []
    for t in thresholds:
        assert isinstance(t, int)
        index = min(max(t, 0), top + 1)
        out.append(Fraction(suffix[index], total))
    return out


def _not_empty(rows: str | None, columns: str | None, panels: str | None) -> None:
    """Refuse an axis typed empty (``--rows ''``): it fell back to the default axis, so
    the table answered another question than the one asked."""
    for flag, text in (("--rows", rows), ("--cols", columns), ("--panels", panels)):
        if text is not None and not text.strip():
            raise UsageError(N_("{flag} is empty: give values, or leave it out."), flag=flag)
