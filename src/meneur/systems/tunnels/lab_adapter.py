"""Tunnels in the lab: dice × threshold per mode and explosion policy (T-3 to T-9).

Variants (docs/rules.md): ``explode`` (T-6 policy: needed, always, never), ``sixes`` (T-7:
three 6s in one batch, or over all dice), ``tie`` (T-9 option: a tied opposition is
rolled again: the odds of the decisive rolls). ``loss`` (T-10 option) is a fight's: the
simulator reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, cast

from meneur.lab.adapter import Adapter
from meneur.lab.grid import Axis, Cell, ExactCell, FullRow, Measure, parse_int_list
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.tunnels.system import SYSTEM
from meneur.text import fold

MODES = ("normal", "blessed", "cursed")
POLICIES = ("needed", "always", "never")
NAMES = ("success", "exceptional", "critical")
PARALLEL_WORK = 100_000
"""A test grid whose estimated work, (largest pool)² × (largest threshold + 1), reaches
this computes its modes in worker processes (:meth:`TunnelsAdapter.panel_groups`).

Measured on this 2-core machine (three modes, three policies, a fresh process, one
process against two workers): a worker takes ~0.33 s to send its first row, and two
FLINT computations side by side each run ~10-25 % slower, so two workers only pay from
~2 s of serial work. 1..40 × 1..40 (65,600): 1.46 s serial, 1.64 s with workers; 1..45 ×
1..45 (93,150): 2.07 s and 2.11 s; 1..60 × 1..30 (111,600): 3.01 s and 2.61 s; 1..50 ×
1..50 (127,500): 2.84 s and 2.49 s; 1..60 × 1..60: ~5.5 s and ~4.2 s. Tests lower it to
take the parallel path cheaply."""


def mode_label(mode: str) -> str:
    return {"normal": _("normal"), "blessed": _("blessed"), "cursed": _("cursed")}[mode]


class TunnelsAdapter(Adapter):
    checks: ClassVar[tuple[str, ...]] = ("test", "oppose")
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "explode": POLICIES,
        "sixes": ("batch", "all"),
        "loss": ("margin", "one"),
        "tie": ("none", "reroll"),
    }

    def axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
    ) -> tuple[Axis, Axis, Axis]:
        policies = (variant["explode"],) if "explode" in variant else POLICIES
        modes: tuple[str, ...] = MODES if check == "test" else ("normal",)
        chosen = [(m, p) for m in modes for p in policies]
        if panels:
            wanted = [fold(t) for part in panels.split(",") for t in part.split("/") if t.strip()]
            names = {**{m: m for m in MODES}, "beni": "blessed", "maudit": "cursed"}
            keep_modes = {names[w] for w in wanted if w in names}
            keep_policies = {w for w in wanted if w in POLICIES}
            unknown = [w for w in wanted if w not in names and w not in POLICIES]
            if unknown:
                from meneur.errors import UsageError

                raise UsageError(
                    N_("{what}: unknown value '{value}'; choose among {known}."),
                    what=_("Panels"),
                    value=unknown[0],
                    known=", ".join((*MODES, *POLICIES)),
                )
            chosen = [
                (m, p)
                for m, p in chosen
                if (not keep_modes or m in keep_modes) and (not keep_policies or p in keep_policies)
            ]
        panel_axis = Axis(
            "panel",
            N_("Mode and explosion"),
            tuple(chosen),
            tuple(f"{mode_label(m)} · {p}" if check == "test" else p for m, p in chosen),
        )
        from meneur.systems.tunnels.rules import TestParams

        if check == "test":
            row_values = parse_int_list(rows or "1..10", 1, TestParams.MAX_DICE, _("Dice"))
            col_values = parse_int_list(
                columns or "1..10", 1, TestParams.MAX_THRESHOLD, _("Threshold")
            )
            return (
                panel_axis,
                Axis("dice", N_("Dice"), row_values),
                Axis("threshold", N_("Threshold"), col_values),
            )
        most = TestParams.MAX_DICE  # a side's bound: who wins is exact up to it (who_wins)
        row_values = parse_int_list(rows or "1..6", 1, most, _("Dice"))
        col_values = parse_int_list(columns or "1..6", 1, most, _("Opposing dice"))
        return (
            panel_axis,
            Axis("dice", N_("Dice"), row_values),
            Axis("vs_dice", N_("Opposing dice (MR)"), col_values),
        )

    def panel_names(self, check: str, panels: Axis) -> list[str]:
        """``mode/policy`` (a test), the policy alone (an opposition: no modes)."""
        chosen = [cast(tuple[str, str], panel) for panel in panels.values]
        return [f"{m}/{p}" if check == "test" else p for m, p in chosen]

    def panel_groups(
        self,
        check: str,
        variant: Mapping[str, str],
        panels: Axis,
        rows: Axis,
        columns: Axis,
    ) -> Sequence[Sequence[int]]:
        """One group per mode (T-3: normal, blessed, cursed) of a heavy test grid.

        The modes share nothing (each has its own lowest succeeding face, the key of every
        table of :mod:`~meneur.systems.tunnels.passlaw`), while the policies of one mode
        do: ``needed`` reads the ``always`` family of its mode, so they stay together. A
        grid without an exploding policy (``never``: ~0.15 s at 60 dice), an opposition,
        or a grid below :data:`PARALLEL_WORK` is computed in one process.

        The estimate supposes cold caches, as in a fresh ``meneur table``: a worker builds
        its mode's tables anew. A long-lived process that asks for a heavy grid piece by
        piece (a row of dice at a time) computes faster from its own warm caches with
        ``MENEUR_WORKERS=1`` (the benchmark's row-by-row figures do so).
        """
        chosen = [cast(tuple[str, str], panel) for panel in panels.values]
        if check != "test" or all(policy == "never" for _mode, policy in chosen):
            return ()
        dice = max(n for n in rows.values if isinstance(n, int))
        threshold = max(t for t in columns.values if isinstance(t, int))
        if dice * dice * (threshold + 1) < PARALLEL_WORK:
            return ()
        modes: dict[str, list[int]] = {}
        for index, (mode, _policy) in enumerate(chosen):
            modes.setdefault(mode, []).append(index)
        return tuple(modes.values())

    def measures(self, check: str) -> tuple[Measure, ...]:
        if check == "test":
            return (
                Measure("success", N_("Success")),
                Measure("exceptional", N_("Exceptional success")),
                Measure("critical", N_("Critical failure")),
            )
        return (
            Measure("win", N_("Win")),
            Measure("tie", N_("Nobody wins")),
            Measure("loss", N_("Loss")),
        )

    def law(self, check: str, params: Any) -> Any:
        """An opposition's cell shows the lead alone (:meth:`outcome_of`): its law from the
        joint walk without the three 6s (``odds.margin_lead``), ~5 times faster than the
        whole law and bounded at 20 dice a side instead of 14."""
        if check != "oppose":
            return super().law(check, params)
        from meneur.systems.tunnels.odds import margin_lead

        return margin_lead(params)

    def outcome_of(self, check: str, key: Hashable) -> tuple[Any, str]:
        """Successes (test) or the lead of side a (oppose); a critical failure apart."""
        assert isinstance(key, tuple)
        if check == "test":
            return (-1, _("critical")) if key[2] else (key[0], str(key[0]))
        return key[0], f"{key[0]:+d}"

    def params_at(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> Any:
        return self.params(check, variant, panel, row, column)

    def params(
        self, check: str, variant: Mapping[str, str], panel: Any, row: Any, column: Any
    ) -> Any:
        from meneur.systems.tunnels.rules import OpposedParams, Side, TestParams

        mode, policy = panel
        sixes: Any = self.option(variant, "sixes")
        if check == "test":
            return TestParams(
                dice=row,
                threshold=column,
                blessed=mode == "blessed",
                cursed=mode == "cursed",
                explode=policy,
                sixes=sixes,
            )
        return OpposedParams(Side(row, explode=policy), Side(column, explode=policy), sixes=sixes)

    def row(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        columns: Sequence[Hashable],
    ) -> Sequence[Cell | None] | None:
        """A pool's row: ``never`` from its one-batch law (numpy), exploding policies from
        tables cut at the largest threshold (``odds.pass_row``), which every pool of the
        grid shares.

        Every cell is the same exact fraction as the whole law's (tests compare them).
        """
        if check != "test" or not isinstance(panel, tuple) or not isinstance(row, int):
            return None
        from meneur.systems.tunnels.vector import LOWEST

        if panel[1] == "never":  # one die multiplied in per row
            from meneur.systems.tunnels.lab_grid import tunnels_plain_row

            return tunnels_plain_row(LOWEST[str(panel[0])], row, columns)
        from meneur.systems.tunnels.odds import pass_row

        thresholds = [c for c in columns if isinstance(c, int)]
        if len(thresholds) != len(columns) or not thresholds:
            return None
        params = self.params("test", variant, panel, row, max(thresholds))
        return FullRow(
            ExactCell(NAMES, (w.success, w.exceptional, w.critical), w.total)
            for w in pass_row(params, thresholds, max(thresholds) + 1)
        )

    def _pass_cell(
        self, variant: Mapping[str, str], panel: Hashable, row: Hashable, column: Hashable
    ) -> ExactCell:
        """One cell from the verdict tables cut at its threshold (``odds.pass_odds``)."""
        from meneur.systems.tunnels.odds import pass_odds

        weights = pass_odds(self.params("test", variant, panel, row, column))
        return ExactCell(
            NAMES, (weights.success, weights.exceptional, weights.critical), weights.total
        )

    def cell(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> dict[str, Fraction] | None:
        if check == "test":
            return dict(self._pass_cell(variant, panel, row, column))
        from meneur.systems.tunnels.odds import who_wins

        win, loss, tie = who_wins(self.params(check, variant, panel, row, column))
        if self.option(variant, "tie") == "reroll" and tie < 1:
            # T-9 option: a tie is rolled again until someone wins (as odds --reroll-ties)
            win, loss, tie = win / (1 - tie), loss / (1 - tie), Fraction(0)
        return {"win": win, "tie": tie, "loss": loss}

    def cell_work(self, check: str, params: Any, *, whole_law: bool = False) -> int:
        from meneur.systems.tunnels.odds import opposition_work, whole_law_work

        if check == "oppose":
            return opposition_work(params)
        return whole_law_work(params) if whole_law else 0

    def prepare_cell(
        self,
        check: str,
        params: Any,
        progress: Callable[[int], None],
        *,
        whole_law: bool = False,
    ) -> None:
        """What a cell reads is built first, with a bar: an opposition's sides (60 dice a
        side: seconds), a test's whole law for a distribution (60 dice always exploding:
        about 3 s; needed at a threshold of 1,000: about 15 s). A test's odds alone (a
        cell, the odds beside a simulation) read its verdicts (``odds.pass_odds``, well
        under a second at 60 dice): nothing to build, no whole law kept in memory."""
        from meneur.systems.tunnels.odds import prepare_opposition, prepare_test_odds

        if check == "oppose":
            prepare_opposition(params, progress)
        elif whole_law:
            prepare_test_odds(params, progress)

    def fight_axes(self, rows: str | None, columns: str | None) -> tuple[Axis, Axis]:
        """``compare tunnels --check fight``: dice (rows) × Monster Rating (columns)."""
        from meneur.systems.tunnels.rules import TestParams

        most = TestParams.MAX_DICE  # a Force and a Monster Rating are pools of dice
        dice = parse_int_list(rows or "2..6", 1, most, "--rows")
        mrs = parse_int_list(columns or "1..8", 1, most, "--cols")
        return Axis("dice", N_("Dice"), dice), Axis("mr", N_("Monster Rating"), mrs)

    def fight_point(
        self, variant: Mapping[str, str], row: Hashable, column: Hashable, *, endurance: int
    ) -> Any:
        """A character of ``row`` dice and ``endurance`` against a monster of MR ``column``:
        ``explode`` and ``sixes`` apply to both sides' rolls, ``loss`` (T-10 option) and
        ``tie`` (T-9 option) to the fight."""
        from meneur.lab.sweep import Point
        from meneur.systems.tunnels.combat import against_monster
        from meneur.systems.tunnels.lab import fights_point

        assert isinstance(row, int) and isinstance(column, int)
        option = {key: self.option(variant, key) for key in self.options}
        fight = against_monster(
            row,
            endurance,
            column,
            explode=option["explode"],
            vs_explode=option["explode"],
            sixes=option["sixes"],
            loss=option["loss"],
            tie=option["tie"],
            max_rounds=200,
        )
        return Point(fights_point, fight)

    @staticmethod
    def odds_needed(data: Mapping[str, Any], options: Mapping[str, Any]) -> int | None:
        """``odds tunnels`` reads its threshold from an option, not from its JSON."""
        value = options.get("threshold")
        return None if value is None else int(value)

    def odds_curve(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        """P(success) at thresholds 1..top for the same dice, mode and policy, from the
        exact grid (the ``needed`` explosion policy changes the law with the threshold)."""
        if options.get("threshold") is None:
            return None
        from meneur.lab.odds_plot import MAX_CURVE
        from meneur.lab.progress import LazyBar

        threshold = int(options["threshold"])
        counts = [int(k) for k, p in data["successes"].items() if float(p) >= 1e-4]
        top = max(1, min(MAX_CURVE, max([threshold, *counts])))
        blessed, cursed = bool(options.get("blessed")), bool(options.get("cursed"))
        mode = "normal" if blessed == cursed else "blessed" if blessed else "cursed"
        policy = str(options.get("explode") or "needed")
        variant = {"explode": policy, "sixes": "all" if options.get("sixes") == "all" else "batch"}
        bar = LazyBar(0, _("Exact odds"))  # ``needed``: one law per threshold, seconds at 20 dice
        try:
            grid = self.grid(
                "test", variant, str(options["dice"]), f"1..{top}", f"{mode}/{policy}", progress=bar
            )
        finally:
            bar.stop()
        xs = list(range(1, top + 1))
        ys = [
            float(grid.cells[(0, 0, c)]["success"]) if (0, 0, c) in grid.cells else float("nan")
            for c in range(top)
        ]
        return xs, ys, _("Threshold"), threshold, _("Success by threshold")


ADAPTER = TunnelsAdapter(SYSTEM)
